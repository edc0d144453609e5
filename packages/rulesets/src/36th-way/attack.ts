// 002 "Attacks": 3d6 + Level + Volition + Escalation (+ rare bonuses) against
// AC, PD or MD; meet or beat hits; natural 17+ crits (lower against Weak /
// Vulnerable targets); natural 3 is a Crit Fail. Pure resolution given the
// natural result, and exact odds from the distribution of the natural result.
import type { World } from '@tablekeeper/engine';
import { numSetting, setting } from './settings.js';

export const DEFENSES = ['ac', 'pd', 'md'] as const;
export type Defense = (typeof DEFENSES)[number];
export function isDefense(x: unknown): x is Defense {
  return typeof x === 'string' && (DEFENSES as readonly string[]).includes(x);
}

export interface AttackNumbers {
  /** Sum of the three kept dice. */
  readonly natural: number;
  /** Everything added to the natural result (Level + Volition + Escalation + bonuses - penalties). */
  readonly bonus: number;
  readonly defense: number;
  /** Natural result that crits (17, 16 or 15). */
  readonly critAt: number;
  /** Coup de grace: the attack crits whatever is rolled. */
  readonly autoCrit?: boolean;
}

export interface AttackResult {
  readonly total: number;
  readonly hit: boolean;
  readonly crit: boolean;
  /** Natural 3: no miss effects, and the GM may add a mishap. */
  readonly critFail: boolean;
}

export function resolveAttack(world: World | null, a: AttackNumbers): AttackResult {
  const total = a.natural + a.bonus;
  if (a.autoCrit === true) return { total, hit: true, crit: true, critFail: false };
  const meets = total >= a.defense;
  const critFail = a.natural <= numSetting(world, '36th-way.critFailAt');
  if (critFail) {
    const hit = setting<boolean>(world, '36th-way.critFailAlwaysMisses') ? false : meets;
    return { total, hit, crit: false, critFail: true };
  }
  const critRoll = a.natural >= a.critAt;
  if (critRoll && (meets || setting<boolean>(world, '36th-way.critAlwaysHits'))) return { total, hit: true, crit: true, critFail: false };
  return { total, hit: meets, crit: false, critFail: false };
}

export interface AttackOdds {
  readonly hit: number;
  readonly crit: number;
  readonly miss: number;
  readonly critFail: number;
}

/**
 * Exact odds of an attack given the probability of each natural result
 * (3..18, e.g. from the dice module's 3d6 distribution with advantage).
 * `hit` includes crits; `miss` includes crit fails.
 */
export function attackOdds(world: World | null, naturals: Iterable<readonly [number, number]>, n: Omit<AttackNumbers, 'natural'>): AttackOdds {
  let hit = 0;
  let crit = 0;
  let critFail = 0;
  let all = 0;
  for (const [natural, p] of naturals) {
    all += p;
    const r = resolveAttack(world, { ...n, natural });
    if (r.hit) hit += p;
    if (r.crit) crit += p;
    if (r.critFail) critFail += p;
  }
  return { hit, crit, miss: all - hit, critFail };
}
