// The SQLite store with its writes on a worker thread (ADR 107). The event
// loop decides a group commit against staged rows (store/staged.ts), each
// transaction serialised once here, and sends the batch in one message; the
// writer thread (sqlite-writer.ts) runs BEGIN, the INSERTs, COMMIT and the
// WAL syncs of ADR 24 and 31 on its own connection. A batch is acknowledged
// only after the thread says it is committed ('process-crash') or synced
// ('os-crash'). A batch's command ids are read by the thread before it decides
// (ADR 122); one outside them on a read-only connection here. Batches are never
// pipelined, so both see every batch before the one deciding.
// The rare calls (tables, tokens, cold loads, imports) go through the thread in
// order, so a read issued after a write sees it, as with the in-thread store.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { StoreError, type EventStore, type JoinCodeRecord, type TableRecord, type TokenRecord, type TxRecord } from './port.js';
import type { Transaction } from '@tablekeeper/engine';
import { commandFinder, DEFAULT_DURABILITY, ownerLock, refuseMemoryPath, type BatchRow, type Durability } from './sqlite.js';
import type { FromWriter, ToWriter, WireError, WriterData } from './sqlite-writer.js';
import { commandKey, StagedBatch } from './staged.js';

/** Where the embedded store's writes run: 'thread' (ADR 107) or 'loop' (the in-thread store of ADR 24, 31). */
export type SqliteWriter = 'thread' | 'loop';
export const DEFAULT_SQLITE_WRITER: SqliteWriter = 'loop';

export interface SqliteThreadOptions {
  readonly durability?: Durability;
  readonly syncWindowMs?: number;
  readonly checkpointEveryMs?: number;
  /** Requests waiting for the thread at most; more are refused as UNAVAILABLE (default 4096). */
  readonly maxPending?: number;
  /** Restarts of a dead thread allowed per minute before the store reports itself unhealthy (default 3). */
  readonly restartsPerMinute?: number;
}

export interface SqliteThreadStore extends EventStore {
  readonly kind: 'sqlite';
  readonly durability: Durability;
  /** Online backup of the whole database to `path`, run by the writer thread. */
  backup(path: string): Promise<void>;
  /** 'process-crash': runs a pending window's WAL sync now. */
  syncNow(): Promise<void>;
  walSyncPending(): Promise<boolean>;
  checkpointNow(): Promise<{ walFrames: number; copied: number }>;
  /** How many times the writer thread was started again after it died. */
  restarts(): number;
  /** Tests: the writer thread dies at its next group commit: before its transaction, inside it, or after its COMMIT. */
  dieAtNextCommit(when: 'before' | 'inside' | 'after'): void;
}

const MAX_PENDING = 4096;
const RESTARTS_PER_MINUTE = 3;
/** A thread that does not close within this long is stopped (its connection's open transaction rolls back). */
const CLOSE_BOUND_MS = 10_000;

const fromWire = (e: WireError): Error =>
  e.name === 'StoreError' ? new StoreError(e.code as ConstructorParameters<typeof StoreError>[0], e.message) : Object.assign(new Error(e.message), e.code === undefined ? {} : { code: e.code });

type Waiting =
  | { readonly kind: 'call'; readonly resolve: (v: unknown) => void; readonly reject: (e: Error) => void }
  /** `lost`: the thread died with the batch sent; whether it committed is unknown. */
  | { readonly kind: 'commit'; readonly committed: (syncing: boolean) => void; readonly failed: (e: Error) => void; readonly lost: (e: Error) => void };

export async function openSqliteThreadStore(path: string, options: SqliteThreadOptions = {}): Promise<SqliteThreadStore> {
  refuseMemoryPath(path);
  const durability = options.durability ?? DEFAULT_DURABILITY;
  const maxPending = options.maxPending ?? MAX_PENDING;
  const restartsPerMinute = options.restartsPerMinute ?? RESTARTS_PER_MINUTE;
  mkdirSync(dirname(path), { recursive: true });
  // The owner lock stays with this thread: a writer thread that dies and restarts never lets another server in.
  const lock = ownerLock(path);
  const data: WriterData = {
    path,
    durability,
    ...(options.syncWindowMs === undefined ? {} : { syncWindowMs: options.syncWindowMs }),
    ...(options.checkpointEveryMs === undefined ? {} : { checkpointEveryMs: options.checkpointEveryMs }),
  };

  let worker: Worker | null = null;
  /** Messages sent while the thread (re)starts, in order. */
  let outbox: ToWriter[] = [];
  let starting: Promise<void> | null = null;
  /** Set when the thread cannot be (re)started: every call fails with it, and the health check reports it. */
  let dead: Error | null = null;
  let closing = false;
  let seq = 0;
  const waiting = new Map<number, Waiting>();
  const durables = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  const restartTimes: number[] = [];
  let restartCount = 0;

  const post = (m: ToWriter) => {
    if (worker !== null) worker.postMessage(m);
    else outbox.push(m);
  };

  const onMessage = (m: FromWriter) => {
    if (m.type === 'done') {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (w === undefined) return;
      if (w.kind === 'call') {
        if (m.error === undefined) w.resolve(m.value);
        else w.reject(fromWire(m.error));
      } else w.failed(fromWire(m.error ?? { name: 'Error', message: 'the group commit failed' }));
    } else if (m.type === 'committed') {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (w?.kind === 'commit') w.committed(m.syncing);
    } else if (m.type === 'durable') {
      const d = durables.get(m.id);
      durables.delete(m.id);
      if (m.error === undefined) d?.resolve();
      else d?.reject(fromWire(m.error));
    }
  };

  /** The thread died: what it was asked is failed now (a sent batch as unconfirmed), and it starts again unless it dies too often. */
  const lost = (code: number) => {
    worker = null;
    const why = new StoreError('UNAVAILABLE', `the SQLite writer thread stopped (exit code ${code}); nothing more was saved`);
    for (const [, w] of waiting) {
      if (w.kind === 'call') w.reject(why);
      else w.lost(why);
    }
    waiting.clear();
    for (const [, d] of durables) d.reject(why);
    durables.clear();
    outbox = [];
    if (closing) return;
    const now = Date.now();
    while (restartTimes.length > 0 && restartTimes[0]! < now - 60_000) restartTimes.shift();
    if (restartTimes.length >= restartsPerMinute) {
      dead = new StoreError('UNAVAILABLE', `the SQLite writer thread died ${restartTimes.length + 1} times within a minute; restart the server`);
      return;
    }
    restartTimes.push(now);
    restartCount++;
    starting = start().catch((e: unknown) => {
      dead = e instanceof Error ? e : new Error(String(e));
    });
  };

  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = new Worker(new URL('./sqlite-writer-boot.mjs', import.meta.url), { workerData: data });
      let up = false;
      let error: Error | null = null;
      w.on('message', (m: FromWriter) => {
        if (m.type === 'ready') {
          up = true;
          worker = w;
          starting = null;
          const queued = outbox;
          outbox = [];
          for (const q of queued) w.postMessage(q);
          resolve();
        } else if (m.type === 'failed') error = fromWire(m.error);
        else onMessage(m);
      });
      w.on('error', (e) => (error = e));
      w.on('exit', (code) => {
        if (up) lost(code);
        else reject(error ?? new StoreError('UNAVAILABLE', `the SQLite writer thread exited (code ${code}) before it opened ${path}`));
      });
    });

  const refusal = (): Error | null => (closing ? new StoreError('UNAVAILABLE', 'the store is closed') : dead);

  const call = <T>(name: string, ...args: unknown[]): Promise<T> => {
    const no = refusal();
    if (no !== null) return Promise.reject(no);
    if (waiting.size >= maxPending) return Promise.reject(new StoreError('UNAVAILABLE', `the SQLite writer has ${waiting.size} requests waiting; try again shortly`));
    const id = ++seq;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { kind: 'call', resolve: resolve as (v: unknown) => void, reject });
      post({ type: 'call', id, name, args });
    });
  };

  starting = start();
  let reader: Database.Database;
  try {
    await starting;
    reader = new Database(path, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
  } catch (e) {
    (worker as Worker | null)?.postMessage({ type: 'close' } satisfies ToWriter);
    lock.close();
    throw e;
  }
  const stored = commandFinder(reader);
  let closed: Promise<void> | null = null;

  const store: SqliteThreadStore = {
    kind: 'sqlite',
    sync: null,
    durability,
    createTable: (table, tokens) => call('createTable', table, tokens),
    importTable: (table, log, tokens) => call('importTable', table, log, tokens),
    importRows: (tableId, rows) => call('importRows', tableId, rows),
    dropTable: (tableId) => call('dropTable', tableId),
    getTable: (tableId) => call<TableRecord | null>('getTable', tableId),
    countTables: () => call('countTables'),
    listTableIds: () => call('listTableIds'),
    head: (tableId) => call('head', tableId),
    append: (tableId, expected, record) => call('append', tableId, expected, record),
    findCommand: (tableId, actorKey, commandId) => call<TxRecord | null>('findCommand', tableId, actorKey, commandId),
    readLog: (tableId, after, limit) => call('readLog', tableId, after, limit),
    putSnapshot: (tableId, version, state) => call('putSnapshot', tableId, version, state),
    latestSnapshot: (tableId) => call('latestSnapshot', tableId),
    addToken: (token) => call('addToken', token),
    findToken: (hash) => call<TokenRecord | null>('findToken', hash),
    revokeTokens: (tableId, match, at) => call('revokeTokens', tableId, match, at),
    listTokens: (tableId) => call('listTokens', tableId),
    putJoinCode: (code) => call('putJoinCode', code),
    redeemJoinCode: (hash, now, token) => call('redeemJoinCode', hash, now, token),
    listJoinCodes: (tableId) => call<JoinCodeRecord[]>('listJoinCodes', tableId),
    joinFailuresFullAt: (address) => call('joinFailuresFullAt', address),
    chargeJoinFailure: (address, now, stepMs, capMs) => call('chargeJoinFailure', address, now, stepMs, capMs),
    async commit(lookups, fn) {
      // Rejected before deciding: the queue answers UNAVAILABLE with nothing applied.
      const no = refusal();
      if (no !== null) throw no;
      if (starting !== null) await starting;
      if (dead !== null) throw dead;
      if (waiting.size >= maxPending) throw new StoreError('UNAVAILABLE', `the SQLite writer has ${waiting.size} requests waiting; try again shortly`);
      // The batch's command ids, read by the writer thread in one message before it decides (ADR 122): its connection's
      // pages are warm, while this thread's reader starts every read after a batch with a reset cache (preads, locks).
      // Sent after the previous batch's commit, so it sees it. An id not in `lookups` is still read here.
      let batch: StagedBatch;
      if (lookups.length === 0) batch = new StagedBatch(stored);
      else {
        const found = new Map<string, TxRecord | null>();
        for (const k of lookups) found.set(commandKey(k.tableId, k.actorKey, k.commandId), null);
        for (const r of await call<BatchRow[]>('commandRows', lookups)) {
          found.set(commandKey(r.tableId, r.actorKey, r.commandId!), { version: r.version, commandId: r.commandId, actorKey: r.actorKey, transaction: JSON.parse(r.tx) as Transaction });
        }
        batch = new StagedBatch((tableId, actorKey, commandId) => {
          const hit = found.get(commandKey(tableId, actorKey, commandId));
          return hit === undefined ? stored(tableId, actorKey, commandId) : hit;
        });
        // Closed or dead while the ids were read: nothing decided yet, so nothing is applied.
        const since = refusal();
        if (since !== null) throw since;
      }
      const value = fn(batch);
      if (batch.empty()) return { value, durable: Promise.resolve() };
      const id = ++seq;
      return new Promise((resolve, reject) => {
        waiting.set(id, {
          kind: 'commit',
          committed: (syncing) => {
            if (!syncing) return resolve({ value, durable: Promise.resolve() });
            resolve({ value, durable: new Promise<void>((ok, fail) => durables.set(id, { resolve: ok, reject: fail })) });
          },
          // Rolled back by the thread (disk full, a busy database, a stale head): nothing of the batch was written.
          failed: reject,
          // Perhaps committed, perhaps not: the rooms reload from the store and the retries are answered from it.
          lost: (e) => resolve({ value, durable: Promise.reject(e) }),
        });
        post({ type: 'commit', id, rows: batch.rows, snapshots: [...batch.snapshots].map(([tableId, s]) => ({ tableId, version: s.version, state: s.state })) });
      });
    },
    async probeWrite() {
      if (starting !== null) await starting;
      const no = refusal();
      if (no !== null) return no;
      try {
        const problem = await call<WireError | null>('probeWrite');
        return problem === null ? null : fromWire(problem);
      } catch (e) {
        return e;
      }
    },
    backup: (to) => call('backup', to),
    syncNow: () => call('syncNow'),
    walSyncPending: () => call('walSyncPending'),
    checkpointNow: () => call('checkpointNow'),
    restarts: () => restartCount,
    dieAtNextCommit(when) {
      post({ type: 'die', when });
    },
    close() {
      closed ??= (async () => {
        closing = true;
        if (starting !== null) await starting.catch(() => undefined);
        // First (no batch decides once closing is set): the writer's connection is then the last, and SQLite's close
        // on it checkpoints and removes the WAL, as the in-thread store's does.
        reader.close();
        const w = worker;
        if (w !== null) {
          // Sent after every request before it: the thread answers them, closes the database, then says so and ends.
          let bound: ReturnType<typeof setTimeout> | undefined;
          await new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.postMessage({ type: 'close' } satisfies ToWriter);
            bound = setTimeout(() => void w.terminate(), CLOSE_BOUND_MS);
          });
          clearTimeout(bound);
        }
        // Last: the lock is what tells another server the file is free.
        lock.close();
      })();
      return closed;
    },
  };
  return store;
}
