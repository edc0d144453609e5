// Declarations of the 36th Way commands and queries (ADR 13): sheets, attacks,
// damage, dying, recoveries, abilities, rests and positioning (002). A sheet's
// id is its combatant's id, so sheet fields offer the combatant picker.
import { catalogOf, type Upcasts, characterId, combatantId, declareCommand, declareQuery, int, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { actionSchema, declareActions } from '../actions.js';
import { tswEventFields } from './events.js';
import { ACTIONS, ATTACK_REACHES, FREQUENCY_NAMES, MAX_ABILITIES, MAX_ABILITY_TARGETS, MISS_KINDS, RECHARGE_TARGETS } from './abilities.js';
import { MAX_TARGETS } from './combat.js';
import { DAMAGE_TYPES, MAX_DICE, MAX_FLAT, MAX_SIDES } from './damage.js';

const MAX_STAT = 1000;
const MAX_HP = 100_000;
const sheetId = (description = 'a sheet id (its combatant id)') => combatantId(description);
/** The creature a command is about: its sheet id (a PC's sheet id is usually its character id). */
const creature = (description = 'the creature: its sheet id') => sheetId(description);
const damageType = z.enum(DAMAGE_TYPES);
// Titles are the labels a generated form shows, in 002's words (review 10 read "hit (optional)", "attacks 1").
const types = z.array(damageType.meta({ title: 'Damage type' })).min(1).max(10).meta({ title: 'Damage types', description: 'damage types (default weapon)' });
const defense = z.enum(['ac', 'pd', 'md']).meta({ title: 'Defense attacked', description: 'the defense attacked (default ac)', 'x-labels': { ac: 'AC', pd: 'PD', md: 'MD' } });
const dice = z.strictObject({ count: int(0, MAX_DICE).meta({ title: 'Dice' }).optional(), sides: int(1, MAX_SIDES).meta({ title: 'Sides' }).optional(), bonus: int(-MAX_FLAT, MAX_FLAT).meta({ title: 'Bonus' }).optional() });
const range = z.enum(['engaged', 'nearby', 'far']);
const tag = (title: string) => z.array(text(40).min(1).meta({ title })).max(10);
const stat = (lo: number, hi: number, description?: string) => int(lo, hi, description).optional();
const average = z.boolean().meta({ description: 'take the average instead of rolling (default: the table setting)' }).optional();

/** The attack an ability makes (002 "Attacks", "Basic Attacks"). */
const abilityAttack = z.strictObject({
  defense: defense.optional(),
  bonus: int(-50, 50, 'a rare extra attack bonus').meta({ title: 'Extra attack bonus' }).optional(),
  reach: z.enum(ATTACK_REACHES).meta({ title: 'Reach', description: 'engaged, nearby (engaged too), far (anyone), or the stance reach (default)' }).optional(),
  targets: int(1, MAX_ABILITY_TARGETS, 'how many targets at most (one roll each)').meta({ title: 'Most targets' }).optional(),
  asBasic: z.boolean().meta({ title: 'As a basic attack', description: 'hit and miss as a basic melee/ranged attack' }).optional(),
  hit: dice.meta({ title: 'Hit damage', description: 'hit damage' }).optional(),
  miss: z.enum(MISS_KINDS).meta({ title: 'Miss damage', description: 'miss damage: none, equal to Level, or the miss dice' }).optional(),
  missDice: dice.meta({ title: 'Miss dice', description: 'miss damage when miss is dice' }).optional(),
  types: types.optional(),
  rollAllFirst: z.boolean().meta({ title: 'Roll every attack first', description: 'roll every attack before any damage' }).optional(),
  wholeBonus: z.boolean().meta({ title: 'Bonus is the whole modifier', description: "the bonus is the whole modifier, as a stat block's +7 (no Level or Volition added)" }).optional(),
});

/** One entry of a sheet's ability list (002 "Abilities"); a bestiary stat block takes the same entries. */
export const ability = z.strictObject({
  // Made from the name when left out (GM review: a raw key to invent); forms never ask for it (x-from-name).
  id: text(80).min(1).meta({ title: 'Key', description: 'a key for the ability (default: made from its name)', 'x-from-name': true }).optional(),
  name: text(80).meta({ title: 'Name' }).optional(),
  types: tag('Type').meta({ title: 'Types' }).optional(),
  // The object is the older way to write a recharge; forms offer the names only (x-long-form).
  frequency: z
    .union([z.enum(FREQUENCY_NAMES), z.strictObject({ kind: z.literal('recharge'), target: z.union(RECHARGE_TARGETS.map((t) => z.literal(t))) }).meta({ 'x-long-form': true })])
    .meta({ title: 'Frequency', description: 'how often: at-will, encounter, daily, or recharge X+ (rolled at a quick rest)' })
    .optional(),
  action: z.enum(ACTIONS).meta({ title: 'Action' }).optional(),
  sustain: int(3, 18, 'Sustain X: a 3d6 roll of X+ keeps it going').nullable().meta({ title: 'Sustain' }).optional(),
  // The limits the rules check (abilities.ts), so a form names a bad cost before sending (review 9).
  power: z
    .union([int(1, 99), z.strictObject({ amount: int(1, 99, 'how much of the resource one use spends').meta({ title: 'Amount' }), resource: text(40, 'the resource spent (default: power)').min(1).meta({ title: 'Resource' }).optional() })])
    .meta({ title: 'Power' })
    .optional(),
  escalation: z
    .union([
      int(0, 6),
      z.strictObject({
        min: int(0, 6, 'Escalation X+: the die must show at least this').meta({ title: 'At least' }).optional(),
        parity: z.enum(['even', 'odd']).nullable().meta({ title: 'Even or odd', description: 'an even or odd die only' }).optional(),
        special: z.boolean().meta({ title: 'Special', description: '(see special): usable below it, with a caveat' }).optional(),
      }),
    ])
    .meta({ title: 'Escalation', description: 'escalation die needed' })
    .optional(),
  other: tag('Tag').meta({ title: 'Other tags' }).optional(),
  provokes: z.boolean().meta({ title: 'Provokes opportunity attacks' }).optional(),
  basic: z.boolean().meta({ title: 'Basic attack' }).optional(),
  attack: abilityAttack.meta({ title: 'Attack' }).optional(),
}).meta({ title: 'Ability' });

/** The 36th Way sheet: missing numbers take the text's usual values. */
export const tswSheet = z.strictObject({
  id: text(80, 'the sheet id (its combatant id)').min(1),
  name: text(80).optional(),
  kind: z.enum(['pc', 'npc']).optional(),
  characterId: characterId().nullable().optional(),
  level: stat(0, 30),
  tier: stat(1, 5),
  volition: stat(-MAX_STAT, MAX_STAT),
  ac: stat(0, MAX_STAT),
  pd: stat(0, MAX_STAT),
  md: stat(0, MAX_STAT),
  maxHp: stat(1, MAX_HP),
  hp: stat(-MAX_HP, MAX_HP, 'current HP (at most maxHp)'),
  maxRecoveries: stat(0, 99),
  recoveries: stat(0, 99),
  recoveryDice: z.strictObject({ count: int(0, 100).meta({ title: 'Dice' }).optional(), sides: int(1, 100).meta({ title: 'Sides' }).optional() }).optional(),
  recoveryBonus: stat(-MAX_STAT, MAX_STAT),
  resources: z.record(z.string().max(40), int(0, MAX_STAT)).optional(),
  maxResources: z.record(z.string().max(40), int(0, MAX_STAT)).optional(),
  resist: z.partialRecord(damageType, int(3, 19, 'Resist X+')).optional(),
  weak: z.array(damageType.meta({ title: 'Weakness' })).max(10).optional(),
  stance: z.enum(['melee', 'ranged']).optional(),
  stanceDice: z.strictObject({ melee: int(1, 100).meta({ title: 'Melee' }).optional(), ranged: int(1, 100).meta({ title: 'Ranged' }).optional() }).optional(),
  rangedReach: z.enum(['nearby', 'far']).optional(),
  // Said in words where a sheet is shown (review 13 #15: "Basic attack miss none" on the phone).
  basicMiss: z.enum(['none', 'level']).meta({ 'x-labels': { none: 'no damage', level: 'damage equal to the level' } }).optional(),
  usesEscalation: z.boolean().nullable().optional(),
  abilities: z.array(ability).max(MAX_ABILITIES).optional(),
  // Play state a stored sheet carries; accepted so a stored sheet can be sent back, and ignored (a set sheet starts afresh).
  ...Object.fromEntries(['exhaustion', 'uses', 'dying', 'deathFailures', 'dead', 'unconscious', 'outOfFight', 'hitThisRound'].map((k) => [k, z.json().meta({ description: 'play state: ignored' }).optional()])),
});

const oddsFields = {
  attackerId: sheetId('who attacks'),
  defense: defense.optional(),
  types: types.optional(),
  bonus: int(-50, 50, 'flat attack bonus').optional(),
  advantage: int(-6, 6, 'situational advantage (negative: disadvantage)').optional(),
  coupDeGrace: z.boolean().optional(),
  ability: text(80, 'the ability used').optional(),
};

const attackInput = z.strictObject({
  ...oddsFields,
  targetIds: z.array(sheetId()).min(1).max(MAX_TARGETS),
  basic: z.enum(['melee', 'ranged']).meta({ description: 'a basic attack in that stance' }).optional(),
  opportunity: text(64, 'the provocation answered by an opportunity attack').optional(),
  damage: dice.optional(),
  missDamage: z.union([z.enum(['none', 'level']), z.null(), dice]).optional(),
  mode: z
    .union([
      z.literal('all'),
      z.null(),
      z.strictObject({ kind: z.literal('all') }),
      z.strictObject({ kind: z.literal('average'), averaged: int(0, MAX_DICE) }),
      z.strictObject({ kind: z.literal('multiply'), multiplier: int(1, 100) }),
    ])
    .optional(),
  onHit: z
    .array(z.strictObject({ condition: text(40).min(1), duration: z.json().meta({ description: 'a duration as condition.apply takes it' }), params: z.json().optional() }))
    .max(5)
    .optional(),
  rollAllFirst: z.boolean().optional(),
});

export const sheetSetDeclaration = declareCommand('36th-way.sheet.set', { summary: 'Set (replace) a sheet', who: 'gm', input: z.strictObject({ sheet: tswSheet }) });
export const attackDeclaration = declareCommand('36th-way.attack', { summary: 'Attack one or more targets: 3d6 against a defense, damage on a hit', who: 'own-character', input: attackInput, renamed: { attacker: 'attackerId', targets: 'targetIds' } });
export type AttackPayload = z.output<typeof attackInput>;

// Movement (002 "Positioning and Movement"): typed handlers in movement.ts read these (handlerOf).
export const positionDeclaration = declareCommand('36th-way.position', { summary: 'Set the range between two sheets', who: 'gm', input: z.strictObject({ fromId: sheetId(), toId: sheetId(), range }), renamed: { a: 'fromId', b: 'toId' } });
export const moveDeclaration = declareCommand('36th-way.move', {
    summary: 'Move to a range of someone (may provoke)',
    who: 'own-character',
    input: z.strictObject({ characterId: creature('who moves'), toId: sheetId('whom to move relative to'), range: range.optional(), intercept: z.boolean().optional() }),
    renamed: { who: 'characterId', to: 'toId' },
  });
export const disengageDeclaration = declareCommand('36th-way.disengage', {
    summary: 'Disengage from engaged enemies (a check)',
    who: 'own-character',
    input: z.strictObject({ characterId: creature(), from: z.array(sheetId()).min(1).max(MAX_TARGETS).optional(), advantage: int(-6, 6).optional() }),
    renamed: { who: 'characterId' },
  });
export const popOffDeclaration = declareCommand('36th-way.popOff', { summary: 'Pop free of engaged enemies', who: 'own-character', input: z.strictObject({ characterId: creature(), from: z.array(sheetId()).max(MAX_TARGETS).optional() }), renamed: { who: 'characterId' } });
export const interceptDeclaration = declareCommand('36th-way.intercept', { summary: 'Intercept an enemy who just moved to engage someone', who: 'own-character', input: z.strictObject({ interceptorId: sheetId(), moverId: sheetId() }), renamed: { interceptor: 'interceptorId', mover: 'moverId' } });

// Sheets, attacks' aftermath, dying, abilities, rests, stances, checks: typed handlers in module.ts read these (handlerOf).
export const sheetRemoveDeclaration = declareCommand('36th-way.sheet.remove', { summary: 'Remove a sheet', who: 'gm', input: z.strictObject({ characterId: creature() }), renamed: { id: 'characterId' } });
export const outOfFightDeclaration = declareCommand('36th-way.outOfFight', { summary: 'Mark a sheet out of the fight (or back in)', who: 'gm', input: z.strictObject({ characterId: creature(), value: z.boolean() }), renamed: { id: 'characterId' } });
export const damageDeclaration = declareCommand('36th-way.damage', {
    summary: 'Deal direct damage to a sheet',
    who: 'gm',
    input: z.strictObject({ targetId: sheetId(), amount: int(0, 100_000), damageType: damageType.optional(), crit: z.boolean().optional() }),
    renamed: { target: 'targetId' },
  });
export const healDeclaration = declareCommand('36th-way.heal', {
    summary: 'Heal: spend a recovery, a free recovery, NPC healing dice, or an amount the GM names',
    who: 'own-character',
    input: z.strictObject({
      characterId: creature('who is healed'),
      how: z.enum(['recovery', 'free', 'npc', 'amount']).optional(),
      average,
      helperId: sheetId('who healed them').optional(),
      die: z.union([z.literal(6), z.literal(10)]).optional(),
      amount: int(1, 100_000).meta({ description: 'HP healed when how is "amount" (GM only)' }).optional(),
    }),
    renamed: { id: 'characterId', by: 'helperId' },
  });
export const stabilizeDeclaration = declareCommand('36th-way.stabilize', { summary: 'Stabilize a dying ally', who: 'own-character', input: z.strictObject({ helperId: sheetId('who helps'), targetId: sheetId('who is dying') }), renamed: { who: 'helperId', target: 'targetId' } });
export const lastGaspDeclaration = declareCommand('36th-way.lastGasp', { summary: 'Start Last Gasp saves against an effect', who: 'gm', input: z.strictObject({ characterId: creature(), effect: text(200).optional() }), renamed: { id: 'characterId' } });
export const declineOpportunityDeclaration = declareCommand('36th-way.declineOpportunity', {
  summary: 'Let a provocation pass without the opportunity attack it allows',
  who: 'own-character',
  input: z.strictObject({ attackerId: sheetId('who may make the opportunity attack'), opportunity: text(64, 'the provocation').min(1) }),
});
export const opportunityPromptsDeclaration = declareQuery('36th-way.reactions', {
  summary: 'The opportunity attacks a creature may make now (each with its odds) or decline',
  who: 'own-character',
  input: z.strictObject({ characterId: creature() }),
  result: z.strictObject({ characterId: z.string(), name: z.string(), prompts: z.array(z.strictObject({ id: z.string(), kind: z.literal('opportunity'), text: z.string(), actions: z.array(actionSchema) })) }),
});
export const deathSaveDeclaration = declareCommand('36th-way.deathSave', { summary: "Roll a dying PC's death save on its turn (the player, or the GM for them)", who: 'own-character', input: z.strictObject({ characterId: creature() }) });
const checkOdds = z.strictObject({
  pass: z.number().meta({ description: 'chance of a success (a crit included)' }),
  crit: z.number().nullable().meta({ description: 'chance of a crit, where the roll has one' }),
  target: z.int(),
  net: z.int().meta({ description: 'net Advantage (+) or Disadvantage (-) applied' }),
  why: z.array(z.string()).meta({ description: 'where the target and the dice come from, in words' }),
});
export const deathSaveOddsDeclaration = declareQuery('36th-way.deathSaveOdds', {
  summary: "Exact odds of a dying PC's next death save (the first save's Disadvantage counted)",
  who: 'own-character',
  input: z.strictObject({ characterId: creature() }),
  result: checkOdds,
});
export const disengageOddsDeclaration = declareQuery('36th-way.disengageOdds', {
  summary: 'Exact odds of a disengage check from some or all engaged enemies',
  who: 'own-character',
  input: z.strictObject({ characterId: creature(), from: z.array(sheetId()).min(1).max(MAX_TARGETS).optional(), advantage: int(-6, 6).optional() }),
  result: checkOdds,
});
export const checkOddsDeclaration = declareQuery('36th-way.checkOdds', {
  summary: 'Exact odds of a skill check or a Dicey Move (3d6 + bonus against a Difficulty)',
  who: 'own-character',
  input: z.strictObject({ characterId: creature(), difficulty: int(3, 60), bonus: int(-30, 30).optional(), advantage: int(-6, 6).optional(), sneak: z.boolean().optional() }),
  result: checkOdds,
});
export const grantSaveOddsDeclaration = declareQuery('36th-way.grantSaveOdds', {
  summary: 'Exact odds of a Last Gasp save an ally grants',
  who: 'own-character',
  input: z.strictObject({ helperId: sheetId('who grants it'), targetId: sheetId('who saves') }),
  result: checkOdds,
});
export const sustainOddsDeclaration = declareQuery('36th-way.sustainOdds', {
  summary: "Exact odds of the roll that keeps an active ability going (its Sustain number on 3d6)",
  who: 'own-character',
  input: z.strictObject({ characterId: creature(), ability: text(80, 'the ability id').min(1) }),
  result: checkOdds,
});
export const checksDeclaration = declareQuery('36th-way.checks', {
  summary: 'A skill check form for each PC the viewer plays (the GM: every PC), in a fight or out of one',
  who: 'anyone',
  input: z.strictObject({}),
  result: z.strictObject({ actions: z.array(actionSchema.extend({ name: z.string() })) }),
});
export const grantSaveDeclaration = declareCommand('36th-way.grantSave', { summary: 'Grant an ally a save', who: 'own-character', input: z.strictObject({ helperId: sheetId('who grants it'), targetId: sheetId('who saves') }), renamed: { who: 'helperId', target: 'targetId' } });
export const useAbilityDeclaration = declareCommand('36th-way.useAbility', { summary: 'Use an ability (spending its use or power)', who: 'own-character', input: z.strictObject({ characterId: creature(), ability: text(80, 'the ability id').min(1) }), renamed: { who: 'characterId' } });
export const sustainDeclaration = declareCommand('36th-way.sustain', { summary: 'Sustain an ability this turn', who: 'own-character', input: z.strictObject({ characterId: creature(), ability: text(80, 'the ability id').min(1) }), renamed: { who: 'characterId' } });
export const quickRestDeclaration = declareCommand('36th-way.quickRest', {
    summary: 'Take a quick rest, spending recoveries per sheet',
    who: 'gm',
    input: z.strictObject({ recoveries: z.record(z.string().max(80), int(0, 99)).meta({ description: 'recoveries each sheet spends' }).optional(), average }),
  });
/** The most recoveries one PC spends in one ask at a quick rest (the GM's form's limit, ADR 110). */
export const MAX_REST_RECOVERIES = 20;
export const restRecoveriesDeclaration = declareCommand('36th-way.restRecoveries', {
    summary: "Heal one PC with recoveries at a quick rest (a player's ask the GM approves)",
    who: 'gm',
    input: z.strictObject({ characterId: creature('who heals'), count: int(1, MAX_REST_RECOVERIES, 'recoveries spent'), average }),
  });
export const fullRestDeclaration = declareCommand('36th-way.fullRest', { summary: 'Take a full rest (a retreat to one is a campaign loss)', who: 'gm', input: z.strictObject({ retreat: z.boolean().optional() }) });
export const restoreDeclaration = declareCommand('36th-way.restore', {
    summary: 'Give back recoveries or an ability use (downtime)',
    who: 'gm',
    input: z.strictObject({ characterId: creature(), recoveries: int(0, 99).optional(), ability: text(80).optional() }),
    renamed: { who: 'characterId' },
  });
export const stanceDeclaration = declareCommand('36th-way.stance', { summary: 'Switch stance (a quick action)', who: 'own-character', input: z.strictObject({ characterId: creature(), stance: z.enum(['melee', 'ranged']) }), renamed: { who: 'characterId' } });
export const rallyDeclaration = declareCommand('36th-way.rally', {
    summary: 'Rally: heal with a recovery, optionally saving against a condition',
    who: 'own-character',
    input: z.strictObject({ characterId: creature(), average, against: text(64, 'a condition instance to save against').optional() }),
    renamed: { who: 'characterId' },
  });
export const fightInSpiritDeclaration = declareCommand('36th-way.fightInSpirit', {
    summary: 'A downed PC fights in spirit, giving an ally a boon',
    who: 'own-character',
    input: z.strictObject({ characterId: creature(), allyId: sheetId('the ally given the boon'), boon: z.enum(['attack', 'save', 'defense']), reason: text(200).min(1) }),
    renamed: { who: 'characterId', ally: 'allyId' },
  });
export const fleeDeclaration = declareCommand('36th-way.flee', { summary: 'The party flees: a campaign loss, and the fight ends', who: 'gm', input: z.strictObject({}) });
export const checkDeclaration = declareCommand('36th-way.check', {
    summary: 'A skill check: 3d6 + bonus against a difficulty',
    who: 'own-character',
    input: z.strictObject({ characterId: creature(), difficulty: int(3, 60), bonus: int(-30, 30).optional(), advantage: int(-6, 6).optional(), sneak: z.boolean().optional() }),
    renamed: { who: 'characterId' },
  });
export const diceyMoveDeclaration = declareCommand('36th-way.diceyMove', { summary: 'A dicey move: a check that provokes on a failure', who: 'own-character', input: z.strictObject({ characterId: creature(), difficulty: int(3, 60), bonus: int(-30, 30).optional() }), renamed: { who: 'characterId' } });

export const tswCatalog = catalogOf(
  sheetSetDeclaration,
  sheetRemoveDeclaration,
  outOfFightDeclaration,
  attackDeclaration,
  damageDeclaration,
  healDeclaration,
  stabilizeDeclaration,
  lastGaspDeclaration,
  grantSaveDeclaration,
  deathSaveDeclaration,
  deathSaveOddsDeclaration,
  declineOpportunityDeclaration,
  opportunityPromptsDeclaration,
  disengageOddsDeclaration,
  checkOddsDeclaration,
  checksDeclaration,
  grantSaveOddsDeclaration,
  useAbilityDeclaration,
  sustainDeclaration,
  sustainOddsDeclaration,
  quickRestDeclaration,
  restRecoveriesDeclaration,
  fullRestDeclaration,
  restoreDeclaration,
  stanceDeclaration,
  rallyDeclaration,
  fightInSpiritDeclaration,
  fleeDeclaration,
  checkDeclaration,
  diceyMoveDeclaration,
  positionDeclaration,
  moveDeclaration,
  disengageDeclaration,
  popOffDeclaration,
  interceptDeclaration,
  declareQuery('36th-way.attackOdds', {
    summary: 'Exact odds of an attack on one target (hit, crit, miss, crit fail)',
    who: 'anyone',
    // The attack's own fields, so a form can ask the odds of what it is about to send.
    input: attackInput.extend({ targetId: sheetId('the target (default: the first of targetIds)').optional(), targetIds: z.array(sheetId()).min(1).max(MAX_TARGETS).optional() }),
    renamed: { attacker: 'attackerId', targets: 'targetIds', target: 'targetId' },
    result: z.strictObject({
      hit: z.number(),
      crit: z.number(),
      miss: z.number(),
      critFail: z.number(),
      invisibleSave: z.number().nullable(),
      net: z.int(),
      critAt: z.int(),
      needed: z.int(),
      bonus: z.int(),
      defense,
      defenseValue: z.int(),
      coupDeGrace: z.boolean(),
    }),
  }),
  declareActions('36th-way', 'What a combatant may do now (002 standard, move, quick actions; engage, disengage), with targets, ranges and odds'),
);

/** Names before issue 17's vocabulary (docs/vocabulary.md): stored tables and old clients are read under today's (ADR 28). */
export const tswUpcasts: Upcasts = {
  namespaces: { 'tsw.': '36th-way.' },
  eventFields: tswEventFields,
};
