// Limits: frames over 64 KiB close with 1009; floods are throttled, then
// closed; bad JSON, unknown types and schema violations get typed rejections
// and the room keeps working; the log-size cap is a named rejection.
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE, LIMITS } from '@tablekeeper/protocol';
import { TokenBucket } from '../src/index.js';
import { Client, http, setupTable, testServer } from './helpers.js';

const done: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (done.length) await done.pop()!();
});
async function server(opts = {}) {
  const s = await testServer(opts);
  done.push(s.cleanup);
  return s;
}

describe('frame size', () => {
  it('accepts exactly 64 KiB and closes 64 KiB + 1 with 1009', async () => {
    const s = await server();
    const t = await setupTable(s.url, 0);
    const c = await Client.open(s.url, t.gm);
    c.sendRaw('x'.repeat(LIMITS.maxPayloadBytes)); // at the limit: just not JSON
    expect(await c.next('rejection')).toMatchObject({ error: { kind: 'INVALID' } });
    c.sendRaw('x'.repeat(LIMITS.maxPayloadBytes + 1));
    expect((await c.waitClose()).code).toBe(CLOSE.tooLarge);
    // the room is fine
    const d = await Client.open(s.url, t.gm);
    expect((await d.command({ type: 'clock.advance', unit: 'round' })).type).toBe('ack');
    await d.close();
  });
});

describe('HTTP rate limit', () => {
  it('refuses an address over its budget with 429 RATE_LIMITED and Retry-After; the app itself is not limited', async () => {
    const s = await server({ httpRateLimit: { capacity: 5, refillPerSecond: 0.5 } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await http(s.url, 'GET', '/api/rulesets')).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    const res = await fetch(s.url + '/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ error: { kind: 'RATE_LIMITED', retryAfterMs: expect.any(Number) } });
    // Outside /api/: health checks still answer.
    expect((await http(s.url, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('throttles a flood with RATE_LIMITED, then closes it with 4429', async () => {
    const s = await server({ rateLimit: { capacity: 10, refillPerSecond: 5, closeAfter: 20 } });
    const t = await setupTable(s.url, 0);
    const c = await Client.open(s.url, t.gm);
    for (let i = 0; i < 200; i++) c.sendRaw(JSON.stringify({ type: 'ping', nonce: String(i) }));
    const closed = await c.waitClose();
    expect(closed.code).toBe(CLOSE.rateLimited);
    const pongs = c.messages.filter((m) => m.type === 'pong').length;
    const limited = c.messages.filter((m) => m.type === 'rejection' && m.error.kind === 'RATE_LIMITED');
    expect(pongs).toBeGreaterThanOrEqual(10);
    expect(pongs).toBeLessThan(20);
    expect(limited.length).toBeGreaterThanOrEqual(15);
    expect(limited[0]).toMatchObject({ error: { retryAfterMs: expect.any(Number) } });
  });

  it('refills with time (token bucket, injected clock)', () => {
    const b = new TokenBucket({ capacity: 2, refillPerSecond: 1, closeAfter: 1 }, 0);
    expect(b.take(0).verdict).toBe('ok');
    expect(b.take(0).verdict).toBe('ok');
    expect(b.take(0)).toEqual({ verdict: 'throttle', retryAfterMs: 1000 });
    expect(b.take(0).verdict).toBe('close');
    expect(b.take(5000).verdict).toBe('ok'); // a patient client recovers (the server has closed it by then anyway)
  });
});

describe('malformed messages', () => {
  it('answers each with a typed rejection and keeps the room working', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    const c = await Client.open(s.url, t.gm);
    const p = await Client.open(s.url, t.seats[0]!.token);
    const reject = async (frame: string | Buffer) => {
      const r = c.next('rejection');
      c.sendRaw(frame);
      return (await r).error;
    };
    expect(await reject('{not json')).toEqual({ kind: 'INVALID', message: 'the message is not JSON', path: [] });
    expect(await reject(JSON.stringify({ type: 'explode' }))).toMatchObject({ kind: 'INVALID', path: ['type'] });
    expect(await reject(JSON.stringify([1, 2]))).toMatchObject({ kind: 'INVALID' });
    expect(await reject(JSON.stringify({ type: 'command', commandId: 'a', command: { type: 'log.note' } }))).toMatchObject({ kind: 'INVALID', path: ['expectedVersion'] });
    expect(await reject(JSON.stringify({ type: 'command', commandId: 'a', expectedVersion: -1, command: { type: 'log.note' } }))).toMatchObject({ kind: 'INVALID', path: ['expectedVersion'] });
    expect(await reject(JSON.stringify({ type: 'command', commandId: 'has space', expectedVersion: 0, command: { type: 'x' } }))).toMatchObject({ kind: 'INVALID', path: ['commandId'] });
    expect(await reject(JSON.stringify({ type: 'command', commandId: 'b', expectedVersion: 0, command: { type: 'no such thing!' } }))).toMatchObject({ kind: 'INVALID', path: ['command', 'type'] });
    expect(await reject(Buffer.from([1, 2, 3]))).toMatchObject({ kind: 'INVALID', message: 'send JSON text frames' });
    const unknown = await c.command({ type: 'nobody.handles' });
    expect(unknown).toMatchObject({ type: 'rejection', error: { kind: 'RULE_ERROR', code: 'UNKNOWN_COMMAND' } });
    const badPayload = await c.command({ type: 'clock.advance', unit: 'fortnight' });
    expect(badPayload).toMatchObject({ type: 'rejection', error: { kind: 'RULE_ERROR' } });
    const deep = await c.command({ type: 'log.note', text: JSON.parse('['.repeat(200) + ']'.repeat(200)) });
    expect(deep.type).toBe('rejection');
    const stale = await c.command({ type: 'clock.advance', unit: 'round' }, { expectedVersion: 0 });
    expect(stale).toMatchObject({ type: 'rejection', error: { kind: 'VERSION_CONFLICT', current: c.version } });
    // after all that, both sockets are open and the room works
    expect((await c.command({ type: 'clock.advance', unit: 'round' })).type).toBe('ack');
    await p.reach(c.version);
    expect(p.closed).toBeNull();
    await Promise.all([c.close(), p.close()]);
  });

  it('refuses commands past the log-size cap with a named limit', async () => {
    const s = await server({ limits: { maxTransactions: 3 } });
    const t = await setupTable(s.url, 1); // version 1 (the seat)
    const c = await Client.open(s.url, t.gm);
    await c.command({ type: 'clock.advance', unit: 'round' });
    await c.command({ type: 'clock.advance', unit: 'round' });
    await c.reach(3);
    expect(await c.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'rejection', error: { kind: 'LIMIT_REACHED', limit: 'maxTransactions', max: 3 } });
    await c.close();
  });

  it('caps connections per table', async () => {
    const s = await server({ limits: { maxSessions: 2 } });
    const t = await setupTable(s.url, 0);
    const a = await Client.open(s.url, t.gm);
    const b = await Client.open(s.url, t.gm);
    const c = new Client(s.url, t.gm);
    expect((await c.waitClose()).code).not.toBe(1000);
    expect(c.frames).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('unauthenticated sockets', () => {
  it('caps sockets waiting for their hello (the longest waiting makes room) and times them out', async () => {
    // The timeout must outlast opening three sockets on a loaded machine, or the first is timed out before it is made room for.
    const s = await server({ limits: { maxPendingAuth: 2, authTimeoutMs: 2000 } });
    const open = async () => {
      const c = new Client(s.url, null);
      await new Promise((r) => {
        c.ws.once('open', r);
        c.ws.once('close', r);
      });
      return c;
    };
    const a = await open();
    const b = await open();
    const c = await open();
    expect((await a.waitClose()).code).toBe(1013);
    expect((await b.waitClose()).code).toBe(CLOSE.authTimeout);
    expect((await c.waitClose()).code).toBe(CLOSE.authTimeout);
    // once they are gone, a new one may wait again
    const d = await open();
    expect((await d.waitClose()).code).toBe(CLOSE.authTimeout);
  });
});

describe('HTTP errors', () => {
  it('answers oversize and unparsable bodies in the protocol error shape', async () => {
    const s = await server();
    const big = await fetch(s.url + '/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(300 * 1024), rulesetId: 'core-only' }) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { kind: 'TOO_LARGE', limit: 256 * 1024 } });
    const bad = await fetch(s.url + '/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { kind: 'INVALID' } });
  });
});
