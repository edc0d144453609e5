// What the OSR exploration panel shows, read from this viewer's world. The
// numbers come from the OSR ruleset's own pure helpers (exploration.ts,
// sheet.ts, state.ts, settings.ts import nothing at run time but each other),
// so the travel calculator and the server's `osr.travel` share one formula.
// They come through the rulesets' browser entry (ADR 7): the package's main
// entry would pull every ruleset's commands into the browser. Nothing here rolls a die.
import type { Combatant, EncounterState, LogEntry, World } from '@tablekeeper/engine';
import { isDefeated } from '@tablekeeper/engine';
import {
  CADENCE_HOURS,
  LIGHT_SOURCES,
  TRAVEL_TURN_TABLE,
  effectiveTerrain,
  hourOfClock,
  overwaterMiles,
  vesselOn,
  partyPace,
  quarterOf,
  returnDc,
  timeDiceFor,
  type Cadence,
  type Current,
  type LightLevel,
  type LightSourceKind,
  type Pace,
  type Quarter,
  type Terrain,
  type ThreatBand,
  type Vessel,
  readSheet,
  carriedLoad,
  getOsr,
  osrSettings,
  type LightSource,
  type OsrState,
} from '@tablekeeper/rulesets/browser';

export { CADENCE_HOURS, LIGHT_SOURCES, returnDc, type Cadence, type Current, type LightLevel, type LightSourceKind, type Pace, type Terrain, type ThreatBand, type Vessel };

export const LIGHT_LEVELS: readonly LightLevel[] = ['darkness', 'dim', 'well-lit', 'brilliant'];
export const CADENCES: readonly Cadence[] = ['dungeon', 'overland', 'river', 'sea'];
export const TERRAINS: readonly Terrain[] = ['open', 'difficult', 'harsh'];
export const PACES: readonly Pace[] = ['normal', 'tactical', 'stealthy'];
export const APPROACHES = ['cautious', 'normal', 'careless'] as const;
export type Approach = (typeof APPROACHES)[number];

/** The ruleset's state in this view (its defaults when the module has written nothing yet). */
export function osrOf(world: World): OsrState {
  return getOsr(world);
}

/** Scenes that make one dungeon hour at this table (setting `osr.scenesPerTravelTurn`). */
export function scenesPerHour(world: World): number {
  return osrSettings(world).scenesPerTravelTurn;
}

// ---------------------------------------------------------------- the hour and the time dice

export interface HourShown {
  readonly hour: number;
  /** "07:00" style, the hour the dice show. */
  readonly label: string;
  readonly dice: readonly number[];
  readonly quarter: Quarter;
}

export function hourShown(seconds: number): HourShown {
  const hour = hourOfClock(seconds);
  return { hour, label: `${String(hour).padStart(2, '0')}:00`, dice: timeDiceFor(hour), quarter: quarterOf(hour) };
}

// ---------------------------------------------------------------- durations and light sources

/** "1 h 05 min", "40 min", "30 s": what a GM reads at a glance. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')} min`;
}

export interface LightShown {
  readonly id: string;
  readonly label: string;
  readonly kind: LightSourceKind;
  readonly owner: string | null;
  readonly burning: boolean;
  /** Seconds of fuel left at the clock's time. */
  readonly remaining: number;
  /** Share of a full source's fuel left, 0..1 (for the bar). */
  readonly fraction: number;
}

export function remainingOf(src: LightSource, now: number): number {
  return src.burnsOutAt === null ? Math.max(0, src.remaining) : Math.max(0, src.burnsOutAt - now);
}

/** Every light this viewer can see, burning ones first, then by fuel left. */
export function lightsOf(world: World): LightShown[] {
  const now = world.clock.seconds;
  return Object.values(osrOf(world).sources)
    .map((s) => {
      const remaining = remainingOf(s, now);
      const full = (LIGHT_SOURCES[s.kind]?.hours ?? 1) * 3600;
      const owner = s.owner === null ? null : (world.characters[s.owner]?.name ?? s.owner);
      return { id: s.id, label: s.label, kind: s.kind, owner, burning: s.burnsOutAt !== null, remaining, fraction: Math.min(1, remaining / full) };
    })
    .sort((a, b) => Number(b.burning) - Number(a.burning) || a.remaining - b.remaining || a.id.localeCompare(b.id));
}

// ---------------------------------------------------------------- the log: results the server rolled

/** The newest entries of one kind, all from the transaction that wrote the last of them. */
export function lastBatch(world: World, kind: string): LogEntry[] {
  const log = Array.isArray(world.log) ? world.log : [];
  let tx: number | null = null;
  const out: LogEntry[] = [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    if (e.kind !== kind) continue;
    if (tx === null) tx = e.tx;
    if (e.tx !== tx) break;
    out.unshift(e);
  }
  return out;
}

/** The travel turn table's row for a band (the GM's prompts, in the ruleset's words). */
export function threatRow(band: ThreatBand | null): { band: ThreatBand; range: string; prompts: readonly string[] } | null {
  const row = band === null ? undefined : TRAVEL_TURN_TABLE.find((r) => r.band === band);
  if (!row) return null;
  const [lo, hi] = row.range;
  return { band: row.band, range: lo === hi ? String(lo) : `${lo}-${hi}`, prompts: row.prompts };
}

export const BAND_NAMES: { readonly [b in ThreatBand]: string } = {
  terrible: 'Something terrible',
  soon: 'Trouble soon',
  worsens: 'Things worsen',
  nothing: 'Nothing bad',
};

// ---------------------------------------------------------------- the travel calculator

export type TravelMode = 'overland' | 'river' | 'sea';

export interface TravelInput {
  readonly mode: TravelMode;
  readonly days: number;
  readonly terrain: Terrain;
  readonly pace: Pace;
  readonly light: LightLevel;
  readonly vessel: Vessel;
  readonly current: Current;
  readonly approach: Approach;
}

export const DEFAULT_TRAVEL: TravelInput = { mode: 'overland', days: 1, terrain: 'open', pace: 'normal', light: 'well-lit', vessel: 'boat', current: 'none', approach: 'normal' };

export interface MemberMiles {
  readonly id: string;
  readonly name: string;
  readonly miles: number;
  readonly why: readonly string[];
}

export interface TravelPreview {
  readonly perDay: number;
  readonly total: number;
  /** Overland only: each living PC's own pace; the party keeps to the slowest. */
  readonly members: readonly MemberMiles[];
  readonly slowest: string | null;
  /** Why the party cannot travel together (someone at 0' speed), as `osr.travel` will refuse it; null when it can. */
  readonly blocked: string | null;
  /** Terrain after light (dim counts as difficult, darkness as harsh). */
  readonly terrainUsed: Terrain | null;
  /** Travel turns the trip rolls (daily overland and on rivers, weekly at sea). */
  readonly travelTurns: number;
}

/** The living PCs the server's `osr.travel` takes by default (the dead and the dying stay behind). */
export function travellers(world: World): string[] {
  const st = osrOf(world);
  return Object.values(world.characters)
    .filter((c) => c.kind === 'pc' && !st.dead.includes(c.id) && st.dying[c.id] === undefined)
    .map((c) => c.id);
}

export function clampDays(n: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.min(60, Math.floor(n))) : 1;
}

/** Miles per day and in all, computed as `osr.travel` will compute them for this party. */
export function travelPreview(world: World, input: TravelInput): TravelPreview {
  const days = clampDays(input.days);
  const turns = input.mode === 'sea' ? Math.floor(days / 7) : days;
  if (input.mode !== 'overland') {
    const perDay = overwaterMiles(vesselOn(input.mode), input.current);
    return { perDay, total: perDay * days, members: [], slowest: null, blocked: null, terrainUsed: null, travelTurns: turns };
  }
  const st = osrOf(world);
  const party = partyPace(
    travellers(world).map((id) => {
      const s = readSheet(world.characters[id]?.stats);
      return { id, name: world.characters[id]?.name ?? id, str: s.str, load: carriedLoad(s), speed: s.speed, exhausted: st.exhausted.includes(id) };
    }),
    { terrain: input.terrain, light: input.light, pace: input.pace },
  );
  const perDay = party.blocked === null ? party.perDay : 0;
  return {
    perDay,
    total: perDay * days,
    members: party.members.map(({ id, name, miles, why }) => ({ id, name, miles, why })),
    slowest: party.slowest === null ? null : (party.members.find((m) => m.id === party.slowest)?.name ?? null),
    blocked: party.blocked,
    terrainUsed: effectiveTerrain(input.terrain, input.light),
    travelTurns: turns,
  };
}

/** The `osr.travel` command for the same input the preview used (so the two cannot drift apart). */
export function travelCommand(input: TravelInput): { type: 'osr.travel'; [k: string]: unknown } {
  const base = { type: 'osr.travel' as const, mode: input.mode, days: clampDays(input.days), approach: input.approach };
  if (input.mode === 'overland') return { ...base, terrain: input.terrain, pace: input.pace, light: input.light };
  return { ...base, vessel: vesselOn(input.mode), current: input.current };
}

/** "12.5", "7.5", "30": miles without float noise. */
export function formatMiles(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * The OSR row's GM actions for a combatant's character (001 "Stabilizing &
 * Injuries", "Morale", "Positioning"): Stabilize while it is dying, a morale check for
 * its side's living NPCs, and Spotted while it is in stealth. Null parts are not offered.
 */
export function osrRowCommands(
  world: World,
  enc: EncounterState,
  c: Combatant,
): { stabilize: { targetId: string; helpers: { id: string; name: string }[] } | null; morale: { characterIds: string[]; side: string } | null; spotted: string | null } {
  const st = getOsr(world);
  const id = c.characterId;
  const dying = id !== null && Object.hasOwn(st.dying, id) && !st.dead.includes(id);
  const helpers = Object.values(world.characters)
    .filter((x) => x.id !== id && !st.dead.includes(x.id) && Object.values(enc.combatants).some((y) => y.characterId === x.id && y.side === c.side))
    .map((x) => ({ id: x.id, name: x.name }));
  const side = Object.values(enc.combatants).filter((y) => y.side === c.side && y.kind === 'npc' && y.characterId !== null && !st.dead.includes(y.characterId) && !Object.hasOwn(st.dying, y.characterId));
  return {
    stabilize: dying && id !== null ? { targetId: id, helpers } : null,
    morale: c.kind === 'npc' && side.length > 0 ? { characterIds: side.map((y) => y.characterId!), side: c.side } : null,
    // 001 "Positioning": a character in stealth the GM rules spotted (osr.reveal).
    spotted: id !== null && st.hidden.includes(id) ? id : null,
  };
}

/** A side in the GM's words, as the engine's prompts write it. */
export function sideWords(side: string): string {
  if (side === 'pcs' || side === 'party') return 'the party';
  if (side === 'npcs' || side === 'foes') return 'the foes';
  return side;
}

/**
 * Why nobody can check: foes standing on the tracker only have no sheet (no WIS) to roll with, said by name (review 10:
 * "Nobody on the foes is left standing" with four goblins up); else nobody is left.
 */
export function noMoraleWords(enc: EncounterState, side: string): string {
  const bare = enc.roster.map((x) => enc.combatants[x]).filter((c): c is NonNullable<typeof c> => c !== undefined && c.side === side && c.characterId === null && !isDefeated(c));
  if (bare.length === 0) return `Nobody on ${sideWords(side)} is left standing to check.`;
  const names = bare.map((c) => c.name);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${list} ${names.length === 1 ? 'has' : 'have'} no sheet to check morale with: give ${names.length === 1 ? 'it' : 'each'} an AC with Set AC under Adjust on its row, and the check can be rolled.`;
}

