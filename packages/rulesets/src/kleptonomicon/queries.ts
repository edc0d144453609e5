// kleptonomicon.testOdds: the exact chance a Test passes (Score above the table's
// fail mark) for a modifier and net advantage, as kleptonomicon.test would roll it.
import type { Json, Query, Result } from '@tablekeeper/engine';
import { DEFAULT_FAIL_AT_OR_BELOW, passChance } from './roll.js';
import { K, numberSetting } from './settings.js';

const MAX_MODIFIER = 50;

function intArg(args: { readonly [key: string]: Json }, key: string, lo: number, hi: number): Result<number> {
  const v = args[key] ?? 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) return { ok: false, error: { code: 'INVALID_VALUE', message: `${key} must be an integer in [${lo}, ${hi}]`, path: key } };
  return { ok: true, value: v };
}

const testOdds: Query = (world, args) => {
  const modifier = intArg(args, 'modifier', -MAX_MODIFIER, MAX_MODIFIER);
  if (!modifier.ok) return modifier;
  const advantage = intArg(args, 'advantage', -10, 10);
  if (!advantage.ok) return advantage;
  // Against a defense (an improvised maneuver) the Score must reach it: it fails at one below.
  const defense = args['defense'];
  if (defense !== undefined && (typeof defense !== 'number' || !Number.isInteger(defense) || defense < 0 || defense > 100)) return { ok: false, error: { code: 'INVALID_VALUE', message: 'defense must be an integer in [0, 100]', path: 'defense' } };
  const failAtOrBelow = typeof defense === 'number' ? defense - 1 : (numberSetting(world, K.failAtOrBelow) ?? DEFAULT_FAIL_AT_OR_BELOW);
  return { ok: true, value: { pass: passChance({ modifier: modifier.value, advantage: advantage.value }, failAtOrBelow), failAtOrBelow } };
};

export const kleptoQueries: { readonly [name: string]: Query } = { 'kleptonomicon.testOdds': testOdds };
