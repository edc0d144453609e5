// WebSocket front: the upgrade (origin, protocol version, token), then one
// connection per socket. A connection is in one phase at a time:
// awaiting-hello (no token yet; the hello guard holds it), connected (a
// session in a room) or closing; each message is read in the light of it.
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import {
  CLOSE,
  LIMITS,
  PROTOCOL_VERSION,
  RELOAD_REASON,
  WS_OLD_SUBPROTOCOLS,
  WS_PATH,
  WS_SUBPROTOCOL,
  WS_TOKEN_PREFIX,
  parseClientMessage,
  type RejectionError,
} from '@tablekeeper/protocol';
import type { Cluster } from './cluster/cluster.js';
import type { CommitQueue } from './commit-queue.js';
import { HelloGuard, TRY_AGAIN_LATER, type Waiting } from './hello-guard.js';
import { framedSender } from './framed-send.js';
import { fail } from './http.js';
import type { QueryDesk } from './query-desk.js';
import { TokenBucket, type RateLimitOptions } from './ratelimit.js';
import type { Room, Session } from './room.js';
import { MAX_MESSAGE_DEPTH, tooDeep } from './shape-guard.js';
import type { TokenRecord } from './store/port.js';
import { viewerOf, type ServerLimits, type Tables } from './tables.js';

export interface WsDeps {
  readonly tables: Tables;
  readonly queue: CommitQueue;
  readonly queryDesk: QueryDesk;
  readonly limits: ServerLimits;
  /** Messages per socket other than queries: what commands spend. */
  readonly rate: RateLimitOptions;
  /** Query frames per socket, apart (ADR 86): no amount of queries leaves a command RATE_LIMITED. */
  readonly queryRate: RateLimitOptions;
  readonly logger: Logger;
  /** Origins (scheme://host:port) allowed besides the server's own host. */
  readonly allowedOrigins?: readonly string[];
  /** The shared mode (ADR 60): commands for a table another instance owns go there. */
  readonly cluster?: Cluster | null;
}

/** Where a connection stands; only `connected` has a session and a room. */
type Phase =
  | { readonly name: 'awaiting-hello'; readonly waiting: Waiting }
  | { readonly name: 'connected'; readonly room: Room; readonly session: Session }
  | { readonly name: 'closing' };

const AUTH = Symbol('tablekeeper.auth');
type AuthedRequest = FastifyRequest & { [AUTH]?: TokenRecord };

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

/** A client that offers only an earlier protocol version: its page is older than this server. */
function oldClient(req: FastifyRequest): boolean {
  const raw = req.headers['sec-websocket-protocol'];
  if (typeof raw !== 'string') return false;
  const offered = raw.split(',').map((p) => p.trim());
  return !offered.includes(WS_SUBPROTOCOL) && offered.some((p) => WS_OLD_SUBPROTOCOLS.includes(p));
}

export function registerWebSocket(app: FastifyInstance, d: WsDeps): void {
  const { tables, limits, logger } = d;
  const helloGuard = new HelloGuard({ maxPending: limits.maxPendingAuth, maxPendingPerAddress: limits.maxPendingAuthPerAddress, timeoutMs: limits.authTimeoutMs }, CLOSE.authTimeout);
  let sessionSeq = 0;

  const ownHost = (req: FastifyRequest) => req.headers.host ?? '';
  function originAllowed(req: FastifyRequest): boolean {
    const origin = req.headers.origin;
    // Non-browser clients send no Origin; browsers always do, so cross-site pages are caught here.
    if (origin === undefined) return true;
    if (d.allowedOrigins?.includes(origin)) return true;
    try {
      return new URL(origin).host === ownHost(req);
    } catch {
      return false;
    }
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
          const checked = await tables.checkToken(req.ip, token);
          if (!checked.ok && checked.retryAfterMs > 0) return fail(reply, 429, { kind: 'RATE_LIMITED', message: `too many unknown tokens from this address; retry in ${checked.retryAfterMs} ms`, retryAfterMs: checked.retryAfterMs });
          if (!checked.ok) return fail(reply, 401, { kind: 'FORBIDDEN', message: 'unknown or revoked token' });
          const t = checked.token;
          // A cold table loads in slices: other tables keep answering meanwhile.
          const r = await tables.load(t.tableId);
          if (!r) return fail(reply, 404, { kind: 'INVALID', message: 'the table no longer exists', path: [] });
          if (!r.canJoin()) return fail(reply, 503, { kind: 'LIMIT_REACHED', limit: 'maxSessions', max: limits.maxSessions, message: `a table takes at most ${limits.maxSessions} connections` });
          (req as AuthedRequest)[AUTH] = t;
        },
      },
      (socket: WebSocket, req: FastifyRequest) => connection(socket, (req as AuthedRequest)[AUTH] ?? null, req.ip),
    );
  });

  function connection(socket: WebSocket, preAuth: TokenRecord | null, address: string): void {
    if (WS_OLD_SUBPROTOCOLS.includes(socket.protocol)) {
      socket.close(CLOSE.badProtocolVersion, RELOAD_REASON);
      return;
    }
    const bucket = new TokenBucket(d.rate, Date.now());
    const queryBucket = new TokenBucket(d.queryRate, Date.now());
    const sendJson = (msg: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
    };
    const reject = (commandId: string | null, error: RejectionError) => sendJson({ type: 'rejection', commandId, error });
    /** A refused message: a query is answered as a queryResult with its queryId (or its asker would wait for ever), anything else as a rejection. */
    const refuse = (commandId: string | null, queryId: string | null, error: RejectionError & { path?: readonly (string | number)[] }): void => {
      if (queryId === null) return reject(commandId, error);
      const path = error.path === undefined || error.path.length === 0 ? {} : { path: error.path.join('.') };
      sendJson({ type: 'queryResult', queryId, ok: false, error: { code: error.kind, message: error.message, ...path } });
    };
    // ws reports oversize frames (1009) and protocol errors here; the socket closes itself.
    socket.on('error', (e) => logger.debug({ err: e.message }, 'websocket error'));

    let phase: Phase = { name: 'closing' };

    /** Leaves the current phase: a waiting socket leaves the hello guard, a connected one its room. */
    const leave = (): void => {
      if (phase.name === 'awaiting-hello') helloGuard.settle(phase.waiting);
      else if (phase.name === 'connected') phase.room.leave(phase.session);
      phase = { name: 'closing' };
    };
    /** Closes the socket from our side; its close event finds the connection already closing. */
    const closeWith = (code: number, reason: string): void => {
      leave();
      socket.close(code, reason);
    };

    /** Joins the token's room: connected, or closed when the table is gone or full. */
    const attach = (t: TokenRecord): void => {
      const room = tables.room(t.tableId);
      if (!room || !room.canJoin()) return closeWith(CLOSE.tableClosed, room ? 'the table is full' : 'the table no longer exists');
      const session: Session = {
        id: ++sessionSeq,
        viewer: viewerOf(t),
        tokenHash: t.hash,
        held: null,
        // A shared Buffer is framed once and written whole to every session of a viewer (ADR 125).
        sendRaw: framedSender(socket).send,
        // The room closes revoked sessions; the close event then leaves the room.
        close: (code, reason) => socket.close(code, reason),
      };
      phase = { name: 'connected', room, session };
      // After a batch waiting for its sync (ADR 24): a first view never shows a state that is not on disk yet.
      d.queue.whenSettled(() => {
        if (phase.name === 'connected' && phase.session === session) room.join(session);
      });
      logger.info({ tableId: t.tableId, role: t.role, session: session.id }, 'session joined');
    };

    if (preAuth) attach(preAuth);
    else {
      const waiting: Waiting = { address, close: (code, reason) => closeWith(code, reason) };
      const admitted = helloGuard.admit(waiting);
      if (!admitted.ok) {
        socket.close(TRY_AGAIN_LATER, admitted.reason);
        return;
      }
      phase = { name: 'awaiting-hello', waiting };
    }

    socket.on('close', leave);

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
      if (phase.name === 'closing') return;
      if (isBinary) {
        const take = bucket.take(Date.now());
        if (take.verdict === 'close') return closeWith(CLOSE.rateLimited, 'too many messages; slow down and reconnect');
        return take.verdict === 'ok' ? reject(null, { kind: 'INVALID', message: 'send JSON text frames', path: [] }) : undefined;
      }
      // A Buffer is read as it is (Buffer.from would copy it first); fragments are joined, an ArrayBuffer wrapped.
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
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
      const isQuery = raw !== null && typeof raw === 'object' && (raw as { type?: unknown }).type === 'query';
      let queryId: string | null = null;
      if (isQuery && typeof (raw as { queryId?: unknown }).queryId === 'string') {
        const q = (raw as { queryId: string }).queryId;
        queryId = q.length <= LIMITS.commandIdMaxLength ? q : null;
      }
      // Queries spend their own frames (and then the query budget), never the budget commands need (ADR 86).
      const take = (isQuery ? queryBucket : bucket).take(Date.now());
      if (take.verdict === 'close') return closeWith(CLOSE.rateLimited, isQuery ? 'too many queries; slow down and reconnect' : 'too many messages; slow down and reconnect');
      if (take.verdict === 'throttle') {
        const over = isQuery ? `more than ${d.queryRate.refillPerSecond} queries per second; this one was not asked` : `more than ${d.rate.refillPerSecond} messages per second; this one was dropped`;
        return refuse(commandId, queryId, { kind: 'RATE_LIMITED', message: over, retryAfterMs: take.retryAfterMs });
      }
      if (!parsedJson) return reject(null, { kind: 'INVALID', message: 'the message is not JSON', path: [] });
      const deep = tooDeep(raw);
      if (deep !== null) return refuse(commandId, queryId, { kind: 'INVALID', message: `${deep.join('.')} is nested deeper than ${MAX_MESSAGE_DEPTH} levels, the limit for a message`, path: deep });
      const parsed = parseClientMessage(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return refuse(commandId, queryId, { kind: 'INVALID', message: issue?.message ?? 'invalid message', path: (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p))) });
      }
      const msg = parsed.data;
      if (msg.type === 'hello') {
        if (phase.name === 'connected') return reject(null, { kind: 'INVALID', message: 'already authenticated', path: ['type'] });
        if (msg.protocolVersion !== PROTOCOL_VERSION) return closeWith(CLOSE.badProtocolVersion, RELOAD_REASON);
        leave();
        // The token is looked up (and a cold table loaded in slices) before attaching; a socket that closed meanwhile is not attached.
        return void tables.checkToken(address, msg.token).then(
          (checked) => {
            if (!checked.ok) {
              const throttled = checked.retryAfterMs > 0;
              return void socket.close(throttled ? CLOSE.rateLimited : CLOSE.unauthorized, throttled ? `too many unknown tokens from this address; retry in ${checked.retryAfterMs} ms` : 'unknown or revoked token');
            }
            const token = checked.token;
            return tables.load(token.tableId).then(
              () => {
                if (socket.readyState === socket.OPEN) attach(token);
              },
              (e: unknown) => {
                logger.error({ err: e instanceof Error ? e.message : String(e), tableId: token.tableId }, 'loading a table failed');
                socket.close(CLOSE.tableClosed, 'the table could not be loaded');
              },
            );
          },
          (e: unknown) => {
            logger.error({ err: e instanceof Error ? e.message : String(e) }, 'checking a token failed');
            socket.close(CLOSE.tableClosed, 'the server could not check this token; retry shortly');
          },
        );
      }
      if (phase.name !== 'connected') return closeWith(CLOSE.unauthorized, 'send a hello with your token first');
      const { room, session } = phase;
      // Commands and resyncs go through the group-commit queue, in arrival order.
      switch (msg.type) {
        case 'ping': // touches no state: answered at once
          return sendJson(msg.nonce === undefined ? { type: 'pong' } : { type: 'pong', nonce: msg.nonce });
        case 'resync':
          return d.queue.enqueue({ kind: 'other', run: () => room.resync(session, msg.since) });
        case 'command': {
          // A table roll pays its dice's cost first; a refusal never reaches the queue.
          const over = d.queryDesk.chargeCommand(room, session.viewer, msg.command);
          if (over !== null) return reject(msg.commandId, over);
          // Once answered, a roll gets back what it did not use (ADR 33).
          const settled = d.queryDesk.settleCommand(room, session.viewer, msg.command);
          if (d.cluster?.forwards(room)) {
            const asked = { commandId: msg.commandId, expectedVersion: msg.expectedVersion };
            return void d.cluster.forward(room, { viewer: session.viewer, ...asked, command: msg.command }, () => d.queue.submit(room, session.viewer, msg.command, asked)).then((res) => {
              settled?.(res);
              if (!res.ok) return reject(msg.commandId, res.error);
              sendJson({ type: 'ack', commandId: msg.commandId, version: res.version, duplicate: res.duplicate });
            });
          }
          // Two literals, not a spread of `{}`: one item per command.
          return d.queue.enqueue(
            settled === null
              ? { kind: 'command', room, session, commandId: msg.commandId, expectedVersion: msg.expectedVersion, command: msg.command, sendJson, reject }
              : { kind: 'command', room, session, commandId: msg.commandId, expectedVersion: msg.expectedVersion, command: msg.command, sendJson, reject, settled },
          );
        }
        case 'query': // after the commands before it, so the answer matches the view the client will hold
          return d.queue.enqueue({ kind: 'other', run: () => d.queryDesk.ask(room, session.viewer, msg.queryId, msg.name, msg.args, sendJson) });
      }
    };
  }
}
