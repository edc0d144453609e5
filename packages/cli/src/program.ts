// Builds the `tablekeeper` command line. Subcommands live in ./commands/, one
// file each, and register through `registrars`; add new ones there (e.g. serve).
import { Command, CommanderError } from 'commander';
import { chaseExtension } from './commands/chase.js';
import { registerCommands } from './commands/commands.js';
import { oddsExtensions, registerOdds } from './commands/odds.js';
import { registerRoll } from './commands/roll.js';
import { registerServe } from './commands/serve.js';
import { type CliContext, type CliIo, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK } from './context.js';

export type Registrar = (program: Command, ctx: CliContext) => void;

/** Every subcommand's register function, in help order. */
export const registrars: Registrar[] = [registerRoll, registerOdds, registerServe, registerCommands];

// `odds --chase` / `odds --countdown`: exact countdown odds from the engine.
if (!oddsExtensions.includes(chaseExtension)) oddsExtensions.push(chaseExtension);

export function buildProgram(ctx: CliContext, extra: readonly Registrar[] = []): Command {
  const program = new Command('tablekeeper')
    .description('Tablekeeper: dice with exact odds, and the time of your table')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) })
    .showHelpAfterError(false);
  for (const register of [...registrars, ...extra]) register(program, ctx);
  for (const c of program.commands) c.exitOverride().configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
  return program;
}

export const processIo: CliIo = {
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
};

/** Parses argv (without node and the script) and runs; returns the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo, extra: readonly Registrar[] = []): Promise<number> {
  const ctx: CliContext = { io, exitCode: EXIT_OK };
  const program = buildProgram(ctx, extra);
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT_BAD_INPUT;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT_OK;
      return EXIT_BAD_INPUT;
    }
    io.err(`tablekeeper: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_FAILURE;
  }
  return ctx.exitCode;
}
