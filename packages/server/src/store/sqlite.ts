// SQLite adapter of the event store (better-sqlite3, synchronous). Durability
// comes from WAL + synchronous=FULL: a transaction is on disk when append()
// returns. Group commits (commit()) are the exception: they commit with
// synchronous=NORMAL and are acknowledged once their WAL frames are written
// to the OS, the WAL synced within a window ('process-crash', ADR 31), or
// once that sync, run on the thread pool, resolves ('os-crash', ADR 24).
// Checkpoints run on their own thread and connection (ADR 24).
import { closeSync, fdatasync, fdatasyncSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Transaction, World } from '@tablekeeper/engine';
import { StoreError, type AppendResult, type CommandKey, type JoinCodeRecord, type StoredRow, type SyncEventStore, type Role, type TableRecord, type TokenRecord, type TxRecord } from './port.js';

/** Each entry migrates from version index to index + 1; never edit a shipped one. Exported for the migration tests. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE tables (
     table_id   TEXT PRIMARY KEY,
     name       TEXT NOT NULL,
     ruleset_id TEXT NOT NULL,
     genesis    TEXT NOT NULL,
     created_at INTEGER NOT NULL
   ) STRICT;
   CREATE TABLE transactions (
     table_id   TEXT NOT NULL REFERENCES tables(table_id),
     version    INTEGER NOT NULL CHECK (version >= 1),
     command_id TEXT,
     actor      TEXT NOT NULL,
     tx         TEXT NOT NULL,
     PRIMARY KEY (table_id, version),
     UNIQUE (table_id, command_id)
   ) STRICT;
   CREATE TABLE snapshots (
     table_id TEXT NOT NULL REFERENCES tables(table_id),
     version  INTEGER NOT NULL,
     state    TEXT NOT NULL,
     PRIMARY KEY (table_id, version)
   ) STRICT;
   CREATE TABLE tokens (
     hash       TEXT PRIMARY KEY,
     table_id   TEXT NOT NULL REFERENCES tables(table_id),
     role       TEXT NOT NULL CHECK (role IN ('gm', 'player', 'spectator')),
     seat_id    TEXT,
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   ) STRICT;
   CREATE INDEX tokens_by_table ON tokens(table_id);
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL) STRICT;`,
  // The health probe commits a padded row: a one-page write can still fit on a disk too full for a real command.
  `CREATE TABLE health_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL, pad BLOB NOT NULL) STRICT;`,
  // Command ids are idempotency keys per sender: another sender's id is no business of theirs (no oracle on it).
  `CREATE TABLE transactions_by_actor (
     table_id   TEXT NOT NULL REFERENCES tables(table_id),
     version    INTEGER NOT NULL CHECK (version >= 1),
     command_id TEXT,
     actor      TEXT NOT NULL,
     tx         TEXT NOT NULL,
     PRIMARY KEY (table_id, version),
     UNIQUE (table_id, actor, command_id)
   ) STRICT;
   INSERT INTO transactions_by_actor (table_id, version, command_id, actor, tx) SELECT table_id, version, command_id, actor, tx FROM transactions;
   DROP TABLE transactions;
   ALTER TABLE transactions_by_actor RENAME TO transactions;`,
  // Join codes in the store (ADR 64): a seat's latest code by its hash, and failed joins per address.
  `CREATE TABLE join_codes (
     table_id   TEXT NOT NULL REFERENCES tables(table_id),
     seat_id    TEXT NOT NULL,
     hash       TEXT NOT NULL UNIQUE,
     expires_at INTEGER NOT NULL,
     used_at    INTEGER,
     PRIMARY KEY (table_id, seat_id)
   ) STRICT;
   CREATE TABLE join_failures (address TEXT PRIMARY KEY, full_at INTEGER NOT NULL) STRICT;
   CREATE INDEX join_failures_by_time ON join_failures(full_at);`,
  // A compact integer key per table (ADR 113): the log's two indexes hold it instead of the text id, so an append
  // compares and writes smaller keys. AUTOINCREMENT: a dropped table's number is never given to another.
  // Run with foreign keys off and checked before commit (migrate()): other tables refer to the one rebuilt.
  // LEFT JOIN: a log row whose table is missing fails NOT NULL and stops the migration rather than being dropped.
  `CREATE TABLE tables_keyed (
     table_no   INTEGER PRIMARY KEY AUTOINCREMENT,
     table_id   TEXT NOT NULL UNIQUE,
     name       TEXT NOT NULL,
     ruleset_id TEXT NOT NULL,
     genesis    TEXT NOT NULL,
     created_at INTEGER NOT NULL
   ) STRICT;
   INSERT INTO tables_keyed (table_id, name, ruleset_id, genesis, created_at) SELECT table_id, name, ruleset_id, genesis, created_at FROM tables ORDER BY created_at, table_id;
   CREATE TABLE transactions_keyed (
     table_no   INTEGER NOT NULL REFERENCES tables(table_no),
     version    INTEGER NOT NULL CHECK (version >= 1),
     command_id TEXT,
     actor      TEXT NOT NULL,
     tx         TEXT NOT NULL,
     PRIMARY KEY (table_no, version),
     UNIQUE (table_no, actor, command_id)
   ) STRICT;
   INSERT INTO transactions_keyed (table_no, version, command_id, actor, tx)
     SELECT k.table_no, t.version, t.command_id, t.actor, t.tx FROM transactions t LEFT JOIN tables_keyed k USING (table_id) ORDER BY k.table_no, t.version;
   DROP TABLE transactions;
   DROP TABLE tables;
   ALTER TABLE tables_keyed RENAME TO tables;
   ALTER TABLE transactions_keyed RENAME TO transactions;`,
];

/** Bytes the health probe commits: headroom for a large command or a snapshot's worth of pages. */
export const HEALTH_PROBE_BYTES = 64 * 1024;

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The pragmas the store needs; openSqliteStore refuses to run unless each reads back as required. */
export const REQUIRED_PRAGMAS = {
  journal_mode: 'wal',
  synchronous: 2, // FULL
  busy_timeout: 5000,
  foreign_keys: 1,
} as const;

/**
 * What an acknowledged command survives (ADR 31). 'process-crash': the batch's WAL frames are written
 * to the OS before any ack, and synced to disk within `syncWindowMs`; an OS crash or power cut can lose
 * the last window of acknowledged commands. 'os-crash': nothing is acknowledged before its WAL sync.
 */
export type Durability = 'process-crash' | 'os-crash';
export const DEFAULT_DURABILITY: Durability = 'process-crash';
/** 'process-crash': the longest a written batch waits for its WAL sync (ms). */
export const SYNC_WINDOW_MS = 50;

export interface SqliteOptions {
  /** What an acknowledged group commit survives; default DEFAULT_DURABILITY (ADR 31). */
  readonly durability?: Durability;
  /** With 'process-crash': the WAL is synced at most this long after a group commit wrote it (ms). */
  readonly syncWindowMs?: number;
  /** Skip the owner lock and the checkpoint thread (tools that read a database a server holds must not use this for writing). */
  readonly shared?: boolean;
  /** How often the checkpoint thread copies the WAL into the database file (ms). */
  readonly checkpointEveryMs?: number;
  /** The caller already holds the owner lock (the writer thread's parent, ADR 107): skip it, keep the checkpoint thread. */
  readonly lockHeld?: boolean;
}

/** A row a group commit decided elsewhere (the writer thread's parent, ADR 107): the transaction already as text. */
export interface BatchRow extends StoredRow {
  readonly tableId: string;
}
export interface BatchSnapshot {
  readonly tableId: string;
  readonly version: number;
  readonly state: string;
}

/** The WAL checkpoint thread's period: often enough that the WAL stays a few MB under a steady load. */
export const CHECKPOINT_EVERY_MS = 200;
/** After a WAL reset, SQLite cuts the WAL file back to this size (the file an import grew is given back). */
const WAL_SIZE_LIMIT = 16 * 1024 * 1024;

/**
 * One server per database file: a lock held for the store's life on a side
 * file (`<db>-lock`, in SQLite's exclusive locking mode), so a second server
 * fails fast. The database itself is opened in normal locking mode, so the
 * checkpoint thread can have its own connection (ADR 24).
 */
export function ownerLock(path: string): Database.Database {
  const lock = new Database(`${path}-lock`);
  try {
    lock.pragma('busy_timeout = 0');
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS owner (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, at INTEGER NOT NULL) STRICT');
    // The first write takes the exclusive lock, which this connection keeps until it closes.
    lock.prepare('INSERT INTO owner (id, pid, at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET pid = excluded.pid, at = excluded.at').run(process.pid, Date.now());
    return lock;
  } catch (e) {
    lock.close();
    if (e instanceof Error && /database is locked|SQLITE_BUSY/i.test(e.message)) throw new StoreError('LOCKED', `the database ${path} is in use by another server (one writer per file)`);
    throw e;
  }
}

interface Checkpointer {
  /** Resolves after the next checkpoint the thread runs (tests, tools). */
  now(): Promise<{ walFrames: number; copied: number }>;
  stop(): void;
  /** Resolves when the thread has exited (its connection closed). */
  readonly exited: Promise<void>;
}

/** Starts the checkpoint thread; if it dies, the connection falls back to SQLite's own checkpoints on commit. */
function startCheckpointer(path: string, everyMs: number, db: Database.Database): Checkpointer {
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), { workerData: { path, everyMs } });
  worker.unref();
  let waiting: ((r: { walFrames: number; copied: number }) => void)[] = [];
  let stopped = false;
  worker.on('message', (m: { type: string; walFrames?: number; copied?: number }) => {
    if (m.type !== 'checkpointed') return;
    const r = { walFrames: m.walFrames ?? -1, copied: m.copied ?? -1 };
    const w = waiting;
    waiting = [];
    for (const resolve of w) resolve(r);
  });
  const fallBack = () => {
    if (stopped || !db.open) return;
    db.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    exited,
    now() {
      return new Promise((resolve) => {
        waiting.push(resolve);
        worker.postMessage({ type: 'now' });
      });
    },
    stop() {
      stopped = true;
      worker.postMessage({ type: 'stop' });
    },
  };
}

/** Applies and then verifies the pragmas; throws StoreError('PRAGMA') listing every mismatch. */
export function applyPragmas(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${REQUIRED_PRAGMAS.busy_timeout}`);
  db.pragma('foreign_keys = ON');
  const wrong: string[] = [];
  const check = (name: keyof typeof REQUIRED_PRAGMAS, want: string | number) => {
    const got: unknown = db.pragma(name, { simple: true });
    if (String(got).toLowerCase() !== String(want)) wrong.push(`${name}=${String(got)} (need ${want})`);
  };
  check('journal_mode', REQUIRED_PRAGMAS.journal_mode);
  check('synchronous', REQUIRED_PRAGMAS.synchronous);
  check('busy_timeout', REQUIRED_PRAGMAS.busy_timeout);
  check('foreign_keys', REQUIRED_PRAGMAS.foreign_keys);
  if (wrong.length) throw new StoreError('PRAGMA', `SQLite store refuses to run without its durability settings: ${wrong.join(', ')}`);
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL) STRICT');
  const row = db.prepare('SELECT version FROM schema_version WHERE id = 1').get() as { version: number } | undefined;
  const from = row?.version ?? 0;
  if (from > MIGRATIONS.length) {
    throw new StoreError('SCHEMA', `database schema version ${from} is newer than this server (${MIGRATIONS.length}); upgrade the server`);
  }
  if (from === MIGRATIONS.length) return;
  // SQLite's procedure for rebuilding a table others refer to: foreign keys off (only possible outside a transaction),
  // then every reference checked before the migration commits.
  db.pragma('foreign_keys = OFF');
  try {
    for (let v = from; v < MIGRATIONS.length; v++) {
      db.transaction(() => {
        try {
          db.exec(MIGRATIONS[v]!);
        } catch (e) {
          throw new StoreError('SCHEMA', `migration to schema version ${v + 1} failed (${e instanceof Error ? e.message : String(e)}); the database was left at version ${v}`);
        }
        const dangling = db.pragma('foreign_key_check') as { table: string; parent: string }[];
        if (dangling.length > 0) {
          const first = dangling[0]!;
          throw new StoreError('SCHEMA', `migration to schema version ${v + 1} would leave ${dangling.length} row(s) of ${first.table} pointing at a missing ${first.parent} row; the database was left at version ${v}`);
        }
        db.prepare('INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version').run(v + 1);
      }).immediate();
    }
  } finally {
    db.pragma('foreign_keys = ON');
  }
  if (db.pragma('foreign_keys', { simple: true }) !== 1) throw new StoreError('PRAGMA', 'SQLite store refuses to run without its durability settings: foreign_keys=0 after the migrations (need 1)');
}

/** A table's number from its text id, as an SQL expression of one parameter (NULL when there is no such table). */
const TABLE_NO = '(SELECT table_no FROM tables WHERE table_id = ?)';

interface TxRow {
  version: number;
  command_id: string | null;
  actor: string;
  tx: string;
}
interface TokenRow {
  hash: string;
  table_id: string;
  role: Role;
  seat_id: string | null;
  created_at: number;
  revoked_at: number | null;
}
const toTx = (r: TxRow): TxRecord => ({ version: r.version, commandId: r.command_id, actorKey: r.actor, transaction: JSON.parse(r.tx) as Transaction });
const FIND_COMMAND = `SELECT version, command_id, actor, tx FROM transactions WHERE table_no = ${TABLE_NO} AND actor = ? AND command_id = ?`;
/** A command id's stored transaction on `db` (the writer's connection, or a read-only one beside it, ADR 107). */
export function commandFinder(db: Database.Database): (tableId: string, actorKey: string, commandId: string) => TxRecord | null {
  const find = db.prepare(FIND_COMMAND);
  return (tableId, actorKey, commandId) => {
    const r = find.get(tableId, actorKey, commandId) as TxRow | undefined;
    return r ? toTx(r) : null;
  };
}

/** The store needs a file: WAL does not work in memory. */
export function refuseMemoryPath(path: string): void {
  if (path === ':memory:' || path === '') throw new StoreError('PRAGMA', 'the SQLite store needs a file (WAL does not work in memory); use the memory store for tests');
}
const toToken = (r: TokenRow): TokenRecord => ({ hash: r.hash, tableId: r.table_id, role: r.role, seatId: r.seat_id, createdAt: r.created_at, revokedAt: r.revoked_at });

export interface SqliteEventStore extends SyncEventStore {
  readonly db: Database.Database;
  readonly durability: Durability;
  /** 'process-crash': true while a group commit's WAL frames wait for their window's sync. */
  walSyncPending(): boolean;
  /** Runs a pending window's WAL sync now; resolves once it is done (at once when none is pending). */
  syncNow(): Promise<void>;
  /** Runs a PASSIVE checkpoint on the checkpoint thread now; resolves with the WAL's frames and how many are in the database file. */
  checkpointNow(): Promise<{ walFrames: number; copied: number }>;
  /** Online backup of the whole database to `path` (consistent while the server runs). */
  backup(path: string): Promise<void>;
  /**
   * A group commit of rows decided elsewhere (ADR 107), as `commit`: each row must follow its table's head and carry
   * an unused command id, else the whole batch rolls back (StoreError CONFLICT) and nothing is written.
   */
  commitRows(rows: readonly BatchRow[], snapshots: readonly BatchSnapshot[], beforeCommit?: () => void): { readonly durable: Promise<void> };
  /** The stored rows of those command ids that are used, transactions as text (the writer thread answers a batch's look-ups with them, ADR 122). */
  commandRows(keys: readonly CommandKey[]): BatchRow[];
}

export function openSqliteStore(path: string, options: SqliteOptions = {}): SqliteEventStore {
  refuseMemoryPath(path);
  const durability = options.durability ?? DEFAULT_DURABILITY;
  if (durability !== 'process-crash' && durability !== 'os-crash') throw new StoreError('PRAGMA', `durability must be 'process-crash' or 'os-crash', not ${JSON.stringify(durability)}`);
  const syncWindowMs = options.syncWindowMs ?? SYNC_WINDOW_MS;
  if (!Number.isFinite(syncWindowMs) || syncWindowMs < 0 || syncWindowMs > 10_000) throw new StoreError('PRAGMA', `syncWindowMs must be between 0 and 10000 ms, not ${syncWindowMs}`);
  mkdirSync(dirname(path), { recursive: true });
  const lock = options.shared || options.lockHeld ? null : ownerLock(path);
  const db = new Database(path);
  try {
    applyPragmas(db);
    migrate(db);
    if (!options.shared) {
      // Checkpoints run on their own thread (below), never inside a commit on the event loop.
      db.pragma('wal_autocheckpoint = 0');
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    }
  } catch (e) {
    db.close();
    lock?.close();
    if (e instanceof Error && /database is locked|SQLITE_BUSY/i.test(e.message)) {
      throw new StoreError('LOCKED', `the database ${path} is in use by another server (one writer per file)`);
    }
    throw e;
  }

  const q = {
    insertTable: db.prepare('INSERT INTO tables (table_id, name, ruleset_id, genesis, created_at) VALUES (?, ?, ?, ?, ?)'),
    getTable: db.prepare('SELECT table_id, name, ruleset_id, genesis, created_at FROM tables WHERE table_id = ?'),
    countTables: db.prepare('SELECT count(*) AS n FROM tables').pluck(),
    listTables: db.prepare('SELECT table_id FROM tables ORDER BY created_at, table_id').pluck(),
    head: db.prepare(`SELECT coalesce(max(version), 0) FROM transactions WHERE table_no = ${TABLE_NO}`).pluck(),
    // A missing table leaves table_no NULL, which NOT NULL refuses.
    insertTx: db.prepare(`INSERT INTO transactions (table_no, version, command_id, actor, tx) VALUES (${TABLE_NO}, ?, ?, ?, ?)`),
    // The usual append is one statement, no look-up first. It writes nothing (OR IGNORE) when the head check leaves version
    // NULL, when the version is taken (the primary key) or when the sender used the command id (UNIQUE). The head check
    // only asks that version `expected` exists: every path writes a table's versions as 1, 2, ... with no gap (this one,
    // and imports, which check it), so with `expected` stored and `expected + 1` free, `expected` is the head (ADR 113).
    // A one-row VALUES insert needs no statement journal; an INSERT ... SELECT did, with a page copy per B-tree touched.
    appendAtHead: db.prepare(
      `INSERT OR IGNORE INTO transactions (table_no, version, command_id, actor, tx) VALUES (${TABLE_NO}, CASE WHEN ? = 0 OR EXISTS (SELECT 1 FROM transactions WHERE table_no = ${TABLE_NO} AND version = ?) THEN ? END, ?, ?, ?)`,
    ),
    readLog: db.prepare(`SELECT version, command_id, actor, tx FROM transactions WHERE table_no = ${TABLE_NO} AND version > ? ORDER BY version LIMIT ?`),
    putSnapshot: db.prepare('INSERT OR REPLACE INTO snapshots (table_id, version, state) VALUES (?, ?, ?)'),
    pruneSnapshots: db.prepare('DELETE FROM snapshots WHERE table_id = ? AND version < ?'),
    latestSnapshot: db.prepare('SELECT version, state FROM snapshots WHERE table_id = ? ORDER BY version DESC LIMIT 1'),
    insertToken: db.prepare('INSERT INTO tokens (hash, table_id, role, seat_id, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)'),
    findToken: db.prepare('SELECT * FROM tokens WHERE hash = ?'),
    listTokens: db.prepare('SELECT * FROM tokens WHERE table_id = ? ORDER BY created_at, hash'),
    revoke: db.prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ?'),
    putCode: db.prepare('INSERT INTO join_codes (table_id, seat_id, hash, expires_at, used_at) VALUES (?, ?, ?, ?, NULL) ON CONFLICT(table_id, seat_id) DO UPDATE SET hash = excluded.hash, expires_at = excluded.expires_at, used_at = NULL'),
    useCode: db.prepare('UPDATE join_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING table_id, seat_id'),
    listCodes: db.prepare('SELECT table_id, seat_id, hash, expires_at, used_at FROM join_codes WHERE table_id = ? ORDER BY seat_id'),
    dropSeatCode: db.prepare('DELETE FROM join_codes WHERE table_id = ? AND seat_id = ?'),
    dropTableCodes: db.prepare('DELETE FROM join_codes WHERE table_id = ?'),
    failuresFullAt: db.prepare('SELECT full_at FROM join_failures WHERE address = ?').pluck(),
    forgetFailures: db.prepare('DELETE FROM join_failures WHERE full_at < ?'),
    chargeFailure: db
      .prepare('INSERT INTO join_failures (address, full_at) VALUES (@address, min(@now + @step, @now + @cap)) ON CONFLICT(address) DO UPDATE SET full_at = min(max(full_at, @now) + @step, @now + @cap) RETURNING full_at')
      .pluck(),
    health: db.prepare('INSERT INTO health (id, at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET at = excluded.at'),
    healthProbe: db.prepare(`INSERT INTO health_probe (id, at, pad) VALUES (1, ?, randomblob(${HEALTH_PROBE_BYTES})) ON CONFLICT(id) DO UPDATE SET at = excluded.at, pad = excluded.pad`),
  };

  // Group commits (commit()) run with synchronous=NORMAL, so COMMIT only writes the WAL, and durability comes
  // from an fdatasync of the WAL file on libuv's thread pool (ADR 24). The WAL exists and its directory entry
  // is synced by the fully synced write below; SQLite keeps the file while the connection is open.
  const setSync = { normal: db.prepare('PRAGMA synchronous = NORMAL'), full: db.prepare('PRAGMA synchronous = FULL') };
  db.transaction(() => q.health.run(Date.now())).immediate();
  const walFd = openSync(`${path}-wal`, 'r+');
  let walOpen = true;
  fsyncSync(walFd);
  const checkpointer = options.shared ? null : startCheckpointer(path, options.checkpointEveryMs ?? CHECKPOINT_EVERY_MS, db);
  /** Resolves once every WAL frame written before the call is on disk. */
  const syncWal = (): Promise<void> => new Promise((resolve, reject) => fdatasync(walFd, (e) => (e ? reject(e) : resolve())));
  /** A group commit whose WAL sync failed: what it wrote may or may not survive a power cut, so writes are refused until restart. */
  let syncFailure: Error | null = null;
  const failSync = (e: unknown): Error => (syncFailure ??= e instanceof Error ? e : new Error(String(e)));
  /** 'process-crash': the timer of the WAL sync that bounds what an OS crash can lose; null when none is due. */
  let windowSync: NodeJS.Timeout | null = null;
  /** Window syncs running on the thread pool. */
  let windowSyncing = 0;
  /** A failed sync leaves acknowledged batches only in the OS: writes are refused until a restart (health says why). */
  const windowSyncNow = (): Promise<void> => {
    if (windowSync !== null) clearTimeout(windowSync);
    windowSync = null;
    if (!walOpen) return Promise.resolve();
    windowSyncing++;
    return syncWal()
      .catch((e: unknown) => {
        throw failSync(e);
      })
      .finally(() => windowSyncing--);
  };
  const syncWindow = () => {
    if (windowSync !== null || !walOpen) return;
    windowSync = setTimeout(() => void windowSyncNow().catch(() => undefined), syncWindowMs);
    windowSync.unref();
  };
  /** Inside batch() or commit(): appends run without their own savepoint (a failed one fails the whole batch). */
  let inBatch = false;
  /** Set when an append inside a batch failed in a way that ended the write transaction: the rest of the batch must not autocommit. */
  let batchBroken: unknown = null;

  const findCommand = commandFinder(db);
  const findCommandRow = db.prepare(FIND_COMMAND);
  const insertTokens = (tokens: readonly TokenRecord[]) => {
    for (const t of tokens) q.insertToken.run(t.hash, t.tableId, t.role, t.seatId, t.createdAt, t.revokedAt);
  };
  const insertTable = (t: TableRecord) => {
    if (q.getTable.get(t.tableId)) throw new StoreError('EXISTS', `table ${t.tableId} already exists`);
    q.insertTable.run(t.tableId, t.name, t.rulesetId, JSON.stringify(t.genesis), t.createdAt);
  };

  /** One statement checks the head and inserts: no row is written unless version expected is the last one and the id is new. */
  const appendText = (tableId: string, expected: number, commandId: string | null, actorKey: string, tx: string): boolean =>
    q.appendAtHead.run(tableId, expected, tableId, expected, expected + 1, commandId, actorKey, tx).changes === 1;
  /** Nothing was written though the head is `expected` and the id is new: the table is missing, or the row breaks the schema. */
  const refusedAtHead = (tableId: string, expected: number): StoreError =>
    q.getTable.get(tableId) === undefined
      ? new StoreError('NOT_FOUND', `table ${tableId} does not exist; nothing was appended`)
      : new StoreError('SCHEMA', `the row for version ${expected + 1} of table ${tableId} was refused by the schema (a version below 1, or no actor or transaction)`);
  const appendRow = (tableId: string, expected: number, r: Omit<TxRecord, 'version'>): AppendResult => {
    if (appendText(tableId, expected, r.commandId, r.actorKey, JSON.stringify(r.transaction))) return { ok: true, version: expected + 1 };
    // Nothing written: a used id answers as a duplicate before a stale version (a retry after its own success).
    if (r.commandId !== null) {
      const dup = findCommand(tableId, r.actorKey, r.commandId);
      if (dup) return { ok: false, reason: 'duplicate', existing: dup };
    }
    const current = q.head.get(tableId) as number;
    if (current === expected) throw refusedAtHead(tableId, expected);
    return { ok: false, reason: 'conflict', current };
  };
  const appendTx = db.transaction(appendRow);
  const refuseAfterSyncFailure = () => {
    if (syncFailure) throw new StoreError('PRAGMA', `a WAL sync failed (${syncFailure.message}); restart the server to recover the store`);
  };
  // A group commit's BEGIN IMMEDIATE and COMMIT as statements prepared once: `db.transaction(fn)` builds four wrapped
  // functions and defines their properties on every call, which cost a batch about as much as two appends (ADR 113).
  const txn = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
  /** `db.transaction(fn).immediate()` without the wrapper: same commit, same rollback on a throw. */
  const immediate = <T>(fn: () => T): T => {
    // Inside another transaction better-sqlite3 nests with a savepoint: leave that case to it.
    if (db.inTransaction) return db.transaction(fn).immediate();
    txn.begin.run();
    try {
      const value = fn();
      txn.commit.run();
      return value;
    } catch (e) {
      // SQLite may already have ended the transaction (disk full, I/O): roll back only what is still open.
      if (db.inTransaction) txn.rollback.run();
      throw e;
    }
  };
  /** Runs fn in one write transaction whose appends are plain statements; any failure inside rolls the whole of it back. */
  const runBatch = <T>(fn: () => T): T => {
    refuseAfterSyncFailure();
    inBatch = true;
    batchBroken = null;
    try {
      const value = immediate(fn);
      if (batchBroken !== null) throw batchBroken;
      return value;
    } finally {
      inBatch = false;
      batchBroken = null;
    }
  };

  const store: SqliteEventStore = {
    kind: 'sqlite',
    db,
    durability,
    createTable(table, tokens) {
      db.transaction(() => {
        insertTable(table);
        insertTokens(tokens);
      }).immediate();
    },
    importTable(table, log, tokens) {
      db.transaction(() => {
        insertTable(table);
        log.forEach((r, i) => {
          if (r.version !== i + 1) throw new StoreError('SCHEMA', `import log has a gap at version ${i + 1}`);
          q.insertTx.run(table.tableId, r.version, r.commandId, r.actorKey, JSON.stringify(r.transaction));
        });
        insertTokens(tokens);
      }).immediate();
    },
    importRows(tableId, rows) {
      // WAL frames are appended in order, so the next fully synced commit (the import's token) makes these durable too:
      // a commit without its own fsync keeps the event loop's turn short.
      db.pragma('synchronous = NORMAL');
      try {
        db.transaction(() => {
          const head = q.head.get(tableId) as number;
          rows.forEach((r, i) => {
            if (r.version !== head + i + 1) throw new StoreError('SCHEMA', `import row ${r.version} does not follow version ${head + i}`);
            q.insertTx.run(tableId, r.version, r.commandId, r.actorKey, r.tx);
          });
        }).immediate();
      } finally {
        db.pragma('synchronous = FULL');
      }
    },
    dropTable(tableId) {
      db.transaction(() => {
        db.prepare(`DELETE FROM transactions WHERE table_no = ${TABLE_NO}`).run(tableId);
        for (const t of ['snapshots', 'tokens', 'join_codes', 'tables']) db.prepare(`DELETE FROM ${t} WHERE table_id = ?`).run(tableId);
      }).immediate();
    },
    getTable(tableId) {
      const r = q.getTable.get(tableId) as { table_id: string; name: string; ruleset_id: string; genesis: string; created_at: number } | undefined;
      return r ? { tableId: r.table_id, name: r.name, rulesetId: r.ruleset_id, genesis: JSON.parse(r.genesis) as World, createdAt: r.created_at } : null;
    },
    countTables: () => q.countTables.get() as number,
    listTableIds: () => q.listTables.all() as string[],
    head: (tableId) => q.head.get(tableId) as number,
    append(tableId, expected, record) {
      if (!inBatch) {
        refuseAfterSyncFailure();
        return appendTx.immediate(tableId, expected, record);
      }
      if (batchBroken !== null) throw batchBroken;
      try {
        return appendRow(tableId, expected, record);
      } catch (e) {
        // SQLite may end the whole transaction on some errors (disk full, I/O): later statements would autocommit.
        if (!db.inTransaction) batchBroken = e;
        throw e;
      }
    },
    findCommand,
    // LIMIT -1 is no limit in SQLite.
    readLog: (tableId, after = 0, limit = -1) => (q.readLog.all(tableId, after, Number.isFinite(limit) ? limit : -1) as TxRow[]).map(toTx),
    putSnapshot(tableId, version, state) {
      db.transaction(() => {
        q.putSnapshot.run(tableId, version, state);
        q.pruneSnapshots.run(tableId, version);
      }).immediate();
    },
    latestSnapshot(tableId) {
      const r = q.latestSnapshot.get(tableId) as { version: number; state: string } | undefined;
      return r ?? null;
    },
    addToken: (t) => void insertTokens([t]),
    findToken(hash) {
      const r = q.findToken.get(hash) as TokenRow | undefined;
      return r ? toToken(r) : null;
    },
    revokeTokens(tableId, match, at) {
      return db
        .transaction(() => {
          const hit = (q.listTokens.all(tableId) as TokenRow[])
            .map(toToken)
            .filter((t) => t.revokedAt === null && t.role === match.role && (match.seatId === undefined || t.seatId === match.seatId));
          for (const t of hit) q.revoke.run(at, t.hash);
          // A seat's join code goes with its links, in the same transaction (a phone cannot redeem it in between).
          if (match.role === 'player') {
            if (match.seatId === undefined) q.dropTableCodes.run(tableId);
            else if (match.seatId !== null) q.dropSeatCode.run(tableId, match.seatId);
          }
          return hit.map((t) => ({ ...t, revokedAt: at }));
        })
        .immediate();
    },
    listTokens: (tableId) => (q.listTokens.all(tableId) as TokenRow[]).map(toToken),
    putJoinCode(code) {
      try {
        q.putCode.run(code.tableId, code.seatId, code.hash, code.expiresAt);
        return true;
      } catch (e) {
        // Another seat's code has this hash: the caller mints another.
        if ((e as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
        throw e;
      }
    },
    redeemJoinCode(hash, now, token) {
      return db
        .transaction(() => {
          const hit = q.useCode.get(now, hash, now) as { table_id: string; seat_id: string } | undefined;
          if (hit === undefined) return null;
          q.insertToken.run(token.hash, hit.table_id, 'player', hit.seat_id, token.createdAt, null);
          return { tableId: hit.table_id, seatId: hit.seat_id };
        })
        .immediate();
    },
    listJoinCodes: (tableId) =>
      (q.listCodes.all(tableId) as { table_id: string; seat_id: string; hash: string; expires_at: number; used_at: number | null }[]).map(
        (r): JoinCodeRecord => ({ tableId: r.table_id, seatId: r.seat_id, hash: r.hash, expiresAt: r.expires_at, usedAt: r.used_at }),
      ),
    joinFailuresFullAt: (address) => (q.failuresFullAt.get(address) as number | undefined) ?? null,
    chargeJoinFailure(address, now, stepMs, capMs) {
      return db
        .transaction(() => {
          q.forgetFailures.run(now);
          return q.chargeFailure.get({ address, now, step: stepMs, cap: capMs }) as number;
        })
        .immediate();
    },
    batch: runBatch,
    commit(fn) {
      setSync.normal.run();
      let value;
      try {
        value = runBatch(fn);
      } finally {
        setSync.full.run();
      }
      // COMMIT has written the batch's WAL frames to the OS: a process crash no longer loses them.
      if (durability === 'process-crash') {
        syncWindow();
        return { value, durable: Promise.resolve() };
      }
      const durable = syncWal().catch((e: unknown) => {
        throw failSync(e);
      });
      return { value, durable };
    },
    commitRows(rows, snapshots, beforeCommit) {
      return store.commit(() => {
        for (const r of rows) {
          if (!appendText(r.tableId, r.version - 1, r.commandId, r.actorKey, r.tx)) {
            throw new StoreError('CONFLICT', `table ${r.tableId} is not at version ${r.version - 1} in the store, or command id ${String(r.commandId)} was used; nothing of this batch was saved`);
          }
        }
        for (const s of snapshots) store.putSnapshot(s.tableId, s.version, s.state);
        // Tests: the writer thread dies here, inside the transaction (ADR 107).
        beforeCommit?.();
      });
    },
    commandRows(keys) {
      const found: BatchRow[] = [];
      for (const k of keys) {
        const r = findCommandRow.get(k.tableId, k.actorKey, k.commandId) as TxRow | undefined;
        if (r) found.push({ tableId: k.tableId, version: r.version, commandId: r.command_id, actorKey: r.actor, tx: r.tx });
      }
      return found;
    },
    probeWritable() {
      return store.probeWrite() === null;
    },
    probeWrite() {
      if (syncFailure) return syncFailure;
      try {
        db.transaction(() => {
          q.health.run(Date.now());
          q.healthProbe.run(Date.now());
        }).immediate();
        return null;
      } catch (e) {
        return e;
      }
    },
    async backup(path) {
      mkdirSync(dirname(path), { recursive: true });
      await db.backup(path);
    },
    walSyncPending: () => windowSync !== null || windowSyncing > 0,
    syncNow: () => (windowSync === null ? Promise.resolve() : windowSyncNow()),
    checkpointNow() {
      return checkpointer ? checkpointer.now() : Promise.resolve(db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) as never);
    },
    whenClosed() {
      if (checkpointer === undefined || checkpointer === null) return Promise.resolve();
      // Bounded: a thread that does not exit must not hold a shutdown forever. The bound is a ref'd timer: with the
      // thread unref'd, an unref'd one left nothing keeping the process alive, so a top-level `await close()` never
      // settled and Node exited 13 before the code after it ran (the limits bench after a long import).
      let bound: ReturnType<typeof setTimeout> | undefined;
      return Promise.race([checkpointer.exited, new Promise<void>((resolve) => (bound = setTimeout(resolve, 2000)))]).finally(() => clearTimeout(bound));
    },
    close() {
      checkpointer?.stop();
      if (windowSync !== null) {
        // A clean shutdown leaves nothing to the OS: the pending window's sync runs now.
        clearTimeout(windowSync);
        windowSync = null;
        try {
          if (walOpen) fdatasyncSync(walFd);
        } catch {
          // Closing anyway: SQLite's own close checkpoints (and syncs) what it can.
        }
      }
      if (db.open) db.close();
      lock?.close();
      // After the database: closing a descriptor of a file drops this process's locks on it.
      if (walOpen) {
        walOpen = false;
        closeSync(walFd);
      }
    },
  };
  return store;
}
