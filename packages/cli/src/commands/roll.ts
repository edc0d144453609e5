// `tablekeeper roll "<expr>" [--seed N] [--times K] [--json]`
import type { Command } from 'commander';
import {
  compileDice,
  fairRng,
  isNamedRoll,
  NAMED_OUTCOME_WORDS,
  parseNamedRoll,
  rollNamed,
  seededRng,
  type D20Roll,
  type DiceGroupRoll,
  type DiceRollResult,
  type DualityRoll,
  type KleptoTestRoll,
  type LuckTestRoll,
  type NamedRollResult,
  type Rng,
  type TeamTestRoll,
  type ThreeD6Roll,
} from '@tablekeeper/engine';
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
    // Success counting: * a success, _ a failure (rpg-dice-roller's marks); criticals ++ / --.
    if (d.outcome === 'success') s += '*';
    if (d.outcome === 'failure') s += '_';
    if (d.critical) s += d.critical === 'success' ? '++' : '--';
    return d.kept ? s : `(${s})`;
  });
  return `${g.notation}${g.label === undefined ? '' : ` [${g.label}]`}: ${faces.join(' ')}`;
}

export function describeRoll(r: DiceRollResult): string {
  let line = String(r.total);
  if (r.comparison) line += ` ${r.comparison.op} ${r.comparison.target}: ${r.comparison.success ? 'success' : 'failure'}`;
  if (r.dice.length > 0) line += `   ${r.dice.map(describeGroup).join('; ')}`;
  if (r.comment !== undefined) line += `   # ${r.comment}`;
  return line;
}

/** Outcome names as a table says them (the engine's words, so the log and the CLI agree). */
export const OUTCOME_LABELS = NAMED_OUTCOME_WORDS;

const signed = (n: number): string => (n < 0 ? `${n}` : `+${n}`);

/** The dice of a named roll: faces that do not count in parentheses, as for notation. */
function namedDice(r: NamedRollResult): string {
  const s = r.spec;
  const mod = s.modifier !== 0 ? `, modifier ${signed(s.modifier)}` : '';
  switch (s.kind) {
    case 'duality': {
      const d = r.roll as DualityRoll;
      const adv = d.advantageDice.length > 0 ? `, ${d.advantageSign > 0 ? 'advantage +' : 'disadvantage -'}${d.advantageDice.join(d.advantageSign > 0 ? '+' : '-')}` : '';
      return `hope ${d.hope}, fear ${d.fear}${adv}${mod}`;
    }
    case 'way': {
      const d = r.roll as ThreeD6Roll;
      return `natural ${d.natural}: ${d.dice.map((x) => (x.kept ? String(x.value) : `(${x.value})`)).join(' ')}${mod}`;
    }
    case 'klepto': {
      const d = r.roll as KleptoTestRoll;
      const faces = d.dice.map((x, i) => {
        // A 10 flips the coin: value[face, coin], like a notation chain.
        const f = x.critical ? `${x.value}[${x.face}, coin ${x.critical === 'success' ? 'right' : 'wrong'}]` : String(x.face);
        return i === d.chosen ? f : `(${f})`;
      });
      return `d10: ${faces.join(' ')}${mod}`;
    }
    case 'team': {
      const d = r.roll as TeamTestRoll;
      const sets = d.sets.map((x, i) => {
        const t = `d${s.attributeDie} ${x.attribute}${x.skill !== null ? ` + d${s.skillDie} ${x.skill}` : ''}`;
        return d.sets.length === 1 || i === d.chosen ? t : `(${t})`;
      });
      const luck = `luck d20 ${d.luckDie}${d.luck !== d.luckDie ? ` (${d.luck})` : ''}`;
      return `${sets.join(' ')}${s.modifier !== 0 ? `, bonus ${signed(s.modifier)}` : ''}, ${luck}`;
    }
    case 'osr': {
      const d = r.roll as D20Roll;
      return `d20: ${d.dice.map((x, i) => (i === d.kept ? String(x) : `(${x})`)).join(' ')}${mod}`;
    }
    case 'luck': {
      const d = r.roll as LuckTestRoll;
      return `d20: ${d.luckDie}${s.modifier !== 0 ? `, luck modifier ${signed(s.modifier)}` : ''}`;
    }
  }
}

/** One line: the total, against the difficulty, the named outcome, then the dice. */
export function describeNamedRoll(r: NamedRollResult): string {
  const vs = r.spec.difficulty;
  let line = String(r.total);
  // A duality outcome already says success or failure.
  const dualityVs = r.spec.kind === 'duality' && vs !== null;
  if (vs !== null) line += ` vs ${vs}: ${dualityVs ? OUTCOME_LABELS[r.outcome!] : r.success ? 'success' : 'failure'}`;
  if (r.outcome !== null && !dualityVs) line += `${vs !== null ? ',' : ':'} ${OUTCOME_LABELS[r.outcome]}`;
  return `${line}   ${namedDice(r)}`;
}

export function registerRoll(program: Command, ctx: CliContext): void {
  program
    .command('roll')
    .description('roll dice notation or a named roll, e.g. "4d6kh3", "1d20+5 >= 15", "duality+2 vs 15"')
    .argument('<expr>', 'dice notation or a named roll (see docs/dice.md)')
    .option('--seed <seed>', 'seeded, reproducible rolls (integer or text)')
    .option('--times <k>', `roll K times (1-${MAX_TIMES})`)
    .option('--json', 'print JSON')
    .action((expr: string, opts: { seed?: string; times?: string; json?: boolean }) =>
      guarded(ctx, () => {
        const times = positiveInt('--times', opts.times, 1, MAX_TIMES);
        const rng: Rng = opts.seed !== undefined ? seededRng(seedOf(opts.seed)) : fairRng();
        let rolls: (DiceRollResult | NamedRollResult)[];
        let lines: () => string[];
        if (isNamedRoll(expr)) {
          parseNamedRoll(expr); // errors before any die is thrown
          const named: NamedRollResult[] = [];
          for (let i = 0; i < times; i++) named.push(rollNamed(expr, rng));
          rolls = named;
          lines = () => named.map(describeNamedRoll);
        } else {
          const compiled = compileDice(expr);
          const plain: DiceRollResult[] = [];
          for (let i = 0; i < times; i++) plain.push(compiled.roll(rng));
          rolls = plain;
          lines = () => plain.map(describeRoll);
        }
        if (opts.json) {
          const body = times === 1 ? rolls[0] : { expression: expr, seed: opts.seed ?? null, rolls };
          ctx.io.out(JSON.stringify(body) + '\n');
        } else {
          ctx.io.out(lines().join('\n') + '\n');
        }
      }),
    );
}
