// One visitor cannot stall or lock out everyone else, over real WebSockets
// and HTTP against a real SQLite file: sockets waiting for their hello are
// capped per address and the longest-waiting one makes room for a prompt
// client; unknown tokens slow down per address; messages nested too deeply
// get a typed rejection naming the path and the limit.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE, PROTOCOL_VERSION, WS_PATH, WS_SUBPROTOCOL, wsProtocols } from '@tablekeeper/protocol';
import { statusFor } from '../src/health.js';
import { tooDeep } from '../src/shape-guard.js';
import { Client, http, setupTable, serversClosedAfterEach } from './helpers.js';

const server = serversClosedAfterEach();

/** A raw socket from a chosen loopback address (127.0.0.x), recording its close and its messages. */
function socketFrom(url: string, localAddress: string, protocols: string[] = [WS_SUBPROTOCOL]) {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + WS_PATH, protocols, { localAddress });
  const messages: { type: string }[] = [];
  const opened = new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('unexpected-response', (_req, res) => {
      status = res.statusCode ?? 0;
      resolve(false);
    });
    ws.once('error', () => resolve(false));
  });
  let status = 0;
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as { type: string }));
  ws.on('error', () => {});
  return { ws, opened, closed, messages, status: () => status };
}

describe('sockets waiting for their hello', () => {
  it('one address holds at most its share, and a prompt client still gets in when the room is full (the longest waiting makes way)', async () => {
    // Nine sockets open before the prompt one says hello; the timeout leaves room for a loaded machine.
    const s = await server({ limits: { maxPendingAuth: 6, maxPendingAuthPerAddress: 3, authTimeoutMs: 8000 } });
    const t = await setupTable(s.url, 0);
    // The visitor at 127.0.0.1 opens five idle sockets: three may wait, two are closed at once (1013).
    const idle = [];
    for (let i = 0; i < 5; i++) {
      const c = socketFrom(s.url, '127.0.0.1');
      expect(await c.opened).toBe(true);
      idle.push(c);
    }
    expect(await idle[3]!.closed).toBe(1013);
    expect(await idle[4]!.closed).toBe(1013);
    // A second idle address fills the server-wide room.
    const more = [];
    for (let i = 0; i < 3; i++) {
      const c = socketFrom(s.url, '127.0.0.3');
      expect(await c.opened).toBe(true);
      more.push(c);
    }
    // A prompt client from a third address: admitted (the oldest idle socket is closed), and its hello works.
    const prompt = socketFrom(s.url, '127.0.0.2');
    expect(await prompt.opened).toBe(true);
    expect(await idle[0]!.closed).toBe(1013);
    prompt.ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: t.gm }));
    await expect.poll(() => prompt.messages.some((m) => m.type === 'snapshot'), { timeout: 15_000 }).toBe(true);
    // The rest never said hello: each is closed by the hello timeout.
    for (const c of [idle[1]!, idle[2]!, ...more]) expect(await c.closed).toBe(CLOSE.authTimeout);
    prompt.ws.close();
  });

  it('a token in the subprotocol skips the waiting room, so a full room never refuses a client that authenticates at once', async () => {
    const s = await server({ limits: { maxPendingAuth: 2, maxPendingAuthPerAddress: 2, authTimeoutMs: 3000 } });
    const t = await setupTable(s.url, 0);
    const idle = [socketFrom(s.url, '127.0.0.1'), socketFrom(s.url, '127.0.0.1')];
    for (const c of idle) expect(await c.opened).toBe(true);
    const gm = await Client.open(s.url, t.gm);
    expect(gm.view).not.toBeNull();
    await gm.close();
    for (const c of idle) c.ws.close();
  });
});

describe('unknown tokens', () => {
  it('slow down per address: after the burst the address gets RATE_LIMITED with a wait, even for a good token, while another address is unaffected', async () => {
    const s = await server({ limits: { tokenFailureBurst: 3, tokenFailuresPerSecond: 0.2 } });
    const t = await setupTable(s.url, 0);
    const wrong = 'A'.repeat(43);
    // HTTP (GM routes) from 127.0.0.1
    for (let i = 0; i < 3; i++) expect((await http(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, wrong)).status).toBe(401);
    const slowed = await http<{ error: { kind: string; retryAfterMs: number } }>(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, wrong);
    expect(slowed.status).toBe(429);
    expect(slowed.body.error.kind).toBe('RATE_LIMITED');
    expect(slowed.body.error.retryAfterMs).toBeGreaterThan(0);
    expect((await http(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, t.gm)).status).toBe(429);
    // WebSocket upgrades with a token in the subprotocol, from 127.0.0.4
    for (let i = 0; i < 3; i++) {
      const c = socketFrom(s.url, '127.0.0.4', wsProtocols(wrong));
      expect(await c.opened).toBe(false);
      expect(c.status()).toBe(401);
    }
    const up = socketFrom(s.url, '127.0.0.4', wsProtocols(t.gm));
    expect(await up.opened).toBe(false);
    expect(up.status()).toBe(429);
    // Hellos from 127.0.0.5: closed as unauthorized, then as rate limited.
    const hello = async (token: string) => {
      const c = socketFrom(s.url, '127.0.0.5');
      expect(await c.opened).toBe(true);
      c.ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token }));
      return c.closed;
    };
    for (let i = 0; i < 3; i++) expect(await hello(wrong)).toBe(CLOSE.unauthorized);
    expect(await hello(wrong)).toBe(CLOSE.rateLimited);
    // An address that made no mistakes connects as usual.
    const fine = socketFrom(s.url, '127.0.0.6', wsProtocols(t.gm));
    expect(await fine.opened).toBe(true);
    fine.ws.close();
  });
});

describe('malformed and deep arguments', () => {
  it('a query nested past the limit is answered with INVALID naming the path and the limit', async () => {
    const s = await server();
    const t = await setupTable(s.url, 0);
    const gm = await Client.open(s.url, t.gm);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { a: deep };
    gm.sendRaw(JSON.stringify({ type: 'query', queryId: 'q1', name: 'anything', args: { x: deep } }));
    const answer = (await gm.next('queryResult')) as { ok: boolean; error?: { code: string; message: string; path?: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error?.code).toBe('INVALID');
    expect(answer.error?.message).toMatch(/^args\.x\.a\.a(\.a)+ is nested deeper than 18 levels, the limit for a message$/);
    expect(answer.error?.path).toMatch(/^args\.x\.a/);
    // a command nested too deeply is rejected the same way, with its commandId echoed
    gm.sendRaw(JSON.stringify({ type: 'command', commandId: 'deep-1', expectedVersion: gm.version, command: { type: 'log.note', text: 'x', extra: deep } }));
    const rej = (await gm.next((m) => m.type === 'rejection')) as { commandId: string; error: { kind: string; path: unknown[] } };
    expect(rej.commandId).toBe('deep-1');
    expect(rej.error.kind).toBe('INVALID');
    expect(rej.error.path.slice(0, 3)).toEqual(['command', 'extra', 'a']);
    await gm.close();
  });

  it('tooDeep walks without recursion: a 100,000-deep value gives the path at the limit', () => {
    let v: unknown = [];
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(tooDeep(v, 18)).toEqual(new Array(18).fill(0));
    expect(tooDeep({ a: [1, { b: 2 }] }, 18)).toBeNull();
  });

  it('a store failure maps to 503, never to a client error', () => {
    expect(statusFor({ kind: 'UNAVAILABLE', message: 'x' })).toBe(503);
    expect(statusFor({ kind: 'INVALID', message: 'x', path: [] })).toBe(400);
    expect(statusFor({ kind: 'RATE_LIMITED', message: 'x', retryAfterMs: 1 })).toBe(429);
    expect(statusFor({ kind: 'LIMIT_REACHED', message: 'x', limit: 'maxTables', max: 1 })).toBe(403);
  });
});
