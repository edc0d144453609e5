// 003 "Attacks" and "Block" / "Parry" as pure arithmetic on rolled dice: the
// test result against evasion, the luck die against the critical threshold,
// the multiple attack penalty, size, damage after the matching reduction.
import type { DamageCategory } from './damage.js';
import { reducedDamage } from './damage.js';

/** -2 (by default) for each attack the same attacker made earlier this round. */
export function multipleAttackPenalty(earlierAttacks: number, per: number): number {
  return -Math.max(0, earlierAttacks) * per;
}

/**
 * Size difference, attacker minus target: a larger attacker treats the
 * target's evasion as that much higher and its deflection that much lower
 * (a smaller one the reverse).
 */
export function sizeShift(attackerSize: number, targetSize: number): { readonly evasion: number; readonly deflection: number } {
  const d = attackerSize - targetSize;
  return { evasion: d, deflection: -d };
}

export interface AttackCheck {
  /** The test result after every bonus and penalty (no luck bonus for attacks). */
  readonly result: number;
  /** The luck roll (d20 plus any luck modifier). */
  readonly luck: number;
  /** The target's evasion as this attacker sees it (size, guard...). */
  readonly evasion: number;
  readonly criticalThreshold: number;
}

/** Luck at or above the threshold cannot miss and deals critical damage; otherwise result >= evasion hits. */
export function attackOutcome(c: AttackCheck): { readonly hit: boolean; readonly critical: boolean } {
  const critical = c.luck >= c.criticalThreshold;
  return { critical, hit: critical || c.result >= c.evasion };
}

/** A thrown or projectile attack whose luck roll is at or below the threshold goes astray when others stand within 1 m. */
export function misdirects(delivery: 'melee' | 'thrown' | 'projectile', luck: number, atOrBelow: number, bystanders: number): boolean {
  return delivery !== 'melee' && bystanders > 0 && luck <= atOrBelow;
}

/** Damage before reduction: the test result plus the weapon's (critical) damage. */
export function rawDamage(result: number, weaponDamage: number): number {
  return result + weaponDamage;
}

/** Damage the target takes: raw minus the matching reduction, at least 1 (typeless is not reduced). */
export function damageTaken(raw: number, category: DamageCategory, reduction: number): number {
  return reducedDamage(raw, category, reduction);
}

export interface BlockOutcome {
  /** Damage the item takes (raw minus block value, at least 1). */
  readonly toItem: number;
  readonly durabilityAfter: number;
  /** What the item could not absorb, dealt to the bearer. */
  readonly excess: number;
}

/** 003 "Block": the item's block value replaces your reduction; the rest hits its durability (min 1); overflow reaches you. */
export function blockOutcome(raw: number, blockValue: number, durability: number): BlockOutcome {
  const toItem = Math.max(1, raw - blockValue);
  return { toItem, durabilityAfter: Math.max(0, durability - toItem), excess: Math.max(0, toItem - durability) };
}

/** 003 "Parry": the item's parry value (or 1) added to your physical defence. */
export function parryBonus(parryValue: number | null): number {
  return parryValue ?? 1;
}
