// Whom the GM's damage box for kept sheets reaches (ADR 110, ADR 119): each
// character with a sheet the ruleset keeps (the 36th Way, teams), less those
// the running fight holds, whose tracker rows carry the box already.
import type { Character, EncounterState, World } from '@tablekeeper/engine';
import { keptSheetIdOf } from '@tablekeeper/rulesets/browser';

export interface KeptMember {
  readonly ch: Character;
  /** The sheet's key (the character's id, or the combatant id the sheet names her by). */
  readonly sheetId: string;
}

/**
 * The characters with a kept sheet that no combatant of the running fight plays (all of them between fights),
 * in the table's order. A removed combatant is out of the fight; a hidden one is in it (the GM's row has the box).
 */
export function outsideTheFight(world: World, enc: EncounterState | null): KeptMember[] {
  const held = new Set<string>();
  if (enc?.active === true)
    for (const id of enc.roster) {
      held.add(id);
      const c = Object.hasOwn(enc.combatants, id) ? enc.combatants[id]! : undefined;
      if (c?.characterId != null) held.add(c.characterId);
    }
  return Object.values(world.characters).flatMap((ch) => {
    if (held.has(ch.id)) return [];
    const sheetId = keptSheetIdOf(world, ch.id);
    return sheetId === null || held.has(sheetId) ? [] : [{ ch, sheetId }];
  });
}
