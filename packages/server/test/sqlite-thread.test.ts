// The SQLite store whose writes run on a worker thread (ADR 107): what only it
// can do wrong. The thread dies before, inside or after a batch's COMMIT (the
// batch is failed, never hung, and nothing is applied twice); it dies too often
// (the store says so to the health check); the store closes while a batch is
// on its way (close waits for it and for the thread's database); a stale head
// fails the whole batch. The shared promises are in store-conformance.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Transaction, World } from '@tablekeeper/engine';
import { openSqliteStore, openSqliteThreadStore, StoreError, type SqliteThreadStore } from '../src/index.js';
import { Client, serversClosedAfterEach, setupTable, tempDir } from './helpers.js';

const genesis = { tableId: 't1', name: 'T', rulesetId: 'r', settings: {}, seats: {}, characters: {}, clock: { seconds: 0, counts: {} }, log: [], ext: {}, nextId: 1 } as unknown as World;
const tx = (seq: number): Transaction => ({ seq, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: `n${seq}` }, events: [] });
const table = (tableId = 't1') => ({ tableId, name: `Table ${tableId}`, rulesetId: 'r', genesis: { ...genesis, tableId }, createdAt: 1 });
const rec = (commandId: string | null, seq: number) => ({ commandId, actorKey: 'gm', transaction: tx(seq) });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function open(options: Parameters<typeof openSqliteThreadStore>[1] = {}): Promise<{ store: SqliteThreadStore; path: string }> {
  const t = tempDir();
  const path = join(t.dir, 'db.sqlite');
  const store = await openSqliteThreadStore(path, options);
  cleanups.push(async () => {
    await store.close();
    t.cleanup();
  });
  await store.createTable(table(), []);
  return { store, path };
}

/** Rows as a fresh connection reads them from the file. */
function stored(path: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT version FROM transactions JOIN tables USING (table_no) WHERE table_id = 't1' ORDER BY version").pluck().all() as number[];
  } finally {
    db.close();
  }
}

describe('SQLite writer thread', () => {
  it('a batch whose table is not at the room\'s version in the store fails as a whole: rejected, nothing saved, the next batch lands', async () => {
    const { store } = await open();
    await store.createTable(table('t2'), []);
    await store.append('t1', 0, rec('a', 1));
    // The room of t1 thinks its table is at 4: its row would leave a gap, and t2's row of the same batch goes too.
    await expect(store.commit([], (w) => [w.append('t2', 0, rec('b', 1)), w.append('t1', 4, rec(null, 5))])).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'CONFLICT');
    expect(await store.head('t1')).toBe(1);
    expect(await store.head('t2')).toBe(0);
    const { value, durable } = await store.commit([], (w) => w.append('t1', 1, rec('b', 2)));
    await durable;
    expect(value).toEqual({ ok: true, version: 2 });
    expect(await store.head('t1')).toBe(2);
  });

  it('answers a command id already stored from its read connection, in the batch that repeats it', async () => {
    const { store } = await open();
    const first = await store.commit([], (w) => w.append('t1', 0, rec('once', 1)));
    await first.durable;
    const again = await store.commit([], (w) => w.append('t1', 1, rec('once', 2)));
    expect(again.value).toMatchObject({ ok: false, reason: 'duplicate', existing: { version: 1 } });
    await again.durable;
    expect(await store.head('t1')).toBe(1);
  });

  it('reads the command ids a batch looks up on the writer thread, after the batch before it (ADR 122): a used id is a duplicate with its stored transaction, a new one lands, one left out of the keys is still answered', async () => {
    const { store } = await open();
    await store.createTable(table('t2'), []);
    // Not awaited for durability: the next batch is decided as soon as this one is committed, as the queue does.
    await store.commit([{ tableId: 't1', actorKey: 'gm', commandId: 'x' }], (w) => [w.append('t1', 0, rec('x', 1)), w.append('t2', 0, rec('y', 1))]);
    const keys = [
      { tableId: 't1', actorKey: 'gm', commandId: 'x' },
      { tableId: 't1', actorKey: 'player:s1', commandId: 'x' },
      { tableId: 't1', actorKey: 'gm', commandId: 'fresh' },
    ];
    const { value, durable } = await store.commit(keys, (w) => [
      w.append('t1', 1, rec('x', 2)),
      // Another sender's use of the same id is no duplicate (ids are per sender).
      w.append('t1', 1, { ...rec('x', 2), actorKey: 'player:s1' }),
      w.append('t1', 2, rec('fresh', 3)),
      // Not among the keys: answered from the read connection, as before.
      w.findCommand('t2', 'gm', 'y')?.transaction,
    ]);
    await durable;
    expect(value[0]).toEqual({ ok: false, reason: 'duplicate', existing: { version: 1, commandId: 'x', actorKey: 'gm', transaction: tx(1) } });
    expect(value.slice(1, 3)).toEqual([{ ok: true, version: 2 }, { ok: true, version: 3 }]);
    expect(value[3]).toEqual(tx(1));
    expect((await store.readLog('t1')).map((r) => [r.version, r.actorKey, r.commandId])).toEqual([[1, 'gm', 'x'], [2, 'player:s1', 'x'], [3, 'gm', 'fresh']]);
  });

  it('closed while a batch\'s command ids are read: the batch is refused before it decides, nothing applied', async () => {
    const { store, path } = await open();
    let decided = false;
    const batch = store.commit([{ tableId: 't1', actorKey: 'gm', commandId: 'late' }], (w) => {
      decided = true;
      return w.append('t1', 0, rec('late', 1));
    });
    const closing = store.close();
    await expect(batch).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'UNAVAILABLE' && /closed/.test(e.message));
    await closing;
    expect(decided).toBe(false);
    expect(stored(path)).toEqual([]);
  });

  for (const when of ['before', 'inside'] as const) {
    it(`the thread dies ${when === 'before' ? 'before a batch\'s transaction' : 'inside a batch\'s transaction'}: the batch is unconfirmed, nothing of it is stored, and the restarted thread takes the next one`, async () => {
      const { store, path } = await open();
      await store.append('t1', 0, rec('a', 1));
      store.dieAtNextCommit(when);
      const { value, durable } = await store.commit([], (w) => w.append('t1', 1, rec('b', 2)));
      expect(value).toEqual({ ok: true, version: 2 });
      await expect(durable).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'UNAVAILABLE' && /writer thread stopped/.test(e.message));
      // Reloaded from the store, the table is at 1; the retry with the same id lands once.
      expect(await store.head('t1')).toBe(1);
      expect(stored(path)).toEqual([1]);
      expect(store.restarts()).toBe(1);
      const retry = await store.commit([], (w) => w.append('t1', 1, rec('b', 2)));
      await retry.durable;
      expect(retry.value).toEqual({ ok: true, version: 2 });
      expect(await store.probeWrite()).toBeNull();
    });
  }

  it('the thread dies after a batch\'s COMMIT, before answering: unconfirmed, but stored, so the retry is answered as a duplicate', async () => {
    const { store, path } = await open();
    store.dieAtNextCommit('after');
    const { durable } = await store.commit([], (w) => w.append('t1', 0, rec('x', 1)));
    await expect(durable).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'UNAVAILABLE');
    expect(stored(path)).toEqual([1]);
    const retry = await store.commit([], (w) => w.append('t1', 0, rec('x', 1)));
    await retry.durable;
    expect(retry.value).toMatchObject({ ok: false, reason: 'duplicate', existing: { version: 1 } });
  });

  it('a thread that dies too often is not started again: every write is refused by name, and the health check says why', async () => {
    const { store } = await open({ restartsPerMinute: 1 });
    for (let i = 0; i < 2; i++) {
      store.dieAtNextCommit('before');
      const { durable } = await store.commit([], (w) => w.append('t1', 0, rec(null, 1)));
      await expect(durable).rejects.toBeInstanceOf(StoreError);
    }
    await expect(store.commit([], (w) => w.append('t1', 0, rec(null, 1)))).rejects.toThrow(/died 2 times within a minute/);
    await expect(store.head('t1')).rejects.toThrow(/died 2 times within a minute/);
    expect(String(await store.probeWrite())).toMatch(/restart the server/);
  });

  it('close during a batch: the batch is committed and answered first, close resolves after the thread closed the database, and later calls are refused', async () => {
    const { store, path } = await open({ durability: 'os-crash' });
    const batch = store.commit([], (w) => [w.append('t1', 0, rec('p', 1)), w.append('t1', 1, rec('q', 2))]);
    const closed = store.close();
    const { value, durable } = await batch;
    await durable;
    await closed;
    expect(value).toEqual([{ ok: true, version: 1 }, { ok: true, version: 2 }]);
    await expect(store.head('t1')).rejects.toThrow(/closed/);
    // The file and its lock are free: the in-thread store opens it and reads both rows.
    const again = openSqliteStore(path);
    try {
      expect(again.readLog('t1').map((r) => r.commandId)).toEqual(['p', 'q']);
    } finally {
      again.close();
      await again.whenClosed?.();
    }
  });

  it('one server per file: a second store on the same file is refused as LOCKED, whichever writer it uses', async () => {
    const { path } = await open();
    await expect(openSqliteThreadStore(path)).rejects.toSatisfy((e) => e instanceof StoreError && e.code === 'LOCKED');
    expect(() => openSqliteStore(path)).toThrow(/in use by another server/);
  });

  it('refuses a bad option by name before it starts a thread', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    await expect(openSqliteThreadStore(':memory:')).rejects.toThrow(/needs a file/);
    await expect(openSqliteThreadStore(join(t.dir, 'x.sqlite'), { durability: 'never' as never })).rejects.toThrow(/durability must be/);
    // The refused store left its lock behind it: a good one opens.
    const ok = await openSqliteThreadStore(join(t.dir, 'x.sqlite'));
    await ok.close();
  });
});

describe('a table server whose SQLite writer is a thread', () => {
  const server = serversClosedAfterEach();

  it('a writer thread that dies mid-batch: the command is answered UNAVAILABLE (never hangs), the retry with the same id is applied once', async () => {
    const s = await server({ sqliteWriter: 'thread' });
    const store = s.store as SqliteThreadStore;
    const t = await s.createTable('Thread', 'core-only');
    if ('error' in t) throw new Error(t.error.message);
    const gm = await Client.open(s.url, t.gmToken);
    const v = gm.version;
    store.dieAtNextCommit('inside');
    const lost = await gm.command({ type: 'log.note', text: 'lost once' }, { commandId: 'c1', expectedVersion: v });
    expect(lost).toMatchObject({ type: 'rejection', commandId: 'c1', error: { kind: 'UNAVAILABLE' } });
    gm.close();
    const again = await Client.open(s.url, t.gmToken);
    expect(again.version).toBe(v);
    const ok = await again.command({ type: 'log.note', text: 'lost once' }, { commandId: 'c1', expectedVersion: v });
    expect(ok).toMatchObject({ commandId: 'c1', version: v + 1 });
    const dup = await again.command({ type: 'log.note', text: 'lost once' }, { commandId: 'c1', expectedVersion: v });
    expect(dup).toMatchObject({ type: 'ack', commandId: 'c1', version: v + 1, duplicate: true });
    expect(await s.store.head(t.tableId)).toBe(v + 1);
    again.close();
  });

  it('group commits over real sockets: commands of two tables sent in one turn land once each, a resent id is answered as a duplicate, a restarted server loads the tables through the thread, and the backup route copies the file', async () => {
    const admin = 'admin-' + 'y'.repeat(30);
    const s = await server({ sqliteWriter: 'thread', adminToken: admin });
    const a = await setupTable(s.url, 1);
    const b = await setupTable(s.url, 1);
    const gmA = await Client.open(s.url, a.gm);
    const gmB = await Client.open(s.url, b.gm);
    const player = await Client.open(s.url, a.seats[0]!.token);
    const va = gmA.version;
    // Same turn, two tables and two senders: one group commit (or a few), every command applied once.
    const answers = await Promise.all([
      gmA.command({ type: 'log.note', text: 'a1' }, { commandId: 'a1', expectedVersion: va }),
      gmB.command({ type: 'log.note', text: 'b1' }, { commandId: 'b1', expectedVersion: gmB.version }),
      player.command({ type: 'log.note', text: 'p1' }, { commandId: 'p1', expectedVersion: va }),
    ]);
    expect(answers[0]).toMatchObject({ type: 'ack', version: va + 1 });
    expect(answers[1]).toMatchObject({ type: 'ack' });
    // The player's command raced the GM's on the same version: refused as stale, not lost.
    expect(answers[2]).toMatchObject({ type: 'rejection', error: { kind: 'VERSION_CONFLICT' } });
    await player.reach(va + 1);
    expect(await player.command({ type: 'log.note', text: 'p1' }, { commandId: 'p1', expectedVersion: va + 1 })).toMatchObject({ type: 'ack', version: va + 2 });
    // Resent after its ack (a lost answer): the first outcome, nothing applied again.
    expect(await gmA.command({ type: 'log.note', text: 'a1' }, { commandId: 'a1', expectedVersion: va })).toMatchObject({ type: 'ack', version: va + 1, duplicate: true });
    await gmA.reach(va + 2);
    const view = JSON.stringify(gmA.view);
    expect(await s.store.head(a.tableId)).toBe(va + 2);
    const res = await fetch(s.url + '/api/backup', { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    const file = join(s.dir, 'copy.sqlite');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const copy = new Database(file, { readonly: true });
    expect(copy.prepare('SELECT count(*) FROM transactions JOIN tables USING (table_no) WHERE table_id = ?').pluck().get(a.tableId)).toBe(va + 2);
    copy.close();
    await Promise.all([gmA.close(), gmB.close(), player.close()]);
    // The same file again: the table loads from the thread's reads and shows what the GM saw.
    const dbPath = s.dbPath!;
    await s.close();
    const again = await server({ sqliteWriter: 'thread', dbPath });
    const back = await Client.open(again.url, a.gm);
    expect(back.version).toBe(va + 2);
    expect(JSON.stringify(back.view)).toBe(view);
    await back.close();
  });

  it('refuses an unknown writer by name', async () => {
    await expect(server({ sqliteWriter: 'elsewhere' as never })).rejects.toThrow(/'thread' or 'loop'/);
  });
});
