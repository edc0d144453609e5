// A Kleptonomicon Test (rules README, 004): 1d10ish + modifier = Score, rolled
// by the engine's dice layer. This file names the pass mark and the exact odds.
import { kleptoTestDistribution, rollKleptoTest, type EdgeSaveRoller, type Json, type KleptoTestRoll, type Rng } from '@tablekeeper/engine';

export type { KleptoTestRoll };

export function kleptoTest(rng: Rng, opts: { readonly modifier: number; readonly advantage: number }): KleptoTestRoll {
  return rollKleptoTest(rng, opts);
}

export const edgeSaveRoller: EdgeSaveRoller = (rng, opts) => rollKleptoTest(rng, opts);

/** A Test fails at or below this Score (an Edge Save fails on 6 or lower). */
export const DEFAULT_FAIL_AT_OR_BELOW = 6;

/** Exact chance that a Test passes (Score above `failAtOrBelow`), e.g. an Edge Save with +1 and a Sneaky advantage. */
export function passChance(opts: { readonly modifier: number; readonly advantage: number }, failAtOrBelow = DEFAULT_FAIL_AT_OR_BELOW): number {
  return kleptoTestDistribution(opts).atLeast(failAtOrBelow + 1);
}

/**
 * The dice of a Test as the log tells them, "d10 3 +1 = Score 4" (GM
 * review 7: the Score alone hid the die). A 10 flips a coin (rules README):
 * it reads "10 (critical success)" or "0 (critical failure)". With several
 * dice the one that counts is named. A stored roll of another shape reads
 * as its Score only.
 */
export function testDiceText(roll: Json): string {
  const r = roll !== null && typeof roll === 'object' && !Array.isArray(roll) ? roll : {};
  const score = r['score'];
  const dice = Array.isArray(r['dice']) ? r['dice'] : [];
  const chosen = typeof r['chosen'] === 'number' ? r['chosen'] : 0;
  const modifier = typeof r['modifier'] === 'number' ? r['modifier'] : 0;
  const valueOf = (d: Json | undefined): number | null => (d !== null && typeof d === 'object' && !Array.isArray(d) && typeof d['value'] === 'number' ? d['value'] : null);
  const counting = dice[chosen];
  const value = valueOf(counting);
  if (typeof score !== 'number' || value === null) return `Score ${String(score)}`;
  const crit = counting !== null && typeof counting === 'object' && !Array.isArray(counting) ? counting['critical'] : null;
  const critWords = crit === 'success' ? ' (critical success)' : crit === 'failure' ? ' (critical failure: a 10, coin lost)' : '';
  const all = dice.map(valueOf).filter((v): v is number => v !== null);
  const advantage = typeof r['advantage'] === 'number' ? r['advantage'] : 0;
  const of = all.length > 1 ? ` (of ${all.join(', ')}: the ${advantage > 0 ? 'highest' : 'lowest'} counts)` : '';
  const mod = modifier === 0 ? '' : ` ${modifier > 0 ? '+' : '-'}${Math.abs(modifier)}`;
  return `d10 ${value}${critWords}${of}${mod} = Score ${score}`;
}
