// 002 "Damage", "Damage Types", "Resistance and Weakness": damage dice, the
// three shortcuts for large pools (roll all, average most, multiply a die),
// averages computed (the text's chart is wrong at 36d10), and how crits,
// resistance, weakness and vulnerability change an attack's damage.
import type { Json, Rng, World } from '@tablekeeper/engine';
import { errR, okR, type R } from './result.js';
import { halve, numSetting, setting } from './settings.js';

export const DAMAGE_TYPES = ['acid', 'cold', 'fire', 'force', 'lightning', 'necrotic', 'psychic', 'radiant', 'thunder', 'weapon'] as const;
export type DamageType = (typeof DAMAGE_TYPES)[number];
export function isDamageType(x: unknown): x is DamageType {
  return typeof x === 'string' && (DAMAGE_TYPES as readonly string[]).includes(x);
}

export const MAX_DICE = 100;
export const MAX_SIDES = 100;
export const MAX_FLAT = 10_000;

/** YdX + bonus. */
export interface DamageDice {
  readonly count: number;
  readonly sides: number;
  readonly bonus: number;
}

/** The shortcuts of 002 "Damage" as roll modes. */
export type RollMode =
  /** "Just Roll Them Out" */
  | { readonly kind: 'all' }
  /** "Average Many of Them": `averaged` dice (half or more) count their average, the rest are rolled. */
  | { readonly kind: 'average'; readonly averaged: number }
  /** "Multiply a Die": one die times `multiplier` stands for that many dice; the rest are rolled normally. */
  | { readonly kind: 'multiply'; readonly multiplier: number };

export interface DamageRoll {
  readonly mode: RollMode['kind'];
  /** Every die rolled, in order (the multiplied die first in multiply mode). */
  readonly dice: readonly number[];
  /** Points contributed by averaged dice (average mode). */
  readonly averagedPoints: number;
  readonly multiplier: number;
  readonly bonus: number;
  readonly total: number;
}

/** Exact mean of YdX (may end in .5). */
export function meanOf(count: number, sides: number): number {
  return (count * (sides + 1)) / 2;
}

export const AVERAGE_CHART_DICE = [4, 6, 8, 10, 12] as const;
/** The "even-damage" averages chart, computed: rows 2, 4, ..., 40 dice; columns d4..d12. */
export function averagesChart(): { readonly count: number; readonly averages: readonly number[] }[] {
  const rows = [];
  for (let count = 2; count <= 40; count += 2) rows.push({ count, averages: AVERAGE_CHART_DICE.map((s) => meanOf(count, s)) });
  return rows;
}

/** 002 "Recoveries": an averaged recovery rounds EACH die down (2d8 = 2 x 4 = 8, not 9). */
export function recoveryAverage(count: number, sides: number): number {
  return count * Math.floor((sides + 1) / 2);
}

function int(j: Json | undefined, path: string, lo: number, hi: number): R<number> {
  if (typeof j !== 'number' || !Number.isInteger(j) || j < lo || j > hi) return errR('INVALID_VALUE', `${path} must be an integer in [${lo}, ${hi}]`, path);
  return okR(j);
}

export function parseDice(j: Json | undefined, path = 'damage'): R<DamageDice> {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return errR('INVALID_VALUE', `${path} must be { count, sides, bonus? }`, path);
  const count = int(j['count'] ?? 0, `${path}.count`, 0, MAX_DICE);
  if (!count.ok) return count;
  const sides = int(j['sides'] ?? 6, `${path}.sides`, 1, MAX_SIDES);
  if (!sides.ok) return sides;
  const bonus = int(j['bonus'] ?? 0, `${path}.bonus`, -MAX_FLAT, MAX_FLAT);
  if (!bonus.ok) return bonus;
  return okR({ count: count.value, sides: sides.value, bonus: bonus.value });
}

export function parseMode(j: Json | undefined, dice: DamageDice, path = 'mode'): R<RollMode> {
  if (j === undefined || j === null || j === 'all') return okR({ kind: 'all' });
  if (typeof j !== 'object' || Array.isArray(j)) return errR('INVALID_VALUE', `${path} must be "all", { kind: "average", averaged } or { kind: "multiply", multiplier }`, path);
  const kind = j['kind'];
  if (kind === 'all') return okR({ kind });
  if (kind === 'average') {
    // "Take the average of half or more of the dice and roll the rest."
    const a = int(j['averaged'], `${path}.averaged`, Math.ceil(dice.count / 2), dice.count);
    return a.ok ? okR({ kind, averaged: a.value }) : a;
  }
  if (kind === 'multiply') {
    const m = int(j['multiplier'], `${path}.multiplier`, Math.min(2, dice.count), dice.count);
    return m.ok ? okR({ kind, multiplier: m.value }) : m;
  }
  return errR('INVALID_VALUE', `${path}.kind must be "all", "average" or "multiply"`, `${path}.kind`);
}

/** Roll YdX + bonus in one of the three modes. Every die is kept in the result. */
export function rollDamage(dice: DamageDice, mode: RollMode, rng: Rng): DamageRoll {
  const rolled: number[] = [];
  const roll = (n: number): number => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const d = rng.die(dice.sides);
      rolled.push(d);
      s += d;
    }
    return s;
  };
  if (dice.count === 0) return { mode: mode.kind, dice: [], averagedPoints: 0, multiplier: 1, bonus: dice.bonus, total: Math.max(0, dice.bonus) };
  switch (mode.kind) {
    case 'all': {
      const s = roll(dice.count);
      return { mode: 'all', dice: rolled, averagedPoints: 0, multiplier: 1, bonus: dice.bonus, total: Math.max(0, s + dice.bonus) };
    }
    case 'average': {
      // Averaged dice give their exact mean, rounded down once for the group.
      const avg = Math.floor(meanOf(mode.averaged, dice.sides));
      const s = roll(dice.count - mode.averaged);
      return { mode: 'average', dice: rolled, averagedPoints: avg, multiplier: 1, bonus: dice.bonus, total: Math.max(0, avg + s + dice.bonus) };
    }
    case 'multiply': {
      const first = roll(1) * mode.multiplier;
      const rest = roll(dice.count - mode.multiplier);
      return { mode: 'multiply', dice: rolled, averagedPoints: 0, multiplier: mode.multiplier, bonus: dice.bonus, total: Math.max(0, first + rest + dice.bonus) };
    }
  }
}

/** Expected damage of a roll mode (before crits and resistance). Same mean as rolling, except for the rounding of averaged dice. */
export function expectedDamage(dice: DamageDice, mode: RollMode): number {
  if (mode.kind === 'average') return Math.floor(meanOf(mode.averaged, dice.sides)) + meanOf(dice.count - mode.averaged, dice.sides) + dice.bonus;
  return meanOf(dice.count, dice.sides) + dice.bonus;
}

/** Spread of a mode: the lowest and highest totals it can give (multiply mode is swingier). */
export function damageRange(dice: DamageDice, mode: RollMode): { readonly min: number; readonly max: number } {
  switch (mode.kind) {
    case 'all':
      return { min: dice.count + dice.bonus, max: dice.count * dice.sides + dice.bonus };
    case 'average': {
      const avg = Math.floor(meanOf(mode.averaged, dice.sides));
      const r = dice.count - mode.averaged;
      return { min: avg + r + dice.bonus, max: avg + r * dice.sides + dice.bonus };
    }
    case 'multiply': {
      const r = dice.count - mode.multiplier;
      return { min: mode.multiplier + r + dice.bonus, max: mode.multiplier * dice.sides + r * dice.sides + dice.bonus };
    }
  }
}

// ---------------------------------------------------------------- resistance, weakness, vulnerability

/** Resist [type] X+ entries of a sheet: type -> X. */
export type Resists = { readonly [type: string]: number };

/**
 * The resistance threshold that applies to damage of `types`, or null. With
 * several types the setting decides: resisted only if every type is resisted
 * (the weakest resistance counts), or if any is (the strongest counts).
 */
export function resistThreshold(resist: Resists, types: readonly string[], world: World | null): number | null {
  const xs = types.map((t) => resist[t]);
  if (types.length === 0) return null;
  if (setting<string>(world, '36th-way.resistMultiType') === 'any-type') {
    const have = xs.filter((x): x is number => x !== undefined);
    return have.length === 0 ? null : Math.max(...have);
  }
  if (xs.some((x) => x === undefined)) return null;
  return Math.min(...(xs as number[]));
}

/** Weak to at least one of the damage's types (multi-type attacks count). */
export function isWeakTo(weak: readonly string[], types: readonly string[]): boolean {
  return types.some((t) => weak.includes(t));
}

/** Natural result at or above which the attack crits: 17+, 16+ when Weak or Vulnerable, 15+ when both. */
export function critThreshold(world: World | null, weak: boolean, vulnerable: boolean): number {
  return numSetting(world, '36th-way.critAt') - (weak ? 1 : 0) - (vulnerable ? 1 : 0);
}

export interface DamageSteps {
  /** The rolled (or fixed) amount before any multiplying or halving. */
  readonly base: number;
  readonly crit: boolean;
  /** Resisted: the natural roll was below the target's Resist X+. */
  readonly resisted: boolean;
}

/** Final damage: base, doubled on a crit, then halved if resisted. */
export function finalDamage(world: World | null, s: DamageSteps): number {
  const crit = s.crit ? s.base * numSetting(world, '36th-way.critMultiplier') : s.base;
  return s.resisted ? halve(crit, world) : crit;
}

/** 002 Confused: on a natural odd result the attacker takes half the damage dealt, counted before crits and resistance. */
export function confusedSelfDamage(world: World | null, natural: number, base: number): number {
  return natural % 2 === 1 ? halve(base, world) : 0;
}
