// HTTP and WebSocket basics against a real server and SQLite file: create a
// table, seats and links, sync, commands, resync, revocation, export/import,
// restart durability, health and Origin checks.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE, PROTOCOL_VERSION, RELOAD_REASON, WS_PATH, WS_SUBPROTOCOL, wsProtocols } from '@tablekeeper/protocol';
import { coreModule, countdownsModule } from '@tablekeeper/engine';
import { startServer } from '../src/index.js';
import { Client, http, setupTable, silent, testCatalog, testServer, TEST_RULESET } from './helpers.js';

const done: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (done.length) await done.pop()!();
});
async function server(opts = {}) {
  const s = await testServer(opts);
  done.push(s.cleanup);
  return s;
}

describe('HTTP', () => {
  it('creates a table with a GM link carrying the token in the fragment, and lists rulesets', async () => {
    const s = await server();
    const r = await http<{ tableId: string; gmToken: string; links: { gm: string } }>(s.url, 'POST', '/api/tables', { name: 'Friday', rulesetId: TEST_RULESET });
    expect(r.status).toBe(201);
    expect(r.body.gmToken).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 bits, base64url
    expect(r.body.links.gm).toBe(`${s.url}/#gm=${r.body.gmToken}`);
    expect((await http(s.url, 'GET', '/api/rulesets')).body).toEqual({ rulesets: [{ id: TEST_RULESET, name: 'Core only (tests)' }] });
    const bad = await http<{ error: { kind: string; path: unknown[] } }>(s.url, 'POST', '/api/tables', { name: 'x', rulesetId: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ kind: 'INVALID', path: ['rulesetId'] });
    const schema = await http<{ error: { kind: string; path: unknown[] } }>(s.url, 'POST', '/api/tables', { name: '', rulesetId: TEST_RULESET });
    expect(schema.body.error).toMatchObject({ kind: 'INVALID', path: ['name'] });
  });

  it('stores only token hashes', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    const dump = JSON.stringify(s.store.sync!.listTokens(t.tableId));
    for (const token of [t.gm, t.seats[0]!.token, t.spectator]) expect(dump).not.toContain(token);
    expect(s.store.sync!.listTokens(t.tableId)).toHaveLength(3);
  });

  it('needs the GM token for seats, spectator links and export', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    expect((await http(s.url, 'POST', `/api/tables/${t.tableId}/seats`, { name: 'x' })).status).toBe(401);
    expect((await http(s.url, 'POST', `/api/tables/${t.tableId}/seats`, { name: 'x' }, t.seats[0]!.token)).status).toBe(403);
    expect((await http(s.url, 'POST', `/api/tables/${t.tableId}/spectators`, undefined, t.spectator)).status).toBe(403);
    expect((await http(s.url, 'GET', `/api/tables/${t.tableId}/export`, undefined, t.seats[0]!.token)).status).toBe(403);
    const other = await setupTable(s.url, 0);
    expect((await http(s.url, 'GET', `/api/tables/${t.tableId}/export`, undefined, other.gm)).status).toBe(403);
  });

  it('caps tables, seats and spectator links with named limits', async () => {
    const s = await server({ limits: { maxTables: 1, maxSeatsPerTable: 1, maxSpectatorLinks: 1 } });
    const t = await setupTable(s.url, 1);
    const table2 = await http<{ error: { kind: string; limit: string } }>(s.url, 'POST', '/api/tables', { name: 'two', rulesetId: TEST_RULESET });
    expect(table2.status).toBe(403);
    expect(table2.body.error).toMatchObject({ kind: 'LIMIT_REACHED', limit: 'maxTables' });
    const seat2 = await http<{ error: { limit: string } }>(s.url, 'POST', `/api/tables/${t.tableId}/seats`, { name: 'two' }, t.gm);
    expect(seat2.body.error.limit).toBe('maxSeatsPerTable');
    const spec2 = await http<{ error: { limit: string } }>(s.url, 'POST', `/api/tables/${t.tableId}/spectators`, undefined, t.gm);
    expect(spec2.body.error.limit).toBe('maxSpectatorLinks');
  });

  it('reports health 200 while the store is writable, 503 when it is not', async () => {
    const s = await server();
    expect((await http(s.url, 'GET', '/healthz')).status).toBe(200);
    const probe = s.store.sync!.probeWrite;
    (s.store.sync as { probeWrite: () => unknown }).probeWrite = () => Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    const down = await http<{ ok: boolean; error: string }>(s.url, 'GET', '/healthz');
    expect(down.status).toBe(503);
    expect(down.body.error).toBe('the store is not writable: the database is read-only (SQLITE_READONLY)');
    (s.store.sync as { probeWrite: () => unknown }).probeWrite = probe;
  });
});

describe('WebSocket sync', () => {
  it('sends each viewer its own view, then deltas after each command', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const spectator = await Client.open(s.url, t.spectator);
    expect(gm.messages[0]).toMatchObject({ type: 'welcome', viewer: { role: 'gm' }, tableId: t.tableId });
    expect(player.messages[0]).toMatchObject({ type: 'welcome', viewer: { role: 'player', seatId: t.seats[0]!.seatId } });
    const before = player.version;
    const delta = player.next('delta');
    const ack = await gm.command({ type: 'character.add', name: 'Aria', kind: 'pc', seatId: t.seats[0]!.seatId });
    expect(ack).toMatchObject({ type: 'ack', version: before + 1, duplicate: false });
    expect((await delta).from).toBe(before);
    if (ack.type !== 'ack') throw new Error('rejected');
    await Promise.all([gm, player, spectator].map((c) => c.reach(ack.version)));
    // every client's folded view equals a fresh projection for its viewer
    const room = s.room(t.tableId)!;
    expect(gm.view).toEqual(JSON.parse(JSON.stringify(room.view({ role: 'gm' }))));
    expect(player.view).toEqual(JSON.parse(JSON.stringify(room.view({ role: 'player', seatId: t.seats[0]!.seatId }))));
    expect(spectator.view).toEqual(JSON.parse(JSON.stringify(room.view({ role: 'spectator' }))));
    await Promise.all([gm.close(), player.close(), spectator.close()]);
  });

  it('resyncs: an up-to-date client gets an empty delta, a stale one a snapshot', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    gm.sendRaw(JSON.stringify({ type: 'resync', since: gm.version }));
    const empty = await gm.next('delta');
    expect(empty).toEqual({ type: 'delta', from: gm.version, version: gm.version });
    gm.sendRaw(JSON.stringify({ type: 'resync', since: 0 }));
    expect((await gm.next('snapshot')).version).toBe(gm.version);
    await gm.close();
  });

  it('tells an out-of-date client (protocol 1, by subprotocol or by hello) to reload the page', async () => {
    const s = await server();
    const t = await setupTable(s.url, 0);
    const old = new Client(s.url, null, { protocols: ['tablekeeper.v1', `tablekeeper.token.${t.gm}`] });
    expect(await old.waitClose()).toEqual({ code: CLOSE.badProtocolVersion, reason: RELOAD_REASON });
    expect(old.messages).toEqual([]);
    const hello = new Client(s.url, null, { protocols: [WS_SUBPROTOCOL] });
    await new Promise((r) => hello.ws.once('open', r));
    hello.sendRaw(JSON.stringify({ type: 'hello', protocolVersion: 1, token: t.gm }));
    expect(await hello.waitClose()).toEqual({ code: CLOSE.badProtocolVersion, reason: RELOAD_REASON });
    expect(RELOAD_REASON).toMatch(/reload/);
  });

  it('authenticates with a hello as first message when no subprotocol token is given', async () => {
    const s = await server();
    const t = await setupTable(s.url, 0);
    const c = new Client(s.url, null, { protocols: [WS_SUBPROTOCOL] });
    await new Promise((r) => c.ws.once('open', r));
    c.sendRaw(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: t.gm }));
    expect((await c.next('snapshot')).version).toBe(0);
    expect(c.messages[0]).toMatchObject({ type: 'welcome', viewer: { role: 'gm' } });
    await c.close();
    const early = new Client(s.url, null);
    await new Promise((r) => early.ws.once('open', r));
    early.sendRaw(JSON.stringify({ type: 'ping' }));
    expect((await early.waitClose()).code).toBe(CLOSE.unauthorized);
    const wrong = new Client(s.url, null);
    await new Promise((r) => wrong.ws.once('open', r));
    wrong.sendRaw(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: 'A'.repeat(22) }));
    expect((await wrong.waitClose()).code).toBe(CLOSE.unauthorized);
  });

  it('refuses the upgrade for a bad token or a foreign Origin, and never echoes the token', async () => {
    const s = await server({ allowedOrigins: ['https://allowed.example'] });
    const t = await setupTable(s.url, 0);
    const status = (token: string, origin?: string) =>
      new Promise<number | string>((resolve) => {
        const ws = new WebSocket(s.url.replace('http', 'ws') + WS_PATH, wsProtocols(token), origin ? { origin } : {});
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          resolve(`open:${ws.protocol}`);
          ws.close();
        });
        ws.on('error', () => {});
      });
    expect(await status('B'.repeat(22))).toBe(401);
    expect(await status(t.gm, 'https://evil.example')).toBe(403);
    expect(await status(t.gm, 'https://allowed.example')).toBe(`open:${WS_SUBPROTOCOL}`);
    expect(await status(t.gm, s.url)).toBe(`open:${WS_SUBPROTOCOL}`);
  });

  it('closes a revoked seat with a clear message, and its token stops working', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const r = await http<{ revoked: number }>(s.url, 'DELETE', `/api/tables/${t.tableId}/seats/${t.seats[0]!.seatId}`, undefined, t.gm);
    expect(r.body.revoked).toBe(1);
    const closed = await player.waitClose();
    expect(closed.code).toBe(CLOSE.revoked);
    expect(player.messages.some((m) => m.type === 'seatRevoked')).toBe(true);
    const again = new Client(s.url, t.seats[0]!.token);
    expect((await again.waitClose()).code).not.toBe(1000);
    // a new link for the same seat works
    const fresh = await http<{ token: string; link: string }>(s.url, 'POST', `/api/tables/${t.tableId}/seats/${t.seats[0]!.seatId}/token`, undefined, t.gm);
    expect(fresh.body.link).toContain('#seat=');
    const back = await Client.open(s.url, fresh.body.token);
    await back.close();
  });
});

describe('rule errors', () => {
  it('carry the column of a bad dice notation as a field, not only in the message', async () => {
    const s = await server();
    const t = await setupTable(s.url, 0);
    const gm = await Client.open(s.url, t.gm);
    const r = await gm.command({ type: 'dice.roll', notation: '2d6 +* 3' });
    expect(r).toMatchObject({ type: 'rejection', error: { kind: 'RULE_ERROR', code: 'BAD_NOTATION', path: 'notation', column: 5 } });
    await gm.close();
  });
});

describe('queries', () => {
  it('answers a module query on the asker\'s own view: exact chase odds for all, nothing from a secret countdown', async () => {
    const s = await server({ catalog: testCatalog([coreModule, countdownsModule]) });
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    expect((await gm.command({ type: 'chase.create', name: 'Market', die: 6, lead: 4 })).type).toBe('ack');
    expect((await gm.command({ type: 'countdown.create', name: 'CANARY-plot', kind: 'consequence', start: 3, visibility: 'existence' })).type).toBe('ack');
    const world = s.room(t.tableId)!.table.world.ext['countdowns'] as { chases: { [k: string]: { progressId: string } }; countdowns: { [k: string]: { id: string; name: string } } };
    const progressId = Object.values(world.chases)[0]!.progressId;
    const secretId = Object.values(world.countdowns).find((c) => c.name === 'CANARY-plot')!.id;
    const player = await Client.open(s.url, t.seats[0]!.token);
    const ask = (c: Client, queryId: string, args: object) => {
      const answer = c.next((m) => m.type === 'queryResult' && m.queryId === queryId);
      c.sendRaw(JSON.stringify({ type: 'query', queryId, name: 'countdown.odds', args }));
      return answer;
    };
    const odds = await ask(player, 'q1', { countdownId: progressId, modifier: 2, difficulty: 15 });
    expect(odds).toMatchObject({ type: 'queryResult', queryId: 'q1', ok: true, result: { kind: 'chase', progress: 6, consequence: 4 } });
    expect((odds as unknown as { result: { progressFirst: number } }).result.progressFirst).toBeCloseTo(0.3298, 4);
    expect(await ask(player, 'q2', { id: secretId })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
    expect(await ask(gm, 'q3', { id: secretId })).toMatchObject({ ok: true, result: { kind: 'countdown', value: 3 } });
    // q2 and q3 use the field's old name (`id`), which the catalogue still upcasts; a missing one is named by its new name.
    const unknown = await ask(player, 'q4', {});
    expect(unknown).toMatchObject({ ok: false, error: { path: 'countdownId' } });
    // A malformed query is still answered under its queryId, so the asker is not left waiting.
    const bad = player.next((m) => m.type === 'queryResult' && m.queryId === 'q5');
    player.sendRaw(JSON.stringify({ type: 'query', queryId: 'q5', name: 'no such thing!' }));
    expect(await bad).toMatchObject({ ok: false, error: { code: 'INVALID', path: 'name' } });
    await player.close();
    await gm.close();
  });
});

describe('queries over the rate limit', () => {
  it("answers a query dropped by the connection's query frame limit with a RATE_LIMITED queryResult under its queryId", async () => {
    const s = await server({ catalog: testCatalog([coreModule, countdownsModule]), queryRate: { capacity: 2, refillPerSecond: 0.001, closeAfter: 100 } });
    const t = await setupTable(s.url, 0);
    const gm = await Client.open(s.url, t.gm);
    const answers = ['a1', 'a2', 'a3'].map((queryId) => gm.next((m) => m.type === 'queryResult' && m.queryId === queryId));
    for (const queryId of ['a1', 'a2', 'a3']) gm.sendRaw(JSON.stringify({ type: 'query', queryId, name: 'countdown.odds', args: { id: 'none' } }));
    const got = await Promise.all(answers);
    expect(got.filter((m) => (m as { error?: { code: string } }).error?.code === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(1);
    expect(got.every((m) => (m as { ok: boolean }).ok === false)).toBe(true);
    await gm.close();
  });
});

describe('seat removal', () => {
  it('revokes the links of a seat the GM removes with seat.remove, and closes its socket', async () => {
    const s = await server();
    const t = await setupTable(s.url, 2);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const other = await Client.open(s.url, t.seats[1]!.token);
    const gm = await Client.open(s.url, t.gm);
    expect((await gm.command({ type: 'seat.remove', id: t.seats[0]!.seatId })).type).toBe('ack');
    expect((await player.waitClose()).code).toBe(CLOSE.revoked);
    expect(player.messages.some((m) => m.type === 'seatRevoked')).toBe(true);
    const again = new Client(s.url, t.seats[0]!.token);
    expect((await again.waitClose()).code).not.toBe(1000);
    // the other seat keeps playing
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    const seats = await http<{ seats: { seatId: string }[] }>(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, t.gm);
    expect(seats.body.seats.map((x) => x.seatId)).toEqual([t.seats[1]!.seatId]);
    await other.close();
    await gm.close();
  });

  it('a revocation that cannot be written after the commit costs no ack and keeps the server up; the seat\'s socket still closes', async () => {
    const s = await server({ logger: silent() });
    const t = await setupTable(s.url, 1);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const gm = await Client.open(s.url, t.gm);
    const store = s.store.sync as unknown as { revokeTokens: () => never };
    store.revokeTokens = () => {
      throw new Error('disk I/O error');
    };
    expect((await gm.command({ type: 'seat.remove', id: t.seats[0]!.seatId })).type).toBe('ack');
    expect((await player.waitClose()).code).toBe(CLOSE.revoked);
    expect((await http(s.url, 'GET', '/healthz')).status).toBe(200);
    expect((await gm.command({ type: 'log.note', text: 'still here' })).type).toBe('ack');
    await gm.close();
  });
});

describe('durability and portability', () => {
  it('restarts on the same file with the same state', async () => {
    const s = await testServer();
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    for (let i = 0; i < 5; i++) await gm.command({ type: 'clock.advance', unit: 'round' });
    await gm.close();
    const before = JSON.stringify(s.room(t.tableId)!.view({ role: 'gm' }));
    const path = s.dbPath!;
    await s.close();
    const s2 = await startServer({ port: 0, host: '127.0.0.1', dbPath: path, logger: silent(), catalog: testCatalog(), webDist: null });
    try {
      expect(JSON.stringify(s2.room(t.tableId)!.view({ role: 'gm' }))).toBe(before);
      const again = await Client.open(s2.url, t.gm);
      expect(again.view?.version).toBe(JSON.parse(before).version);
      await again.close();
    } finally {
      await s2.close();
      s.cleanup().catch(() => {});
    }
  });

  it('rebuilds from a snapshot (a cache) to the same table as a full replay', async () => {
    const s = await server({ limits: { snapshotEvery: 3 } });
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    for (let i = 0; i < 7; i++) await gm.command({ type: 'clock.advance', unit: 'turn' });
    await gm.close();
    expect(s.store.sync!.latestSnapshot(t.tableId)?.version).toBe(6); // 1 seat + 7 turns, every 3rd saved
    const { Room } = await import('../src/room.js');
    const engine = s.catalog.engineFor(TEST_RULESET)!;
    const fromSnap = Room.load(s.store.sync!, engine, s.store.sync!.getTable(t.tableId)!);
    const full = engine.replay(s.store.sync!.getTable(t.tableId)!.genesis, s.store.sync!.readLog(t.tableId).map((r) => r.transaction));
    expect(JSON.stringify(fromSnap.table)).toBe(JSON.stringify(full));
  });

  it('exports JSON Lines and imports them as a new table that replays to the same world', async () => {
    const s = await server();
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    await gm.command({ type: 'character.add', name: 'Brom', kind: 'npc', visibility: 'hidden' });
    await gm.command({ type: 'clock.advance', unit: 'round' });
    await gm.close();
    const ex = await http(s.url, 'GET', `/api/tables/${t.tableId}/export`, undefined, t.gm);
    expect(ex.status).toBe(200);
    const lines = ex.text.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: 'table', rulesetId: TEST_RULESET });
    expect(lines).toHaveLength(1 + s.store.sync!.head(t.tableId));
    const im = await http<{ tableId: string; gmToken: string }>(s.url, 'POST', '/api/tables/import', ex.text);
    expect(im.status).toBe(201);
    expect(im.body.tableId).not.toBe(t.tableId);
    const a = s.room(t.tableId)!.table.world;
    const b = s.room(im.body.tableId)!.table.world;
    expect({ ...b, tableId: a.tableId }).toEqual(a);
    // a broken log is refused with the line that failed
    const broken = lines.slice();
    broken.splice(2, 1);
    const bad = await http<{ error: { kind: string; message: string } }>(s.url, 'POST', '/api/tables/import', broken.join('\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.kind).toBe('INVALID');
    const tampered = lines.slice();
    const tx = JSON.parse(tampered[3]!);
    tx.transaction.target = 99;
    tx.transaction.kind = 'undo';
    tampered[3] = JSON.stringify(tx);
    expect((await http(s.url, 'POST', '/api/tables/import', tampered.join('\n'))).status).toBe(400);
    expect((await http(s.url, 'POST', '/api/tables/import', 'not json')).status).toBe(400);
  });
});

describe('logging', () => {
  it('never writes a token to the log, whichever way it travelled', async () => {
    const { pino } = await import('pino');
    const { Writable } = await import('node:stream');
    const { REDACT_PATHS } = await import('../src/index.js');
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const s = await server({ logger: pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink) });
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    await gm.command({ type: 'log.note', text: 'secret plan', audience: { kind: 'gm' } });
    const hello = new Client(s.url, null);
    await new Promise((r) => hello.ws.once('open', r));
    hello.sendRaw(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: t.seats[0]!.token }));
    await hello.next('snapshot');
    await http(s.url, 'GET', `/api/tables/${t.tableId}/export`, undefined, t.gm);
    await http(s.url, 'POST', `/api/tables/${t.tableId}/seats`, { name: 'Late' }, t.gm);
    await Promise.all([gm.close(), hello.close()]);
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('/api/tables');
    for (const token of [t.gm, t.seats[0]!.token, t.spectator]) expect(log).not.toContain(token);
    expect(log).not.toContain('secret plan');
  });
});

describe('database backup', () => {
  it('serves a consistent copy of the whole database to the admin token only', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { default: Database } = await import('better-sqlite3');
    const admin = 'admin-' + 'x'.repeat(30);
    const s = await server({ adminToken: admin });
    const t = await setupTable(s.url, 1);
    expect((await http(s.url, 'GET', '/api/backup', undefined, t.gm)).status).toBe(403);
    expect((await http(s.url, 'GET', '/api/backup')).status).toBe(403);
    const res = await fetch(s.url + '/api/backup', { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    const file = join(s.dir, 'copy.sqlite');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('SELECT count(*) FROM transactions JOIN tables USING (table_no) WHERE table_id = ?').pluck().get(t.tableId)).toBe(s.store.sync!.head(t.tableId));
    copy.close();
  });

  it('is off without an admin token', async () => {
    const s = await server();
    expect((await http(s.url, 'GET', '/api/backup', undefined, 'a'.repeat(22))).status).toBe(403);
  });
});

describe('history window', () => {
  it('sends only the last historyWindow entries of the history, in snapshots and deltas alike', async () => {
    const s = await server({ limits: { historyWindow: 3 } });
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    for (let i = 0; i < 5; i++) await gm.command({ type: 'clock.advance', unit: 'round' });
    const room = s.room(t.tableId)!;
    expect(gm.view?.history).toHaveLength(3);
    expect(gm.view).toEqual(JSON.parse(JSON.stringify(room.view({ role: 'gm' }))));
    expect(room.engine.view(room.table, { role: 'gm' }).history).toHaveLength(6);
    const late = await Client.open(s.url, t.gm);
    expect(late.view?.history.map((h) => h.seq)).toEqual([4, 5, 6]);
    await Promise.all([gm.close(), late.close()]);
  });
});

describe('web app', () => {
  it('serves the built app with an SPA fallback, never files outside dist, never for /api', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const t = await import('./helpers.js');
    const tmp = t.tempDir();
    done.push(async () => tmp.cleanup());
    const dist = join(tmp.dir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>TK</title>');
    writeFileSync(join(dist, 'assets', 'app-123.js'), 'console.log(1)');
    writeFileSync(join(tmp.dir, 'secret.txt'), 'outside');
    const s = await server({ webDist: dist });
    const get = async (path: string) => {
      const r = await fetch(s.url + path);
      return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
    };
    expect(await get('/')).toMatchObject({ status: 200, body: '<!doctype html><title>TK</title>' });
    expect(await get('/assets/app-123.js')).toMatchObject({ status: 200, type: expect.stringContaining('javascript'), body: 'console.log(1)' });
    expect((await get('/table/abc')).body).toContain('<title>TK</title>'); // client-side route
    expect((await get('/../secret.txt')).body).not.toContain('outside');
    expect((await get('/%2e%2e/secret.txt')).body).not.toContain('outside');
    const api = await get('/api/nope');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ error: { kind: 'INVALID' } });
  });
});

describe('GM link rotation', () => {
  it('replaces a leaked GM token: the old one stops working and its sockets close', async () => {
    const s = await server();
    const t = await setupTable(s.url, 0);
    const old = await Client.open(s.url, t.gm);
    const r = await http<{ gmToken: string; links: { gm: string } }>(s.url, 'POST', `/api/tables/${t.tableId}/gm-token`, undefined, t.gm);
    expect(r.status).toBe(201);
    expect(r.body.gmToken).not.toBe(t.gm);
    expect((await old.waitClose()).code).toBe(CLOSE.revoked);
    expect((await http(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, t.gm)).status).toBe(401);
    expect((await http(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, r.body.gmToken)).status).toBe(200);
  });
});

describe('presence', () => {
  it('tells each viewer who is connected, for the seats its own view shows', async () => {
    const s = await server();
    const t = await setupTable(s.url, 2);
    const gm = await Client.open(s.url, t.gm);
    const seen = gm.next((m) => m.type === 'presence' && m.seats.some((x) => x.seatId === t.seats[0]!.seatId && x.online));
    const p1 = await Client.open(s.url, t.seats[0]!.token);
    expect(await seen).toMatchObject({ gm: true, spectators: 0 });
    const sp = await Client.open(s.url, t.spectator);
    const last = await p1.next((m) => m.type === 'presence' && m.spectators === 1);
    expect(last).toEqual({
      type: 'presence',
      gm: true,
      spectators: 1,
      seats: [
        { seatId: t.seats[0]!.seatId, online: true },
        { seatId: t.seats[1]!.seatId, online: false },
      ],
    });
    const gone = gm.next((m) => m.type === 'presence' && m.seats.every((x) => !x.online));
    await p1.close();
    await gone;
    await Promise.all([gm.close(), sp.close()]);
  });
});
