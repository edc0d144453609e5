// daggerheart.status (issue 17): the GM's Fear (null to players when the
// table hides it), each visible PC's Hope and marked slots, who holds the
// spotlight, and the roll requests waiting on a player.
import { own } from '@tablekeeper/engine';
import { z } from 'zod';
import { clockStatus, clockStatusSchema, encounterStatus, encounterStatusSchema, statusModule } from '../status.js';
import { daggerheartKit } from './encounter.js';
import { trackOf } from './rules.js';
import { daggerheartSettings } from './settings.js';
import { getDaggerheart, hopeOf, requestsOf } from './selectors.js';

const track = z.strictObject({ marked: z.int().min(0), slots: z.int().min(0) });

export const daggerheartStatusModule = statusModule(
  'daggerheart',
  "What the table shows: Fear, each PC's Hope and slots, the spotlight, open roll requests",
  z.strictObject({
    encounter: encounterStatusSchema,
    clock: clockStatusSchema,
    fear: z.int().min(0).nullable().meta({ description: 'the GM\'s Fear; null when the table keeps it from players' }),
    pcs: z.array(z.strictObject({ characterId: z.string(), name: z.string(), hope: z.int().min(0), hp: track, stress: track, armor: track })),
    spotlightId: z.string().nullable(),
    openRequestIds: z.array(z.string()),
  }),
  (world) => {
    const set = daggerheartSettings(world);
    const fear = getDaggerheart(world).fear;
    const encounter = encounterStatus(world, daggerheartKit);
    // A player's view has no stats for a character it sees by name only: list the PCs whose sheet is shown.
    const pcs = Object.values(world.characters).filter((c) => c.kind === 'pc' && c.visibility === 'visible');
    return {
      encounter,
      clock: clockStatus(world),
      fear: typeof fear === 'number' ? fear : null,
      pcs: pcs.map((c) => ({
        characterId: c.id,
        name: c.name,
        hope: hopeOf(world, c.id),
        hp: trackOf(c.stats, 'hp', set.hpSlots),
        stress: trackOf(c.stats, 'stress', set.stressSlots),
        armor: trackOf(c.stats, 'armor', set.armorSlots),
      })),
      spotlightId: encounter?.currentId ?? null,
      openRequestIds: Object.keys(requestsOf(world)).filter((id) => own(world.characters, requestsOf(world)[id]!.characterId) !== undefined),
    };
  },
);
