// The shared mode's wiring (issue 22, ADR 60), in one process: three table
// servers on one real PostgreSQL and one real nats-server (both started on
// loopback by this file and stopped by pid), each with its own pool and bus
// connection, as three machines would have. Clients spread over the three play
// one table; commands on non-owners are forwarded; views converge; secrets stay
// on the GM's side of every socket; a stopped owner's table passes to another.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coreModule, countdownsModule, type Viewer } from '@tablekeeper/engine';
import { CLOSE } from '@tablekeeper/protocol';
import { startServer, type RunningServer, type StartOptions } from '../src/index.js';
import { openPostgresStore } from '../src/store/postgres.js';
import { NatsBus } from '../src/bus/nats.js';
import { PgLeaseStore } from '../src/cluster/lease.js';
import { Client, http, joinFrom, setupTable, silent, testCatalog, UNLIMITED_HTTP } from './helpers.js';
import { startNatsServer, type NatsServer } from './services/nats-server.js';
import { startPostgres } from '../../../scripts/postgres.mjs';

let postgres: { url: string; stop: () => Promise<void> } | null = null;
let nats: NatsServer | null = null;
let schemas = 0;
const open: { servers: RunningServer[]; clients: Client[] } = { servers: [], clients: [] };

beforeAll(async () => {
  const given = process.env['TEST_DATABASE_URL'];
  [postgres, nats] = await Promise.all([given ? { url: given, stop: async () => undefined } : startPostgres(), startNatsServer()]);
}, 120_000);
afterAll(async () => {
  await nats?.stop();
  await postgres?.stop();
}, 60_000);
afterEach(async () => {
  await Promise.all(open.clients.splice(0).map((c) => c.close()));
  await Promise.all(open.servers.splice(0).map((s) => s.close()));
});

/** `n` instances of one cluster: one schema (the shared database) and one subject prefix (the shared bus). */
async function cluster(n: number, options: Partial<StartOptions> = {}): Promise<RunningServer[]> {
  const schema = `tkc_${process.pid}_${++schemas}`;
  const servers: RunningServer[] = [];
  for (let i = 0; i < n; i++) {
    const store = await openPostgresStore(postgres!.url, { schema });
    const bus = await NatsBus.connect({ url: nats!.url, prefix: schema });
    const leases = await PgLeaseStore.open(store.pool);
    const s = await startServer({
      port: 0,
      host: '127.0.0.1',
      store,
      logger: silent(),
      catalog: testCatalog([coreModule, countdownsModule]),
      webDist: null,
      httpRateLimit: UNLIMITED_HTTP,
      createAllowance: UNLIMITED_HTTP,
      rateLimit: { capacity: 1e6, refillPerSecond: 1e6 },
      cluster: { bus, leases, instanceId: `inst-${i}`, leaseMs: 1000 },
      ...options,
    });
    open.servers.push(s);
    servers.push(s);
  }
  return servers;
}

const client = async (url: string, token: string) => {
  const c = await Client.open(url, token);
  open.clients.push(c);
  return c;
};

/** The view a server's room gives this viewer, as JSON (the replica's or the owner's). */
const viewOn = (s: RunningServer, tableId: string, viewer: Viewer) => JSON.stringify(s.rooms.get(tableId)!.view(viewer).world);

describe('three instances on one PostgreSQL and one NATS', () => {
  it('the first to open a table owns it; commands from clients on the other two are forwarded, acked once, and every view converges', async () => {
    const [a, b, c] = await cluster(3);
    const t = await setupTable(a!.url, 2);
    const gm = await client(a!.url, t.gm);
    expect(a!.cluster!.fenceOf(t.tableId)).toMatchObject({ owner: 'inst-0' });
    const p1 = await client(b!.url, t.seats[0]!.token);
    const p2 = await client(c!.url, t.seats[1]!.token);
    const sp = await client(c!.url, t.spectator);
    expect(b!.cluster!.fenceOf(t.tableId)).toBeNull();
    expect(c!.cluster!.fenceOf(t.tableId)).toBeNull();
    const everyone = [gm, p1, p2, sp];
    let version = gm.version;
    const step = async (who: Client, command: { type: string; [k: string]: unknown }, commandId?: string) => {
      await who.reach(version);
      const r = await who.command(command, commandId === undefined ? {} : { commandId });
      expect(r).toMatchObject({ type: 'ack', version: version + 1, duplicate: false });
      version++;
      await Promise.all(everyone.map((x) => x.reach(version)));
    };
    await step(gm, { type: 'character.add', name: 'Pip', kind: 'pc', seatId: t.seats[0]!.seatId });
    for (let i = 0; i < 4; i++) {
      await step(p1, { type: 'log.note', text: `from b ${i}` }, i === 0 ? 'p1-first' : undefined);
      await step(p2, { type: 'log.note', text: `from c ${i}` });
      await step(gm, { type: 'clock.advance', unit: 'round' });
    }
    // A retry on a non-owner (same commandId, stale version) is answered with the first version, applied once.
    expect(await p1.command({ type: 'log.note', text: 'from b 0' }, { commandId: 'p1-first', expectedVersion: 1 })).toMatchObject({ type: 'ack', duplicate: true });
    // A stale version forwarded from a non-owner is refused as the owner refuses it, with the head.
    expect(await p2.command({ type: 'log.note', text: 'late' }, { expectedVersion: 2 })).toMatchObject({ type: 'rejection', error: { kind: 'VERSION_CONFLICT', current: version } });
    // The GM's HTTP call on a non-owner (add a seat) is forwarded too, and its seat id read from the replica.
    const seat = await http<{ seatId: string; token: string }>(b!.url, 'POST', `/api/tables/${t.tableId}/seats`, { name: 'Late' }, t.gm);
    expect(seat.status).toBe(201);
    version++;
    await Promise.all(everyone.map((x) => x.reach(version)));
    expect(gm.view!.world.seats[seat.body.seatId]).toBeDefined();
    const p3 = await client(b!.url, seat.body.token);
    expect(p3.version).toBe(version);
    expect(await a!.store.head(t.tableId)).toBe(version);
    // Every instance holds the same table; every client holds what its own instance projects for it.
    for (const s of [b!, c!]) expect(s.rooms.get(t.tableId)!.version).toBe(version);
    for (const [who, viewer] of [
      [gm, { role: 'gm' }],
      [p1, { role: 'player', seatId: t.seats[0]!.seatId }],
      [p2, { role: 'player', seatId: t.seats[1]!.seatId }],
      [sp, { role: 'spectator' }],
    ] as const) {
      for (const s of [a!, b!, c!]) expect(viewOn(s, t.tableId, viewer)).toBe(JSON.stringify(who.view!.world));
    }
    // The phone on b saw its notes in order, once each.
    const notes = (p1.view!.history ?? []).map((h) => JSON.stringify(h)).filter((h) => h.includes('from b'));
    expect(notes).toHaveLength(4);
  }, 90_000);

  it('secrecy canaries: a player or spectator on a non-owner never receives a byte of a hidden countdown or a hidden foe; a GM there sees them', async () => {
    const [a, b, c] = await cluster(3);
    const t = await setupTable(a!.url, 1);
    const gm = await client(a!.url, t.gm);
    const p1 = await client(b!.url, t.seats[0]!.token);
    const sp = await client(c!.url, t.spectator);
    const gmB = await client(b!.url, t.gm);
    const clock = await gm.command({ type: 'countdown.create', name: 'CANARY-clock', start: 3, visibility: 'hidden', effect: 'CANARY-effect' });
    expect(clock.type).toBe('ack');
    const foe = await gm.command({ type: 'character.add', name: 'CANARY-foe', kind: 'npc', visibility: 'hidden', stats: { hp: 'CANARY-hp-17' } });
    expect(foe).toMatchObject({ type: 'ack' });
    await gm.command({ type: 'log.note', text: 'CANARY gm-only', audience: { kind: 'gm' } });
    const v = gm.version;
    await Promise.all([p1.reach(v), sp.reach(v), gmB.reach(v)]);
    const foeId = Object.entries(gmB.view!.world.characters).find(([, ch]) => (ch as { name?: string }).name === 'CANARY-foe')?.[0];
    expect(foeId).toBeDefined();
    // The player probes the hidden foe by id through the non-owner: the owner's refusal is built from the player's view.
    const probe = await p1.command({ type: 'character.update', id: foeId, name: 'x' });
    expect(probe.type).toBe('rejection');
    await p1.command({ type: 'log.note', text: 'a player note' });
    await Promise.all([p1.reach(v + 1), sp.reach(v + 1), gmB.reach(v + 1)]);
    // A reconnect on another non-owner sends a fresh snapshot from that replica.
    const p1c = await client(c!.url, t.seats[0]!.token);
    for (const x of [p1, sp, p1c]) expect(x.frames.join('\n')).not.toContain('CANARY');
    expect(gmB.frames.join('\n')).toContain('CANARY-clock');
    expect(gmB.frames.join('\n')).toContain('CANARY-hp-17');
  }, 90_000);

  it('revoking a link through one instance closes its sockets on every instance', async () => {
    const [a, b, c] = await cluster(3);
    const t = await setupTable(a!.url, 1);
    const gm = await client(a!.url, t.gm);
    const p1 = await client(b!.url, t.seats[0]!.token);
    const sp = await client(c!.url, t.spectator);
    expect(await gm.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'ack' });
    await Promise.all([p1.reach(gm.version), sp.reach(gm.version)]);
    // The GM's calls reach yet another instance than the sockets (a balancer without sticky sessions).
    expect((await http(c!.url, 'DELETE', `/api/tables/${t.tableId}/seats/${t.seats[0]!.seatId}`, undefined, t.gm)).body).toEqual({ revoked: 1 });
    expect((await p1.waitClose()).code).toBe(CLOSE.revoked);
    expect(p1.messages.some((m) => m.type === 'seatRevoked')).toBe(true);
    expect((await http(b!.url, 'DELETE', `/api/tables/${t.tableId}/spectators`, undefined, t.gm)).body).toEqual({ revoked: 1 });
    expect((await sp.waitClose()).code).toBe(CLOSE.revoked);
    // The GM plays on.
    expect(await gm.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'ack' });
  }, 90_000);

  it('presence counts every instance: a GM on one sees a player and a spectator on another come and go, and the player sees the GM', async () => {
    const [a, b] = await cluster(2);
    const t = await setupTable(a!.url, 1);
    const seatId = t.seats[0]!.seatId;
    const gm = await client(a!.url, t.gm);
    const p1 = await client(b!.url, t.seats[0]!.token);
    const sp = await client(b!.url, t.spectator);
    const last = (c: Client) => [...c.messages].reverse().find((m) => m.type === 'presence');
    await expect.poll(() => last(gm), { timeout: 15_000 }).toMatchObject({ gm: true, seats: [{ seatId, online: true }], spectators: 1 });
    await expect.poll(() => last(p1), { timeout: 15_000 }).toMatchObject({ gm: true, seats: [{ seatId, online: true }], spectators: 1 });
    await p1.close();
    await expect.poll(() => last(gm), { timeout: 15_000 }).toMatchObject({ seats: [{ seatId, online: false }], spectators: 1 });
    // An instance that shuts down stops counting its sockets everywhere at once.
    await b!.close();
    open.servers.splice(open.servers.indexOf(b!), 1);
    await expect.poll(() => last(gm), { timeout: 15_000 }).toMatchObject({ gm: true, seats: [{ seatId, online: false }], spectators: 0 });
    void sp;
  }, 90_000);

  it('join codes (ADR 64): minted on one instance, redeemed on another, "used" on the first; a second try on the third is refused in words; guessing from one address counts across all three', async () => {
    const [a, b, c] = await cluster(3, { limits: { tokenFailureBurst: 3, tokenFailuresPerSecond: 0.2 } });
    const t = await setupTable(a!.url, 0);
    type Seat = { seatId: string; code: string; codeExpiresAt: number };
    type Seats = { seats: { seatId: string; code: { state: string; usedAt?: number; expiresAt?: number } }[] };
    const seat = (await http<Seat>(a!.url, 'POST', `/api/tables/${t.tableId}/seats`, { name: 'Ada' }, t.gm)).body;
    const codeOn = async (s: RunningServer) => (await http<Seats>(s.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, t.gm)).body.seats.find((x) => x.seatId === seat.seatId)!.code;
    expect(await codeOn(a!)).toEqual({ state: 'live', expiresAt: seat.codeExpiresAt });
    const before = Date.now();
    const joined = await joinFrom(b!.url, '127.0.0.5', seat.code);
    expect(joined.status).toBe(200);
    const token = (joined.body as { token: string }).token;
    // The link works on any instance, as that seat.
    const phone = await client(c!.url, token);
    expect(phone.messages.find((m) => m.type === 'welcome')).toMatchObject({ viewer: { role: 'player', seatId: seat.seatId } });
    // The minting instance reads it used (what the GM's Invite panel asks every few seconds), without any restart.
    const used = await codeOn(a!);
    expect(used).toMatchObject({ state: 'used', expiresAt: seat.codeExpiresAt });
    expect(used.usedAt).toBeGreaterThanOrEqual(before);
    const again = await joinFrom(c!.url, '127.0.0.5', seat.code);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: { kind: 'INVALID', message: 'no seat has this code: it may be mistyped, used already or expired; ask the GM for a new one', path: ['code'] } });
    // One failure on each instance from one address: none of them alone has seen three, yet the fourth try is slowed.
    const fresh = (await http<{ code: string }>(c!.url, 'POST', `/api/tables/${t.tableId}/seats/${seat.seatId}/code`, undefined, t.gm)).body.code;
    let guess = 'ABCDEFGH';
    while (guess === fresh) guess = guess.slice(1) + guess[0];
    for (const s of [a!, b!, c!]) expect((await joinFrom(s.url, '127.0.0.6', guess)).status).toBe(404);
    const slowed = await joinFrom(a!.url, '127.0.0.6', fresh);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.retryAfter)).toBeGreaterThan(0);
    expect((slowed.body as { error: { message: string } }).error.message).toMatch(/^too many codes that did not work from this address; retry in \d+ ms$/);
    // The good code was not used up by the refused try: another address joins with it through yet another instance.
    expect((await joinFrom(b!.url, '127.0.0.7', fresh)).status).toBe(200);
    expect(await codeOn(c!)).toMatchObject({ state: 'used' });
  }, 90_000);

  it('an owner that stops: a client on another instance carries on (that instance takes the lease and replays), and the GM reconnects there and resyncs by version', async () => {
    const [a, b] = await cluster(2);
    const t = await setupTable(a!.url, 1);
    const gm = await client(a!.url, t.gm);
    const p1 = await client(b!.url, t.seats[0]!.token);
    for (let i = 0; i < 3; i++) expect(await gm.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'ack' });
    const before = gm.version;
    await p1.reach(before);
    await a!.close();
    open.servers.splice(open.servers.indexOf(a!), 1);
    // b forwards, finds no owner, takes the released lease at the next epoch, reads the store and decides itself.
    expect(await p1.command({ type: 'log.note', text: 'after the owner left' })).toMatchObject({ type: 'ack', version: before + 1 });
    expect(b!.cluster!.fenceOf(t.tableId)).toMatchObject({ owner: 'inst-1', epoch: 2 });
    const again = await client(b!.url, t.gm);
    expect(again.version).toBe(before + 1);
    expect(await again.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'ack', version: before + 2 });
    expect((await b!.store.readLog(t.tableId)).map((r) => r.version)).toEqual(Array.from({ length: before + 2 }, (_, i) => i + 1));
  }, 90_000);
});
