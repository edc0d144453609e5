// Declarations of the Kleptonomicon commands and the test-odds query (ADR 13):
// the Episode's phases, improvisation, tests, abilities, XP and resources, and
// movement in an Encounter (004).
import { catalogOf, type Upcasts, characterId, combatantId, declareCommand, declareQuery, int, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { actionSchema, actionsResult, declareActions } from '../actions.js';
import { BASIC_ATTACKS } from './distances.js';
import { EDGE_SAVE_LIMIT } from './sheet.js';

const MAX_TEXT = 500;
const MAX_MODIFIER = 50;
const prose = (description: string) => text(MAX_TEXT, description).min(1);
const modifier = () => int(-MAX_MODIFIER, MAX_MODIFIER, 'the test modifier (default 0)').optional();
const advantage = () => int(-10, 10, 'advantage dice (negative: disadvantage)').optional();
/** Who a turn command is about: a character's id, or an unlinked combatant's own id (docs/vocabulary.md). */
const creature = (description = 'the character (or, for a combatant without one, its combatant id)') => characterId(description);
/** Issue 17's vocabulary: turn commands took `combatantId`; an old client's still parses (ADR 21). */
const RENAMED_COMBATANT = { combatantId: 'characterId' } as const;
const mover = z.strictObject({ characterId: creature() });

// A combatant's own turn (004 "Movement", "Dash", "Free Actions"): typed handlers in commands/turns.ts read these (handlerOf).
export const freeActionDeclaration = declareCommand('kleptonomicon.freeAction', {
  summary: 'Take an improvised free action this turn',
  who: 'own-character',
  input: z.strictObject({ characterId: creature(), description: prose('what the character does'), gmAllows: z.boolean().meta({ description: 'GM: allow one past the limit' }).optional() }),
  renamed: RENAMED_COMBATANT,
});
export const moveDeclaration = declareCommand('kleptonomicon.move', {
  summary: 'Move some units in a movement style',
  who: 'own-character',
  input: z.strictObject({
    characterId: creature('who moves'),
    style: text(32, 'the movement style (default: the active one)').optional(),
    units: z.number().min(0).max(1000).meta({ description: 'units of movement' }),
    leaving: z.array(combatantId()).max(20).meta({ description: 'enemies whose Swinging Distance the move leaves' }).optional(),
  }),
  renamed: RENAMED_COMBATANT,
});
export const dropProneDeclaration = declareCommand('kleptonomicon.dropProne', { summary: 'Drop prone', who: 'own-character', input: mover, renamed: RENAMED_COMBATANT });
export const standDeclaration = declareCommand('kleptonomicon.stand', { summary: 'Stand up', who: 'own-character', input: mover, renamed: RENAMED_COMBATANT });
export const dashDeclaration = declareCommand('kleptonomicon.dash', { summary: 'Dash (an Athletics Test for more movement)', who: 'own-character', input: mover, renamed: RENAMED_COMBATANT });
export const grantStyleDeclaration = declareCommand('kleptonomicon.grantStyle', {
  summary: 'Grant a combatant an improvised movement style this turn',
  who: 'gm',
  input: z.strictObject({ characterId: creature(), style: z.string().regex(/^[a-z][a-z-]{0,31}$/).meta({ description: 'a lower-case style name (climb, swim...)' }), variant: z.enum(['half', 'normal', 'double']).optional() }),
  renamed: RENAMED_COMBATANT,
});
export const interruptDeclaration = declareCommand('kleptonomicon.interrupt', { summary: "Interrupt a combatant's movement", who: 'gm', input: z.strictObject({ characterId: creature(), heavy: z.boolean().optional() }), renamed: RENAMED_COMBATANT });
export const improvisedManeuverDeclaration = declareCommand('kleptonomicon.improvisedManeuver', {
  // ADR 51: kleptonomicon.attack with `maneuver` replaced it (damage and odds included); kept for old clients and stored tables.
  summary: 'An improvised maneuver without damage (old clients; the screen sends kleptonomicon.attack with maneuver)',
  who: 'own-character',
  input: z.strictObject({ attackerId: combatantId('who attacks'), targetId: combatantId('who is attacked'), modifier: modifier(), advantage: advantage(), defense: int(0, 100).optional() }),
  renamed: { attacker: 'attackerId', target: 'targetId', defence: 'defense' },
});

// A Basic Attack, an ability's attack or the improvised maneuver (ADR 51): commands/combat.ts; its odds share the input.
const attackInput = z.strictObject({
  attackerId: combatantId('who attacks'),
  targetId: combatantId('who is attacked'),
  abilityId: text(64, 'the sheet ability used (default: the Basic Attack)').min(1).optional(),
  maneuver: z.boolean().meta({ description: 'the improvised maneuver: one more Disadvantage, and a hit adds Slowed' }).optional(),
  opportunity: z.boolean().meta({ description: 'the Opportunity Attack on someone who left the attacker\'s Swinging Distance (a Basic Attack off turn, paid with a Beat)' }).optional(),
  modifier: modifier(),
  advantage: advantage(),
  defense: int(0, 100, "the Defense the Score must reach (the GM's wins; a player's counts when the target has none on record)").optional(),
  damage: text(20, 'damage dice on a hit, such as 1d6+1 (default: the sheet ability\'s or none)').optional(),
  // ADR 124: how far an attack reaches, and how far its target was said to be (no map: unsaid is unchecked).
  basic: z.enum(BASIC_ATTACKS).meta({ description: "which Basic Attack (melee reaches Swinging Distance, ranged Shooting, magic Throwing; default: the sheet's kind, else melee)" }).optional(),
  distance: text(32, "how far the target is: a distance's key (swinging, spearing, spitting, throwing, shooting, or the table's sixth)").min(1).optional(),
  units: z.number().min(0).max(1000).meta({ description: 'how far the target is, in units (instead of a named distance)' }).optional(),
});
export const attackDeclaration = declareCommand('kleptonomicon.attack', {
  summary: "Attack: a Test against the target's Defense, damage and the ability's effects on a hit",
  who: 'own-character',
  input: attackInput,
});
export const attackOddsDeclaration = declareQuery('kleptonomicon.attackOdds', {
  summary: "Exact chance an attack's Score reaches the target's Defense, and its damage",
  who: 'anyone',
  input: attackInput,
  result: z.strictObject({ pass: z.number().min(0).max(1), defense: z.int(), failAtOrBelow: z.int(), damage: z.string().nullable(), averageDamage: z.number().nullable() }),
});

// Improvised actions and Tests: typed handlers in commands/improvisation.ts read these (handlerOf).
export const improviseDeclaration = declareCommand('kleptonomicon.improvise', { summary: 'Ask to do something improvised; the GM rules on it', who: 'own-character', input: z.strictObject({ characterId: characterId(), description: prose('what the character tries') }) });
export const ruleDeclaration = declareCommand('kleptonomicon.rule', {
    summary: 'Rule on an improvisation: it simply happens, needs a Test, or is impossible',
    who: 'gm',
    input: z.strictObject({ improvisationId: text(64, 'the improvised action ruled on').min(1), ruling: z.enum(['simple', 'test', 'impossible']), modifier: modifier(), advantage: advantage() }),
    renamed: { requestId: 'improvisationId' },
  });
export const testDeclaration = declareCommand('kleptonomicon.test', {
    summary: 'Make a Test: the dice against the fail Score',
    who: 'own-character',
    input: z.strictObject({ characterId: characterId(), skill: prose('the skill tested').optional(), modifier: modifier(), advantage: advantage() }),
  });

// The Episode (commands/episode.ts) and a character's abilities, XP and resources (commands/characters.ts): typed handlers (handlerOf).
export const startEpisodeDeclaration = declareCommand('kleptonomicon.startEpisode', { summary: 'Start an Episode (the Opening Credits)', who: 'gm', input: z.strictObject({}) });
export const introduceDeclaration = declareCommand('kleptonomicon.introduce', {
    summary: 'Introduce a character in the Opening Credits (optionally with a clip)',
    who: 'own-character',
    input: z.strictObject({ characterId: characterId(), clip: prose('the clip shown').optional() }),
  });
export const coldOpenDeclaration = declareCommand('kleptonomicon.coldOpen', { summary: 'Add a cold open to the Opening Credits', who: 'gm', input: z.strictObject({ text: prose('the cold open') }) });
export const freeplayDeclaration = declareCommand('kleptonomicon.freeplay', { summary: 'Move to Freeplay', who: 'gm', input: z.strictObject({}) });
export const looseOrderDeclaration = declareCommand('kleptonomicon.looseOrder', {
    summary: 'Set (or drop) a loose spotlight order for Freeplay',
    who: 'gm',
    input: z.strictObject({ order: z.array(characterId()).min(1).max(50).nullable() }),
  });
export const passSpotlightDeclaration = declareCommand('kleptonomicon.passSpotlight', { summary: 'Pass the spotlight along the loose order', who: 'gm', input: z.strictObject({}), relative: true });
export const useAbilityDeclaration = declareCommand('kleptonomicon.useAbility', {
    summary: 'Use an ability (restoring a resource when it says so)',
    who: 'own-character',
    input: z.strictObject({
      combatantId: combatantId('in an Encounter: who uses it').optional(),
      characterId: characterId('outside an Encounter: who uses it').optional(),
      abilityId: text(64, 'the ability').min(1),
      amount: int(1, 10_000, 'how much it restores (omit: fully)').optional(),
    }),
  });
export const setSheetDeclaration = declareCommand('kleptonomicon.setSheet', {
    summary: "Set a character's Edge Save bonus and whether they are Sneaky",
    who: 'gm',
    input: z.strictObject({ characterId: characterId(), edgeSave: int(-EDGE_SAVE_LIMIT, EDGE_SAVE_LIMIT, 'Edge Save bonus').optional(), sneaky: z.boolean().meta({ description: 'advantage on the Edge Save' }).optional() }),
  });
export const pauseDeclaration = declareCommand('kleptonomicon.pause', { summary: 'Pause the Encounter', who: 'gm', input: z.strictObject({}) });
export const resumeDeclaration = declareCommand('kleptonomicon.resume', { summary: 'Resume the Encounter (after a Beat, name who ended it)', who: 'gm', input: z.strictObject({ endedWithBeatBy: combatantId('whose Beat ended the pause').optional() }) });
export const awardSecondaryXpDeclaration = declareCommand('kleptonomicon.awardSecondaryXp', { summary: 'Award the second XP point of an Encounter', who: 'gm', input: z.strictObject({ characterIds: z.array(characterId()).min(1).max(50) }) });
export const awardXpDeclaration = declareCommand('kleptonomicon.awardXp', {
    summary: 'Award (or take) XP',
    who: 'gm',
    input: z.strictObject({ characterId: characterId(), amount: int(-100, 100).optional(), reason: prose('why').optional() }),
  });
export const levelUpDeclaration = declareCommand('kleptonomicon.levelUp', { summary: 'Level up a character (the GM approves)', who: 'own-character', input: z.strictObject({ characterId: characterId(), gmApproves: z.boolean().optional() }) });
export const setResourceDeclaration = declareCommand('kleptonomicon.setResource', {
    summary: "Set a character's resource (health, vitality, shield, dodges...)",
    who: 'gm',
    input: z.strictObject({ characterId: characterId(), key: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,31}$/).meta({ description: 'the resource name' }), max: int(0, 100_000).optional(), value: int(0, 100_000).optional() }),
  });
export const closingCreditsDeclaration = declareCommand('kleptonomicon.closingCredits', { summary: 'Roll the Closing Credits', who: 'gm', input: z.strictObject({}) });
export const resolutionSceneDeclaration = declareCommand('kleptonomicon.resolutionScene', { summary: 'Play a resolution scene (a player for their own character)', who: 'own-character', input: z.strictObject({ text: prose('the scene'), characterId: characterId().optional() }) });
export const endEpisodeDeclaration = declareCommand('kleptonomicon.endEpisode', { summary: 'End the Episode (resources reset, halved by the setting)', who: 'gm', input: z.strictObject({ halve: z.boolean().optional() }) });

export const testOddsDeclaration = declareQuery('kleptonomicon.testOdds', {
  summary: 'Exact chance a Test passes at the table fail Score',
  who: 'anyone',
  input: z.strictObject({ modifier: modifier(), advantage: advantage(), defense: int(0, 100, 'a defense the Score must reach (default: pass above the fail Score)').optional() }),
  renamed: { defence: 'defense' },
  result: z.strictObject({ pass: z.number().min(0).max(1), failAtOrBelow: z.int() }),
});

export const kleptoCatalog = catalogOf(
  startEpisodeDeclaration,
  introduceDeclaration,
  coldOpenDeclaration,
  freeplayDeclaration,
  looseOrderDeclaration,
  passSpotlightDeclaration,
  improviseDeclaration,
  ruleDeclaration,
  testDeclaration,
  useAbilityDeclaration,
  freeActionDeclaration,
  setSheetDeclaration,
  pauseDeclaration,
  resumeDeclaration,
  awardSecondaryXpDeclaration,
  awardXpDeclaration,
  levelUpDeclaration,
  setResourceDeclaration,
  closingCreditsDeclaration,
  resolutionSceneDeclaration,
  endEpisodeDeclaration,
  moveDeclaration,
  dropProneDeclaration,
  standDeclaration,
  dashDeclaration,
  grantStyleDeclaration,
  interruptDeclaration,
  improvisedManeuverDeclaration,
  attackDeclaration,
  attackOddsDeclaration,
  testOddsDeclaration,
  declareActions('kleptonomicon', 'What a combatant may do now (004 Beats, movement, Dash, maneuvers), with targets and odds'),
  declareQuery('kleptonomicon.reactions', {
    summary: 'The Opportunity Attack a combatant may make now on someone who left its Swinging Distance (004), with odds',
    who: 'own-character',
    input: z.strictObject({ characterId: combatantId('who may react') }),
    result: z.strictObject({ characterId: z.string(), name: z.string(), prompts: z.array(z.strictObject({ id: z.string(), kind: z.literal('opportunity'), text: z.string(), actions: z.array(actionSchema) })) }),
  }),
  declareQuery('kleptonomicon.freeplayActions', {
    summary: 'What a character may do outside an Encounter (a Test of a Skill, an improvised action), with odds',
    who: 'own-character',
    input: z.strictObject({ characterId: characterId('who acts') }),
    result: actionsResult,
  }),
  declareQuery('kleptonomicon.toolActions', {
    summary: "The GM's Episode forms (cold open, loose order, spotlight, rulings, closing scene), or a character's XP and resources",
    who: 'gm',
    input: z.strictObject({ characterId: characterId('whose tools; absent: the Episode\'s').optional() }),
    result: actionsResult,
  }),
);

/** Names before issue 17's vocabulary (docs/vocabulary.md): stored tables and old clients are read under today's (ADR 28). */
export const kleptoUpcasts: Upcasts = {
  namespaces: { 'klepto.': 'kleptonomicon.' },
  eventFields: {
    'kleptonomicon.improvisationProposed': { id: 'improvisationId' },
    'kleptonomicon.improvisationRuled': { id: 'improvisationId' },
    'kleptonomicon.maneuverRolled': { attacker: 'attackerId', target: 'targetId', defence: 'defense' },
  },
};
