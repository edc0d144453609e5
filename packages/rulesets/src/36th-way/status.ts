// 36th-way.status (issue 17): the fight's round and turn, the escalation die
// (002 "Escalation Die"), who sits in each initiative band, and the day.
import { BANDS, getEncounter } from '@tablekeeper/engine';
import { z } from 'zod';
import { clockStatus, clockStatusSchema, encounterStatus, encounterStatusSchema, statusModule } from '../status.js';
import type { Kit } from './context.js';
import { getTsw } from './state.js';

export function tswStatusModule(kit: Kit) {
  return statusModule(
    '36th-way',
    'What the table shows: round and turn, the escalation die, the initiative bands, the day',
    z.strictObject({
      encounter: encounterStatusSchema,
      clock: clockStatusSchema,
      bands: z.array(z.strictObject({ band: z.enum(BANDS), combatantIds: z.array(z.string()) })),
      day: z.int(),
    }),
    (world) => {
      const enc = getEncounter(world);
      const bandOf = (p: unknown): string | null => (p !== null && typeof p === 'object' && !Array.isArray(p) && typeof (p as { band?: unknown }).band === 'string' ? (p as { band: string }).band : null);
      const ids = enc.active ? enc.roster.filter((id) => Object.hasOwn(enc.combatants, id)) : [];
      return {
        encounter: encounterStatus(world, kit, { escalation: true }),
        clock: clockStatus(world),
        bands: BANDS.map((band) => ({ band, combatantIds: ids.filter((id) => bandOf(enc.combatants[id]!.placement) === band) })).filter((b) => b.combatantIds.length > 0),
        day: getTsw(world).day,
      };
    },
  );
}
