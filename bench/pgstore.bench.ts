// Append throughput of the PostgreSQL adapter against the SQLite default, in
// the same run, both on the asynchronous port (ADR 49):
//  1. single appends, each its own durable write transaction;
//  2. group commits: BENCH_BATCH appends over as many tables per commit, the server's pattern.
// PostgreSQL is a throwaway local cluster (scripts/postgres.mjs) with fsync on, so
// its COMMIT waits for its WAL on disk; SQLite runs with its default durability for
// single appends (synchronous=FULL) and its group commit as 'os-crash' (acked after the WAL sync)
// and 'process-crash' (the server's default: acked when written, synced within 50 ms; ADR 31).
// Run: npm run bench -- pgstore   (env: BENCH_SINGLE=300, BENCH_BATCH=50, BENCH_BATCHES=40)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transaction, World } from '../packages/engine/src/index.js';
import { asyncStore, openSqliteStore, type EventStore } from '../packages/server/src/index.js';
import { openPostgresStore } from '../packages/server/src/store/postgres.js';
import { startPostgres } from '../scripts/postgres.mjs';

const SINGLE = Number(process.env['BENCH_SINGLE'] ?? 300);
const BATCH = Number(process.env['BENCH_BATCH'] ?? 50);
const BATCHES = Number(process.env['BENCH_BATCHES'] ?? 40);

const genesis = { tableId: 't', name: 'T', rulesetId: 'r', settings: {}, seats: {}, characters: {}, clock: { seconds: 0, counts: {} }, log: [], ext: {}, nextId: 1 } as unknown as World;
// About the size of a real note's transaction (the commit bench's mean is ~210 B).
const tx = (seq: number): Transaction => ({ seq, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: `a note of a usual length, number ${seq}` }, events: [{ type: 'log.noted', id: `n${seq}`, text: `a note of a usual length, number ${seq}` }] });

async function tablesIn(store: EventStore, prefix: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  for (const id of ids) await store.createTable({ tableId: id, name: id, rulesetId: 'r', genesis: { ...genesis, tableId: id }, createdAt: 1 }, []);
  return ids;
}

/** Single appends per second, each awaited before the next (a lone GM at a table). */
async function single(store: EventStore, prefix: string): Promise<number> {
  const [t] = await tablesIn(store, `${prefix}s`, 1);
  const t0 = performance.now();
  for (let v = 0; v < SINGLE; v++) {
    const r = await store.append(t!, v, { commandId: `c${v}`, actorKey: 'gm', transaction: tx(v + 1) });
    if (!r.ok) throw new Error(`append ${v}: ${JSON.stringify(r)}`);
  }
  return SINGLE / ((performance.now() - t0) / 1000);
}

/** Appends per second in group commits of BATCH tables, each commit awaited until durable (the commit queue's pattern). */
async function grouped(store: EventStore, prefix: string): Promise<number> {
  const ids = await tablesIn(store, `${prefix}g`, BATCH);
  const t0 = performance.now();
  for (let b = 0; b < BATCHES; b++) {
    const lookups = ids.map((tableId) => ({ tableId, actorKey: 'gm', commandId: `g${b}` }));
    const { durable } = await store.commit(lookups, (w) => {
      for (const tableId of ids) {
        if (w.findCommand(tableId, 'gm', `g${b}`)) throw new Error('unexpected duplicate');
        const r = w.append(tableId, b, { commandId: `g${b}`, actorKey: 'gm', transaction: tx(b + 1) });
        if (!r.ok) throw new Error(`append ${tableId}@${b}: ${JSON.stringify(r)}`);
      }
    });
    await durable;
  }
  return (BATCH * BATCHES) / ((performance.now() - t0) / 1000);
}

const f = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const pg = await startPostgres({ fsync: true });
const dir = mkdtempSync(join(tmpdir(), 'tk-pgbench-'));
try {
  const pgStore = await openPostgresStore(pg.url);
  const osCrash = asyncStore(openSqliteStore(join(dir, 'os.sqlite'), { durability: 'os-crash' }));
  const processCrash = asyncStore(openSqliteStore(join(dir, 'process.sqlite'), { durability: 'process-crash' }));
  // Warm-up: connections, statement caches, first pages.
  await single(pgStore, 'w');
  await single(osCrash, 'w');
  // Alternated, so a burst of load on the shared machine does not fall on one side only.
  const sqliteSingle = await single(osCrash, 'a');
  const pgSingle = await single(pgStore, 'a');
  const sqliteGroup = await grouped(osCrash, 'a');
  const pgGroup = await grouped(pgStore, 'a');
  const defaultGroup = await grouped(processCrash, 'a');
  console.log(`single appends (each its own durable transaction, ${SINGLE}):`);
  console.log(`  SQLite (WAL, synchronous=FULL): ${f(sqliteSingle)} appends/s`);
  console.log(`  PostgreSQL 15 (fsync on, local): ${f(pgSingle)} appends/s`);
  console.log(`  ratio PostgreSQL / SQLite: ${(pgSingle / sqliteSingle).toFixed(2)}x`);
  console.log(`group commits (${BATCH} tables per commit, ${BATCHES} commits, awaited until durable):`);
  console.log(`  SQLite os-crash (acked after the WAL sync): ${f(sqliteGroup)} appends/s`);
  console.log(`  SQLite process-crash (the default, acked when written): ${f(defaultGroup)} appends/s`);
  console.log(`  PostgreSQL 15 (acked after COMMIT): ${f(pgGroup)} appends/s`);
  console.log(`  ratio PostgreSQL / SQLite os-crash: ${(pgGroup / sqliteGroup).toFixed(2)}x; PostgreSQL / SQLite default: ${(pgGroup / defaultGroup).toFixed(2)}x`);
  console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  await Promise.all([pgStore.close(), osCrash.close(), processCrash.close()]);
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
