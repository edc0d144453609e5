// The event-store port (ADR 49). The server talks to `EventStore`, whose calls
// return promises so a networked database (PostgreSQL, store/postgres.ts) can
// stand behind it. The embedded adapters (SQLite, the default, and memory for
// unit tests) keep their synchronous surface, `SyncEventStore`, and are lifted
// onto the port by `asyncStore` (store/lift.ts) without an extra round trip.
// A group commit decides commands synchronously against a `BatchWriter`, so a
// room never interleaves two commands of one table.
import type { Transaction, World } from '@tablekeeper/engine';

export type Role = 'gm' | 'player' | 'spectator';

export interface TableRecord {
  readonly tableId: string;
  readonly name: string;
  readonly rulesetId: string;
  /** The world before any transaction: replay starts here. */
  readonly genesis: World;
  readonly createdAt: number;
}

/** One stored transaction: row (table_id, version) of the log. */
export interface TxRecord {
  readonly version: number;
  readonly commandId: string | null;
  /** Stable key of who sent it ('gm', 'player:s1', ...): commandIds are idempotency keys per sender. */
  readonly actorKey: string;
  readonly transaction: Transaction;
}

/** A checked import row: the transaction as the text the store keeps. */
export interface StoredRow {
  readonly version: number;
  readonly commandId: string | null;
  readonly actorKey: string;
  readonly tx: string;
}

export type AppendResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly reason: 'conflict'; readonly current: number }
  | { readonly ok: false; readonly reason: 'duplicate'; readonly existing: TxRecord };

export interface TokenRecord {
  /** SHA-256 of the token, hex. The token itself is never stored. */
  readonly hash: string;
  readonly tableId: string;
  readonly role: Role;
  readonly seatId: string | null;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/**
 * A seat's latest join code (ADR 44, 64): only the SHA-256 of the code is kept, as for tokens. One row per seat: a new
 * code replaces the old one, and revoking the seat's player links deletes it.
 */
export interface JoinCodeRecord {
  /** SHA-256 of the code, hex. */
  readonly hash: string;
  readonly tableId: string;
  readonly seatId: string;
  readonly expiresAt: number;
  /** When a phone used it; null while unused. */
  readonly usedAt: number | null;
}

/** The synchronous store of an embedded adapter (SQLite, memory): tools, tests and `asyncStore` use it. */
export interface SyncEventStore extends BatchWriter {
  readonly kind: 'sqlite' | 'memory';
  /** Creates the table row and its first tokens in one transaction. */
  createTable(table: TableRecord, tokens: readonly TokenRecord[]): void;
  /** Creates a table with a whole log (import), atomically. */
  importTable(table: TableRecord, log: readonly TxRecord[], tokens: readonly TokenRecord[]): void;
  /**
   * Appends already-checked rows (an import's) in one write transaction; the first must follow the head.
   * No commandId checks: the import checked them. Not synced on its own: the import's last write
   * (its GM token) is, and syncs these with it; until then no one can open the table.
   */
  importRows(tableId: string, rows: readonly StoredRow[]): void;
  /** Deletes a table with its rows, snapshots and tokens (an import whose write failed half-way). */
  dropTable(tableId: string): void;
  getTable(tableId: string): TableRecord | null;
  countTables(): number;
  listTableIds(): string[];
  /** The last version of a table (0 when it has no transactions). */
  head(tableId: string): number;
  /** Transactions with version > after, in version order; at most `limit` of them when given (a cold load reads in pages). */
  readLog(tableId: string, after?: number, limit?: number): TxRecord[];
  latestSnapshot(tableId: string): { version: number; state: string } | null;
  addToken(token: TokenRecord): void;
  findToken(hash: string): TokenRecord | null;
  /** Revokes the live tokens of a table that match; returns the revoked records. Revoking player links deletes the seat's join code (or every seat's) in the same transaction. */
  revokeTokens(tableId: string, match: { role: Role; seatId?: string | null }, at: number): TokenRecord[];
  listTokens(tableId: string): TokenRecord[];
  /** Join codes and failed joins: as on `EventStore`. */
  putJoinCode(code: Omit<JoinCodeRecord, 'usedAt'>): boolean;
  redeemJoinCode(hash: string, now: number, token: TokenRecord): { tableId: string; seatId: string } | null;
  listJoinCodes(tableId: string): JoinCodeRecord[];
  joinFailuresFullAt(address: string): number | null;
  chargeJoinFailure(address: string, now: number, stepMs: number, capMs: number): number;
  /**
   * Runs `fn` in one write transaction (appends inside become savepoints):
   * group commit, one fsync for many commands. Throws if the commit fails.
   */
  batch<T>(fn: () => T): T;
  /**
   * Like `batch`, but the commit does not wait for the disk on the event loop:
   * `durable` settles once everything committed so far is as durable as the
   * store promises (SQLite: written to the OS, the disk sync within a window, or
   * on disk, by its `durability`; ADR 24, 31) and rejects if it cannot be made so.
   * Nothing from `fn` may be acknowledged or shown before `durable` settles.
   */
  commit<T>(fn: () => T): { readonly value: T; readonly durable: Promise<void> };
  /** True when a write transaction can commit right now (health check). */
  probeWritable(): boolean;
  /** The error a write transaction fails with right now, or null when it commits (health check with a reason). */
  probeWrite(): unknown;
  close(): void;
  /** Resolves once no helper thread holds the store's files any more (after close), so they can be removed. */
  whenClosed?(): Promise<void>;
}

/** Thrown by adapters for an invariant the store refuses to break (never for user input). */
/** What a room writes while a group commit decides: synchronous, so one batch's decisions never interleave. */
export interface BatchWriter {
  /** The transaction `actorKey` sent with this commandId (ids are per sender: another's id is never found). */
  findCommand(tableId: string, actorKey: string, commandId: string): TxRecord | null;
  /**
   * Appends the transaction as version expectedVersion + 1; refuses a stale expectedVersion and a commandId
   * this sender already used. Outside a group commit (a SyncEventStore's own call) it is durable on return.
   */
  append(tableId: string, expectedVersion: number, record: Omit<TxRecord, 'version'>): AppendResult;
  /** Snapshots are a cache: losing one only costs a longer replay. */
  putSnapshot(tableId: string, version: number, state: string): void;
}

/**
 * The lease a writer holds on a table (issue 22, ADR 60): a networked store refuses a write whose epoch is no
 * longer the table's, so an owner that lost its lease cannot append even when its version check would pass.
 */
export interface Fence {
  readonly owner: string;
  readonly epoch: number;
}

/** A command id a group commit may look up: a networked store reads them all before the batch decides. */
export interface CommandKey {
  readonly tableId: string;
  readonly actorKey: string;
  readonly commandId: string;
}

/**
 * The event-store port: what rooms, the commit queue, HTTP and sockets need. Every call may go over a
 * network; none may be made for one table while that table's group commit is deciding (the queue serialises).
 */
export interface EventStore {
  readonly kind: 'sqlite' | 'memory' | 'postgres';
  /** The embedded adapter behind the port, when there is one (tools, tests, the SQLite backup route). */
  readonly sync: SyncEventStore | null;
  createTable(table: TableRecord, tokens: readonly TokenRecord[]): Promise<void>;
  importTable(table: TableRecord, log: readonly TxRecord[], tokens: readonly TokenRecord[]): Promise<void>;
  /** As SyncEventStore.importRows: checked rows, the first following the head; made durable by the import's last write. */
  importRows(tableId: string, rows: readonly StoredRow[]): Promise<void>;
  dropTable(tableId: string): Promise<void>;
  getTable(tableId: string): Promise<TableRecord | null>;
  countTables(): Promise<number>;
  listTableIds(): Promise<string[]>;
  head(tableId: string): Promise<number>;
  /**
   * One durable append in its own write transaction (optimistic: a stale expectedVersion or a used commandId is refused).
   * With a fence, a networked store also refuses it (StoreError FENCED) unless the table's lease is still at that
   * owner and epoch; the embedded stores serve one process and ignore it.
   */
  append(tableId: string, expectedVersion: number, record: Omit<TxRecord, 'version'>, fence?: Fence): Promise<AppendResult>;
  findCommand(tableId: string, actorKey: string, commandId: string): Promise<TxRecord | null>;
  readLog(tableId: string, after?: number, limit?: number): Promise<TxRecord[]>;
  putSnapshot(tableId: string, version: number, state: string): Promise<void>;
  latestSnapshot(tableId: string): Promise<{ version: number; state: string } | null>;
  addToken(token: TokenRecord): Promise<void>;
  findToken(hash: string): Promise<TokenRecord | null>;
  /** As SyncEventStore.revokeTokens: revoking player links deletes the matching seats' join codes in the same transaction. */
  revokeTokens(tableId: string, match: { role: Role; seatId?: string | null }, at: number): Promise<TokenRecord[]>;
  listTokens(tableId: string): Promise<TokenRecord[]>;
  /**
   * Stores a seat's new join code in place of any it had (its "used" mark goes too). False, with nothing stored, when
   * another seat's code has the same hash (the caller mints another).
   */
  putJoinCode(code: Omit<JoinCodeRecord, 'usedAt'>): Promise<boolean>;
  /**
   * Uses up the live code with this hash at `now` and, in the same transaction, stores `token` (its table and seat
   * are the code's, whatever the record says) as that seat's player link. Of callers racing on one code, exactly one
   * gets the seat; the others, and any call for an unknown, used, expired or revoked code, get null.
   */
  redeemJoinCode(hash: string, now: number, token: TokenRecord): Promise<{ tableId: string; seatId: string } | null>;
  /** The latest code of each seat of a table that has one (live, used or expired). */
  listJoinCodes(tableId: string): Promise<JoinCodeRecord[]>;
  /**
   * Failed joins per address, shared by every instance on the store (ADR 64): the time (ms) at which the address's
   * bucket is full again, or null when nothing is remembered for it.
   */
  joinFailuresFullAt(address: string): Promise<number | null>;
  /**
   * Records a failed join from `address` atomically: its full-again time moves `stepMs` later (from `now` at the
   * earliest), but never past `now + capMs`. Returns the new time. Addresses whose bucket is full again are forgotten.
   */
  chargeJoinFailure(address: string, now: number, stepMs: number, capMs: number): Promise<number>;
  /**
   * A group commit: `fn` decides a batch of commands synchronously against the writer (every command id it
   * will look up is in `lookups`, read beforehand by a networked store). Resolves once `fn` ran and the batch
   * is handed to the database; `durable` settles once it is as durable as the store promises (SQLite: ADR 24, 31;
   * PostgreSQL: its COMMIT returned) and rejects if it cannot be made so, or if another writer took a version
   * first. Nothing from `fn` may be acknowledged or shown before `durable` settles. Rejects (nothing decided)
   * when the batch could not start. `fences` (table id to the writer's lease) make `durable` reject with
   * StoreError FENCED when any written table's lease moved on (a networked store; the embedded ones ignore them).
   */
  commit<T>(lookups: readonly CommandKey[], fn: (writer: BatchWriter) => T, fences?: ReadonlyMap<string, Fence>): Promise<{ readonly value: T; readonly durable: Promise<void> }>;
  /** The error a write fails with right now, or null when it commits (health check with a reason). */
  probeWrite(): Promise<unknown>;
  close(): Promise<void>;
}

export class StoreError extends Error {
  constructor(
    readonly code: 'PRAGMA' | 'SCHEMA' | 'LOCKED' | 'EXISTS' | 'NOT_FOUND' | 'CONFLICT' | 'UNAVAILABLE' | 'FENCED',
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
