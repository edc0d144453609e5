// The GM's damage box, answered by the ruleset (issue 20; issue 17: the web asks
// the ruleset, not its id): which of its own commands a typed amount of damage or
// healing becomes. The ruleset's own damage where it keeps hit points on a sheet
// (the 36th Way, teams) or a character (OSR, Daggerheart), else the kernel's.
// The server's request hook (requests.ts) answers the same for an approved request.
// Browser entry (ADR 7): imports only the kept-sheet readers.
import type { Json, World } from '@tablekeeper/engine';
import { hasKeptSheet, keptSheetRulesOf, keptSheetTrack } from './sheets.js';
import { DAMAGE_TYPES } from './teams/damage.js';

export type DamageBoxCommand = { readonly type: string; readonly [field: string]: Json };

export interface DamageBoxTarget {
  readonly combatantId: string;
  /** The character the combatant plays, or null (a name-only foe). */
  readonly characterId: string | null;
}

type Answer = { readonly ok: true; readonly value: DamageBoxCommand } | { readonly ok: false; readonly message: string };

/** A damage type the box offers: what is sent and what is shown. */
export interface DamageTypeOption {
  readonly value: string;
  readonly label: string;
}

/**
 * The damage types the box offers for this combatant, or null where its
 * ruleset has none. Teams (003 "Damage"): the table's types, physical first,
 * each saying whether deflection lessens it; typeless (the rule's default for
 * a source naming none) first, so a plain number lands as it did before.
 */
export function damageTypesFor(world: World, combatantId: string): readonly DamageTypeOption[] | null {
  if (!hasKeptSheet(world, combatantId) || keptSheetRulesOf(world.rulesetId) !== 'teams') return null;
  const rank = { typeless: 2, physical: 0, elemental: 1 } as const;
  const named = Object.keys(DAMAGE_TYPES)
    .filter((t) => t !== 'typeless')
    .sort((a, b) => rank[DAMAGE_TYPES[a]!] - rank[DAMAGE_TYPES[b]!] || a.localeCompare(b));
  const words = (t: string): string => {
    const cat = DAMAGE_TYPES[t]!;
    return cat === 'typeless' ? `${t} (typeless: no deflection)` : `${t} (${cat}: less deflection)`;
  };
  return [{ value: 'typeless', label: 'typeless (no deflection)' }, ...named.map((t) => ({ value: t, label: words(t) }))];
}

/** Whether the box offers a "nonlethal" mark for this combatant: teams sheets (003 "Death": a nonlethal source's first overflow does not risk death). */
export const damageBoxOffersNonlethal = (world: World, combatantId: string): boolean => hasKeptSheet(world, combatantId) && keptSheetRulesOf(world.rulesetId) === 'teams';

/**
 * What the damage box sends for `amount` (a whole number from 1, checked by the caller) of damage or healing;
 * `damageType` one of damageTypesFor's values, where the ruleset has types; `nonlethal` where damageBoxOffersNonlethal.
 */
export function damageBoxCommand(world: World, target: DamageBoxTarget, kind: 'damage' | 'heal', amount: number, damageType?: string, nonlethal = false): Answer {
  const { combatantId, characterId } = target;
  const kept = hasKeptSheet(world, combatantId) ? keptSheetRulesOf(world.rulesetId) : null;
  if (kept === '36th-way')
    // A 36th Way sheet heals through its own rule (encounter.heal would change a number nobody reads).
    return { ok: true, value: kind === 'damage' ? { type: '36th-way.damage', targetId: combatantId, amount } : { type: '36th-way.heal', characterId: combatantId, how: 'amount', amount } };
  if (kept === 'teams') return kind === 'damage' ? { ok: true, value: { type: 'teams.damage', targetId: combatantId, amount, ...(damageType !== undefined ? { damageType } : {}), ...(nonlethal ? { nonlethal: true } : {}) } } : teamsHeal(world, combatantId, amount);
  // Daggerheart: damage goes against the character's thresholds and marks HP slots (000 "Damage"); healing clears slots.
  if (world.rulesetId === 'daggerheart' && characterId !== null)
    return { ok: true, value: kind === 'damage' ? { type: 'daggerheart.takeDamage', characterId, amount } : { type: 'daggerheart.markTrack', characterId, track: 'hp', amount: -Math.min(amount, 30) } };
  // OSR: a character's damage goes through the ruleset, so 0 HP makes them dying (001 "Death & Injury"; the kernel's
  // plain HP change did not, and Stabilize never came up); healing a dying character is refused there, in words.
  if (world.rulesetId === 'osr' && characterId !== null) return { ok: true, value: { type: kind === 'damage' ? 'osr.damage' : 'osr.heal', targetId: characterId, amount } };
  return { ok: true, value: { type: kind === 'damage' ? 'encounter.damage' : 'encounter.heal', characterId: combatantId, amount } };
}

/**
 * Healing on a teams sheet (003 gives no healing rule of its own): the reverse
 * of damage's order, health first (damage reaches it last), then endurance,
 * each up to its maximum; one teams.setTrack, so the heal is one undo step.
 * Healing that would spill past health is capped there; press Heal again for endurance.
 */
function teamsHeal(world: World, id: string, n: number): Answer {
  const t = keptSheetTrack(world, id, null);
  const num = (k: string): number => {
    const v = t[k];
    return typeof v === 'number' ? v : 0;
  };
  for (const field of ['health', 'endurance'] as const) {
    const max = num(`max${field[0]!.toUpperCase()}${field.slice(1)}`);
    if (num(field) < max) return { ok: true, value: { type: 'teams.setTrack', characterId: id, field, value: Math.min(max, num(field) + n) } };
  }
  return { ok: false, message: 'Nothing to heal: endurance and health are full.' };
}
