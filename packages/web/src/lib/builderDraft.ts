// The encounter builder's line-up kept on this device per table, so a reload
// (or a closed tab) does not lose the GM's draft; cleared when the fight
// starts. Whatever storage holds is read back field by field: a row that does
// not read as a Draft is dropped, never thrown. GM-side only (phone bundle).
import type { Json } from '@tablekeeper/engine';
import { MAX_EDGE_GROUPS, type Draft } from './initiative.ts';

/** The two calls of Web Storage used here (typed locally so Node tests need no DOM types). */
export type LineupStore = { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };

export const lineupKey = (tableId: string): string => `tk.lineup.${tableId}`;
/** As many rows as an encounter may hold. */
const MAX_ROWS = 200;

const isObj = (x: unknown): x is { readonly [k: string]: unknown } => x !== null && typeof x === 'object' && !Array.isArray(x);

function draftOf(x: unknown): Draft | null {
  if (!isObj(x)) return null;
  const { id, name, kind, characterId, hp, hidden, init, extra, entryId, revealWhenActs, typed, edgeGroup } = x;
  if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name.trim() === '' || (kind !== 'pc' && kind !== 'npc')) return null;
  if (characterId !== null && typeof characterId !== 'string') return null;
  if (hp !== null && (typeof hp !== 'number' || !Number.isInteger(hp))) return null;
  if (!isObj(init) || !Object.values(init).every((v) => typeof v === 'string' || typeof v === 'number')) return null;
  return {
    id,
    name,
    kind,
    characterId,
    hp,
    hidden: hidden === true,
    init: init as Draft['init'],
    ...(isObj(extra) ? { extra: extra as { readonly [k: string]: Json } } : {}),
    ...(typeof entryId === 'string' ? { entryId } : {}),
    // Kept before ADR 90: no field was marked typed, so every sheet-read one follows the sheet.
    ...(Array.isArray(typed) && typed.every((k) => typeof k === 'string') && typed.length > 0 ? { typed: typed as string[] } : {}),
    ...(hidden === true && revealWhenActs === true ? { revealWhenActs: true } : {}),
    ...(kind === 'npc' && typeof edgeGroup === 'number' && Number.isInteger(edgeGroup) && edgeGroup >= 1 && edgeGroup <= MAX_EDGE_GROUPS ? { edgeGroup } : {}),
  };
}

/**
 * The initiative options the GM chose for the fight being lined up (ADR 73, kept with it since ADR 81): only
 * what differs from the builder's defaults is kept, so a table setting changed later still shows through.
 */
export interface LineupOptions {
  /** "Re-roll initiative each round", ticked or unticked by the GM (else the table setting). */
  readonly reroll?: boolean;
  /** "Foes' initiative": one per foe type or one for all foes (each its own is the default). */
  readonly grouping?: 'type' | 'side';
  /** The team picked to start (teams, 003 gives no default). */
  readonly initiating?: string;
  /** The side that ambushes and who of it acts in the surprise round (002, 003), when the GM chose one. */
  readonly surprise?: { readonly side: string; readonly actors: readonly string[]; readonly unsurprised?: readonly string[]; readonly escalation?: boolean };
}

/** A kept line-up: its rows and the options chosen with them. */
export interface KeptLineup {
  readonly rows: Draft[];
  readonly options: LineupOptions;
}

function optionsOf(x: unknown): LineupOptions {
  if (!isObj(x)) return {};
  const { reroll, grouping, initiating, surprise } = x;
  const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string').slice(0, MAX_ROWS) : []);
  const sp = isObj(surprise) && typeof surprise['side'] === 'string' && surprise['side'] !== '' && surprise['side'].length <= 200 ? surprise : null;
  return {
    ...(sp !== null ? { surprise: { side: sp['side'] as string, actors: ids(sp['actors']), ...(Array.isArray(sp['unsurprised']) ? { unsurprised: ids(sp['unsurprised']) } : {}), ...(sp['escalation'] === true ? { escalation: true } : {}) } } : {}),
    ...(typeof reroll === 'boolean' ? { reroll } : {}),
    ...(grouping === 'type' || grouping === 'side' ? { grouping } : {}),
    ...(typeof initiating === 'string' && initiating.trim() !== '' && initiating.length <= 200 ? { initiating } : {}),
  };
}

/** The kept line-up with its options, or null when none is kept (or storage is unreadable). A bare list (kept before ADR 81) has no options. */
export function readKept(store: LineupStore | null, tableId: string): KeptLineup | null {
  if (store === null) return null;
  try {
    const raw = store.getItem(lineupKey(tableId));
    if (raw === null) return null;
    const parsed = JSON.parse(raw) as unknown;
    const list = Array.isArray(parsed) ? parsed : isObj(parsed) && Array.isArray(parsed['rows']) ? parsed['rows'] : null;
    if (list === null) return null;
    const rows = list.slice(0, MAX_ROWS).map(draftOf).filter((d): d is Draft => d !== null);
    const options = Array.isArray(parsed) ? {} : optionsOf((parsed as { readonly [k: string]: unknown })['options']);
    return rows.length === 0 && Object.keys(options).length === 0 ? null : { rows, options };
  } catch {
    return null;
  }
}

/** The kept line-up's rows, or null when none is kept. */
export function readLineup(store: LineupStore | null, tableId: string): Draft[] | null {
  const kept = readKept(store, tableId);
  return kept === null || kept.rows.length === 0 ? null : kept.rows;
}

/** Keeps the line-up and its options; an empty one with no options is forgotten. Storage full or disabled: the draft stays in the page only. */
export function keepLineup(store: LineupStore | null, tableId: string, rows: readonly Draft[], options: LineupOptions = {}): void {
  try {
    const chosen = optionsOf(options);
    if (rows.length === 0 && Object.keys(chosen).length === 0) store?.removeItem(lineupKey(tableId));
    else store?.setItem(lineupKey(tableId), JSON.stringify({ rows: rows.slice(0, MAX_ROWS), options: chosen }));
  } catch {
    // A convenience: the builder goes on without it.
  }
}

export const startedKey = (tableId: string): string => `tk.lineup.started.${tableId}`;

/**
 * The line-up a fight just started from, kept aside (review 12 #3): "Undo: start an encounter" brings the builder
 * back, and it should show the foes and options the GM had drafted, not the party alone. `after` names the last
 * ended encounter when it started (0: none), so a later builder tells an undone start from a fight that ended.
 */
export function keepStarted(store: LineupStore | null, tableId: string, rows: readonly Draft[], options: LineupOptions, after: number): void {
  try {
    store?.removeItem(lineupKey(tableId));
    store?.setItem(startedKey(tableId), JSON.stringify({ rows: rows.slice(0, MAX_ROWS), options: optionsOf(options), after }));
  } catch {
    // A convenience: an undone start then shows the party only.
  }
}

/**
 * The line-up of a start that was undone: kept aside by `keepStarted` and the last ended encounter is still the one
 * it came after. Read once: it goes back to the draft (kept like any other), and a fight that ended forgets it.
 */
export function takeStarted(store: LineupStore | null, tableId: string, lastEnded: number): KeptLineup | null {
  if (store === null) return null;
  try {
    const raw = store.getItem(startedKey(tableId));
    if (raw === null) return null;
    store.removeItem(startedKey(tableId));
    const parsed = JSON.parse(raw) as unknown;
    if (!isObj(parsed) || parsed['after'] !== lastEnded || !Array.isArray(parsed['rows'])) return null;
    const rows = parsed['rows'].slice(0, MAX_ROWS).map(draftOf).filter((d): d is Draft => d !== null);
    if (rows.length === 0) return null;
    const kept = { rows, options: optionsOf(parsed['options']) };
    keepLineup(store, tableId, kept.rows, kept.options);
    return kept;
  } catch {
    return null;
  }
}

/** The number of the last encounter that ended (0 when none has), as `keepStarted` and `takeStarted` compare it. */
export function lastEnded(last: { readonly roster: readonly unknown[]; readonly number?: number } | null): number {
  return last !== null && last.roster.length > 0 ? (last.number ?? 1) : 0;
}

export function clearLineup(store: LineupStore | null, tableId: string): void {
  try {
    store?.removeItem(lineupKey(tableId));
  } catch {
    // As above.
  }
}

/** localStorage when the browser allows it (it throws in some private modes). */
export function lineupStore(): LineupStore | null {
  try {
    return (globalThis as { localStorage?: LineupStore }).localStorage ?? null;
  } catch {
    return null;
  }
}

/** The marks "reveal when it acts" for the hidden rows that ask for it (ADR 71), sent with the start or the add. */
export function revealMarks(rows: readonly Draft[]): { type: 'revealWhenActs.set'; characterId: string; on: true }[] {
  return rows.filter((d) => d.hidden && d.revealWhenActs === true).map((d) => ({ type: 'revealWhenActs.set' as const, characterId: d.id, on: true as const }));
}
