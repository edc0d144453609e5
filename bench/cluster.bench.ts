// The shared mode's throughput (issue 22, ADR 60): the same load on one
// server process with its SQLite file (the default, the peer) and on 1, 2 and
// 3 server processes over one PostgreSQL (fsync on) and one nats-server, all
// on this machine and in the same run. BENCH_TABLES tables, each played by its
// GM and one player (a command each, awaited, back to back; a stale version is
// re-sent), the clients spread over the instances round robin and each table
// created on the next instance, so owners are spread too. Reports acknowledged
// commands per second and the p99 of a command's round trip.
// Run: npm run bench -- cluster   (env: BENCH_TABLES=6, BENCH_SECONDS=8)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../scripts/postgres.mjs';
import { startNatsServer } from '../packages/server/test/services/nats-server.js';
import { bundleClusterChild, CLUSTER_CHILD } from '../packages/server/test/services/cluster-child.js';
import { openPostgresStore } from '../packages/server/src/store/postgres.js';
import { connect, f, pct, post, type TableClient } from './table-client.js';

const TABLES = Number(process.env['BENCH_TABLES'] ?? 6);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const CHILD = CLUSTER_CHILD;

const children = new Set<ChildProcess>();
function child(env: Record<string, string>): Promise<{ url: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CHILD], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    children.add(proc);
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, proc });
    });
    proc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    proc.once('exit', (code) => reject(new Error(`a server exited early (${code}): ${err}`)));
  });
}
const stop = (p: ChildProcess) => new Promise<void>((r) => (p.exitCode !== null ? r() : (p.once('exit', () => r()), p.kill('SIGTERM'))));

/** Plays the load on these instance URLs; acknowledged commands per second and p99 round trip (ms). */
async function load(urls: readonly string[]): Promise<{ perSecond: number; p99: number; p50: number }> {
  const clients: TableClient[] = [];
  for (let t = 0; t < TABLES; t++) {
    const home = urls[t % urls.length]!;
    const made = await post<{ tableId: string; gmToken: string }>(home, '/api/tables', { name: `Bench ${t}`, rulesetId: 'core-only' });
    const seat = await post<{ token: string }>(home, `/api/tables/${made.tableId}/seats`, { name: 'Ada' }, made.gmToken);
    clients.push(await connect(urls[(2 * t) % urls.length]!, made.gmToken), await connect(urls[(2 * t + 1) % urls.length]!, seat.token));
  }
  const lat: number[] = [];
  let counting = false;
  let stopAt = Infinity;
  const run = async (c: TableClient, i: number) => {
    while (Date.now() < stopAt) {
      const t0 = performance.now();
      for (;;) {
        const a = await c.command({ type: 'log.note', text: `note ${i}` });
        if (a['type'] === 'ack') break;
        const kind = (a['error'] as { kind?: string } | undefined)?.kind;
        if (kind !== 'VERSION_CONFLICT' && kind !== 'UNAVAILABLE') throw new Error(`refused: ${JSON.stringify(a)}`);
      }
      if (counting) lat.push(performance.now() - t0);
    }
  };
  const playing = clients.map(run);
  // One second of warm-up (connections, rooms, JIT), then the measured window.
  await new Promise((r) => setTimeout(r, 1000));
  counting = true;
  const t0 = performance.now();
  stopAt = Date.now() + SECONDS * 1000;
  await Promise.all(playing);
  const elapsed = (performance.now() - t0) / 1000;
  for (const c of clients) c.ws.close();
  return { perSecond: lat.length / elapsed, p99: pct(lat, 99), p50: pct(lat, 50) };
}

console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
await bundleClusterChild();
const pg = await startPostgres({ fsync: true });
const nats = await startNatsServer();
const dir = mkdtempSync(join(tmpdir(), 'tk-clusterbench-'));
const rows: { name: string; r: Awaited<ReturnType<typeof load>> }[] = [];
try {
  const sqlite = await child({ TK_SQLITE: join(dir, 'bench.sqlite') });
  rows.push({ name: '1 process, SQLite (default)', r: await load([sqlite.url]) });
  await stop(sqlite.proc);
  for (const n of [1, 2, 3]) {
    const schema = `bench_${n}`;
    // Migrated here once, so the instances start on a ready schema.
    await (await openPostgresStore(pg.url, { schema })).close();
    const up = await Promise.all(Array.from({ length: n }, (_, i) => child({ DATABASE_URL: pg.url, NATS_URL: nats.url, TK_SCHEMA: schema, TK_INSTANCE: `b${n}-${i}`, TK_LEASE_MS: '3000' })));
    rows.push({ name: `${n} instance${n > 1 ? 's' : ''}, PostgreSQL + NATS`, r: await load(up.map((u) => u.url)) });
    await Promise.all(up.map((u) => stop(u.proc)));
  }
} finally {
  for (const p of children) p.kill('SIGKILL');
  await nats.stop();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(CHILD, { force: true });
}
const peer = rows[0]!.r;
console.log(`${TABLES} tables, a GM and a player each (${TABLES * 2} clients), ${SECONDS} s measured per setup; load average at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log('| setup | commands/s | p50 ms | p99 ms | throughput vs SQLite | p99 vs SQLite |');
console.log('|---|---|---|---|---|---|');
for (const { name, r } of rows) console.log(`| ${name} | ${f(r.perSecond, 0)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.perSecond / peer.perSecond, 2)}x | ${f(r.p99 / peer.p99, 2)}x |`);
