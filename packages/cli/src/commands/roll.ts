// `tablekeeper roll "<expr>" [--seed N] [--times K] [--json]`
import type { Command } from 'commander';
import { compileDice, fairRng, seededRng, type DiceGroupRoll, type DiceRollResult, type Rng } from '@tablekeeper/engine';
import { type CliContext, guarded, positiveInt } from '../context.js';

/** Most rolls one `--times` may ask for. */
export const MAX_TIMES = 10_000;

function seedOf(raw: string): number | string {
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/** Faces of one dice term: dropped dice in parentheses, explosion / reroll chains in brackets. */
export function describeGroup(g: DiceGroupRoll): string {
  const faces = g.dice.map((d) => {
    let s = d.rolls ? `${d.value}[${d.rolls.join(d.exploded ? '+' : ',')}]` : String(d.value);
    if (d.exploded) s += '!';
    if (d.rerolled) s += 'r';
    return d.kept ? s : `(${s})`;
  });
  return `${g.notation}: ${faces.join(' ')}`;
}

export function describeRoll(r: DiceRollResult): string {
  let line = String(r.total);
  if (r.comparison) line += ` ${r.comparison.op} ${r.comparison.target}: ${r.comparison.success ? 'success' : 'failure'}`;
  if (r.dice.length > 0) line += `   ${r.dice.map(describeGroup).join('; ')}`;
  return line;
}

export function registerRoll(program: Command, ctx: CliContext): void {
  program
    .command('roll')
    .description('roll dice notation, e.g. "4d6kh3", "1d20+5 >= 15", "8d6!"')
    .argument('<expr>', 'dice notation (see docs/dice.md)')
    .option('--seed <seed>', 'seeded, reproducible rolls (integer or text)')
    .option('--times <k>', `roll K times (1-${MAX_TIMES})`)
    .option('--json', 'print JSON')
    .action((expr: string, opts: { seed?: string; times?: string; json?: boolean }) =>
      guarded(ctx, () => {
        const times = positiveInt('--times', opts.times, 1, MAX_TIMES);
        const compiled = compileDice(expr);
        const rng: Rng = opts.seed !== undefined ? seededRng(seedOf(opts.seed)) : fairRng();
        const rolls: DiceRollResult[] = [];
        for (let i = 0; i < times; i++) rolls.push(compiled.roll(rng));
        if (opts.json) {
          const body = times === 1 ? rolls[0] : { expression: expr, seed: opts.seed ?? null, rolls };
          ctx.io.out(JSON.stringify(body) + '\n');
        } else {
          ctx.io.out(rolls.map(describeRoll).join('\n') + '\n');
        }
      }),
    );
}
