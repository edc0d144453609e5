// The damage box's command (issue 20), GM-only, so it loads with the GM's row
// tools and never with a phone. Which command a number becomes is the ruleset's
// answer (`damageBoxCommand`, issue 17); this reads the box and the combatant.
import type { World } from '@tablekeeper/engine';
import { damageBoxCommand } from '@tablekeeper/rulesets/browser';
import { encounterOf } from './encounter.ts';
import type { DamageCommand } from './turns.ts';

export const MAX_DAMAGE = 100000;

/** What the damage box sends for `text` (a whole number), or a sentence saying what to type. */
export function damageCommand(world: World, combatantId: string, kind: 'damage' | 'heal', text: string, damageType?: string, nonlethal = false): { ok: true; value: DamageCommand } | { ok: false; message: string } {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isInteger(n) || n < 1 || n > MAX_DAMAGE) return { ok: false, message: `Type a whole number from 1 to ${MAX_DAMAGE}, then press ${kind === 'damage' ? 'Damage' : 'Heal'}.` };
  return damageBoxCommand(world, { combatantId, characterId: linkedCharacter(world, combatantId) }, kind, n, damageType, nonlethal);
}

/** The character a combatant plays, or null (a name-only foe). */
function linkedCharacter(world: World, combatantId: string): string | null {
  const enc = encounterOf(world);
  return enc !== null && Object.hasOwn(enc.combatants, combatantId) ? (enc.combatants[combatantId]!.characterId ?? null) : null;
}
