// The import alone, without a server: time, the largest event-loop gaps (a
// 1 ms timer) and the longest GC pauses while 100k transactions are checked
// and written. INLINE=1 checks on the event loop (the default), otherwise in
// a worker; NOCKPT=n sets wal_autocheckpoint. Add --cpu-prof for a profile.
// Run: node --import tsx bench/import-alone.ts   (env N: transactions)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { engineFor } from '../packages/rulesets/src/index.js';
import { seededRng, type Command } from '../packages/engine/src/index.js';
import { PROTOCOL_VERSION } from '../packages/protocol/src/index.js';
import { registryCatalog } from '../packages/server/src/index.js';
import { importTable } from '../packages/server/src/import.js';
import { mintTableId } from '../packages/server/src/tokens.js';
import { openSqliteStore } from '../packages/server/src/store/sqlite.js';
const N = Number(process.env['N'] ?? 100000);
const RULESET = 'osr';
function exportText(n: number): string {
  const engine = engineFor(RULESET)!;
  let t = engine.createTable({ tableId: 'src', name: 'Long', rulesetId: RULESET });
  const rng = seededRng(5);
  const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: PROTOCOL_VERSION, tableId: 'src', rulesetId: RULESET, name: 'Long', genesis: t.genesis })];
  for (let i = 1; i <= n; i++) {
    const c: Command = i % 40 === 0 ? { type: 'history.undo' } : i % 40 === 1 && i > 1 ? { type: 'history.redo' } : i % 3 === 0 ? { type: 'log.note', text: `note ${i}` } : { type: 'clock.advance', unit: 'round' };
    const r = engine.execute(t, c, { rng, actor: { role: 'gm' } });
    if (!r.ok) throw new Error(`export ${i}: ${r.error.message}`);
    t = r.value.table;
    lines.push(JSON.stringify({ kind: 'transaction', version: i, commandId: null, transaction: r.value.transaction }));
  }
  return lines.join('\n') + '\n';
}
const text = exportText(N);
const gcs: { kind: number; ms: number }[] = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push({ kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0, ms: e.duration }); }).observe({ entryTypes: ['gc'] });
const loop = monitorEventLoopDelay({ resolution: 2 }); loop.enable();
const gaps: number[] = []; let last = performance.now();
const big: string[] = []; const T0 = performance.now();
const iv = setInterval(() => { const now = performance.now(); gaps.push(now - last); if (now - last > 50) big.push(`${((now - T0)/1000).toFixed(2)}s:${(now-last).toFixed(0)}`); last = now; }, 1);
const buf = Buffer.from(text);
const t0 = performance.now();
const store = openSqliteStore(join(mkdtempSync(join(tmpdir(), 'tkp-')), 'db.sqlite'));
const cat = registryCatalog(); if (process.env['NOCKPT']) store.db.pragma('wal_autocheckpoint = ' + process.env['NOCKPT']);
const catalog = process.env['INLINE'] ? { ...cat, workerModule: undefined } : cat;
const r = await importTable(buf, { store, catalog, inWorker: !process.env['INLINE'], limits: { maxTransactions: 200000, maxImportBytes: 1e9, maxTables: 10 }, mintTableId, newGmToken: (tableId) => ({ token: 'x', record: { hash: 'x', tableId, role: 'gm', seatId: null, createdAt: 0, revokedAt: null } }) });
const t1 = performance.now();
console.log(r.ok ? 'ok' : JSON.stringify(r.error), 'took', (t1 - t0).toFixed(0)); console.log(big.join(' '));
clearInterval(iv); loop.disable();

const top = [...gaps].sort((a, b) => b - a).slice(0, 15).map((x) => x.toFixed(0));
console.log('largest gaps', top.join(' '), 'p99', loop.percentile(99) / 1e6);
const g = gcs.sort((a, b) => b.ms - a.ms).slice(0, 10).map((x) => `${x.kind}:${x.ms.toFixed(0)}`);
console.log('gc pauses (kind:ms)', g.join(' '), 'total gc', gcs.reduce((s, x) => s + x.ms, 0).toFixed(0));
