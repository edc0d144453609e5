// The import alone, without a server: time, the largest event-loop gaps (a
// 1 ms timer) and the longest GC pauses while 100k transactions are checked
// and written. INLINE=1 checks on the event loop (the default), otherwise in
// a worker; NOCKPT=n sets wal_autocheckpoint on the server's connection (0
// since ADR 24, checkpoints run on their own thread; NOCKPT=1000 brings back
// SQLite's own checkpoints inside commits, for comparison). Add --cpu-prof for a profile.
// Run: node --import tsx bench/import-alone.ts   (env N: transactions)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { asyncStore, registryCatalog } from '../packages/server/src/index.js';
import { importTable } from '../packages/server/src/import.js';
import { mintTableId } from '../packages/server/src/tokens.js';
import { openSqliteStore } from '../packages/server/src/store/sqlite.js';
import { longExport } from './long-export.js';

const N = Number(process.env['N'] ?? 100_000);
// The server receives the body as bytes: the encoding is not part of the import.
const body = Buffer.from(longExport(N));

const gcs: { kind: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ kind: (e as { detail?: { kind?: number } }).detail?.kind ?? 0, ms: e.duration });
}).observe({ entryTypes: ['gc'] });
const loop = monitorEventLoopDelay({ resolution: 2 });
loop.enable();
// A 1 ms timer: the gap between its runs is how long the loop was held.
const gaps: number[] = [];
const big: string[] = [];
const T0 = performance.now();
let last = T0;
const timer = setInterval(() => {
  const now = performance.now();
  gaps.push(now - last);
  if (now - last > 50) big.push(`${((now - T0) / 1000).toFixed(2)}s:${(now - last).toFixed(0)}`);
  last = now;
}, 1);

const dir = mkdtempSync(join(tmpdir(), 'tk-import-'));
const store = openSqliteStore(join(dir, 'db.sqlite'));
if (process.env['NOCKPT']) store.db.pragma(`wal_autocheckpoint = ${process.env['NOCKPT']}`);
const registry = registryCatalog();
const catalog = process.env['INLINE'] ? { ...registry, workerModule: undefined } : registry;
const t0 = performance.now();
const r = await importTable(body, {
  store: asyncStore(store),
  catalog,
  inWorker: !process.env['INLINE'],
  limits: { maxTransactions: 200_000, maxImportBytes: 1e9, maxTables: 10 },
  mintTableId,
  newGmToken: (tableId) => ({ token: 'x', record: { hash: 'x', tableId, role: 'gm', seatId: null, createdAt: 0, revokedAt: null } }),
});
const t1 = performance.now();
clearInterval(timer);
loop.disable();
console.log(r.ok ? 'ok' : JSON.stringify(r.error), 'took', (t1 - t0).toFixed(0), 'ms');
console.log('gaps over 50 ms (at:ms)', big.join(' '));
const top = [...gaps].sort((a, b) => b - a).slice(0, 15).map((x) => x.toFixed(0));
console.log('largest gaps', top.join(' '), 'p99', loop.percentile(99) / 1e6);
const g = [...gcs].sort((a, b) => b.ms - a.ms).slice(0, 10).map((x) => `${x.kind}:${x.ms.toFixed(0)}`);
console.log('gc pauses (kind:ms)', g.join(' '), 'total gc', gcs.reduce((s, x) => s + x.ms, 0).toFixed(0));
store.close();
rmSync(dir, { recursive: true, force: true });
