// 001 "Saves & Checks", "Skills & Proficiency" and the rules README's dice
// facts: a check is 1d20 + modifier against a DC (or AC); advantage rolls two
// d20 and keeps the higher, disadvantage keeps the lower. Pure arithmetic only.

export const ABILITIES = ['str', 'dex', 'con', 'int', 'wis', 'cha'] as const;
export type Ability = (typeof ABILITIES)[number];

export function isAbility(x: unknown): x is Ability {
  return typeof x === 'string' && (ABILITIES as readonly string[]).includes(x);
}

/** Rules README: modifier = floor((score - 10) / 2). */
export function abilityModifier(score: number): number {
  return Math.floor((score - 10) / 2);
}

/**
 * The excerpt names a proficiency bonus but gives no table; the game is
 * derived from 5e, so by default we use 5e's +2 at levels 1-4 rising by 1
 * every four levels (setting `proficiencyByLevel`). A sheet may override it.
 */
export function proficiencyForLevel(level: number): number {
  const l = Math.max(1, Math.min(20, Math.floor(level)));
  return 2 + Math.floor((l - 1) / 4);
}

/** How advantage and disadvantage from several sources combine (setting `advantageCombine`). */
export type AdvantageCombine = 'cancel' | 'net';

/**
 * 'cancel' (5e, our default): any advantage and any disadvantage together
 * give a straight roll. 'net': sources cancel one for one.
 * Result is -1, 0 or +1 (one extra d20 at most: the text never rolls three).
 */
export function combineAdvantage(advantages: number, disadvantages: number, mode: AdvantageCombine = 'cancel'): -1 | 0 | 1 {
  const a = Math.max(0, advantages);
  const d = Math.max(0, disadvantages);
  if (mode === 'cancel') {
    if (a > 0 && d > 0) return 0;
    return a > 0 ? 1 : d > 0 ? -1 : 0;
  }
  const n = a - d;
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

/** Net advantage counts (positive = advantage) folded to -1/0/+1. */
export function foldAdvantage(n: number): -1 | 0 | 1 {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

export interface CheckResult {
  /** The d20 faces rolled (two when advantage or disadvantage applied). */
  readonly dice: readonly number[];
  readonly advantage: -1 | 0 | 1;
  /** The kept d20 (the "natural" roll). */
  readonly natural: number;
  readonly modifier: number;
  readonly total: number;
  readonly dc: number;
  readonly success: boolean;
  /** How far under the DC a failure fell (0 on success). Roll to return reads it. */
  readonly shortfall: number;
}

export interface CheckRules {
  /** A natural 20 succeeds whatever the total (attacks: setting `natural20AlwaysHits`). */
  readonly natural20Succeeds?: boolean;
  /** A natural 1 fails whatever the total (setting `natural1AlwaysFails`). */
  readonly natural1Fails?: boolean;
}

/** Resolve a check from its d20 faces (one face, or two with advantage / disadvantage). */
export function resolveCheck(dice: readonly number[], advantage: -1 | 0 | 1, modifier: number, dc: number, rules: CheckRules = {}): CheckResult {
  const natural = advantage === 1 ? Math.max(...dice) : advantage === -1 ? Math.min(...dice) : (dice[0] ?? 1);
  const total = natural + modifier;
  let success = total >= dc;
  if (rules.natural20Succeeds === true && natural === 20) success = true;
  if (rules.natural1Fails === true && natural === 1) success = false;
  return { dice: [...dice], advantage, natural, modifier, total, dc, success, shortfall: success ? 0 : Math.max(0, dc - total) };
}
