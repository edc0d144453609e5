// Declarations of the OSR commands and queries (ADR 13): sheets, checks, combat,
// dying and recovery, exploration, light and time, hazards and treasure (001).
import { catalogOf, characterId, declareCommand, declareQuery, int, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { actionSchema, actionsResult, declareActions } from '../actions.js';
import { netAdvantage } from './shared.js';
import { ABILITIES } from './checks.js';
import { CHECK_TAGS, LIGHT_SOURCES } from './exploration.js';
import { DICE_LIMITS } from './rolls.js';
import { SHEET_LIMITS } from './sheet.js';

const tuple = <T extends string>(xs: readonly T[]) => xs as readonly [T, ...T[]];
const range = (r: readonly [number, number], description?: string) => int(r[0], r[1], description);
const MAX_LIST = 100;
const LIGHT_LEVELS = ['darkness', 'dim', 'well-lit', 'brilliant'] as const;
const APPROACH = z.enum(['cautious', 'normal', 'careless']).meta({ description: 'how the party moves (default normal)' });

const ability = (description = 'an ability') => z.enum(tuple(ABILITIES)).meta({ description });
const characterIds = (description: string) => z.array(characterId()).min(1).max(MAX_LIST).meta({ description });
/** Dice as "2d6+1", a flat number, or {count, sides, bonus}. */
const dice = (description: string) =>
  z
    .union([
      z.string().max(20).regex(/^\s*\d{1,4}\s*d\s*\d{1,5}\s*(?:[+-]\s*\d{1,5})?\s*$/i),
      int(-DICE_LIMITS.bonus, DICE_LIMITS.bonus),
      z.strictObject({ count: int(0, DICE_LIMITS.count), sides: int(1, DICE_LIMITS.sides), bonus: int(-DICE_LIMITS.bonus, DICE_LIMITS.bonus).optional() }),
    ])
    .meta({ description });
/** GM-granted sources, net and signed (docs/vocabulary.md); the rules add the automatic ones (load, light, injuries). */
const advantage = {
  advantage: int(-10, 10, 'net advantage sources granted: positive advantage, negative disadvantage').optional(),
};
/** A check's modifier: a flat bonus, proficiency and an ability modifier from the sheet. */
const modifier = {
  bonus: int(-30, 30, 'flat bonus (default 0)').optional(),
  proficient: z.boolean().optional(),
  ability: ability('ability whose modifier applies').optional(),
};
const difficulty = () => int(1, 40, 'the difficulty (DC) to meet');
/** docs/vocabulary.md: `dc` became `difficulty` in every ruleset; stored commands and old clients still send dc. */
const RENAMED_DC = { dc: 'difficulty' } as const;
/**
 * docs/vocabulary.md renames (ADR 27): ids name their kind and role, one id for a creature,
 * one signed advantage. Old names still parse; the old `disadvantage` count folds into `advantage`.
 */
const RENAMED_CHARACTER = { character: 'characterId' } as const;
const RENAMED_CHARACTERS = { characters: 'characterIds' } as const;
const RENAMED_COMBATANT = { combatant: 'characterId' } as const;
const RENAMED_ADVANTAGE = { disadvantage: 'advantage' } as const;
const MERGED_ADVANTAGE = { disadvantage: netAdvantage } as const;
/** A creature in a fight: its character, or (a combatant without one) its combatant id. */
const creature = () => characterId('the character (or, for a combatant without one, its combatant id)');
/** Typed words (a label, a name, a reason): trimmed, never blank. */
const words = (max: number, description?: string) => (description === undefined ? z.string().trim().min(1).max(max) : z.string().trim().min(1).max(max).meta({ description }));
const reason = (description: string) => words(100, description).optional();

/** The OSR character sheet (001 "Character Sheet"); every field optional in a patch. */
export const osrSheet = z.strictObject({
  ...Object.fromEntries(ABILITIES.map((a) => [a, range(SHEET_LIMITS.score, `${a.toUpperCase()} score`).optional()])),
  level: range(SHEET_LIMITS.level).optional(),
  hd: range(SHEET_LIMITS.hd, 'hit dice (NPCs)').optional(),
  hp: range(SHEET_LIMITS.hp).optional(),
  maxHp: range(SHEET_LIMITS.hp).optional(),
  ac: range(SHEET_LIMITS.ac).optional(),
  load: range(SHEET_LIMITS.load, 'loads carried').optional(),
  speed: range(SHEET_LIMITS.speed, 'base speed in feet').optional(),
  proficiency: range(SHEET_LIMITS.proficiency, 'explicit proficiency bonus (null: from level)').nullable().optional(),
  darksight: z.boolean().optional(),
  surfacer: z.boolean().optional(),
  moraleBonus: range(SHEET_LIMITS.moraleBonus).optional(),
  follows: characterId('the PC a retainer follows').nullable().optional(),
  cp: range(SHEET_LIMITS.coins, 'copper pieces in the purse').optional(),
  sp: range(SHEET_LIMITS.coins, 'silver pieces in the purse').optional(),
  gp: range(SHEET_LIMITS.coins, 'gold pieces in the purse').optional(),
});

const attackFields = {
  attackerId: characterId('who attacks'),
  targetId: characterId('who is attacked'),
  kind: z.enum(['melee', 'ranged', 'arcane', 'divine']).meta({ description: 'the attack kind (default melee)' }).optional(),
  delivery: z.enum(['melee', 'ranged']).meta({ description: "a spell's delivery (default ranged); a weapon is delivered as its kind" }).optional(),
  range: z.enum(['close', 'ranged', 'far']).meta({ description: 'the range band (default close for melee delivery, else ranged); far is refused' }).optional(),
  damage: dice('damage dice (default 1d6)').optional(),
  bonus: int(-30, 30, 'flat attack bonus').optional(),
  proficient: z.boolean().optional(),
  longRange: z.boolean().meta({ description: 'a long-range attack, which the light may hinder (not at close range)' }).optional(),
  ...advantage,
};

/** docs/vocabulary.md: a ruleset names an id's kind; `id` was a light source's or a corruption's in douse, relight and cure. */
const lightSourceId = () => z.string().min(1).max(64).meta({ description: 'the light source id' });
const RENAMED_SOURCE = { id: 'sourceId' } as const;

const odd = z.number().min(0).max(1);
const RENAMED_ATTACK = { attacker: 'attackerId', target: 'targetId', ...RENAMED_ADVANTAGE } as const;

/** The OSR commands by name: each handler reads its payload through one of these (handlerOf). */
export const osrCommands = {
  setSheet: declareCommand('osr.setSheet', {
    summary: "Set fields of a character's sheet (a patch)",
    who: 'gm',
    input: z.strictObject({ characterId: characterId(), sheet: osrSheet }),
    renamed: { character: 'characterId', stats: 'sheet' },
  }),
  check: declareCommand('osr.check', {
    summary: 'Roll a check for a character against a DC (optionally with damage on a failure, as a trap)',
    who: 'own-character',
    input: z.strictObject({
      characterId: characterId(),
      difficulty: difficulty(),
      ...modifier,
      tags: z.array(z.enum(tuple(CHECK_TAGS))).max(13).meta({ description: 'check kinds the light and senses affect' }).optional(),
      ...advantage,
      label: words(100).optional(),
      damageOnFail: dice('damage on a failed check').optional(),
    }),
    renamed: { ...RENAMED_DC, ...RENAMED_CHARACTER, ...RENAMED_ADVANTAGE },
    merged: MERGED_ADVANTAGE,
  }),
  attack: declareCommand('osr.attack', {
    summary: 'Attack: d20 against AC, damage rolled on a hit',
    who: 'own-character',
    input: z.strictObject({ ...attackFields, addModifierToDamage: z.boolean().optional(), spend: z.boolean().meta({ description: "spend the attacker's action (default true on their turn)" }).optional() }),
    renamed: RENAMED_ATTACK,
    merged: MERGED_ADVANTAGE,
  }),
  damage: declareCommand('osr.damage', {
    summary: 'Deal damage to a character',
    who: 'gm',
    input: z.strictObject({ targetId: characterId(), amount: dice('the damage'), doubled: z.boolean().optional(), source: reason('what dealt it') }),
    renamed: { target: 'targetId' },
  }),
  heal: declareCommand('osr.heal', {
    summary: 'Heal a character by magic or medicine',
    who: 'gm',
    input: z.strictObject({ targetId: characterId(), amount: dice('the healing'), source: z.enum(['magic', 'medicine']).optional() }),
    renamed: { target: 'targetId' },
  }),
  stabilize: declareCommand('osr.stabilize', {
    summary: 'Stabilize a dying character (a check, a spell or other means)',
    who: 'own-character',
    input: z.strictObject({ targetId: characterId('who is dying'), helperId: characterId('who helps').optional(), method: z.enum(['check', 'spell', 'other']).optional(), difficulty: difficulty().optional(), ...modifier, ...advantage }),
    renamed: { ...RENAMED_DC, target: 'targetId', by: 'helperId', ...RENAMED_ADVANTAGE },
    merged: MERGED_ADVANTAGE,
  }),
  rest: declareCommand('osr.rest', {
    summary: 'Rest for some nights, safe or unsafe, fed or not',
    who: 'gm',
    input: z.strictObject({ kind: z.enum(['safe', 'unsafe']).optional(), nights: int(1, 60).optional(), fed: z.boolean().optional(), characterIds: characterIds('who rests (default: every PC)').optional() }),
    renamed: RENAMED_CHARACTERS,
  }),
  hide: declareCommand('osr.hide', {
    summary: 'Try to hide (a stealth check)',
    who: 'own-character',
    input: z.strictObject({ characterId: characterId(), difficulty: difficulty().optional(), ...modifier, ...advantage }),
    renamed: { ...RENAMED_DC, ...RENAMED_CHARACTER, ...RENAMED_ADVANTAGE },
    merged: MERGED_ADVANTAGE,
  }),
  reveal: declareCommand('osr.reveal', { summary: 'A hidden character is spotted', who: 'gm', input: z.strictObject({ characterId: characterId() }), renamed: RENAMED_CHARACTER }),
  move: declareCommand('osr.move', {
    summary: 'Move a combatant some feet this turn',
    who: 'own-character',
    input: z.strictObject({
      characterId: creature(),
      feet: int(1, 300),
      mode: z.enum(['walk', 'swim', 'crawl', 'climb', 'difficult']).optional(),
      another: z.boolean().meta({ description: 'spend another movement action' }).optional(),
      withActive: z.boolean().meta({ description: 'agree to pay with the active action when the movement action is spent' }).optional(),
    }),
    renamed: RENAMED_COMBATANT,
  }),
  quick: declareCommand('osr.quick', {
    summary: 'Take a quick action this turn and say what it is',
    who: 'own-character',
    input: z.strictObject({
      characterId: creature(),
      what: words(100, 'what the quick action does'),
      withActive: z.boolean().meta({ description: 'agree to pay with the active action when the quick and movement actions are spent' }).optional(),
    }),
    renamed: RENAMED_COMBATANT,
  }),
  treat: declareCommand('osr.treat', { summary: 'Treat wounds: the injury disadvantage ends', who: 'gm', input: z.strictObject({ characterId: characterId() }), renamed: RENAMED_CHARACTER }),
  noteBodyPart: declareCommand('osr.noteBodyPart', { summary: 'Name the body part an injury took', who: 'gm', input: z.strictObject({ characterId: characterId(), part: words(60, 'the body part') }), renamed: RENAMED_CHARACTER }),
  restoreAbility: declareCommand('osr.restoreAbility', { summary: 'Restore lost ability points', who: 'gm', input: z.strictObject({ characterId: characterId(), ability: ability(), amount: int(1, 30) }), renamed: RENAMED_CHARACTER }),
  travelTurn: declareCommand('osr.travelTurn', {
    summary: 'Take a travel turn: time passes and an encounter may come',
    who: 'gm',
    input: z.strictObject({ approach: APPROACH.optional(), cadence: z.enum(['dungeon', 'overland', 'river', 'sea']).optional() }),
  }),
  scene: declareCommand('osr.scene', { summary: 'Count a dungeon scene (every few make a travel turn)', who: 'gm', input: z.strictObject({ approach: APPROACH.optional() }) }),
  reachSafety: declareCommand('osr.reachSafety', { summary: 'The party is back in safety: the travel-turn count restarts', who: 'gm', input: z.strictObject({}) }),
  setLight: declareCommand('osr.setLight', { summary: "Set the scene's light level", who: 'gm', input: z.strictObject({ level: z.enum(LIGHT_LEVELS).optional() }) }),
  lightSource: declareCommand('osr.lightSource', {
    summary: 'Light a torch or lantern',
    who: 'own-character',
    input: z.strictObject({ kind: z.enum(tuple(Object.keys(LIGHT_SOURCES))).optional(), characterId: characterId('who carries it').optional(), label: words(60).optional() }),
    renamed: { owner: 'characterId' },
  }),
  douse: declareCommand('osr.douse', { summary: 'Put out a light source', who: 'gm', input: z.strictObject({ sourceId: lightSourceId() }), renamed: RENAMED_SOURCE }),
  relight: declareCommand('osr.relight', { summary: 'Relight a doused light source', who: 'gm', input: z.strictObject({ sourceId: lightSourceId() }), renamed: RENAMED_SOURCE }),
  rollTime: declareCommand('osr.rollTime', {
    summary: 'Roll time dice for an hour or a duration',
    who: 'gm',
    input: z.strictObject({ dice: int(1, 4).optional(), from: int(0, 23, 'starting hour').optional(), use: z.enum(['clock', 'duration', 'show']).optional() }),
  }),
  rollToReturn: declareCommand('osr.rollToReturn', {
    summary: 'Roll to return to safety along a dangerous or arduous path',
    who: 'gm',
    input: z.strictObject({
      path: z.enum(['dangerous', 'arduous']).optional(),
      characterIds: characterIds('who returns (default: every living PC)').optional(),
      onZero: z.enum(['dead', 'unconscious']).optional(),
      purse: z.enum(['last', 'first']).meta({ description: 'arduous: whether the purse is dropped after the gear (default) or before it, 500 coins a load, copper first' }).optional(),
      modifiers: z.record(z.string().max(64), int(-30, 30)).meta({ description: 'per-character modifier overrides' }).optional(),
    }),
    renamed: RENAMED_CHARACTERS,
  }),
  travel: declareCommand('osr.travel', {
    summary: 'Travel overland or by water for some days',
    who: 'gm',
    input: z.strictObject({
      mode: z.enum(['overland', 'river', 'sea']).optional(),
      days: int(1, 60).optional(),
      approach: APPROACH.optional(),
      terrain: z.enum(['open', 'difficult', 'harsh']).optional(),
      pace: z.enum(['normal', 'tactical', 'stealthy']).optional(),
      light: z.enum(LIGHT_LEVELS).optional(),
      characterIds: characterIds('who travels (default: every living PC)').optional(),
      vessel: z.enum(['boat', 'ship']).optional(),
      current: z.enum(['none', 'unfavourable', 'favourable']).optional(),
      rollTravelTurns: z.boolean().optional(),
    }),
    renamed: RENAMED_CHARACTERS,
  }),
  morale: declareCommand('osr.morale', {
    summary: 'Check morale for characters, individually, as a group or as a side',
    who: 'gm',
    input: z.strictObject({ characterIds: characterIds('who checks morale'), as: z.enum(['side', 'group', 'individual']).optional(), proficient: z.boolean().optional(), ...advantage, advantageWhy: z.string().trim().max(100).meta({ description: 'why the advantage or disadvantage (001: such as being outnumbered); may be empty' }).optional(), trigger: reason('what called for it') }),
    renamed: { ...RENAMED_CHARACTERS, ...RENAMED_ADVANTAGE },
    merged: MERGED_ADVANTAGE,
  }),
  chase: declareCommand('osr.chase', {
    summary: 'Roll a chase: pursue or flee over some ground',
    who: 'gm',
    input: z.strictObject({
      characterIds: characterIds('who runs'),
      speed: int(0, 300, "the other party's speed").optional(),
      ground: z.enum(['open', 'uneven', 'long']).optional(),
      ability: ability().optional(),
      direction: z.enum(['pursue', 'flee']).optional(),
      together: z.boolean().meta({ description: 'as one group: the worst modifier rolls once for all (001 "Chases")' }).optional(),
      dcAdjust: int(-10, 10).optional(),
      ...advantage,
      damageOnFail: dice('damage to each who fails (thorns, a fall)').optional(),
    }),
    renamed: { ...RENAMED_CHARACTERS, ...RENAMED_ADVANTAGE },
    merged: MERGED_ADVANTAGE,
  }),
  resilience: declareCommand('osr.resilience', { summary: 'Check resilience when hours out pass CON', who: 'own-character', input: z.strictObject({ characterId: characterId(), damageOnFail: dice('damage on a failed check').optional() }), renamed: RENAMED_CHARACTER }),
  strain: declareCommand('osr.strain', { summary: 'Hard going wears resilience down by some hours', who: 'gm', input: z.strictObject({ characterId: characterId(), hours: int(1, 48), reason: reason('why') }), renamed: RENAMED_CHARACTER }),
  exhaust: declareCommand('osr.exhaust', { summary: 'Exhaust a character', who: 'gm', input: z.strictObject({ characterId: characterId(), reason: reason('why') }), renamed: RENAMED_CHARACTER }),
  expose: declareCommand('osr.expose', {
    summary: 'Expose a character to a corruption with stages',
    who: 'gm',
    input: z.strictObject({
      characterId: characterId(),
      name: words(60).optional(),
      difficulty: difficulty().optional(),
      ability: ability('the ability that resists (default con)').optional(),
      stages: z
        .array(z.strictObject({ hours: int(1, 24 * 7 * 8), ability: ability().nullable().optional(), dice: int(0, 10, 'd6 of ability loss').optional(), exhaustion: z.boolean().optional(), note: text(200).optional() }))
        .min(1)
        .max(20),
    }),
    renamed: { ...RENAMED_DC, ...RENAMED_CHARACTER },
  }),
  cure: declareCommand('osr.cure', { summary: 'Cure a corruption', who: 'gm', input: z.strictObject({ corruptionId: z.string().min(1).max(64).meta({ description: 'the corruption id' }) }), renamed: { id: 'corruptionId' } }),
  retreat: declareCommand('osr.retreat', {
    summary: 'Retreat from the fight on your turn (a check when the GM sets a difficulty)',
    who: 'own-character',
    input: z.strictObject({ characterId: creature(), difficulty: difficulty().optional(), ability: ability().optional(), ...advantage, damageOnFail: dice('damage on a failed check (needs difficulty)').optional() }),
    renamed: { ...RENAMED_DC, ...RENAMED_COMBATANT, ...RENAMED_ADVANTAGE },
    merged: MERGED_ADVANTAGE,
  }),
  escape: declareCommand('osr.escape', { summary: 'A retreating combatant gets away', who: 'gm', input: z.strictObject({ characterId: creature() }), renamed: RENAMED_COMBATANT }),
  treasure: declareCommand('osr.treasure', {
    summary: 'Share treasure (and XP for it)',
    who: 'gm',
    input: z.strictObject({ characterIds: characterIds('who shares'), gp: int(0, 10_000_000), earned: z.boolean().optional(), intoPurses: z.boolean().meta({ description: "each share goes into its sharer's purse as gp (and weighs there)" }).optional() }),
    renamed: RENAMED_CHARACTERS,
  }),
  convertCoins: declareCommand('osr.convertCoins', {
    summary: "Change coins in a character's purse into another coin (10 cp = 1 sp, 10 sp = 1 gp)",
    who: 'own-character',
    input: z.strictObject({ characterId: characterId(), amount: int(1, 10_000_000, 'how many coins are changed'), from: z.enum(['cp', 'sp', 'gp']), to: z.enum(['cp', 'sp', 'gp']) }),
    renamed: RENAMED_CHARACTER,
  }),
  magicItem: declareCommand('osr.magicItem', { summary: 'Capture a magic item (XP once per item)', who: 'gm', input: z.strictObject({ characterIds: characterIds('who captured it'), item: words(100, 'the item'), value: int(0, 10_000_000) }), renamed: RENAMED_CHARACTERS }),
  loot: declareCommand('osr.loot', { summary: "Roll an enemy's carried loot by its HD", who: 'gm', input: z.strictObject({ characterId: characterId('the enemy').optional(), hd: int(0, 40).optional() }), renamed: RENAMED_CHARACTER }),
  setLoad: declareCommand('osr.setLoad', { summary: 'Set the loads a character carries', who: 'own-character', input: z.strictObject({ characterId: characterId(), load: int(0, 200) }), renamed: RENAMED_CHARACTER }),
};

export const attackOddsDeclaration = declareQuery('osr.attackOdds', {
  summary: 'Exact odds of an attack as the table stands (hit, critical, expected damage)',
  who: 'anyone',
  input: z.strictObject(attackFields),
  renamed: RENAMED_ATTACK,
  merged: MERGED_ADVANTAGE,
  result: z.strictObject({
    hit: odd,
    crit: odd,
    expectedDamage: z.number().min(0),
    damageWords: z.string().meta({ description: 'what a hit deals, in words: the dice and the ability modifier added ("1d6 + DEX 3")' }),
    advantage: z.union([z.literal(-1), z.literal(0), z.literal(1)]),
    modifier: z.int(),
    ac: z.int(),
    kind: z.enum(['melee', 'ranged', 'arcane', 'divine']),
    delivery: z.enum(['melee', 'ranged']),
    range: z.enum(['close', 'ranged', 'far']),
  }),
});
export const characterStatusDeclaration = declareQuery('osr.characterStatus', {
  summary: "A character's derived numbers: modifiers, speed, dying, resilience, XP",
  who: 'anyone',
  input: z.strictObject({ characterId: characterId() }),
  renamed: { id: 'characterId' },
  result: z.strictObject({
    modifiers: z.strictObject(Object.fromEntries(ABILITIES.map((a) => [a, z.int()]))),
    proficiency: z.number(),
    hp: z.number(),
    maxHp: z.number(),
    speed: z.number(),
    overloaded: z.number(),
    exhausted: z.boolean(),
    dying: z.strictObject({ downAt: z.number(), deadAfter: z.number(), untilFightEnds: z.boolean() }).nullable(),
    dead: z.boolean(),
    hidden: z.boolean(),
    resilience: z.strictObject({ hours: z.number(), limit: z.number(), dc: z.number().nullable() }),
    xp: z.number(),
  }),
});
export const checkOddsDeclaration = declareQuery('osr.checkOdds', {
  summary: 'Exact chance of a check (osr.check, a stabilize or a hide check) before it is rolled',
  who: 'anyone',
  input: z.strictObject({
    characterId: characterId(),
    difficulty: difficulty().optional(),
    ...modifier,
    // The light's say as the roll will have it (a hide check rolls with stealth's tag, 001 "Light").
    tags: z.array(z.enum(tuple(CHECK_TAGS))).max(13).meta({ description: 'check kinds the light and senses affect (a hide check: stealth)' }).optional(),
    ...advantage,
    damageOnFail: dice('damage on a failed check (a trap): the answer adds the chance of taking it').optional(),
  }),
  renamed: { ...RENAMED_DC, ...RENAMED_CHARACTER, ...RENAMED_ADVANTAGE },
  merged: MERGED_ADVANTAGE,
  result: z.strictObject({
    pass: odd,
    modifier: z.int(),
    difficulty: z.int(),
    // With damageOnFail: the chance of taking it, and of taking it doubled by a natural 1 (001 "Critical Failure").
    damage: z.strictObject({ dice: z.string(), chance: odd, doubled: odd }).optional(),
  }),
});

/** 001 "Morale Checks": d20 + WIS mod + proficiency (if fitting) + the monster's morale bonus against DC 11, for the one who rolls (a side's first). */
export const moraleOddsDeclaration = declareQuery('osr.moraleOdds', {
  summary: 'Exact chance a morale check holds (001: d20 + WIS + proficiency + morale bonus vs DC 11) for the first listed',
  who: 'gm',
  input: z.strictObject({ characterIds: characterIds('who checks morale (the first rolls for a side or group)'), proficient: z.boolean().optional(), ...advantage }),
  renamed: RENAMED_ADVANTAGE,
  merged: MERGED_ADVANTAGE,
  result: z.strictObject({ pass: odd, modifier: z.int(), wis: z.int(), proficiency: z.int(), moraleBonus: z.int(), difficulty: z.int() }),
});

/** 001 "Rolling To Return": each living PC's chance to reach safety (best modifier with proficiency vs 10 + travel turns, at most 20). */
export const returnOddsDeclaration = declareQuery('osr.returnChances', {
  summary: 'Exact chance each living PC rolls to return (001: best modifier + proficiency vs DC 10 + travel turns)',
  who: 'gm',
  input: z.strictObject({}),
  result: z.strictObject({ difficulty: z.int(), pcs: z.array(z.strictObject({ characterId: z.string(), name: z.string(), modifier: z.int(), pass: odd })) }),
});

/** Stabilize outside a turn (after a fight): one helper's form, or every ally able to help one dying creature (ADR 55). */
export const stabilizeActionsDeclaration = declareQuery('osr.stabilizeActions', {
  summary: 'Stabilize forms outside a turn: one helper over the dying, or each ally able to help one dying creature, with odds',
  who: 'own-character',
  input: z.strictObject({ characterId: characterId('who helps').optional(), targetId: characterId('who is dying').optional() }),
  result: actionsResult,
});

/** 001 "Chases": the chance of each runner's check, as osr.chase rolls it (ability by the ground, DC by the other side's speed). */
export const chaseOddsDeclaration = declareQuery('osr.chaseOdds', {
  summary: "Exact chance of a chase check: the first listed, or the group's worst (001: STR open, DEX uneven, CON long)",
  who: 'gm',
  input: z.strictObject({
    characterIds: characterIds('who runs (the first is asked about; as one group, the one who rolls for all)'),
    speed: int(0, 300, "the other party's speed").optional(),
    ground: z.enum(['open', 'uneven', 'long']).optional(),
    dcAdjust: int(-10, 10).optional(),
    together: z.boolean().meta({ description: 'as one group: the worst modifier rolls for all (001 "Chases")' }).optional(),
    ...advantage,
  }),
  renamed: RENAMED_ADVANTAGE,
  merged: MERGED_ADVANTAGE,
  result: z.strictObject({ pass: odd, modifier: z.int(), difficulty: z.int(), ability: z.string() }),
});

/** The GM's forms for a character's own rules (resilience, corruptions, injuries) or, without one, the party's (chase, treasure, loot): issue 20. */
export const toolActionsDeclaration = declareQuery('osr.toolActions', {
  summary: "The GM's rule forms for a character (resilience, corruption, injury) or the party (chase, treasure, loot)",
  who: 'gm',
  input: z.strictObject({ characterId: characterId('whose tools; absent: the party').optional() }),
  result: actionsResult,
});

/** The checks a party makes while exploring, with no fight running (issue 20): Hide, Listen, Search, Track, an ability check; the GM's Spotted. */
export const checksDeclaration = declareQuery('osr.checks', {
  summary: 'Exploration check forms for each PC the viewer plays (the GM: every PC), with odds; Hide is refused in a fight',
  who: 'anyone',
  input: z.strictObject({}),
  result: z.strictObject({ actions: z.array(actionSchema.extend({ name: z.string() })) }),
});

/** The GM's morale prompt opens the morale form for the prompt's side (ADR 55). */
export const moraleActionsDeclaration = declareQuery('osr.moraleActions', {
  summary: "The morale form for a side (its monsters ticked; the party's hirelings, its PCs rolling alone), with odds",
  who: 'gm',
  input: z.strictObject({ side: words(40, 'the side the prompt is about').optional(), trigger: reason('what called for it') }),
  result: actionsResult,
});

export const osrCatalog = catalogOf(
  stabilizeActionsDeclaration,
  checksDeclaration,
  moraleActionsDeclaration,
  toolActionsDeclaration,
  ...Object.values(osrCommands),
  attackOddsDeclaration,
  checkOddsDeclaration,
  moraleOddsDeclaration,
  chaseOddsDeclaration,
  returnOddsDeclaration,
  characterStatusDeclaration,
  declareActions('osr', 'What a combatant may do now (001 active, movement and quick actions), with targets and odds'),
);
