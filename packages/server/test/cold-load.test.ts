// Cold loads in slices (ADR 24): after a restart, the first visitor of a big
// table gets the same table as before, from the newest snapshot plus the rows
// after it, while the event loop keeps serving other tables between pages.
// Real HTTP and WebSocket against a real SQLite file, restarted for real.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreModule, createEngine, emptyTable, seededRng, type Command, type Transaction } from '@tablekeeper/engine';
import { PROTOCOL_VERSION } from '@tablekeeper/protocol';
import { loadTableInSlices } from '../src/cold-load.js';
import { asyncStore, memoryStore, openSqliteStore, Room, startServer } from '../src/index.js';
import { Client, http, setupTable, silent, tempDir, testCatalog, TEST_RULESET } from './helpers.js';

const engine = createEngine([coreModule]);

/** An export of a core table with `n` transactions (rounds, notes, an undo and a redo every 50). */
function exportOf(n: number): string {
  let t = engine.createTable({ tableId: 'src', name: 'Long', rulesetId: TEST_RULESET });
  const rng = seededRng(11);
  const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: 'src', rulesetId: TEST_RULESET, name: 'Long', genesis: t.genesis })];
  for (let i = 1; i <= n; i++) {
    const c: Command = i % 50 === 0 ? { type: 'history.undo' } : i % 50 === 1 && i > 1 ? { type: 'history.redo' } : i % 3 === 0 ? { type: 'log.note', text: `n${i}` } : { type: 'clock.advance', unit: 'round' };
    const r = engine.execute(t, c, { rng, actor: { role: 'gm' } });
    if (!r.ok) throw new Error(`setup ${i}: ${r.error.message}`);
    t = r.value.table;
    lines.push(JSON.stringify({ kind: 'transaction', version: i, commandId: null, transaction: r.value.transaction }));
  }
  return lines.join('\n') + '\n';
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function serve(dbPath: string) {
  return startServer({ port: 0, host: '127.0.0.1', dbPath, logger: silent(), catalog: testCatalog(), webDist: null, limits: { maxImportBytes: 64 * 1024 * 1024, maxTransactions: 50_000 } });
}

/**
 * Imports an `n`-transaction table beside a small one, lets `beforeRestart` play on it, then restarts the
 * server so the big table is cold; the small table's GM is connected again.
 */
async function coldBigTable(n: number, beforeRestart: (url: string, gmToken: string) => Promise<void> = async () => {}) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const dbPath = join(t.dir, 'db.sqlite');
  const first = await serve(dbPath);
  const big = await http<{ tableId: string; gmToken: string }>(first.url, 'POST', '/api/tables/import', exportOf(n));
  expect(big.status).toBe(201);
  const other = await setupTable(first.url, 0);
  await beforeRestart(first.url, big.body.gmToken);
  await first.close();

  const s = await serve(dbPath);
  cleanups.push(() => s.close());
  const otherGm = await Client.open(s.url, other.gm);
  expect(s.rooms.has(big.body.tableId)).toBe(false);
  return { s, big: big.body, other, otherGm };
}

/** Three commands on the small table, each noting its ack in `order` when it comes. */
function otherTableAcks(otherGm: Client, order: string[]): Promise<unknown[]> {
  const acks: Promise<unknown>[] = [];
  for (let i = 0; i < 3; i++) {
    acks.push(otherGm.command({ type: 'clock.advance', unit: 'round' }, { expectedVersion: otherGm.version + i }).then((a) => (order.push(`other ack ${i}`), a)));
  }
  return Promise.all(acks);
}

describe('cold loads in slices', () => {
  it('after a restart, loads a 30,000-transaction table to the same view while another table answers commands', { timeout: 120_000 }, async () => {
    let before: unknown;
    const { s, big, otherGm } = await coldBigTable(30_000, async (url, gmToken) => {
      // A few commands after the import's snapshot, so the load applies a tail too.
      const gm0 = await Client.open(url, gmToken);
      for (let i = 0; i < 3; i++) expect(await gm0.command({ type: 'log.note', text: `after ${i}` })).toMatchObject({ type: 'ack' });
      await gm0.reach(30_003);
      before = gm0.view;
      await gm0.close();
    });
    // The big table's GM connects (its room loads in slices) while the other table's GM plays.
    const order: string[] = [];
    const opening = Client.open(s.url, big.gmToken).then((c) => (order.push('big table loaded'), c));
    await otherTableAcks(otherGm, order);
    const gm = await opening;
    expect(order.indexOf('other ack 0')).toBeLessThan(order.indexOf('big table loaded'));
    expect(gm.version).toBe(30_003);
    expect(gm.view).toEqual(before);
    // The loaded room goes on: undo, and a new command.
    expect(await gm.command({ type: 'history.undo' })).toMatchObject({ type: 'ack', version: 30_004 });
    await Promise.all([gm.close(), otherGm.close()]);
  });

  it("a GM's first HTTP call on a big cold table loads it in slices: another table's commands are answered first, and the room is kept", { timeout: 120_000 }, async () => {
    const { s, big, other, otherGm } = await coldBigTable(20_000);
    const order: string[] = [];
    const seats = http<{ seats: unknown[] }>(s.url, 'GET', `/api/tables/${big.tableId}/seats`, undefined, big.gmToken).then((r) => (order.push('seats answered'), r));
    await otherTableAcks(otherGm, order);
    const answer = await seats;
    expect(answer.status).toBe(200);
    expect(answer.body.seats).toEqual([]);
    expect(order.indexOf('other ack 0')).toBeLessThan(order.indexOf('seats answered'));
    // The loaded room serves the next call and the sockets: no second load.
    const room = s.rooms.get(big.tableId);
    expect(room?.version).toBe(20_000);
    expect((await http(s.url, 'POST', `/api/tables/${big.tableId}/seats`, { name: 'Kira' }, big.gmToken)).status).toBe(201);
    expect(s.rooms.get(big.tableId)).toBe(room);
    expect(room?.version).toBe(20_001);
    // Another table's id with this GM's token is refused before anything loads.
    expect((await http(s.url, 'GET', `/api/tables/${other.tableId}x/seats`, undefined, big.gmToken)).status).toBe(403);
    await otherGm.close();
  });

  it('gives the event loop a turn after every page, and equals the one-go load with, without, and past a snapshot', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const store = openSqliteStore(join(t.dir, 'db.sqlite'));
    cleanups.push(() => store.close());
    const lines = exportOf(2_600).trim().split('\n').slice(1);
    const genesis = engine.createTable({ tableId: 't1', name: 'Long', rulesetId: TEST_RULESET }).genesis;
    const record = { tableId: 't1', name: 'Long', rulesetId: TEST_RULESET, genesis, createdAt: 1 };
    store.createTable(record, []);
    const txs = lines.map((l) => (JSON.parse(l) as { transaction: Transaction }).transaction);
    store.importRows('t1', txs.map((tx, i) => ({ version: i + 1, commandId: null, actorKey: 'gm', tx: JSON.stringify(tx) })));
    const live = engine.replay(genesis, txs);
    const same = (a: { world: unknown; live: { toArray(): unknown }; redoable: { toArray(): unknown }; transactions: { length: number } }) => ({ world: a.world, live: a.live.toArray(), redoable: a.redoable.toArray(), n: a.transactions.length });

    // No snapshot: a replay from the genesis, with turns for the loop in between.
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const plain = await loadTableInSlices(asyncStore(store), engine, record);
    counting = false;
    expect(turns).toBeGreaterThanOrEqual(5); // 2,600 rows in pages of 500, at least
    expect(same(plain)).toEqual(same(live));
    expect(same(plain)).toEqual(same(Room.load(store, engine, record).table));

    // A snapshot at 2,000: the rows after it are applied on top of it, to the same table.
    const at2000 = engine.replay(genesis, txs.slice(0, 2000));
    const { encodeSnapshot } = await import('../src/snapshot.js');
    store.putSnapshot('t1', 2000, encodeSnapshot(at2000));
    const fromSnap = await loadTableInSlices(asyncStore(store), engine, record);
    expect(same(fromSnap)).toEqual(same(live));
    // The undo stack still reaches below the snapshot.
    const undone = engine.execute(fromSnap, { type: 'history.undo' }, { rng: seededRng(1), actor: { role: 'gm' } });
    const undoneLive = engine.execute(live, { type: 'history.undo' }, { rng: seededRng(1), actor: { role: 'gm' } });
    expect(undone.ok && undoneLive.ok && undone.value.table.world).toEqual(undoneLive.ok && undoneLive.value.table.world);

    // A snapshot that does not fit this table (another genesis) is ignored: a full replay.
    store.putSnapshot('t1', 2500, encodeSnapshot(emptyTable({ ...genesis, name: 'Other' })));
    expect(same(await loadTableInSlices(asyncStore(store), engine, record))).toEqual(same(live));
  });

  it('answers one load to two visitors who come at once, and null for a table that does not exist', async () => {
    const store = memoryStore();
    const { Tables } = await import('../src/tables.js');
    const { DEFAULT_LIMITS } = await import('../src/tables.js');
    const tables = new Tables(asyncStore(store), testCatalog(), DEFAULT_LIMITS);
    const made = await tables.createTable('T', TEST_RULESET);
    if ('error' in made) throw new Error(made.error.message);
    const [a, b] = await Promise.all([tables.load(made.tableId), tables.load(made.tableId)]);
    expect(a).not.toBeNull();
    expect(a).toBe(b);
    expect(tables.room(made.tableId)).toBe(a);
    expect(await tables.load('no-such-table')).toBeNull();
  });
});
