// `tablekeeper odds --chase P:C --modifier M --difficulty D [--advantage N]` and
// `tablekeeper odds --countdown V [--advance standard|progress|consequence] ...`:
// exact countdown odds (absorbing Markov chains) from an action roll's numbers.
import { chaseOdds, countdownOdds, DiceError, type Advance, type Result } from '@tablekeeper/engine';
import type { CliContext } from '../context.js';
import type { OddsExtension } from './odds.js';

const pct = (p: number): string => `${(p * 100).toFixed(2)}%`;

function intOption(name: string, raw: unknown, fallback: number | null, min: number, max: number): number {
  if (raw === undefined) {
    if (fallback === null) throw new DiceError('BAD_OPTION', `--${name} is required`);
    return fallback;
  }
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw)) throw new DiceError('BAD_OPTION', `--${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new DiceError('LIMIT', `--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new DiceError('BAD_OPTION', `${r.error.message}${r.error.path !== undefined ? ` (${r.error.path})` : ''}`);
  return r.value;
}

function source(opts: Record<string, unknown>): { modifier: number; difficulty: number; advantage: number } {
  return {
    modifier: intOption('modifier', opts['modifier'], 0, -100, 100),
    difficulty: intOption('difficulty', opts['difficulty'], null, 1, 200),
    advantage: intOption('advantage', opts['advantage'], 0, -20, 20),
  };
}

export const chaseExtension: OddsExtension = {
  options: [
    ['--chase <progress:consequence>', 'exact chase odds for the PCs\' progress and the other party\'s consequence countdowns, e.g. 6:4'],
    ['--countdown <value>', 'exact odds of one countdown triggering, e.g. 6'],
    ['--advance <column>', 'countdown advancement: standard (every roll), progress or consequence (default standard)'],
    ['--modifier <n>', 'the action roll modifier (default 0)'],
    ['--difficulty <n>', 'the action roll difficulty'],
    ['--advantage <n>', 'net advantage dice (+d6 each; negative for disadvantage)'],
  ],
  handles: (opts) => opts['chase'] !== undefined || opts['countdown'] !== undefined,
  run(_expr, opts, ctx: CliContext) {
    const src = source(opts);
    if (opts['chase'] !== undefined) {
      const m = /^(\d+):(\d+)$/.exec(String(opts['chase']));
      if (m === null) throw new DiceError('BAD_OPTION', `--chase takes progress:consequence, e.g. 6:4 (got ${JSON.stringify(opts['chase'])})`);
      const o = unwrap(chaseOdds({ progress: Number(m[1]), consequence: Number(m[2]) }, src));
      if (opts['json']) {
        ctx.io.out(JSON.stringify({ progress: o.progress, consequence: o.consequence, ...src, progressFirst: o.progressFirst, consequenceFirst: o.consequenceFirst, sameRoll: o.sameRoll, never: o.never, expectedRolls: o.expectedRolls, remainingMass: o.remainingMass }) + '\n');
        return;
      }
      ctx.io.out(
        [
          `chase: PCs' progress ${o.progress} vs the other party's consequence ${o.consequence}; action rolls at +${src.modifier} vs difficulty ${src.difficulty}${src.advantage !== 0 ? `, advantage ${src.advantage}` : ''}`,
          `  PCs finish first:          ${pct(o.progressFirst)}`,
          `  the other party first:     ${pct(o.consequenceFirst)}`,
          `  both on the same roll:     ${pct(o.sameRoll)}`,
          `  expected action rolls:     ${o.expectedRolls.toFixed(3)}`,
        ].join('\n') + '\n',
      );
      return;
    }
    const value = intOption('countdown', opts['countdown'], null, 1, 1000);
    const advance = (opts['advance'] ?? 'standard') as string;
    if (advance !== 'standard' && advance !== 'progress' && advance !== 'consequence') throw new DiceError('BAD_OPTION', `--advance must be standard, progress or consequence (got ${JSON.stringify(advance)})`);
    const o = unwrap(countdownOdds({ value, advance: advance as Advance }, src));
    if (opts['json']) {
      ctx.io.out(JSON.stringify({ value, advance, ...src, pTrigger: o.pTrigger, expectedRolls: o.expectedRolls, within: o.within.slice(0, 50), remainingMass: o.remainingMass }) + '\n');
      return;
    }
    const lines = [`countdown ${value} (${advance}); action rolls at +${src.modifier} vs difficulty ${src.difficulty}`, `  triggers at all: ${pct(o.pTrigger)}; expected rolls ${o.expectedRolls.toFixed(3)}`];
    for (let k = 1; k <= Math.min(o.within.length, 12); k++) lines.push(`  within ${String(k).padStart(2)} roll${k === 1 ? ' ' : 's'}: ${pct(o.within[k - 1]!)}`);
    ctx.io.out(lines.join('\n') + '\n');
  },
};
