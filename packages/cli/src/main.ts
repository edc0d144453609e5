// Entry point of the `tablekeeper` command (bin/tablekeeper.mjs calls main).
import { run, processIo } from './program.js';
import type { CliIo } from './context.js';

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  return run(argv, io);
}
