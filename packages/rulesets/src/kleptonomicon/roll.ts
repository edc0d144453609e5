// A Kleptonomicon Test (rules README, 004): 1d10ish + modifier = Score. The
// engine's dice layer owns the roll; this module only names the pass mark.
import type { EdgeSaveRoller, Rng } from '@tablekeeper/engine';

/** One "d10ish" die: a 10 flips a coin (1 = critical success, reads 10; 2 = critical failure, reads 0). */
function d10ish(rng: Rng): { face: number; value: number; critical: boolean } {
  const face = rng.die(10);
  if (face < 10) return { face, value: face, critical: false };
  return { face, value: rng.die(2) === 1 ? 10 : 0, critical: true };
}

export interface KleptoTestRoll {
  readonly dice: readonly { readonly face: number; readonly value: number; readonly critical: boolean }[];
  readonly chosen: number;
  readonly modifier: number;
  readonly score: number;
  readonly critical: boolean;
}

/** Net advantage is capped at ±3; each adds a die, keeping the highest (lowest for disadvantage). */
export function kleptoTest(rng: Rng, opts: { readonly modifier: number; readonly advantage: number }): KleptoTestRoll {
  const net = Math.max(-3, Math.min(3, Math.trunc(opts.advantage)));
  const dice = Array.from({ length: 1 + Math.abs(net) }, () => d10ish(rng));
  let chosen = 0;
  for (let i = 1; i < dice.length; i++) if (net >= 0 ? dice[i]!.value > dice[chosen]!.value : dice[i]!.value < dice[chosen]!.value) chosen = i;
  const kept = dice[chosen]!;
  return { dice, chosen, modifier: opts.modifier, score: kept.value + opts.modifier, critical: kept.critical };
}

export const edgeSaveRoller: EdgeSaveRoller = (rng, opts) => kleptoTest(rng, opts);

/** A Test fails at or below this Score (an Edge Save fails on 6 or lower). */
export const DEFAULT_FAIL_AT_OR_BELOW = 6;
