// What changed between two views of one viewer, as a protocol delta the size
// of the change. The world is immutable, so unchanged parts are the same
// objects: they are skipped by reference, and only the parts that differ are
// compared deeply and serialised. The log and the history are streams: the
// delta says how many held entries to drop and keep, and carries only new ones.
// See docs/adr/0012-incremental-deltas.md.
import { LogWindow, logExtension, logWindowOf, type TableView, type TransactionView } from '@tablekeeper/engine';
import type { Delta, StreamPatch, StreamPiece, WorldPatch } from '@tablekeeper/protocol/wire';

/**
 * World values are diffed key by key down to this depth (world.ext.encounter.combatants.<id> is 4, a countdown's
 * value world.ext.countdowns.countdowns.<id>.value is 5); deeper ones are replaced whole.
 */
export const DIFF_DEPTH = 5;
/**
 * A record at the last diffed depth (a countdown, a combatant) that changed in more than this many keys is
 * sent whole: one tick sends its value alone, a countdown made over sends one patch, not twenty.
 */
export const MAX_LEAF_PATCHES = 3;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep equality of two JSON values as they would serialise (a key holding undefined counts as absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let na = 0;
  for (const k in ra) {
    if (ra[k] === undefined) continue;
    na++;
    if (!sameJson(ra[k], rb[k])) return false;
  }
  let nb = 0;
  for (const k in rb) if (rb[k] !== undefined) nb++;
  return na === nb;
}

/**
 * Pushes the patches that turn `held` into `next` (both objects at `path`). `path` is one stack, its first
 * `depth - 1` slots the way down, written in place and copied only into a patch (PATH): most records walked (changed by
 * reference, a clock advance's way down to its counts) emit nothing, and a path array per step was garbage per command.
 */
function diffObject(held: Record<string, unknown>, next: Record<string, unknown>, path: string[], depth: number, out: Patches, skip: string | null): void {
  // Held keys also in `next` are counted on the way, so the look for removed keys (one lookup in `next` per held key)
  // runs only when `held` has more keys than that: almost never, as a command rarely removes a key.
  let heldAlso = 0;
  for (const k in next) {
    if (k === skip) continue;
    const a = held[k];
    if (a !== undefined) heldAlso++;
    const b = next[k];
    if (a === b) continue;
    if (b === undefined) {
      if (a !== undefined) out.add({ p: pathTo(path, depth, k) });
      continue;
    }
    if (depth < DIFF_DEPTH - 1 && isRecord(a) && isRecord(b)) {
      path[depth - 1] = k;
      diffObject(a, b, path, depth + 1, out, null);
    } else if (depth === DIFF_DEPTH - 1 && isRecord(a) && isRecord(b)) {
      // The last level: its changed keys, unless so many changed that the record whole is the smaller delta.
      const at = out.length;
      path[depth - 1] = k;
      diffObject(a, b, path, depth + 1, out, null);
      if (out.length - at > MAX_LEAF_PATCHES) {
        out.length = at;
        out.add({ p: pathTo(path, depth, k), v: b });
      }
    } else if (!sameJson(a, b)) out.add({ p: pathTo(path, depth, k), v: b });
  }
  let heldKeys = 0;
  for (const k in held) if (k !== skip && held[k] !== undefined) heldKeys++;
  if (heldKeys === heldAlso) return;
  for (const k in held) {
    if (k === skip || held[k] === undefined) continue;
    if (!(k in next)) out.add({ p: pathTo(path, depth, k) });
  }
}

/**
 * The patches of one diff, on one backing kept from diff to diff (a list pushed onto per delta grew a backing of 17
 * slots, issue 19), taken out as an array of their number; `length` may be set back to drop the last ones.
 */
class Patches {
  private readonly items: (WorldPatch | undefined)[] = [];
  length = 0;
  add(p: WorldPatch): void {
    this.items[this.length++] = p;
  }
  /** The patches as an array of their number, and the list emptied (it keeps none of them). */
  take(): WorldPatch[] {
    const out = this.items.slice(0, this.length) as WorldPatch[];
    for (let i = 0; i < this.items.length && this.items[i] !== undefined; i++) this.items[i] = undefined;
    this.length = 0;
    return out;
  }
}
const PATCHES = new Patches();

/** The way down (DIFF_DEPTH keys at most) diffObject writes in place: one array for every diff, never one per call (issue 19). */
const PATH: string[] = ['', '', '', '', ''];

/** A patch's path: the first `depth - 1` keys of the stack, then `k`, as an array of exactly that size. */
function pathTo(path: readonly string[], depth: number, k: string): string[] {
  switch (depth) {
    case 1:
      return [k];
    case 2:
      return [path[0]!, k];
    case 3:
      return [path[0]!, path[1]!, k];
    case 4:
      return [path[0]!, path[1]!, path[2]!, k];
    case 5:
      return [path[0]!, path[1]!, path[2]!, path[3]!, k];
    default: {
      const p = path.slice(0, depth - 1);
      p.push(k);
      return p;
    }
  }
}

/** New entries looked for among the held ones before the rest are taken as new (bounds a list that changed wholesale). */
export const STREAM_SEARCH_MISSES = 32;

/**
 * The stream patch from `held` to `next`: each entry of `next` is looked for
 * forward in `held` (same object first, else equal); found ones become kept
 * ranges, the others are added in place. Any match is correct (the fold
 * rebuilds `next` exactly); searching forward only keeps it near-linear.
 */
export function streamPatch<T>(held: readonly T[], next: readonly T[]): StreamPiece<T>[] {
  // The common case first: the held entries, less some oldest, then new ones (same objects, as projection by parts keeps them).
  const grown = logExtension(held, next);
  if (grown !== null) return grownPatch(held.length, grown.dropped.length, grown.fresh) ?? (held.length > 0 ? [[0, held.length]] : []);
  const pieces: StreamPiece<T>[] = [];
  let i = 0;
  let misses = 0;
  const addOne = (e: T) => {
    const last = pieces[pieces.length - 1];
    if (last !== undefined && !Array.isArray(last)) (last as { add: T[] }).add.push(e);
    else pieces.push({ add: [e] });
  };
  for (const e of next) {
    // The next held entry first, as the same object or an equal copy (a re-projected log copies
    // its entries): the common case stays O(1) per entry instead of a scan of what is held.
    let at = held[i] === e || (i < held.length && sameJson(held[i], e)) ? i : held.indexOf(e, i);
    if (at < 0 && misses < STREAM_SEARCH_MISSES) {
      for (let k = i; k < held.length; k++) {
        if (sameJson(held[k], e)) {
          at = k;
          break;
        }
      }
    }
    if (at < 0) {
      misses++;
      addOne(e);
      continue;
    }
    const last = pieces[pieces.length - 1];
    if (last !== undefined && Array.isArray(last) && last[0] + last[1] === at) pieces[pieces.length - 1] = [last[0], last[1] + 1];
    else pieces.push([at, 1]);
    i = at + 1;
  }
  return pieces;
}

/**
 * The stream patch of a list that kept its held entries less `dropped` oldest, then grew by `fresh` (an array the
 * patch may hold as it is: nothing writes a delta's entries); null when it did not move.
 */
function grownPatch<T>(heldLength: number, dropped: number, fresh: readonly T[]): StreamPiece<T>[] | null {
  if (dropped === 0 && fresh.length === 0) return null;
  const kept = heldLength - dropped;
  // Written as literals of their size: a pushed-onto array grows a backing of 17 slots (issue 19).
  if (fresh.length === 0) return kept > 0 ? [[dropped, kept]] : [];
  return kept > 0 ? [[dropped, kept], { add: fresh }] : [{ add: fresh }];
}

/**
 * The patch between two windows of one backing, read off their bounds (append-only, so the shared range holds the same
 * entries): only the new entries are copied. Undefined when they are not such a pair (another backing, a window moved back).
 */
function windowPatch<T>(held: LogWindow<T>, next: LogWindow<T>): StreamPiece<T>[] | null | undefined {
  if (held.backing !== next.backing || next.start < held.start || next.end < held.end || next.start > held.end) return undefined;
  return grownPatch(held.end - held.start, next.start - held.start, next.end === held.end ? NO_ENTRIES : next.backing.slice(held.end, next.end));
}

const NO_ENTRIES: readonly never[] = [];

/** A stream patch that changes nothing (keeps every held entry, adds none) is left out of the delta. */
const sameStream = <T>(s: StreamPatch<T>, heldLength: number) => (heldLength === 0 ? s.length === 0 : s.length === 1 && Array.isArray(s[0]) && s[0][0] === 0 && s[0][1] === heldLength);

/** A stream patch from two arrays; null when it changes nothing. */
function arrayPatch<T>(held: readonly T[], next: readonly T[]): StreamPiece<T>[] | null {
  if (held === next) return null;
  const patch = streamPatch(held, next);
  return sameStream(patch, held.length) ? null : patch;
}

/**
 * The log's stream patch, null when it did not move. A player's view log is a window of a shared backing
 * (engine LogWindow): read through it, the delta never makes either whole log as an array.
 */
function logPatch(held: TableView['world'], next: TableView['world']): StreamPiece<TableView['world']['log'][number]>[] | null {
  const hw = logWindowOf(held);
  const nw = logWindowOf(next);
  if (hw !== undefined && nw !== undefined) {
    if (hw === nw) return null;
    const patch = windowPatch(hw, nw);
    if (patch !== undefined) return patch;
  }
  return arrayPatch(held.log, next.log);
}

/** A view whose history may be a window of a shared backing (the room's held views) rather than an array. */
export type ViewParts = Omit<TableView, 'history'> & { readonly history: readonly TransactionView[] | LogWindow<TransactionView> };

/** The history's stream patch, null when it did not move; two windows of one backing are compared without either array. */
function historyPatch(held: ViewParts['history'], next: ViewParts['history']): StreamPiece<TransactionView>[] | null {
  if (held === next) return null;
  if (held instanceof LogWindow && next instanceof LogWindow) {
    const patch = windowPatch(held, next);
    if (patch !== undefined) return patch;
  }
  return arrayPatch(held instanceof LogWindow ? held.entries() : held, next instanceof LogWindow ? next.entries() : next);
}

const FLAGS = ['canUndo', 'canRedo', 'undoLabel', 'redoLabel', 'undoWords', 'redoWords'] as const;

/** The delta that turns the view a client holds at `held.version` into `next`; only what differs is in it. */
export function deltaBetween(held: ViewParts, next: ViewParts): Delta {
  // Fields set one by one in this order (type first, the version before any content): no spread objects per delta,
  // and no empty containers made for what did not change.
  const delta: { -readonly [K in keyof Delta]: Delta[K] } = { type: 'delta', from: held.version, version: next.version };
  let parts: Record<string, unknown> | undefined;
  for (const k of FLAGS) if (held[k] !== next[k]) (parts ??= {})[k] = next[k];
  if (parts !== undefined) delta.parts = parts;
  if (held.world !== next.world) {
    diffObject(held.world as unknown as Record<string, unknown>, next.world as unknown as Record<string, unknown>, PATH, 1, PATCHES, 'log');
    if (PATCHES.length > 0) delta.world = PATCHES.take();
  }
  const log = logPatch(held.world, next.world);
  if (log !== null) delta.log = log;
  const history = historyPatch(held.history, next.history);
  if (history !== null) delta.history = history;
  return delta;
}
