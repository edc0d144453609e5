// Named, documented settings of the team game (003). Every place where the
// text is silent, or where the rules README settles a dice mechanic, is a
// setting a table can override (world.settings[key]).
import type { Json, World } from '@tablekeeper/engine';
import type { SettingDef } from '../ruleset.js';

/** The shared setting declaration (allowed values and ranges are checked on every change). */
export type TeamsSettingDef = SettingDef;

const TEXT = '003_b64e7ab0ea5c9095.txt';
const README = 'rules/README.md, "The team game (003)"';

export const TEAMS_SETTINGS: readonly TeamsSettingDef[] = [
  {
    key: 'teams.advantage', allowed: ['reroll-keep-higher', 'off'], choiceWords: { 'reroll-keep-higher': 'advantage rolls the test dice again and keeps the best', off: 'tests ignore advantage and disadvantage' },
    default: 'reroll-keep-higher',
    description: '"reroll-keep-higher": advantage rolls the attribute and skill dice once more per step and keeps the best total (double advantage: best of three), disadvantage keeps the worst, the luck die is rolled once; "off": tests ignore advantage and disadvantage.',
    source: README,
  },
  { key: 'teams.luckBonusAt', range: [1, 21], default: 20, description: 'An ordinary test whose luck die reads this or more gets the luck bonus.', source: README },
  { key: 'teams.luckBonus', range: [0, 20], default: 4, description: 'The luck bonus added to an ordinary test.', source: README },
  { key: 'teams.criticalThreshold', range: [1, 21], default: 20, description: 'Critical threshold of a weapon that lists none.', source: `${TEXT}, "Attacks" (our default)` },
  { key: 'teams.misdirectAtOrBelow', range: [0, 20], default: 1, description: 'A thrown or projectile attack whose luck roll is this or lower hits a random character within 1 m of the target instead.', source: `${TEXT}, "Attacks"` },
  { key: 'teams.multipleAttackPenalty', range: [0, 10], default: 2, description: 'Penalty per earlier attack by the same attacker in the same round.', source: `${TEXT}, "Attacks"` },
  { key: 'teams.deathDifficulty', range: [1, 30], default: 10, description: 'Starting difficulty of the luck test to cheat death.', source: `${TEXT}, "Death"` },
  { key: 'teams.cheatDeathStep', range: [0, 20], default: 5, description: 'How much each cheated death permanently raises that difficulty.', source: `${TEXT}, "Death"` },
  { key: 'teams.metalDurability', range: [1, 50], default: 10, description: 'Durability of a metal item that lists none.', source: `${TEXT}, "Parry"` },
  { key: 'teams.otherDurability', range: [1, 50], default: 4, description: 'Durability of a non-metal item that lists none.', source: `${TEXT}, "Parry"` },
  {
    key: 'teams.blockExcessReduced',
    default: false,
    description: 'Whether the bearer\'s own damage reduction applies to damage that overflows a blocking item ("dealt directly to you": by default it does not).',
    source: `${TEXT}, "Block" (our reading)`,
  },
  {
    key: 'teams.dodgeDifficulty', allowed: ['attack-result'], range: [1, 40], choiceWords: { 'attack-result': "a dodge must meet the attack's result" },
    default: 'attack-result',
    description: 'A dodge succeeds when its test meets or beats the attack\'s test result ("attack-result"), or a fixed number.',
    source: `${TEXT}, "Actions in Combat", Reactions table (our reading: the text names no difficulty)`,
  },
  { key: 'teams.criticalsDodgeable', default: false, description: 'Whether a dodge can avoid an attack that hit by its critical threshold ("cannot miss").', source: `${TEXT}, "Attacks" (our reading)` },
  {
    key: 'teams.interceptRecheck',
    default: true,
    description: 'After an intercept the same attack roll is compared with the interceptor\'s evasion (it may now miss); otherwise the hit stands.',
    source: `${TEXT}, Reactions table, Intercept (our reading)`,
  },
  {
    key: 'teams.killingStrikeWeapons', choiceWords: { any: 'any weapon, nonlethal ones included, may deliver a killing strike', nonlethal: 'only nonlethal weapons may deliver a killing strike', lethal: 'only lethal weapons may deliver a killing strike' },
    default: 'any',
    allowed: ['any', 'nonlethal', 'lethal'],
    description: 'Weapons that may deliver a killing strike: "any" weapon, nonlethal ones included (the text names "any nonlethal weapon"); "nonlethal" ones only (the text word for word); or "lethal" ones only (reading "nonlethal" as a slip).',
    source: `${TEXT}, "Death"`,
  },
  { key: 'teams.killingStrikeActions', range: [1, 6], default: 3, description: 'Actions a killing strike takes in combat (the three-action activity).', source: `${TEXT}, "Death"` },
  { key: 'teams.resuscitateDifficulty', range: [1, 40], default: 10, description: 'Difficulty of the resuscitate test when the GM names none.', source: `${TEXT}, Actions table, Resuscitate (our default: the excerpt names none)` },
  {
    key: 'teams.hitsLandAtTurnEnd',
    default: true,
    description: 'When the turn ends, a hit still waiting for its target\'s reaction lands with no reaction, and a fortify-or-fall-unconscious choice nobody answered counts as falling unconscious (so a forgotten answer never leaves the table hanging).',
    source: `${TEXT}, "Block" (our choice: the reaction comes before the damage, within the turn)`,
  },
  { key: 'teams.commandFocus', range: [0, 10], default: 2, description: 'Focus a Command costs.', source: `${TEXT}, Actions table` },
  { key: 'teams.reactionCost', range: [0, 10], default: 1, description: 'Stamina (block, dodge, fortify, intercept, parry) or focus (resist) a reaction costs; sprint costs the same in stamina.', source: `${TEXT}, Reactions table` },
];

/** The setting's value for this table: the world's override, else the default. */
export function setting(world: World, key: string): Json {
  const v = world.settings[key];
  if (v !== undefined) return v;
  return TEAMS_SETTINGS.find((s) => s.key === key)?.default ?? null;
}

export function numSetting(world: World, key: string): number {
  const v = setting(world, key);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const d = TEAMS_SETTINGS.find((s) => s.key === key)?.default;
  return typeof d === 'number' ? d : 0;
}

export function boolSetting(world: World, key: string): boolean {
  const v = setting(world, key);
  if (typeof v === 'boolean') return v;
  return TEAMS_SETTINGS.find((s) => s.key === key)?.default === true;
}

/** Net advantage as the table plays it (the 'teams.advantage' setting). */
export function effectiveAdvantage(world: World, net: number): number {
  return setting(world, 'teams.advantage') === 'off' ? 0 : net;
}

/** Why this table refuses a weapon for a killing strike ('nonlethal' or 'lethal': the kind refused), or null (the 'teams.killingStrikeWeapons' setting). */
export function killingStrikeRefuses(world: World, nonlethal: boolean): 'nonlethal' | 'lethal' | null {
  const allowed = setting(world, 'teams.killingStrikeWeapons');
  if (allowed === 'lethal' && nonlethal) return 'nonlethal';
  if (allowed === 'nonlethal' && !nonlethal) return 'lethal';
  return null;
}
