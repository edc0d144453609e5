// The OSR condition catalogue (ADR 70): every state 001 names with an effect
// the engine applies, for the tracker's picker. Effects are codes the OSR
// rules read (shared.ts conditionEffect); the states the ruleset also keeps
// beyond a fight (stealth, exhaustion, the injury's disadvantage) count once.
import { getEncounter, netEffectOf, type ConditionDef, type World } from '@tablekeeper/engine';

export const OSR_CONDITIONS: readonly ConditionDef[] = [
  // 001 "Quick Actions": maintained as a quick action; "Retreat" ends it.
  { id: 'concentrating', name: 'Concentrating', stacking: 'refresh', effects: {} },
  // 001 "Positioning": cannot be targeted directly; its own attack ends it.
  { id: 'stealth', name: 'In stealth (cannot be targeted)', stacking: 'refresh', effects: { untargetable: 1 } },
  // 001 "Exhaustion": disadvantage on all checks, 0' speed, no fighting (setting exhaustedCannotFight).
  { id: 'exhausted', name: 'Exhausted', stacking: 'refresh', effects: { exhausted: 1 } },
  // 001 "Injury Table" 14-19: disadvantage on all checks until a rest.
  { id: 'injured', name: 'Injured (disadvantage on all checks)', stacking: 'refresh', effects: { injured: 1 } },
  // 001 "Death & Injury": incapacitated and unable to act (a spell or blow that drops no HP).
  { id: 'incapacitated', name: 'Incapacitated', stacking: 'refresh', effects: {}, incapacitates: true },
  // 001 "Positioning": allies flank it; the GM grants attacks against it advantage.
  { id: 'flanked', name: 'Flanked (attacks against it have advantage)', stacking: 'refresh', effects: { 'against.attack.advantage': 1 } },
];

/** The net effect `code` of the conditions on this character's combatants in the encounter (0 outside a fight). */
export function conditionEffect(world: World, characterId: string, code: string): number {
  const enc = getEncounter(world);
  let sum = 0;
  for (const c of Object.values(enc.combatants)) if (c.characterId === characterId) sum += netEffectOf(enc, OSR_CONDITIONS, c.id, code);
  return sum;
}

/** The condition instances of `defId` on this character's combatants (stealth ends when it attacks). */
export function conditionsOn(world: World, characterId: string, defId: string): { id: string; target: string }[] {
  const enc = getEncounter(world);
  return Object.values(enc.conditions).flatMap((c) => (c.defId === defId && enc.combatants[c.target]?.characterId === characterId ? [{ id: c.id, target: c.target }] : []));
}
