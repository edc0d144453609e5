// Not a test: the SQLite store's group commit on its own (ADR 113). 200 tables furnished with 314 rows each, then
// group commits of 7 appends on 7 different tables, ~1 KB transactions, through the port as the commit queue calls
// it. Prints the main thread's CPU per commit (from /proc schedstat) and the whole process's (worker and checkpoint threads too).
// Run: node --import tsx bench/store-append.ts   (env: STORE_WRITER=loop|thread, STORE_COMMITS, STORE_TABLES,
//   STORE_SRC=<folder holding sqlite.ts and sqlite-thread.ts>, to measure another checkout's store: the A/B)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transaction } from '@tablekeeper/engine';
import type { EventStore, SyncEventStore } from '../packages/server/src/store/port.js';

const WRITER = process.env['STORE_WRITER'] ?? 'loop';
const TABLES = Number(process.env['STORE_TABLES'] ?? 200);
const FURNISHED = 314;
const COMMITS = Number(process.env['STORE_COMMITS'] ?? 2000);
// STORE_BATCH: appends a group commit (the realistic server bench's batches hold tens of commands); STORE_ORDER=rr takes
// the tables round-robin, as the bench's senders cycle over them, instead of at random.
const BATCH = Number(process.env['STORE_BATCH'] ?? 7);
const ROUND_ROBIN = process.env['STORE_ORDER'] === 'rr';
let next = 0;
const src = resolve(process.env['STORE_SRC'] ?? 'packages/server/src/store');

const sqlite = (await import(pathToFileURL(join(src, 'sqlite.ts')).href)) as { openSqliteStore: (path: string) => SyncEventStore };
const thread = (await import(pathToFileURL(join(src, 'sqlite-thread.ts')).href)) as { openSqliteThreadStore: (path: string) => Promise<EventStore> };
const lift = (await import(pathToFileURL(join(src, 'lift.ts')).href)) as { asyncStore: (s: SyncEventStore) => EventStore };

/** Nanoseconds the main thread has run (schedstat's first field), not the worker's or the checkpoint thread's. */
const mainNs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
const processUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const tableIds = Array.from({ length: TABLES }, () => 't_' + Buffer.from(Array.from({ length: 9 }, () => Math.floor(rand() * 256))).toString('base64url'));
const text = 'the party checks the corridor and the torches flicker in the draught; '.repeat(6);
const tx = (seq: number): Transaction => ({ seq, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text }, events: [{ type: 'log.noted', text, audience: { kind: 'all' }, by: 'gm' }] }) as unknown as Transaction;
const genesis = { tableId: '', name: 'T', rulesetId: 'bench', settings: {}, seats: {}, characters: {}, clock: { seconds: 0, counts: {} }, log: [], ext: {}, nextId: 1 };
const actors = ['gm', 'player:s1', 'player:s2', 'player:s3'];

const dir = mkdtempSync(join(tmpdir(), 'store-append-'));
const path = join(dir, 'db.sqlite');
const store: EventStore = WRITER === 'thread' ? await thread.openSqliteThreadStore(path) : lift.asyncStore(sqlite.openSqliteStore(path));
const heads = new Array<number>(TABLES).fill(0);
for (let t = 0; t < TABLES; t++) {
  const tableId = tableIds[t]!;
  await store.createTable({ tableId, name: `T${t}`, rulesetId: 'bench', genesis: { ...genesis, tableId } as never, createdAt: t }, []);
  const { durable } = await store.commit([], (w) => {
    for (let i = 0; i < FURNISHED; i++, heads[t]!++) if (!w.append(tableId, heads[t]!, { commandId: `f${i}`, actorKey: 'gm', transaction: tx(i + 1) }).ok) throw new Error('furnish refused');
  });
  await durable;
}
console.log(`store ${WRITER} from ${src}: ${TABLES} tables x ${FURNISHED} rows, ${JSON.stringify(tx(1)).length} bytes a transaction`);

// Measured over the whole loop: schedstat is only brought up to date at the scheduler's ticks, so a sum of short
// intervals would miss most of them.
const mainStart = mainNs();
const procStart = processUs();
for (let c = 0; c < COMMITS; c++) {
  const picked = new Set<number>();
  while (picked.size < BATCH) picked.add(ROUND_ROBIN ? next++ % TABLES : Math.floor(rand() * TABLES));
  // The command ids the batch appends, as the commit queue passes them (the thread writer reads them before deciding).
  const lookups = [...picked].map((t) => ({ tableId: tableIds[t]!, actorKey: actors[c % actors.length]!, commandId: `b${c}-${t}` }));
  const { durable } = await store.commit(lookups, (w) => {
    for (const t of picked) {
      const r = w.append(tableIds[t]!, heads[t]!, { commandId: `b${c}-${t}`, actorKey: actors[c % actors.length]!, transaction: tx(heads[t]! + 1) });
      if (!r.ok) throw new Error(`append refused: ${r.reason}`);
      heads[t]!++;
    }
  });
  await durable;
}
const main = (mainNs() - mainStart) / 1000 / COMMITS;
const proc = (processUs() - procStart) / COMMITS;
console.log(`${COMMITS} group commits of ${BATCH}: main thread ${main.toFixed(1)} us a commit (${(main / BATCH).toFixed(1)} us a row), process ${proc.toFixed(1)} us a commit`);
await store.close();
rmSync(dir, { recursive: true, force: true });
