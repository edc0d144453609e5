// Declarations of the countdown commands and the odds query (ADR 13).
import { z } from 'zod';
import { catalogOf, countdownId, declareCommand, declareQuery, int, text } from '../core/catalog.js';
import { COUNTDOWN_KINDS, COUNTDOWN_REPEATS, MAX_COUNTDOWN_VALUE, MAX_NAME, MAX_TEXT, MAX_TICKS_PER_COMMAND, OUTCOMES, VISIBILITIES } from './model.js';

/** `id` was renamed `countdownId` (docs/vocabulary.md); stored commands and old clients still send `id`. */
const RENAMED_ID = { id: 'countdownId' } as const;
const tuple = <T extends string>(xs: readonly T[]) => xs as readonly [T, ...T[]];
const by = () => int(1, MAX_TICKS_PER_COMMAND, 'how many ticks (default 1)').optional();
const beat = z.strictObject({ at: int(0, MAX_COUNTDOWN_VALUE, 'the value the beat is reached at'), text: text(MAX_TEXT), partyCanLearn: z.boolean().optional() });

/** The odds query shares the action roll's fields with the Daggerheart roll (000 "Action Rolls"). */
export const countdownOddsInput = z.strictObject({
  countdownId: countdownId(),
  modifier: int(-50, 50, 'the roll modifier (default 0)').optional(),
  difficulty: int(1, 100, 'the difficulty (default 12)').optional(),
  advantage: int(-5, 5, 'advantage dice (negative: disadvantage)').optional(),
});

const odd = z.number().min(0).max(1);
export const countdownOddsResult = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('chase'), chaseId: z.string(), progress: z.int(), consequence: z.int(), progressFirst: odd, consequenceFirst: odd, sameRoll: odd, expectedRolls: z.number().nullable() }),
  z.strictObject({ kind: z.literal('countdown'), id: z.string(), value: z.int(), pTrigger: odd, expectedRolls: z.number().nullable(), within: z.array(odd).length(10) }),
]);

// Declared one by one so the handlers take their typed payloads (handlerOf).
export const tickDeclaration = declareCommand('countdown.tick', { summary: 'Tick a countdown down by hand', who: 'gm', input: z.strictObject({ countdownId: countdownId(), by: by() }), renamed: RENAMED_ID });
export const outcomeDeclaration = declareCommand('countdown.outcome', {
    summary: 'Enter the outcome of an action roll made off the app; every countdown moves by it',
    who: 'gm',
    input: z.strictObject({ outcome: z.enum(tuple(OUTCOMES)) }),
  });
export const untickDeclaration = declareCommand('countdown.untick', { summary: 'Take ticks back from a countdown', who: 'gm', input: z.strictObject({ countdownId: countdownId(), by: by() }), renamed: RENAMED_ID });
export const setDeclaration = declareCommand('countdown.set', {
    summary: "Set a countdown's value (and optionally its start)",
    who: 'gm',
    input: z.strictObject({ countdownId: countdownId(), value: int(1, MAX_COUNTDOWN_VALUE), start: int(1, MAX_COUNTDOWN_VALUE).optional() }),
    renamed: RENAMED_ID,
  });
export const pauseDeclaration = declareCommand('countdown.pause', { summary: 'Pause a countdown', who: 'gm', input: z.strictObject({ countdownId: countdownId() }), renamed: RENAMED_ID });
export const resumeDeclaration = declareCommand('countdown.resume', { summary: 'Resume a paused countdown', who: 'gm', input: z.strictObject({ countdownId: countdownId() }), renamed: RENAMED_ID });
export const revealDeclaration = declareCommand('countdown.reveal', {
    summary: 'Show a countdown to the players (fully, by name, or when it triggers)',
    who: 'gm',
    input: z.strictObject({ countdownId: countdownId(), to: z.enum(['visible', 'existence', 'reveal-on-trigger']).optional() }),
    renamed: RENAMED_ID,
  });
export const hideDeclaration = declareCommand('countdown.hide', { summary: 'Hide a countdown from the players', who: 'gm', input: z.strictObject({ countdownId: countdownId(), to: z.enum(['hidden', 'existence']).optional() }), renamed: RENAMED_ID });
export const removeDeclaration = declareCommand('countdown.remove', { summary: 'Remove a countdown (both sides of a chase)', who: 'gm', input: z.strictObject({ countdownId: countdownId() }), renamed: RENAMED_ID });

export const createDeclaration = declareCommand('countdown.create', {
    summary: 'Start a countdown (standard, dynamic, long-term or manual), optionally linked into a chase',
    who: 'gm',
    input: z.strictObject({
      name: text(MAX_NAME),
      kind: z.enum(tuple(COUNTDOWN_KINDS)).optional(),
      repeat: z.enum(tuple(COUNTDOWN_REPEATS)).optional(),
      visibility: z.enum(tuple(VISIBILITIES)).optional(),
      start: int(1, MAX_COUNTDOWN_VALUE, 'the starting value').optional(),
      startDie: z.string().max(40).meta({ description: 'a randomized start such as 1d6 or 2d4+1 (instead of start)' }).optional(),
      rerollOnReset: z.boolean().optional(),
      effect: text(MAX_TEXT).optional(),
      finalEffect: text(MAX_TEXT).optional(),
      activation: text(MAX_TEXT).optional(),
      advancement: text(MAX_TEXT).optional(),
      beats: z.array(beat).max(MAX_COUNTDOWN_VALUE + 1).optional(),
      restTicks: z.strictObject({ shortRest: int(0, 12).optional(), longRest: int(0, 12).optional() }).optional(),
      linkedCountdownId: countdownId('the other countdown of a chase').optional(),
      pcs: z.enum(['pursuing', 'escaping']).optional(),
    }),
    renamed: { linkedTo: 'linkedCountdownId' },
  });
export const chaseCreateDeclaration = declareCommand('chase.create', {
    summary: "Start a chase: the PCs' progress countdown against the other party's consequence countdown",
    who: 'gm',
    input: z.strictObject({
      name: text(MAX_NAME),
      die: int(2, MAX_COUNTDOWN_VALUE, "the pursuers' die size"),
      lead: int(1, MAX_COUNTDOWN_VALUE - 1, "the escapee's start (below the die)"),
      pcs: z.enum(['pursuing', 'escaping']).optional(),
      visibility: z.enum(tuple(VISIBILITIES)).optional(),
      progressName: text(MAX_TEXT).optional(),
      consequenceName: text(MAX_TEXT).optional(),
      progressEffect: text(MAX_TEXT).optional(),
      consequenceEffect: text(MAX_TEXT).optional(),
    }),
  });

export const oddsDeclaration = declareQuery('countdown.odds', {
  summary: 'Exact odds that a countdown triggers (or which side of a chase gets there first)',
  who: 'anyone',
  input: countdownOddsInput,
  result: countdownOddsResult,
  renamed: RENAMED_ID,
});

export const countdownsCatalog = catalogOf(
  createDeclaration,
  chaseCreateDeclaration,
  tickDeclaration,
  outcomeDeclaration,
  untickDeclaration,
  setDeclaration,
  pauseDeclaration,
  resumeDeclaration,
  revealDeclaration,
  hideDeclaration,
  removeDeclaration,
  oddsDeclaration,
);
