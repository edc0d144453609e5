// The conditions a fight left on someone, against the next line-up (ADR 66). GM-only: kept out of the
// tracker's helpers, which the phone loads first.
import type { EncounterState, World } from '@tablekeeper/engine';
import { conditionName, durationLabel, namesOf } from './encounter.ts';

/** A condition still on someone between fights, and where its bearer stands for the next one (ADR 66). */
export interface Lingering {
  readonly conditionId: string;
  readonly bearer: string;
  readonly name: string;
  readonly condition: string;
  readonly lasts: string;
  /** carried: lined up, it goes on in the fight; absent: a character left out, it stays on them; ends: no character, it ends at the start. */
  readonly stands: 'carried' | 'absent' | 'ends';
}

/**
 * The conditions the last fight left ("until removed", until a rest), with their bearers' names, against the
 * next line-up (the ids lined up: combatant ids or characters). The engine ends the bearerless at the start.
 */
export function lingeringConditions(world: World, enc: EncounterState | null, lined: readonly string[]): Lingering[] {
  if (enc === null || enc.active) return [];
  const names = namesOf(world);
  return Object.values(enc.conditions ?? {})
    .map((c): Lingering => {
      const character = Object.hasOwn(world.characters, c.target);
      const stands = lined.includes(c.target) ? 'carried' : character ? 'absent' : 'ends';
      const lasts = durationLabel(c.duration, names);
      return { conditionId: c.id, bearer: c.target, name: names[c.target] ?? 'someone', condition: conditionName(enc, c.defId), lasts: lasts === '' ? 'until removed' : lasts, stands };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.condition.localeCompare(b.condition));
}
