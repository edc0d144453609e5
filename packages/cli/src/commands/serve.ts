// `tablekeeper serve [--db FILE] [--port N] [--host ADDR] [--new-table] ...`:
// the same server `npm start` runs (options are the server's own, see --help).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('start the table server (same as npm start; try: tablekeeper serve --help)')
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .argument('[options...]', 'server options: --db FILE, --port N, --host ADDR, --new-table, --ruleset ID, --name NAME')
    .action(async (rest: string[]) => {
      // Loaded only here so `roll` and `odds` never open a database or load the server.
      const { serveMain } = await import('@tablekeeper/server/serve');
      await serveMain(rest);
      ctx.exitCode = 0;
    });
}
