// One authority per table (issue 22, ADR 54): the same lease suite against
// leases in memory and in a real PostgreSQL started on loopback by this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { MemoryLeaseStore, PgLeaseStore, type Lease, type LeaseStore } from '../src/cluster/lease.js';
import { startPostgres, type StartedPostgres } from '../../../scripts/postgres.mjs';

interface Subject {
  readonly leases: LeaseStore;
  /** Lets the given time pass for the store's clock (memory: at once; PostgreSQL: waits until the lease has lapsed). */
  pass(ms: number, tableId: string): Promise<void>;
  /** Statements sent to the database so far (PostgreSQL), to count round trips; absent in memory. */
  readonly statements?: () => number;
}

let n = 0;
const table = () => `t_lease${++n}_${process.pid}`;

function leaseSuite(name: string, make: () => Promise<Subject>): void {
  describe(`lease conformance: ${name}`, () => {
    it('a free table is leased at epoch 1; another instance is refused while it is live; the holder renews at the same epoch', async () => {
      const { leases } = await make();
      const t = table();
      const a = await leases.acquire(t, 'a', 5_000);
      expect(a).toMatchObject({ tableId: t, owner: 'a', epoch: 1 });
      expect(await leases.holder(t)).toMatchObject({ owner: 'a', epoch: 1 });
      expect(await leases.acquire(t, 'b', 5_000)).toBeNull();
      const again = await leases.acquire(t, 'a', 5_000);
      expect(again).toMatchObject({ owner: 'a', epoch: 1 });
      const renewed = await leases.renew(a!, 5_000);
      expect(renewed).toMatchObject({ owner: 'a', epoch: 1 });
      expect(renewed!.expiresAt).toBeGreaterThanOrEqual(a!.expiresAt);
    });

    it('a lapsed lease passes to the next instance at a higher epoch; the old holder can no longer renew or release it', async () => {
      const { leases, pass } = await make();
      const t = table();
      const a = (await leases.acquire(t, 'a', 200))!;
      await pass(200, t);
      expect(await leases.holder(t)).toBeNull();
      const b = await leases.acquire(t, 'b', 5_000);
      expect(b).toMatchObject({ owner: 'b', epoch: 2 });
      expect(await leases.renew(a, 5_000)).toBeNull();
      await leases.release(a);
      expect(await leases.holder(t)).toMatchObject({ owner: 'b', epoch: 2 });
      // Even the same instance coming back after a lapse is a new holding: a new epoch fences what it wrote before.
      await leases.release(b!);
      const a2 = await leases.acquire(t, 'a', 5_000);
      expect(a2).toMatchObject({ owner: 'a', epoch: 3 });
    });

    it('a released lease is free at once, and its epoch is never reused', async () => {
      const { leases } = await make();
      const t = table();
      const a = (await leases.acquire(t, 'a', 5_000))!;
      await leases.release(a);
      expect(await leases.holder(t)).toBeNull();
      expect(await leases.renew(a, 5_000)).toBeNull();
      expect(await leases.acquire(t, 'b', 5_000)).toMatchObject({ owner: 'b', epoch: 2 });
    });

    it('of eight instances asking at once, exactly one gets the lease', async () => {
      const { leases } = await make();
      const t = table();
      const got = await Promise.all(Array.from({ length: 8 }, (_, i) => leases.acquire(t, `i${i}`, 5_000)));
      const winners = got.filter((l): l is Lease => l !== null);
      expect(winners).toHaveLength(1);
      expect(await leases.holder(t)).toMatchObject({ owner: winners[0]!.owner, epoch: 1 });
    });

    it('renews every lease an owner holds in one query: the ones still ours come back at the same epoch, a lapsed-and-taken or released one does not', async () => {
      const { leases, pass, statements } = await make();
      const [t1, t2, t3, gone, given] = [table(), table(), table(), table(), table()];
      const mine: Lease[] = [];
      for (const t of [t1, t2, t3, given]) mine.push((await leases.acquire(t, 'a', 5_000))!);
      const short = (await leases.acquire(gone, 'a', 200))!;
      await pass(200, gone);
      const taken = (await leases.acquire(gone, 'b', 5_000))!;
      await leases.release(mine[3]!);
      const before = statements?.() ?? 0;
      const renewed = await leases.renewAll([...mine, short], 5_000);
      // One round trip whatever the number of tables (PostgreSQL; memory has none to count).
      if (statements !== undefined) expect(statements() - before).toBe(1);
      expect([...renewed.keys()].sort()).toEqual([t1, t2, t3].sort());
      for (const l of mine.slice(0, 3)) {
        expect(renewed.get(l.tableId)).toMatchObject({ owner: 'a', epoch: l.epoch });
        expect(renewed.get(l.tableId)!.expiresAt).toBeGreaterThanOrEqual(l.expiresAt);
      }
      // The other holder's lease is untouched; nothing is renewed for an empty list.
      expect(await leases.holder(gone)).toMatchObject({ owner: 'b', epoch: taken.epoch });
      expect(await leases.renewAll([], 5_000)).toEqual(new Map());
    });

    it('tells in one query which of many tables are free to take: never leased, released or lapsed, not one live lease', async () => {
      const { leases, pass, statements } = await make();
      const [live, lapsed, never, released] = [table(), table(), table(), table()];
      await leases.acquire(live, 'a', 5_000);
      await leases.acquire(lapsed, 'a', 200);
      await leases.release((await leases.acquire(released, 'b', 5_000))!);
      await pass(200, lapsed);
      const before = statements?.() ?? 0;
      expect([...(await leases.free([live, lapsed, never, released]))].sort()).toEqual([lapsed, never, released].sort());
      if (statements !== undefined) expect(statements() - before).toBe(1);
      expect(await leases.free([])).toEqual(new Set());
    });

    it('refuses a lease length outside 100 ms to 60 s, saying which', async () => {
      const { leases } = await make();
      await expect(leases.acquire(table(), 'a', 0)).rejects.toThrow(/ttlMs must be an integer from 100 to 60000, not 0/);
      await expect(leases.acquire(table(), 'a', 1.5e6)).rejects.toThrow(/not 1500000/);
    });
  });
}

leaseSuite('memory', async () => {
  let now = 1_000_000;
  return {
    leases: new MemoryLeaseStore(() => now),
    pass: async (ms) => void (now += ms + 1),
  };
});

describe('postgres', () => {
  let server: StartedPostgres | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
    // The server's shutdown ends idle connections ("administrator command"): expected here, not a failure.
    pool.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  leaseSuite('PostgreSQL (a real server on loopback)', async () => {
    // The pool, counting the statements the lease store sends through it.
    let sent = 0;
    const counting = new Proxy(pool!, {
      get: (target, key) => (key === 'query' ? (...args: unknown[]) => (sent++, (target.query as (...a: unknown[]) => unknown).apply(target, args)) : Reflect.get(target, key, target)),
    });
    const leases = await PgLeaseStore.open(counting);
    return {
      leases,
      statements: () => sent,
      // PostgreSQL's clock decides: wait until the lease reads as lapsed there.
      pass: async (_ms, tableId) => {
        for (let i = 0; i < 200 && (await leases.holder(tableId)) !== null; i++) await new Promise((r) => setTimeout(r, 25));
      },
    };
  });
});

describe('leases over any run of takes, renewals, releases and lapses (property, memory)', () => {
  it('at most one live holder; the epoch grows at every change of holder and never otherwise', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('acquire' as const), who: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ kind: fc.constant('renew' as const), who: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ kind: fc.constant('release' as const), who: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 400 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        let now = 0;
        const leases = new MemoryLeaseStore(() => now);
        const mine = new Map<string, Lease>();
        let last: Lease | null = null;
        for (const o of ops) {
          if (o.kind === 'wait') now += o.ms;
          else if (o.kind === 'acquire') {
            const l = await leases.acquire('t', o.who, 300);
            if (l !== null) mine.set(o.who, l);
          } else if (o.kind === 'renew') {
            const held = mine.get(o.who);
            if (held !== undefined) {
              const l = await leases.renew(held, 300);
              const live = await leases.holder('t');
              // A renewal works exactly for the live holder of that epoch.
              expect(l !== null).toBe(live !== null && live.owner === o.who && live.epoch === held.epoch);
              if (l !== null) mine.set(o.who, l);
            }
          } else {
            const held = mine.get(o.who);
            if (held !== undefined) await leases.release(held);
          }
          const live = await leases.holder('t');
          if (live !== null) {
            if (last !== null) {
              if (live.owner !== last.owner) expect(live.epoch).toBeGreaterThan(last.epoch);
              else expect(live.epoch).toBeGreaterThanOrEqual(last.epoch);
            }
            last = live;
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
