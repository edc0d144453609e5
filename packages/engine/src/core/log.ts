// The table log lives in the world (so undo removes entries with everything
// else). Inside a transaction the engine names its seq first (withLogSeq), so a
// reducer's entry is written with it and the log is copied once per entry, never
// again to stamp it. An event evolved outside a transaction (engine.evolve) writes
// tx = PENDING_TX, and stampLog gives those entries their seq afterwards.
import type { Audience, Json, LogEntry, World } from './types.js';
import { noteExtension } from './view-cache.js';

export const PENDING_TX = -1;
/** Named setting: how many log entries the world keeps (oldest dropped first). */
export const LOG_LIMIT_SETTING = 'core.logLimit';
export const DEFAULT_LOG_LIMIT = 1000;
export const MAX_LOG_TEXT = 2000;

export interface LogInput {
  readonly audience: Audience;
  readonly kind: string;
  readonly text: string;
  /** The sentence players read instead, without the GM-only detail in `text` (ADR 33). */
  readonly shown?: string;
  readonly data?: Json;
}

function logLimit(world: World): number {
  const v = world.settings[LOG_LIMIT_SETTING];
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : DEFAULT_LOG_LIMIT;
}

/** The seq of the transaction the engine is applying, or PENDING_TX outside one. The engine is synchronous, so one slot serves. */
let currentSeq = PENDING_TX;

/**
 * Whether appends tell the projection how the log grew. A replay builds worlds nobody projects but the last,
 * and each note is two weak map inserts that live as long as the log does (the undo checkpoints keep some):
 * 100k replayed transactions left the collector marking a table's worth of them (issue 19).
 */
let noting = true;

/** Engine side: runs `f` (a replay) without growth notes; the last world's log is then compared by a walk, once. */
export function withoutGrowthNotes<T>(f: () => T): T {
  const outer = noting;
  noting = false;
  try {
    return f();
  } finally {
    noting = outer;
  }
}

/**
 * A replay's log that appends may change in place (ADR 96), or null. Set only while a replay applies a command
 * and no world that outlives that command holds this array: before a command or redo whose world before is kept
 * (an undo checkpoint, the target of the next undo, the last one, any redo's) the replay gives that world an exact
 * copy (keepReplayWorld, ADR 120) or takes the log back (releaseReplayLog). The first append after a release
 * copies, as outside a replay, and the copy becomes the replay's.
 */
let replayLog: LogEntry[] | null = null;
/** Whether appends may take their copy as the replay's log (inside withReplayLog, outside withoutReplayLog). */
let replayOwns = false;
/**
 * The exact copy of the replay's log that a kept world holds instead of it (keepReplayWorld), or null. Both hold
 * the same entries until the next append or rewrite, which goes on the replay's log in place: a kept world gets
 * an array without the spare room the replay's has grown, and the replay's log does not grow again.
 */
let replayTwin: readonly LogEntry[] | null = null;

/**
 * An array no world holds any more, or null: the replay's log when an undo dropped the newest world (the only one
 * that still read it). The replay's next copy of a log is written into it instead of a new array (issue 19: an undo
 * and its redo made a copy and then regrew it, two arrays the size of the log, per undo).
 */
let replaySpare: LogEntry[] | null = null;

/** The replay's own log when `log` is it or its twin (see replayTwin), else null. The twin stands in only once. */
function ownedLog(log: readonly LogEntry[]): LogEntry[] | null {
  if (replayLog === null) return null;
  if (log === replayLog) return replayLog;
  if (log !== replayTwin) return null;
  replayTwin = null;
  return replayLog;
}

/** Engine side: runs `f` (a replay) with an O(1) append on the log it owns; a replay copies the log once per kept world, not per entry. */
export function withReplayLog<T>(f: () => T): T {
  const outer = { replayLog, replayOwns, replayTwin, replaySpare };
  replayLog = null;
  replayOwns = true;
  replayTwin = null;
  replaySpare = null;
  try {
    return f();
  } finally {
    ({ replayLog, replayOwns, replayTwin, replaySpare } = outer);
  }
}

/**
 * Engine side: runs `f` (an undo inside a replay, which keeps the worlds it rebuilds) with every append a copy.
 * The undo drops the replay's newest world, the last that held the replay's log: that array becomes the spare.
 */
export function withoutReplayLog<T>(f: () => T): T {
  const outer = { replayLog, replayOwns };
  if (replayLog !== null && replayOwns) replaySpare = replayLog;
  replayLog = null;
  replayTwin = null;
  replayOwns = false;
  try {
    return f();
  } finally {
    replayLog = null;
    replayOwns = outer.replayOwns;
  }
}

/** No append may change the log of a world made so far (the next append copies, and owns the copy). */
function releaseReplayLog(): void {
  replayLog = null;
  replayTwin = null;
}

/**
 * Engine side: `world` (the replay's newest) is about to be kept, so no append may change the log it holds. When that
 * is the replay's own log, the world returned holds an exact copy instead (its twin) and the replay goes on appending
 * to its own in place: the same one copy as a release, but the kept array carries no spare room and the replay's
 * log need not grow again (issue 19: a kept log was half as large again, and every release regrew the replay's).
 */
export function keepReplayWorld(world: World): World {
  if (replayLog === null || (world.log !== replayLog && world.log !== replayTwin)) {
    releaseReplayLog();
    return world;
  }
  // Already the twin: the kept world holds an exact array the replay never changes.
  if (world.log === replayTwin) return world;
  const kept = replayLog.slice();
  replayTwin = kept;
  return { ...world, log: kept };
}

/** Engine side: runs `f` (a transaction's evolves) with its entries written under `seq`. */
export function withLogSeq<T>(seq: number, f: () => T): T {
  const outer = currentSeq;
  currentSeq = seq;
  try {
    return f();
  } finally {
    currentSeq = outer;
  }
}

/** Engine side: names `seq` as the transaction being applied until leaveLogSeq(the returned outer seq), in a finally. */
export function enterLogSeq(seq: number): number {
  const outer = currentSeq;
  currentSeq = seq;
  return outer;
}

/** Engine side: the end of enterLogSeq's span. */
export function leaveLogSeq(outer: number): void {
  currentSeq = outer;
}

/** A reducer's entry as the log keeps it: this transaction's seq, and no players' sentence that only repeats the text. */
function stamped(entry: LogInput): LogEntry {
  // Four shapes written out, not spreads of `{}`: one entry per log line, and a spread makes a throwaway object.
  const shown = entry.shown === undefined || entry.shown === entry.text ? undefined : entry.shown;
  if (shown === undefined) {
    return entry.data === undefined ? { tx: currentSeq, audience: entry.audience, kind: entry.kind, text: entry.text } : { tx: currentSeq, audience: entry.audience, kind: entry.kind, text: entry.text, data: entry.data };
  }
  return entry.data === undefined ? { tx: currentSeq, audience: entry.audience, kind: entry.kind, text: entry.text, shown } : { tx: currentSeq, audience: entry.audience, kind: entry.kind, text: entry.text, shown, data: entry.data };
}

/** Append an entry from a reducer. Oldest entries are dropped past the named limit (no note: a count of dropped GM entries would leak). */
export function appendLog(world: World, entry: LogInput): World {
  const e = stamped(entry);
  const prev = world.log;
  const drop = Math.max(0, prev.length + 1 - logLimit(world));
  const own = ownedLog(prev);
  if (own !== null) {
    // The replay's own log: no kept world reads it, so the entry goes on in place (V8 trims an array's front in O(1)).
    own.push(e);
    if (drop === 1) own.shift();
    else if (drop > 1) own.splice(0, drop);
    return { ...world, log: own };
  }
  // One exact copy (concat sizes it; a push would grow it); at the limit the oldest go in the same pass, not a slice and then a concat.
  const log = replayOwns && replaySpare !== null && replaySpare !== prev ? intoSpare(prev, drop, e) : drop === 0 ? prev.concat([e]) : withoutOldest(prev, drop, e);
  // The projection asks how the log grew (logExtension): told here, it need not walk the two logs.
  if (noting) noteExtension(prev, log, drop, [e]);
  if (replayOwns) replayLog = log;
  return { ...world, log };
}

/**
 * The entry this transaction wrote last, or null: a line the event being applied may complete, so one damage
 * reads as one line (its roll or amount, then its result) and not two.
 */
export function lastLineOfTransaction(world: World): LogEntry | null {
  const last = world.log[world.log.length - 1];
  return last !== undefined && last.tx === currentSeq ? last : null;
}

/**
 * The world with its last entry, which this transaction wrote (lastLineOfTransaction), rewritten as `entry`.
 * Earlier transactions' entries are never touched: a view that saw them keeps them as they were.
 */
export function replaceLastLog(world: World, entry: LogInput): World {
  const prev = world.log;
  const last = prev[prev.length - 1];
  if (last === undefined || last.tx !== currentSeq) throw new Error('replaceLastLog: the last entry is not this transaction\'s');
  const e = stamped(entry);
  // The replay's own log is rewritten in place (see appendLog); any other is copied.
  const log = ownedLog(prev) ?? prev.slice();
  log[log.length - 1] = e;
  if (replayOwns) replayLog = log;
  // No noteExtension: the projection finds this transaction's growth by walking back to the last entry it held.
  return { ...world, log };
}

/** What completes an earlier line of the transaction: its new sentence, and what players read instead (ADR 33). */
export interface LineCompletion {
  readonly text: string;
  readonly shown?: string;
  readonly data?: Json;
}

/**
 * Appends `entry`, or, when the transaction's last line has the same audience and `complete` answers for it,
 * rewrites that line instead (its kind kept): "Kira takes 10 damage" and then "HP 12 → 2" become one sentence.
 */
export function appendOrComplete(world: World, entry: LogInput, complete: (prev: LogEntry) => LineCompletion | null): World {
  const prev = lastLineOfTransaction(world);
  const done = prev === null || JSON.stringify(prev.audience) !== JSON.stringify(entry.audience) ? null : complete(prev);
  if (prev === null || done === null) return appendLog(world, entry);
  // Default deny: a completion that names no players' sentence keeps the one the line had, never its new GM text.
  const shown = done.shown ?? prev.shown;
  return replaceLastLog(world, { audience: prev.audience, kind: prev.kind, text: done.text, ...(shown === undefined ? {} : { shown }), ...(done.data !== undefined ? { data: done.data } : prev.data !== undefined ? { data: prev.data } : {}) });
}

/** A sentence without its closing full stop, to carry on: "Kira takes 10 damage" + ": HP 12 → 2." */
export const openSentence = (s: string): string => (s.endsWith('.') ? s.slice(0, -1) : s);

/** `prev` without its `drop` oldest entries and with `e`, written over the replay's spare array (see replaySpare). */
function intoSpare(prev: readonly LogEntry[], drop: number, e: LogEntry): LogEntry[] {
  const out = replaySpare!;
  replaySpare = null;
  const n = prev.length - drop;
  // In order from index 0, so the array stays packed (a write at its length appends).
  for (let i = 0; i < n; i++) out[i] = prev[i + drop]!;
  out.length = n;
  out.push(e);
  return out;
}

function withoutOldest(prev: readonly LogEntry[], drop: number, e: LogEntry): LogEntry[] {
  const out = new Array<LogEntry>(prev.length - drop + 1);
  for (let i = drop; i < prev.length; i++) out[i - drop] = prev[i]!;
  out[out.length - 1] = e;
  return out;
}

/** Engine side: give every pending entry the seq of the transaction that wrote it. */
export function stampLog(world: World, seq: number): World {
  const log = world.log;
  let i = log.length;
  while (i > 0 && log[i - 1]!.tx === PENDING_TX) i--;
  if (i === log.length) return world;
  // One copy of the log (it may hold a thousand entries), stamped in place.
  const out = log.slice();
  for (let k = i; k < out.length; k++) out[k] = { ...out[k]!, tx: seq };
  return { ...world, log: out };
}
