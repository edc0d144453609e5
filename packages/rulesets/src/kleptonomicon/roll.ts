// A Kleptonomicon Test (rules README, 004): 1d10ish + modifier = Score, rolled
// by the engine's dice layer. This file names the pass mark and the exact odds.
import { kleptoTestDistribution, rollKleptoTest, type EdgeSaveRoller, type KleptoTestRoll, type Rng } from '@tablekeeper/engine';

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
