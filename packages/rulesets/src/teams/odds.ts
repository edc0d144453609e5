// Exact odds for the GM's "what are the odds?" (no sampling): the chance an
// attack hits, is critical, or goes astray, and the chance an ordinary test
// meets a difficulty, from the engine's exact team-test distribution.
import type { Pmf, RuleError, World } from '@tablekeeper/engine';
import { convolve, pmfOfDie, teamTestDistribution, Pmf as PmfClass, own } from '@tablekeeper/engine';
import { effectiveEvasion, isError, prepareAttack, type AttackInput } from './combat.js';
import { clampAdvantage, MAX_BONUS, type TestSpec } from './roll.js';
import { numSetting } from './settings.js';
import { getTeams } from './state.js';

export interface HitOddsInput {
  readonly spec: TestSpec;
  readonly evasion: number;
  readonly criticalThreshold: number;
  /** Thrown or projectile with someone within 1 m: a luck roll at or below this goes astray (null: it cannot). */
  readonly misdirectAtOrBelow: number | null;
}

export interface HitOdds {
  /** Hits the intended target (not astray): critical, or result >= evasion. */
  readonly hit: number;
  readonly critical: number;
  /** Goes to someone within 1 m instead. */
  readonly astray: number;
  readonly miss: number;
}

/** The attack total's distribution (no luck bonus on attacks). */
export function attackTotalDistribution(spec: TestSpec): Pmf {
  return teamTestDistribution({
    attributeDie: spec.attributeDie,
    skillDie: spec.skillDie,
    bonus: Math.max(-MAX_BONUS, Math.min(MAX_BONUS, spec.bonus)),
    advantage: clampAdvantage(spec.advantage),
    luckBonus: false,
    luckModifier: spec.luckModifier,
  });
}

/**
 * The luck die and the test dice are independent: split on the luck roll.
 * As in the attack itself, going astray is decided first; a critical counts
 * for the intended target only when the shot did not go astray.
 */
export function hitOdds(o: HitOddsInput): HitOdds {
  const luck = pmfOfDie(20);
  const m = o.spec.luckModifier;
  const pAstray = o.misdirectAtOrBelow === null ? 0 : luck.atMost(o.misdirectAtOrBelow - m);
  const pCrit = luck.atLeast(o.misdirectAtOrBelow === null ? o.criticalThreshold - m : Math.max(o.criticalThreshold - m, o.misdirectAtOrBelow - m + 1));
  const pMeets = attackTotalDistribution(o.spec).atLeast(o.evasion);
  const pPlain = 1 - pCrit - pAstray;
  const hit = pCrit + pPlain * pMeets;
  return { hit, critical: pCrit, astray: pAstray, miss: Math.max(0, 1 - hit - pAstray) };
}

/** An ordinary test's chance to meet a difficulty, with the table's luck bonus. */
export function testChance(world: World, spec: TestSpec, difficulty: number): number {
  const dice = attackTotalDistribution(spec);
  const at = numSetting(world, 'teams.luckBonusAt');
  const bonus = numSetting(world, 'teams.luckBonus');
  const pLuck = pmfOfDie(20).atLeast(at - spec.luckModifier);
  const luck = pLuck <= 0 ? PmfClass.constant(0) : pLuck >= 1 ? PmfClass.constant(bonus) : PmfClass.fromEntries([[0, 1 - pLuck], [bonus, pLuck]]);
  return convolve(dice, luck).atLeast(difficulty);
}

/** The odds of an attack as it would be made now (penalty, advantage, size, guard included). */
export function attackOdds(world: World, a: AttackInput): HitOdds | RuleError {
  const prep = prepareAttack(world, a);
  if (isError(prep)) return prep;
  const tgt = own(getTeams(world).sheets, a.target)!;
  return hitOdds({
    spec: prep.spec,
    evasion: effectiveEvasion(world, a.target, tgt, prep.attacker.size),
    criticalThreshold: prep.criticalThreshold,
    misdirectAtOrBelow: prep.ranged && a.nearby.length > 0 ? numSetting(world, 'teams.misdirectAtOrBelow') : null,
  });
}
