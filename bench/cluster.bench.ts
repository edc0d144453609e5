// The shared mode's throughput (issue 22, ADR 60): the same load on one
// server process with its SQLite file (the default, the peer) and on 1, 2 and
// 3 server processes over one PostgreSQL (fsync on) and one nats-server, all
// on this machine and in the same run. BENCH_TABLES tables, each played by its
// GM and one player (a command each, awaited, back to back; a stale version is
// re-sent), the clients spread over the instances round robin and each table
// created on the next instance, so owners are spread too. Reports acknowledged
// commands per second and the p99 of a command's round trip.
// Two modes (BENCH_MODES=notes,realistic): 'notes' plays empty tables with
// notes only; 'realistic' imports the realistic table of bench/realistic-room.ts
// (a long log with GM-only notes, a 10-combatant OSR encounter, a hidden
// countdown) into every table, and the GM cycles a note, a round of the
// clock, a countdown tick and a GM-only note, while the player writes notes.
// Each mode measures its own SQLite peer in the same run.
// Run: npm run bench -- cluster   (env: BENCH_TABLES=6, BENCH_SECONDS=8, BENCH_MODES=notes,realistic, BENCH_NOTES=300)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../scripts/postgres.mjs';
import { startNatsServer } from '../packages/server/test/services/nats-server.js';
import { bundleClusterChild, CLUSTER_CHILD } from '../packages/server/test/services/cluster-child.js';
import { openPostgresStore } from '../packages/server/src/store/postgres.js';
import { connect, f, pct, post, type TableClient } from './table-client.js';
import { furnish } from './realistic-room.js';
import type { Command } from '../packages/engine/src/index.js';

const TABLES = Number(process.env['BENCH_TABLES'] ?? 6);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const MODES = (process.env['BENCH_MODES'] ?? 'notes,realistic').split(',') as Mode[];
const NOTES = Number(process.env['BENCH_NOTES'] ?? 300);
type Mode = 'notes' | 'realistic';
for (const m of MODES) if (m !== 'notes' && m !== 'realistic') throw new Error(`BENCH_MODES: unknown mode ${m} (notes, realistic)`);

/** The realistic table as an export (JSON Lines), built once: every table of the mode imports it. */
function realisticExport(): string {
  const { room } = furnish('bench-realistic', NOTES, 0);
  const t = room.table;
  const lines = [JSON.stringify({ kind: 'table', format: 'tablekeeper.table', protocolVersion: 2, tableId: t.genesis.tableId, rulesetId: 'osr', name: 'Realistic', genesis: t.genesis })];
  [...t.transactions].forEach((transaction, i) => lines.push(JSON.stringify({ kind: 'transaction', version: i + 1, commandId: null, transaction })));
  return lines.join('\n') + '\n';
}

interface Seated {
  readonly gm: TableClient;
  readonly player: TableClient;
  /** The GM's i-th command. */
  readonly gmCommand: (i: number) => Command;
}

/** A table for the mode on `home`, its GM's socket on `gmAt` and a player's on `playerAt`. */
async function seat(mode: Mode, home: string, gmAt: string, playerAt: string, t: number, exported: string | null): Promise<Seated> {
  if (mode === 'notes') {
    const made = await post<{ tableId: string; gmToken: string }>(home, '/api/tables', { name: `Bench ${t}`, rulesetId: 'core-only' });
    const s = await post<{ token: string }>(home, `/api/tables/${made.tableId}/seats`, { name: 'Ada' }, made.gmToken);
    return { gm: await connect(gmAt, made.gmToken), player: await connect(playerAt, s.token), gmCommand: (i) => ({ type: 'log.note', text: `note ${i}` }) };
  }
  const made = await post<{ tableId: string; gmToken: string }>(home, '/api/tables/import', exported!);
  const seats = (await (await fetch(`${home}/api/tables/${made.tableId}/seats`, { headers: { authorization: `Bearer ${made.gmToken}` } })).json()) as { seats: { seatId: string }[] };
  const link = await post<{ token: string }>(home, `/api/tables/${made.tableId}/seats/${seats.seats[0]!.seatId}/token`, {}, made.gmToken);
  const gm = await connect(gmAt, made.gmToken);
  const countdowns = countdownIdsOf(exported!);
  const gmCommand = (i: number): Command =>
    i % 4 === 0
      ? { type: 'log.note', text: `note ${i}` }
      : i % 4 === 1
        ? { type: 'clock.advance', unit: 'round' }
        : i % 4 === 2
          ? { type: 'countdown.tick', id: countdowns[(i >> 2) % countdowns.length]! }
          : { type: 'log.note', text: `gm-only ${i}`, audience: { kind: 'gm' } };
  return { gm, player: await connect(playerAt, link.token), gmCommand };
}

/** The countdown ids of the exported table (the two visible ones and the hidden one), read from its log. */
function countdownIdsOf(exported: string): string[] {
  const ids: string[] = [];
  for (const line of exported.split('\n')) {
    if (!line.includes('countdown.created')) continue;
    const tx = (JSON.parse(line) as { transaction: { events: { type: string; id?: string }[] } }).transaction;
    for (const e of tx.events) if (e.type === 'countdown.created' && typeof e.id === 'string') ids.push(e.id);
  }
  return ids;
}
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

/** Plays the mode's load on these instance URLs; acknowledged commands per second and p99 round trip (ms). */
async function load(mode: Mode, urls: readonly string[], exported: string | null): Promise<{ perSecond: number; p99: number; p50: number }> {
  const clients: { c: TableClient; command: (i: number) => Command }[] = [];
  for (let t = 0; t < TABLES; t++) {
    const s = await seat(mode, urls[t % urls.length]!, urls[(2 * t) % urls.length]!, urls[(2 * t + 1) % urls.length]!, t, exported);
    clients.push({ c: s.gm, command: s.gmCommand }, { c: s.player, command: (i) => ({ type: 'log.note', text: `note ${i}` }) });
  }
  const lat: number[] = [];
  let counting = false;
  let stopAt = Infinity;
  const run = async ({ c, command }: { c: TableClient; command: (i: number) => Command }) => {
    for (let i = 0; Date.now() < stopAt; i++) {
      const t0 = performance.now();
      for (;;) {
        const a = await c.command(command(i));
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
  for (const { c } of clients) c.ws.close();
  return { perSecond: lat.length / elapsed, p99: pct(lat, 99), p50: pct(lat, 50) };
}

console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
await bundleClusterChild();
const pg = await startPostgres({ fsync: true });
const nats = await startNatsServer();
const dir = mkdtempSync(join(tmpdir(), 'tk-clusterbench-'));
const rows: { mode: Mode; name: string; r: Awaited<ReturnType<typeof load>> }[] = [];
let schemas = 0;
try {
  for (const mode of MODES) {
    const exported = mode === 'realistic' ? realisticExport() : null;
    const sqlite = await child({ TK_SQLITE: join(dir, `bench-${mode}.sqlite`) });
    rows.push({ mode, name: '1 process, SQLite (default)', r: await load(mode, [sqlite.url], exported) });
    await stop(sqlite.proc);
    for (const n of [1, 2, 3]) {
      const schema = `bench_${++schemas}`;
      // Migrated here once, so the instances start on a ready schema.
      await (await openPostgresStore(pg.url, { schema })).close();
      const up = await Promise.all(Array.from({ length: n }, (_, i) => child({ DATABASE_URL: pg.url, NATS_URL: nats.url, TK_SCHEMA: schema, TK_INSTANCE: `b${schema}-${i}`, TK_LEASE_MS: '3000' })));
      rows.push({ mode, name: `${n} instance${n > 1 ? 's' : ''}, PostgreSQL + NATS`, r: await load(mode, up.map((u) => u.url), exported) });
      await Promise.all(up.map((u) => stop(u.proc)));
    }
  }
} finally {
  for (const p of children) p.kill('SIGKILL');
  await nats.stop();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(CHILD, { force: true });
}
console.log(`${TABLES} tables, a GM and a player each (${TABLES * 2} clients), ${SECONDS} s measured per setup; load average at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const mode of MODES) {
  const mine = rows.filter((r) => r.mode === mode);
  const peer = mine[0]!.r;
  console.log(
    mode === 'notes'
      ? '\nnotes: empty tables, every client sends notes'
      : `\nrealistic: bench/realistic-room.ts imported into each table (10 characters, a 10-combatant OSR encounter, 3 countdowns (1 hidden), ${NOTES} notes (1 in 5 GM-only)); the GM cycles note, round, countdown tick, GM-only note; the player sends notes`,
  );
  console.log('| setup | commands/s | p50 ms | p99 ms | throughput vs SQLite | p99 vs SQLite |');
  console.log('|---|---|---|---|---|---|');
  for (const { name, r } of mine) console.log(`| ${name} | ${f(r.perSecond, 0)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.perSecond / peer.perSecond, 2)}x | ${f(r.p99 / peer.p99, 2)}x |`);
}
