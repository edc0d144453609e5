// The 36th Way's settings took its namespace (`tsw.critAt` -> `36th-way.critAt`,
// ADR 28 amended): a table stored before the rename keeps its genesis bytes, and
// the server reads them under today's names after reading (genesis and snapshot),
// so the old table loads, replays, keeps its settings, exports as stored and
// imports again. Real HTTP and WebSocket against a real SQLite file, restarted.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRng, type Command, type Json, type World } from '@tablekeeper/engine';
import { PROTOCOL_VERSION } from '@tablekeeper/protocol';
import { engineFor } from '@tablekeeper/rulesets';
import { registryCatalog, startServer } from '../src/index.js';
import { encodeSnapshot, tableFromSnapshot } from '../src/snapshot.js';
import { Client, http, silent, tempDir, UNLIMITED_HTTP } from './helpers.js';

const TSW = '36th-way';
/** The settings as a table stored them before the rename. */
const oldKeys = (settings: { readonly [k: string]: Json }): { [k: string]: Json } => Object.fromEntries(Object.entries(settings).map(([k, v]) => [k.startsWith(`${TSW}.`) ? `tsw.${k.slice(TSW.length + 1)}` : k, v]));

/** An export of a 36th Way table whose genesis holds `tsw.` settings, with a 3-recovery house rule and one PC sheet. */
function oldExport(): string {
  const engine = engineFor(TSW)!;
  let t = engine.createTable({ tableId: 'old', name: 'Old 36th Way table', rulesetId: TSW, settings: { [`${TSW}.maxRecoveries`]: 3, [`${TSW}.critAt`]: 18 } });
  const genesis: World = { ...t.genesis, settings: oldKeys(t.genesis.settings) };
  const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: 'old', rulesetId: TSW, name: 'Old 36th Way table', genesis })];
  const commands: Command[] = [{ type: `${TSW}.sheet.set`, sheet: { id: 'ann', name: 'Ann', kind: 'pc', maxHp: 30 } }, { type: 'log.note', text: 'before the rename' }];
  commands.forEach((c, i) => {
    const r = engine.execute(t, c, { rng: seededRng(i + 1), actor: { role: 'gm' } });
    if (!r.ok) throw new Error(`setup ${i}: ${r.error.message}`);
    t = r.value.table;
    lines.push(JSON.stringify({ kind: 'transaction', version: i + 1, commandId: null, transaction: r.value.transaction }));
  });
  return lines.join('\n') + '\n';
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const serve = (dbPath: string) => startServer({ port: 0, host: '127.0.0.1', dbPath, logger: silent(), catalog: registryCatalog(), webDist: null, httpRateLimit: UNLIMITED_HTTP, createAllowance: UNLIMITED_HTTP });

const sheetsOf = (c: Client): { [id: string]: { readonly maxRecoveries: number; readonly recoveries: number } } =>
  ((c.view!.world.ext[TSW] as { readonly sheets: Json }).sheets as unknown as { [id: string]: { maxRecoveries: number; recoveries: number } });

describe('the 36th Way settings renamed from tsw. (ADR 28 amended)', () => {
  it('an old table imports, loads after a restart, keeps its house rules under 36th-way. and exports its genesis as stored', { timeout: 120_000 }, async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const dbPath = join(t.dir, 'db.sqlite');
    let s = await serve(dbPath);
    const made = await http<{ tableId: string; gmToken: string }>(s.url, 'POST', '/api/tables/import', oldExport());
    expect(made.status).toBe(201);
    let gm = await Client.open(s.url, made.body.gmToken);
    await gm.reach(2);
    const settings = gm.view!.world.settings;
    expect(settings[`${TSW}.maxRecoveries`]).toBe(3);
    expect(settings[`${TSW}.critAt`]).toBe(18);
    expect(Object.keys(settings).filter((k) => k.startsWith('tsw.'))).toEqual([]);
    // The house rule still holds for a sheet made after the load: a PC without a count starts with 3 recoveries.
    expect(await gm.command({ type: `${TSW}.sheet.set`, sheet: { id: 'bo', name: 'Bo', kind: 'pc', maxHp: 24 } })).toMatchObject({ type: 'ack' });
    await gm.reach(3);
    expect(sheetsOf(gm)['ann']).toMatchObject({ maxRecoveries: 3, recoveries: 3 });
    expect(sheetsOf(gm)['bo']).toMatchObject({ maxRecoveries: 3, recoveries: 3 });
    const before = gm.view!.world;
    await gm.close();
    await s.close();

    // A cold load from the store: the stored genesis (old keys) and the snapshot the import wrote.
    s = await serve(dbPath);
    cleanups.push(() => s.close());
    gm = await Client.open(s.url, made.body.gmToken);
    cleanups.push(() => gm.close());
    await gm.reach(3);
    expect(gm.view!.world).toEqual(before);
    expect(await gm.command({ type: 'history.undo' })).toMatchObject({ type: 'ack' });
    await gm.reach(4);
    expect(sheetsOf(gm)['bo']).toBeUndefined();
    expect(gm.view!.world.settings[`${TSW}.maxRecoveries`]).toBe(3);

    // The export keeps what was stored (the genesis's old keys); importing it again reads them under today's.
    const out = await http<string>(s.url, 'GET', `/api/tables/${made.body.tableId}/export`, undefined, made.body.gmToken);
    expect(out.status).toBe(200);
    const head = JSON.parse(out.text.split('\n')[0]!) as { genesis: World };
    expect(head.genesis.settings['tsw.maxRecoveries']).toBe(3);
    expect(head.genesis.settings[`${TSW}.maxRecoveries`]).toBeUndefined();
    const again = await http<{ tableId: string; gmToken: string }>(s.url, 'POST', '/api/tables/import', out.text);
    expect(again.status).toBe(201);
    const copy = await Client.open(s.url, again.body.gmToken);
    cleanups.push(() => copy.close());
    await copy.reach(4);
    expect(sheetsOf(copy)).toEqual(sheetsOf(gm));
    expect(copy.view!.world.settings).toEqual(gm.view!.world.settings);
  });

  it('a snapshot written before the rename still fits its table (both genesis sides read under today\'s names); one written after fits too', () => {
    const engine = engineFor(TSW)!;
    const fresh = engine.createTable({ tableId: 'snap', name: 'Snap', rulesetId: TSW, settings: { [`${TSW}.critAt`]: 19 } });
    const stored: World = { ...fresh.genesis, settings: oldKeys(fresh.genesis.settings) };
    // The table as the server held it before the rename: genesis and world with the old keys.
    const r = engine.execute({ ...fresh, genesis: stored, world: stored }, { type: 'log.note', text: 'one' }, { rng: seededRng(1), actor: { role: 'gm' } });
    if (!r.ok) throw new Error(r.error.message);
    const txs = [r.value.transaction];
    const upcast = (w: World): World => engine.upcastWorld(w);
    const before = tableFromSnapshot(encodeSnapshot(r.value.table), stored, txs, [], upcast);
    expect(before).not.toBeNull();
    expect(before!.world.settings[`${TSW}.critAt`]).toBe(19);
    expect(before!.genesis.settings['tsw.critAt']).toBeUndefined();
    // Written from the loaded table (new keys), compared with the stored genesis (old keys).
    const after = tableFromSnapshot(encodeSnapshot(before!), stored, txs, [], upcast);
    expect(after?.world).toEqual(before!.world);
    // Without the upcast, an old snapshot compared with a new genesis is refused (a full replay), never mixed.
    expect(tableFromSnapshot(encodeSnapshot(r.value.table), before!.genesis, txs)).toBeNull();
    // The stored genesis object is not rewritten.
    expect(stored.settings['tsw.critAt']).toBe(19);
  });
});
