// "What are the odds?" for a GM: exact hit / crit / crit-fail chances of an
// attack as the table stands (Advantage counts from conditions, escalation,
// Weak / Vulnerable crit ranges), from the exact distribution of the natural 3d6.
import type { World } from '@tablekeeper/engine';
import { own } from '@tablekeeper/engine';
import { attackOdds, type AttackOdds, type Defense } from './attack.js';
import { attackAdvantage, escalationOf, inEncounter, type Kit } from './context.js';
import { critThreshold, isWeakTo } from './damage.js';
import { clampNet, naturalDistribution } from './roll.js';
import { statusOf } from './health.js';
import { defenseOf, getTsw, volitionOf } from './state.js';

export interface AttackOddsQuery {
  readonly attacker: string;
  readonly target: string;
  readonly defense?: Defense;
  readonly types?: readonly string[];
  readonly bonus?: number;
  readonly advantage?: number;
  /** The bonus is a stat block's whole modifier: no Level or Volition added (the escalation die as the sheet says). */
  readonly wholeBonus?: boolean;
}

export function attackOddsFor(kit: Kit, world: World, q: AttackOddsQuery): (AttackOdds & { readonly net: number; readonly critAt: number; readonly needed: number }) | null {
  const st = getTsw(world);
  const a = own(st.sheets, q.attacker);
  const t = own(st.sheets, q.target);
  if (a === undefined || t === undefined) return null;
  const net = clampNet(world, (inEncounter(world, a.id) ? attackAdvantage(kit, world, a.id, t.id) : 0) + (q.advantage ?? 0));
  const vulnerable = inEncounter(world, t.id) && kit.netEffect(world, t.id, 'against.crit.range') > 0;
  const critAt = critThreshold(world, isWeakTo(t.weak, q.types ?? ['weapon']), vulnerable);
  const bonus = (q.wholeBonus === true ? 0 : a.level + volitionOf(a)) + escalationOf(kit, world, a) + (q.bonus ?? 0);
  const defense = defenseOf(t, q.defense ?? 'ac');
  const odds = attackOdds(world, naturalDistribution(net), { bonus, defense, critAt });
  return { ...odds, net, critAt, needed: defense - bonus };
}

/**
 * Exact chance that a 3d6 roll with `net` Advantage, plus `bonus`, reaches
 * `target`: saves (11+, 13+ death saves), recharge rolls (9+ / 11+ / 13+),
 * disengage checks (11 + extra enemies), sustain rolls.
 */
export function rollOdds(net: number, target: number, bonus = 0, world: World | null = null): number {
  let p = 0;
  for (const [natural, q] of naturalDistribution(net, world)) if (natural + bonus >= target) p += q;
  return p;
}

export interface SheetSummary {
  readonly id: string;
  readonly name: string;
  readonly hp: number;
  readonly maxHp: number;
  readonly status: ReturnType<typeof statusOf>;
  readonly recoveries: number;
  readonly escalation: number;
  readonly deathFailures: number;
  readonly expended: readonly string[];
}

/** What a tracker shows per sheet: HP and status (staggered, dying...), recoveries, the escalation die as this character counts it, expended abilities. */
export function summary(kit: Kit, world: World): SheetSummary[] {
  return Object.values(getTsw(world).sheets).map((s) => ({
    id: s.id,
    name: s.name,
    hp: s.hp,
    maxHp: s.maxHp,
    status: statusOf(s),
    recoveries: s.recoveries,
    escalation: escalationOf(kit, world, s),
    deathFailures: s.deathFailures,
    expended: Object.entries(s.uses)
      .filter(([, u]) => u.expended)
      .map(([id]) => id),
  }));
}
