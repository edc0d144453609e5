// Every interpretation of 001 the ruleset makes, as a named table setting
// (rules README: "make each one a named setting"). Read with `osrSettings(world)`.
import type { World } from '@tablekeeper/engine';
import type { SettingDef } from '../ruleset.js';

/** The shared setting declaration (allowed values and ranges are checked on every change). */
export type OsrSettingDef = SettingDef;

const F = '001_549d90ad32698ce5.txt';

export const OSR_SETTINGS: readonly OsrSettingDef[] = [
  { key: 'osr.advantageCombine', allowed: ['cancel', 'net'], choiceWords: { cancel: 'any advantage and any disadvantage cancel out to a straight roll', net: 'advantage and disadvantage cancel one for one' }, default: 'cancel', description: "'cancel': any advantage and any disadvantage give a straight roll (5e); 'net': they cancel one for one.", source: `rules README "The OSR game"; ${F} "Saves & Checks"` },
  { key: 'osr.proficiencyByLevel', default: true, description: 'Without a proficiency number on the sheet, use the 5e bonus by level (+2 at 1-4, +1 every four levels).', source: `${F} "Skills & Proficiency" (no table given)` },
  { key: 'osr.natural20AlwaysHits', default: true, description: 'A natural 20 attack is a critical hit even when the total misses the AC.', source: `${F} "Critical Hits"` },
  { key: 'osr.natural1AlwaysMisses', default: false, description: 'A natural 1 attack misses whatever the total (the text does not say so).', source: `${F} "Critical Failure"` },
  { key: 'osr.critDoubles', allowed: ['total', 'dice'], choiceWords: { total: 'a critical hit doubles the whole damage', dice: 'a critical hit doubles only the damage dice' }, default: 'total', description: "'total': a critical doubles the whole damage; 'dice': only the dice.", source: `${F} "Critical Hits", "Critical Failure"` },
  { key: 'osr.standingHeal', allowed: ['instead', 'plus'], choiceWords: { instead: 'injury row 20 heals 1d8 HP instead of 1 HP', plus: 'injury row 20 heals 1d8 HP on top of 1 HP' }, default: 'instead', description: "Injury row 20 heals 1d8 HP 'instead' of returning at 1 HP, or 'plus' that 1 HP.", source: `${F} "Stabilizing & Injuries", "Injury Table"` },
  { key: 'osr.deathAtZeroAbility', default: true, description: 'A character whose ability score reaches 0 dies (injury losses, corruption damage).', source: `${F} "Corruptions" (snake venom example)` },
  { key: 'osr.deathWindowSeconds', range: [6, 3600], default: 60, description: 'Seconds an incapacitated combatant has to be stabilized (or the end of the fight, if later).', source: `${F} "Death & Injury"` },
  { key: 'osr.restHoursPerNight', range: [1, 24], default: 8, description: 'In-fiction hours one night of rest moves the clock.', source: `${F} "Healing From Rest" (length not given)` },
  { key: 'osr.returnZeroHp', allowed: ['dead', 'unconscious'], choiceWords: { dead: 'a PC at 0 HP on the way back dies', unconscious: 'a PC at 0 HP on the way back is left unconscious instead of dying' }, default: 'dead', description: "A PC brought to 0 HP while rolling to return is 'dead' or left 'unconscious' (the GM may choose per roll).", source: `${F} "Rolling To Return"` },
  { key: 'osr.corruptionCureOnSuccess', default: true, description: 'A passed check at the end of a corruption stage ends the corruption; otherwise it only avoids that stage\'s damage.', source: `${F} "Corruptions"` },
  { key: 'osr.corruptionRepeatsLastStage', default: true, description: 'After its last listed stage a corruption keeps repeating that stage until cured or fatal.', source: `${F} "Corruptions"` },
  { key: 'osr.scenesPerTravelTurn', range: [1, 6], default: 3, description: 'Scenes, rooms or encounters that count as one hour (one travel turn) in a dungeon: 3 or 4.', source: `${F} "Travel Turns"` },
  { key: 'osr.tidePromptAt', range: [0, 1], default: 0.5, description: 'Share of a side down or dead at which the GM is prompted that the tide of battle is obvious (0 = never).', source: `${F} "When To Check Morale" (the text leaves it to the GM)` },
  { key: 'osr.exhaustedCannotFight', default: true, description: 'An exhausted character cannot attack (the text: they cannot do anything that takes real exertion, combat and magic included).', source: `${F} "Exhaustion"` },
];

export interface OsrSettings {
  readonly advantageCombine: 'cancel' | 'net';
  readonly proficiencyByLevel: boolean;
  readonly natural20AlwaysHits: boolean;
  readonly natural1AlwaysMisses: boolean;
  readonly critDoubles: 'total' | 'dice';
  readonly standingHeal: 'instead' | 'plus';
  readonly deathAtZeroAbility: boolean;
  readonly deathWindowSeconds: number;
  readonly restHoursPerNight: number;
  readonly returnZeroHp: 'dead' | 'unconscious';
  readonly corruptionCureOnSuccess: boolean;
  readonly corruptionRepeatsLastStage: boolean;
  readonly scenesPerTravelTurn: number;
  readonly tidePromptAt: number;
  readonly exhaustedCannotFight: boolean;
}

/** Read once per settings object: worlds are immutable and share it until a setting changes, and OSR reads it on every event. */
const read = new WeakMap<World['settings'], OsrSettings>();

export function osrSettings(world: World): OsrSettings {
  let set = read.get(world.settings);
  if (set === undefined) read.set(world.settings, (set = readOsrSettings(world.settings)));
  return set;
}

/** The settings afresh (osrSettings keeps them per settings object). */
export function readOsrSettings(s: World['settings']): OsrSettings {
  const pick = <T extends string>(key: string, allowed: readonly T[], d: T): T => {
    const v = s[key];
    return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : d;
  };
  const bool = (key: string, d: boolean): boolean => (typeof s[key] === 'boolean' ? (s[key] as boolean) : d);
  const int = (key: string, d: number, lo: number, hi: number): number => {
    const v = s[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : d;
  };
  return {
    advantageCombine: pick('osr.advantageCombine', ['cancel', 'net'], 'cancel'),
    proficiencyByLevel: bool('osr.proficiencyByLevel', true),
    natural20AlwaysHits: bool('osr.natural20AlwaysHits', true),
    natural1AlwaysMisses: bool('osr.natural1AlwaysMisses', false),
    critDoubles: pick('osr.critDoubles', ['total', 'dice'], 'total'),
    standingHeal: pick('osr.standingHeal', ['instead', 'plus'], 'instead'),
    deathAtZeroAbility: bool('osr.deathAtZeroAbility', true),
    deathWindowSeconds: int('osr.deathWindowSeconds', 60, 0, 24 * 3600),
    restHoursPerNight: int('osr.restHoursPerNight', 8, 0, 24),
    returnZeroHp: pick('osr.returnZeroHp', ['dead', 'unconscious'], 'dead'),
    corruptionCureOnSuccess: bool('osr.corruptionCureOnSuccess', true),
    corruptionRepeatsLastStage: bool('osr.corruptionRepeatsLastStage', true),
    exhaustedCannotFight: bool('osr.exhaustedCannotFight', true),
    scenesPerTravelTurn: int('osr.scenesPerTravelTurn', 3, 1, 20),
    tidePromptAt: typeof s['osr.tidePromptAt'] === 'number' && s['osr.tidePromptAt'] >= 0 && s['osr.tidePromptAt'] <= 1 ? s['osr.tidePromptAt'] : 0.5,
  };
}
