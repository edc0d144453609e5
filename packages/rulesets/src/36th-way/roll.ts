// The 3d6 roll of 002 with Advantage as counts (rules README), on the dice
// module's rollThreeD6 / threeD6NaturalDistribution: N net Advantage rolls
// 3+N d6 and keeps the highest three, N net Disadvantage keeps the lowest
// three. Every die rolled is kept in the result so the event records it.
import type { Rng, World } from '@tablekeeper/engine';
import { rollThreeD6, threeD6NaturalDistribution } from '@tablekeeper/engine';
import { numSetting } from './settings.js';

export interface ThreeD6 {
  /** Net Advantage (+) or Disadvantage (-) actually applied (after the cap). */
  readonly net: number;
  /** Every die rolled, in order. */
  readonly dice: readonly number[];
  /** The three dice that count, lowest first. */
  readonly kept: readonly number[];
  /** Sum of the kept dice: what "natural" means in 002. */
  readonly natural: number;
}

/** Net Advantage clamped to the table's limit (36th-way.maxNetAdvantage). */
export function clampNet(world: World | null, net: number): number {
  const cap = Math.max(0, Math.min(10, Math.floor(numSetting(world, '36th-way.maxNetAdvantage'))));
  return Math.max(-cap, Math.min(cap, Math.trunc(net)));
}

export function roll3d6(rng: Rng, world: World | null, net: number): ThreeD6 {
  const n = clampNet(world, net);
  const r = rollThreeD6(rng, { advantage: n });
  const kept = r.dice.filter((d) => d.kept).map((d) => d.value).sort((a, b) => a - b);
  return { net: n, dice: r.dice.map((d) => d.value), kept, natural: r.natural };
}

/** Exact probability of each natural result 3..18 with `net` Advantage (clamped like a roll). */
export function naturalDistribution(net: number, world: World | null = null): Map<number, number> {
  const pmf = threeD6NaturalDistribution(clampNet(world, net));
  const out = new Map<number, number>();
  for (let s = 3; s <= 18; s++) out.set(s, pmf.probability(s));
  return out;
}

/**
 * A 3d6 roll in the log's words, every die shown (review 9: saves logged without dice): "3d6 [2, 5, 6] = 13";
 * with Advantage "5d6 keep highest 3 (2 Advantage) [1, 2, 5, 6, 4] = 15"; with Disadvantage "keep lowest 3". Old events
 * without dice read "natural 13".
 */
export function diceWords(roll: unknown): string {
  const r = roll !== null && typeof roll === 'object' ? (roll as Partial<ThreeD6>) : {};
  if (typeof r.natural !== 'number') return 'no roll recorded';
  if (!Array.isArray(r.dice) || r.dice.length < 3) return `natural ${r.natural}`;
  const n = r.dice.length;
  const net = r.net ?? 0;
  const keep = n === 3 ? '3d6' : `${n}d6 keep ${net > 0 ? 'highest' : 'lowest'} 3 (${Math.abs(net)} ${net > 0 ? 'Advantage' : 'Disadvantage'})`;
  return `${keep} [${r.dice.join(', ')}] = ${r.natural}`;
}
