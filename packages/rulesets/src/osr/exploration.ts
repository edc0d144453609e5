// 001 "Travel Turns", "Timekeeping", "Rolling To Return", "Overland Travel",
// "Overwater Travel", "Chases", "Light": the exploration procedures as pure
// functions. The module puts them on the engine's one clock.
import { abilityModifier } from './checks.js';
import { encumbrance } from './sheet.js';

// ---------------------------------------------------------------- travel turns

export type ThreatBand = 'terrible' | 'soon' | 'worsens' | 'nothing';

export interface ThreatRow {
  readonly band: ThreatBand;
  readonly range: readonly [number, number];
  /** Our summary of the row's prompts for the GM. */
  readonly prompts: readonly string[];
}

/** 001 "Travel Turn Table": four bands of the d20 (the GM's prompts in our words). */
export const TRAVEL_TURN_TABLE: readonly ThreatRow[] = [
  { band: 'terrible', range: [1, 1], prompts: ['an immediate threat', 'a chance encounter', 'a crushing ambush', 'the surroundings get worse'] },
  { band: 'soon', range: [2, 10], prompts: ['trouble is coming soon', 'a hidden trap or poison', 'wary enemies ready to strike', 'a retainer runs off or turns'] },
  { band: 'worsens', range: [11, 19], prompts: ['a threat grows or comes closer', 'something far away changes', 'the place slowly turns hostile', 'a new possible threat shows up', 'something feels wrong'] },
  { band: 'nothing', range: [20, 20], prompts: ['nothing bad happens, perhaps something good'] },
];

export function travelTurnRow(d20: number): ThreatRow {
  return TRAVEL_TURN_TABLE.find((r) => d20 >= r.range[0] && d20 <= r.range[1]) ?? TRAVEL_TURN_TABLE[0]!;
}

/** How often a travel turn is rolled (001 "Overland Travel", "Overwater Travel"): hourly underground, daily overland or on rivers and lakes, weekly at sea. */
export type Cadence = 'dungeon' | 'overland' | 'river' | 'sea';

export const CADENCE_HOURS: { readonly [c in Cadence]: number } = { dungeon: 1, overland: 24, river: 24, sea: 168 };

// ---------------------------------------------------------------- time dice

export type Quarter = 'pre-dawn' | 'morning' | 'afternoon' | 'night';
export const QUARTERS: readonly Quarter[] = ['pre-dawn', 'morning', 'afternoon', 'night'];

/**
 * 001 "Timekeeping": up to four d6 turned to show the hour, each die a
 * six-hour quarter. Hour h (1..24) is the sum of the faces: full quarters show
 * 6, the last die the rest. 00:00 reads as 24 (four sixes, the end of night).
 */
export function timeDiceFor(hourOfDay: number): number[] {
  const h = ((Math.floor(hourOfDay) % 24) + 24) % 24 || 24;
  const full = Math.floor((h - 1) / 6);
  return [...Array<number>(full).fill(6), h - 6 * full];
}

/** Reading turned time dice: their sum is the hour of day (24 = midnight). */
export function hourFromTimeDice(faces: readonly number[]): number {
  return faces.reduce((a, b) => a + b, 0) % 24;
}

/** The quarter of the day an hour falls in (1-6 pre-dawn, 7-12 morning, 13-18 afternoon, 19-24 night). */
export function quarterOf(hourOfDay: number): Quarter {
  const h = ((Math.floor(hourOfDay) % 24) + 24) % 24 || 24;
  return QUARTERS[Math.floor((h - 1) / 6)]!;
}

export function hourOfClock(seconds: number): number {
  return Math.floor(seconds / 3600) % 24;
}

/** Seconds from `nowSeconds` to the next time the clock shows `hour` o'clock (0 if it is that hour now, on the hour). */
export function secondsUntilHour(nowSeconds: number, hour: number): number {
  const day = 24 * 3600;
  const target = (((hour % 24) + 24) % 24) * 3600;
  const inDay = ((nowSeconds % day) + day) % day;
  return (target - inDay + day) % day;
}

// ---------------------------------------------------------------- roll to return

/** 001 "Rolling To Return": DC 10 + 1 per travel turn, at most 20. */
export function returnDc(travelTurns: number): number {
  return Math.min(20, 10 + Math.max(0, Math.floor(travelTurns)));
}

export type ReturnPath = 'dangerous' | 'arduous';

// ---------------------------------------------------------------- overland and overwater

export type Terrain = 'open' | 'difficult' | 'harsh';
export type LightLevel = 'darkness' | 'dim' | 'well-lit' | 'brilliant';
export type Pace = 'normal' | 'tactical' | 'stealthy';

const TERRAIN_FACTOR: { readonly [t in Terrain]: number } = { open: 1, difficult: 1 / 2, harsh: 1 / 4 };
const PACE_FACTOR: { readonly [p in Pace]: number } = { normal: 1, tactical: 3 / 4, stealthy: 1 / 2 };

/** Dim light counts as difficult terrain, darkness as harsh (001 "Overland Travel"); the worse one applies. */
export function effectiveTerrain(terrain: Terrain, light: LightLevel): Terrain {
  const fromLight: Terrain = light === 'darkness' ? 'harsh' : light === 'dim' ? 'difficult' : 'open';
  return TERRAIN_FACTOR[fromLight] < TERRAIN_FACTOR[terrain] ? fromLight : terrain;
}

export interface OverlandInput {
  readonly strMod: number;
  readonly terrain?: Terrain;
  readonly light?: LightLevel;
  readonly encumbered?: boolean;
  readonly pace?: Pace;
  /** Exhausted: 0' speed (001 "Exhaustion"), so no miles at all. */
  readonly exhausted?: boolean;
  /** Completely encumbered: 0' speed from load (001 "Movement Actions": can't move at all), so no miles. */
  readonly fullyEncumbered?: boolean;
}

/** Miles per day for one PC: (10 + STR mod) x terrain x (1/2 if encumbered) x pace; 0 at 0' speed. Never negative. */
export function overlandMiles(i: OverlandInput): number {
  if (i.exhausted === true || i.fullyEncumbered === true) return 0;
  const base = Math.max(0, 10 + i.strMod);
  const t = TERRAIN_FACTOR[effectiveTerrain(i.terrain ?? 'open', i.light ?? 'well-lit')];
  return base * t * (i.encumbered === true ? 1 / 2 : 1) * PACE_FACTOR[i.pace ?? 'normal'];
}

/** The party keeps to its slowest member when it stays together. */
export function partyMiles(members: readonly OverlandInput[]): number {
  return members.length === 0 ? 0 : Math.min(...members.map(overlandMiles));
}

/** What the overland pace reads from one traveller's sheet and state. */
export interface Traveller {
  readonly id: string;
  readonly name: string;
  readonly str: number;
  readonly load: number;
  /** Base speed in feet before load. */
  readonly speed: number;
  readonly exhausted: boolean;
}

export interface TravellerPace {
  readonly id: string;
  readonly name: string;
  readonly miles: number;
  readonly input: OverlandInput;
  /** Why this pace, in words (STR mod, encumbered, exhausted...). */
  readonly why: readonly string[];
  /** Why they cannot travel at all (0' speed), or null. */
  readonly stuck: string | null;
}

export interface PartyPace {
  /** Miles a day for the party together: the slowest member's (0 when someone cannot move). */
  readonly perDay: number;
  readonly members: readonly TravellerPace[];
  /** Id of the member the party keeps to (null alone or empty). */
  readonly slowest: string | null;
  /** Why the party cannot travel together (someone at 0' speed), or null. */
  readonly blocked: string | null;
}

export interface Trip {
  readonly terrain?: Terrain;
  readonly light?: LightLevel;
  readonly pace?: Pace;
}

/**
 * 001 "Overland Travel" read with "Movement Actions" and "Exhaustion": an
 * encumbered PC (load above STR) goes at half pace; at 0' speed (completely
 * encumbered, or exhausted) a PC goes nowhere.
 */
export function travellerPace(t: Traveller, trip: Trip = {}): TravellerPace {
  const enc = encumbrance(t.str, t.load, t.speed);
  const strMod = abilityModifier(t.str);
  const input: OverlandInput = { strMod, terrain: trip.terrain ?? 'open', light: trip.light ?? 'well-lit', pace: trip.pace ?? 'normal', encumbered: enc.disadvantage, exhausted: t.exhausted, fullyEncumbered: enc.fullyEncumbered };
  const why = [`STR ${strMod >= 0 ? '+' : ''}${strMod}`];
  if (enc.fullyEncumbered) why.push(`completely encumbered (${t.load} load on STR ${t.str}: 0' speed)`);
  else if (enc.disadvantage) why.push('encumbered: half pace');
  if (t.exhausted) why.push("exhausted: 0' speed");
  const stuck = enc.fullyEncumbered
    ? `${t.name} is completely encumbered (${t.load} load on STR ${t.str}, 0' speed) and cannot move at all: drop load first, or leave ${t.name} behind`
    : t.exhausted
      ? `${t.name} is exhausted (0' speed) and cannot travel: a safe rest with food cures it, or leave ${t.name} behind`
      : null;
  return { id: t.id, name: t.name, miles: overlandMiles(input), input, why, stuck };
}

/** The party sticks together, so it keeps to its slowest member; anyone at 0' speed stops it (with the reason). */
export function partyPace(travellers: readonly Traveller[], trip: Trip = {}): PartyPace {
  const members = travellers.map((t) => travellerPace(t, trip));
  if (members.length === 0) return { perDay: overlandMiles({ strMod: 0, ...trip }), members, slowest: null, blocked: null };
  const slow = members.reduce((a, b) => (b.miles < a.miles ? b : a));
  const stuck = members.filter((m) => m.stuck !== null).map((m) => m.stuck!);
  return { perDay: slow.miles, members, slowest: members.length > 1 ? slow.id : null, blocked: stuck.length === 0 ? null : stuck.join('; ') };
}

export type Vessel = 'boat' | 'ship';
export type Current = 'none' | 'unfavourable' | 'favourable';

/**
 * The vessel the water carries (001 "Overwater Travel" names a boat on smooth water, a ship on the sea, and no other
 * pairing; review 9: a ship on a river went 100 miles a day).
 */
export const vesselOn = (water: 'river' | 'sea'): Vessel => (water === 'sea' ? 'ship' : 'boat');

/** 001 "Overwater Travel": boat 3 mph / 30 a day, ship 5 mph / 100 a full day and night; against wind or current x1/2, with it x2. */
export function overwaterMiles(vessel: Vessel, current: Current = 'none', hours?: number): number {
  const factor = current === 'unfavourable' ? 1 / 2 : current === 'favourable' ? 2 : 1;
  const base = hours === undefined ? (vessel === 'boat' ? 30 : 100) : (vessel === 'boat' ? 3 : 5) * hours;
  return base * factor;
}

// ---------------------------------------------------------------- chases

export type ChaseGround = 'open' | 'uneven' | 'long';

/** 001 "Chases": STR on flat open ground, DEX on uneven ground, CON for chases of hours or days. */
export const CHASE_ABILITY = { open: 'str', uneven: 'dex', long: 'con' } as const;

/**
 * 001 "Chases": the party may arrive as a group, the PC with the worst relevant modifier rolling for all.
 * The first listed with that modifier rolls (ties keep the order the GM listed them in).
 */
export function chaseRoller<T>(ids: readonly T[], modifierOf: (id: T) => number): T {
  return ids.reduce((worst, id) => (modifierOf(id) < modifierOf(worst) ? id : worst));
}

/** DC 11 against a 30' quarry, 1 more or less per 5' faster or slower (rounded towards 30'). */
export function chaseDc(quarrySpeed: number, adjust = 0): number {
  return 11 + Math.trunc((quarrySpeed - 30) / 5) + adjust;
}

// ---------------------------------------------------------------- light

export type CheckTag =
  | 'stealth'
  | 'listening'
  | 'attack'
  | 'defense'
  | 'sight'
  | 'predicting-danger'
  | 'finesse'
  | 'morale'
  | 'ranged-attack'
  | 'defense-vs-ranged'
  | 'tracking'
  | 'seeing-movement'
  | 'long-range-attack';

export const CHECK_TAGS: readonly CheckTag[] = [
  'stealth',
  'listening',
  'attack',
  'defense',
  'sight',
  'predicting-danger',
  'finesse',
  'morale',
  'ranged-attack',
  'defense-vs-ranged',
  'tracking',
  'seeing-movement',
  'long-range-attack',
];

export function isCheckTag(x: unknown): x is CheckTag {
  return typeof x === 'string' && (CHECK_TAGS as readonly string[]).includes(x);
}

/** 001 "Light": what each level favours and hinders. Sight in darkness is impossible, not merely hard. */
export const LIGHT_EFFECTS: { readonly [l in LightLevel]: { readonly advantage: readonly CheckTag[]; readonly disadvantage: readonly CheckTag[] } } = {
  darkness: { advantage: ['stealth', 'listening'], disadvantage: ['attack', 'ranged-attack', 'long-range-attack', 'defense', 'defense-vs-ranged', 'sight', 'predicting-danger', 'finesse', 'morale'] },
  dim: { advantage: ['stealth', 'listening'], disadvantage: ['ranged-attack', 'long-range-attack', 'defense-vs-ranged', 'sight'] },
  'well-lit': { advantage: [], disadvantage: [] },
  brilliant: { advantage: ['tracking', 'seeing-movement'], disadvantage: ['stealth', 'long-range-attack'] },
};

export interface LightEffect {
  readonly advantage: number;
  readonly disadvantage: number;
  /** Sight in darkness without darksight cannot succeed. */
  readonly impossible: boolean;
}

/**
 * Light's effect on one check. Ranged attacks are attacks, so "all attacks"
 * in darkness covers them. Darksight turns darkness's disadvantages into
 * advantages (001 "Darksight"); morale in darkness only hinders surfacers.
 */
export function lightEffect(level: LightLevel, tags: readonly CheckTag[], opts: { readonly darksight?: boolean; readonly surfacer?: boolean } = {}): LightEffect {
  const fx = LIGHT_EFFECTS[level];
  let advantage = 0;
  let disadvantage = 0;
  let impossible = false;
  const hits = (list: readonly CheckTag[]): boolean => tags.some((t) => list.includes(t));
  if (hits(fx.advantage)) advantage++;
  const relevant = fx.disadvantage.filter((t) => t !== 'morale' || opts.surfacer !== false);
  if (hits(relevant)) {
    if (level === 'darkness' && opts.darksight === true) advantage++;
    else {
      disadvantage++;
      if (level === 'darkness' && tags.includes('sight')) impossible = true;
    }
  }
  return { advantage, disadvantage, impossible };
}

/** Light sources (001 "Travel Turns", "Light"): torches burn 1 hour, lanterns 3; both shed 30' of dim light. */
export const LIGHT_SOURCES = { torch: { hours: 1, radius: 30 }, lantern: { hours: 3, radius: 30 } } as const;
export type LightSourceKind = keyof typeof LIGHT_SOURCES;

/** The light a character stands in: the scene's level, raised to dim by a burning source in darkness. */
export function litLevel(ambient: LightLevel, sourceBurning: boolean): LightLevel {
  return ambient === 'darkness' && sourceBurning ? 'dim' : ambient;
}

// ---------------------------------------------------------------- resilience

/** 001 "Resilience & Exhaustion": CON score hours; past them the check is DC 10 + hours beyond. null = no check due yet. */
export function resilienceDc(con: number, hoursWithoutRest: number): number | null {
  const beyond = Math.floor(hoursWithoutRest) - con;
  return beyond > 0 ? 10 + beyond : null;
}

// ---------------------------------------------------------------- treasure

/** 001 "Treasure": 100 coins to the pound, 500 to a load; 10 cp = 1 sp, 10 sp = 1 gp. */
export const COINS_PER_POUND = 100;
export const COINS_PER_LOAD = 500;
export const CP_PER = { cp: 1, sp: 10, gp: 100 } as const;
export type Coin = keyof typeof CP_PER;

export function coinLoad(coins: number): number {
  return coins / COINS_PER_LOAD;
}

export function coinPounds(coins: number): number {
  return coins / COINS_PER_POUND;
}

export function convertCoins(amount: number, from: Coin, to: Coin): number {
  return (amount * CP_PER[from]) / CP_PER[to];
}

/** Gold value of a purse, in gp. */
export function purseGp(p: { readonly cp?: number; readonly sp?: number; readonly gp?: number }): number {
  return ((p.cp ?? 0) + 10 * (p.sp ?? 0) + 100 * (p.gp ?? 0)) / 100;
}
