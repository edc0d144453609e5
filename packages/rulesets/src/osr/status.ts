// osr.status (issue 17): what the OSR table shows: the fight, the clock and
// hour, the scene's light and what burns, travel turns out, the dying and dead.
import { own } from '@tablekeeper/engine';
import { z } from 'zod';
import { clockStatus, clockStatusSchema, encounterStatus, encounterStatusSchema, statusModule } from '../status.js';
import { osrKit } from './module.js';
import { getOsr } from './state.js';

export const osrStatusModule = statusModule(
  'osr',
  'What the table shows: round and turn, the hour, the light, travel turns out, who is dying or dead',
  z.strictObject({
    encounter: encounterStatusSchema,
    clock: clockStatusSchema,
    light: z.enum(['darkness', 'dim', 'well-lit', 'brilliant']),
    burning: z.array(z.strictObject({ id: z.string(), label: z.string(), ownerId: z.string().nullable(), burnsOutAt: z.int() })),
    turnsOut: z.int().min(0),
    cadence: z.enum(['dungeon', 'overland', 'river', 'sea']),
    dyingIds: z.array(z.string()),
    deadIds: z.array(z.string()),
  }),
  (world) => {
    const st = getOsr(world);
    const known = (id: string) => own(world.characters, id) !== undefined;
    return {
      encounter: encounterStatus(world, osrKit),
      clock: clockStatus(world),
      light: st.ambient,
      burning: Object.values(st.sources).flatMap((s) => (s.burnsOutAt === null ? [] : [{ id: s.id, label: s.label, ownerId: s.owner, burnsOutAt: s.burnsOutAt }])),
      turnsOut: st.turnsOut,
      cadence: st.cadence,
      dyingIds: Object.keys(st.dying).filter(known),
      deadIds: st.dead.filter(known),
    };
  },
);
