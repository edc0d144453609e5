// HTTP routes: health, rulesets and their command catalogue, tables, seats,
// spectator links, token rotation, export / import and backup, plus the
// per-address request budget, one error shape for every refusal, and the
// built web app for everything else. Table work goes through the table
// service (tables.ts); a reply is all this file adds.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { catalogEntries, type CatalogEntry, type Json } from '@tablekeeper/engine';
import {
  PROTOCOL_VERSION,
  WS_PATH,
  capabilityLink,
  createSeatRequestSchema,
  createTableRequestSchema,
  joinRequestSchema,
  type CreateSeatResponse,
  type CreateTableResponse,
  type JoinCodeResponse,
  type JoinResponse,
  type RejectionError,
  type SeatSummary,
  type SpectatorResponse,
} from '@tablekeeper/protocol';
import { AddressBuckets, DEFAULT_CREATE_ALLOWANCE, type AllowanceOptions } from './address-limits.js';
import { isStoreError, statusFor, storeFailureReason } from './health.js';
import { importTable, ImportQueue } from './import.js';
import { TokenBucket, type RateLimitOptions } from './ratelimit.js';
import type { Room } from './room.js';
import { viewerKey } from './room.js';
import type { RulesetCatalog } from './rulesets.js';
import { staticFiles } from './static.js';
import type { SqliteEventStore } from './store/sqlite.js';
import type { EventStore } from './store/port.js';
import type { ServerLimits, Tables } from './tables.js';
import { bearer, hashToken, mintTableId, sameHash } from './tokens.js';

/** HTTP API requests per client address: a burst of 60, then 10 a second. */
export const DEFAULT_HTTP_RATE_LIMIT = { capacity: 60, refillPerSecond: 10 } as const;
/** Addresses whose buckets are remembered at once. */
const MAX_HTTP_CLIENTS = 10_000;

const DEFAULT_WEB_DIST = new URL('../../web/dist', import.meta.url).pathname;

export function fail(reply: FastifyReply, status: number, error: RejectionError) {
  return reply.code(status).send({ error });
}

export interface HttpDeps {
  readonly tables: Tables;
  readonly store: EventStore;
  readonly catalog: RulesetCatalog;
  readonly logger: Logger;
  readonly limits: ServerLimits;
  /** Per client address, for the HTTP API (/api/*): burst and requests regained per second. */
  readonly httpRateLimit?: Partial<Pick<RateLimitOptions, 'capacity' | 'refillPerSecond'>>;
  /** Per client address, for creating and importing tables. */
  readonly createAllowance?: Partial<AllowanceOptions>;
  readonly publicUrl?: string;
  readonly adminToken?: string;
  readonly importInWorker?: boolean;
  /** Built web app to serve (SPA); null to serve none. Default: packages/web/dist when it exists. */
  readonly webDist?: string | null;
}

export function registerHttp(app: FastifyInstance, d: HttpDeps): void {
  const { tables, store, catalog, logger, limits } = d;
  // closeAfter is meaningless over HTTP: a refused request is just refused.
  const httpRate: RateLimitOptions = { ...DEFAULT_HTTP_RATE_LIMIT, ...d.httpRateLimit, closeAfter: Number.MAX_SAFE_INTEGER };
  const httpBuckets = new Map<string, TokenBucket>();
  const creations = new AddressBuckets({ ...DEFAULT_CREATE_ALLOWANCE, ...d.createAllowance });
  const imports = new ImportQueue();

  /** Creating and importing share one allowance per address; replies 429 with the wait when it is spent. */
  function allowCreate(req: FastifyRequest, reply: FastifyReply): boolean {
    const a = creations.take(req.ip);
    if (a.ok) return true;
    reply.header('retry-after', String(Math.ceil(a.retryAfterMs / 1000)));
    void fail(reply, 429, { kind: 'RATE_LIMITED', message: `this address created or imported too many tables; retry in ${a.retryAfterMs} ms`, retryAfterMs: a.retryAfterMs });
    return false;
  }

  const base = (req: FastifyRequest) => d.publicUrl ?? `${req.protocol}://${req.host}`;

  /**
   * The GM of `:id`, by Bearer token; replies 401/403 otherwise. A table not in
   * memory loads in slices (the sockets' cold load), so a big table's first
   * HTTP call does not hold every other table's event loop.
   */
  async function requireGm(req: FastifyRequest, reply: FastifyReply): Promise<Room | null> {
    const { id } = req.params as { id: string };
    const checked = await tables.checkToken(req.ip, bearer(req.headers.authorization));
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
    const r = await tables.load(id);
    if (!r) void fail(reply, 404, { kind: 'INVALID', message: `no table ${id}`, path: ['id'] });
    return r;
  }

  const invalid = (reply: FastifyReply, issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
    const first = issues[0];
    return fail(reply, 400, { kind: 'INVALID', message: first?.message ?? 'invalid request', path: (first?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p))) });
  };

  // ---------------------------------------------------------------- HTTP API

  // Kept as bytes: an import checked in a worker moves them to its thread without building the text here.
  app.addContentTypeParser(['application/x-ndjson', 'application/jsonl', 'text/plain'], { parseAs: 'buffer', bodyLimit: limits.maxImportBytes }, (_req, body, done) => done(null, body));

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
    const problem = await store.probeWrite();
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
    const made = await tables.createTable(body.data.name, body.data.rulesetId, body.data.settings as { [key: string]: Json } | undefined);
    if ('error' in made) return fail(reply, statusFor(made.error), made.error);
    const res: CreateTableResponse = { tableId: made.tableId, gmToken: made.gmToken, links: { gm: capabilityLink(base(req), 'gm', made.gmToken) } };
    return reply.code(201).send(res);
  });

  app.get('/api/tables/:id/seats', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const tokens = await store.listTokens(r.tableId);
    const online = new Set([...r.sessions].map((s) => viewerKey(s.viewer)));
    // From the store: a code redeemed through another instance reads "used" here too (ADR 64).
    const codes = await tables.joinCodes.states(r.tableId);
    const seats: SeatSummary[] = Object.values(r.table.world.seats).map((s) => ({
      seatId: s.id,
      name: s.name,
      tokens: tokens.filter((t) => t.role === 'player' && t.seatId === s.id && t.revokedAt === null).length,
      online: online.has(`player:${s.id}`),
      code: codes.get(s.id) ?? { state: 'none' },
    }));
    return { seats, spectatorLinks: tokens.filter((t) => t.role === 'spectator' && t.revokedAt === null).length };
  });

  app.post('/api/tables/:id/seats', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const body = createSeatRequestSchema.safeParse(req.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const made = await tables.createSeat(r.tableId, body.data.name);
    if ('error' in made) return fail(reply, statusFor(made.error), made.error);
    const code = await tables.joinCodes.issue(r.tableId, made.seatId);
    const res: CreateSeatResponse = { seatId: made.seatId, token: made.token, link: capabilityLink(base(req), 'player', made.token), code: code.code, codeExpiresAt: code.expiresAt };
    return reply.code(201).send(res);
  });

  /** Revokes a seat's tokens and mints a fresh one (a lost phone, an imported table). */
  app.post('/api/tables/:id/seats/:seatId/token', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const { seatId } = req.params as { seatId: string };
    if (!r.table.world.seats[seatId]) return fail(reply, 404, { kind: 'INVALID', message: `no seat ${seatId}`, path: ['seatId'] });
    await tables.revoke(r.tableId, { role: 'player', seatId }, 'The GM issued a new link for this seat; this one no longer works.');
    const t = tables.newToken(r.tableId, 'player', seatId);
    await store.addToken(t.record);
    const code = await tables.joinCodes.issue(r.tableId, seatId);
    const res: CreateSeatResponse = { seatId, token: t.token, link: capabilityLink(base(req), 'player', t.token), code: code.code, codeExpiresAt: code.expiresAt };
    return reply.code(201).send(res);
  });

  /** A new short join code for a seat (ADR 44): the seat's old code stops working, its links do not. */
  app.post('/api/tables/:id/seats/:seatId/code', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const { seatId } = req.params as { seatId: string };
    if (!r.table.world.seats[seatId]) return fail(reply, 404, { kind: 'INVALID', message: `no seat ${seatId}`, path: ['seatId'] });
    const code = await tables.joinCodes.issue(r.tableId, seatId);
    const res: JoinCodeResponse = { seatId, code: code.code, expiresAt: code.expiresAt };
    return reply.code(201).send(res);
  });

  /**
   * A player types a join code: the seat's link comes back (a fresh token, the code used up). Throttled per
   * address like unknown tokens; every code that does not work gets the same answer, so nothing is learnt
   * about other tables' codes.
   */
  app.post('/api/join', async (req, reply) => {
    const body = joinRequestSchema.safeParse(req.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const j = await tables.redeemJoinCode(req.ip, body.data.code);
    if (!j.ok) {
      if (j.retryAfterMs > 0) {
        reply.header('retry-after', String(Math.ceil(j.retryAfterMs / 1000)));
        return fail(reply, 429, { kind: 'RATE_LIMITED', message: j.message, retryAfterMs: j.retryAfterMs });
      }
      return fail(reply, j.malformed ? 400 : 404, { kind: 'INVALID', message: j.message, path: ['code'] });
    }
    const res: JoinResponse = { token: j.token, link: capabilityLink(base(req), 'player', j.token) };
    return reply.code(200).send(res);
  });

  app.delete('/api/tables/:id/seats/:seatId', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const { seatId } = req.params as { seatId: string };
    const n = await tables.revoke(r.tableId, { role: 'player', seatId }, 'The GM revoked this seat; its link no longer works.');
    return { revoked: n };
  });

  /** A leaked GM link: revoke every GM token of the table (their sockets close) and issue a fresh one. */
  app.post('/api/tables/:id/gm-token', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    await tables.revoke(r.tableId, { role: 'gm' }, 'The GM link was replaced; open the new one.');
    const t = tables.newToken(r.tableId, 'gm', null);
    await store.addToken(t.record);
    const res: CreateTableResponse = { tableId: r.tableId, gmToken: t.token, links: { gm: capabilityLink(base(req), 'gm', t.token) } };
    return reply.code(201).send(res);
  });

  app.post('/api/tables/:id/spectators', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const made = await tables.createSpectatorLink(r.tableId);
    if ('error' in made) return fail(reply, 403, made.error);
    const res: SpectatorResponse = { token: made.token, link: capabilityLink(base(req), 'spectator', made.token) };
    return reply.code(201).send(res);
  });

  app.delete('/api/tables/:id/spectators', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    return { revoked: await tables.revoke(r.tableId, { role: 'spectator' }, 'The GM revoked the spectator links.') };
  });

  /** A consistent copy of the whole database (SQLite online backup), for the operator's admin token. */
  app.get('/api/backup', async (req, reply) => {
    const given = bearer(req.headers.authorization);
    if (!d.adminToken || !given || !sameHash(hashToken(given), hashToken(d.adminToken))) {
      return fail(reply, 403, { kind: 'FORBIDDEN', message: 'backups need the admin token (TABLEKEEPER_ADMIN_TOKEN) as Bearer' });
    }
    // The in-thread SQLite store, or the one whose writer thread runs the backup (ADR 107).
    const source = (store.sync ?? store) as Partial<Pick<SqliteEventStore, 'backup'>>;
    const backup = source.backup;
    if (!backup) return fail(reply, 501, { kind: 'UNAVAILABLE', message: 'this store cannot make backups' });
    const dir = mkdtempSync(join(tmpdir(), 'tk-backup-'));
    const file = join(dir, 'tablekeeper.sqlite');
    try {
      await backup.call(source, file);
      const bytes = readFileSync(file);
      return reply.header('content-type', 'application/vnd.sqlite3').header('content-disposition', 'attachment; filename="tablekeeper-backup.sqlite"').send(bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  app.get('/api/tables/:id/export', async (req, reply) => {
    const r = await requireGm(req, reply);
    if (!r) return reply;
    const rec = r.record;
    const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: rec.tableId, rulesetId: rec.rulesetId, name: rec.name, genesis: rec.genesis })];
    for (const row of await store.readLog(rec.tableId)) lines.push(JSON.stringify({ kind: 'transaction', version: row.version, commandId: row.commandId, transaction: row.transaction }));
    return reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${rec.tableId}.jsonl"`)
      .send(lines.join('\n') + '\n');
  });

  app.post('/api/tables/import', { bodyLimit: limits.maxImportBytes }, async (req, reply) => {
    if (!allowCreate(req, reply)) return reply;
    const body = Buffer.isBuffer(req.body) || typeof req.body === 'string' ? req.body : '';
    const job = imports.run(() => importTable(body, { store, catalog, limits, mintTableId, inWorker: d.importInWorker ?? false, newGmToken: (tableId) => tables.newToken(tableId, 'gm', null) }));
    if (job === null) {
      reply.header('retry-after', '2');
      return fail(reply, 429, { kind: 'RATE_LIMITED', message: 'other imports are running; retry in a few seconds', retryAfterMs: 2000 });
    }
    const done = await job;
    if (!done.ok) return fail(reply, done.status, done.error);
    // The job already holds the replayed table: the room starts from it instead of reading the rows back.
    tables.adopt(done.record, done.table);
    const res: CreateTableResponse = { tableId: done.record.tableId, gmToken: done.gmToken, links: { gm: capabilityLink(base(req), 'gm', done.gmToken) } };
    return reply.code(201).send(res);
  });

  // ---------------------------------------------------------------- the web app

  const dist = d.webDist === undefined ? DEFAULT_WEB_DIST : d.webDist;
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

}
