// Declarations of the team-initiative commands and the odds query (ADR 13):
// sheets and tracks, attacks and their reactions, damage, actions (003).
import { catalogOf, characterId, declareCommand, declareQuery, int, text } from '@tablekeeper/engine';
import { z } from 'zod';
import { actionSchema, declareActions } from '../actions.js';
import { MAX_NEARBY } from './combat.js';
import { MAX_ID } from './input.js';
import { LIMITS } from './sheet.js';
import { DAMAGE_TYPES } from './damage.js';

const MAX_AMOUNT = 100_000;
const MAX_DIFFICULTY = 1000;
/** A creature: its character id, or the combatant id its sheet is kept under (docs/vocabulary.md: one id for a creature). */
const who = (description = 'the character (or the combatant id its sheet is kept under)') => characterId(description).max(MAX_ID);
/** docs/vocabulary.md renames (ADR 27); old names still parse. */
const RENAMED_ID = { id: 'characterId' } as const;
const RENAMED_ATTACK = { attacker: 'attackerId', target: 'targetId' } as const;
const name = () => text(40).min(1);
/** Names 003 uses (its examples: Boudica's strength, combat and athletics, martial and fortitude): offered as suggestions, any other name allowed. */
export const TEAMS_NAMES = { attributes: ['strength', 'dexterity'], skills: ['combat', 'athletics'], proficiencies: ['martial', 'finesse', 'fortitude'] } as const;
/** A name a form suggests from a list (x-die / examples are read by the web's schema form). */
const named = (names: readonly string[], title?: string) => z.string().min(1).max(LIMITS.key).meta({ examples: [...names], ...(title === undefined ? {} : { title }) });
/** Attribute or skill dice by name: the number is the die's size (8 is a d8). */
const dice = (names: readonly string[]) => z.record(named(names), int(0, LIMITS.value).meta({ description: 'the die (8 is a d8)', 'x-die': [...LIMITS.dice] }));
const difficulty = () => int(0, MAX_DIFFICULTY, 'the difficulty');
/** An ordinary test: an attribute die plus a skill die, with a proficiency (003 "Tests"). */
/** 003's Damage Types table, physical first (a weapon's usual), then elemental, then typeless. */
const WEAPON_DAMAGE_TYPES = (['physical', 'elemental', 'typeless'] as const).flatMap((cat) => Object.keys(DAMAGE_TYPES).filter((t) => DAMAGE_TYPES[t] === cat)) as [string, ...string[]];
/** A weapon's profile (003 "Weapons"), so a form can offer its fields; the rule still checks the damage type and the rest. */
const weapon = z
  .strictObject({
    // Said on the form (review 7): what each list does and that one attribute is required.
    attributes: z
      // Ticked from the sheet's own attributes (x-ref keys:attributes), 003's usual names offered too: never typed (review 12 #7).
      .array(z.string().min(1).max(LIMITS.key).meta({ title: 'Attribute', examples: [...TEAMS_NAMES.attributes], 'x-ref': 'keys:attributes' }))
      .min(1)
      .max(LIMITS.entries)
      .meta({ title: 'Attributes', description: 'required: the attribute dice an attack with it may use (003 "Attacks": a spear takes strength or dexterity)' }),
    proficiencies: z
      .array(named(TEAMS_NAMES.proficiencies, 'Proficiency'))
      .max(LIMITS.entries)
      .meta({ title: 'Proficiencies', description: "the proficiencies that add to its attacks: a character's martial +2 counts only when the weapon lists martial" })
      .optional(),
    damage: int(0, LIMITS.value).meta({ title: 'Damage' }),
    criticalDamage: int(0, LIMITS.value).meta({ title: 'Critical damage' }).optional(),
    criticalThreshold: int(1, 100).nullable().meta({ title: 'Critical threshold' }).optional(),
    // 003 "Damage": a source naming no type is typeless, which deflection never reduces; a form asks for the type
    // (x-choose), so a spear is not typeless by a blank field (ADR 53). The physical types come first.
    damageType: z
      .enum(WEAPON_DAMAGE_TYPES)
      .meta({ title: 'Damage type', description: 'physical: bludgeoning, piercing, slashing; elemental: arcane, cold, fire, radiant, shock, void; typeless: psychic, typeless', 'x-choose': true })
      .optional(),
    delivery: z.enum(['melee', 'thrown', 'projectile']).meta({ title: 'Delivery' }).optional(),
    nonlethal: z.boolean().meta({ title: 'Nonlethal' }).optional(),
  })
  .meta({ title: 'Weapon', description: 'weapon profile' });
const test = z.strictObject({ attribute: name(), skill: name(), proficiency: name().nullable().optional(), bonus: int(-100, 100).optional() });

/** The teams sheet (003 "Character Sheet"); items are checked by the rule (weapons, armour, shields). */
export const teamsSheet = z.strictObject({
  name: text(LIMITS.name).optional(),
  characterId: characterId().nullable().optional(),
  attributes: dice(TEAMS_NAMES.attributes).optional(),
  // Said where the skills are edited (review 11): 003 "Attacks" rolls the combat skill and has no untrained attack.
  skills: dice(TEAMS_NAMES.skills).meta({ description: 'Attack and Killing Strike roll the combat skill: without a combat skill the character cannot attack (003 has no untrained attack)' }).optional(),
  proficiencies: z.record(named(TEAMS_NAMES.proficiencies), int(0, LIMITS.value)).optional(),
  evasion: int(0, LIMITS.value).optional(),
  size: int(0, 100).optional(),
  luck: int(-100, LIMITS.value).optional(),
  // 003 "Staying Conscious" in one line, shown on the sheet form (review 12 #10: a blank one read as 0 with no word why).
  constitution: int(0, LIMITS.value, 'staying conscious: once more health is missing than this, each health lost means fortifying or falling unconscious').optional(),
  maxEndurance: int(0, LIMITS.value).optional(),
  maxHealth: int(1, LIMITS.value).optional(),
  maxStamina: int(0, LIMITS.value).optional(),
  maxFocus: int(0, LIMITS.value).optional(),
  endurance: int(0, LIMITS.value).optional(),
  health: int(0, LIMITS.value).optional(),
  stamina: int(0, LIMITS.value).optional(),
  focus: int(0, LIMITS.value).optional(),
  deflection: z.union([int(0, LIMITS.value), z.strictObject({ physical: int(0, LIMITS.value).meta({ title: 'Physical' }).optional(), elemental: int(0, LIMITS.value).meta({ title: 'Elemental' }).optional() })]).optional(),
  items: z
    .record(
      // The item's key (what "wielded" picks), not a second name (review 7: two "name" boxes).
      z.string().min(1).max(LIMITS.key).meta({ title: 'short name', description: 'a short name for the item (spear), which Wielded picks' }),
      z.strictObject({
        name: text(LIMITS.name).meta({ title: 'Full name' }).optional(),
        metal: z.boolean().meta({ title: 'Metal' }).optional(),
        durability: int(0, LIMITS.value).meta({ title: 'Durability' }).optional(),
        maxDurability: int(0, LIMITS.value).meta({ title: 'Max durability' }).optional(),
        weapon: weapon.nullable().optional(),
        block: int(0, LIMITS.value).nullable().meta({ title: 'Block' }).optional(),
        parry: int(0, LIMITS.value).nullable().meta({ title: 'Parry' }).optional(),
      }),
    )
    .optional(),
  // A form picks these from the sheet's own items (x-ref keys:items: the keys of the items field beside it).
  // One box per item on the forms (review 10); 003 "Brandish" changes them in a fight.
  wielded: z
    .array(z.string().min(1).max(LIMITS.key).meta({ title: 'Item', description: "one of the sheet's items", 'x-ref': 'keys:items' }))
    .max(LIMITS.items)
    .meta({ title: 'Wielded', description: 'the items in hand: only these block or parry, and Attack offers these weapons first' })
    .optional(),
  deathDifficulty: int(1, LIMITS.value).optional(),
  secret: z.boolean().meta({ description: 'players see name and status only' }).optional(),
  conscious: z.boolean().optional(),
  dead: z.boolean().optional(),
});

const attackFields = {
  attackerId: who('who attacks'),
  targetId: who('who is attacked'),
  weapon: text(MAX_ID, 'the weapon item id').min(1),
  attribute: name().optional(),
  proficiency: name().optional(),
  bonus: int(-100, 100).optional(),
  nearby: z.array(characterId()).max(MAX_NEARBY).meta({ description: 'allies nearby the target' }).optional(),
  sneak: z.boolean().optional(),
  flank: z.boolean().optional(),
  await: z.boolean().meta({ description: 'wait for the target to choose a reaction' }).optional(),
};

// Deprecated aliases (ADR 39): character.sheet.set/remove address the same sheets and write the same events;
// these stay for stored commands and API users (a sheet for an id that is not yet a creature, a link given in the sheet).
// Retired after ALIASES_RETIRE_AFTER (ADR 62): until then they keep working, after it a new catalogue version may refuse them.
export const ALIASES_RETIRE_AFTER = '2027-06-30';
export const setSheet = declareCommand('teams.setSheet', {
  summary: "Deprecated: use character.sheet.set. Set a combatant's sheet",
  who: 'gm',
  input: z.strictObject({ characterId: who(), sheet: teamsSheet }),
  renamed: RENAMED_ID,
  deprecated: { replacement: 'character.sheet.set', removedAfter: ALIASES_RETIRE_AFTER },
});
export const removeSheet = declareCommand('teams.removeSheet', {
  summary: 'Deprecated: use character.sheet.remove. Remove a sheet',
  who: 'gm',
  input: z.strictObject({ characterId: who() }),
  renamed: RENAMED_ID,
  deprecated: { replacement: 'character.sheet.remove', removedAfter: ALIASES_RETIRE_AFTER },
});
export const setTrack = declareCommand('teams.setTrack', {
  summary: 'Set a track (endurance, health, stamina, focus, death difficulty)',
  who: 'gm',
  input: z.strictObject({ characterId: who(), field: z.enum(['endurance', 'health', 'stamina', 'focus', 'deathDifficulty']), value: int(0, LIMITS.value) }),
  renamed: RENAMED_ID,
});
export const attack = declareCommand('teams.attack', {
  summary: 'Attack with a weapon: an opposed test, damage through deflection',
  who: 'own-character',
  input: z.strictObject({ ...attackFields, readied: z.boolean().meta({ description: 'take a readied attack as the reaction' }).optional(), beforeId: who('whose turn a readied attack interrupts').optional(), commanded: z.boolean().optional() }),
  renamed: { ...RENAMED_ATTACK, before: 'beforeId' },
});
export const defend = declareCommand('teams.defend', {
  summary: 'React to a pending attack: none, block, parry or dodge',
  who: 'own-character',
  input: z.strictObject({ attackId: text(MAX_ID, 'the pending attack id').min(1), reaction: z.enum(['none', 'block', 'parry', 'dodge']).optional(), item: text(MAX_ID).min(1).optional(), test: test.optional() }),
  renamed: { attack: 'attackId' },
});
export const intercept = declareCommand('teams.intercept', {
  summary: 'Intercept a pending attack',
  who: 'own-character',
  input: z.strictObject({ attackId: text(MAX_ID, 'the pending attack id').min(1), interceptorId: who('who intercepts') }),
  renamed: { attack: 'attackId', by: 'interceptorId' },
});
export const stayConscious = declareCommand('teams.stayConscious', {
  summary: 'Test to stay conscious (or fortify)',
  who: 'own-character',
  input: z.strictObject({ characterId: who(), fortify: z.boolean().optional(), test: test.optional(), difficulty: difficulty().optional() }),
  renamed: RENAMED_ID,
});
export const react = declareCommand('teams.react', {
  summary: 'A reaction test: fortify, resist or dodge against a difficulty',
  who: 'own-character',
  input: z.strictObject({ characterId: who(), reaction: z.enum(['fortify', 'resist', 'dodge']), difficulty: difficulty(), test }),
  renamed: RENAMED_ID,
});
export const damage = declareCommand('teams.damage', {
  summary: 'Deal damage from any source (reduced by deflection unless reduce is false)',
  who: 'gm',
  input: z.strictObject({ targetId: who(), amount: int(0, MAX_AMOUNT), damageType: text(40).nullable().optional(), reduce: z.boolean().optional(), nonlethal: z.boolean().optional() }),
  renamed: { target: 'targetId' },
});
export const act = declareCommand('teams.act', {
  summary: 'Take an action from the action table (Move, Command, Ready, a test...)',
  who: 'own-character',
  input: z.strictObject({
    characterId: who(),
    action: text(40, 'the action name').min(1),
    targetId: who('the action\'s target (Command, Resuscitate...)').optional(),
    items: z.array(text(LIMITS.key).min(1)).max(LIMITS.items).optional(),
    item: text(LIMITS.key).optional(),
    commanded: z.boolean().optional(),
    readiedAction: text(40).optional(),
    trigger: text(200).optional(),
    test: test.optional(),
    difficulty: difficulty().optional(),
    label: text(80).optional(),
    cost: int(1, 20).optional(),
  }),
  renamed: { combatant: 'characterId', target: 'targetId' },
});
export const killingStrike = declareCommand('teams.killingStrike', { summary: 'A killing strike on an unconscious target', who: 'own-character', input: z.strictObject({ ...attackFields, commanded: z.boolean().optional() }), renamed: RENAMED_ATTACK });
export const triggerReady = declareCommand('teams.triggerReady', { summary: 'Take a readied action (uses the reaction)', who: 'own-character', input: z.strictObject({ characterId: who(), beforeId: who('whose turn it interrupts').optional(), test: test.optional(), difficulty: difficulty().optional() }), renamed: { ...RENAMED_ID, before: 'beforeId' } });

// The answers a creature may give now (ADR 42): a hit waiting for its reaction, a fortify-or-fall choice; each as a form with odds.
export const reactionsQuery = declareQuery('teams.reactions', {
  summary: 'What a creature may answer now (a hit waiting for its reaction, fortify or fall), each answer with its odds',
  who: 'own-character',
  input: z.strictObject({ characterId: who() }),
  result: z.strictObject({ characterId: z.string(), name: z.string(), prompts: z.array(z.strictObject({ id: z.string(), kind: z.enum(['hit', 'intercept', 'atRisk']), text: z.string(), actions: z.array(actionSchema) })) }),
});
export const testOddsQuery = declareQuery('teams.testOdds', {
  summary: "Exact chance of an ordinary test (attribute die + skill die, luck bonus) meeting a difficulty",
  who: 'anyone',
  input: z.strictObject({ characterId: who(), test, difficulty: difficulty(), defence: z.boolean().meta({ description: 'a defence test (guard adds its bonus)' }).optional() }),
  result: z.strictObject({ pass: z.number(), difficulty: z.number() }),
});
export const defendOddsQuery = declareQuery('teams.defendOdds', {
  summary: "What an answer to a pending hit leaves: the damage that lands, the item's wear, a dodge's chance",
  who: 'own-character',
  input: defend.input,
  result: z.strictObject({
    reaction: z.string(),
    raw: z.number(),
    damageType: z.string(),
    damage: z.number(),
    avoid: z.number(),
    difficulty: z.number().nullable(),
    item: z.string().nullable(),
    durability: z.strictObject({ from: z.number(), to: z.number() }).nullable(),
  }),
});
export const killingStrikeOddsQuery = declareQuery('teams.killingStrikeOdds', {
  summary: "Exact chance of a killing strike's test (with advantage) against the target's constitution",
  who: 'own-character',
  input: z.strictObject({ ...attackFields, commanded: z.boolean().optional() }),
  result: z.strictObject({ kill: z.number(), difficulty: z.number(), weapon: z.string(), attribute: z.string() }),
});

export const teamsCatalog = catalogOf(
  setSheet,
  removeSheet,
  setTrack,
  attack,
  defend,
  intercept,
  stayConscious,
  react,
  damage,
  act,
  killingStrike,
  triggerReady,
  declareQuery('teams.attackOdds', {
    summary: "Exact odds of an attack's test against the target's evasion",
    who: 'anyone',
    input: z.strictObject(attackFields),
    renamed: RENAMED_ATTACK,
    // The odds fields come from the attack's pmf; the named ones describe the attack as the rules read it.
    result: z.looseObject({ weapon: z.string(), attribute: z.string(), advantage: z.number(), penalty: z.number(), earlierAttacks: z.number(), ranged: z.boolean(), criticalThreshold: z.number(), evasion: z.number() }),
  }),
  reactionsQuery,
  testOddsQuery,
  defendOddsQuery,
  killingStrikeOddsQuery,
  declareActions('teams', 'What a combatant may do now (003 actions and reactions), with weapons, targets and odds'),
);
