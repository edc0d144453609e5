// Projection by parts (issue 19, ADR 20). Each projector declares the world
// parts it reads and writes (Module.projectReads). The world is immutable, so
// a projector whose declared reads are the same objects as last time would
// return the same written parts: they are reused, and the projector is not run.
// Outputs are kept per visibility class (the GM; every other viewer, or each
// seat where a projector reads the seat), so one player's projection serves
// all. A projector that writes the log entry by entry runs on new entries only.
// A projector without a declaration runs every time (the safe default).
import type { LogEntry, Module, ProjectorReads, Viewer, ViewMemo, World, WorldPart } from './types.js';
import { audienceAllows } from './visibility.js';

/**
 * One projector's last run for one visibility class, by part: the values of its declared reads in its
 * input (then its input's log, for a step that judges the log entry by entry) and of its written parts in
 * its output (PASSED for a part it passed through). Values, not worlds: a run of reused steps puts their
 * parts into one world made where a projector must run or at the end of the class's steps (a world per
 * reused step was the walk's largest allocation, ADR 115), and a reused step keeps its memo object.
 */
interface StepMemo {
  readonly reads: readonly unknown[];
  readonly outs: readonly unknown[];
  /** Its logBasis of its input (a step that declares one), worked out whenever it ran on a whole input. */
  readonly basis: string | undefined;
}

/** A written part the step returned as it was given: nothing of last time's to put in again. */
const PASSED = Symbol('passed');

/** An undeclared step's place in a class's memo: it runs every time, so nothing of it is kept. */
const UNDECLARED: StepMemo = { reads: [], outs: [], basis: undefined };

/**
 * A WorldPart resolved once: a top-level field, or a key of `ext`; `id` is the WorldPart itself (parts of different steps
 * compare by it); `at` its place among the parts a projector's steps declare (the log is 0), where a walk notes it moved.
 */
interface Part {
  readonly ext: boolean;
  readonly key: string;
  readonly id: string;
  readonly at: number;
}

const LOG_PART: Part = { ext: false, key: 'log', id: 'log', at: 0 };

/** A class's last projection: the unprojected world it came from, where its steps started, their memos and what they made. */
interface ClassMemo {
  source: World;
  start: World;
  output: World;
  steps: readonly StepMemo[];
}

/**
 * The log the projectors leave for a viewer (the stage log). For the non-GM class, the last projector that
 * touches the log (the countdowns step's filter) keeps it as a window of a backing its successive logs share
 * when no projector after it reads the log: a note or a tick then pushes its entry instead of copying a
 * log-length array that lived until the table's next command (issue 19). The stage world carries that
 * window in its `log` field (see windowStepOf); only finalLog reads it.
 */
type StageLog = readonly LogEntry[] | LogWindow;

/** The entries of a stage log as an array (made once per window: the cold paths). */
const stageEntries = (log: StageLog): readonly LogEntry[] => (log instanceof LogWindow ? log.entries() : log);

/** How stage log `next` grew from `prev`: windows of one backing without walking either; otherwise as logExtension. */
function stageGrowth(prev: StageLog, next: StageLog): LogGrowth<LogEntry> | null {
  if (prev instanceof LogWindow && next instanceof LogWindow) {
    const grown = windowGrowth(prev, next);
    if (grown !== null) return grown;
  }
  return logExtension(stageEntries(prev), stageEntries(next));
}

/** A viewer's last final log (by audience, entries copied for non-GM viewers) and the stage log it came from. */
interface LogMemo {
  input: StageLog;
  output: FinalLog;
}

/** A viewer's last finished world, the projected world and the final log it was finished from. */
interface FinalMemo {
  readonly projected: World;
  readonly log: FinalLog;
  readonly output: World;
}

/** The GM's final log is the stage log itself; everyone else's is a window of copies (LogWindow). */
export type FinalLog = readonly LogEntry[] | LogWindow;

/**
 * A non-GM final log: the entries [start, end) of a backing array that successive logs of the same lineage
 * share. A command that adds entries pushes them onto the backing, when this window ends where the backing
 * does, instead of copying the whole log into a new array that would live until the table's next command
 * (issue 19: such log-length survivors were most of the collector's work). Entries in a backing are never
 * overwritten or removed, so every window keeps reading exactly what it held. The plain array is made only
 * when something reads the view's log whole (a snapshot, a query, a test), and once. The server's history
 * windows are LogWindows of history entries the same way.
 */
let lastWindowId = 0;

export class LogWindow<T = LogEntry> {
  // Declared, set in the constructor: no class field initializers (several windows are made per command).
  declare readonly backing: T[];
  declare readonly start: number;
  declare readonly end: number;
  private declare array: readonly T[] | undefined;
  /** Names the window where holding it would keep it alive (finalLog's sharing). */
  declare readonly id: number;
  constructor(backing: T[], start: number, end: number) {
    this.backing = backing;
    this.start = start;
    this.end = end;
    this.array = undefined;
    this.id = ++lastWindowId;
  }
  get length(): number {
    return this.end - this.start;
  }
  at(i: number): T | undefined {
    return i >= 0 && i < this.end - this.start ? this.backing[this.start + i] : undefined;
  }
  /** The entries as a plain array. */
  entries(): readonly T[] {
    return (this.array ??= this.backing.slice(this.start, this.end));
  }
}

/** A window over a new backing holding `es` (which the window now owns). */
export const windowOf = <T>(es: T[]): LogWindow<T> => new LogWindow(es, 0, es.length);

/** `w` then `added`: pushed onto the shared backing when `w` ends where it does, else onto a copy of `w`'s own entries (another log grew from `w` first). */
export function windowAppended<T>(w: LogWindow<T>, added: readonly T[]): LogWindow<T> {
  if (added.length === 0) return w;
  if (w.end === w.backing.length) {
    for (const e of added) w.backing.push(e);
    return new LogWindow(w.backing, w.start, w.end + added.length);
  }
  const b = w.backing.slice(w.start, w.end);
  for (const e of added) b.push(e);
  return windowOf(b);
}

/** Dead entries at a backing's front are left until they outnumber the live ones, then the live ones move to a new backing: O(1) a dropped entry, amortised. */
const COMPACT_AFTER = 64;

/** `w` less its first `n` entries. */
export function windowWithoutFirst<T>(w: LogWindow<T>, n: number): LogWindow<T> {
  if (n <= 0) return w;
  const start = Math.min(w.start + n, w.end);
  if (start > COMPACT_AFTER && start > w.end - start) return windowOf(w.backing.slice(start, w.end));
  return new LogWindow(w.backing, start, w.end);
}

/** How `next` grew from `held` when both are windows of one backing (append-only, so the shared range holds the same entries); null otherwise. */
export function windowGrowth<T>(held: LogWindow<T>, next: LogWindow<T>): LogGrowth<T> | null {
  if (held.backing !== next.backing || next.start < held.start || next.end < held.end || next.start > held.end) return null;
  return { dropped: held.backing.slice(held.start, next.start), fresh: next.backing.slice(held.end, next.end) };
}

/** Finished non-GM worlds whose log is a window: the delta reads the window, so it never makes the whole array. */
const windowsOfWorlds = new WeakMap<World, LogWindow>();

/** The window a finished view's log reads, or undefined for a plain log (the GM's, a view made without a memo). */
export const logWindowOf = (world: World): LogWindow | undefined => windowsOfWorlds.get(world);

/** One getter for every windowed world (it finds the window by `this`): a shared accessor keeps the worlds' shape fast, where a getter per object literal made each a dictionary of about 1 KB. */
const LOG_THROUGH_WINDOW: PropertyDescriptor = {
  get(this: World): readonly LogEntry[] {
    return windowsOfWorlds.get(this)!.entries();
  },
  enumerable: true,
};

/** Engine side: a finished non-GM world whose log reads `w`, made whole only when read (a snapshot, a query), in the World fields' order. */
export function windowedWorld(head: Omit<World, 'log' | 'ext' | 'nextId'>, w: LogWindow, ext: World['ext']): World {
  const o = head as Record<string, unknown>;
  Object.defineProperty(o, 'log', LOG_THROUGH_WINDOW);
  o['ext'] = ext;
  o['nextId'] = 0;
  // Whole now but for `log`, which the getter above reads from the window.
  const world = o as unknown as World;
  windowsOfWorlds.set(world, w);
  return world;
}

interface PartsMemo {
  readonly classes: Map<string, ClassMemo>;
  readonly logs: Map<string, LogMemo>;
  readonly finals: Map<string, FinalMemo>;
}

const ABSENT = Symbol('absent');

/** A non-GM view's copy of a log entry: only the fields an entry has (default-deny), with `shown` read in place of `text` (and never sent itself). */
export const copyEntry = (e: LogEntry): LogEntry => {
  const text = e.shown ?? e.text;
  return e.data === undefined ? { tx: e.tx, audience: e.audience, kind: e.kind, text } : { tx: e.tx, audience: e.audience, kind: e.kind, text, data: e.data };
};


/** The value of one part (ABSENT for a module key the world does not hold). */
function partOf(w: World, p: Part): unknown {
  if (p.ext) return Object.hasOwn(w.ext, p.key) ? w.ext[p.key] : ABSENT;
  return (w as unknown as Record<string, unknown>)[p.key];
}

/** The parts that differ between two unprojected worlds (top-level keys, and `ext` keys apart). */
interface WorldDiff {
  readonly a: World;
  readonly b: World;
  readonly top: ReadonlySet<string>;
  readonly ext: ReadonlySet<string>;
}

/**
 * One slot: a walk that met a step it cannot follow (an undeclared one) asks for each later step whether its
 * reads moved between the same two worlds (the one last projected and the new one), so the two are compared key
 * by key once, not once per read per step. It keeps those two worlds alive until the next pair, no more.
 */
let lastDiff: WorldDiff | null = null;

function worldDiff(a: World, b: World): WorldDiff {
  if (lastDiff !== null && lastDiff.a === a && lastDiff.b === b) return lastDiff;
  const top = new Set<string>();
  const ext = new Set<string>();
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  // A key held by one world only counts as moved even if the other's value is undefined: a needless re-run, never a stale part.
  for (const k in rb) if (!Object.hasOwn(ra, k) || ra[k] !== rb[k]) top.add(k);
  for (const k in ra) if (!Object.hasOwn(rb, k)) top.add(k);
  if (a.ext !== b.ext) {
    for (const k in b.ext) if (!Object.hasOwn(a.ext, k) || a.ext[k] !== b.ext[k]) ext.add(k);
    for (const k in a.ext) if (!Object.hasOwn(b.ext, k)) ext.add(k);
  }
  return (lastDiff = { a, b, top, ext });
}

/**
 * Which of a projector's `universe` of parts moved between `a` and `b` (1 at a part's `at`), into `into`: the declared parts
 * compared one by one (a dozen reads), not every key of both worlds as worldDiff does.
 */
function movedFlags(universe: readonly Part[], a: World, b: World, into: Uint8Array): void {
  if (a === b) {
    into.fill(0);
    return;
  }
  const ea = a.ext;
  const eb = b.ext;
  for (let k = 0; k < universe.length; k++) {
    const p = universe[k]!;
    into[k] = (p.ext && ea === eb) || partOf(a, p) === partOf(b, p) ? 0 : 1;
  }
}

/** Whether none of `parts` is flagged in `flags`. */
function noneFlagged(parts: readonly Part[], flags: Uint8Array): boolean {
  for (let j = 0; j < parts.length; j++) if (flags[parts[j]!.at] !== 0) return false;
  return true;
}

/**
 * Notes, after a step, which of its written parts stand where the class's last walk left them: `was` is its memo from then,
 * `now` its memo now (the same object when it was reused). Conservative: a part it cannot vouch for is marked moved.
 */
function noteWrites(moved: Uint8Array, writes: readonly Part[], was: StepMemo, now: StepMemo): void {
  for (let j = 0; j < writes.length; j++) {
    const o = now.outs[j];
    const at = writes[j]!.at;
    if (o !== PASSED) moved[at] = o === was.outs[j] ? 0 : 1;
    else if (was.outs[j] !== PASSED) moved[at] = 1;
    // Passed through then and now: it moved exactly when its input did (the flag stands).
  }
}

/** Whether `parts` are the same objects in the pair of unprojected worlds a walk compares again and again (through worldDiff). */
function sameSourceParts(parts: readonly Part[], a: World, b: World): boolean {
  if (a === b) return true;
  const d = worldDiff(a, b);
  for (const p of parts) if ((p.ext ? d.ext : d.top).has(p.key)) return false;
  return true;
}

/**
 * Where a class's walk stands: `base` with the parts it `has` set to their `vals`, by place (last set wins). A
 * reused step only puts its parts here; the world is made (`reached`) when a projector must run on it, and
 * at the end. The arrays are kept between walks (sized by the projector's parts once).
 */
interface Walk {
  base: World;
  /** How many parts are set (their places in `ats`, in the order first set). */
  n: number;
  readonly ats: number[];
  /** By part (`at`): its value where the walk stands, when `has` it. */
  readonly vals: unknown[];
  readonly has: Uint8Array;
  /** By part (`at`): whether its set value is another object than the base's (reached's scratch). */
  readonly differs: Uint8Array;
  /** The parts of the projector the walk serves, by `at`. */
  readonly universe: readonly Part[];
  /** By part (`at`): 1 where the unprojected world moved since the class's last walk. */
  readonly source: Uint8Array;
  /** By part (`at`): 1 where the walk may stand on another object than the class's last walk did at the same step. */
  readonly moved: Uint8Array;
}

/** What an idle walk stands on: no world (a kept walk keeps no table's world alive). */
const NO_WORLD = Object.freeze({}) as World;

/** The value of `p` where the walk stands. */
function valueAt(w: Walk, p: Part): unknown {
  return w.has[p.at] === 1 ? w.vals[p.at] : partOf(w.base, p);
}

/** Sets `p` to `v` where the walk stands: by place, no search and no look at the base (reached compares, once a part). */
function put(w: Walk, p: Part, v: unknown): void {
  if (w.has[p.at] === 0) {
    w.has[p.at] = 1;
    w.ats[w.n++] = p.at;
  }
  w.vals[p.at] = v;
}

/** The walk's reads of `reads` are the values a step memo holds (its first `reads.length`). */
function sameReads(w: Walk, reads: readonly Part[], held: readonly unknown[]): boolean {
  for (let j = 0; j < reads.length; j++) if (held[j] !== valueAt(w, reads[j]!)) return false;
  return true;
}

/** The world where the walk stands, made once (the walk then stands on it); `log`, when given, stands in for its log in a world made for one projector call (the walk does not move). */
function reached(w: Walk, log?: readonly LogEntry[]): World {
  let moved = false;
  for (let k = 0; k < w.n; k++) {
    const at = w.ats[k]!;
    const d = partOf(w.base, w.universe[at]!) !== w.vals[at];
    w.differs[at] = d ? 1 : 0;
    if (d) moved = true;
  }
  if (!moved && log === undefined) {
    leave(w);
    return w.base;
  }
  const out = { ...w.base } as unknown as Record<string, unknown>;
  let ext: Record<string, unknown> | null = null;
  for (let k = 0; k < w.n; k++) {
    const at = w.ats[k]!;
    if (w.differs[at] === 0) continue;
    const p = w.universe[at]!;
    const v = w.vals[at];
    if (!p.ext) {
      out[p.key] = v;
      continue;
    }
    ext ??= { ...w.base.ext };
    if (v === ABSENT) delete ext[p.key];
    else ext[p.key] = v;
  }
  if (ext !== null) out['ext'] = ext;
  if (log !== undefined) {
    out['log'] = log;
    return out as unknown as World;
  }
  leave(w);
  return (w.base = out as unknown as World);
}

/** Forgets the walk's parts (their values too: a kept walk holds no world's parts alive). */
function leave(w: Walk): void {
  for (let k = 0; k < w.n; k++) {
    const at = w.ats[k]!;
    w.has[at] = 0;
    w.vals[at] = undefined;
  }
  w.n = 0;
}

/** A step's memo from its input's values (reads, then written parts) and where the walk stands after it. */
function memoAfter(writes: readonly Part[], reads: unknown[], inWrites: readonly unknown[], w: Walk, basis: string | undefined): StepMemo {
  const outs = new Array<unknown>(writes.length);
  for (let j = 0; j < writes.length; j++) {
    const v = valueAt(w, writes[j]!);
    outs[j] = v === inWrites[j] ? PASSED : v;
  }
  return { reads, outs, basis };
}

/** The values of `parts` in `w`, then (with `log`) its log. */
function valuesOf(parts: readonly Part[], w: World, log: boolean): unknown[] {
  const out = new Array<unknown>(parts.length + (log ? 1 : 0));
  for (let j = 0; j < parts.length; j++) out[j] = partOf(w, parts[j]!);
  if (log) out[parts.length] = w.log;
  return out;
}

/**
 * How `next` extends `prev`: some oldest entries dropped (a log at its limit), the
 * rest kept as the same objects in order, new ones after. Null for any other change
 * (an undo restoring an older log, say).
 */
export function logExtension<T>(prev: readonly T[], next: readonly T[]): LogGrowth<T> | null {
  if (prev.length === 0) return { dropped: [], fresh: next };
  // Logs are immutable: a pair already compared (by another viewer of the class, or built as an extension) is not walked again.
  const known = records.get(next);
  const prevId = logId(prev);
  if (known !== undefined && known.prev === prevId) return known.growth as LogGrowth<T> | null;
  const growth = findExtension(prev, next);
  const r = known ?? recordOf(next);
  r.prev = prevId;
  r.growth = growth;
  return growth;
}

/** How a log grew from the one before it (logExtension). */
export interface LogGrowth<T> {
  readonly dropped: readonly T[];
  readonly fresh: readonly T[];
}

/**
 * Per log array: its id, and the log it was last compared with (or built from), by that log's id, with how
 * it grew (0: none yet). One record per log, dropped with it, and one map for both (a WeakMap insert is
 * the costly part: the engine's append and every viewer class's window note one per command). An id and
 * not the earlier log itself: each log holding the one before it kept every log a table ever had alive (a
 * chain through this map, about 20 KB a command on a realistic table).
 */
interface LogRecord {
  readonly id: number;
  prev: number;
  growth: LogGrowth<unknown> | null;
}
const records = new WeakMap<object, LogRecord>();
let lastLogId = 0;
function recordOf(log: object): LogRecord {
  let r = records.get(log);
  if (r === undefined) records.set(log, (r = { id: ++lastLogId, prev: 0, growth: null }));
  return r;
}
const logId = (log: object): number => recordOf(log).id;
const NONE_DROPPED: readonly never[] = [];

/**
 * Records that `next` was built as `prev` less its first `dropped` entries, then `fresh`: a later
 * logExtension(prev, next) answers without walking either. Only for a log just built this way.
 */
export function noteExtension<T>(prev: readonly T[], next: readonly T[], dropped: number, fresh: readonly T[]): void {
  const r = recordOf(next);
  r.prev = logId(prev);
  r.growth = { dropped: dropped === 0 ? NONE_DROPPED : prev.slice(0, dropped), fresh };
}

function findExtension<T>(prev: readonly T[], next: readonly T[]): LogGrowth<T> | null {
  const last = prev[prev.length - 1];
  // New entries are few: look for the last held one from the end.
  let kept = -1;
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] === last) {
      kept = i;
      break;
    }
  }
  const trimmed = prev.length - 1 - kept;
  if (kept < 0 || trimmed < 0) return null;
  for (let i = 0; i <= kept; i++) if (next[i] !== prev[trimmed + i]) return null;
  return { dropped: prev.slice(0, trimmed), fresh: next.slice(kept + 1) };
}

/** A by-entry step's last output log (`held`, from input log `was`), less what stood for dropped entries, then what it kept of the new ones (`ran`, null for none). */
function extendedLog(was: readonly LogEntry[], held: readonly LogEntry[], ext: LogGrowth<LogEntry>, ran: World | null, input: readonly LogEntry[]): readonly LogEntry[] {
  // It kept the whole log last time and keeps every new entry now (the GM's pass-through, a log with nothing
  // to hide): the output is the input log itself, not a copy of it.
  if (held === was && (ran === null ? ext.fresh.length === 0 : sameEntries(ran.log, ext.fresh))) return input;
  const kept = ext.dropped.length === 0 ? held : dropFront(held, new Set(ext.dropped));
  const log = ran === null || ran.log.length === 0 ? kept : kept.concat(ran.log);
  if (log !== kept) noteExtension(held, log, held.length - kept.length, ran!.log);
  return log;
}

/** The window less its oldest entries that stood for dropped ones (dropFront for a window). */
function windowDropFront(held: LogWindow, gone: ReadonlySet<unknown>): LogWindow {
  let i = 0;
  while (i < held.length && gone.has(held.at(i))) i++;
  return windowWithoutFirst(held, i);
}

/** `held` less its oldest entries that stood for `dropped` ones (order-preserving subsets keep them at the front). */
function dropFront<T>(held: readonly T[], gone: ReadonlySet<unknown>): readonly T[] {
  let i = 0;
  while (i < held.length && gone.has(held[i])) i++;
  return i === 0 ? held : held.slice(i);
}

/**
 * extendedLog for the step whose output log is kept as a window (windowStepOf): the held window less what
 * stood for dropped entries, then what the step kept of the new ones, pushed onto the shared backing.
 * A log passed through whole (nothing to hide) stays the input log itself, as in extendedLog.
 */
function extendedWindow(was: readonly LogEntry[], heldLog: readonly LogEntry[], ext: LogGrowth<LogEntry>, ran: World | null, input: readonly LogEntry[]): StageLog {
  const held = heldLog as StageLog;
  if (held === was && (ran === null ? ext.fresh.length === 0 : sameEntries(ran.log, ext.fresh))) return input;
  const added = ran === null ? [] : ran.log;
  if (held instanceof LogWindow) return windowAppended(ext.dropped.length === 0 ? held : windowDropFront(held, new Set(ext.dropped)), added);
  // The held log was passed through (the engine's own array, never pushed onto): the window starts on a copy.
  const b = (ext.dropped.length === 0 ? held : dropFront(held, new Set(ext.dropped))).slice();
  for (const e of added) b.push(e);
  return windowOf(b);
}

function sameEntries(a: readonly LogEntry[], b: readonly LogEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The entries of `es` the viewer may read, copied for non-GM viewers. Copies depend on the entry
 * alone, so every non-GM viewer shares them (the audience is checked before). A plain function, not
 * a closure per call: the server runs under tsx, whose kept names cost a defineProperty per closure.
 */
function judge(stage: StageLog, viewer: Viewer, memo: ViewMemo): LogEntry[] {
  const es = stageEntries(stage);
  const out: LogEntry[] = [];
  const gm = viewer.role === 'gm';
  for (const e of es) {
    if (!audienceAllows(e.audience, viewer)) continue;
    if (gm) {
      out.push(e);
      continue;
    }
    let c = memo.entryCopies.get(e);
    if (c === undefined) memo.entryCopies.set(e, (c = copyEntry(e)));
    out.push(c);
  }
  return out;
}

/** The parts a declared projector reads (the log too when it judges the log entry by entry) and writes. */
function touched(d: ProjectorReads): { readonly reads: ReadonlySet<WorldPart>; readonly writes: ReadonlySet<WorldPart> } {
  return { reads: new Set(d.logByEntry === true ? [...d.reads, 'log' as const] : d.reads), writes: new Set(d.writes) };
}

/** Two declared projectors give the same result in either order: neither reads nor writes what the other writes. */
function commute(a: ProjectorReads, b: ProjectorReads): boolean {
  const x = touched(a);
  const y = touched(b);
  for (const p of x.writes) if (y.reads.has(p) || y.writes.has(p)) return false;
  for (const p of y.writes) if (x.reads.has(p)) return false;
  return true;
}

/**
 * The projectors in an order that gives the same projection, with each seat-reading one moved to the
 * end when it commutes with every projector after it (all declared). Seats then share the class's
 * steps up to the end and each runs only its own small filters (issue 19: the server's requests
 * projector otherwise split every seat into a lane of the timer, foes and conditions steps too).
 */
export function seatStepsLast(projecting: readonly Module[]): Module[] {
  const kept: Module[] = [];
  const last: Module[] = [];
  projecting.forEach((m, i) => {
    const d = m.projectReads;
    const movable =
      d !== undefined &&
      d.bySeat === true &&
      projecting.slice(i + 1).every((n) => n.projectReads !== undefined && commute(d, n.projectReads));
    (movable ? last : kept).push(m);
  });
  return [...kept, ...last];
}

/**
 * The step whose output log the non-GM class keeps as a window (StageLog): the last declared `logByEntry`
 * projector, when every projector after it is declared and neither reads nor writes the log (so nothing but
 * finalLog ever reads that field of the stage worlds). -1 for none: the stage log stays an array.
 */
function windowStepOf(declared: readonly ({ readonly reads: readonly Part[]; readonly writes: readonly Part[]; readonly logByEntry: boolean } | null)[]): number {
  const touchesLog = (ps: readonly Part[]) => ps.some((p) => !p.ext && p.key === 'log');
  for (let i = declared.length - 1; i >= 0; i--) {
    const d = declared[i]!;
    if (d === null) return -1;
    if (d.logByEntry) return i;
    if (touchesLog(d.reads) || touchesLog(d.writes)) return -1;
  }
  return -1;
}

/** The per-part projector the engine uses when a caller keeps a memo. */
export function partsProjector(modules: readonly Module[], finish: (projected: World, log: FinalLog, viewer: Viewer) => World) {
  const projecting = seatStepsLast(modules.filter((m) => m.project !== undefined));
  // Every part the steps declare, once each (the log first): a walk notes which of them moved by place, not by name.
  const universe: Part[] = [LOG_PART];
  const byId = new Map<string, Part>([[LOG_PART.id, LOG_PART]]);
  const compile = (parts: readonly WorldPart[]): Part[] =>
    parts.map((id) => {
      let p = byId.get(id);
      if (p === undefined) {
        p = id.startsWith('ext.') ? { ext: true, key: id.slice(4), id, at: universe.length } : { ext: false, key: id, id, at: universe.length };
        byId.set(id, p);
        universe.push(p);
      }
      return p;
    });
  // Declarations resolved once; the log is handled apart for projectors that judge it entry by entry.
  const declared = projecting.map((m) => {
    const d = m.projectReads;
    if (d === undefined) return null;
    const writes = compile(d.writes);
    // A kept-from part's reads as places in the step memo's reads (-1 for one not declared a read: never counted unchanged).
    const from = Object.entries(d.writtenFrom ?? {}).flatMap(([part, reads]) =>
      reads === undefined ? [] : [{ part: compile([part as WorldPart])[0]!, at: writes.findIndex((w) => w.id === part), reads: compile(reads), places: reads.map((r) => d.reads.indexOf(r)) }],
    );
    return { reads: compile(d.reads), writes, logByEntry: d.logByEntry === true, logBasis: d.logByEntry === true ? (d.logBasis ?? null) : null, from };
  });
  // Projectors up to the first one that may read the seat (declared so, or undeclared) are shared by
  // a visibility class (the GM; everyone else); from there on each viewer has its own lane.
  const firstSeat = (() => {
    const i = projecting.findIndex((m) => m.projectReads === undefined || m.projectReads.bySeat === true);
    return i < 0 ? projecting.length : i;
  })();
  // A seat's keys made once: a key built per call is a new string to hash for every map read, per viewer per command.
  const seatKeys = new Map<string, { readonly viewer: string; readonly lane: string }>();
  const GM_KEYS = { viewer: 'gm', lane: 'lane:gm' } as const;
  const SPECTATOR_KEYS = { viewer: 'spectator', lane: 'lane:spectator' } as const;
  const keysOf = (v: Viewer): { readonly viewer: string; readonly lane: string } => {
    if (v.role !== 'player') return v.role === 'gm' ? GM_KEYS : SPECTATOR_KEYS;
    let k = seatKeys.get(v.seatId);
    if (k === undefined) {
      // One engine serves every table of a server: the seats met lately, not every seat ever.
      if (seatKeys.size >= 4096) seatKeys.clear();
      seatKeys.set(v.seatId, (k = { viewer: `player:${v.seatId}`, lane: `lane:player:${v.seatId}` }));
    }
    return k;
  };
  const viewerKey = (v: Viewer): string => keysOf(v).viewer;
  const windowStep = windowStepOf(declared);

  const memoOf = (memo: ViewMemo): PartsMemo => {
    if (memo.parts === undefined) memo.parts = { classes: new Map(), logs: new Map(), finals: new Map() } satisfies PartsMemo;
    return memo.parts as PartsMemo;
  };

  /** Every projector in order: the shared ones for the viewer's class, then the viewer's own lane. */
  function steps(world: World, viewer: Viewer, parts: PartsMemo): World {
    const shared = run(world, world, viewer, parts, viewer.role === 'gm' ? 'gm' : 'others', 0, firstSeat);
    return firstSeat === projecting.length ? shared : run(world, shared, viewer, parts, keysOf(viewer).lane, firstSeat, projecting.length);
  }

  const newWalk = (): Walk => {
    const n = universe.length;
    return { base: NO_WORLD, n: 0, ats: [], vals: new Array<unknown>(n).fill(undefined), has: new Uint8Array(n), differs: new Uint8Array(n), universe, source: new Uint8Array(n), moved: new Uint8Array(n) };
  };

  /**
   * movedFlags for a pair of worlds, kept for the next walk over the same pair (two slots: the unprojected pair every
   * class and lane asks for, and the shared steps' outputs every seat's lane starts from). They keep those worlds alive
   * until the next pairs, no more.
   */
  const pairs: { a: World; b: World; readonly flags: Uint8Array }[] = [
    { a: NO_WORLD, b: NO_WORLD, flags: new Uint8Array(universe.length) },
    { a: NO_WORLD, b: NO_WORLD, flags: new Uint8Array(universe.length) },
  ];
  let nextPair = 0;
  function flagsOf(a: World, b: World, into: Uint8Array): void {
    for (const p of pairs) {
      if (p.a === a && p.b === b) {
        into.set(p.flags);
        return;
      }
    }
    movedFlags(universe, a, b, into);
    const p = pairs[nextPair]!;
    nextPair = 1 - nextPair;
    p.a = a;
    p.b = b;
    p.flags.set(into);
  }

  /** A walk not in use (one per projector: a walk is not re-entered, but a projector that threw leaves its walk behind). */
  let idleWalk: Walk | null = null;

  /** Runs (or reuses) projectors [from, to) on `start`, keeping their memos under `key`. */
  function run(world: World, start: World, viewer: Viewer, parts: PartsMemo, key: string, from: number, to: number): World {
    if (from === to) return start;
    const last = parts.classes.get(key);
    // Another viewer of this class was just projected from this very world: the same parts serve.
    if (last !== undefined && last.source === world && last.start === start) return last.output;
    const held = last?.steps;
    // The memos, copied from last time's only from the first step whose memo changed.
    let done: StepMemo[] | null = held === undefined ? [] : null;
    const w = idleWalk ?? newWalk();
    idleWalk = null;
    w.base = start;
    leave(w);
    // Which parts moved since the class's last walk, by place: in the unprojected world (a projector may read it as its
    // source), and where the walk stands (from its start's, then kept step by step), so a step's reads are checked with
    // a few array reads and no lookups by name. Null once a step the walk cannot follow ran (an undeclared one): values
    // are compared then, as before.
    const source = w.source;
    let moved: Uint8Array | null = null;
    if (last !== undefined) {
      flagsOf(last.source, world, source);
      moved = w.moved;
      if (start === world && last.start === last.source) moved.set(source);
      else flagsOf(last.start, start, moved);
    }
    for (let i = from; i < to; i++) {
      const m = projecting[i]!;
      const d = declared[i]!;
      const prev = held?.[i - from];
      const window = i === windowStep && viewer.role !== 'gm';
      let memo: StepMemo | null = null;
      // The input's logBasis when worked out below and the projector then runs afresh on that same input.
      let basisNow: string | undefined;
      if (
        d !== null &&
        prev !== undefined &&
        (moved !== null ? noneFlagged(d.reads, source) && noneFlagged(d.reads, moved) : sameSourceParts(d.reads, last!.source, world) && sameReads(w, d.reads, prev.reads))
      ) {
        const n = d.reads.length;
        const inLog = d.logByEntry ? (valueAt(w, LOG_PART) as readonly LogEntry[]) : null;
        if (inLog === null || prev.reads[n] === inLog) {
          // The common case on every command: reads unchanged, last time's written parts put in again (into the walk: no world yet).
          for (let j = 0; j < d.writes.length; j++) if (prev.outs[j] !== PASSED) put(w, d.writes[j]!, prev.outs[j]);
          memo = prev;
        } else {
          // Only the log moved under a projector that judges it entry by entry: run it on the new entries.
          const was = prev.reads[n] as readonly LogEntry[];
          const logAt = d.writes.findIndex((p) => p.id === 'log');
          const heldLog = (prev.outs[logAt] === PASSED ? was : prev.outs[logAt]) as readonly LogEntry[];
          const ext = logExtension(was, inLog);
          if (ext !== null) {
            const ran = ext.fresh.length === 0 ? null : m.project!(reached(w, ext.fresh as LogEntry[]), viewer, world);
            const log = window ? extendedWindow(was, heldLog, ext, ran, inLog) : extendedLog(was, heldLog, ext, ran, inLog);
            const outs = prev.outs.slice();
            // Its other written parts as last time (the same objects); the log as just extended.
            for (let j = 0; j < d.writes.length; j++) if (j !== logAt && prev.outs[j] !== PASSED) put(w, d.writes[j]!, prev.outs[j]);
            put(w, LOG_PART, log);
            outs[logAt] = log === inLog ? PASSED : log;
            const reads = prev.reads.slice();
            reads[n] = inLog;
            memo = { reads, outs, basis: prev.basis };
          }
        }
      } else if (d !== null && d.logBasis !== null && prev !== undefined && prev.basis !== undefined) {
        // Another read moved (a countdown ticked) but maybe nothing an entry's fate reads did: the held entries then keep
        // their fate, so the projector runs on the new entries alone; its other written parts are made afresh.
        const input = reached(w);
        const basis = (basisNow = d.logBasis(input));
        if (basis === prev.basis) {
          const n = d.reads.length;
          const was = prev.reads[n] as readonly LogEntry[];
          const logAt = d.writes.findIndex((p) => p.id === 'log');
          const heldLog = (prev.outs[logAt] === PASSED ? was : prev.outs[logAt]) as readonly LogEntry[];
          const ext = was === input.log ? { dropped: [], fresh: [] } : logExtension(was, input.log);
          if (ext !== null) {
            const ran = m.project!({ ...input, log: ext.fresh as LogEntry[] }, viewer, world);
            const kept = ran.log.length === 0 ? null : ran;
            const log = window ? extendedWindow(was, heldLog, ext, kept, input.log) : extendedLog(was, heldLog, ext, kept, input.log);
            const inWrites = valuesOf(d.writes, input, false);
            // Passed through (the GM's): the walk stays on the input, so what comes after sees the same objects.
            for (const p of d.writes) put(w, p, p.id === 'log' ? log : partOf(ran, p));
            memo = memoAfter(d.writes, valuesOf(d.reads, input, true), inWrites, w, basis);
          }
        }
      }
      if (memo === null) {
        const input = reached(w);
        const output = m.project!(input, viewer, world);
        w.base = output;
        // The window step's own log starts a backing of its own (a copy: the projector's array may be shared).
        if (window && output.log !== input.log) put(w, LOG_PART, windowOf(output.log.slice()));
        if (d === null) memo = UNDECLARED;
        else {
          // A written part whose own reads did not change keeps its object (it was replaced last time and now).
          // A loop, not filter/map closures: the encounter step re-runs on every clock advance, for each class.
          if (prev !== undefined && prev !== UNDECLARED) {
            for (const f of d.from) {
              if (f.at < 0 || prev.outs[f.at] === PASSED || partOf(output, f.part) === partOf(input, f.part) || !(moved !== null ? noneFlagged(f.reads, source) : sameSourceParts(f.reads, last!.source, world))) continue;
              let same = true;
              for (let k = 0; k < f.reads.length && same; k++) same = f.places[k]! >= 0 && prev.reads[f.places[k]!] === partOf(input, f.reads[k]!);
              if (same) put(w, f.part, prev.outs[f.at]);
            }
          }
          memo = memoAfter(d.writes, valuesOf(d.reads, input, d.logByEntry), valuesOf(d.writes, input, false), w, d.logBasis === null ? undefined : (basisNow ?? d.logBasis(input)));
        }
      }
      if (moved !== null) {
        if (d === null || prev === undefined || prev === UNDECLARED) moved = null;
        else noteWrites(moved, d.writes, prev, memo);
      }
      if (done === null && memo !== prev) done = held!.slice(0, i - from);
      done?.push(memo);
    }
    const output = reached(w);
    // Kept for the next walk, holding no world.
    w.base = NO_WORLD;
    idleWalk = w;
    // Moved forward in place (a class's memo is its own): no object a class a command.
    if (last === undefined) parts.classes.set(key, { source: world, start, output, steps: done! });
    else {
      last.source = world;
      last.start = start;
      last.output = output;
      if (done !== null) last.steps = done;
    }
    return output;
  }

  /** The viewer's final log: entries it may read, copied for non-GM viewers, only new ones judged when the log just grew. */
  function finalLog(stage: StageLog, viewer: Viewer, memo: ViewMemo, parts: PartsMemo): FinalLog {
    // The GM reads every entry: the final log is the stage log itself, not a copy.
    if (viewer.role === 'gm') return stage as readonly LogEntry[];
    const key = viewerKey(viewer);
    const prev = parts.logs.get(key);
    let output: LogWindow | null = null;
    if (prev !== undefined && prev.output instanceof LogWindow) {
      if (prev.input === stage) output = prev.output;
      else {
        const ext = stageGrowth(prev.input, stage);
        if (ext !== null) {
          let kept = prev.output;
          if (ext.dropped.length > 0) {
            // The held copies of the dropped entries.
            const gone = new Set<unknown>();
            for (const e of ext.dropped) gone.add(memo.entryCopies.get(e));
            gone.delete(undefined);
            kept = windowDropFront(prev.output, gone);
          }
          const added = judge(ext.fresh, viewer, memo);
          output = added.length === 0 ? kept : (sharedLog(stage, prev.output, added) ?? remember(stage, prev.output, added, windowAppended(kept, added)));
        }
      }
    }
    if (output === null) {
      const judged = judge(stage, viewer, memo);
      output = sharedLog(stage, null, judged) ?? remember(stage, null, judged, windowOf(judged));
    }
    if (prev === undefined) parts.logs.set(key, { input: stage, output });
    else {
      prev.input = stage;
      prev.output = output;
    }
    return output;
  }

  /**
   * Non-GM viewers who held the same log and were given the same entries share one final log, so
   * their views (and deltas) can be told alike by reference. Keyed by what each was given, so a
   * viewer never gets an entry it was not given itself. The GM's logs (entries, not copies) are not shared.
   * The held log is named by its id: held itself would keep it, its world, and every log before it alive.
   * One slot, the latest stage: a room projects its viewers one after another, so they all meet the same
   * stage log there (a weak map insert per stage per command cost more than the sharing saved elsewhere).
   * Missing it only loses the sharing, never an entry.
   */
  let finalLogs: { readonly stage: StageLog; readonly list: { readonly held: number | null; readonly added: readonly LogEntry[]; readonly output: LogWindow }[] } | null = null;
  function sharedLog(stage: StageLog, held: LogWindow | null, added: readonly LogEntry[]): LogWindow | undefined {
    if (finalLogs === null || finalLogs.stage !== stage) return undefined;
    const heldId = held === null ? null : held.id;
    for (const r of finalLogs.list) if (r.held === heldId && sameEntries(r.added, added)) return r.output;
    return undefined;
  }
  function remember(stage: StageLog, held: LogWindow | null, added: readonly LogEntry[], output: LogWindow): LogWindow {
    // A handful of distinct logs per stage (the GM's aside, one per seat with a line of its own); bounded all the same.
    const heldId = held === null ? null : held.id;
    if (finalLogs === null || finalLogs.stage !== stage) finalLogs = { stage, list: [{ held: heldId, added, output }] };
    else if (finalLogs.list.length < 16) finalLogs.list.push({ held: heldId, added, output });
    return output;
  }

  /** The last non-GM finished world made, by its final log (the projected world it came from is checked too): one slot, as finalLogs. */
  let lastFinal: FinalMemo | null = null;

  /** The world as `viewer` may see it, reusing what `memo` holds from earlier projections. */
  return function projectByParts(world: World, viewer: Viewer, memo: ViewMemo): World {
    const parts = memoOf(memo);
    const projected = steps(world, viewer, parts);
    const log = finalLog(projected.log as StageLog, viewer, memo, parts);
    const key = viewerKey(viewer);
    const prev = parts.finals.get(key);
    if (prev !== undefined && prev.projected === projected && prev.log === log) return prev.output;
    // A non-GM world is made from the projected parts and the log alone: viewers with both the same share it.
    if (lastFinal !== null && lastFinal.log === log && lastFinal.projected === projected) {
      // Another viewer's memo, kept as is.
      parts.finals.set(key, lastFinal);
      return lastFinal.output;
    }
    const made: FinalMemo = { projected, log, output: finish(projected, log, viewer) };
    if (log instanceof LogWindow) lastFinal = made;
    parts.finals.set(key, made);
    return made.output;
  };
}
