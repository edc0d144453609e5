// Import as a bounded job (ADR 19), over real HTTP and WebSocket against a
// real SQLite file: a 100k-transaction export is checked in a worker thread
// while another table keeps playing (its commands and /healthz are answered
// before the import finishes); the imported table undoes like the one that
// was exported; a refusal half-way keeps nothing; every cap (bytes,
// transactions, the per-address allowance) refuses clearly, in the worker and
// on the event loop alike.
import { describe, expect, it } from 'vitest';
import { coreModule, createEngine, emptyTable, seededRng, type Command, type Table } from '@tablekeeper/engine';
import { PROTOCOL_VERSION } from '@tablekeeper/protocol';
import { encodeSnapshot, tableFromSnapshot } from '../src/snapshot.js';
import { coreCatalog } from './fixtures/core-catalog.js';
import { Client, http, setupTable, serversClosedAfterEach, TEST_RULESET } from './helpers.js';

const server = serversClosedAfterEach();

const engine = createEngine([coreModule]);

/** An export (JSON Lines) of a core table with `n` transactions: clock advances, notes, and an undo/redo now and then. */
function exportOf(n: number): { text: string; table: Table } {
  let t = engine.createTable({ tableId: 'src', name: 'Long campaign', rulesetId: TEST_RULESET });
  const rng = seededRng(7);
  const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: 'src', rulesetId: TEST_RULESET, name: 'Long campaign', genesis: t.genesis })];
  for (let i = 1; i <= n; i++) {
    const c: Command = i % 50 === 0 ? { type: 'history.undo' } : i % 50 === 1 && i > 1 ? { type: 'history.redo' } : i % 3 === 0 ? { type: 'log.note', text: `n${i}` } : { type: 'clock.advance', unit: 'round' };
    const r = engine.execute(t, c, { rng, actor: { role: 'gm' } });
    if (!r.ok) throw new Error(`setup ${i}: ${r.error.message}`);
    t = r.value.table;
    lines.push(JSON.stringify({ kind: 'transaction', version: i, commandId: i % 2 === 0 ? `c${i}` : null, transaction: r.value.transaction }));
  }
  return { text: lines.join('\n') + '\n', table: t };
}

describe('import as a bounded job', () => {
  it('imports 100,000 transactions while another table keeps answering commands and /healthz answers 200, and the imported table undoes', async () => {
    const N = 100_000;
    // The default: checked on the event loop in slices, rows written in short transactions between them.
    // Room for the undo after the import (a table's log holds maxTransactions).
    const s = await server({ limits: { maxImportBytes: 64 * 1024 * 1024, maxTransactions: N + 10 } });
    const other = await setupTable(s.url, 0);
    const gm = await Client.open(s.url, other.gm);
    const { text, table } = exportOf(N);

    let importDone = false;
    const importing = http<{ tableId: string; gmToken: string }>(s.url, 'POST', '/api/tables/import', text).finally(() => (importDone = true));
    // Play on the other table until the import answers: each command must be acknowledged while it runs.
    let ackedDuring = 0;
    let healthyDuring = 0;
    while (!importDone) {
      const [ack, health] = await Promise.all([gm.command({ type: 'clock.advance', unit: 'round' }, { expectedVersion: gm.version }), http(s.url, 'GET', '/healthz')]);
      expect(ack.type, JSON.stringify(ack)).toBe('ack');
      expect(health.status).toBe(200);
      await gm.reach((ack as { version: number }).version);
      if (!importDone) {
        ackedDuring++;
        healthyDuring++;
      }
      // A table at play sends a few commands a second, well inside the per-socket message rate.
      await new Promise((r) => setTimeout(r, 100));
    }
    const im = await importing;
    expect(im.status).toBe(201);
    expect(ackedDuring).toBeGreaterThan(0);
    expect(healthyDuring).toBeGreaterThan(0);
    // The imported table is the exported one, under a fresh id, and opens with its whole history.
    const room = s.room(im.body.tableId)!;
    expect(room.version).toBe(N);
    expect(JSON.stringify({ ...room.table.world, tableId: 'src' })).toBe(JSON.stringify(table.world));
    expect(s.store.sync!.head(im.body.tableId)).toBe(N);
    const imported = await Client.open(s.url, im.body.gmToken);
    expect(imported.version).toBe(N);
    expect(imported.view?.canUndo).toBe(true);
    // Its undo takes back the exported table's last live command, as the original table's would.
    const undone = engine.execute(table, { type: 'history.undo' }, { rng: seededRng(1), actor: { role: 'gm' } });
    if (!undone.ok) throw new Error(undone.error.message);
    const ack = await imported.command({ type: 'history.undo' }, { expectedVersion: N });
    expect(ack.type, JSON.stringify(ack)).toBe('ack');
    expect(JSON.stringify({ ...room.table.world, tableId: 'src' })).toBe(JSON.stringify(undone.value.table.world));
    await imported.close();
    await gm.close();
  }, 240_000);

  it('imports 3,000 transactions checked in a worker thread, and the imported table opens and undoes like the exported one', async () => {
    const N = 3000;
    const s = await server({ catalog: coreCatalog(true), queryThreads: 0, importInWorker: true });
    const { text, table } = exportOf(N);
    const im = await http<{ tableId: string; gmToken: string }>(s.url, 'POST', '/api/tables/import', text);
    expect(im.status, im.text).toBe(201);
    const room = s.room(im.body.tableId)!;
    expect(room.version).toBe(N);
    expect(JSON.stringify({ ...room.table.world, tableId: 'src' })).toBe(JSON.stringify(table.world));
    expect(s.store.sync!.head(im.body.tableId)).toBe(N);
    const gm = await Client.open(s.url, im.body.gmToken);
    let expected: Table = table;
    for (let k = 0; k < 3; k++) {
      const undone = engine.execute(expected, { type: 'history.undo' }, { rng: seededRng(1), actor: { role: 'gm' } });
      if (!undone.ok) throw new Error(undone.error.message);
      expected = undone.value.table;
      const ack = await gm.command({ type: 'history.undo' }, { expectedVersion: gm.version });
      expect(ack.type, JSON.stringify(ack)).toBe('ack');
      await gm.reach((ack as { version: number }).version);
      expect(JSON.stringify({ ...room.table.world, tableId: 'src' })).toBe(JSON.stringify(expected.world));
    }
    await gm.close();
  }, 240_000); // The import worker boots through tsx: 40 s and more on a loaded 2-core machine.

  it('rebuilds an imported table from its snapshot whose undo, past the undo worlds sent with it, matches the replayed table (700 rows, 300 undos)', () => {
    const { table } = exportOf(700);
    const live = table.live.toArray().length;
    // Two kept worlds: the newest entry's and one checkpoint; the undos below replay from the genesis once.
    const rebuilt = tableFromSnapshot(encodeSnapshot(table), table.genesis, [...table.transactions], table.live.keptWorlds(2));
    expect(rebuilt).not.toBeNull();
    let a: Table = table;
    let b: Table = rebuilt!;
    expect(JSON.stringify(b.world)).toBe(JSON.stringify(a.world));
    for (let k = 0; k < Math.min(300, live); k++) {
      const ra = engine.execute(a, { type: 'history.undo' }, { rng: seededRng(k), actor: { role: 'gm' } });
      const rb = engine.execute(b, { type: 'history.undo' }, { rng: seededRng(k), actor: { role: 'gm' } });
      if (!ra.ok || !rb.ok) throw new Error(`undo ${k}: ${JSON.stringify([ra, rb])}`);
      a = ra.value.table;
      b = rb.value.table;
      expect(JSON.stringify(b.world), `after ${k + 1} undos`).toBe(JSON.stringify(a.world));
    }
    // A snapshot of another table does not fit.
    expect(tableFromSnapshot(encodeSnapshot(emptyTable({ ...table.genesis, name: 'Other' })), table.genesis, [...table.transactions])).toBeNull();
  });

  it('refuses a bad line found after thousands of rows were written, and keeps none of them (worker)', async () => {
    const s = await server({ catalog: coreCatalog(true), queryThreads: 0, importInWorker: true });
    const lines = exportOf(5000).text.trim().split('\n');
    lines[4990] = lines[4990]!.replace('"kind":"transaction"', '"kind":"transactoin"');
    const before = s.store.sync!.countTables();
    const bad = await http<{ error: { kind: string; message: string; path: unknown[] } }>(s.url, 'POST', '/api/tables/import', lines.join('\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ kind: 'INVALID', message: 'line 4991: kind must be "transaction"', path: [4991, 'kind'] });
    expect(s.store.sync!.countTables()).toBe(before);
    expect(s.rooms.size).toBe(0);
  }, 240_000);

  it.each([
    ['on the event loop', false],
    ['in a worker', true],
  ])('refuses an import over the transaction cap or the byte cap with the limit in the error, and creates nothing (checked %s)', async (_where, withWorkers) => {
    const s = await server({ catalog: coreCatalog(withWorkers), queryThreads: 0, importInWorker: withWorkers, limits: { maxTransactions: 20, maxImportBytes: 12_000 } });
    const before = s.store.sync!.countTables();
    const many = await http<{ error: { kind: string; max: number; message: string } }>(s.url, 'POST', '/api/tables/import', exportOf(21).text);
    expect(many.status).toBe(413);
    expect(many.body.error).toMatchObject({ kind: 'LIMIT_REACHED', limit: 'maxTransactions', max: 20 });
    expect(many.body.error.message).toContain('21');
    const big = await http<{ error: { kind: string; limit: number } }>(s.url, 'POST', '/api/tables/import', exportOf(5).text + ' '.repeat(13_000));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ kind: 'TOO_LARGE', limit: 12_000 });
    expect(s.store.sync!.countTables()).toBe(before);
  });

  it.each([
    ['on the event loop', false],
    ['in a worker', true],
  ])('names the line and field of a row that does not replay, and keeps nothing of it (checked %s)', async (_where, withWorkers) => {
    const s = await server({ catalog: coreCatalog(withWorkers), queryThreads: 0, importInWorker: withWorkers });
    const lines = exportOf(10).text.trim().split('\n');
    const row = JSON.parse(lines[6]!) as { transaction: { kind: string; target?: number } };
    row.transaction.kind = 'undo';
    row.transaction.target = 99;
    lines[6] = JSON.stringify(row);
    const before = s.store.sync!.countTables();
    const bad = await http<{ error: { kind: string; message: string; path: unknown[] } }>(s.url, 'POST', '/api/tables/import', lines.join('\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.kind).toBe('INVALID');
    expect(bad.body.error.message).toMatch(/^line 7: the log does not replay here: undo 6 targets 99/);
    expect(bad.body.error.path).toEqual([7, 'transaction']);
    expect(s.store.sync!.countTables()).toBe(before);
  });

  it('takes from the same per-address allowance as creating a table', async () => {
    const s = await server({ createAllowance: { capacity: 2, refillPerSecond: 0.001 } });
    expect((await http(s.url, 'POST', '/api/tables', { name: 'One', rulesetId: TEST_RULESET })).status).toBe(201);
    expect((await http(s.url, 'POST', '/api/tables/import', exportOf(3).text)).status).toBe(201);
    const third = await http<{ error: { kind: string; retryAfterMs: number } }>(s.url, 'POST', '/api/tables/import', exportOf(3).text);
    expect(third.status).toBe(429);
    expect(third.body.error.kind).toBe('RATE_LIMITED');
    expect(third.body.error.retryAfterMs).toBeGreaterThan(0);
    expect((await http(s.url, 'POST', '/api/tables', { name: 'Two', rulesetId: TEST_RULESET })).status).toBe(429);
  });
});
