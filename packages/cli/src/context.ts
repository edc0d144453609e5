// What every subcommand gets: where to write, and a way to set the exit code.
import { DiceError } from '@tablekeeper/engine';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export interface CliContext {
  readonly io: CliIo;
  /** The process exit code main() returns (0 ok, 1 failure, 2 bad input). */
  exitCode: number;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

/** A DiceError as a one-line message, then the expression with a caret under the column. */
export function reportDiceError(ctx: CliContext, e: DiceError): void {
  const where = e.expression ? ` (column ${e.position + 1})` : '';
  ctx.io.err(`tablekeeper: ${e.message}${where}\n`);
  if (e.expression) ctx.io.err(`  ${e.expression}\n  ${' '.repeat(e.position)}^\n`);
  ctx.exitCode = EXIT_BAD_INPUT;
}

/** Runs a subcommand body, turning DiceErrors into exit code 2. */
export async function guarded(ctx: CliContext, body: () => void | Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    if (e instanceof DiceError) reportDiceError(ctx, e);
    else throw e;
  }
}

/** Reads a positive integer option, with a named limit. */
export function positiveInt(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new DiceError('BAD_OPTION', `${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < 1) throw new DiceError('BAD_OPTION', `${name} must be at least 1`);
  if (n > max) throw new DiceError('LIMIT', `${name} ${n} is over the limit (${max})`, 0, '', name);
  return n;
}
