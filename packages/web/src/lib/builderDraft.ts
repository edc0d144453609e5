// The encounter builder's line-up kept on this device per table, so a reload
// (or a closed tab) does not lose the GM's draft; cleared when the fight
// starts. Whatever storage holds is read back field by field: a row that does
// not read as a Draft is dropped, never thrown. GM-side only (phone bundle).
import type { Json } from '@tablekeeper/engine';
import type { Draft } from './initiative.ts';

/** The two calls of Web Storage used here (typed locally so Node tests need no DOM types). */
export type LineupStore = { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };

export const lineupKey = (tableId: string): string => `tk.lineup.${tableId}`;
/** As many rows as an encounter may hold. */
const MAX_ROWS = 200;

const isObj = (x: unknown): x is { readonly [k: string]: unknown } => x !== null && typeof x === 'object' && !Array.isArray(x);

function draftOf(x: unknown): Draft | null {
  if (!isObj(x)) return null;
  const { id, name, kind, characterId, hp, hidden, init, extra, entryId, revealWhenActs } = x;
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
    ...(hidden === true && revealWhenActs === true ? { revealWhenActs: true } : {}),
  };
}

/** The kept line-up, or null when none is kept (or storage is unreadable). */
export function readLineup(store: LineupStore | null, tableId: string): Draft[] | null {
  if (store === null) return null;
  try {
    const raw = store.getItem(lineupKey(tableId));
    if (raw === null) return null;
    const parsed = JSON.parse(raw) as unknown;
    if (!Array.isArray(parsed)) return null;
    const rows = parsed.slice(0, MAX_ROWS).map(draftOf).filter((d): d is Draft => d !== null);
    return rows.length === 0 ? null : rows;
  } catch {
    return null;
  }
}

/** Keeps the line-up; an empty one is forgotten. Storage full or disabled: the draft stays in the page only. */
export function keepLineup(store: LineupStore | null, tableId: string, rows: readonly Draft[]): void {
  try {
    if (rows.length === 0) store?.removeItem(lineupKey(tableId));
    else store?.setItem(lineupKey(tableId), JSON.stringify(rows.slice(0, MAX_ROWS)));
  } catch {
    // A convenience: the builder goes on without it.
  }
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
