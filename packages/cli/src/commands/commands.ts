// `tablekeeper commands [RULESET] [--json]`: every command and query a table
// accepts, from the declarations (ADR 13).
import type { Command } from 'commander';
import { rulesetIds } from '@tablekeeper/rulesets';
import { catalogueOf, catalogueText } from '../catalogue.js';
import { type CliContext, EXIT_BAD_INPUT, guarded } from '../context.js';

export function registerCommands(program: Command, ctx: CliContext): void {
  program
    .command('commands')
    .description('list every command and query of a ruleset (or of all), with who may issue it and its fields')
    .argument('[ruleset]', `one of ${rulesetIds.join(', ')}`)
    .option('--json', 'print a JSON array: ruleset, type, kind, summary, who, schema (JSON Schema)')
    .action((ruleset: string | undefined, opts: { json?: boolean }) =>
      guarded(ctx, () => {
        const entries = catalogueOf(ruleset);
        if (entries === null) {
          ctx.io.err(`tablekeeper: no ruleset "${String(ruleset).slice(0, 40)}" (known: ${rulesetIds.join(', ')})\n`);
          ctx.exitCode = EXIT_BAD_INPUT;
          return;
        }
        ctx.io.out(opts.json === true ? JSON.stringify(entries) + '\n' : catalogueText(entries));
      }),
    );
}
