// Declarations of the Daggerheart commands (ADR 13): action rolls, Help an Ally, Hope and Fear.
import { catalogOf, characterId, combatantId, declareCommand, declareQuery, int, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { declareActions } from '../actions.js';
import { DOWNTIME_MOVES, MAX_ADVANTAGE_SOURCES, MAX_DAMAGE, MAX_DIFFICULTY, MAX_EXPERIENCE_BONUS, MAX_GROUP, MAX_MODIFIER, MAX_MOVE_TEXT, MAX_MOVES, MAX_REST_MOVES, MAX_SPEND, TRAITS } from './limits.js';
import { TRACKS } from './rules.js';
import { adversaryAttack, adversaryAttackOdds } from './adversary-attack.js';
import { answerHit, hitChoice } from './hit-choice.js';

const LABEL = 80;
const amount = () => int(1, MAX_SPEND, 'how many (default 1)').optional();
const requestId = () => text(64, 'the roll request id').min(1);
/** An adversary's move on its stat block, optionally with a countdown it starts (the bestiary's stat block holds the same). */
// Titled as the bestiary's form labels them (review 10: lower-case keys read raw).
export const move = z.strictObject({
  name: text(LABEL).min(1).meta({ title: 'Name' }),
  text: text(MAX_MOVE_TEXT).meta({ title: 'What it does' }).optional(),
  countdown: z
    .strictObject({ start: int(1, 100).meta({ title: 'Starts at' }), repeat: z.enum(['once', 'loop']).meta({ title: 'Repeats' }).optional(), kind: z.enum(['standard', 'progress', 'consequence']).meta({ title: 'Kind' }).optional() })
    .meta({ title: 'Countdown' })
    .nullable()
    .optional(),
});

/** docs/vocabulary.md: a flat addition to a roll is `bonus` in every ruleset; stored commands and old clients still send `modifier`. */
const RENAMED_BONUS = { modifier: 'bonus' } as const;

export const actionRoll = declareCommand('daggerheart.actionRoll', {
  summary: 'Make an action roll with the Duality Dice against a difficulty',
  who: 'own-character',
  input: z.strictObject({
    characterId: characterId('the PC rolling (GM: optional)').optional(),
    trait: z.enum(TRAITS).meta({ description: "a trait whose value on the PC's sheet is added" }).optional(),
    bonus: int(-MAX_MODIFIER, MAX_MODIFIER, 'trait and other modifiers (default 0)').optional(),
    difficulty: int(1, MAX_DIFFICULTY, 'the difficulty (leave it out when rolling against an adversary)').optional(),
    targetId: characterId("an adversary the roll is against: its stat block's Difficulty is the difficulty").optional(),
    advantage: int(-MAX_ADVANTAGE_SOURCES, MAX_ADVANTAGE_SOURCES, 'net advantage sources (negative: disadvantage)').optional(),
    reaction: z.boolean().meta({ description: 'a reaction roll (no Hope, Fear or countdown ticks by default)' }).optional(),
    label: text(LABEL).optional(),
  }),
  renamed: RENAMED_BONUS,
});
export const helpAlly = declareCommand('daggerheart.helpAlly', {
  summary: "Spend Hope to add an advantage die to an ally's next action roll",
  who: 'own-character',
  input: z.strictObject({ helperId: characterId('the PC helping'), targetId: characterId('the PC helped') }),
});
export const spendHope = declareCommand('daggerheart.spendHope', {
  summary: "Spend a PC's Hope",
  who: 'own-character',
  input: z.strictObject({ characterId: characterId(), amount: amount(), reason: text(LABEL).optional() }),
});
export const gainHope = declareCommand('daggerheart.gainHope', { summary: 'Give a PC Hope', who: 'gm', input: z.strictObject({ characterId: characterId(), amount: amount() }) });
export const spendFear = declareCommand('daggerheart.spendFear', { summary: "Spend the GM's Fear", who: 'gm', input: z.strictObject({ amount: amount(), reason: text(LABEL).optional() }) });
export const gainFear = declareCommand('daggerheart.gainFear', { summary: 'Gain Fear', who: 'gm', input: z.strictObject({ amount: amount(), reason: text(LABEL).optional() }) });
export const requestRoll = declareCommand('daggerheart.requestRoll', {
  summary: "Ask a PC's player for an action roll (trait, difficulty, advantage, an Experience)",
  who: 'gm',
  input: z.strictObject({
    characterId: characterId(),
    trait: z.enum(TRAITS).optional(),
    bonus: int(-MAX_MODIFIER, MAX_MODIFIER).optional(),
    difficulty: int(1, MAX_DIFFICULTY),
    hidden: z.boolean().meta({ description: 'keep the difficulty from the player' }).optional(),
    advantage: int(-MAX_ADVANTAGE_SOURCES, MAX_ADVANTAGE_SOURCES).optional(),
    label: text(LABEL).optional(),
    experience: text(LABEL, 'an Experience the player may spend Hope on').optional(),
    experienceBonus: int(1, MAX_EXPERIENCE_BONUS).optional(),
  }),
  renamed: RENAMED_BONUS,
});
/** The player's own action roll (ADR 50): they pick the trait, the GM sets the difficulty, then it is rolled as a request. */
export const askRoll = declareCommand('daggerheart.askRoll', {
  summary: 'Ask to make an action roll with a trait; the GM sets the difficulty (shown or hidden)',
  who: 'own-character',
  input: z.strictObject({ characterId: characterId(), trait: z.enum(TRAITS), label: text(LABEL).optional() }),
});
export const setDifficulty = declareCommand('daggerheart.setDifficulty', {
  summary: "Set the difficulty of a roll a player asked to make (and its advantage, bonus or Experience)",
  who: 'gm',
  input: z.strictObject({
    requestId: requestId(),
    difficulty: int(1, MAX_DIFFICULTY),
    hidden: z.boolean().meta({ description: 'keep the difficulty from the player' }).optional(),
    advantage: int(-MAX_ADVANTAGE_SOURCES, MAX_ADVANTAGE_SOURCES).optional(),
    bonus: int(-MAX_MODIFIER, MAX_MODIFIER).optional(),
    experience: text(LABEL, 'an Experience the player may spend Hope on').optional(),
    experienceBonus: int(1, MAX_EXPERIENCE_BONUS).optional(),
  }),
});
export const cancelRequest = declareCommand('daggerheart.cancelRequest', { summary: 'Cancel a roll request', who: 'gm', input: z.strictObject({ requestId: requestId() }) });
export const rollRequest = declareCommand('daggerheart.rollRequest', {
  summary: 'Roll a requested action roll (optionally spending Hope on the Experience)',
  who: 'own-character',
  input: z.strictObject({ requestId: requestId(), useExperience: z.boolean().optional() }),
});

export const passSpotlight = declareCommand('daggerheart.passSpotlight', { summary: 'Pass the spotlight to a combatant', who: 'gm', input: z.strictObject({ combatantId: combatantId() }), relative: true });
export const takeSpotlight = declareCommand('daggerheart.takeSpotlight', {
  summary: 'The GM takes the spotlight for an adversary, spending Fear',
  who: 'gm',
  input: z.strictObject({ combatantId: combatantId(), reason: text(LABEL).optional(), amount: int(0, 12, 'Fear spent (default: the setting)').optional() }),
});

// The table's trackers (trackers.ts): HP, Stress and Armor, damage, adversaries, rests.
export const markTrack = declareCommand('daggerheart.markTrack', {
  summary: 'Mark (or clear) HP, Stress or Armor slots',
  who: 'own-character',
  input: z.strictObject({ characterId: characterId(), track: z.enum(TRACKS), amount: int(-30, 30, 'slots to mark (negative: clear)').optional(), reason: text(LABEL).optional() }),
});

export const takeDamage = declareCommand('daggerheart.takeDamage', {
  summary: 'Take damage against the thresholds (optionally marking Armor)',
  who: 'own-character',
  input: z.strictObject({ characterId: characterId(), amount: int(0, MAX_DAMAGE), useArmor: z.boolean().meta({ description: "mark an Armor Slot (omit: the PC's player chooses when it would help)" }).optional() }),
});

export const addAdversaries = declareCommand('daggerheart.addAdversaries', {
  summary: 'Add adversaries from a stat block',
  who: 'gm',
  input: z.strictObject({
    name: text(LABEL).min(1),
    count: int(1, MAX_GROUP).optional(),
    difficulty: int(1, 60),
    major: int(1, 200, 'Major damage threshold'),
    severe: int(1, 400, 'Severe damage threshold'),
    hp: int(1, 30),
    stress: int(0, 30).optional(),
    attack: int(-20, 30).optional(),
    damage: text(40, 'damage dice, e.g. 1d8+2').optional(),
    moves: z.array(move).max(MAX_MOVES).optional(),
    visibility: z.enum(['hidden', 'existence', 'visible', 'reveal-on-trigger']).meta({ description: 'who learns of them (default: existence)' }).optional(),
  }),
});

export const rest = declareCommand('daggerheart.rest', {
  summary: 'Take a short or long rest with the PCs\' downtime moves',
  who: 'gm',
  input: z.strictObject({
    rest: z.enum(['short', 'long']),
    moves: z.array(z.strictObject({ characterId: characterId(), move: z.enum(DOWNTIME_MOVES), targetId: characterId('whom the move helps').optional() })).max(MAX_REST_MOVES).optional(),
  }),
});


export const rollOddsDeclaration = declareQuery('daggerheart.rollOdds', {
  summary: "Exact odds of a requested roll and what each outcome does to the countdowns",
  who: 'anyone',
  input: z.strictObject({ requestId: requestId(), useExperience: z.boolean().optional() }),
  result: z.looseObject({}),
});
export const actionRollOddsDeclaration = declareQuery('daggerheart.actionRollOdds', {
  summary: 'Exact odds of an action roll before it is made (each duality outcome, and success)',
  who: 'anyone',
  input: z.strictObject({
    characterId: characterId('the PC whose trait is named').optional(),
    trait: z.enum(TRAITS).optional(),
    bonus: int(-MAX_MODIFIER, MAX_MODIFIER).optional(),
    difficulty: int(1, MAX_DIFFICULTY).optional(),
    targetId: characterId('an adversary the roll is against (its Difficulty, where this viewer may know it)').optional(),
    advantage: int(-MAX_ADVANTAGE_SOURCES, MAX_ADVANTAGE_SOURCES).optional(),
  }),
  renamed: RENAMED_BONUS,
  // Against an adversary whose Difficulty the asker may not know: the dice-only chances and why (ADR 79).
  result: z.union([
    z.strictObject({ outcomes: z.record(z.string(), z.number()), success: z.number(), advantage: z.int(), difficulty: z.int() }),
    z.strictObject({ hidden: z.literal(true), critical: z.number(), withHope: z.number(), withFear: z.number(), advantage: z.int(), why: z.string() }),
  ]),
});

export const daggerheartCatalog = catalogOf(
  adversaryAttack,
  adversaryAttackOdds,
  answerHit,
  hitChoice,
  actionRoll,
  helpAlly,
  spendHope,
  gainHope,
  spendFear,
  gainFear,
  requestRoll,
  askRoll,
  setDifficulty,
  cancelRequest,
  rollRequest,
  markTrack,
  takeDamage,
  addAdversaries,
  rest,
  passSpotlight,
  takeSpotlight,
  rollOddsDeclaration,
  actionRollOddsDeclaration,
  declareActions('daggerheart', 'What a creature in the spotlight may do now: roll, help an ally, with odds'),
);
