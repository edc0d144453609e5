// The 3d6 roll of 002 with Advantage as counts (rules README): N net
// Advantage rolls 3+N d6 and keeps the highest three, N net Disadvantage
// keeps the lowest three. Every die rolled is kept in the result so the
// event records it.
import type { Rng, World } from '@tablekeeper/engine';
import { numSetting } from './settings.js';

export interface ThreeD6 {
  /** Net Advantage (+) or Disadvantage (-) actually applied (after the cap). */
  readonly net: number;
  /** Every die rolled, in order. */
  readonly dice: readonly number[];
  /** The three dice that count. */
  readonly kept: readonly number[];
  /** Sum of the kept dice: what "natural" means in 002. */
  readonly natural: number;
}

/** Net Advantage clamped to the table's limit. */
export function clampNet(world: World | null, net: number): number {
  const cap = Math.max(0, Math.floor(numSetting(world, 'tsw.maxNetAdvantage')));
  return Math.max(-cap, Math.min(cap, Math.trunc(net)));
}

export function keepThree(dice: readonly number[], net: number): number[] {
  const sorted = [...dice].sort((a, b) => a - b);
  return net >= 0 ? sorted.slice(sorted.length - 3) : sorted.slice(0, 3);
}

export function roll3d6(rng: Rng, world: World | null, net: number): ThreeD6 {
  const n = clampNet(world, net);
  const dice: number[] = [];
  for (let i = 0; i < 3 + Math.abs(n); i++) dice.push(rng.die(6));
  const kept = keepThree(dice, n);
  return { net: n, dice, kept, natural: kept[0]! + kept[1]! + kept[2]! };
}

/**
 * Exact distribution of the natural result (3..18) with `net` Advantage,
 * as probabilities summing to 1: enumerates every ordered outcome of 3+|net| d6.
 */
export function naturalDistribution(net: number): Map<number, number> {
  const k = 3 + Math.abs(net);
  const counts = new Map<number, number>();
  const dice = new Array<number>(k).fill(1);
  let total = 0;
  for (;;) {
    const kept = keepThree(dice, net);
    const s = kept[0]! + kept[1]! + kept[2]!;
    counts.set(s, (counts.get(s) ?? 0) + 1);
    total++;
    let i = 0;
    while (i < k && dice[i] === 6) dice[i++] = 1;
    if (i === k) break;
    dice[i]!++;
  }
  const out = new Map<number, number>();
  for (let s = 3; s <= 18; s++) out.set(s, (counts.get(s) ?? 0) / total);
  return out;
}
