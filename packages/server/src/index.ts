// @tablekeeper/server: startServer() wires the SQLite event store, the rooms,
// HTTP and WebSocket. See docs/adr/0006-server.md and docs/server.md.
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { AllowanceOptions } from './address-limits.js';
import type { QueryBudgetOptions } from './query-budget.js';
import { buildApp, REDACT_PATHS, type ServerLimits, type TableServer } from './app.js';
import type { RateLimitOptions } from './ratelimit.js';
import type { RulesetCatalog } from './rulesets.js';
import type { EventStore, SyncEventStore } from './store/port.js';
import type { ClusterOptions } from './cluster/cluster.js';
import { onPort } from './store/lift.js';
import { openSqliteStore, type Durability } from './store/sqlite.js';
import { DEFAULT_SQLITE_WRITER, openSqliteThreadStore, type SqliteWriter } from './store/sqlite-thread.js';
import { registryCatalog } from './registry-catalog.js';

export { buildApp, DEFAULT_LIMITS, REDACT_PATHS, type AppOptions, type ServerLimits, type TableServer } from './app.js';
export { AddressBuckets, DEFAULT_CREATE_ALLOWANCE, type AllowanceOptions } from './address-limits.js';
export { QueryBudget, queryCost, queryFrameLimit, DEFAULT_QUERY_BUDGET, type QueryBudgetOptions } from './query-budget.js';
export { QueryPool, DEFAULT_QUERY_TIME_CAP_MS } from './query-pool.js';
export { importTable, IMPORT_SLICE_MS, IMPORT_TIME_CAP_MS, type ImportOutcome } from './import.js';
export { startImportCheck, type ImportCheck, type ImportRefusal } from './import-check.js';
export { Room, DEFAULT_ROOM_LIMITS, viewerKey, type RoomLimits, type Session, type SubmitResult } from './room.js';
export { TokenBucket, DEFAULT_RATE_LIMIT, type RateLimitOptions } from './ratelimit.js';
export { moduleCatalog, type ModuleCatalogEntry, type RulesetCatalog } from './rulesets.js';
export { registryCatalog } from './registry-catalog.js';
export { mintToken, hashToken, bearer, sameHash, TOKEN_BYTES } from './tokens.js';
export { openSqliteStore, applyPragmas, REQUIRED_PRAGMAS, SCHEMA_VERSION, DEFAULT_DURABILITY, SYNC_WINDOW_MS, type Durability, type SqliteEventStore } from './store/sqlite.js';
export { openSqliteThreadStore, DEFAULT_SQLITE_WRITER, type SqliteWriter, type SqliteThreadStore, type SqliteThreadOptions } from './store/sqlite-thread.js';
export { memoryStore } from './store/memory.js';
export { asyncStore, onPort } from './store/lift.js';
export { StoreError, type EventStore, type SyncEventStore, type BatchWriter, type CommandKey, type StoredRow, type TableRecord, type TxRecord, type TokenRecord, type AppendResult, type Role } from './store/port.js';

export const DEFAULT_PORT = 7777;
export const DEFAULT_DB = join('data', 'tablekeeper.sqlite');

export interface StartOptions {
  readonly port?: number;
  readonly host?: string;
  /** Directory of the default database file (tablekeeper.sqlite inside it). */
  readonly dataDir?: string;
  /** The database file; wins over dataDir. */
  readonly dbPath?: string;
  /** Use this store instead of opening SQLite (tests, PostgreSQL): an embedded one is lifted onto the port. */
  readonly store?: EventStore | SyncEventStore;
  /** What an acknowledged command survives, for the SQLite file opened here (default 'process-crash', ADR 31). */
  readonly durability?: Durability;
  /** Where the SQLite file opened here is written: 'thread' (a worker thread, ADR 107) or 'loop' (the event loop); default DEFAULT_SQLITE_WRITER. */
  readonly sqliteWriter?: SqliteWriter;
  readonly logger?: Logger;
  readonly catalog?: RulesetCatalog;
  readonly allowedOrigins?: readonly string[];
  readonly limits?: Partial<ServerLimits>;
  /** Messages per socket other than queries (default 40 at once, then 20 a second). */
  readonly rateLimit?: Partial<RateLimitOptions>;
  /** Query frames per socket (default: twice what the seat's query budget accepts of the cheapest query, ADR 86). */
  readonly queryRate?: Partial<RateLimitOptions>;
  /** Per client address on /api/* (default 60 at once, then 10 a second). */
  readonly httpRateLimit?: Partial<Pick<RateLimitOptions, 'capacity' | 'refillPerSecond'>>;
  /** Per client address, creating and importing tables (default 20 at once, then one every 3 s). */
  readonly createAllowance?: Partial<AllowanceOptions>;
  /** Query cost budget, worker threads for queries (0: inline) and their time cap. */
  readonly queryBudget?: Partial<QueryBudgetOptions>;
  readonly queryThreads?: number;
  readonly queryTimeCapMs?: number;
  /** Check imports in a worker thread (needs the catalog's worker module); default: on the event loop in slices (ADR 19). */
  readonly importInWorker?: boolean;
  readonly webDist?: string | null;
  readonly publicUrl?: string;
  /** Enables GET /api/backup for this Bearer token. */
  readonly adminToken?: string;
  /** The shared mode (ADR 60): this instance's bus and leases; needs a networked store. */
  readonly cluster?: ClusterOptions;
}

export interface RunningServer extends TableServer {
  readonly url: string;
  readonly port: number;
  readonly store: EventStore;
  readonly dbPath: string | null;
  close(): Promise<void>;
}

export function createLogger(level = process.env['LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dbPath = options.store ? null : (options.dbPath ?? join(options.dataDir ?? 'data', 'tablekeeper.sqlite'));
  const durability = options.durability === undefined ? {} : { durability: options.durability };
  const writer = options.sqliteWriter ?? DEFAULT_SQLITE_WRITER;
  if (writer !== 'thread' && writer !== 'loop') throw new Error(`the SQLite writer must be 'thread' or 'loop', not ${JSON.stringify(writer)}`);
  const store = options.store ? onPort(options.store) : writer === 'thread' ? await openSqliteThreadStore(dbPath!, durability) : onPort(openSqliteStore(dbPath!, durability));
  const logger = options.logger ?? createLogger();
  try {
    const catalog = options.catalog ?? registryCatalog();
    const server = buildApp({
      store,
      catalog,
      logger,
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.queryRate ? { queryRate: options.queryRate } : {}),
      ...(options.httpRateLimit ? { httpRateLimit: options.httpRateLimit } : {}),
      ...(options.createAllowance ? { createAllowance: options.createAllowance } : {}),
      ...(options.queryBudget ? { queryBudget: options.queryBudget } : {}),
      ...(options.queryThreads !== undefined ? { queryThreads: options.queryThreads } : {}),
      ...(options.queryTimeCapMs !== undefined ? { queryTimeCapMs: options.queryTimeCapMs } : {}),
      ...(options.importInWorker !== undefined ? { importInWorker: options.importInWorker } : {}),
      ...(options.webDist !== undefined ? { webDist: options.webDist } : {}),
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(options.adminToken ? { adminToken: options.adminToken } : {}),
      ...(options.cluster ? { cluster: options.cluster } : {}),
    });
    const problem = await store.probeWrite();
    if (problem !== null) throw new Error(`the store is not writable: ${problem instanceof Error ? problem.message : String(problem)}`);
    const host = options.host ?? '127.0.0.1';
    await server.app.listen({ port: options.port ?? DEFAULT_PORT, host });
    const addr = server.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : (options.port ?? DEFAULT_PORT);
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | null = null;
    return {
      ...server,
      url: `http://${shownHost}:${port}`,
      port,
      store,
      dbPath,
      close() {
        closing ??= (async () => {
          server.closeRooms();
          await server.app.close();
          // SQLite's checkpoint thread closes its own connection: this waits, so the files are free when close resolves.
          await store.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
