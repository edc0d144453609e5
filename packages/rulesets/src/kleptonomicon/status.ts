// kleptonomicon.status (issue 17): the Episode and its phase, the Encounter's
// phase, round and turn with the Beats left (004 "Beats"), and whose
// spotlight it is in Freeplay's loose order.
import { own, type EncounterKit } from '@tablekeeper/engine';
import { z } from 'zod';
import { clockStatus, clockStatusSchema, encounterStatus, encounterStatusSchema, statusModule } from '../status.js';
import { getKlepto } from './state.js';

export function kleptoStatusModule(kit: EncounterKit) {
  return statusModule(
    'kleptonomicon',
    'What the table shows: the Episode and its phase, the Encounter phase, round and turn, Beats left, the spotlight',
    z.strictObject({
      encounter: encounterStatusSchema,
      clock: clockStatusSchema,
      episode: z.int().min(0),
      phase: z.enum(['between', 'opening', 'freeplay', 'encounter', 'closing']),
      encounterPhase: z.enum(['initiative', 'main', 'pause', 'reward']).nullable(),
      beatsLeft: z.int().min(0).nullable().meta({ description: "the current turn's Beats left (null outside a turn)" }),
      spotlightId: z.string().nullable().meta({ description: "whose spotlight it is in Freeplay's loose order" }),
    }),
    (world) => {
      const st = getKlepto(world);
      const encounter = encounterStatus(world, kit);
      const spot = st.looseOrder?.[st.spotlight % Math.max(1, st.looseOrder.length)];
      return {
        encounter,
        clock: clockStatus(world),
        episode: st.episode,
        phase: st.phase,
        encounterPhase: st.encounterPhase,
        beatsLeft: encounter?.currentId != null ? (encounter.remaining['beats'] ?? null) : null,
        spotlightId: spot !== undefined && own(world.characters, spot) !== undefined ? spot : null,
      };
    },
  );
}
