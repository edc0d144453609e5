// Entry point of the `tablekeeper` command; subcommands register here.
export async function main(argv: string[]): Promise<number> {
  console.error(`tablekeeper: no commands yet (${argv.join(' ')})`);
  return 1;
}
