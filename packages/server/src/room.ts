// A room is the one authority for one table (in-process): it runs
// engine.execute with fair dice, appends the transaction durably, and only
// then acknowledges and sends every connected session its own engine.view().
// Nothing else ever reaches a client: no raw events, no other viewer's view.
import { emptyTable, fairRng, type Command, type Result, type Engine, type Json, type Rng, type Table, type TableView, type Transaction, type Viewer } from '@tablekeeper/engine';
import { PROTOCOL_VERSION, type Delta, type Presence, type QueryResult, type RejectionError, type ServerMessage } from '@tablekeeper/protocol';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import type { EventStore, TableRecord } from './store/port.js';

export interface RoomLimits {
  /** Transactions per table (the log size cap). */
  readonly maxTransactions: number;
  /** Concurrent sessions per table. */
  readonly maxSessions: number;
  /** Write a snapshot (a cache) every this many versions. */
  readonly snapshotEvery: number;
  /** Views carry the last this-many history entries (older ones are in the export), so deltas stay bounded. */
  readonly historyWindow: number;
}

export const DEFAULT_ROOM_LIMITS: RoomLimits = { maxTransactions: 100_000, maxSessions: 200, snapshotEvery: 500, historyWindow: 100 };

/** One connected client. `send` serialises; the room never hands it anything but protocol messages. */
export interface Session {
  readonly id: number;
  readonly viewer: Viewer;
  readonly tokenHash: string;
  sendRaw(text: string): void;
  close(code: number, reason: string): void;
  /** The parts (as JSON text) of the last view this session received; null before its first snapshot. */
  last: ViewParts | null;
}

/** A view split into comparable parts: top-level keys, and world keys as `world.<key>`. */
type ViewParts = ReadonlyMap<string, string>;

export type SubmitResult = { readonly ok: true; readonly version: number; readonly duplicate: boolean; readonly transaction?: Transaction } | { readonly ok: false; readonly error: RejectionError };

export const viewerKey = (v: Viewer): string => (v.role === 'player' ? `player:${v.seatId}` : v.role);

function splitView(view: TableView): ViewParts {
  const parts = new Map<string, string>();
  for (const [k, v] of Object.entries(view)) {
    if (k === 'world' || k === 'version') continue;
    parts.set(k, JSON.stringify(v));
  }
  for (const [k, v] of Object.entries(view.world)) parts.set(`world.${k}`, JSON.stringify(v));
  return parts;
}

/** Largest query answer sent (JSON characters): odds tables are small; this bounds a ruleset bug. */
export const MAX_QUERY_RESULT_CHARS = 60_000;

export class Room {
  readonly sessions = new Set<Session>();
  private rng: Rng = fairRng();
  private closed = false;

  private constructor(
    readonly record: TableRecord,
    readonly engine: Engine,
    private readonly store: EventStore,
    private readonly limits: RoomLimits,
    public table: Table,
  ) {}

  /** Rebuilds a room from the store: the latest snapshot (a cache) if usable, then the rows after it. */
  static load(store: EventStore, engine: Engine, record: TableRecord, limits: RoomLimits = DEFAULT_ROOM_LIMITS): Room {
    const head = store.head(record.tableId);
    // Every row is read (history and redo need them); only those after a usable snapshot are applied.
    const rows = store.readLog(record.tableId);
    const snap = store.latestSnapshot(record.tableId);
    let table = (snap && snap.version <= head ? decodeSnapshot(snap.state, snap.version, record.genesis, rows) : null) ?? emptyTable(record.genesis);
    for (let i = table.transactions.length; i < rows.length; i++) table = engine.apply(table, rows[i]!.transaction);
    if (table.transactions.length !== head) throw new Error(`table ${record.tableId}: rebuilt ${table.transactions.length} transactions, the store has ${head}`);
    return new Room(record, engine, store, limits, table);
  }

  /** A room on a table already built in memory (an import that just replayed it): no cold load. */
  static fromTable(store: EventStore, engine: Engine, record: TableRecord, table: Table, limits: RoomLimits = DEFAULT_ROOM_LIMITS): Room {
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
    const v = this.engine.view(this.table, viewer);
    const w = this.limits.historyWindow;
    return v.history.length > w ? { ...v, history: v.history.slice(-w) } : v;
  }

  /**
   * A module query on this viewer's own projection (engine.query), so neither an
   * answer nor an error can use what the viewer may not see (ADR 10: no text scrubbing).
   */
  query(viewer: Viewer, queryId: string, name: string, args: { readonly [k: string]: Json } | undefined): QueryResult {
    return this.answer(viewer, queryId, this.engine.query(this.table, viewer, name, args ?? {}));
  }

  /** A query's result as the protocol answer for `viewer` (errors scrubbed for players, size capped): also for answers from the query pool. */
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
    this.send(session, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, tableId: this.tableId, viewer: session.viewer, version: this.version });
    this.sendSnapshot(session);
    this.broadcastPresence();
  }

  leave(session: Session): void {
    if (this.sessions.delete(session)) this.broadcastPresence();
  }

  sendSnapshot(session: Session): void {
    const view = this.view(session.viewer);
    session.last = splitView(view);
    this.send(session, { type: 'snapshot', version: this.version, view });
  }

  /** The client holds the view at `since`: an empty delta if that is current, else a fresh snapshot. */
  resync(session: Session, since: number): void {
    if (since === this.version && session.last !== null) {
      this.send(session, { type: 'delta', from: since, version: since, parts: {} });
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
   */
  submit(actor: Viewer, commandId: string | null, expectedVersion: number, command: Command): SubmitResult {
    const actorKey = viewerKey(actor);
    if (actor.role === 'spectator') return { ok: false, error: { kind: 'FORBIDDEN', message: 'spectators watch; they cannot send commands' } };
    if (commandId !== null) {
      // Scoped by sender: another viewer's use of the same id is invisible here, so it tells nothing.
      const seen = this.store.findCommand(this.tableId, actorKey, commandId);
      if (seen) return { ok: true, version: seen.version, duplicate: true };
    }
    if (expectedVersion !== this.version) {
      return { ok: false, error: { kind: 'VERSION_CONFLICT', current: this.version, message: `the table is at version ${this.version}, not ${expectedVersion}` } };
    }
    if (this.version >= this.limits.maxTransactions) {
      return { ok: false, error: { kind: 'LIMIT_REACHED', limit: 'maxTransactions', max: this.limits.maxTransactions, message: `this table's log is full (${this.limits.maxTransactions} transactions); export it and start a new table` } };
    }
    const r = this.engine.execute(this.table, command, { rng: this.rng, actor });
    if (!r.ok) return { ok: false, error: this.ruleRejection(r.error) };
    let appended;
    try {
      appended = this.store.append(this.tableId, expectedVersion, { commandId, actorKey, transaction: r.value.transaction });
    } catch (e) {
      return { ok: false, error: { kind: 'UNAVAILABLE', message: `the change could not be saved, nothing was applied (${e instanceof Error ? e.message : 'store error'})` } };
    }
    if (!appended.ok) {
      if (appended.reason === 'duplicate') return { ok: true, version: appended.existing.version, duplicate: true };
      return { ok: false, error: { kind: 'VERSION_CONFLICT', current: appended.current, message: `the table is at version ${appended.current}` } };
    }
    this.table = r.value.table;
    if (this.version % this.limits.snapshotEvery === 0) this.snapshot();
    return { ok: true, version: appended.version, duplicate: false, transaction: r.value.transaction };
  }

  private snapshot(): void {
    try {
      this.store.putSnapshot(this.tableId, this.version, encodeSnapshot(this.table));
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

  /** Sends every session the parts of ITS view that changed (computed once per distinct viewer). */
  broadcast(from: number): void {
    const views = new Map<string, { parts: ViewParts; view: TableView }>();
    const deltas = new WeakMap<ViewParts, Map<string, string>>();
    for (const s of this.sessions) {
      const key = viewerKey(s.viewer);
      let cur = views.get(key);
      if (!cur) {
        const view = this.view(s.viewer);
        cur = { view, parts: splitView(view) };
        views.set(key, cur);
      }
      if (s.last === null) {
        this.sendSnapshot(s);
        continue;
      }
      // Sessions of one viewer usually share their last parts: serialise their delta once.
      let byKey = deltas.get(s.last);
      if (!byKey) deltas.set(s.last, (byKey = new Map()));
      let text = byKey.get(key);
      if (text === undefined) {
        text = JSON.stringify(this.delta(s.last, cur, from));
        byKey.set(key, text);
      }
      s.last = cur.parts;
      s.sendRaw(text);
    }
  }

  private delta(last: ViewParts, cur: { parts: ViewParts; view: TableView }, from: number): Delta {
    const parts: Record<string, unknown> = {};
    const world: Record<string, unknown> = {};
    let worldChanged = false;
    const viewRec = cur.view as unknown as Record<string, unknown>;
    const worldRec = cur.view.world as unknown as Record<string, unknown>;
    for (const [k, text] of cur.parts) {
      if (last.get(k) === text) continue;
      if (k.startsWith('world.')) {
        world[k.slice(6)] = worldRec[k.slice(6)];
        worldChanged = true;
      } else parts[k] = viewRec[k];
    }
    return worldChanged ? { type: 'delta', from, version: this.version, parts, world } : { type: 'delta', from, version: this.version, parts };
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
    // Only seats this viewer's own view contains.
    const seats = Object.keys(this.view(viewer).world.seats).map((seatId) => ({ seatId, online: online.has(seatId) }));
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
  }
}
