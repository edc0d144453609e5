// Every decision the Daggerheart ruleset makes where 000 is silent, as a named
// table setting (rules README: "make each one a named setting").
import type { Json, World } from '@tablekeeper/engine';
import type { SettingDef } from '../ruleset.js';

const README = 'rules README "Daggerheart action roll (000)"';
const NOT_IN_000 = 'not in 000; our default follows the published game';

export const DAGGERHEART_SETTINGS: readonly SettingDef[] = [
  { key: 'daggerheart.hopeMax', range: [1, 12], default: 6, description: 'Most Hope a character can hold; a roll with Hope at the cap gains nothing.', source: NOT_IN_000 },
  { key: 'daggerheart.startingHope', range: [0, 12], default: 2, description: 'Hope a PC has before any is recorded on their sheet (stats.hope).', source: NOT_IN_000 },
  { key: 'daggerheart.fearMax', range: [1, 24], default: 12, description: 'Most Fear the GM can hold; a roll with Fear at the cap gains nothing.', source: NOT_IN_000 },
  {
    key: 'daggerheart.criticalGivesHope',
    default: true,
    description: 'A critical success (matching dice) gives the rolling character 1 Hope, as a roll with Hope does.',
    source: `${README} names the critical; the Hope for it is ${NOT_IN_000}`,
  },
  {
    key: 'daggerheart.advantageDiceStack',
    default: false,
    description: 'false: net advantage adds (or subtracts) one d6 however many sources there are; true: one d6 per net source.',
    source: `${README} ("they cancel one for one")`,
  },
  {
    key: 'daggerheart.helpKeepsHighest',
    default: true,
    description: "Help an Ally on a roll that already has advantage (the GM's, or another helper's): each source rolls its own d6 and the highest counts, so the help still adds a chance; false: one d6 however many (advantageDiceStack decides).",
    source: `${NOT_IN_000} (the helper rolls an advantage die and the highest is kept); docs/adr/0050-daggerheart-armor-choice-and-phone-rolls.md`,
  },
  {
    key: 'daggerheart.fearPassesSpotlight',
    default: true,
    description: "An action roll with Fear by the PC holding the spotlight ends their turn: the spotlight swings to the GM, who passes it on or takes it for an adversary.",
    source: `${NOT_IN_000}; ../shared/GM-FLOW.md ("the spotlight passes"); docs/adr/0050-daggerheart-armor-choice-and-phone-rolls.md`,
  },
  { key: 'daggerheart.helpCost', range: [0, 6], default: 1, description: 'Hope a helper spends to Help an Ally (giving the helped roll one advantage source).', source: `000 "Example Chase" (the Sorcerer spends a Hope to Help an Ally)` },
  {
    key: 'daggerheart.reactionRollsTickCountdowns',
    default: false,
    description: 'Whether reaction rolls advance countdowns; they are not action rolls, which is what 000 counts.',
    source: '000 "Standard Countdown", "Dynamic Countdown" (both count action rolls)',
  },
  { key: 'daggerheart.reactionRollsGiveHopeFear', default: false, description: 'Whether reaction rolls give Hope or Fear.', source: NOT_IN_000 },
  { key: 'daggerheart.fearVisible', default: true, description: "Whether players see the GM's Fear pool and its changes.", source: '000 "Using a Countdown" leaves what players see to the GM; our default: the Fear pool is on the table' },
  { key: 'daggerheart.actionRollsAdvanceClock', default: true, description: "Each action roll advances the table clock's actionRoll count (anything timed in rolls listens to it).", source: 'issue 3 "The clock"' },
  // Issue 21: the table trackers and the GM's tools. 000 prints none of these; each default is the published game's.
  { key: 'daggerheart.criticalClearsStress', default: true, description: 'A critical success on an action roll also clears one marked Stress of the roller.', source: NOT_IN_000 },
  { key: 'daggerheart.hpSlots', default: 6, range: [1, 30], description: "HP slots a character has when the sheet gives none (stats.hpMax).", source: `${NOT_IN_000} (classes start with 5 to 7)` },
  { key: 'daggerheart.stressSlots', default: 6, range: [1, 30], description: 'Stress slots a character has when the sheet gives none (stats.stressMax).', source: NOT_IN_000 },
  { key: 'daggerheart.armorSlots', default: 0, range: [0, 30], description: "Armor slots a character has when the sheet gives none (stats.armorMax); the armour's score sets it.", source: NOT_IN_000 },
  {
    key: 'daggerheart.massiveDamage',
    default: false,
    description: 'Optional rule: damage at or above twice the Severe threshold marks 4 HP instead of 3.',
    source: `${NOT_IN_000} (an optional rule there)`,
  },
  { key: 'daggerheart.stressOverflowMarksHp', default: true, description: 'Stress that must be marked when every Stress slot is full marks HP instead.', source: NOT_IN_000 },
  { key: 'daggerheart.experienceCost', default: 1, range: [0, 6], description: 'Hope a player spends to add an Experience to a roll.', source: NOT_IN_000 },
  { key: 'daggerheart.spotlightFearCost', default: 1, range: [0, 12], description: 'Fear the GM spends to take the spotlight out of turn (interrupting the PCs).', source: NOT_IN_000 },
  {
    key: 'daggerheart.actionTokens',
    default: 0,
    range: [0, 10],
    description: 'Optional action tracker: tokens each PC gets per round of a conflict (0 = off; the optional rule uses 3). A PC pays one per spotlight, to the GM, who pays one per adversary spotlight.',
    source: `${NOT_IN_000} (an optional rule there); docs/adr/0014-spotlight.md`,
  },
  { key: 'daggerheart.downtimeMoves', default: 2, range: [0, 5], description: 'Downtime moves each PC may take during one rest.', source: NOT_IN_000 },
  { key: 'daggerheart.restGivesFear', default: true, description: 'A rest gives the GM Fear: 1d4 on a short rest, 1d4 + the number of PCs on a long rest.', source: NOT_IN_000 },
  {
    key: 'daggerheart.adversaryCrits',
    default: true,
    description: "A natural 20 on an adversary's attack hits whatever the Evasion and adds its damage dice's maximum to the damage.",
    source: `${NOT_IN_000}; docs/adr/0040-a-foes-attack-from-its-stat-block.md`,
  },
  {
    key: 'daggerheart.armorChoice',
    default: true,
    description: "A hit on a PC that an Armor Slot would lessen waits for the PC's player (or the GM) to choose whether to mark one; false: it lands unarmoured unless the damage command says otherwise.",
    source: `${NOT_IN_000} (marking Armor is the player's choice there); docs/adr/0050-daggerheart-armor-choice-and-phone-rolls.md`,
  },
  { key: 'daggerheart.shortRestMinutes', default: 60, range: [0, 1440], description: 'Minutes a short rest takes on the clock (the published game: about an hour; ADR 44).', source: NOT_IN_000 },
  { key: 'daggerheart.longRestHours', default: 8, range: [0, 72], description: 'Hours a long rest takes on the clock (the published game: several hours; ADR 44).', source: NOT_IN_000 },
  { key: 'daggerheart.tier', default: 1, range: [1, 4], description: "The party's tier when a sheet gives none (stats.tier); short-rest moves clear 1d4 + tier.", source: NOT_IN_000 },
];

export interface DaggerheartSettings {
  readonly hopeMax: number;
  readonly startingHope: number;
  readonly fearMax: number;
  readonly criticalGivesHope: boolean;
  readonly advantageDiceStack: boolean;
  readonly helpCost: number;
  readonly reactionRollsTickCountdowns: boolean;
  readonly reactionRollsGiveHopeFear: boolean;
  readonly fearVisible: boolean;
  readonly actionRollsAdvanceClock: boolean;
  readonly criticalClearsStress: boolean;
  readonly hpSlots: number;
  readonly stressSlots: number;
  readonly armorSlots: number;
  readonly massiveDamage: boolean;
  readonly stressOverflowMarksHp: boolean;
  readonly experienceCost: number;
  readonly spotlightFearCost: number;
  readonly actionTokens: number;
  readonly downtimeMoves: number;
  readonly restGivesFear: boolean;
  readonly shortRestMinutes: number;
  readonly longRestHours: number;
  readonly tier: number;
  readonly adversaryCrits: boolean;
  readonly armorChoice: boolean;
  readonly helpKeepsHighest: boolean;
  readonly fearPassesSpotlight: boolean;
}

const defaults = Object.fromEntries(DAGGERHEART_SETTINGS.map((s) => [s.key, s.default])) as { [k: string]: Json };

const read = new WeakMap<World['settings'], DaggerheartSettings>();

/** The table's settings, kept per settings object (worlds are immutable and share it until a setting changes). */
export function daggerheartSettings(world: World): DaggerheartSettings {
  let set = read.get(world.settings);
  if (set === undefined) read.set(world.settings, (set = readDaggerheartSettings(world.settings)));
  return set;
}

/** The settings afresh, falling back to the defaults above for missing or ill-typed values. */
export function readDaggerheartSettings(s: World['settings']): DaggerheartSettings {
  const int = (key: string, min: number, max: number): number => {
    const v = s[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : (defaults[key] as number);
  };
  const bool = (key: string): boolean => (typeof s[key] === 'boolean' ? (s[key] as boolean) : (defaults[key] as boolean));
  return {
    hopeMax: int('daggerheart.hopeMax', 0, 100),
    startingHope: int('daggerheart.startingHope', 0, 100),
    fearMax: int('daggerheart.fearMax', 0, 100),
    criticalGivesHope: bool('daggerheart.criticalGivesHope'),
    advantageDiceStack: bool('daggerheart.advantageDiceStack'),
    helpCost: int('daggerheart.helpCost', 0, 100),
    reactionRollsTickCountdowns: bool('daggerheart.reactionRollsTickCountdowns'),
    reactionRollsGiveHopeFear: bool('daggerheart.reactionRollsGiveHopeFear'),
    fearVisible: bool('daggerheart.fearVisible'),
    actionRollsAdvanceClock: bool('daggerheart.actionRollsAdvanceClock'),
    criticalClearsStress: bool('daggerheart.criticalClearsStress'),
    hpSlots: int('daggerheart.hpSlots', 1, 30),
    stressSlots: int('daggerheart.stressSlots', 1, 30),
    armorSlots: int('daggerheart.armorSlots', 0, 30),
    massiveDamage: bool('daggerheart.massiveDamage'),
    stressOverflowMarksHp: bool('daggerheart.stressOverflowMarksHp'),
    experienceCost: int('daggerheart.experienceCost', 0, 6),
    spotlightFearCost: int('daggerheart.spotlightFearCost', 0, 12),
    actionTokens: int('daggerheart.actionTokens', 0, 10),
    downtimeMoves: int('daggerheart.downtimeMoves', 0, 5),
    restGivesFear: bool('daggerheart.restGivesFear'),
    tier: int('daggerheart.tier', 1, 4),
    adversaryCrits: bool('daggerheart.adversaryCrits'),
    armorChoice: bool('daggerheart.armorChoice'),
    helpKeepsHighest: bool('daggerheart.helpKeepsHighest'),
    fearPassesSpotlight: bool('daggerheart.fearPassesSpotlight'),
    shortRestMinutes: int('daggerheart.shortRestMinutes', 0, 1440),
    longRestHours: int('daggerheart.longRestHours', 0, 72),
  };
}
