// The SQLite writer thread (ADR 107). It owns the store's read-write
// connection (store/sqlite.ts, opened here with everything it brings: WAL,
// pragmas, migrations, the checkpoint thread, the WAL sync window of ADR 31),
// so a group commit's BEGIN, INSERTs, COMMIT and syncs run here and not on the
// server's event loop. The parent (sqlite-thread.ts) holds the owner lock and
// sends one message per batch with the rows already serialised.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteStore, type BatchRow, type BatchSnapshot, type Durability, type SqliteEventStore } from './sqlite.js';

export interface WriterData {
  readonly path: string;
  readonly durability: Durability;
  readonly syncWindowMs?: number;
  readonly checkpointEveryMs?: number;
}

/** An error as it crosses the thread: StoreError keeps its code, SQLite errors theirs (SQLITE_FULL, SQLITE_BUSY). */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

export type ToWriter =
  | { readonly type: 'call'; readonly id: number; readonly name: string; readonly args: readonly unknown[] }
  | { readonly type: 'commit'; readonly id: number; readonly rows: readonly BatchRow[]; readonly snapshots: readonly BatchSnapshot[] }
  | { readonly type: 'close' }
  /** Tests only: the thread dies at the next commit, before its transaction, inside it, or after its COMMIT (never answered). */
  | { readonly type: 'die'; readonly when: 'before' | 'inside' | 'after' };

export type FromWriter =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly error: WireError }
  | { readonly type: 'done'; readonly id: number; readonly value?: unknown; readonly error?: WireError }
  /** The batch is committed; `syncing` when its durability waits for a WAL sync ('os-crash'), answered by `durable`. */
  | { readonly type: 'committed'; readonly id: number; readonly syncing: boolean }
  | { readonly type: 'durable'; readonly id: number; readonly error?: WireError }
  | { readonly type: 'closed' };

export function toWire(e: unknown): WireError {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(e) };
}

/** The synchronous calls the parent may make by name (everything else is refused). */
const CALLS = new Set([
  'createTable', 'importTable', 'importRows', 'dropTable', 'getTable', 'countTables', 'listTableIds', 'head', 'append', 'findCommand', 'readLog',
  'putSnapshot', 'latestSnapshot', 'addToken', 'findToken', 'revokeTokens', 'listTokens', 'putJoinCode', 'redeemJoinCode', 'listJoinCodes',
  'joinFailuresFullAt', 'chargeJoinFailure', 'probeWrite', 'backup', 'syncNow', 'walSyncPending', 'checkpointNow', 'commandRows',
]);

function serve(port: NonNullable<typeof parentPort>, data: WriterData): void {
  const post = (m: FromWriter) => port.postMessage(m);
  let store: SqliteEventStore;
  try {
    store = openSqliteStore(data.path, {
      durability: data.durability,
      lockHeld: true,
      ...(data.syncWindowMs === undefined ? {} : { syncWindowMs: data.syncWindowMs }),
      ...(data.checkpointEveryMs === undefined ? {} : { checkpointEveryMs: data.checkpointEveryMs }),
    });
  } catch (e) {
    post({ type: 'failed', error: toWire(e) });
    return;
  }
  let die: 'before' | 'inside' | 'after' | null = null;
  /** 'os-crash' syncs on their way: a close waits for them, so it never pulls the WAL's descriptor from under one. */
  const syncing = new Set<Promise<void>>();
  const call = (id: number, name: string, args: readonly unknown[]) => {
    if (!CALLS.has(name)) return post({ type: 'done', id, error: { name: 'Error', message: `the writer thread has no call ${name}` } });
    let value: unknown;
    try {
      value = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
    } catch (e) {
      return post({ type: 'done', id, error: toWire(e) });
    }
    // probeWrite returns its error: it crosses as a wire error too.
    if (name === 'probeWrite' && value !== null) return post({ type: 'done', id, value: toWire(value) });
    if (value instanceof Promise) {
      value.then(
        (v: unknown) => post({ type: 'done', id, value: v }),
        (e: unknown) => post({ type: 'done', id, error: toWire(e) }),
      );
      return;
    }
    post({ type: 'done', id, value });
  };
  const commit = (id: number, rows: readonly BatchRow[], snapshots: readonly BatchSnapshot[]) => {
    if (die === 'before') process.exit(70);
    let durable: Promise<void>;
    try {
      // 'inside': rows written, COMMIT never reached; SQLite rolls the transaction back as the thread's connection closes.
      ({ durable } = store.commitRows(rows, snapshots, die === 'inside' ? () => process.exit(70) : undefined));
    } catch (e) {
      return post({ type: 'done', id, error: toWire(e) });
    }
    if (die === 'after') process.exit(70);
    const waits = store.durability === 'os-crash';
    post({ type: 'committed', id, syncing: waits });
    if (!waits) return;
    const answered = durable.then(
      () => post({ type: 'durable', id }),
      (e: unknown) => post({ type: 'durable', id, error: toWire(e) }),
    );
    syncing.add(answered);
    void answered.finally(() => syncing.delete(answered));
  };
  port.on('message', (m: ToWriter) => {
    if (m.type === 'call') call(m.id, m.name, m.args);
    else if (m.type === 'commit') commit(m.id, m.rows, m.snapshots);
    else if (m.type === 'die') die = m.when;
    else if (m.type === 'close') {
      void Promise.allSettled([...syncing])
        .then(() => {
          store.close();
          return store.whenClosed?.();
        })
        .then(() => {
          post({ type: 'closed' });
          port.close();
        });
    }
  });
  post({ type: 'ready' });
}

if (parentPort !== null) serve(parentPort, workerData as WriterData);
