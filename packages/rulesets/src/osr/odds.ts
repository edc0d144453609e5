// Exact odds a GM asks for at the table ("what are my chances?"), from the
// engine's Pmf: checks, hits and criticals with advantage, damage and loot.
import { d20Distribution, mapPmf, pmfOfDie, sumIid, Pmf } from '@tablekeeper/engine';

export interface CheckOddsOptions {
  readonly natural20Succeeds?: boolean;
  readonly natural1Fails?: boolean;
}

const modeOf = (a: -1 | 0 | 1) => (a === 1 ? 'advantage' : a === -1 ? 'disadvantage' : 'normal') as 'advantage' | 'disadvantage' | 'normal';

/** Distribution of the kept d20 (1..20) under advantage / disadvantage. */
export function naturalDistribution(advantage: -1 | 0 | 1): Pmf {
  return d20Distribution({ mode: modeOf(advantage) });
}

/** P(check succeeds): natural + modifier >= DC, with the natural 20 / 1 settings. */
export function checkChance(modifier: number, dc: number, advantage: -1 | 0 | 1 = 0, o: CheckOddsOptions = {}): number {
  const nat = naturalDistribution(advantage);
  let p = 0;
  let every = true;
  for (let n = 1; n <= 20; n++) {
    let ok = n + modifier >= dc;
    if (o.natural20Succeeds === true && n === 20) ok = true;
    if (o.natural1Fails === true && n === 1) ok = false;
    if (ok) p += nat.probability(n);
    else every = false;
  }
  // Twenty floating-point twentieths add up to 1.0000000000000002: a sure thing is exactly 1, and no sum passes it.
  return every ? 1 : Math.min(p, 1);
}

export interface AttackOdds {
  /** P(hit), criticals included. */
  readonly hit: number;
  /** P(natural 20 that hits): damage doubled. */
  readonly crit: number;
  /** Expected damage per attack (misses count 0). */
  readonly expectedDamage: number;
}

/** Hit and critical chances against an AC, and expected damage of `count`d`sides` + bonus (crit doubles the total). */
export function attackOdds(modifier: number, ac: number, advantage: -1 | 0 | 1, damage: { count: number; sides: number; bonus: number }, o: CheckOddsOptions = { natural20Succeeds: true }): AttackOdds {
  const nat = naturalDistribution(advantage);
  const hit = checkChance(modifier, ac, advantage, o);
  const crit = o.natural20Succeeds === true || 20 + modifier >= ac ? nat.probability(20) : 0;
  const dice = damage.count > 0 ? sumIid(pmfOfDie(damage.sides), damage.count) : Pmf.constant(0);
  // Damage never goes below 0, so clamp each outcome before averaging (exact, not mean-then-clamp).
  const perHit = mapPmf(dice, (x) => Math.max(0, x + damage.bonus)).mean;
  return { hit, crit, expectedDamage: (hit - crit) * perHit + crit * 2 * perHit };
}

/** Carried loot of an enemy: the distribution of HD d20 in gp (001 "Treasure"). */
export function lootDistribution(hd: number): Pmf {
  return sumIid(pmfOfDie(20), Math.max(1, Math.floor(hd)));
}

/**
 * A dangerous check's damage chances (001 "Traps", "Critical Failure"): damage lands on any failure; a natural 1
 * that fails doubles it for a PC. `impossible` (sight in darkness) fails every roll. Exact, from the kept d20.
 */
export function failDamageOdds(modifier: number, dc: number, advantage: -1 | 0 | 1, impossible: boolean, pc: boolean): { readonly chance: number; readonly doubled: number } {
  const nat = naturalDistribution(advantage);
  const pass = impossible ? 0 : checkChance(modifier, dc, advantage);
  const naturalOneFails = impossible || 1 + modifier < dc;
  return { chance: 1 - pass, doubled: pc && naturalOneFails ? nat.probability(1) : 0 };
}
