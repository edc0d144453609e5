// What changed between two views of one viewer, as a protocol delta the size
// of the change. The world is immutable, so unchanged parts are the same
// objects: they are skipped by reference, and only the parts that differ are
// compared deeply and serialised. The log and the history are streams: the
// delta says how many held entries to drop and keep, and carries only new ones.
// See docs/adr/0012-incremental-deltas.md.
import type { TableView } from '@tablekeeper/engine';
import type { Delta, StreamPatch, WorldPatch } from '@tablekeeper/protocol/wire';

/** World values are diffed key by key down to this depth (world.ext.encounter.combatants.<id> is 4); deeper ones are replaced whole. */
export const DIFF_DEPTH = 4;

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

/** Pushes the patches that turn `held` into `next` (both objects at `path`). */
function diffObject(held: Record<string, unknown>, next: Record<string, unknown>, path: string[], depth: number, out: WorldPatch[], skip: string | null): void {
  for (const k in next) {
    if (k === skip) continue;
    const a = held[k];
    const b = next[k];
    if (a === b) continue;
    if (b === undefined) {
      if (a !== undefined) out.push({ p: [...path, k] });
      continue;
    }
    if (depth < DIFF_DEPTH && isRecord(a) && isRecord(b)) diffObject(a, b, [...path, k], depth + 1, out, null);
    else if (!sameJson(a, b)) out.push({ p: [...path, k], v: b });
  }
  for (const k in held) {
    if (k === skip || held[k] === undefined) continue;
    if (!(k in next)) out.push({ p: [...path, k] });
  }
}

/** The world patches (log excluded: it travels as a stream) from `held` to `next`. */
export function diffWorld(held: TableView['world'], next: TableView['world']): WorldPatch[] {
  const out: WorldPatch[] = [];
  if (held !== next) diffObject(held as unknown as Record<string, unknown>, next as unknown as Record<string, unknown>, [], 1, out, 'log');
  return out;
}

/**
 * The stream patch from `held` to `next`: the longest run of held entries that
 * `next` starts with (same object, or equal) is kept, the rest of `next` is
 * appended. Appends and front trims cost only the new entries; an undo that
 * removes the newest entries costs nothing but the numbers.
 */
export function streamPatch<T>(held: readonly T[], next: readonly T[]): StreamPatch<T> {
  if (next.length === 0) return { drop: held.length, keep: 0, add: [] };
  const first = next[0];
  let drop = held.indexOf(first as T);
  if (drop < 0) drop = held.findIndex((e) => sameJson(e, first));
  if (drop < 0) return { drop: held.length, keep: 0, add: next };
  let keep = 0;
  while (drop + keep < held.length && keep < next.length && (held[drop + keep] === next[keep] || sameJson(held[drop + keep], next[keep]))) keep++;
  return { drop, keep, add: next.slice(keep) };
}

const sameStream = <T>(s: StreamPatch<T>, heldLength: number) => s.drop === 0 && s.keep === heldLength && s.add.length === 0;

const FLAGS = ['canUndo', 'canRedo', 'undoLabel', 'redoLabel'] as const;

/** The delta that turns the view a client holds at `held.version` into `next`; only what differs is in it. */
export function deltaBetween(held: TableView, next: TableView): Delta {
  const parts: Record<string, unknown> = {};
  let anyPart = false;
  for (const k of FLAGS) {
    if (held[k] !== next[k]) {
      parts[k] = next[k];
      anyPart = true;
    }
  }
  const world = diffWorld(held.world, next.world);
  const log = held.world.log === next.world.log ? null : streamPatch(held.world.log, next.world.log);
  const history = held.history === next.history ? null : streamPatch(held.history, next.history);
  return {
    type: 'delta',
    from: held.version,
    version: next.version,
    ...(anyPart ? { parts } : {}),
    ...(world.length > 0 ? { world } : {}),
    ...(log !== null && !sameStream(log, held.world.log.length) ? { log } : {}),
    ...(history !== null && !sameStream(history, held.history.length) ? { history } : {}),
  };
}
