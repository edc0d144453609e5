// A room is the one authority for one table (in-process): it runs
// engine.execute with fair dice, appends the transaction durably, and only
// then acknowledges and sends every connected session its own engine.view().
// Nothing else ever reaches a client: no raw events, no other viewer's view.
// Views are kept per viewer (GM, spectator, each seat) and moved forward by
// deltas the size of the change (deltas.ts, docs/adr/0012-incremental-deltas.md).
import { emptyTable, fairRng, LogWindow, windowAppended, windowOf, windowWithoutFirst, type Command, type Result, type Engine, type Json, type Rng, type Table, type TableView, type Transaction, type TransactionView, type Viewer, type ViewMemo, type World } from '@tablekeeper/engine';
import { PROTOCOL_VERSION, type Delta, type DeltaAck, type Presence, type QueryResult, type RejectionError, type ServerMessage } from '@tablekeeper/protocol';
import { deltaBetween, sameJson } from './deltas.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import type { BatchWriter, SyncEventStore, TableRecord } from './store/port.js';

export interface RoomLimits {
  /** Transactions per table (the log size cap). */
  readonly maxTransactions: number;
  /** Concurrent sessions per table. */
  readonly maxSessions: number;
  /** Write a snapshot (a cache) every this many versions. */
  readonly snapshotEvery: number;
  /** Views carry the last this-many history entries (older ones are in the export), so deltas stay bounded. */
  readonly historyWindow: number;
  /** A view's history looks at most this many transactions back (a player who sees little still costs a bounded walk). */
  readonly historyScan: number;
}

export const DEFAULT_ROOM_LIMITS: RoomLimits = { maxTransactions: 100_000, maxSessions: 200, snapshotEvery: 500, historyWindow: 100, historyScan: 2000 };

/** One connected client. The room never hands it anything but protocol messages, serialised (one buffer may go to many sessions). */
export interface Session {
  readonly id: number;
  readonly viewer: Viewer;
  readonly tokenHash: string;
  /** A Buffer may go to many sessions and is framed once for all of them (ADR 125): never change one once sent. */
  sendRaw(data: string | Buffer): void;
  close(code: number, reason: string): void;
  /** The table version of the view this session holds; null before its first snapshot. */
  held: number | null;
}

type UndoFlags = Pick<TableView, 'canUndo' | 'canRedo' | 'undoLabel' | 'redoLabel' | 'undoWords' | 'redoWords'>;

/**
 * The view every session of one viewer holds after the last frame, and its snapshot frame once serialised.
 * Its history is a window of a backing array the successive windows of one lineage share (engine LogWindow): a
 * command pushes its entry instead of copying the 100-entry window, which lived until the table's next command
 * (issue 19: such survivors are the collector's work). The plain view is made only for a snapshot.
 */
interface HeldView extends UndoFlags {
  readonly world: TableView['world'];
  readonly history: LogWindow<TransactionView>;
  readonly version: number;
  /** The engine's history basis of the unprojected world the view was made from (null for the GM's, who reads every event whole). */
  readonly basis: string | null;
  snapshot: Buffer | null;
}

/** The held view as the protocol's TableView (the history made whole, once per window). */
const viewOf = (h: HeldView): TableView => ({
  world: h.world,
  history: h.history.entries(),
  canUndo: h.canUndo,
  canRedo: h.canRedo,
  undoLabel: h.undoLabel,
  redoLabel: h.redoLabel,
  undoWords: h.undoWords,
  redoWords: h.redoWords,
  version: h.version,
});

export type SubmitResult = { readonly ok: true; readonly version: number; readonly duplicate: boolean; readonly transaction?: Transaction } | { readonly ok: false; readonly error: RejectionError };

/** A view made of these very parts (undo flags compared by value): whatever one viewer is sent fits the other. */
const madeOf = (a: HeldView, world: HeldView['world'], history: HeldView['history'], b: UndoFlags): boolean => {
  if (a.world !== world || a.history !== history) return false;
  return a.canUndo === b.canUndo && a.canRedo === b.canRedo && a.undoLabel === b.undoLabel && a.redoLabel === b.redoLabel && a.undoWords === b.undoWords && a.redoWords === b.redoWords;
};

/**
 * One delta's text and, once a session is sent it as it is, its bytes (shared by every such session). A frame that
 * only goes to its sender (the GM's, most often) is never encoded without the sender's acks.
 */
type Frame = { readonly text: string; buffer: Buffer | null; readonly version: number };
/** A viewer with no delta this time (nobody held a view, or it did not move). */
const NONE: Frame = { text: '', buffer: null, version: -1 };
/** A broadcast with no sender's acks in it (a replica's, a system change's). */
const NO_ACKS: ReadonlyMap<Session, readonly DeltaAck[]> = new Map();

/**
 * A delta's text with a sender's acks spliced in before its closing brace, written straight into one buffer: no copy
 * of a shared frame's bytes, and no joined string (encoding a joined string flattens it into a copy on the heap).
 */
function withAcks(text: string, acks: readonly DeltaAck[]): Buffer {
  const tail = `,"acks":${JSON.stringify(acks)}}`;
  const head = Buffer.byteLength(text) - 1;
  const out = Buffer.allocUnsafe(head + Buffer.byteLength(tail));
  out.write(text, 0, head);
  out.write(tail, head);
  return out;
}

/**
 * A list the room writes afresh for each version or broadcast, on one backing kept from one to the next: a list made
 * per command grew a backing of 17 slots each time (issue 19). Emptied, it lets go of what it held.
 */
class Reused<T> {
  private readonly items: (T | undefined)[] = [];
  length = 0;
  at(i: number): T {
    return this.items[i]!;
  }
  push(x: T): void {
    this.items[this.length++] = x;
  }
  clear(): void {
    for (let i = 0; i < this.length; i++) this.items[i] = undefined;
    this.length = 0;
  }
}

/** Who is connected to a table through one instance. */
export interface RemotePresence {
  readonly gm: boolean;
  readonly seats: readonly string[];
  readonly spectators: number;
}

/** A seat's key by viewer object: the broadcast asks twice per session and command, and a new string each time was garbage. */
const seatKeys = new WeakMap<Viewer, string>();
export const viewerKey = (v: Viewer): string => {
  if (v.role !== 'player') return v.role;
  let key = seatKeys.get(v);
  if (key === undefined) seatKeys.set(v, (key = `player:${v.seatId}`));
  return key;
};

/** Largest query answer sent (JSON characters): odds tables are small; this bounds a ruleset bug. */
export const MAX_QUERY_RESULT_CHARS = 60_000;

export class Room {
  readonly sessions = new Set<Session>();
  /** The last view sent to each viewer (by viewerKey); the base of their next delta. */
  private readonly held = new Map<string, HeldView>();
  /**
   * One projection memo for every viewer (ADR 20): projected parts are kept per visibility
   * class and re-made only when a part their projector reads changed; log copies keep their identity.
   */
  private memo: ViewMemo = { entryCopies: new WeakMap() };
  private rng: Rng = fairRng();
  private closed = false;

  private constructor(
    readonly record: TableRecord,
    readonly engine: Engine,
    /** Where a command outside a group commit writes (an embedded store); null on a networked one, whose rooms write through the queue. */
    private readonly store: BatchWriter | null,
    private readonly limits: RoomLimits,
    public table: Table,
  ) {}

  /** Rebuilds a room from the store: the latest snapshot (a cache) if usable, then the rows after it. */
  static load(store: SyncEventStore, engine: Engine, record: TableRecord, limits: RoomLimits = DEFAULT_ROOM_LIMITS): Room {
    const head = store.head(record.tableId);
    // Every row is read (history and redo need them); only those after a usable snapshot are applied.
    const rows = store.readLog(record.tableId);
    const snap = store.latestSnapshot(record.tableId);
    // The stored genesis is read under today's names (ADR 28: settings keyed by a renamed namespace); its bytes stay as stored.
    const upcast = (w: World): World => engine.upcastWorld(w);
    let table = (snap && snap.version <= head ? decodeSnapshot(snap.state, snap.version, record.genesis, rows, upcast) : null) ?? emptyTable(upcast(record.genesis));
    for (let i = table.transactions.length; i < rows.length; i++) table = engine.apply(table, rows[i]!.transaction);
    if (table.transactions.length !== head) throw new Error(`table ${record.tableId}: rebuilt ${table.transactions.length} transactions, the store has ${head}`);
    return new Room(record, engine, store, limits, table);
  }

  /** A room on a table already built in memory (an import that just replayed it): no cold load. */
  static fromTable(store: BatchWriter | null, engine: Engine, record: TableRecord, table: Table, limits: RoomLimits = DEFAULT_ROOM_LIMITS): Room {
    return new Room(record, engine, store, limits, table);
  }

  get tableId(): string {
    return this.record.tableId;
  }

  get version(): number {
    return this.table.transactions.length;
  }

  /** For tests and benchmarks: replace the fair dice (never used by the running server). */
  useRng(rng: Rng): void {
    this.rng = rng;
  }

  /** engine.view for this viewer, its history cut to the window: the only thing a client is ever sent. */
  view(viewer: Viewer): TableView {
    return this.engine.view(this.table, viewer, this.historyOptions());
  }

  private historyOptions() {
    return (this.wholeHistory ??= { window: this.limits.historyWindow, scan: this.limits.historyScan });
  }
  private wholeHistory: { readonly window: number; readonly scan: number } | null = null;

  /**
   * The viewer's view at the current version, built on the one they hold: only the
   * history entries after it are made (same entries, same objects); the world is projected by
   * parts, so only what changed is re-made (a log that just grew: only its new entries).
   */
  private nextView(viewer: Viewer, held: HeldView | undefined): HeldView {
    const world = this.engine.project(this.table.world, viewer, this.memo);
    const flags = this.engine.undoState(this.table, viewer);
    const basis = viewer.role === 'gm' ? null : this.basisNow();
    let history: LogWindow<TransactionView>;
    // A non-GM viewer reads history events through what the engine's history basis names (ADR 45: the foes' reveal, who
    // is a foe): when it moved (an undone PC, a seat given up, a reveal), the entries they hold are re-made too, not only the new ones.
    if (held === undefined || held.version > this.version || (basis !== null && held.basis !== basis)) {
      // As engine.view, with the world projected by parts.
      history = this.sharedHistory(null, [], this.engine.history(this.table, viewer, this.historyOptions()));
    } else {
      const added = this.engine.history(this.table, viewer, this.historyAfter(held.version));
      history = this.sharedHistory(held.history, added, null);
    }
    // Viewers whose views come out made of the same parts hold one view (and one snapshot, one frame), found before
    // another is made (issue 19: the seats' copies were garbage). Only a view made at this version can be the same,
    // so those are kept in a list of their own (no walk of the held map).
    const views = this.viewsNow;
    if (this.viewsTable !== this.table) {
      this.viewsTable = this.table;
      views.clear();
    }
    for (let i = 0; i < views.length; i++) if (madeOf(views.at(i), world, history, flags)) return views.at(i);
    const view: HeldView = {
      world,
      history,
      canUndo: flags.canUndo,
      canRedo: flags.canRedo,
      undoLabel: flags.undoLabel,
      redoLabel: flags.redoLabel,
      undoWords: flags.undoWords,
      redoWords: flags.redoWords,
      version: this.version,
      basis,
      snapshot: null,
    };
    views.push(view);
    return view;
  }

  /**
   * The history basis of the table's world, worked out once per version: every non-GM viewer's view compares it
   * with the one their held view was made at (two weak map reads a viewer before, ADR 115).
   */
  private basisNow(): string {
    if (this.basisTable !== this.table) {
      this.basisTable = this.table;
      this.basisValue = this.engine.historyBasis(this.table.world);
    }
    return this.basisValue;
  }
  private basisTable: Table | null = null;
  private basisValue = '';

  /** The history options for entries after `version`, made once per held version (most viewers held the last one). */
  private historyAfter(version: number): { readonly window: number; readonly scan: number; readonly after: number } {
    const o = this.afterOptions;
    if (o !== null && o.after === version) return o;
    return (this.afterOptions = { window: this.limits.historyWindow, scan: this.limits.historyScan, after: version });
  }
  private afterOptions: { readonly window: number; readonly scan: number; readonly after: number } | null = null;

  /**
   * Histories made at this version: viewers who held the same window and were given equal new
   * entries (most players, for most commands) share one window, so their views are told alike by
   * reference. Keyed by what each viewer was given, never by who they are.
   */
  private readonly histories = new Reused<{ readonly base: LogWindow<TransactionView> | null; readonly added: readonly TransactionView[]; readonly history: LogWindow<TransactionView> }>();
  private historiesTable: Table | null = null;

  /** The held window `was` less what fell out of the window or the scan, then `added`; or, with `was` null, `fresh` as a whole. */
  private sharedHistory(was: LogWindow<TransactionView> | null, added: readonly TransactionView[], fresh: TransactionView[] | null): LogWindow<TransactionView> {
    const made = this.histories;
    if (this.historiesTable !== this.table) {
      this.historiesTable = this.table;
      made.clear();
    }
    if (was === null) {
      const whole = fresh!;
      for (let i = 0; i < made.length; i++) {
        const m = made.at(i);
        if (m.base === null && sameJson(m.added, whole)) return m.history;
      }
      const history = windowOf(whole);
      made.push({ base: null, added: whole, history });
      return history;
    }
    for (let i = 0; i < made.length; i++) {
      const m = made.at(i);
      if (m.base === was && sameJson(m.added, added)) return m.history;
    }
    const oldest = this.version - this.limits.historyScan;
    // The held window, less entries older than the scan or past the window, then the new ones: pushed onto the shared backing.
    let from = 0;
    while (from < was.length && was.at(from)!.seq <= oldest) from++;
    from = Math.max(from, was.length + added.length - this.limits.historyWindow);
    const skip = Math.max(0, from - was.length);
    const history = windowAppended(windowWithoutFirst(was, Math.min(from, was.length)), skip === 0 ? added : added.slice(skip));
    made.push({ base: was, added, history });
    return history;
  }

  /** The world as this viewer may see it, from the view they hold when it is current. */
  private projected(viewer: Viewer): TableView['world'] {
    const h = this.held.get(viewerKey(viewer));
    return h !== undefined && h.version === this.version ? h.world : this.engine.project(this.table.world, viewer);
  }

  /**
   * A module query on this viewer's own projection (engine.query), so neither an
   * answer nor an error can use what the viewer may not see (ADR 10: no text scrubbing).
   */
  query(viewer: Viewer, queryId: string, name: string, args: { readonly [k: string]: Json } | undefined): QueryResult {
    return this.answer(viewer, queryId, this.engine.query(this.table, viewer, name, args ?? {}));
  }

  /** A query's result as the protocol answer for `viewer` (errors come from the viewer's own projection, size capped): also for answers from the query pool. */
  answer(viewer: Viewer, queryId: string, r: Result<Json>): QueryResult {
    if (!r.ok) {
      return { type: 'queryResult', queryId, ok: false, error: { code: r.error.code, message: r.error.message, ...(r.error.path === undefined ? {} : { path: r.error.path }) } };
    }
    if (JSON.stringify(r.value).length > MAX_QUERY_RESULT_CHARS) {
      return { type: 'queryResult', queryId, ok: false, error: { code: 'LIMIT_EXCEEDED', message: `a query answer is at most ${MAX_QUERY_RESULT_CHARS} characters` } };
    }
    return { type: 'queryResult', queryId, ok: true, result: r.value };
  }

  // ------------------------------------------------------------ sessions

  canJoin(): boolean {
    return !this.closed && this.sessions.size < this.limits.maxSessions;
  }

  join(session: Session): void {
    this.sessions.add(session);
    this.send(session, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, tableId: this.tableId, viewer: session.viewer, version: this.version, serverTime: Date.now() });
    this.sendSnapshot(session);
    this.broadcastPresence();
  }

  leave(session: Session): void {
    if (this.sessions.delete(session)) {
      const key = viewerKey(session.viewer);
      // A viewer nobody watches any more costs no memory (the memo starts afresh once nobody is left).
      if (![...this.sessions].some((s) => viewerKey(s.viewer) === key)) {
        this.held.delete(key);
        this.frameSlots.delete(key);
      }
      if (this.sessions.size === 0) this.memo = { entryCopies: new WeakMap() };
      this.broadcastPresence();
    }
  }

  /** The view this viewer holds now, brought to the current version (sessions still holding an older one get snapshots). */
  private current(viewer: Viewer): HeldView {
    const key = viewerKey(viewer);
    const held = this.held.get(key);
    if (held !== undefined && held.version === this.version) return held;
    const next = this.nextView(viewer, held);
    this.held.set(key, next);
    return next;
  }

  /** The distinct views made at this table's version (nextView()). */
  private readonly viewsNow = new Reused<HeldView>();
  private viewsTable: Table | null = null;

  sendSnapshot(session: Session): void {
    const h = this.current(session.viewer);
    // Every session of a viewer that (re)joins at this version gets the same bytes.
    h.snapshot ??= Buffer.from(JSON.stringify({ type: 'snapshot', version: h.version, view: viewOf(h) }));
    session.held = h.version;
    session.sendRaw(h.snapshot);
  }

  /** The client holds the view at `since`: an empty delta if that is current, else a fresh snapshot. */
  resync(session: Session, since: number): void {
    if (since === this.version && session.held === this.version) {
      this.send(session, { type: 'delta', from: since, version: since });
      return;
    }
    this.sendSnapshot(session);
  }

  /** Closes the sessions holding any of these token hashes (a revoked seat or link). */
  revoke(hashes: ReadonlySet<string>, message: string, code: number): number {
    let n = 0;
    for (const s of [...this.sessions]) {
      if (!hashes.has(s.tokenHash)) continue;
      this.send(s, { type: 'seatRevoked', message });
      this.sessions.delete(s);
      s.close(code, message);
      n++;
    }
    if (n) this.broadcastPresence();
    return n;
  }

  closeAll(code: number, reason: string): void {
    this.closed = true;
    for (const s of this.sessions) s.close(code, reason);
    this.sessions.clear();
  }

  send(session: Session, msg: ServerMessage): void {
    session.sendRaw(JSON.stringify(msg));
  }

  // ------------------------------------------------------------ commands

  /**
   * Decide, append durably, then broadcast. A retried commandId gets the
   * original version back (applied once); a stale expectedVersion loses.
   * `writer` is the group commit's (commit-queue.ts); without one, the room's embedded store.
   */
  submit(actor: Viewer, commandId: string | null, expectedVersion: number, command: Command, writer: BatchWriter | null = this.store): SubmitResult {
    const actorKey = viewerKey(actor);
    if (actor.role === 'spectator') return { ok: false, error: { kind: 'FORBIDDEN', message: 'spectators watch; they cannot send commands' } };
    if (writer === null) return { ok: false, error: { kind: 'UNAVAILABLE', message: 'this table writes through its commit queue; nothing was applied' } };
    // A retried id is answered with its first outcome before any refusal. The store's append refuses a used id
    // itself, so the id is looked up only on the way to a refusal, never before the usual append (ADR 63).
    if (expectedVersion !== this.version) {
      return this.refused(writer, actorKey, commandId, { kind: 'VERSION_CONFLICT', current: this.version, message: `the table is at version ${this.version}, not ${expectedVersion}` });
    }
    if (this.version >= this.limits.maxTransactions) {
      return this.refused(writer, actorKey, commandId, { kind: 'LIMIT_REACHED', limit: 'maxTransactions', max: this.limits.maxTransactions, message: `this table's log is full (${this.limits.maxTransactions} transactions); export it and start a new table` });
    }
    // The wall clock goes in like the dice: the turn timer's events record it (ADR 29).
    const r = this.engine.execute(this.table, command, { rng: this.rng, actor, now: Date.now() });
    if (!r.ok) return this.refused(writer, actorKey, commandId, this.ruleRejection(r.error));
    let appended;
    try {
      appended = writer.append(this.tableId, expectedVersion, { commandId, actorKey, transaction: r.value.transaction });
    } catch (e) {
      return { ok: false, error: { kind: 'UNAVAILABLE', message: `the change could not be saved, nothing was applied (${e instanceof Error ? e.message : 'store error'})` } };
    }
    if (!appended.ok) {
      if (appended.reason === 'duplicate') return { ok: true, version: appended.existing.version, duplicate: true };
      return { ok: false, error: { kind: 'VERSION_CONFLICT', current: appended.current, message: `the table is at version ${appended.current}` } };
    }
    this.table = r.value.table;
    if (this.version % this.limits.snapshotEvery === 0) this.snapshot(writer);
    return { ok: true, version: appended.version, duplicate: false, transaction: r.value.transaction };
  }

  /** A refusal, unless this sender already used the id: then its first outcome (scoped by sender, another's id tells nothing). */
  private refused(writer: BatchWriter, actorKey: string, commandId: string | null, error: RejectionError): SubmitResult {
    const seen = commandId === null ? null : writer.findCommand(this.tableId, actorKey, commandId);
    return seen ? { ok: true, version: seen.version, duplicate: true } : { ok: false, error };
  }

  /**
   * A replica's step (issue 22, ADR 54): applies a transaction another instance committed as
   * version `version`. `applied` when it was the next one; `known` when this room already has it
   * (a late or repeated announcement); `gap` when some are missing, which the caller reads from the
   * store before trying again. The caller broadcasts after applying, as after a submit.
   */
  follow(version: number, transaction: Transaction): 'applied' | 'known' | 'gap' {
    if (version <= this.version) return 'known';
    if (version !== this.version + 1) return 'gap';
    this.table = this.engine.apply(this.table, transaction);
    return 'applied';
  }

  private snapshot(writer: BatchWriter): void {
    try {
      writer.putSnapshot(this.tableId, this.version, encodeSnapshot(this.table));
    } catch {
      // a snapshot is only a cache: failing to write one loses nothing
    }
  }

  /**
   * A rule error as `actor` may read it. The engine builds a player's refusal
   * from what that player may see (a hidden id answers as a missing one), so
   * the text is passed on as is (ADR 10).
   */
  private ruleRejection(e: { code: string; message: string; path?: string; column?: number }): RejectionError {
    if (e.code === 'FORBIDDEN') return { kind: 'FORBIDDEN', message: e.message };
    // A column points into the field the viewer sent (dice notation), so it reveals nothing.
    return { kind: 'RULE_ERROR', code: e.code, message: e.message, ...(e.path === undefined ? {} : { path: e.path }), ...(e.column === undefined ? {} : { column: e.column }) };
  }

  // ------------------------------------------------------------ broadcasting

  /**
   * Sends every session the change to ITS view since the one it holds. The delta is
   * computed and serialised once per viewer, and viewers whose deltas read the same
   * share one buffer. A sender's own commands ride in its copy (`acks`), so it gets
   * no separate ack frame. Adds the sessions whose acks went out that way to `acked` and returns it.
   */
  broadcast(acks: ReadonlyMap<Session, readonly DeltaAck[]> = NO_ACKS, acked: Set<Session> = new Set()): Set<Session> {
    // Each viewer's frame, in a slot per viewer the room keeps (a Map per broadcast was garbage per command),
    // marked with this broadcast's number; the frames are let go of at the end.
    const stamp = ++this.broadcasts;
    const frames = this.frameSlots;
    // Viewers who held one view and now hold one view (the same objects, see current()) get one
    // frame, found by reference. Other viewers whose deltas read the same (compared down to shared
    // references) get it too: each distinct delta is serialised once and sent as one buffer.
    const made = this.deltasMade;
    for (const s of this.sessions) {
      const key = viewerKey(s.viewer);
      let slot = frames.get(key);
      if (slot === undefined) frames.set(key, (slot = { stamp: 0, frame: NONE }));
      let frame = slot.stamp === stamp ? slot.frame : undefined;
      if (frame === undefined) {
        const held = this.held.get(key);
        const next = this.current(s.viewer);
        if (held === undefined || held === next) {
          // Nobody of this viewer held a view (or it did not move): sessions below get snapshots or nothing.
          frame = NONE;
        } else {
          for (let i = 0; i < made.length; i++) {
            const m = made.at(i);
            if (m.held === held && m.next === next) frame = m.frame;
          }
          if (frame === undefined) {
            const delta = deltaBetween(held, next);
            for (let i = 0; i < made.length && frame === undefined; i++) if (sameJson(made.at(i).delta, delta)) frame = made.at(i).frame;
            frame ??= { text: JSON.stringify(delta), buffer: null, version: held.version };
            made.push({ held, next, delta, frame });
          }
        }
        slot.stamp = stamp;
        slot.frame = frame;
        this.framesSet.push(slot);
      }
      if (s.held === this.version) continue;
      if (s.held === null || s.held !== frame.version) {
        this.sendSnapshot(s);
        continue;
      }
      s.held = this.version;
      const mine = acks.get(s);
      if (mine === undefined || mine.length === 0) {
        s.sendRaw((frame.buffer ??= Buffer.from(frame.text)));
        continue;
      }
      s.sendRaw(withAcks(frame.text, mine));
      acked.add(s);
    }
    // Nothing of this broadcast is kept until the table's next command: its frames, deltas, and the lists
    // that let viewers share views and histories at this version (issue 19: whatever lives until the next
    // command is copied by the collector). A view made later at this version is made apart, as good.
    for (let i = 0; i < this.framesSet.length; i++) this.framesSet.at(i).frame = NONE;
    this.framesSet.clear();
    made.clear();
    this.viewsNow.clear();
    this.histories.clear();
    return acked;
  }

  /** The frame slots by viewer key (broadcast), and those given a frame in the running broadcast. */
  private readonly frameSlots = new Map<string, { stamp: number; frame: Frame }>();
  private readonly framesSet = new Reused<{ stamp: number; frame: Frame }>();
  private broadcasts = 0;
  /** The distinct deltas of the running broadcast. */
  private readonly deltasMade = new Reused<{ readonly held: HeldView; readonly next: HeldView; readonly delta: Delta; readonly frame: Frame }>();

  /** Other instances' sessions at this table, by instance (the shared mode, ADR 60): counted in presence. */
  private readonly remotePresence = new Map<string, RemotePresence>();
  /** Told after presence went out to this room's sessions (the shared mode tells other instances when ours changed). */
  onPresence: (() => void) | null = null;

  /** Who is connected through this instance. */
  localPresence(): RemotePresence {
    const seats = new Set<string>();
    let gm = false;
    let spectators = 0;
    for (const s of this.sessions) {
      if (s.viewer.role === 'gm') gm = true;
      else if (s.viewer.role === 'spectator') spectators++;
      else seats.add(s.viewer.seatId);
    }
    return { gm, seats: [...seats].sort(), spectators };
  }

  /** Another instance's sessions here (null: it has none, or stopped telling); sessions are sent the new presence. */
  setRemotePresence(instanceId: string, p: RemotePresence | null): void {
    const was = this.remotePresence.get(instanceId);
    if (p === null || (!p.gm && p.seats.length === 0 && p.spectators === 0)) {
      if (!this.remotePresence.delete(instanceId)) return;
    } else {
      // A heartbeat that says what we know changes nothing on anyone's screen.
      if (was !== undefined && was.gm === p.gm && was.spectators === p.spectators && was.seats.join('\u0000') === p.seats.join('\u0000')) return;
      this.remotePresence.set(instanceId, p);
    }
    this.broadcastPresence();
  }

  presenceFor(viewer: Viewer): Presence {
    const online = new Set<string>();
    let gm = false;
    let spectators = 0;
    for (const s of this.sessions) {
      if (s.viewer.role === 'gm') gm = true;
      else if (s.viewer.role === 'spectator') spectators++;
      else online.add(s.viewer.seatId);
    }
    for (const r of this.remotePresence.values()) {
      gm ||= r.gm;
      spectators += r.spectators;
      for (const seatId of r.seats) online.add(seatId);
    }
    // Only seats this viewer's own view contains.
    const seats = Object.keys(this.projected(viewer).seats).map((seatId) => ({ seatId, online: online.has(seatId) }));
    return { type: 'presence', gm, seats, spectators };
  }

  broadcastPresence(): void {
    const cache = new Map<string, string>();
    for (const s of this.sessions) {
      const key = viewerKey(s.viewer);
      let text = cache.get(key);
      if (text === undefined) cache.set(key, (text = JSON.stringify(this.presenceFor(s.viewer))));
      s.sendRaw(text);
    }
    this.onPresence?.();
  }
}
