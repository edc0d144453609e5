// Declarations of the core's commands (ADR 13): table, seats, characters, the clock, notes and table rolls.
import { z } from 'zod';
import { catalogOf, characterId, declareCommand, int, json, seatId, text } from './catalog.js';
import { CLOCK_UNITS, MAX_CLOCK_COUNT, MAX_CLOCK_SECONDS } from './clock.js';
import { MAX_LOG_TEXT } from './log.js';
import { MAX_ROLL_LABEL, MAX_ROLL_NOTATION } from './roll.js';
import { MAX_NAME } from './validate.js';
import type { ClockUnit, Visibility } from './types.js';
import { VISIBILITIES } from './visibility.js';

const name = () => text(MAX_NAME, 'a name as the table shows it');
const visibility = () => z.enum(VISIBILITIES as readonly [Visibility, ...Visibility[]]).meta({ description: 'who learns of it: hidden, existence (name only), visible, reveal-on-trigger' });
/** Ruleset-owned numbers and flags; at most 200 keys (checked by the command). */
const stats = () => z.record(z.string().max(64), json()).meta({ description: 'ruleset-owned stats (hit points, abilities, resources)' });

/** docs/vocabulary.md: ids name their kind; stored commands and old clients still send `id`. */
const RENAMED_SEAT = { id: 'seatId' } as const;
const RENAMED_CHARACTER = { id: 'characterId' } as const;

export const seatRename = declareCommand('seat.rename', { summary: 'Rename a seat', who: 'gm', input: z.strictObject({ seatId: seatId(), name: name() }), renamed: RENAMED_SEAT });
export const seatRemove = declareCommand('seat.remove', { summary: 'Remove a seat (its characters stay, unseated)', who: 'gm', input: z.strictObject({ seatId: seatId() }), renamed: RENAMED_SEAT });
export const characterUpdate = declareCommand('character.update', {
  summary: "Change a character's name, visibility, seat or stats (stats are merged)",
  who: 'gm',
  input: z.strictObject({ characterId: characterId(), name: name().optional(), visibility: visibility().optional(), seatId: seatId().nullable().optional(), stats: stats().optional() }),
  renamed: RENAMED_CHARACTER,
});
export const characterRemove = declareCommand('character.remove', { summary: 'Remove a character from the table', who: 'gm', input: z.strictObject({ characterId: characterId() }), renamed: RENAMED_CHARACTER });

export const tableRename = declareCommand('table.rename', { summary: 'Rename the table', who: 'gm', input: z.strictObject({ name: name() }) });
export const seatAdd = declareCommand('seat.add', { summary: 'Add a seat for a player', who: 'gm', input: z.strictObject({ name: name() }) });
export const characterAdd = declareCommand('character.add', {
    summary: 'Add a character (a PC, or an NPC that players see by name only until shown)',
    who: 'gm',
    input: z.strictObject({
      name: name(),
      kind: z.enum(['pc', 'npc']).optional(),
      visibility: visibility().optional(),
      seatId: seatId('the seat whose player controls it').nullable().optional(),
      stats: stats().optional(),
    }),
  });
export const clockAdvance = declareCommand('clock.advance', {
    summary: 'Advance the in-fiction clock by a count of a unit and/or some seconds',
    who: 'gm',
    input: z.strictObject({
      unit: z.enum(CLOCK_UNITS as readonly [ClockUnit, ...ClockUnit[]]),
      count: int(0, MAX_CLOCK_COUNT, 'how many of the unit (default 1; 0 for time)').optional(),
      seconds: int(0, MAX_CLOCK_SECONDS, 'seconds of fiction').optional(),
    }),
  });
export const logNote = declareCommand('log.note', {
    summary: 'Post a note to the log (players: to everyone or their own seat)',
    who: 'anyone',
    input: z.strictObject({
      text: text(MAX_LOG_TEXT),
      audience: z
        .discriminatedUnion('kind', [z.strictObject({ kind: z.literal('all') }), z.strictObject({ kind: z.literal('gm') }), z.strictObject({ kind: z.literal('seat'), seatId: seatId() })])
        .optional(),
    }),
  });

// The engine's own history commands (it handles them, no module does). Both act on whatever
// change is last, so they are declared relative: a client never resends them after a conflict.
export const historyUndo = declareCommand('history.undo', { summary: 'Undo the last change (a player only their own)', who: 'anyone', input: z.strictObject({}), relative: true });
// One click of a screen that needs several commands (start a fight, then give its foes their sheets): one transaction,
// so one undo step takes it all back (review 9: three Undo clicks, two of them invisible). ADR 70.
export const MAX_BATCH = 100;
export const historyBatch = declareCommand('history.batch', {
  summary: 'Several commands as one change: applied in order in one transaction, all or none, undone in one step',
  who: 'anyone',
  input: z.strictObject({ commands: z.array(z.looseObject({ type: z.string().min(1).max(100) })).min(1).max(MAX_BATCH) }),
});
export const historyRedo = declareCommand('history.redo', { summary: 'Redo the last change undone (a player only their own)', who: 'anyone', input: z.strictObject({}), relative: true });

export const diceRoll = declareCommand('dice.roll', {
  summary: 'Roll dice at the table (notation such as 2d6+3, or a named roll such as "duality+2 vs 15")',
  who: 'anyone',
  input: z.strictObject({
    // The length limit stays with the roll, whose LIMIT_EXCEEDED carries the column a text caret needs.
    notation: z.string().meta({ description: `dice notation or a named roll, at most ${MAX_ROLL_NOTATION} characters` }),
    audience: z.enum(['table', 'gm']).optional(),
    label: text(MAX_ROLL_LABEL).optional(),
  }),
});

export const coreCatalog = catalogOf(
  tableRename,
  seatAdd,
  seatRename,
  seatRemove,
  characterAdd,
  characterUpdate,
  characterRemove,
  clockAdvance,
  logNote,
  diceRoll,
);
