// The cost of a group commit per command, in the server's own pattern: a
// batch of commands from many tables, each appended (the UNIQUE key refuses a
// repeated commandId), all in one write transaction (one fsync), against the floor:
// raw better-sqlite3 inserting the same rows, already serialised, in one
// transaction on the same schema and pragmas, in the same run.
// CPU is process.cpuUsage (user + system) per command; wall time includes the
// fsync (for process-crash: until written; its sync comes within a window). Transactions are real ones (notes, rounds, countdown ticks, undo).
// Run: npm run bench -- commit   (env: BENCH_BATCH=50, BENCH_ROUNDS=200)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { applyPragmas, openSqliteStore, type SqliteEventStore } from '../packages/server/src/index.js';
import { longTable } from './replay-lines.js';

const BATCH = Number(process.env['BENCH_BATCH'] ?? 50);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 200);
const TABLES = 200;
const dir = mkdtempSync(join(tmpdir(), 'tk-commit-'));
let files = 0;
const { table, transactions } = longTable(BATCH * ROUNDS * 2);

interface Cost {
  /** Process CPU (user + system) per command. */
  cpuUs: number;
  /** Time the event loop was held per command (the synchronous part of a round). */
  loopUs: number;
  /** Wall time per command until it is durable. */
  wallUs: number;
}

/** Runs `round` ROUNDS times, after ROUNDS / 10 warm-up rounds; a round may return the promise of its durability. */
async function measure(round: (r: number) => Promise<void> | void): Promise<Cost> {
  const warm = Math.max(1, Math.floor(ROUNDS / 10));
  for (let r = 0; r < warm; r++) await round(r);
  let loop = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let r = warm; r < warm + ROUNDS; r++) {
    const l0 = performance.now();
    const durable = round(r);
    loop += performance.now() - l0;
    await durable;
  }
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const n = ROUNDS * BATCH;
  return { cpuUs: (c.user + c.system) / n, loopUs: (loop * 1000) / n, wallUs: (wall * 1000) / n };
}

/** The k-th command of round r: spread over the tables as a busy server's batch is. */
const slot = (r: number, k: number) => ({ tableId: `t${(r * BATCH + k) % TABLES}`, tx: transactions[(r * BATCH + k) % transactions.length]! });

/**
 * The server's group commit: `commit` with 'os-crash' durability (acked after the WAL sync off the loop, ADR 24),
 * `commit` with 'process-crash' (acked once written to the OS, the sync within a window, ADR 31), or `batch`
 * (synchronous=FULL on the loop, as before ADR 24).
 */
async function storeRun(mode: 'os-crash' | 'process-crash' | 'batch'): Promise<Cost> {
  const store: SqliteEventStore = openSqliteStore(join(dir, `store${++files}.sqlite`), { durability: mode === 'process-crash' ? 'process-crash' : 'os-crash' });
  for (let t = 0; t < TABLES; t++) store.createTable({ tableId: `t${t}`, name: 'T', rulesetId: 'bench', genesis: { ...table.genesis, tableId: `t${t}` }, createdAt: 0 }, []);
  const heads = new Map<string, number>();
  let n = 0;
  const decide = (r: number) => () => {
    for (let k = 0; k < BATCH; k++) {
        const { tableId, tx } = slot(r, k);
      const commandId = `c${++n}`;
      // As the room: the append alone refuses a used id; the id is looked up only on the way to a refusal (ADR 63).
      const head = heads.get(tableId) ?? 0;
      const res = store.append(tableId, head, { commandId, actorKey: 'gm', transaction: tx });
      if (!res.ok) throw new Error(`append refused: ${res.reason}`);
      heads.set(tableId, res.version);
    }
  };
  const cost = await measure((r) => (mode === 'batch' ? store.batch(decide(r)) : store.commit(decide(r)).durable));
  store.close();
  return cost;
}

async function rawRun(): Promise<Cost> {
  const raw = new Database(join(dir, `raw${++files}.sqlite`));
  applyPragmas(raw);
  raw.exec('CREATE TABLE transactions (table_id TEXT NOT NULL, version INTEGER NOT NULL, command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_id, version), UNIQUE (table_id, actor, command_id)) STRICT');
  const insert = raw.prepare('INSERT INTO transactions (table_id, version, command_id, actor, tx) VALUES (?, ?, ?, ?, ?)');
  const heads = new Map<string, number>();
  let n = 0;
  const batch = raw.transaction((r: number) => {
    for (let k = 0; k < BATCH; k++) {
      const { tableId, tx } = slot(r, k);
      const v = (heads.get(tableId) ?? 0) + 1;
      heads.set(tableId, v);
      insert.run(tableId, v, `c${++n}`, 'gm', JSON.stringify(tx));
    }
  });
  const cost = await measure((r) => batch.immediate(r));
  raw.close();
  return cost;
}

const f = (x: number, d = 1) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
try {
  console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`group commit: ${BATCH} commands over ${TABLES} tables per write transaction, ${ROUNDS} transactions; mean transaction ${f(transactions.reduce((s, t) => s + JSON.stringify(t).length, 0) / transactions.length, 0)} B`);
  // Alternated, so both see the same machine state; the better of two runs each.
  const runs: { raw: Cost[]; batch: Cost[]; commit: Cost[]; written: Cost[] } = { raw: [], batch: [], commit: [], written: [] };
  for (let k = 0; k < 2; k++) {
    runs.raw.push(await rawRun());
    runs.batch.push(await storeRun('batch'));
    runs.commit.push(await storeRun('os-crash'));
    runs.written.push(await storeRun('process-crash'));
  }
  const best = (xs: Cost[]): Cost => ({ cpuUs: Math.min(...xs.map((x) => x.cpuUs)), loopUs: Math.min(...xs.map((x) => x.loopUs)), wallUs: Math.min(...xs.map((x) => x.wallUs)) });
  const line = (label: string, c: Cost) => console.log(`${label}: CPU ${f(c.cpuUs)} us, event loop held ${f(c.loopUs)} us, until durable ${f(c.wallUs)} us per command`);
  const raw = best(runs.raw);
  const batch = best(runs.batch);
  const commit = best(runs.commit);
  const written = best(runs.written);
  line('raw better-sqlite3, FULL (stringify + insert)  ', raw);
  line('store batch(), FULL on the loop                ', batch);
  line('store commit(), os-crash: acked after the sync ', commit);
  line('store commit(), process-crash: acked when written', written);
  console.log(`ratio (commit / raw): CPU ${f(commit.cpuUs / raw.cpuUs, 2)}x, event loop held ${f(commit.loopUs / raw.loopUs, 2)}x, until durable ${f(commit.wallUs / raw.wallUs, 2)}x`);
  console.log(`ratio (commit / batch): CPU ${f(commit.cpuUs / batch.cpuUs, 2)}x, event loop held ${f(commit.loopUs / batch.loopUs, 2)}x`);
  console.log(`ratio (process-crash / os-crash commit): CPU ${f(written.cpuUs / commit.cpuUs, 2)}x, event loop held ${f(written.loopUs / commit.loopUs, 2)}x, until acked ${f(written.wallUs / commit.wallUs, 2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
