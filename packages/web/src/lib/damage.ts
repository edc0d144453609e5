// The damage box's command (issue 20), GM-only, so it loads with the GM's row
// tools and never with a phone: the ruleset's own damage where it keeps hit
// points on a sheet (36th Way, teams) or a character (OSR), else the kernel's.
import type { World } from '@tablekeeper/engine';
import { encounterOf } from './encounter.ts';
import { hasSheet, sheetTrackOf } from './sheetEditor.ts';
import type { DamageCommand } from './turns.ts';

export const MAX_DAMAGE = 100000;

/** What the damage box sends for `text` (a whole number), or a sentence saying what to type. */
export function damageCommand(world: World, combatantId: string, kind: 'damage' | 'heal', text: string): { ok: true; value: DamageCommand } | { ok: false; message: string } {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isInteger(n) || n < 1 || n > MAX_DAMAGE) return { ok: false, message: `Type a whole number from 1 to ${MAX_DAMAGE}, then press ${kind === 'damage' ? 'Damage' : 'Heal'}.` };
  const sheet = hasSheet(world, combatantId);
  if (kind === 'damage' && sheet === '36th-way') return { ok: true, value: { type: '36th-way.damage', targetId: combatantId, amount: n } };
  if (kind === 'damage' && sheet === 'teams') return { ok: true, value: { type: 'teams.damage', targetId: combatantId, amount: n } };
  // Heal a 36th Way sheet through its own rule (encounter.heal would change a number nobody reads).
  if (kind === 'heal' && sheet === '36th-way') return { ok: true, value: { type: '36th-way.heal', characterId: combatantId, how: 'amount', amount: n } };
  if (kind === 'heal' && sheet === 'teams') return teamsHeal(world, combatantId, n);
  // Daggerheart: damage goes against the character's thresholds and marks HP slots (000 "Damage"); healing clears slots.
  if (world.rulesetId === 'daggerheart') {
    const dh = linkedCharacter(world, combatantId);
    if (dh !== null) return { ok: true, value: kind === 'damage' ? { type: 'daggerheart.takeDamage', characterId: dh, amount: n } : { type: 'daggerheart.markTrack', characterId: dh, track: 'hp', amount: -Math.min(n, 30) } };
  }
  // OSR: a character's damage goes through the ruleset, so 0 HP makes them dying (001 "Death & Injury"; the kernel's
  // plain HP change did not, and Stabilize never came up); healing a dying character is refused there, in words.
  const ch = world.rulesetId === 'osr' ? linkedCharacter(world, combatantId) : null;
  if (ch !== null) return { ok: true, value: { type: kind === 'damage' ? 'osr.damage' : 'osr.heal', targetId: ch, amount: n } };
  return { ok: true, value: { type: kind === 'damage' ? 'encounter.damage' : 'encounter.heal', characterId: combatantId, amount: n } };
}

/** The character a combatant plays, or null (a name-only foe). */
function linkedCharacter(world: World, combatantId: string): string | null {
  const enc = encounterOf(world);
  return enc !== null && Object.hasOwn(enc.combatants, combatantId) ? (enc.combatants[combatantId]!.characterId ?? null) : null;
}

/**
 * Healing on a teams sheet (003 gives no healing rule of its own): the reverse
 * of damage's order, health first (damage reaches it last), then endurance,
 * each up to its maximum; one teams.setTrack, so the heal is one undo step.
 * Healing that would spill past health is capped there; press Heal again for endurance.
 */
function teamsHeal(world: World, id: string, n: number): { ok: true; value: DamageCommand } | { ok: false; message: string } {
  const t = sheetTrackOf(world, { id, characterId: null });
  const num = (k: string): number => (typeof t[k] === 'number' ? (t[k] as number) : 0);
  for (const field of ['health', 'endurance'] as const) {
    const max = num(`max${field[0]!.toUpperCase()}${field.slice(1)}`);
    if (num(field) < max) return { ok: true, value: { type: 'teams.setTrack', characterId: id, field, value: Math.min(max, num(field) + n) } };
  }
  return { ok: false, message: 'Nothing to heal: endurance and health are full.' };
}

