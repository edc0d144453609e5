// Test plumbing: a real server on an ephemeral port with a real SQLite file in
// a temp dir, and WebSocket clients that keep every byte they received.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import WebSocket from 'ws';
import { afterEach } from 'vitest';
import { coreModule, type Module } from '@tablekeeper/engine';
import { applyDelta, unfoldAcks, wsProtocols, WS_PATH, type ServerMessage, type TableView } from '@tablekeeper/protocol';
import { moduleCatalog, startServer, REDACT_PATHS, type RunningServer, type StartOptions } from '../src/index.js';

export const silent = () => pino({ level: 'silent', redact: { paths: REDACT_PATHS, censor: '[redacted]' } });

export const TEST_RULESET = 'core-only';
export function testCatalog(modules: readonly Module[] = [coreModule]) {
  return moduleCatalog([{ id: TEST_RULESET, name: 'Core only (tests)', modules }]);
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tk-server-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Property tests create tables by the hundred; the HTTP rate limit has its own test. */
export const UNLIMITED_HTTP = { capacity: 1e6, refillPerSecond: 1e6 };

export async function testServer(options: Partial<StartOptions> = {}): Promise<RunningServer & { dir: string; cleanup: () => Promise<void> }> {
  const t = tempDir();
  const s = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(t.dir, 'db.sqlite'), logger: silent(), catalog: testCatalog(), webDist: null, httpRateLimit: UNLIMITED_HTTP, createAllowance: UNLIMITED_HTTP, ...options });
  return Object.assign(s, {
    dir: t.dir,
    cleanup: async () => {
      await s.close();
      t.cleanup();
    },
  });
}

/** For a test file: a function that starts a test server and closes it after the test that started it. */
export function serversClosedAfterEach(): (options?: Partial<StartOptions>) => ReturnType<typeof testServer> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  return async (options = {}) => {
    const s = await testServer(options);
    cleanups.push(s.cleanup);
    return s;
  };
}

export async function http<T = unknown>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T; text: string }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = typeof body === 'string' ? 'application/x-ndjson' : 'application/json';
  if (token) headers['authorization'] = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* JSON Lines or empty */
  }
  return { status: res.status, body: parsed as T, text };
}

/** A table with a GM token, `seats` player seats and a spectator link. */
export async function setupTable(base: string, seats = 1): Promise<{ tableId: string; gm: string; seats: { seatId: string; token: string }[]; spectator: string }> {
  const t = await http<{ tableId: string; gmToken: string }>(base, 'POST', '/api/tables', { name: 'Test table', rulesetId: TEST_RULESET });
  if (t.status !== 201) throw new Error(`create table: ${t.status} ${t.text}`);
  const out = [];
  for (let i = 0; i < seats; i++) {
    const s = await http<{ seatId: string; token: string }>(base, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: `Seat ${i + 1}` }, t.body.gmToken);
    if (s.status !== 201) throw new Error(`create seat: ${s.status} ${s.text}`);
    out.push(s.body);
  }
  const sp = await http<{ token: string }>(base, 'POST', `/api/tables/${t.body.tableId}/spectators`, undefined, t.body.gmToken);
  return { tableId: t.body.tableId, gm: t.body.gmToken, seats: out, spectator: sp.body.token };
}

/** POST /api/join from a given local address (the server throttles per address). */
export function joinFrom(base: string, localAddress: string, code: string): Promise<{ status: number; body: unknown; retryAfter: string | undefined }> {
  const u = new URL(base + '/api/join');
  const data = JSON.stringify({ code });
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** A protocol client that records every frame and folds snapshots and deltas into `view`. */
/** How long a test waits for a message or a close: generous, since a loaded 2-core CI machine can stall a round trip for seconds; a passing test never waits it out. */
const WAIT_MS = 15_000;

export class Client {
  readonly ws: WebSocket;
  readonly frames: string[] = [];
  readonly messages: ServerMessage[] = [];
  view: TableView | null = null;
  version = -1;
  closed: { code: number; reason: string } | null = null;
  private waiters: { pred: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void; reject: (e: Error) => void }[] = [];
  private closeWaiters: ((c: { code: number; reason: string }) => void)[] = [];
  private seq = 0;

  constructor(url: string, token: string | null, opts: { origin?: string; protocols?: string[] } = {}) {
    const wsUrl = url.replace(/^http/, 'ws') + WS_PATH;
    this.ws = new WebSocket(wsUrl, opts.protocols ?? (token ? wsProtocols(token) : []), opts.origin ? { origin: opts.origin } : {});
    this.ws.on('message', (data) => {
      const text = (data as Buffer).toString('utf8');
      this.frames.push(text);
      const m = JSON.parse(text) as ServerMessage;
      this.messages.push(m);
      if (m.type === 'snapshot') {
        this.view = m.view;
        this.version = m.version;
      } else if (m.type === 'delta' && this.view) {
        if (m.from === this.version) {
          this.view = applyDelta(this.view, m);
          this.version = m.version;
        }
      }
      // A delta carries the acks of this client's own commands: waiters see them as acks.
      for (const msg of [m, ...unfoldAcks(m)]) {
        for (const w of [...this.waiters]) {
          if (w.pred(msg)) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve(msg);
          }
        }
      }
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.waiters.splice(0)) w.reject(new Error(`socket closed (${code})`));
      for (const w of this.closeWaiters) w(this.closed);
    });
    this.ws.on('error', () => {});
  }

  static async open(url: string, token: string | null, opts: { origin?: string; protocols?: string[] } = {}): Promise<Client> {
    const c = new Client(url, token, opts);
    await c.next((m) => m.type === 'snapshot');
    return c;
  }

  next<T extends ServerMessage['type']>(pred: T | ((m: ServerMessage) => boolean), timeoutMs = WAIT_MS): Promise<Extract<ServerMessage, { type: T }>> {
    const p = typeof pred === 'string' ? (m: ServerMessage) => m.type === pred : pred;
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`socket closed (${this.closed.code})`));
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a message (${String(pred)})`)), timeoutMs);
      this.waiters.push({
        pred: p,
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as Extract<ServerMessage, { type: T }>);
        },
      });
    });
  }

  waitClose(timeoutMs = WAIT_MS): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for close')), timeoutMs);
      this.closeWaiters.push((c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  /** Resolves once this client's view reached `version`. */
  async reach(version: number, timeoutMs = WAIT_MS): Promise<void> {
    if (this.version >= version) return;
    await this.next((m) => (m.type === 'delta' || m.type === 'snapshot') && m.version >= version, timeoutMs);
  }

  sendRaw(text: string | Buffer): void {
    this.ws.send(text);
  }

  /** Sends a command and resolves with its ack or rejection. */
  async command(command: { type: string; [k: string]: unknown }, opts: { commandId?: string; expectedVersion?: number } = {}) {
    const commandId = opts.commandId ?? `c${++this.seq}-${Math.floor(performance.now() * 1000)}`;
    const answer = this.next((m) => (m.type === 'ack' || m.type === 'rejection') && m.commandId === commandId);
    this.ws.send(JSON.stringify({ type: 'command', commandId, expectedVersion: opts.expectedVersion ?? this.version, command }));
    return (await answer) as Extract<ServerMessage, { type: 'ack' | 'rejection' }>;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = this.waitClose();
    this.ws.close(1000);
    return done.then(() => undefined);
  }
}
