// world.ext.osr: what the OSR ruleset remembers between commands. Plain JSON;
// changed only by the reducers in module.ts.
import { asJson, fromJson } from '@tablekeeper/engine/events';
import type { Character, Json, World } from '@tablekeeper/engine';
// The engine's own-key lookup from its dependency-free file: the browser entry re-exports this module and must not load the engine.
import { own } from '@tablekeeper/engine/own';
import type { Ability } from './checks.js';
import type { Cadence, LightLevel, LightSourceKind, ThreatBand } from './exploration.js';
import { readSheet, type Sheet } from './sheet.js';

export const OSR_ID = 'osr';

export interface Dying {
  /** Clock seconds when they reached 0 HP. */
  readonly downAt: number;
  /** Went down while a fight was on and that fight has not ended yet. */
  readonly fight: boolean;
}

export interface LightSource {
  readonly id: string;
  readonly kind: LightSourceKind;
  readonly owner: string | null;
  readonly label: string;
  /** Clock seconds when it goes out, while burning; null while doused. */
  readonly burnsOutAt: number | null;
  /** Seconds of fuel left while doused. */
  readonly remaining: number;
}

export interface CorruptionStage {
  readonly hours: number;
  /** Ability damaged on a failed check at the end of the stage (1d6 by default). */
  readonly ability: Ability | null;
  readonly dice: number;
  /** Exhausted while in this stage (the snake venom's first stage). */
  readonly exhaustion: boolean;
  readonly note: string;
}

export interface Corruption {
  readonly id: string;
  readonly target: string;
  readonly name: string;
  readonly dc: number;
  readonly stages: readonly CorruptionStage[];
  /** Index of the stage running now. */
  readonly stage: number;
  readonly stageEndsAt: number;
}

export interface Retreat {
  readonly combatant: string;
  readonly character: string | null;
}

export interface OsrState {
  /** The scene's light level, set by the GM (001 "Light"). */
  readonly ambient: LightLevel;
  readonly sources: { readonly [id: string]: LightSource };
  readonly dying: { readonly [characterId: string]: Dying };
  readonly stable: readonly string[];
  readonly dead: readonly string[];
  /** Travel turns since the party left safety (roll to return DC). */
  readonly turnsOut: number;
  readonly cadence: Cadence;
  readonly lastThreat: ThreatBand | null;
  /** Clock seconds each PC last ate and rested (resilience counts from there). */
  readonly restedAt: { readonly [characterId: string]: number };
  readonly exhausted: readonly string[];
  /** Injury rows 14-19: disadvantage on every check until rest. */
  readonly shaken: readonly string[];
  readonly bodyParts: { readonly [characterId: string]: readonly string[] };
  /** Successful stealth: cannot be targeted directly until they attack (001 "Positioning"). */
  readonly hidden: readonly string[];
  readonly corruptions: { readonly [id: string]: Corruption };
  readonly xp: { readonly [characterId: string]: number };
  /** Magic items whose XP has been granted (once each). */
  readonly magicCounted: readonly string[];
  readonly retreating: { readonly [combatantId: string]: Retreat };
  /** GM prompts to call for morale (001 "When To Check Morale"), newest last. */
  readonly prompts: readonly { readonly trigger: string; readonly text: string; readonly side?: string }[];
  /** Whether someone has died in the current fight (for the "first death" prompt). */
  readonly fightDeaths: number;
  /**
   * Characters fallen to 0 HP in the current fight: the first fall is, for morale, the first killed (ADR 44).
   * Absent outside a fight with a fall, so tables stored before it replay to the world they had.
   */
  readonly fightFallen?: readonly string[];
  /** Feet moved in the current turn (001 "Movement Actions": split across the turn), by combatant. */
  /** Scenes, rooms or encounters since the last travel turn (001: every 3-4 of them is an hour). */
  readonly scenes: number;
  /** Sides already prompted this fight that the tide has turned against them. */
  readonly tidePrompted: readonly string[];
  readonly moved: { readonly [combatantId: string]: { readonly serial: number; readonly used: number; readonly budget: number } };
}

export const EMPTY_OSR: OsrState = {
  ambient: 'well-lit',
  sources: {},
  dying: {},
  stable: [],
  dead: [],
  turnsOut: 0,
  cadence: 'dungeon',
  lastThreat: null,
  restedAt: {},
  exhausted: [],
  shaken: [],
  bodyParts: {},
  hidden: [],
  corruptions: {},
  xp: {},
  magicCounted: [],
  retreating: {},
  prompts: [],
  fightDeaths: 0,
  moved: {},
  scenes: 0,
  tidePrompted: [],
};

/** The state with defaults filled in, kept per stored object: module state is immutable, and OSR reads it several times per event. */
const filled = new WeakMap<object, OsrState>();

export function getOsr(world: World): OsrState {
  const raw = world.ext[OSR_ID];
  if (raw === undefined || raw === null) return EMPTY_OSR;
  if (typeof raw !== 'object') return { ...EMPTY_OSR, ...fromJson<OsrState>(raw) };
  let st = filled.get(raw);
  if (st === undefined) filled.set(raw, (st = { ...EMPTY_OSR, ...fromJson<OsrState>(raw) }));
  return st;
}

export function setOsr(world: World, s: OsrState): World {
  return { ...world, ext: { ...world.ext, [OSR_ID]: asJson(s) } };
}

export function updateOsr(world: World, fn: (s: OsrState) => OsrState): World {
  return setOsr(world, fn(getOsr(world)));
}

export function sheetOf(world: World, id: string): Sheet {
  return readSheet(own(world.characters, id)?.stats);
}

export function withStats(world: World, id: string, patch: { readonly [k: string]: Json }): World {
  const c: Character | undefined = own(world.characters, id);
  if (c === undefined) return world;
  return { ...world, characters: { ...world.characters, [id]: { ...c, stats: { ...c.stats, ...patch } } } };
}

export const addTo = (list: readonly string[], id: string): string[] => (list.includes(id) ? [...list] : [...list, id]);
export const removeFrom = (list: readonly string[], id: string): string[] => list.filter((x) => x !== id);
