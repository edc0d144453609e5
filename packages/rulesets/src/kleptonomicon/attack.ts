// An attack in the Kleptonomicon (ADR 51): a Basic Attack, an ability that
// attacks, or the improvised maneuver (004 "Interrupting Movement": a Basic
// Attack at one more Disadvantage that adds Slowed). The excerpt gives the
// Test (1d10ish + modifier, rules README) but no defence or damage numbers;
// our reading: the Score must reach the target's Defense, and a hit deals the
// attack's damage dice (the sheet's, the stat block's or the form's).
import { own, type Combatant, type EngineEvent, type Json, type Result, type World } from '@tablekeeper/engine';
import { sheet } from './context.js';
import { BASIC_ATTACK_REACH, BASIC_ATTACKS, DEFAULT_ABILITY_REACH, beyondReach, distanceById, distanceWords, saidWords, type BasicAttack, type Distance, type SaidDistance } from './distances.js';
import type { Ability } from './phases.js';

/** Limits on damage a form may ask for (a typo of 100d100 is refused, not rolled). */
export const DAMAGE_LIMITS = { count: 20, sides: 100, bonus: 100 } as const;

export interface DamageDice {
  readonly count: number;
  readonly sides: number;
  readonly bonus: number;
}

const bad = (path: string, message: string): Result<never> => ({ ok: false, error: { code: 'INVALID_VALUE', message, path } });

/** "1d6+2", "d8", "2d4-1" or a plain "3"; blank is no damage (null). */
export function parseDamage(text: string, path = 'damage'): Result<DamageDice | null> {
  const t = text.trim().toLowerCase();
  if (t === '') return { ok: true, value: null };
  const flat = /^\d{1,3}$/.exec(t);
  if (flat !== null) {
    const n = Number(t);
    return n > DAMAGE_LIMITS.bonus ? bad(path, `${path}: at most ${DAMAGE_LIMITS.bonus} damage`) : { ok: true, value: { count: 0, sides: 1, bonus: n } };
  }
  const m = /^(\d{0,3})\s*d\s*(\d{1,3})\s*(?:([+-])\s*(\d{1,3}))?$/.exec(t);
  if (m === null) return bad(path, `${path} must be dice such as 1d6+1, or a number`);
  const count = m[1] === '' ? 1 : Number(m[1]);
  const sides = Number(m[2]);
  const bonus = m[3] === undefined ? 0 : (m[3] === '-' ? -1 : 1) * Number(m[4]);
  if (count < 1 || count > DAMAGE_LIMITS.count) return bad(path, `${path}: 1 to ${DAMAGE_LIMITS.count} dice`);
  if (sides < 2 || sides > DAMAGE_LIMITS.sides) return bad(path, `${path}: a die has 2 to ${DAMAGE_LIMITS.sides} sides`);
  if (Math.abs(bonus) > DAMAGE_LIMITS.bonus) return bad(path, `${path}: a bonus within ±${DAMAGE_LIMITS.bonus}`);
  return { ok: true, value: { count, sides, bonus } };
}

export function damageText(d: DamageDice): string {
  if (d.count === 0) return String(d.bonus);
  const dice = `${d.count}d${d.sides}`;
  return d.bonus === 0 ? dice : `${dice}${d.bonus > 0 ? '+' : '-'}${Math.abs(d.bonus)}`;
}

/** The mean damage of a hit (never below 0 per hit, as the roll is floored at 0). */
export function averageDamage(d: DamageDice): number {
  // Exact mean of max(0, sum + bonus): the sum's distribution by convolution (at most 20d100, 2,001 outcomes).
  let dist = [1];
  for (let i = 0; i < d.count; i++) {
    const next = new Array<number>(dist.length + d.sides - 1).fill(0);
    for (let s = 0; s < dist.length; s++) for (let f = 0; f < d.sides; f++) next[s + f] = next[s + f]! + dist[s]! / d.sides;
    dist = next;
  }
  let mean = 0;
  for (let s = 0; s < dist.length; s++) mean += dist[s]! * Math.max(0, s + d.count + d.bonus);
  return mean;
}

const defenseIn = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 100 ? v : null);

/**
 * A target's Defense as this world holds it: the combatant's own (typed in the
 * builder or from its stat block), else its character sheet's. A foe's stats
 * never reach a player's view (ADR 33), so a phone finds none for a foe.
 */
export function defenseOf(world: World, c: Combatant): number | null {
  const ch = c.characterId === null ? undefined : own(world.characters, c.characterId)?.stats;
  return defenseIn(c.stats['defense']) ?? defenseIn(ch?.['defense']);
}

/** The attacker's Basic Attack from its sheet or stat block: its Test modifier, damage dice text and kind (melee unless it says). */
export function basicAttackOf(world: World, combatantId: string): { modifier: number; damage: string; kind: BasicAttack } {
  const s = sheet(world, combatantId);
  const m = s['attackModifier'];
  const d = s['attackDamage'];
  const k = s['attackKind'];
  const kind = BASIC_ATTACKS.find((x) => x === k) ?? 'melee';
  return { modifier: typeof m === 'number' && Number.isInteger(m) ? m : 0, damage: typeof d === 'string' ? d : '', kind };
}

/** How far an attack reaches (ADR 124): who reaches (for the words) and the distance, or the key the table lacks. */
export type Reach = { readonly by: string; readonly distance: Distance } | { readonly by: string; readonly unknown: string };

/** A Basic Attack (or the maneuver built on one) reaches as its kind says; an ability as its sheet says, else Swinging. */
export function reachOf(ability: Ability | null, kind: BasicAttack, sixth: Distance): Reach {
  const by = ability === null ? `a ${kind} attack` : ability.name;
  const key = ability === null ? BASIC_ATTACK_REACH[kind] : (ability.reach ?? DEFAULT_ABILITY_REACH);
  const distance = distanceById(key, sixth);
  return distance === undefined ? { by, unknown: key } : { by, distance };
}

/** The reach in words, for a form: "Swinging Distance (1u)". */
export function reachWords(r: Reach): string {
  return 'distance' in r ? distanceWords(r.distance) : `"${r.unknown}", none of this table's distances`;
}

/** Why an attack at a target `said` away cannot be made, in words naming both; null when it is in reach. */
export function reachRefusal(targetName: string, said: SaidDistance, reach: Reach): string | null {
  if (!('distance' in reach)) return `${reach.by}'s reach "${reach.unknown}" is none of this table's distances: the GM fixes the sheet`;
  return beyondReach(said, reach.distance) ? `${targetName} is ${saidWords(said)}; ${reach.by} reaches ${distanceWords(reach.distance)}` : null;
}

/** Hit points the kernel's damage box would change: the combatant's own, else its character's (the same rule as encounter.damage). */
export function damageEvent(world: World, c: Combatant, amount: number): EngineEvent | null {
  const onCombatant = typeof c.stats['hp'] === 'number';
  const stats = onCombatant ? c.stats : c.characterId === null ? undefined : own(world.characters, c.characterId)?.stats;
  const hp = stats?.['hp'];
  if (typeof hp !== 'number' || amount <= 0) return null;
  return { type: 'encounter.hpChanged', id: c.id, on: onCombatant ? 'combatant' : 'character', kind: 'damage', amount, from: hp, to: Math.max(0, hp - amount) };
}
