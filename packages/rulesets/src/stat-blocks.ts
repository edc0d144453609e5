// Each ruleset's stat block for the table's bestiary (issue 20): the fields a
// foe brings into an encounter, with the limits the server enforces. The web
// builds the bestiary form from these schemas via the catalogue (ADR 13).
// Keys that are also initiative fields (initiative.ts) fill the builder's
// initiative values; `hp` fills its hit points; the rest go on the combatant.
import { int, text, type StatBlockSchema } from '@tablekeeper/engine';
import { z } from 'zod';
import { INITIATIVE_BANDS } from './initiative.js';
import { move as adversaryMove } from './daggerheart/declarations.js';
import { MAX_MOVES } from './daggerheart/limits.js';
import { DAMAGE_TYPES } from './36th-way/damage.js';
import { ability as tswAbility } from './36th-way/declarations.js';
import { MAX_ABILITIES } from './36th-way/abilities.js';
import { BASIC_ATTACKS } from './kleptonomicon/distances.js';
import { withTitles } from './field-titles.js';
import { STAT_BLOCK_LABELS, statBlockValue, STAT_BLOCK_VALUE_WORDS } from './stat-block-labels.js';

const hp = () => int(1, 10000, 'hit points').optional();
/** A whole number with the form's label (title) and its explanation. */
const titledInt = (min: number, max: number, title: string, description: string) => z.int().min(min).max(max).meta({ title, description }).optional();
const dice = (description: string) => z.string().max(40).meta({ description }).optional();

/** Die sizes the teams sheet takes for attributes and skills (003 "Tests"), as a picker offers them. */
const teamsDie = (description: string) => z.enum(['d2', 'd4', 'd6', 'd8', 'd10', 'd12', 'd20']).meta({ description }).optional();
const TEAMS_DAMAGE_TYPES = ['bludgeoning', 'piercing', 'slashing', 'arcane', 'cold', 'fire', 'radiant', 'shock', 'void', 'psychic', 'typeless'] as const;

const BLOCKS_UNTITLED: { readonly [rulesetId: string]: z.ZodObject } = {
  // 001 "NPC Attacks", "Hit Points", "Initiative", "Chases" (speed in feet; 30 is usual).
  osr: z.strictObject({
    hp: hp(),
    ac: int(0, 30, 'armour class').optional(),
    dex: int(1, 30, 'DEX score (initiative order)').optional(),
    hitDice: int(0, 30, 'hit dice (HD)').optional(),
    attackBonus: int(-10, 30, 'modifier to its attack checks').optional(),
    damage: dice('damage dice, such as 1d6'),
    speed: int(0, 240, 'movement in feet (30 is usual)').optional(),
    darksight: z.boolean().meta({ description: 'sees in the dark (darkness helps it)' }).optional(),
  }),
  // 002 "Initiative Bands", defences and attacks.
  '36th-way': z.strictObject({
    // Each field titled in the party form's words (review 9: "attack vs", "attack reach", "miss damage" read raw).
    hp: titledInt(1, 10000, 'HP', 'hit points'),
    // In words on the form, as the encounter's own Band picker says them (review 8 saw "very-fast").
    band: z.enum(INITIATIVE_BANDS as unknown as [string, ...string[]]).meta({ title: 'Initiative band', description: 'initiative band', 'x-labels': Object.fromEntries(INITIATIVE_BANDS.map((b) => [b, statBlockValue('36th-way', 'band', b)])) }).optional(),
    level: titledInt(0, 15, 'Level', 'level'),
    ac: titledInt(0, 40, 'AC', 'armour class'),
    pd: titledInt(0, 40, 'PD', 'physical defence'),
    md: titledInt(0, 40, 'MD', 'mental defence'),
    // Its attack line, "Spear +7 vs AC, 2d6; miss: 3" (002 "Attacks"): the bonus is the whole modifier (ADR 40).
    attackName: text(40).meta({ title: 'Attack name', description: "its attack's name (Spear, Claws)" }).optional(),
    attackBonus: titledInt(-10, 40, 'Attack bonus', 'the whole modifier: +7 in "+7 vs AC"'),
    attackVs: z.enum(['ac', 'pd', 'md']).meta({ title: 'Attack against', description: 'the defence its attack targets', 'x-labels': STAT_BLOCK_VALUE_WORDS['36th-way']!['attackVs'] }).optional(),
    attackReach: z.enum(['engaged', 'nearby', 'far']).meta({ title: 'Attack reaches', description: 'whom its attack reaches (engaged for a melee attack)', 'x-labels': STAT_BLOCK_VALUE_WORDS['36th-way']!['attackReach'] }).optional(),
    damage: z.string().max(40).meta({ title: 'Hit damage', description: 'damage on a hit, such as 2d6+3' }).optional(),
    missDamage: z.string().max(40).meta({ title: 'Miss damage', description: 'damage on a miss: dice such as 1d6, a number, or "level"' }).optional(),
    escalation: z.boolean().meta({ title: 'Uses the escalation die', description: 'adds the escalation die to its attacks' }).optional(),
    // Resist and Weak as the PC sheet has them (002 "Resistance", "Vulnerability"; review 12 #13), one type each here.
    resistType: z.enum(DAMAGE_TYPES).meta({ title: 'Resists', description: 'a damage type it resists: an attack of that type whose natural roll is under the Resist number deals half damage' }).optional(),
    resistAt: titledInt(3, 19, 'Resist number', 'X in "Resist fire X+" (12 when left out: a low resistance; 13-14 medium, 15 heavy)'),
    weakTo: z.enum(DAMAGE_TYPES).meta({ title: 'Weak to', description: 'a damage type it is vulnerable to' }).optional(),
    // Its other abilities, entered as the PC sheet's (frequency, recharge, sustain, power, attack): each copy's sheet gets them (review 12 #13).
    abilities: z.array(tswAbility).max(MAX_ABILITIES).meta({ title: 'Abilities', description: 'its abilities beside the attack above, as a sheet lists them' }).optional(),
  }),
  // 003 "Initiative and Rounds", size, evasion, endurance then health.
  teams: z.strictObject({
    team: text(64, 'the team it fights for').optional(),
    size: int(1, 8, 'size (3 small, 4 medium)').optional(),
    evasion: int(0, 30, 'evasion').optional(),
    deflection: int(0, 30, 'deflection').optional(),
    maxEndurance: int(0, 1000, 'endurance').optional(),
    maxHealth: int(1, 1000, 'health').optional(),
    // Without it every foe falls at the first health lost (003 "Damage": missing health above constitution).
    constitution: int(0, 30, 'constitution (staying conscious)').optional(),
    // 003 "Attacks" and "Damage": what a foe attacks and fortifies with (dice as die sizes, 6 for a d6).
    maxStamina: int(0, 100, 'stamina (pays for reactions such as fortify)').optional(),
    strength: teamsDie('strength die'),
    dexterity: teamsDie('dexterity die'),
    combat: teamsDie('combat skill die'),
    athletics: teamsDie('athletics skill die (fortify)'),
    martial: int(0, 20, 'martial proficiency (added to its weapon attacks)').optional(),
    fortitude: int(0, 20, 'fortitude proficiency (added when it fortifies)').optional(),
    weapon: text(40, "its weapon's name").optional(),
    weaponDamage: int(0, 100, "the weapon's damage (added to a hit's test)").optional(),
    criticalDamage: int(0, 100, "the weapon's critical damage").optional(),
    criticalThreshold: int(1, 30, 'luck roll that crits (empty: the table default)').optional(),
    damageType: z.enum(TEAMS_DAMAGE_TYPES).meta({ description: 'damage type' }).optional(),
    delivery: z.enum(['melee', 'thrown', 'projectile']).meta({ description: 'melee, thrown or projectile' }).optional(),
    hp: hp(),
  }),
  // 004 "Turn Order": foes are grouped by creature type and sorted by Edge Save.
  kleptonomicon: z.strictObject({
    hp: hp(),
    edgeSave: int(-10, 10, 'Edge Save modifier').optional(),
    defense: int(0, 100, 'the Score an attack against it must reach').optional(),
    creatureType: text(64, 'creature type (its turn-order group)').optional(),
    // Its Basic Attack (ADR 56), the same fields as a sheet's: the foe's attack form starts from them.
    attackModifier: int(-50, 50, 'its Basic Attack Test modifier').meta({ title: 'Basic Attack modifier' }).optional(),
    attackDamage: z
      .string()
      .max(20)
      .regex(/^\s*(\d{1,3}|\d{0,3}\s*d\s*\d{1,3}\s*([+-]\s*\d{1,3})?)\s*$/i, 'damage must be dice such as 1d6+1, or a number')
      .meta({ title: 'Basic Attack damage', description: 'dice such as 1d6+1, or a number (its damage on a hit)' })
      .optional(),
    // ADR 124: which Basic Attack it makes, and so its reach (melee Swinging, ranged Shooting, magic Throwing).
    attackKind: z.enum(BASIC_ATTACKS).meta({ title: 'Basic Attack kind', description: 'melee reaches Swinging Distance (1u), ranged Shooting (16u), magic Throwing (8u); none: melee' }).optional(),
  }),
  // 000 talks of adversary stat blocks (difficulty, thresholds) but lists none.
  daggerheart: z.strictObject({
    // Adversaries mark at most 30 HP (daggerheart.addAdversaries takes the block as it is).
    hp: int(1, 30, 'hit points').optional(),
    difficulty: int(1, 40, 'difficulty to hit it').optional(),
    major: int(1, 100, 'major damage threshold').optional(),
    severe: int(1, 200, 'severe damage threshold').optional(),
    stress: int(0, 20, 'stress slots').optional(),
    attack: int(-10, 20, 'attack modifier').optional(),
    damage: dice('damage, such as 1d8+2'),
    // The group's moves, each with the countdown it may start (000 countdowns), as daggerheart.addAdversaries takes them.
    moves: z.array(adversaryMove).max(MAX_MOVES).meta({ description: 'moves (each may start a countdown)' }).optional(),
  }),
};

// Every field labelled as its rule text names it (stat-block-labels.ts; review 10).
const BLOCKS: { readonly [rulesetId: string]: z.ZodType } = Object.fromEntries(
  Object.entries(BLOCKS_UNTITLED).map(([id, block]) => [id, z.strictObject(withTitles(block.shape as { [k: string]: z.ZodType }, STAT_BLOCK_LABELS[id] ?? {}))]),
);

/** The stat block schema of a ruleset (hit points only for one without its own). */
export function statBlockOf(rulesetId: string): StatBlockSchema | undefined {
  return BLOCKS[rulesetId] as StatBlockSchema | undefined;
}
