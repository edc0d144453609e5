// The table server, assembled: the table service (tables.ts), the HTTP routes
// (http.ts), the group-commit queue (commit-queue.ts), the WebSocket
// connections (ws.ts) and the query desk share one store and catalog. Each
// part lives in its own module; this file only wires them together.
// Capabilities: a GM token per table, a token per player seat, spectator links;
// all 128-bit, carried in URL fragments by the web app, stored as SHA-256.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Json } from '@tablekeeper/engine';
import { CLOSE, type RejectionError } from '@tablekeeper/protocol';
import type { AllowanceOptions } from './address-limits.js';
import { Cluster, type ClusterOptions } from './cluster/cluster.js';
import { CommitQueue } from './commit-queue.js';
import { registerHttp } from './http.js';
import { DEFAULT_QUERY_BUDGET, QueryBudget, queryFrameLimit, type QueryBudgetOptions } from './query-budget.js';
import { QueryDesk } from './query-desk.js';
import { QueryPool } from './query-pool.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './ratelimit.js';
import type { Room } from './room.js';
import type { RulesetCatalog } from './rulesets.js';
import type { EventStore } from './store/port.js';
import { DEFAULT_LIMITS, Tables, type ServerLimits } from './tables.js';
import { registerWebSocket } from './ws.js';

export { DEFAULT_LIMITS, type ServerLimits } from './tables.js';
export { DEFAULT_HTTP_RATE_LIMIT } from './http.js';

export interface AppOptions {
  readonly store: EventStore;
  readonly catalog: RulesetCatalog;
  readonly logger: Logger;
  /** Origins (scheme://host:port) allowed to open WebSockets besides the server's own host. */
  readonly allowedOrigins?: readonly string[];
  readonly limits?: Partial<ServerLimits>;
  /** Messages per socket other than queries (commands, pings, resyncs). */
  readonly rateLimit?: Partial<RateLimitOptions>;
  /** Query frames per socket; default: twice what the seat's query budget accepts of the cheapest query (ADR 86). */
  readonly queryRate?: Partial<RateLimitOptions>;
  /** Per client address, for the HTTP API (/api/*): burst and requests regained per second. */
  readonly httpRateLimit?: Partial<Pick<RateLimitOptions, 'capacity' | 'refillPerSecond'>>;
  /** Built web app to serve (SPA); null to serve none. Default: packages/web/dist when it exists. */
  readonly webDist?: string | null;
  /** Base of printed links; default: the request's own scheme and host. */
  readonly publicUrl?: string;
  /** Per client address, for creating and importing tables: burst and tables regained per second. */
  readonly createAllowance?: Partial<AllowanceOptions>;
  /** Query cost budget per seat and per table (units of about a millisecond of work). */
  readonly queryBudget?: Partial<QueryBudgetOptions>;
  /** Worker threads for queries (0: answer inline); default 1 when the catalog names a worker module. */
  readonly queryThreads?: number;
  /** Milliseconds a query may run in its worker before it is stopped. */
  readonly queryTimeCapMs?: number;
  /** Check imports in a worker thread (needs the catalog's worker module); default: on the event loop in slices (ADR 19). */
  readonly importInWorker?: boolean;
  /** Enables GET /api/backup (a copy of the whole database) for this Bearer token; off when unset. */
  readonly adminToken?: string;
  /** The shared mode (issue 22, ADR 60): a bus and leases over a networked store; several instances serve the same tables. */
  readonly cluster?: ClusterOptions;
}

/** Paths the logger must never print: tokens travel in these. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["sec-websocket-protocol"]',
  'headers.authorization',
  'headers["sec-websocket-protocol"]',
  'token',
  'gmToken',
  '*.token',
  '*.gmToken',
  'command',
  '*.command',
];

export interface TableServer {
  readonly app: FastifyInstance;
  readonly rooms: Map<string, Room>;
  readonly catalog: RulesetCatalog;
  readonly limits: ServerLimits;
  /** The shared mode's wiring; null on a single server. */
  readonly cluster: Cluster | null;
  /** The room of a table in memory; null when it is not loaded. */
  room(tableId: string): Room | null;
  /** The room of a table, loaded from the store when it is not in memory; null when there is no such table. */
  load(tableId: string): Promise<Room | null>;
  /** Creates a table with its GM token (the only time the token exists in clear). */
  createTable(name: string, rulesetId: string, settings?: { [key: string]: Json }): Promise<{ tableId: string; gmToken: string } | { error: RejectionError }>;
  /** Adds a player seat (an engine command, so it is in the log) and mints its token. */
  createSeat(tableId: string, name: string): Promise<{ seatId: string; token: string } | { error: RejectionError }>;
  createSpectatorLink(tableId: string): Promise<{ token: string } | { error: RejectionError }>;
  closeRooms(): void;
}

export function buildApp(o: AppOptions): TableServer {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const { store, catalog, logger } = o;
  // Closing destroys open HTTP connections too (keep-alive or mid-request), so a restart never waits on a client.
  const app = Fastify({ loggerInstance: logger, bodyLimit: 256 * 1024, trustProxy: false, forceCloseConnections: true }) as unknown as FastifyInstance;
  const tables = new Tables(store, catalog, limits);
  const queue = new CommitQueue(store, tables, logger);
  tables.queue = queue;
  if (o.cluster !== undefined && store.sync !== null) throw new Error('the shared mode needs a networked store (DATABASE_URL): an embedded one serves one process');
  const cluster =
    o.cluster === undefined
      ? null
      : new Cluster(o.cluster, {
          store,
          logger,
          submit: (room, actor, command, commandId, expectedVersion) => queue.submit(room, actor, command, { commandId, expectedVersion }),
          followed: (room, beforeSeats) => {
            room.broadcast();
            // A seat another instance removed takes this instance's sockets of it too (its tokens were revoked there).
            for (const seatId of beforeSeats) {
              if (room.table.world.seats[seatId]) continue;
              const hashes = [...room.sessions].filter((x) => x.viewer.role === 'player' && x.viewer.seatId === seatId).map((x) => x.tokenHash);
              room.revoke(new Set(hashes), 'The GM removed this seat; its link no longer works.', CLOSE.revoked);
            }
          },
          revoked: (room, hashes, message) => void room.revoke(hashes, message, CLOSE.revoked),
        });
  tables.cluster = cluster;
  queue.cluster = cluster;
  // Before the store closes (startServer closes it after the app): leases are given up, the bus drained.
  app.addHook('onClose', async () => cluster?.close());
  const queryThreads = o.queryThreads ?? (catalog.workerModule ? 1 : 0);
  const queryPool = queryThreads > 0 && catalog.workerModule ? new QueryPool({ catalogModule: catalog.workerModule, threads: queryThreads, ...(o.queryTimeCapMs ? { timeCapMs: o.queryTimeCapMs } : {}) }) : null;
  const budget: QueryBudgetOptions = { ...DEFAULT_QUERY_BUDGET, ...o.queryBudget };
  const queryDesk = new QueryDesk(new QueryBudget(budget), queryPool);
  app.addHook('onClose', async () => queryPool?.close());

  registerHttp(app, {
    tables,
    store,
    catalog,
    logger,
    limits,
    ...(o.httpRateLimit ? { httpRateLimit: o.httpRateLimit } : {}),
    ...(o.createAllowance ? { createAllowance: o.createAllowance } : {}),
    ...(o.publicUrl !== undefined ? { publicUrl: o.publicUrl } : {}),
    ...(o.adminToken !== undefined ? { adminToken: o.adminToken } : {}),
    ...(o.importInWorker !== undefined ? { importInWorker: o.importInWorker } : {}),
    ...(o.webDist !== undefined ? { webDist: o.webDist } : {}),
  });
  registerWebSocket(app, {
    tables,
    queue,
    queryDesk,
    limits,
    rate: { ...DEFAULT_RATE_LIMIT, ...o.rateLimit },
    queryRate: { ...queryFrameLimit(budget), ...o.queryRate },
    logger,
    cluster,
    ...(o.allowedOrigins ? { allowedOrigins: o.allowedOrigins } : {}),
  });

  return {
    app,
    rooms: tables.rooms,
    catalog,
    limits,
    cluster,
    room: (tableId) => tables.room(tableId),
    load: (tableId) => tables.load(tableId),
    createTable: (name, rulesetId, settings) => tables.createTable(name, rulesetId, settings),
    createSeat: (tableId, name) => tables.createSeat(tableId, name),
    createSpectatorLink: (tableId) => tables.createSpectatorLink(tableId),
    closeRooms: () => tables.closeAll(),
  };
}
