// Optimistic concurrency and idempotency: two writers at the same
// expectedVersion -> exactly one wins; a retried commandId is applied once,
// also across reconnects; the room is the single writer of its table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coreModule, createEngine, seededRng } from '@tablekeeper/engine';
import { join } from 'node:path';
import { DEFAULT_ROOM_LIMITS, memoryStore, openSqliteStore, Room } from '../src/index.js';
import { Client, setupTable, tempDir, testServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer();
});
afterAll(async () => {
  await srv.cleanup();
});

describe('two writers, one version', () => {
  it('lets exactly one of two same-version commands win, every time', async () => {
    const t = await setupTable(srv.url, 1);
    const a = await Client.open(srv.url, t.gm);
    const b = await Client.open(srv.url, t.seats[0]!.token);
    const room = srv.room(t.tableId)!;
    for (let round = 0; round < 20; round++) {
      await Promise.all([a.reach(room.version), b.reach(room.version)]);
      const v = room.version;
      const [ra, rb] = await Promise.all([a.command({ type: 'log.note', text: `a${round}` }, { expectedVersion: v }), b.command({ type: 'log.note', text: `b${round}` }, { expectedVersion: v })]);
      const acks = [ra, rb].filter((r) => r.type === 'ack');
      const conflicts = [ra, rb].filter((r) => r.type === 'rejection' && r.error.kind === 'VERSION_CONFLICT');
      expect(acks).toHaveLength(1);
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toMatchObject({ error: { kind: 'VERSION_CONFLICT', current: v + 1 } });
      expect(srv.store.sync!.head(t.tableId)).toBe(v + 1);
    }
    await Promise.all([a.close(), b.close()]);
  });
});

describe('retries', () => {
  it('applies a retried commandId once, also from a new connection with a stale version', async () => {
    const t = await setupTable(srv.url, 1);
    const gm = await Client.open(srv.url, t.gm);
    const v = gm.version;
    const first = await gm.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'retry-me' });
    const second = await gm.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'retry-me', expectedVersion: v });
    expect(first).toMatchObject({ type: 'ack', version: v + 1, duplicate: false });
    expect(second).toMatchObject({ type: 'ack', version: v + 1, duplicate: true });
    await gm.close();
    const again = await Client.open(srv.url, t.gm);
    expect(await again.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'retry-me', expectedVersion: v })).toMatchObject({ type: 'ack', version: v + 1, duplicate: true });
    expect(srv.store.sync!.head(t.tableId)).toBe(v + 1);
    expect(srv.room(t.tableId)!.table.world.clock.counts.round).toBe(1);
    // ids are per sender: a player using the GM's id gets an ordinary fresh command (no oracle on others' ids)
    const p = await Client.open(srv.url, t.seats[0]!.token);
    const own = await p.command({ type: 'log.note', text: 'x' }, { commandId: 'retry-me' });
    expect(own).toMatchObject({ type: 'ack', version: v + 2, duplicate: false });
    const ownRetry = await p.command({ type: 'log.note', text: 'x' }, { commandId: 'retry-me', expectedVersion: v + 1 });
    expect(ownRetry).toMatchObject({ type: 'ack', version: v + 2, duplicate: true });
    expect(srv.store.sync!.head(t.tableId)).toBe(v + 2);
    await Promise.all([again.close(), p.close()]);
  });

  it('sends the same burst of retries and applies each id once (property, memory store)', () => {
    const engine = createEngine([coreModule]);
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.integer({ min: 0, max: 6 }), stale: fc.boolean() }), { minLength: 1, maxLength: 40 }), (sends) => {
        const store = memoryStore();
        const table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'core' });
        store.createTable({ tableId: 't', name: 'T', rulesetId: 'core', genesis: table.genesis, createdAt: 0 }, []);
        const room = Room.load(store, engine, store.getTable('t')!);
        room.useRng(seededRng(1));
        const versionOf = new Map<number, number>();
        for (const s of sends) {
          const r = room.submit({ role: 'gm' }, `cmd-${s.id}`, s.stale ? Math.max(0, room.version - 1) : room.version, { type: 'clock.advance', unit: 'turn' });
          if (versionOf.has(s.id)) {
            expect(r).toMatchObject({ ok: true, duplicate: true, version: versionOf.get(s.id) });
          } else if (r.ok) {
            versionOf.set(s.id, r.version);
          } else {
            expect(r.error.kind).toBe('VERSION_CONFLICT');
          }
        }
        expect(store.head('t')).toBe(versionOf.size);
        expect(room.table.world.clock.counts.turn).toBe(versionOf.size);
        // no gaps: versions 1..n, each once
        expect(store.readLog('t').map((x) => x.version)).toEqual([...Array(versionOf.size).keys()].map((i) => i + 1));
      }),
      { numRuns: 200 },
    );
  });

  // The id is looked up only on the way to a refusal (ADR 63): a retry the rules would now refuse, or that finds
  // the log full, still gets its first outcome, on both embedded stores (SQLite finds a used id by its UNIQUE key).
  it.each(['memory', 'sqlite'] as const)('answers a retry with its first outcome when the rules or the log cap would now refuse it (%s store)', (kind) => {
    const engine = createEngine([coreModule]);
    const t = tempDir();
    const store = kind === 'memory' ? memoryStore() : openSqliteStore(join(t.dir, 'db.sqlite'));
    try {
      const table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'core' });
      store.createTable({ tableId: 't', name: 'T', rulesetId: 'core', genesis: table.genesis, createdAt: 0 }, []);
      const room = Room.load(store, engine, store.getTable('t')!, { ...DEFAULT_ROOM_LIMITS, maxTransactions: 3 });
      const added = room.submit({ role: 'gm' }, 'add', 0, { type: 'character.add', name: 'Mira', kind: 'npc' });
      expect(added).toMatchObject({ ok: true, version: 1, duplicate: false });
      const id = String(added.ok && added.transaction?.kind === 'command' ? added.transaction.events[0]?.['id'] : '');
      expect(room.submit({ role: 'gm' }, 'remove', 1, { type: 'character.remove', id })).toMatchObject({ ok: true, version: 2, duplicate: false });
      // At the current version the removal would now fail (no such character): the retry is still its first success.
      expect(room.submit({ role: 'gm' }, 'remove', 2, { type: 'character.remove', id })).toMatchObject({ ok: true, version: 2, duplicate: true });
      // A fresh id for the same removal is refused by the rules, not taken for a retry.
      expect(room.submit({ role: 'gm' }, 'remove-again', 2, { type: 'character.remove', id })).toMatchObject({ ok: false, error: { kind: 'RULE_ERROR' } });
      expect(room.submit({ role: 'gm' }, 'last', 2, { type: 'log.note', text: 'fills the log' })).toMatchObject({ ok: true, version: 3, duplicate: false });
      // The log is full: a retry is still answered, a new command is refused with the limit.
      expect(room.submit({ role: 'gm' }, 'add', 3, { type: 'character.add', name: 'Mira', kind: 'npc' })).toMatchObject({ ok: true, version: 1, duplicate: true });
      expect(room.submit({ role: 'gm' }, 'new', 3, { type: 'log.note', text: 'no room' })).toMatchObject({ ok: false, error: { kind: 'LIMIT_REACHED' } });
      expect(store.head('t')).toBe(3);
      expect(store.readLog('t').map((r) => r.commandId)).toEqual(['add', 'remove', 'last']);
    } finally {
      store.close();
      t.cleanup();
    }
  });

  it('does not apply a command the store failed to persist', () => {
    const engine = createEngine([coreModule]);
    const store = memoryStore();
    const table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'core' });
    store.createTable({ tableId: 't', name: 'T', rulesetId: 'core', genesis: table.genesis, createdAt: 0 }, []);
    const room = Room.load(store, engine, store.getTable('t')!);
    store.append = () => {
      throw new Error('disk full');
    };
    const r = room.submit({ role: 'gm' }, 'x', 0, { type: 'clock.advance', unit: 'turn' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'UNAVAILABLE' } });
    expect(room.version).toBe(0);
    expect(room.table.world.clock.counts.turn).toBe(0);
  });
});

describe('group commit', () => {
  it('decides commands from many tables in one write transaction and acknowledges only after it commits', async () => {
    const tables = await Promise.all([0, 1, 2].map(() => setupTable(srv.url, 0)));
    const gms = await Promise.all(tables.map((t) => Client.open(srv.url, t.gm)));
    let commits = 0;
    const store = srv.store.sync as unknown as { commit: <T>(fn: () => T) => { value: T; durable: Promise<void> } };
    const orig = store.commit.bind(srv.store.sync);
    store.commit = <T>(fn: () => T) => {
      commits++;
      return orig(fn);
    };
    try {
      // sent in one burst: they share one event-loop turn on the server
      const answers = await Promise.all(gms.flatMap((c) => [c.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'g1', expectedVersion: 0 }), c.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'g2', expectedVersion: 1 })]));
      expect(answers.map((a) => a.type)).toEqual(Array(6).fill('ack'));
      expect(commits).toBeLessThan(6);
      for (const t of tables) expect(srv.store.sync!.head(t.tableId)).toBe(2);
    } finally {
      store.commit = orig;
    }
    await Promise.all(gms.map((c) => c.close()));
  });

  it('rolls every room back and rejects with UNAVAILABLE when the commit fails', async () => {
    const t = await setupTable(srv.url, 1);
    const gm = await Client.open(srv.url, t.gm);
    const p = await Client.open(srv.url, t.seats[0]!.token);
    const room = srv.room(t.tableId)!;
    const v = room.version;
    const store = srv.store.sync as unknown as { commit: <T>(fn: () => T) => { value: T; durable: Promise<void> } };
    const orig = store.commit.bind(srv.store.sync);
    store.commit = <T>(fn: () => T) =>
      orig(() => {
        fn();
        throw new Error('disk I/O error'); // the COMMIT never happens
      });
    let failed;
    try {
      failed = await gm.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'doomed' });
    } finally {
      store.commit = orig;
    }
    expect(failed).toMatchObject({ type: 'rejection', error: { kind: 'UNAVAILABLE' } });
    expect(room.version).toBe(v);
    expect(srv.store.sync!.head(t.tableId)).toBe(v);
    expect(room.table.world.clock.counts.round).toBe(0);
    expect(p.messages.filter((m) => m.type === 'delta')).toEqual([]);
    // the same commandId goes through once the store is healthy
    expect(await gm.command({ type: 'clock.advance', unit: 'round' }, { commandId: 'doomed', expectedVersion: v })).toMatchObject({ type: 'ack', version: v + 1, duplicate: false });
    await Promise.all([gm.close(), p.close()]);
  });
});
