// One store conformance suite (ADR 49): the same promises of the asynchronous
// port, run against the memory adapter, SQLite and PostgreSQL. PostgreSQL is a
// throwaway cluster this file starts (scripts/postgres.mjs) unless
// TEST_DATABASE_URL names one; every test gets a schema of its own.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction, World } from '@tablekeeper/engine';
import { asyncStore, memoryStore, openSqliteStore, openSqliteThreadStore, startServer, StoreError, type EventStore, type TokenRecord } from '../src/index.js';
import { openPostgresStore, PG_SCHEMA_VERSION } from '../src/store/postgres.js';
import { PgLeaseStore } from '../src/cluster/lease.js';
import { Client, http, setupTable, silent, tempDir, testCatalog, UNLIMITED_HTTP } from './helpers.js';
import { startPostgres } from '../../../scripts/postgres.mjs';

const genesis = { tableId: 't1', name: 'T', rulesetId: 'r', settings: {}, seats: {}, characters: {}, clock: { seconds: 0, counts: {} }, log: [], ext: {}, nextId: 1 } as unknown as World;
const tx = (seq: number): Transaction => ({ seq, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: `n${seq}` }, events: [] });
const table = (tableId = 't1') => ({ tableId, name: `Table ${tableId}`, rulesetId: 'r', genesis: { ...genesis, tableId }, createdAt: 1 });
const token = (hash: string, role: TokenRecord['role'], seatId: string | null = null, tableId = 't1', createdAt = 1): TokenRecord => ({ hash, tableId, role, seatId, createdAt, revokedAt: null });
const rec = (commandId: string | null, seq: number, actorKey = 'gm') => ({ commandId, actorKey, transaction: tx(seq) });

type Started = { url: string; stop: () => Promise<void> };
let postgres: Started | null = null;
let schemas = 0;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  const given = process.env['TEST_DATABASE_URL'];
  postgres = given ? { url: given, stop: async () => undefined } : await startPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
}, 60_000);
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A fresh store, and a second client on the same data where the adapter can have one (PostgreSQL: another pool). */
interface Subject {
  readonly store: EventStore;
  readonly other: () => Promise<EventStore>;
}
const makers: [string, () => Promise<Subject>][] = [
  [
    'memory',
    async () => {
      const store = asyncStore(memoryStore());
      return { store, other: async () => store };
    },
  ],
  [
    'sqlite',
    async () => {
      const t = tempDir();
      const store = asyncStore(openSqliteStore(join(t.dir, 'db.sqlite')));
      cleanups.push(async () => {
        await store.close();
        t.cleanup();
      });
      // One server per file (its owner lock): a second client is the same store.
      return { store, other: async () => store };
    },
  ],
  [
    'sqlite writer thread',
    async () => {
      const t = tempDir();
      const store = await openSqliteThreadStore(join(t.dir, 'db.sqlite'));
      cleanups.push(async () => {
        await store.close();
        t.cleanup();
      });
      return { store, other: async () => store };
    },
  ],
  [
    'postgres',
    async () => {
      const schema = `tk_${process.pid}_${++schemas}`;
      const store = await openPostgresStore(postgres!.url, { schema });
      cleanups.push(() => store.close());
      return {
        store,
        other: async () => {
          const second = await openPostgresStore(postgres!.url, { schema });
          cleanups.push(() => second.close());
          return second;
        },
      };
    },
  ],
];

describe.each(makers)('%s store on the port', (kind, make) => {
  it('appends at expectedVersion + 1, refuses a stale or a future version, and leaves no gap', async () => {
    const { store: s } = await make();
    await s.createTable(table(), []);
    expect(await s.append('t1', 0, rec('a', 1))).toEqual({ ok: true, version: 1 });
    expect(await s.append('t1', 0, rec('b', 1))).toEqual({ ok: false, reason: 'conflict', current: 1 });
    expect(await s.append('t1', 5, rec('b', 6))).toEqual({ ok: false, reason: 'conflict', current: 1 });
    expect(await s.append('t1', 1, rec('b', 2))).toEqual({ ok: true, version: 2 });
    expect(await s.head('t1')).toBe(2);
    expect((await s.readLog('t1')).map((r) => r.version)).toEqual([1, 2]);
    expect((await s.readLog('t1', 1)).map((r) => r.transaction)).toEqual([tx(2)]);
  });

  it('applies a commandId once per sender, answering a retry with the first version', async () => {
    const { store: s } = await make();
    await s.createTable(table(), []);
    await s.append('t1', 0, rec('same', 1));
    const again = await s.append('t1', 1, rec('same', 2));
    expect(!again.ok && again.reason === 'duplicate' && again.existing.version).toBe(1);
    expect(await s.head('t1')).toBe(1);
    expect((await s.findCommand('t1', 'gm', 'same'))?.transaction).toEqual(tx(1));
    // Ids are per sender: a player's 'same' is another key, and the GM's is not found under the player.
    expect(await s.findCommand('t1', 'player:s1', 'same')).toBeNull();
    expect(await s.append('t1', 1, rec('same', 2, 'player:s1'))).toEqual({ ok: true, version: 2 });
    // Null commandIds (the server's own commands) never collide.
    expect(await s.append('t1', 2, rec(null, 3))).toEqual({ ok: true, version: 3 });
    expect(await s.append('t1', 3, rec(null, 4))).toEqual({ ok: true, version: 4 });
  });

  it('reads the log in pages, in version order, per table', async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), []);
    await s.createTable(table('t2'), []);
    for (let v = 0; v < 12; v++) await s.append('t1', v, rec(`c${v}`, v + 1));
    await s.append('t2', 0, rec('c0', 1));
    const pages: number[][] = [];
    for (let after = 0; ; ) {
      const page = await s.readLog('t1', after, 5);
      if (page.length === 0) break;
      pages.push(page.map((r) => r.version));
      after = page.at(-1)!.version;
    }
    expect(pages).toEqual([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12]]);
    expect(await s.readLog('t1', 12)).toEqual([]);
    expect((await s.readLog('t2')).map((r) => [r.version, r.commandId, r.actorKey])).toEqual([[1, 'c0', 'gm']]);
    expect(await s.readLog('no-such-table')).toEqual([]);
    expect(await s.head('no-such-table')).toBe(0);
  });

  it('keeps tables, and refuses a second table with the same id', async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), [token('h-gm', 'gm')]);
    await s.createTable({ ...table('t2'), createdAt: 2 }, []);
    expect(await s.getTable('t1')).toEqual(table('t1'));
    expect(await s.getTable('nope')).toBeNull();
    expect(await s.countTables()).toBe(2);
    expect(await s.listTableIds()).toEqual(['t1', 't2']);
    await expect(s.createTable(table('t1'), [])).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'EXISTS');
  });

  it('keeps the latest snapshot as a cache and drops older ones', async () => {
    const { store: s } = await make();
    await s.createTable(table(), []);
    expect(await s.latestSnapshot('t1')).toBeNull();
    await s.putSnapshot('t1', 3, '{"at":3}');
    await s.putSnapshot('t1', 6, '{"at":6}');
    expect(await s.latestSnapshot('t1')).toEqual({ version: 6, state: '{"at":6}' });
    await s.putSnapshot('t1', 6, '{"again":6}');
    expect(await s.latestSnapshot('t1')).toEqual({ version: 6, state: '{"again":6}' });
  });

  it('finds tokens by hash, revokes them by role and seat, and lists them per table', async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), [token('h-gm', 'gm')]);
    await s.createTable(table('t2'), [token('h-other', 'player', 's1', 't2')]);
    await s.addToken(token('h-p1', 'player', 's1', 't1', 2));
    await s.addToken(token('h-p1b', 'player', 's1', 't1', 3));
    await s.addToken(token('h-p2', 'player', 's2', 't1', 4));
    await s.addToken(token('h-spec', 'spectator', null, 't1', 5));
    expect(await s.findToken('h-p1')).toEqual(token('h-p1', 'player', 's1', 't1', 2));
    expect(await s.findToken('unknown')).toBeNull();
    const revoked = await s.revokeTokens('t1', { role: 'player', seatId: 's1' }, 100);
    expect(revoked.map((t) => [t.hash, t.revokedAt])).toEqual([['h-p1', 100], ['h-p1b', 100]]);
    expect((await s.findToken('h-p1'))?.revokedAt).toBe(100);
    // Already revoked tokens are not revoked again; another table's seat s1 is untouched.
    expect(await s.revokeTokens('t1', { role: 'player', seatId: 's1' }, 200)).toEqual([]);
    expect((await s.findToken('h-other'))?.revokedAt).toBeNull();
    // Without a seat: every live token of the role.
    expect((await s.revokeTokens('t1', { role: 'player' }, 300)).map((t) => t.hash)).toEqual(['h-p2']);
    expect((await s.listTokens('t1')).map((t) => [t.hash, t.revokedAt])).toEqual([['h-gm', null], ['h-p1', 100], ['h-p1b', 100], ['h-p2', 300], ['h-spec', null]]);
  });

  it('imports a whole log, then rows after a head, and refuses a gap', async () => {
    const { store: s } = await make();
    await s.importTable(table('t1'), [1, 2, 3].map((v) => ({ version: v, ...rec(`i${v}`, v) })), [token('h-gm', 'gm')]);
    expect(await s.head('t1')).toBe(3);
    await s.importRows('t1', [4, 5].map((v) => ({ version: v, commandId: `i${v}`, actorKey: 'player:s1', tx: JSON.stringify(tx(v)) })));
    expect((await s.readLog('t1', 3)).map((r) => [r.version, r.actorKey, r.transaction])).toEqual([[4, 'player:s1', tx(4)], [5, 'player:s1', tx(5)]]);
    await expect(s.importRows('t1', [{ version: 7, commandId: null, actorKey: 'gm', tx: JSON.stringify(tx(7)) }])).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'SCHEMA');
    await expect(s.importTable(table('t2'), [{ version: 2, ...rec(null, 2) }], [])).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'SCHEMA');
    expect(await s.getTable('t2')).toBeNull();
    expect(await s.head('t1')).toBe(5);
  });

  it('drops a table with its rows, snapshots and tokens, and nothing of another', async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), [token('h1', 'gm')]);
    await s.createTable(table('t2'), [token('h2', 'gm', null, 't2')]);
    await s.append('t1', 0, rec('a', 1));
    await s.append('t2', 0, rec('a', 1));
    await s.putSnapshot('t1', 1, '{}');
    await s.dropTable('t1');
    expect([await s.getTable('t1'), await s.findToken('h1'), await s.latestSnapshot('t1'), await s.head('t1')]).toEqual([null, null, null, 0]);
    expect(await s.readLog('t1')).toEqual([]);
    expect([await s.head('t2'), (await s.findToken('h2'))?.tableId]).toEqual([1, 't2']);
  });

  it('group commit: decides a batch over many tables against the writer, once, and answers duplicates inside it', async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), []);
    await s.createTable(table('t2'), []);
    await s.append('t1', 0, rec('old', 1));
    const lookups = [
      { tableId: 't1', actorKey: 'gm', commandId: 'old' },
      { tableId: 't1', actorKey: 'gm', commandId: 'n1' },
      { tableId: 't2', actorKey: 'player:s1', commandId: 'n1' },
    ];
    const { value, durable } = await s.commit(lookups, (w) => [
      w.findCommand('t1', 'gm', 'old')?.version,
      w.append('t1', 1, rec('n1', 2)),
      // The same id again inside the batch: answered from the batch.
      w.append('t1', 2, rec('n1', 3)),
      w.append('t2', 0, rec('n1', 1, 'player:s1')),
      // A stale version inside the batch is refused as it would be outside.
      w.append('t1', 1, rec(null, 2)),
      w.append('t1', 2, rec(null, 3)),
      w.putSnapshot('t1', 3, '{"at":3}'),
    ]);
    await durable;
    expect(value.slice(0, 2)).toEqual([1, { ok: true, version: 2 }]);
    expect(value[2]).toMatchObject({ ok: false, reason: 'duplicate', existing: { version: 2 } });
    expect(value.slice(3, 6)).toEqual([{ ok: true, version: 1 }, { ok: false, reason: 'conflict', current: 2 }, { ok: true, version: 3 }]);
    expect((await s.readLog('t1')).map((r) => [r.version, r.commandId])).toEqual([[1, 'old'], [2, 'n1'], [3, null]]);
    expect(await s.head('t2')).toBe(1);
    expect(await s.latestSnapshot('t1')).toEqual({ version: 3, state: '{"at":3}' });
  });

  it('group commit: a batch that throws while deciding writes nothing', async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), []);
    await expect(
      s.commit([], (w) => {
        w.append('t1', 0, rec(null, 1));
        throw new Error('a bug while deciding');
      }),
    ).rejects.toThrow('a bug while deciding');
    expect(await s.head('t1')).toBe(0);
    expect(await s.append('t1', 0, rec(null, 1))).toEqual({ ok: true, version: 1 });
  });

  it('two clients racing on one version: exactly one wins, the other learns the head, and the log has no gap', async () => {
    const { store: a, other } = await make();
    const b = await other();
    await a.createTable(table('t1'), []);
    for (let round = 0; round < 10; round++) {
      const [x, y] = await Promise.all([a.append('t1', round, rec(`a${round}`, round + 1, 'player:a')), b.append('t1', round, rec(`b${round}`, round + 1, 'player:b'))]);
      const wins = [x, y].filter((r) => r.ok);
      expect(wins).toHaveLength(1);
      expect([x, y].find((r) => !r.ok)).toEqual({ ok: false, reason: 'conflict', current: round + 1 });
    }
    expect((await b.readLog('t1')).map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The same command id sent through both clients at once lands once.
    const [x, y] = await Promise.all([a.append('t1', 10, rec('retry', 11)), b.append('t1', 10, rec('retry', 11))]);
    expect([x, y].filter((r) => r.ok)).toHaveLength(1);
    expect([x, y].find((r) => !r.ok)).toMatchObject({ ok: false });
    expect(await a.head('t1')).toBe(11);
  });

  // Join codes (ADR 64): the store keeps a seat's latest code by its hash; any client of the store redeems it, once.
  const code = (hash: string, seatId: string, expiresAt = 1000, tableId = 't1') => ({ hash, tableId, seatId, expiresAt });
  const phone = (hash: string): TokenRecord => ({ hash, tableId: 'ignored', role: 'player', seatId: null, createdAt: 7, revokedAt: null });

  it('join codes: minted per seat (a new one replaces the old), redeemed once with its token, never after expiry; "used" reads through another client', async () => {
    const { store: s, other } = await make();
    const b = await other();
    await s.createTable(table('t1'), []);
    expect(await s.putJoinCode(code('c-old', 's1'))).toBe(true);
    expect(await s.putJoinCode(code('c1', 's1'))).toBe(true);
    expect(await s.putJoinCode(code('c2', 's2', 500))).toBe(true);
    // Another seat's hash is refused (the caller mints again), and nothing changes.
    expect(await s.putJoinCode(code('c1', 's3'))).toBe(false);
    expect((await s.listJoinCodes('t1')).map((c) => [c.seatId, c.hash, c.usedAt])).toEqual([['s1', 'c1', null], ['s2', 'c2', null]]);
    // The replaced code is dead; the live one is redeemed through the other client, with the phone's token stored for its seat.
    expect(await b.redeemJoinCode('c-old', 10, phone('h-old'))).toBeNull();
    expect(await b.redeemJoinCode('c1', 10, phone('h-a'))).toEqual({ tableId: 't1', seatId: 's1' });
    expect(await s.findToken('h-a')).toEqual({ hash: 'h-a', tableId: 't1', role: 'player', seatId: 's1', createdAt: 7, revokedAt: null });
    expect(await s.findToken('h-old')).toBeNull();
    // Once only; the minter's client reads it used, when.
    expect(await s.redeemJoinCode('c1', 11, phone('h-b'))).toBeNull();
    expect(await s.findToken('h-b')).toBeNull();
    expect((await s.listJoinCodes('t1')).find((c) => c.seatId === 's1')).toEqual({ tableId: 't1', seatId: 's1', hash: 'c1', expiresAt: 1000, usedAt: 10 });
    // Expiry: the code's last working moment is before expiresAt.
    expect(await b.redeemJoinCode('c2', 500, phone('h-late'))).toBeNull();
    expect(await s.findToken('h-late')).toBeNull();
    expect(await s.putJoinCode(code('c3', 's2', 600))).toBe(true);
    expect(await b.redeemJoinCode('c3', 599, phone('h-c3'))).toEqual({ tableId: 't1', seatId: 's2' });
    // A new code for a used seat clears its "used" mark.
    expect(await s.putJoinCode(code('c4', 's1'))).toBe(true);
    expect((await b.listJoinCodes('t1')).find((c) => c.seatId === 's1')).toMatchObject({ hash: 'c4', usedAt: null });
  });

  it("join codes: revoking a seat's player links deletes its code in the same step (others stay); all players' links take every code; a drop takes them too", async () => {
    const { store: s } = await make();
    await s.createTable(table('t1'), []);
    await s.createTable(table('t2'), []);
    for (const [h, seat] of [['c1', 's1'], ['c2', 's2'], ['c3', 's3']] as const) await s.putJoinCode(code(h, seat));
    await s.putJoinCode(code('d1', 's1', 1000, 't2'));
    // Revoking the spectators or the GM leaves the codes alone, even with no token to revoke.
    await s.revokeTokens('t1', { role: 'spectator' }, 5);
    expect(await s.listJoinCodes('t1')).toHaveLength(3);
    await s.revokeTokens('t1', { role: 'player', seatId: 's1' }, 5);
    expect(await s.redeemJoinCode('c1', 6, phone('h1'))).toBeNull();
    expect((await s.listJoinCodes('t1')).map((c) => c.seatId)).toEqual(['s2', 's3']);
    await s.revokeTokens('t1', { role: 'player' }, 7);
    expect(await s.listJoinCodes('t1')).toEqual([]);
    expect(await s.redeemJoinCode('c2', 8, phone('h2'))).toBeNull();
    // Another table's seat s1 keeps its code until the table is dropped.
    expect((await s.listJoinCodes('t2')).map((c) => c.hash)).toEqual(['d1']);
    await s.dropTable('t2');
    expect(await s.listJoinCodes('t2')).toEqual([]);
    expect(await s.redeemJoinCode('d1', 9, phone('h3'))).toBeNull();
  });

  it('join codes: two clients redeeming one code at once, ten times: exactly one gets the seat and stores its token', async () => {
    const { store: a, other } = await make();
    const b = await other();
    await a.createTable(table('t1'), []);
    for (let round = 0; round < 10; round++) {
      await a.putJoinCode(code(`race${round}`, `s${round}`, 10_000));
      const [x, y] = await Promise.all([a.redeemJoinCode(`race${round}`, 5, phone(`ra${round}`)), b.redeemJoinCode(`race${round}`, 5, phone(`rb${round}`))]);
      expect([x, y].filter((r) => r !== null)).toEqual([{ tableId: 't1', seatId: `s${round}` }]);
      const stored = [await a.findToken(`ra${round}`), await a.findToken(`rb${round}`)];
      // The winner's token, and only the winner's, is the seat's link.
      expect(stored.map((t) => t !== null)).toEqual([x !== null, y !== null]);
    }
  });

  it("join codes: a seat's links revoked while a phone redeems its code: never a live link for the seat afterwards", async () => {
    const { store: a, other } = await make();
    const b = await other();
    await a.createTable(table('t1'), []);
    for (let round = 0; round < 10; round++) {
      const seat = `s${round}`;
      await a.putJoinCode(code(`rv${round}`, seat, 10_000));
      const [got] = await Promise.all([b.redeemJoinCode(`rv${round}`, 5, phone(`rv-t${round}`)), a.revokeTokens('t1', { role: 'player', seatId: seat }, 6)]);
      const live = (await a.listTokens('t1')).filter((t) => t.seatId === seat && t.revokedAt === null);
      expect(live).toEqual([]);
      // Whichever came first, the code is gone or used, and the phone's token (if it got one) is revoked.
      if (got !== null) expect((await a.findToken(`rv-t${round}`))?.revokedAt).toBe(6);
      expect(await a.redeemJoinCode(`rv${round}`, 7, phone(`again${round}`))).toBeNull();
    }
  });

  it('failed joins per address: each failure moves the full-again time a step later (from now at the earliest, at most the cap past now); counted across clients', async () => {
    const { store: a, other } = await make();
    const b = await other();
    expect(await a.joinFailuresFullAt('10.0.0.1')).toBeNull();
    expect(await a.chargeJoinFailure('10.0.0.1', 1000, 500, 1500)).toBe(1500);
    expect(await b.chargeJoinFailure('10.0.0.1', 1100, 500, 1500)).toBe(2000);
    expect(await a.chargeJoinFailure('10.0.0.1', 1200, 500, 1500)).toBe(2500);
    // The cap: never more than a full bucket's worth past now.
    expect(await b.chargeJoinFailure('10.0.0.1', 1200, 500, 1500)).toBe(2700);
    expect(await b.joinFailuresFullAt('10.0.0.1')).toBe(2700);
    // Long after, a failure starts from now again; an address whose bucket was full again is forgotten by the next charge.
    expect(await a.chargeJoinFailure('10.0.0.2', 2000, 500, 1500)).toBe(2500);
    expect(await a.chargeJoinFailure('10.0.0.1', 9000, 500, 1500)).toBe(9500);
    expect(await b.joinFailuresFullAt('10.0.0.2')).toBeNull();
    // Eight failures at once through two clients all count.
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).chargeJoinFailure('10.0.0.3', 20_000, 100, 10_000)));
    expect(await a.joinFailuresFullAt('10.0.0.3')).toBe(20_800);
  });

  it('reports a writable store to the health check', async () => {
    const { store: s } = await make();
    expect(await s.probeWrite()).toBeNull();
    expect(s.kind).toBe(kind === 'sqlite writer thread' ? 'sqlite' : kind);
  });
});

describe('postgres store only', () => {
  it('two instances whose group commits race on a table: one batch lands, the other fails as a conflict and saves nothing', async () => {
    const schema = `tk_${process.pid}_${++schemas}`;
    const a = await openPostgresStore(postgres!.url, { schema });
    const b = await openPostgresStore(postgres!.url, { schema });
    cleanups.push(() => a.close(), () => b.close());
    await a.createTable(table('t1'), []);
    await a.createTable(table('t2'), []);
    // Two different commands: had b sent a's own command again, a b that ran after a's commit would rightly be
    // answered as a duplicate (exactly-once), and the race this test is about would depend on timing (a CI flake).
    const [ca, cb] = await Promise.all([
      a.commit([{ tableId: 't1', actorKey: 'gm', commandId: 'x' }], (w) => [w.append('t1', 0, rec('x', 1)), w.append('t2', 0, rec(null, 1))]),
      b.commit([{ tableId: 't1', actorKey: 'gm', commandId: 'y' }], (w) => [w.append('t1', 0, rec('y', 1))]),
    ]);
    const settled = await Promise.allSettled([ca.durable, cb.durable]);
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = settled.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(StoreError);
    expect((lost.reason as StoreError).code).toBe('CONFLICT');
    expect(await a.head('t1')).toBe(1);
    // The losing batch saved none of its rows (b's only row was t1's; a's t2 row stands or falls with a's batch).
    expect(await a.head('t2')).toBe(settled[0]!.status === 'fulfilled' ? 1 : 0);
  });

  it('a batch whose table is not at the version the room holds fails without a gap', async () => {
    const schema = `tk_${process.pid}_${++schemas}`;
    const s = await openPostgresStore(postgres!.url, { schema });
    cleanups.push(() => s.close());
    await s.createTable(table('t1'), []);
    const { durable } = await s.commit([], (w) => w.append('t1', 4, rec(null, 5)));
    await expect(durable).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'CONFLICT');
    expect(await s.head('t1')).toBe(0);
  });

  it('fencing (ADR 60): an owner whose lease passed to another cannot append, alone or in a group commit, even at the right version; the new owner can', async () => {
    const schema = `tk_${process.pid}_${++schemas}`;
    const s = await openPostgresStore(postgres!.url, { schema });
    cleanups.push(() => s.close());
    const leases = await PgLeaseStore.open(s.pool);
    await s.createTable(table('t1'), []);
    const a = (await leases.acquire('t1', 'inst-a', 200))!;
    const fenceA = { owner: a.owner, epoch: a.epoch };
    expect(await s.append('t1', 0, rec('a1', 1), fenceA)).toEqual({ ok: true, version: 1 });
    // a stops renewing (paused); its lease lapses and b takes the table at the next epoch.
    let b = null;
    for (let i = 0; i < 200 && b === null; i++) {
      b = await leases.acquire('t1', 'inst-b', 5_000);
      if (b === null) await new Promise((r) => setTimeout(r, 25));
    }
    expect(b).toMatchObject({ owner: 'inst-b', epoch: a.epoch + 1 });
    // Version 1 is the head, so a's version check would pass: the epoch alone refuses it.
    await expect(s.append('t1', 1, rec('a2', 2), fenceA)).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'FENCED' && /epoch 1/.test(e.message) && /epoch 2/.test(e.message));
    const late = await s.commit([{ tableId: 't1', actorKey: 'gm', commandId: 'a3' }], (w) => w.append('t1', 1, rec('a3', 2)), new Map([['t1', fenceA]]));
    await expect(late.durable).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'FENCED');
    expect(await s.head('t1')).toBe(1);
    const fenceB = { owner: b!.owner, epoch: b!.epoch };
    const mine = await s.commit([{ tableId: 't1', actorKey: 'gm', commandId: 'b2' }], (w) => w.append('t1', 1, rec('b2', 2)), new Map([['t1', fenceB]]));
    await mine.durable;
    expect(await s.append('t1', 2, rec('b3', 3), fenceB)).toEqual({ ok: true, version: 3 });
    expect((await s.readLog('t1')).map((r) => r.commandId)).toEqual(['a1', 'b2', 'b3']);
    // A fence on a table nobody ever leased is refused too (no lease row to match).
    await s.createTable(table('t2'), []);
    await expect(s.append('t2', 0, rec(null, 1), fenceB)).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'FENCED' && /no lease/.test(e.message));
  });

  it('fencing: a takeover racing a fenced batch in flight either follows the batch (which landed) or fences it (nothing saved), never both', async () => {
    const schema = `tk_${process.pid}_${++schemas}`;
    const s = await openPostgresStore(postgres!.url, { schema });
    cleanups.push(() => s.close());
    const leases = await PgLeaseStore.open(s.pool);
    for (let round = 1; round <= 8; round++) {
      const t = `r${round}`;
      await s.createTable(table(t), []);
      const a = (await leases.acquire(t, 'inst-a', 100))!;
      // Wait until a's lease lapsed, then race a's batch against b's takeover.
      while ((await leases.holder(t)) !== null) await new Promise((r) => setTimeout(r, 20));
      const batch = await s.commit([], (w) => w.append(t, 0, rec(null, 1)), new Map([[t, { owner: a.owner, epoch: a.epoch }]]));
      const [landed, b] = await Promise.all([batch.durable.then(() => true, (e: unknown) => (e instanceof StoreError && e.code === 'FENCED' ? false : Promise.reject(e))), leases.acquire(t, 'inst-b', 5_000)]);
      expect(b).toMatchObject({ owner: 'inst-b', epoch: 2 });
      // What b replays after taking the lease is exactly what was saved.
      expect(await s.head(t)).toBe(landed ? 1 : 0);
      expect(await s.append(t, landed ? 1 : 0, rec(null, 2), { owner: 'inst-b', epoch: 2 })).toMatchObject({ ok: true });
    }
  });

  it('migrates once with a schema-version row, opens again without migrating, and refuses a newer schema', async () => {
    const schema = `tk_${process.pid}_${++schemas}`;
    const [a, b] = await Promise.all([openPostgresStore(postgres!.url, { schema }), openPostgresStore(postgres!.url, { schema })]);
    cleanups.push(() => a.close(), () => b.close());
    expect((await a.pool.query<{ version: number }>('SELECT version FROM schema_version')).rows).toEqual([{ version: PG_SCHEMA_VERSION }]);
    await a.pool.query('UPDATE schema_version SET version = version + 1');
    await expect(openPostgresStore(postgres!.url, { schema })).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'SCHEMA' && /newer than this server/.test(e.message));
  });

  it('names the database it cannot reach, without its password', async () => {
    await expect(openPostgresStore('postgres://someone:secret@127.0.0.1:1/nowhere')).rejects.toSatisfy(
      (e) => e instanceof StoreError && e.code === 'UNAVAILABLE' && e.message.includes('postgres://someone:***@127.0.0.1:1/nowhere') && !e.message.includes('secret'),
    );
  });
});

describe('a table server on PostgreSQL', () => {
  const serve = async (schema: string) => {
    const s = await startServer({ port: 0, host: '127.0.0.1', store: await openPostgresStore(postgres!.url, { schema }), logger: silent(), catalog: testCatalog(), webDist: null, httpRateLimit: UNLIMITED_HTTP, createAllowance: UNLIMITED_HTTP, limits: { snapshotEvery: 4 } });
    cleanups.push(() => s.close());
    return s;
  };

  it('serves commands over a real socket, applies a retry once, and a restarted server carries on from the stored log', async () => {
    const schema = `tk_${process.pid}_${++schemas}`;
    const first = await serve(schema);
    expect(first.store.kind).toBe('postgres');
    const t = await setupTable(first.url, 2);
    const gm = await Client.open(first.url, t.gm);
    const player = await Client.open(first.url, t.seats[0]!.token);
    for (let i = 0; i < 5; i++) expect((await gm.command({ type: 'clock.advance', unit: 'round' })).type).toBe('ack');
    // 2 seats + 5 rounds; the phone sends on the version it holds.
    await expect.poll(() => player.version).toBe(7);
    const note = await player.command({ type: 'log.note', text: 'from the phone' }, { commandId: 'phone-1' });
    expect(note).toMatchObject({ type: 'ack', version: 8 });
    // The same commandId again, on a stale version: answered with the first version, applied once.
    expect(await player.command({ type: 'log.note', text: 'from the phone' }, { commandId: 'phone-1', expectedVersion: 3 })).toMatchObject({ type: 'ack', version: 8, duplicate: true });
    expect(await gm.command({ type: 'log.note', text: 'stale' }, { expectedVersion: 2 })).toMatchObject({ type: 'rejection', error: { kind: 'VERSION_CONFLICT', current: 8 } });
    expect(await first.store.head(t.tableId)).toBe(8);
    // Two seat commands (tables.ts through the queue), a snapshot every 4 versions (a cache in the same transaction).
    expect((await first.store.latestSnapshot(t.tableId))?.version).toBe(8);
    const worldBefore = JSON.stringify(first.room(t.tableId)!.view({ role: 'gm' }).world);
    await Promise.all([gm.close(), player.close()]);
    await first.close();

    const second = await serve(schema);
    const again = await Client.open(second.url, t.gm);
    expect(again.version).toBe(8);
    expect(JSON.stringify(again.view!.world)).toBe(worldBefore);
    expect(await again.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'ack', version: 9 });
    // Revoked links stay revoked across servers: the store holds the tokens.
    expect((await http(second.url, 'DELETE', `/api/tables/${t.tableId}/seats/${t.seats[1]!.seatId}`, undefined, t.gm)).body).toEqual({ revoked: 1 });
    const seats = await http<{ seats: { seatId: string; tokens: number }[] }>(second.url, 'GET', `/api/tables/${t.tableId}/seats`, undefined, t.gm);
    expect(seats.body.seats.map((x) => x.tokens)).toEqual([1, 0]);
    expect((await http(second.url, 'GET', '/healthz')).status).toBe(200);
    await again.close();
  });
});
