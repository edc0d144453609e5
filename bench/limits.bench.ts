// Floods one visitor can cause, and what they do to another table, measured
// in one run against a quiet baseline on the same server:
//  1. import flood: a 100k-transaction export is imported while another
//     table's GM sends commands back to back and /healthz is asked every
//     50 ms; import time, that table's command latency and /healthz latency
//     (p50/p99, against the same measured before the import) and the event
//     loop's delay (p99, max);
//  2. query flood: one player keeps 8 odds queries in flight (the budget
//     refuses what is over; the rest run in the worker pool) while the other
//     table's GM sends commands; latency ratio against the quiet baseline.
// Run: npm run bench -- limits   (env: BENCH_IMPORT_TX, default 100000;
// BENCH_IMPORT_WORKER=1 checks the import in a worker thread instead of in slices)
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rulesetIds } from '../packages/rulesets/src/index.js';
import { longExport } from './long-export.js';
import { connect as connectTo, f, pct, play, post as postTo, startBenchServer } from './table-client.js';

const IMPORT_TX = Number(process.env['BENCH_IMPORT_TX'] ?? 100_000);
const IMPORT_IN_WORKER = process.env['BENCH_IMPORT_WORKER'] === '1';
const RULESET = rulesetIds.includes('osr') ? 'osr' : rulesetIds[0]!;
const dir = mkdtempSync(join(tmpdir(), 'tk-limits-'));

// The limits under test stay at their defaults except the import's size and the log cap.
const server = await startBenchServer(join(dir, 'db.sqlite'), {
  limits: { maxImportBytes: 256 * 1024 * 1024, maxTransactions: Math.max(100_000, IMPORT_TX) },
  importInWorker: IMPORT_IN_WORKER,
});
const post = <T>(path: string, body: unknown, token?: string) => postTo<T>(server.url, path, body, token);
const connect = (token: string) => connectTo(server.url, token);

try {
  console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; server and clients in one process; ruleset ${RULESET}`);
  const other = await post<{ tableId: string; gmToken: string }>('/api/tables', { name: 'Other', rulesetId: RULESET });
  const gm = await connect(other.gmToken);
  const loop = monitorEventLoopDelay({ resolution: 5 });

  /** /healthz asked every 50 ms while `work` runs; latencies in ms. */
  async function withHealth<T>(work: (stop: () => boolean) => Promise<T>): Promise<{ result: T; health: number[] }> {
    let done = false;
    const health: number[] = [];
    const polling = (async () => {
      while (!done) {
        const h0 = performance.now();
        const res = await fetch(server.url + '/healthz');
        if (!res.ok) throw new Error(`/healthz answered ${res.status}`);
        health.push(performance.now() - h0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const result = await work(() => done);
    done = true;
    await polling;
    return { result, health };
  }

  const quietRun = await withHealth(() => play(gm, () => true, 300));
  const quiet = quietRun.result;
  console.log(`quiet baseline     : other table p50 ${f(pct(quiet, 50))} ms, p99 ${f(pct(quiet, 99))} ms (${quiet.length} commands); /healthz p50 ${f(pct(quietRun.health, 50))} ms, p99 ${f(pct(quietRun.health, 99))} ms`);

  const text = longExport(IMPORT_TX, RULESET);
  loop.enable();
  let done = false;
  const t0 = performance.now();
  const importing = post<{ tableId: string }>('/api/tables/import', text).finally(() => (done = true));
  const duringRun = await withHealth(() => play(gm, () => done, 1));
  await importing;
  const importMs = performance.now() - t0;
  loop.disable();
  const during = duringRun.result;
  const healthLat = duringRun.health;
  console.log(`import ${IMPORT_TX.toLocaleString('en-US')} transactions (${f(text.length / 1048576)} MB, checked ${IMPORT_IN_WORKER ? 'in a worker thread' : 'on the event loop in slices'}): ${f(importMs / 1000, 2)} s`);
  console.log(`during the import  : other table p50 ${f(pct(during, 50))} ms, p99 ${f(pct(during, 99))} ms (${during.length} commands); /healthz p50 ${f(pct(healthLat, 50))} ms, p99 ${f(pct(healthLat, 99))} ms, max ${f(Math.max(...healthLat))} ms (${healthLat.length} asks); event loop delay p99 ${f(loop.percentile(99) / 1e6)} ms, max ${f(loop.max / 1e6)} ms`);
  console.log(`ratio (import / quiet): other table p50 ${f(pct(during, 50) / pct(quiet, 50), 2)}x, p99 ${f(pct(during, 99) / pct(quiet, 99), 2)}x; /healthz p99 ${f(pct(healthLat, 99) / pct(quietRun.health, 99), 2)}x`);
  const met = pct(during, 99) <= 100 && pct(healthLat, 99) <= 100;
  console.log(`goal (other table's command and /healthz p99 <= 100 ms during the import): ${met ? 'met' : 'missed'}`);

  // Query flood: one player keeps 8 odds queries in flight on its own table.
  const odds = await post<{ tableId: string; gmToken: string }>('/api/tables', { name: 'Odds', rulesetId: RULESET });
  const seat = await post<{ token: string }>(`/api/tables/${odds.tableId}/seats`, { name: 'Flooder' }, odds.gmToken);
  const oddsGm = await connect(odds.gmToken);
  await oddsGm.command({ type: 'countdown.create', name: 'Doom', startDie: 'd12', visibility: 'visible' });
  // The countdown's id, from the GM's export (its creation event).
  const exported = await (await fetch(`${server.url}/api/tables/${odds.tableId}/export`, { headers: { authorization: `Bearer ${odds.gmToken}` } })).text();
  const cdId = /"type":"countdown\.created"[^}]*?"id":"([^"]+)"/.exec(exported)?.[1] ?? /"id":"(cd-[^"]+)"/.exec(exported)?.[1];
  if (cdId === undefined) throw new Error('no countdown id in the export');
  const player = await connect(seat.token);
  let stop = false;
  const results = { ok: 0, limited: 0, other: 0 };
  const flood = Promise.all(
    Array.from({ length: 8 }, async () => {
      while (!stop) {
        const a = await player.query('countdown.odds', { id: cdId, modifier: 50, difficulty: 100, advantage: 5 });
        const err = a['error'] as { code?: string } | undefined;
        if (a['ok'] === true) results.ok++;
        else if (err?.code === 'RATE_LIMITED') results.limited++;
        else {
          results.other++;
          if (results.other === 1) console.log(`first non-budget refusal: ${JSON.stringify(a['error'])}`);
        }
      }
    }),
  );
  const underFlood = await play(gm, () => true, 300);
  stop = true;
  await flood;
  const quiet2 = await play(gm, () => true, 300);
  const base = [...quiet, ...quiet2];
  console.log(`during the query flood: other table p50 ${f(pct(underFlood, 50))} ms, p99 ${f(pct(underFlood, 99))} ms (${underFlood.length} commands); flood answers ${results.ok} ok, ${results.limited} RATE_LIMITED, ${results.other} other`);
  console.log(`ratio (query flood / quiet): p50 ${f(pct(underFlood, 50) / pct(base, 50), 2)}x, p99 ${f(pct(underFlood, 99) / pct(base, 99), 2)}x (goal <= 2x)`);
  for (const c of [gm, oddsGm, player]) c.ws.close();
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
