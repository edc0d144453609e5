// The Kleptonomicon sheet as the one sheet model (issue 17): what its rules
// read about a character (the Edge Save modifier and Sneaky for the turn
// order, movement styles, abilities), stored on the character's stats and
// written by the kleptonomicon.sheetSet event kleptonomicon.setSheet writes.
import { defineSheet, int, ok, own, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { ABILITY_TIMES } from './phases.js';
import { EDGE_SAVE_LIMIT } from './sheet.js';
import type { KleptoEvent } from './events.js';

const fields = {
  edgeSave: int(-EDGE_SAVE_LIMIT, EDGE_SAVE_LIMIT, 'Edge Save modifier (null: not set; the turn order then asks for one)').nullable().optional(),
  // The text gives a Basic Attack no defence number; the improvised maneuver's Score must reach this one (default: the Edge Save line).
  defense: int(0, 100, 'Defense: the Score an attack against this creature must reach').optional(),
  sneaky: z.boolean().meta({ description: 'Sneaky: advantage on the Edge Saves (004 "Turn Order")' }).optional(),
  movementStyles: z
    .array(z.strictObject({ style: z.string().regex(/^[a-z][a-z-]{0,31}$/).meta({ description: 'a lower-case style name (walk, climb, swim...)' }), variant: z.enum(['half', 'normal', 'double']).optional() }))
    .max(20)
    .nullable()
    .meta({ description: 'movement styles (null: the table default)' })
    .optional(),
  abilities: z
    .array(
      z.strictObject({
        id: text(64).min(1),
        name: text(80).optional(),
        time: z.enum(ABILITY_TIMES as readonly [string, ...string[]]),
        seconds: int(0, 86_400).optional(),
        recovery: z.enum(['dodgesUp', 'shieldsUp', 'healUp']).optional(),
      }),
    )
    .max(50)
    .optional(),
};

export const kleptoSheetModel = defineSheet({
  rulesetId: 'kleptonomicon',
  fields,
  defaults: { edgeSave: null, sneaky: false, movementStyles: null, abilities: [] },
  playerEditable: [],
  // A foe's sheet is the GM's (ADR 33): its Edge Save, styles and abilities; the Kleptonomicon has no stored defence to reveal.
  foeFields: { shown: [], defences: [] },
  statsEvents: { 'kleptonomicon.sheetSet': 'characterId' },
  read(world, id) {
    const stats = own(world.characters, id)?.stats ?? {};
    return Object.fromEntries(Object.keys(fields).flatMap((k) => (Object.hasOwn(stats, k) ? [[k, stats[k]!]] : [])));
  },
  write: (_world, id, _next, changed) => ok([{ type: 'kleptonomicon.sheetSet', characterId: id, stats: changed } satisfies KleptoEvent]),
});
