// HTTP (fastify) and WebSocket (@fastify/websocket) front of the table server.
// Capabilities: a GM token per table, a token per player seat, spectator links;
// all 128-bit, carried in URL fragments by the web app, stored as SHA-256.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { Logger } from 'pino';
import { catalogEntries, type CatalogEntry, type Command, type Json, type Table, type Viewer } from '@tablekeeper/engine';
import {
  CLOSE,
  LIMITS,
  PROTOCOL_VERSION,
  WS_PATH,
  RELOAD_REASON,
  WS_OLD_SUBPROTOCOLS,
  WS_SUBPROTOCOL,
  WS_TOKEN_PREFIX,
  capabilityLink,
  clientMessageSchema,
  createSeatRequestSchema,
  createTableRequestSchema,
  type CreateSeatResponse,
  type CreateTableResponse,
  type DeltaAck,
  type RejectionError,
  type SeatSummary,
  type SpectatorResponse,
} from '@tablekeeper/protocol';
import { DEFAULT_ROOM_LIMITS, Room, viewerKey, type RoomLimits, type Session, type SubmitResult } from './room.js';
import { DEFAULT_RATE_LIMIT, TokenBucket, type RateLimitOptions } from './ratelimit.js';
import type { RulesetCatalog } from './rulesets.js';
import type { EventStore, Role, TokenRecord } from './store/port.js';
import { staticFiles } from './static.js';
import { bearer, hashToken, mintTableId, mintToken, sameHash } from './tokens.js';
import type { SqliteEventStore } from './store/sqlite.js';
import { AddressBuckets, DEFAULT_CREATE_ALLOWANCE, type AllowanceOptions } from './address-limits.js';
import { checkImport, ImportQueue, writeImport } from './import.js';
import { isStoreError, statusFor, storeFailureReason } from './health.js';
import { tooDeep, MAX_MESSAGE_DEPTH } from './shape-guard.js';
import { HelloGuard, TRY_AGAIN_LATER, type Waiting } from './hello-guard.js';
import { TokenThrottle } from './token-throttle.js';
import { DEFAULT_QUERY_BUDGET, QueryBudget, type QueryBudgetOptions } from './query-budget.js';
import { QueryPool } from './query-pool.js';
import { QueryDesk } from './query-desk.js';

export interface ServerLimits extends RoomLimits {
  readonly maxTables: number;
  readonly maxSeatsPerTable: number;
  readonly maxSpectatorLinks: number;
  readonly maxImportBytes: number;
  /** Milliseconds a socket without a subprotocol token has to send its hello. */
  readonly authTimeoutMs: number;
  /** Sockets still waiting for their hello, server-wide; past it the longest-waiting one is closed (1013) to make room. */
  readonly maxPendingAuth: number;
  /** Of those, from one address; more from it are closed at once (1013). */
  readonly maxPendingAuthPerAddress: number;
  /** Failed token checks (unknown tokens) one address may make in a burst, and regains per second. */
  readonly tokenFailureBurst: number;
  readonly tokenFailuresPerSecond: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  ...DEFAULT_ROOM_LIMITS,
  maxTables: 1000,
  maxSeatsPerTable: 32,
  maxSpectatorLinks: 8,
  maxImportBytes: 32 * 1024 * 1024,
  authTimeoutMs: 3000,
  maxPendingAuth: 100,
  maxPendingAuthPerAddress: 8,
  tokenFailureBurst: 20,
  tokenFailuresPerSecond: 2,
};

export interface AppOptions {
  readonly store: EventStore;
  readonly catalog: RulesetCatalog;
  readonly logger: Logger;
  /** Origins (scheme://host:port) allowed to open WebSockets besides the server's own host. */
  readonly allowedOrigins?: readonly string[];
  readonly limits?: Partial<ServerLimits>;
  readonly rateLimit?: Partial<RateLimitOptions>;
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
  /** Enables GET /api/backup (a copy of the whole database) for this Bearer token; off when unset. */
  readonly adminToken?: string;
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

const AUTH = Symbol('tablekeeper.auth');
type AuthedRequest = FastifyRequest & { [AUTH]?: TokenRecord };

const DEFAULT_WEB_DIST = new URL('../../web/dist', import.meta.url).pathname;

function viewerOf(t: TokenRecord): Viewer {
  return t.role === 'player' ? { role: 'player', seatId: t.seatId ?? '' } : { role: t.role };
}

/** HTTP API requests per client address: a burst of 60, then 10 a second. */
export const DEFAULT_HTTP_RATE_LIMIT = { capacity: 60, refillPerSecond: 10 } as const;
/** Addresses whose buckets are remembered at once. */
const MAX_HTTP_CLIENTS = 10_000;

function fail(reply: FastifyReply, status: number, error: RejectionError) {
  return reply.code(status).send({ error });
}

export interface TableServer {
  readonly app: FastifyInstance;
  readonly rooms: Map<string, Room>;
  readonly catalog: RulesetCatalog;
  readonly limits: ServerLimits;
  room(tableId: string): Room | null;
  /** Creates a table with its GM token (the only time the token exists in clear). */
  createTable(name: string, rulesetId: string, settings?: { [key: string]: Json }): { tableId: string; gmToken: string } | { error: RejectionError };
  /** Adds a player seat (an engine command, so it is in the log) and mints its token. */
  createSeat(tableId: string, name: string): { seatId: string; token: string } | { error: RejectionError };
  createSpectatorLink(tableId: string): { token: string } | { error: RejectionError };
  closeRooms(): void;
}

export function buildApp(o: AppOptions): TableServer {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const rate: RateLimitOptions = { ...DEFAULT_RATE_LIMIT, ...o.rateLimit };
  // closeAfter is meaningless over HTTP: a refused request is just refused.
  const httpRate: RateLimitOptions = { ...DEFAULT_HTTP_RATE_LIMIT, ...o.httpRateLimit, closeAfter: Number.MAX_SAFE_INTEGER };
  const httpBuckets = new Map<string, TokenBucket>();
  const { store, catalog, logger } = o;
  const rooms = new Map<string, Room>();
  // Closing destroys open HTTP connections too (keep-alive or mid-request), so a restart never waits on a client.
  const app = Fastify({ loggerInstance: logger, bodyLimit: 256 * 1024, trustProxy: false, forceCloseConnections: true }) as unknown as FastifyInstance;
  let sessionSeq = 0;
  const helloGuard = new HelloGuard({ maxPending: limits.maxPendingAuth, maxPendingPerAddress: limits.maxPendingAuthPerAddress, timeoutMs: limits.authTimeoutMs }, CLOSE.authTimeout);
  const tokenThrottle = new TokenThrottle({ burst: limits.tokenFailureBurst, perSecond: limits.tokenFailuresPerSecond });
  /** A token check from `address`: throttled addresses are refused before the lookup; unknown tokens count as failures. */
  function checkToken(address: string, token: string | null): { ok: true; token: TokenRecord } | { ok: false; retryAfterMs: number } {
    const wait = tokenThrottle.waitMs(address);
    if (wait > 0) return { ok: false, retryAfterMs: wait };
    const t = liveToken(token);
    if (t) return { ok: true, token: t };
    tokenThrottle.failed(address);
    return { ok: false, retryAfterMs: 0 };
  }
  const creations = new AddressBuckets({ ...DEFAULT_CREATE_ALLOWANCE, ...o.createAllowance });
  const imports = new ImportQueue();
  const queryThreads = o.queryThreads ?? (catalog.workerModule ? 1 : 0);
  const queryPool = queryThreads > 0 && catalog.workerModule ? new QueryPool({ catalogModule: catalog.workerModule, threads: queryThreads, ...(o.queryTimeCapMs ? { timeCapMs: o.queryTimeCapMs } : {}) }) : null;
  const queryDesk = new QueryDesk(new QueryBudget({ ...DEFAULT_QUERY_BUDGET, ...o.queryBudget }), queryPool);
  app.addHook('onClose', async () => queryPool?.close());
  /** Creating and importing share one allowance per address; replies 429 with the wait when it is spent. */
  function allowCreate(req: FastifyRequest, reply: FastifyReply): boolean {
    const a = creations.take(req.ip);
    if (a.ok) return true;
    reply.header('retry-after', String(Math.ceil(a.retryAfterMs / 1000)));
    void fail(reply, 429, { kind: 'RATE_LIMITED', message: `this address created or imported too many tables; retry in ${a.retryAfterMs} ms`, retryAfterMs: a.retryAfterMs });
    return false;
  }

  function room(tableId: string): Room | null {
    const existing = rooms.get(tableId);
    if (existing) return existing;
    const record = store.getTable(tableId);
    if (!record) return null;
    const engine = catalog.engineFor(record.rulesetId);
    if (!engine) throw new Error(`table ${tableId} uses ruleset ${record.rulesetId}, which this server does not have`);
    const r = Room.load(store, engine, record, limits);
    rooms.set(tableId, r);
    return r;
  }

  function liveToken(token: string | null): TokenRecord | null {
    if (!token || token.length > LIMITS.tokenMaxLength) return null;
    const t = store.findToken(hashToken(token));
    return t && t.revokedAt === null ? t : null;
  }

  function newToken(tableId: string, role: Role, seatId: string | null): { token: string; record: TokenRecord } {
    const token = mintToken();
    return { token, record: { hash: hashToken(token), tableId, role, seatId, createdAt: Date.now(), revokedAt: null } };
  }

  function createTable(name: string, rulesetId: string, settings?: { [key: string]: Json }): { tableId: string; gmToken: string } | { error: RejectionError } {
    if (!catalog.engineFor(rulesetId)) return { error: { kind: 'INVALID', message: `unknown ruleset ${rulesetId}; GET /api/rulesets lists them`, path: ['rulesetId'] } };
    if (store.countTables() >= limits.maxTables) return { error: { kind: 'LIMIT_REACHED', limit: 'maxTables', max: limits.maxTables, message: `this server holds at most ${limits.maxTables} tables` } };
    const tableId = mintTableId();
    const made = catalog.createTable(rulesetId, settings ? { tableId, name, settings } : { tableId, name });
    if (!made.ok) return { error: { kind: 'INVALID', message: made.error.message, path: (made.error.path ?? 'settings').split('.') } };
    const table = made.value;
    const gm = newToken(tableId, 'gm', null);
    store.createTable({ tableId, name, rulesetId, genesis: table.genesis, createdAt: Date.now() }, [gm.record]);
    return { tableId, gmToken: gm.token };
  }

  /** Runs a command as the GM on behalf of an HTTP call, then broadcasts it. */
  function gmCommand(r: Room, command: { type: string; [k: string]: string }) {
    const from = r.version;
    const res = r.submit({ role: 'gm' }, null, from, command);
    if (res.ok && !res.duplicate && r.version !== from) r.broadcast();
    return res;
  }

  function createSeat(tableId: string, name: string): { seatId: string; token: string } | { error: RejectionError } {
    const r = room(tableId);
    if (!r) return { error: { kind: 'INVALID', message: `no table ${tableId}`, path: ['tableId'] } };
    if (Object.keys(r.table.world.seats).length >= limits.maxSeatsPerTable) {
      return { error: { kind: 'LIMIT_REACHED', limit: 'maxSeatsPerTable', max: limits.maxSeatsPerTable, message: `a table has at most ${limits.maxSeatsPerTable} seats` } };
    }
    const res = gmCommand(r, { type: 'seat.add', name });
    if (!res.ok) return { error: res.error };
    const added = res.transaction?.kind === 'command' ? res.transaction.events.find((e) => e.type === 'seat.added') : undefined;
    const seatId = typeof added?.['id'] === 'string' ? added['id'] : null;
    if (!seatId) return { error: { kind: 'RULE_ERROR', code: 'INTERNAL', message: 'seat.add did not report the new seat' } };
    const t = newToken(tableId, 'player', seatId);
    store.addToken(t.record);
    return { seatId, token: t.token };
  }

  function createSpectatorLink(tableId: string): { token: string } | { error: RejectionError } {
    const live = store.listTokens(tableId).filter((t) => t.role === 'spectator' && t.revokedAt === null).length;
    if (live >= limits.maxSpectatorLinks) {
      return { error: { kind: 'LIMIT_REACHED', limit: 'maxSpectatorLinks', max: limits.maxSpectatorLinks, message: `a table has at most ${limits.maxSpectatorLinks} live spectator links; revoke them first` } };
    }
    const t = newToken(tableId, 'spectator', null);
    store.addToken(t.record);
    return { token: t.token };
  }

  function revoke(tableId: string, match: { role: Role; seatId?: string }, message: string): number {
    const revoked = store.revokeTokens(tableId, match, Date.now());
    rooms.get(tableId)?.revoke(new Set(revoked.map((t) => t.hash)), message, CLOSE.revoked);
    return revoked.length;
  }

  const base = (req: FastifyRequest) => o.publicUrl ?? `${req.protocol}://${req.host}`;

  /** The GM of `:id`, by Bearer token; replies 401/403 otherwise. */
  function requireGm(req: FastifyRequest, reply: FastifyReply): Room | null {
    const { id } = req.params as { id: string };
    const checked = checkToken(req.ip, bearer(req.headers.authorization));
    if (!checked.ok && checked.retryAfterMs > 0) {
      reply.header('retry-after', String(Math.ceil(checked.retryAfterMs / 1000)));
      void fail(reply, 429, { kind: 'RATE_LIMITED', message: `too many unknown tokens from this address; retry in ${checked.retryAfterMs} ms`, retryAfterMs: checked.retryAfterMs });
      return null;
    }
    const t = checked.ok ? checked.token : null;
    if (!t || t.role !== 'gm' || t.tableId !== id) {
      void fail(reply, t ? 403 : 401, { kind: 'FORBIDDEN', message: 'this needs the GM token of the table (Authorization: Bearer <token>)' });
      return null;
    }
    const r = room(id);
    if (!r) void fail(reply, 404, { kind: 'INVALID', message: `no table ${id}`, path: ['id'] });
    return r;
  }

  const invalid = (reply: FastifyReply, issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
    const first = issues[0];
    return fail(reply, 400, { kind: 'INVALID', message: first?.message ?? 'invalid request', path: (first?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p))) });
  };

  // ---------------------------------------------------------------- HTTP API

  app.addContentTypeParser(['application/x-ndjson', 'application/jsonl', 'text/plain'], { parseAs: 'string', bodyLimit: limits.maxImportBytes }, (_req, body, done) => done(null, body));

  // Fastify's own errors in our error shape: too large, unparsable body, anything else without internals.
  app.setErrorHandler((error: { code?: string; statusCode?: number; message?: string }, req, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.url.startsWith('/api/tables/import') ? limits.maxImportBytes : 256 * 1024;
      return fail(reply, 413, { kind: 'TOO_LARGE', message: `the request body is larger than ${limit} bytes`, limit });
    }
    // A database that cannot write is the server's trouble: 503 with the reason, never a client error.
    if (isStoreError(error)) {
      logger.error({ err: error.message, url: req.url.split('?')[0] }, 'store failure');
      return fail(reply, 503, { kind: 'UNAVAILABLE', message: `nothing was saved: ${storeFailureReason(error)}` });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return fail(reply, status, { kind: 'INVALID', message: error.message ?? 'bad request', path: [] });
    logger.error({ err: error.message, url: req.url.split('?')[0] }, 'request failed');
    return fail(reply, 500, { kind: 'UNAVAILABLE', message: 'the server could not handle this request' });
  });

  // One bucket per client address for the HTTP API, so one client cannot flood table creation or imports.
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const ip = req.ip;
    let bucket = httpBuckets.get(ip);
    if (bucket === undefined) {
      // Bounded memory: forget the oldest address when the map is full.
      if (httpBuckets.size >= MAX_HTTP_CLIENTS) httpBuckets.delete(httpBuckets.keys().next().value as string);
      bucket = new TokenBucket(httpRate, Date.now());
      httpBuckets.set(ip, bucket);
    }
    const t = bucket.take(Date.now());
    if (t.verdict === 'ok') return;
    const retryAfterMs = t.verdict === 'throttle' ? t.retryAfterMs : 1000;
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    return fail(reply, 429, { kind: 'RATE_LIMITED', message: `too many requests from this address; retry in ${retryAfterMs} ms`, retryAfterMs });
  });

  app.get('/healthz', async (_req, reply) => {
    const problem = store.probeWrite();
    return problem === null ? reply.send({ ok: true }) : reply.code(503).send({ ok: false, error: `the store is not writable: ${storeFailureReason(problem)}` });
  });

  app.get('/api/rulesets', async () => ({ rulesets: catalog.ids().map((id) => ({ id, ...catalog.info(id) })) }));

  // The command catalogue (ADR 13): every command and query with its JSON Schema, built once per ruleset.
  const catalogues = new Map<string, { ruleset: string; commands: CatalogEntry[] }>();
  app.get('/api/rulesets/:id/commands', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const engine = catalog.engineFor(id);
    if (engine === null) return fail(reply, 404, { kind: 'INVALID', message: `unknown ruleset ${id.slice(0, 40)}; GET /api/rulesets lists them`, path: ['id'] });
    let entry = catalogues.get(id);
    if (entry === undefined) catalogues.set(id, (entry = { ruleset: id, commands: catalogEntries(id, engine) }));
    return entry;
  });

  // The ruleset's character sheet (issue 17): JSON Schema with defaults and playerEditable per field; character.sheet.set takes it.
  app.get('/api/rulesets/:id/sheet', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const sheet = catalog.engineFor(id) === null ? null : (catalog.sheet?.(id) ?? null);
    if (sheet === null) return fail(reply, 404, { kind: 'INVALID', message: `no sheet for ruleset ${id.slice(0, 40)}; GET /api/rulesets lists them`, path: ['id'] });
    return sheet;
  });

  app.post('/api/tables', async (req, reply) => {
    const body = createTableRequestSchema.safeParse(req.body);
    if (!body.success) return invalid(reply, body.error.issues);
    if (!allowCreate(req, reply)) return reply;
    const made = createTable(body.data.name, body.data.rulesetId, body.data.settings as { [key: string]: Json } | undefined);
    if ('error' in made) return fail(reply, statusFor(made.error), made.error);
    const res: CreateTableResponse = { tableId: made.tableId, gmToken: made.gmToken, links: { gm: capabilityLink(base(req), 'gm', made.gmToken) } };
    return reply.code(201).send(res);
  });

  app.get('/api/tables/:id/seats', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    const tokens = store.listTokens(r.tableId);
    const online = new Set([...r.sessions].map((s) => viewerKey(s.viewer)));
    const seats: SeatSummary[] = Object.values(r.table.world.seats).map((s) => ({
      seatId: s.id,
      name: s.name,
      tokens: tokens.filter((t) => t.role === 'player' && t.seatId === s.id && t.revokedAt === null).length,
      online: online.has(`player:${s.id}`),
    }));
    return { seats, spectatorLinks: tokens.filter((t) => t.role === 'spectator' && t.revokedAt === null).length };
  });

  app.post('/api/tables/:id/seats', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    const body = createSeatRequestSchema.safeParse(req.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const made = createSeat(r.tableId, body.data.name);
    if ('error' in made) return fail(reply, statusFor(made.error), made.error);
    const res: CreateSeatResponse = { seatId: made.seatId, token: made.token, link: capabilityLink(base(req), 'player', made.token) };
    return reply.code(201).send(res);
  });

  /** Revokes a seat's tokens and mints a fresh one (a lost phone, an imported table). */
  app.post('/api/tables/:id/seats/:seatId/token', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    const { seatId } = req.params as { seatId: string };
    if (!r.table.world.seats[seatId]) return fail(reply, 404, { kind: 'INVALID', message: `no seat ${seatId}`, path: ['seatId'] });
    revoke(r.tableId, { role: 'player', seatId }, 'The GM issued a new link for this seat; this one no longer works.');
    const t = newToken(r.tableId, 'player', seatId);
    store.addToken(t.record);
    const res: CreateSeatResponse = { seatId, token: t.token, link: capabilityLink(base(req), 'player', t.token) };
    return reply.code(201).send(res);
  });

  app.delete('/api/tables/:id/seats/:seatId', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    const { seatId } = req.params as { seatId: string };
    const n = revoke(r.tableId, { role: 'player', seatId }, 'The GM revoked this seat; its link no longer works.');
    return { revoked: n };
  });

  /** A leaked GM link: revoke every GM token of the table (their sockets close) and issue a fresh one. */
  app.post('/api/tables/:id/gm-token', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    revoke(r.tableId, { role: 'gm' }, 'The GM link was replaced; open the new one.');
    const t = newToken(r.tableId, 'gm', null);
    store.addToken(t.record);
    const res: CreateTableResponse = { tableId: r.tableId, gmToken: t.token, links: { gm: capabilityLink(base(req), 'gm', t.token) } };
    return reply.code(201).send(res);
  });

  app.post('/api/tables/:id/spectators', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    const made = createSpectatorLink(r.tableId);
    if ('error' in made) return fail(reply, 403, made.error);
    const res: SpectatorResponse = { token: made.token, link: capabilityLink(base(req), 'spectator', made.token) };
    return reply.code(201).send(res);
  });

  app.delete('/api/tables/:id/spectators', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    return { revoked: revoke(r.tableId, { role: 'spectator' }, 'The GM revoked the spectator links.') };
  });

  /** A consistent copy of the whole database (SQLite online backup), for the operator's admin token. */
  app.get('/api/backup', async (req, reply) => {
    const given = bearer(req.headers.authorization);
    if (!o.adminToken || !given || !sameHash(hashToken(given), hashToken(o.adminToken))) {
      return fail(reply, 403, { kind: 'FORBIDDEN', message: 'backups need the admin token (TABLEKEEPER_ADMIN_TOKEN) as Bearer' });
    }
    const backup = (store as Partial<SqliteEventStore>).backup;
    if (!backup) return fail(reply, 501, { kind: 'UNAVAILABLE', message: 'this store cannot make backups' });
    const dir = mkdtempSync(join(tmpdir(), 'tk-backup-'));
    const file = join(dir, 'tablekeeper.sqlite');
    try {
      await backup.call(store, file);
      const bytes = readFileSync(file);
      return reply.header('content-type', 'application/vnd.sqlite3').header('content-disposition', 'attachment; filename="tablekeeper-backup.sqlite"').send(bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  app.get('/api/tables/:id/export', async (req, reply) => {
    const r = requireGm(req, reply);
    if (!r) return reply;
    const rec = r.record;
    const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: rec.tableId, rulesetId: rec.rulesetId, name: rec.name, genesis: rec.genesis })];
    for (const row of store.readLog(rec.tableId)) lines.push(JSON.stringify({ kind: 'transaction', version: row.version, commandId: row.commandId, transaction: row.transaction }));
    return reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${rec.tableId}.jsonl"`)
      .send(lines.join('\n') + '\n');
  });

  app.post('/api/tables/import', { bodyLimit: limits.maxImportBytes }, async (req, reply) => {
    if (!allowCreate(req, reply)) return reply;
    const job = imports.run(async () => {
      const checked = await checkImport(typeof req.body === 'string' ? req.body : '', catalog, limits);
      if ('error' in checked) return checked;
      if (store.countTables() >= limits.maxTables) return { status: 403, error: { kind: 'LIMIT_REACHED', limit: 'maxTables', max: limits.maxTables, message: `this server holds at most ${limits.maxTables} tables` } as RejectionError };
      const gm = newToken(checked.tableId, 'gm', null);
      const failed = await writeImport(store, checked, gm.record);
      if (failed) return failed;
      // The job already holds the replayed table: the room starts from it instead of reading the rows back.
      const engine = catalog.engineFor(checked.rulesetId)!;
      const record = store.getTable(checked.tableId)!;
      rooms.set(checked.tableId, Room.fromTable(store, engine, record, checked.table, limits));
      return { tableId: checked.tableId, gmToken: gm.token };
    });
    if (job === null) {
      reply.header('retry-after', '2');
      return fail(reply, 429, { kind: 'RATE_LIMITED', message: 'other imports are running; retry in a few seconds', retryAfterMs: 2000 });
    }
    const done = await job;
    if ('error' in done) return fail(reply, done.status, done.error);
    const res: CreateTableResponse = { tableId: done.tableId, gmToken: done.gmToken, links: { gm: capabilityLink(base(req), 'gm', done.gmToken) } };
    return reply.code(201).send(res);
  });

  // ---------------------------------------------------------------- group commit

  /**
   * Commands that arrive in the same turn of the event loop (from any table)
   * are decided one by one, in order, inside ONE write transaction: one fsync
   * for the lot. Nothing is broadcast or acknowledged before that commit; if
   * it fails, every room goes back to its table from before the batch.
   */
  type Item =
    | { kind: 'other'; run: () => void }
    | {
        kind: 'command';
        room: Room;
        session: Session;
        commandId: string;
        expectedVersion: number;
        command: Command;
        sendJson: (msg: unknown) => void;
        reject: (commandId: string | null, error: RejectionError) => void;
      };
  let queue: Item[] = [];
  let scheduled = false;
  function enqueue(item: Item): void {
    queue.push(item);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }
  function flush(): void {
    scheduled = false;
    const items = queue;
    queue = [];
    const before = new Map<Room, { version: number; table: Table }>();
    let results: (SubmitResult | null)[] = [];
    try {
      store.batch(() => {
        results = items.map((it) => {
          if (it.kind !== 'command') return null;
          // A seat revoked while its command waited must not act.
          if (!it.room.sessions.has(it.session)) return { ok: false, error: { kind: 'FORBIDDEN', message: 'this connection was closed or revoked' } };
          if (!before.has(it.room)) before.set(it.room, { version: it.room.version, table: it.room.table });
          return it.room.submit(it.session.viewer, it.commandId, it.expectedVersion, it.command);
        });
      });
    } catch (e) {
      logger.error({ err: e instanceof Error ? e.message : String(e) }, 'group commit failed');
      for (const [room, b] of before) room.table = b.table;
      before.clear();
      results = items.map((it) => (it.kind === 'command' ? { ok: false, error: { kind: 'UNAVAILABLE', message: 'the change could not be saved; nothing was applied' } } : null));
    }
    // Views first, with each sender's acks folded into its own delta; the rest are sent below.
    const acks = new Map<Session, DeltaAck[]>();
    items.forEach((it, i) => {
      const res = results[i];
      if (it.kind !== 'command' || !res?.ok || res.duplicate) return;
      const mine = acks.get(it.session) ?? [];
      mine.push({ commandId: it.commandId, version: res.version });
      acks.set(it.session, mine);
    });
    const folded = new Set<Session>();
    for (const [room, b] of before) if (room.version !== b.version) for (const s of room.broadcast(acks)) folded.add(s);
    // A seat removed by a command (or by undoing its creation) takes its links with it.
    for (const [room, b] of before) {
      for (const seatId of Object.keys(b.table.world.seats)) {
        if (room.table.world.seats[seatId]) continue;
        const message = 'The GM removed this seat; its link no longer works.';
        try {
          revoke(room.tableId, { role: 'player', seatId }, message);
        } catch (e) {
          // The commit stands and its acks must still go out (a throw here would take the process down):
          // close the seat's sockets anyway; its tokens stay live in the store, for a seat that no longer exists.
          logger.error({ err: e instanceof Error ? e.message : String(e), tableId: room.tableId, seatId }, 'could not revoke a removed seat\'s links');
          const hashes = [...room.sessions].filter((x) => x.viewer.role === 'player' && x.viewer.seatId === seatId).map((x) => x.tokenHash);
          room.revoke(new Set(hashes), message, CLOSE.revoked);
        }
      }
    }
    items.forEach((it, i) => {
      if (it.kind === 'other') return it.run();
      const res = results[i]!;
      if (!res.ok) return it.reject(it.commandId, res.error);
      if (!res.duplicate && folded.has(it.session)) return;
      it.sendJson({ type: 'ack', commandId: it.commandId, version: res.version, duplicate: res.duplicate });
    });
  }

  // ---------------------------------------------------------------- WebSocket

  const ownHost = (req: FastifyRequest) => req.headers.host ?? '';
  function originAllowed(req: FastifyRequest): boolean {
    const origin = req.headers.origin;
    // Non-browser clients send no Origin; browsers always do, so cross-site pages are caught here.
    if (origin === undefined) return true;
    if (o.allowedOrigins?.includes(origin)) return true;
    try {
      return new URL(origin).host === ownHost(req);
    } catch {
      return false;
    }
  }

  /** Tokens in the subprotocol list, never in the URL. */
  function protocolToken(req: FastifyRequest): string | null {
    const raw = req.headers['sec-websocket-protocol'];
    if (typeof raw !== 'string') return null;
    for (const p of raw.split(',')) {
      const v = p.trim();
      if (v.startsWith(WS_TOKEN_PREFIX)) return v.slice(WS_TOKEN_PREFIX.length);
    }
    return null;
  }

  void app.register(websocket, {
    // Shutdown: ask every socket to close, then cut the ones whose peer has not answered within a
    // second, so a restart never waits on a browser tab (ws would otherwise wait up to 30 s each).
    preClose(done) {
      const wss = app.websocketServer;
      for (const c of wss.clients) c.close(CLOSE.goingAway, 'the server is shutting down');
      setTimeout(() => {
        for (const c of wss.clients) c.terminate();
      }, 1000).unref();
      wss.close();
      done();
    },
    options: {
      maxPayload: LIMITS.maxPayloadBytes,
      // Select our protocol name, never echo the token back. An old client's is selected only to close it with a "please reload".
      handleProtocols: (protocols: Set<string>) => (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : (WS_OLD_SUBPROTOCOLS.find((p) => protocols.has(p)) ?? false)),
    },
  });

  void app.register(async (scope) => {
    scope.get(
      WS_PATH,
      {
        websocket: true,
        preValidation: async (req: FastifyRequest, reply: FastifyReply) => {
          if (!originAllowed(req)) return fail(reply, 403, { kind: 'FORBIDDEN', message: 'this Origin may not open a table connection' });
          if (oldClient(req)) return; // upgraded only to be told to reload
          const token = protocolToken(req);
          if (token === null) return; // authenticates with a hello as its first message
          const checked = checkToken(req.ip, token);
          if (!checked.ok && checked.retryAfterMs > 0) return fail(reply, 429, { kind: 'RATE_LIMITED', message: `too many unknown tokens from this address; retry in ${checked.retryAfterMs} ms`, retryAfterMs: checked.retryAfterMs });
          if (!checked.ok) return fail(reply, 401, { kind: 'FORBIDDEN', message: 'unknown or revoked token' });
          const t = checked.token;
          const r = room(t.tableId);
          if (!r) return fail(reply, 404, { kind: 'INVALID', message: 'the table no longer exists', path: [] });
          if (!r.canJoin()) return fail(reply, 503, { kind: 'LIMIT_REACHED', limit: 'maxSessions', max: limits.maxSessions, message: `a table takes at most ${limits.maxSessions} connections` });
          (req as AuthedRequest)[AUTH] = t;
        },
      },
      (socket: WebSocket, req: FastifyRequest) => connection(socket, (req as AuthedRequest)[AUTH] ?? null, req.ip),
    );
  });

  /** A client that offers only an earlier protocol version: its page is older than this server. */
  function oldClient(req: FastifyRequest): boolean {
    const raw = req.headers['sec-websocket-protocol'];
    if (typeof raw !== 'string') return false;
    const offered = raw.split(',').map((p) => p.trim());
    return !offered.includes(WS_SUBPROTOCOL) && offered.some((p) => WS_OLD_SUBPROTOCOLS.includes(p));
  }

  function connection(socket: WebSocket, preAuth: TokenRecord | null, address: string): void {
    if (WS_OLD_SUBPROTOCOLS.includes(socket.protocol)) {
      socket.close(CLOSE.badProtocolVersion, RELOAD_REASON);
      return;
    }
    const bucket = new TokenBucket(rate, Date.now());
    let session: Session | null = null;
    let r: Room | null = null;
    const sendJson = (msg: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
    };
    const reject = (commandId: string | null, error: RejectionError) => sendJson({ type: 'rejection', commandId, error });
    // ws reports oversize frames (1009) and protocol errors here; the socket closes itself.
    socket.on('error', (e) => logger.debug({ err: e.message }, 'websocket error'));

    const attach = (t: TokenRecord): boolean => {
      const room_ = room(t.tableId);
      if (!room_ || !room_.canJoin()) {
        socket.close(CLOSE.tableClosed, room_ ? 'the table is full' : 'the table no longer exists');
        return false;
      }
      r = room_;
      session = {
        id: ++sessionSeq,
        viewer: viewerOf(t),
        tokenHash: t.hash,
        held: null,
        sendRaw: (data) => {
          // A shared Buffer goes out as the same text frame to every session of a viewer.
          if (socket.readyState === socket.OPEN) socket.send(data, { binary: false });
        },
        close: (code, reason) => socket.close(code, reason),
      };
      r.join(session);
      logger.info({ tableId: t.tableId, role: t.role, session: session.id }, 'session joined');
      return true;
    };

    const waiting: Waiting = { address, close: (code, reason) => socket.close(code, reason) };
    const settle = () => helloGuard.settle(waiting);
    if (preAuth) attach(preAuth);
    else {
      const admitted = helloGuard.admit(waiting);
      if (!admitted.ok) {
        socket.close(TRY_AGAIN_LATER, admitted.reason);
        return;
      }
    }

    socket.on('close', () => {
      settle();
      if (r && session) r.leave(session);
    });

    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      try {
        onMessage(data, isBinary);
      } catch (e) {
        // A bug must cost one message, never the room or the process.
        logger.error({ err: e instanceof Error ? e.message : String(e) }, 'message handler failed');
        reject(null, { kind: 'UNAVAILABLE', message: 'the server failed to handle this message; nothing was applied' });
      }
    });

    const onMessage = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void => {
      const take = bucket.take(Date.now());
      if (take.verdict === 'close') {
        socket.close(CLOSE.rateLimited, 'too many messages; slow down and reconnect');
        return;
      }
      if (isBinary) return take.verdict === 'ok' ? reject(null, { kind: 'INVALID', message: 'send JSON text frames', path: [] }) : undefined;
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      let raw: unknown;
      let parsedJson = true;
      try {
        raw = JSON.parse(text);
      } catch {
        parsedJson = false;
      }
      // Echo the commandId on every rejection we can, so clients can match it to their command.
      let commandId: string | null = null;
      if (raw && typeof raw === 'object' && typeof (raw as { commandId?: unknown }).commandId === 'string') {
        const c = (raw as { commandId: string }).commandId;
        commandId = c.length <= LIMITS.commandIdMaxLength ? c : null;
      }
      // A query waits for an answer with its queryId: one dropped or refused here is answered as a queryResult, or the asker would wait for ever.
      let queryId: string | null = null;
      if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'query' && typeof (raw as { queryId?: unknown }).queryId === 'string') {
        const q = (raw as { queryId: string }).queryId;
        queryId = q.length <= LIMITS.commandIdMaxLength ? q : null;
      }
      const refuse = (error: RejectionError & { path?: readonly (string | number)[] }): void => {
        if (queryId === null) return reject(commandId, error);
        const path = error.path === undefined || error.path.length === 0 ? {} : { path: error.path.join('.') };
        sendJson({ type: 'queryResult', queryId, ok: false, error: { code: error.kind, message: error.message, ...path } });
      };
      if (take.verdict === 'throttle') {
        return refuse({ kind: 'RATE_LIMITED', message: `more than ${rate.refillPerSecond} messages per second; this one was dropped`, retryAfterMs: take.retryAfterMs });
      }
      if (!parsedJson) return reject(null, { kind: 'INVALID', message: 'the message is not JSON', path: [] });
      const deep = tooDeep(raw);
      if (deep !== null) return refuse({ kind: 'INVALID', message: `${deep.join('.')} is nested deeper than ${MAX_MESSAGE_DEPTH} levels, the limit for a message`, path: deep });
      const parsed = clientMessageSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return refuse({ kind: 'INVALID', message: issue?.message ?? 'invalid message', path: (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p))) });
      }
      const msg = parsed.data;
      if (msg.type === 'hello') {
        if (session) return reject(null, { kind: 'INVALID', message: 'already authenticated', path: ['type'] });
        if (msg.protocolVersion !== PROTOCOL_VERSION) {
          socket.close(CLOSE.badProtocolVersion, RELOAD_REASON);
          return;
        }
        const checked = checkToken(address, msg.token);
        if (!checked.ok) {
          socket.close(checked.retryAfterMs > 0 ? CLOSE.rateLimited : CLOSE.unauthorized, checked.retryAfterMs > 0 ? `too many unknown tokens from this address; retry in ${checked.retryAfterMs} ms` : 'unknown or revoked token');
          return;
        }
        settle();
        attach(checked.token);
        return;
      }
      if (!session || !r) {
        socket.close(CLOSE.unauthorized, 'send a hello with your token first');
        return;
      }
      const s: Session = session;
      const room_: Room = r;
      // Commands and resyncs go through the group-commit queue, in arrival order.
      switch (msg.type) {
        case 'ping': // touches no state: answered at once
          return sendJson(msg.nonce === undefined ? { type: 'pong' } : { type: 'pong', nonce: msg.nonce });
        case 'resync':
          return enqueue({ kind: 'other', run: () => room_.resync(s, msg.since) });
        case 'command':
          return enqueue({ kind: 'command', room: room_, session: s, commandId: msg.commandId, expectedVersion: msg.expectedVersion, command: msg.command, sendJson, reject });
        case 'query': // after the commands before it, so the answer matches the view the client will hold
          return enqueue({ kind: 'other', run: () => queryDesk.ask(room_, s.viewer, msg.queryId, msg.name, msg.args, sendJson) });
      }
    };
  }

  // ---------------------------------------------------------------- the web app

  const dist = o.webDist === undefined ? DEFAULT_WEB_DIST : o.webDist;
  const serve = dist && existsSync(join(dist, 'index.html')) ? staticFiles(dist) : null;
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    // GET of anything but the API is the web app: a file from dist, else index.html (client-side routes).
    if (serve && (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && path !== WS_PATH) {
      const sent = serve(req, reply, true);
      if (sent) return sent;
    }
    return fail(reply, 404, { kind: 'INVALID', message: `no route ${req.method} ${path}`, path: [] });
  });

  return {
    app,
    rooms,
    catalog,
    limits,
    room,
    createTable,
    createSeat,
    createSpectatorLink,
    closeRooms() {
      for (const r of rooms.values()) r.closeAll(CLOSE.goingAway, 'the server is shutting down');
    },
  };
}
