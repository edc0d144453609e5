// An OSR character's numbers, read from own(world.characters, id).stats (the
// ruleset owns that record). Missing numbers get the text's defaults; bad
// numbers are clamped by `readSheet`, and `validateSheet` names the limit.
import type { Json, RuleError } from '@tablekeeper/engine';
import { ABILITIES, abilityModifier, proficiencyForLevel, type Ability } from './checks.js';

/** 001 "Treasure": 500 coins to a load (exploration.ts says the same for its pure helpers). */
const COINS_PER_LOAD = 500;

export interface Sheet {
  readonly str: number;
  readonly dex: number;
  readonly con: number;
  readonly int: number;
  readonly wis: number;
  readonly cha: number;
  readonly level: number;
  /** NPCs: hit dice (morale bonus, carried loot). */
  readonly hd: number;
  readonly hp: number;
  readonly maxHp: number;
  readonly ac: number;
  /** Loads carried (001 "Movement Actions": each load above STR costs 5' and forces disadvantage). */
  readonly load: number;
  /** Base speed in feet (30' unless the sheet says otherwise). */
  readonly speed: number;
  /** Explicit proficiency bonus; null = from level (setting `proficiencyByLevel`). */
  readonly proficiency: number | null;
  readonly darksight: boolean;
  /** Morale checks in darkness are at disadvantage for surfacers (001 "Darkness"). */
  readonly surfacer: boolean;
  /** Monster morale bonus (the text bases it on HD but gives no table: the GM enters it). */
  readonly moraleBonus: number;
  /** Id of the PC a retainer follows (001 "Retreat"). */
  readonly follows: string | null;
  /** The coin purse (001 "Treasure": copper, silver and gold pieces), weighed into the loads carried. */
  readonly cp: number;
  readonly sp: number;
  readonly gp: number;
}

export const SHEET_LIMITS = { score: [0, 30], level: [1, 20], hd: [0, 40], hp: [0, 10_000], ac: [0, 40], load: [0, 200], speed: [0, 300], proficiency: [0, 10], moraleBonus: [-10, 10], coins: [0, 10_000_000] } as const;

const num = (stats: { readonly [k: string]: Json }, key: string, dflt: number): number => {
  const v = stats[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : dflt;
};

export function readSheet(stats: { readonly [k: string]: Json } | undefined): Sheet {
  const s = stats ?? {};
  const maxHp = num(s, 'maxHp', num(s, 'hp', 1));
  const prof = s['proficiency'];
  const follows = s['follows'];
  return {
    str: num(s, 'str', 10),
    dex: num(s, 'dex', 10),
    con: num(s, 'con', 10),
    int: num(s, 'int', 10),
    wis: num(s, 'wis', 10),
    cha: num(s, 'cha', 10),
    level: num(s, 'level', 1),
    hd: num(s, 'hd', 1),
    hp: num(s, 'hp', maxHp),
    maxHp,
    ac: num(s, 'ac', 10),
    load: num(s, 'load', 0),
    speed: num(s, 'speed', 30),
    proficiency: typeof prof === 'number' && Number.isFinite(prof) ? prof : null,
    darksight: s['darksight'] === true,
    surfacer: s['surfacer'] !== false,
    moraleBonus: num(s, 'moraleBonus', 0),
    follows: typeof follows === 'string' ? follows : null,
    cp: num(s, 'cp', 0),
    sp: num(s, 'sp', 0),
    gp: num(s, 'gp', 0),
  };
}

/**
 * 001 "Treasure": every coin weighs the same, 500 to a load. Counted up: a load is what one carries, so a purse
 * past a whole load takes another (ADR 105), and at the STR limit a single coin more is a load too many.
 */
export function purseLoads(s: Pick<Sheet, 'cp' | 'sp' | 'gp'>): number {
  return Math.ceil(Math.max(0, s.cp + s.sp + s.gp) / COINS_PER_LOAD);
}

/**
 * 001 "Rolling To Return": the coins `loads` loads of the purse come to, least valuable first (copper, then
 * silver, then gold), 500 a load; the last part-load goes whole, so the purse then weighs exactly `loads` fewer.
 */
export function purseDropped(s: Pick<Sheet, 'cp' | 'sp' | 'gp'>, loads: number): { cp: number; sp: number; gp: number } {
  let left = Math.max(0, loads) * COINS_PER_LOAD;
  const take = (have: number): number => {
    const n = Math.min(Math.max(0, have), left);
    left -= n;
    return n;
  };
  const cp = take(s.cp);
  const sp = take(s.sp);
  return { cp, sp, gp: take(s.gp) };
}

/** The loads a character carries: the sheet's items and the purse's coins (what encumbrance reads). */
export function carriedLoad(s: Pick<Sheet, 'load' | 'cp' | 'sp' | 'gp'>): number {
  return s.load + purseLoads(s);
}

/** Checks a stats record a GM typed in; returns the first broken limit. */
export function validateSheet(stats: { readonly [k: string]: Json }): RuleError | null {
  const check = (key: string, [lo, hi]: readonly [number, number]): RuleError | null => {
    const v = stats[key];
    if (v === undefined) return null;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
      return { code: 'BAD_SHEET', message: `${key} must be a whole number from ${lo} to ${hi}`, path: key };
    }
    return null;
  };
  for (const a of ABILITIES) {
    const e = check(a, SHEET_LIMITS.score);
    if (e) return e;
  }
  for (const key of ['level', 'hd', 'hp', 'maxHp', 'ac', 'load', 'speed', 'proficiency', 'moraleBonus', 'cp', 'sp', 'gp'] as const) {
    const lim = key === 'maxHp' ? SHEET_LIMITS.hp : key === 'cp' || key === 'sp' || key === 'gp' ? SHEET_LIMITS.coins : SHEET_LIMITS[key];
    const e = check(key, lim);
    if (e) return e;
  }
  const hp = stats['hp'];
  const max = stats['maxHp'];
  if (typeof hp === 'number' && typeof max === 'number' && hp > max) return { code: 'BAD_SHEET', message: 'hp cannot exceed maxHp (001 "Healing & HP")', path: 'hp' };
  return null;
}

export function score(sheet: Sheet, a: Ability): number {
  return sheet[a];
}

export function mod(sheet: Sheet, a: Ability): number {
  return abilityModifier(sheet[a]);
}

export function proficiencyOf(sheet: Sheet): number {
  return sheet.proficiency ?? proficiencyForLevel(sheet.level);
}

/** 001 "Roll to Return": the PC's highest modifier, proficiency included. */
export function bestModifier(sheet: Sheet, withProficiency = true): number {
  return Math.max(...ABILITIES.map((a) => mod(sheet, a))) + (withProficiency ? proficiencyOf(sheet) : 0);
}

// ---------------------------------------------------------------- encumbrance

export interface Encumbrance {
  /** Loads above STR. */
  readonly over: number;
  /** Speed after load (never below 0). */
  readonly speed: number;
  /** Disadvantage on all checks while over. */
  readonly disadvantage: boolean;
  /** 0' speed: cannot move at all. */
  readonly fullyEncumbered: boolean;
}

/** 001 "Movement Actions": each load above the STR score is -5' speed and disadvantage on every check. */
export function encumbrance(str: number, load: number, baseSpeed = 30): Encumbrance {
  const over = Math.max(0, load - str);
  const speed = Math.max(0, baseSpeed - 5 * over);
  return { over, speed, disadvantage: over > 0, fullyEncumbered: speed === 0 };
}

/** 001: swimming, crawling, climbing and difficult terrain are at half speed. */
export type MoveMode = 'walk' | 'swim' | 'crawl' | 'climb' | 'difficult';

export function movementAllowance(speed: number, mode: MoveMode): number {
  return mode === 'walk' ? speed : Math.floor(speed / 2);
}
