// A cold load in slices (ADR 24): after a restart, the first visitor of a big
// table must not stall every other table while 100k rows are read, parsed
// and applied. The rows are read a page at a time and the event loop gets a
// turn after each page; the newest usable snapshot (a cache) stands in for
// the replay of every row up to it, and the rows after it are applied in
// slices too. The result equals Room.load's one-go rebuild.
import { emptyTable, type Engine, type Table, type Transaction, type World } from '@tablekeeper/engine';
import { tableFromSnapshot } from './snapshot.js';
import type { EventStore, TableRecord } from './store/port.js';

/** Rows read and parsed per page: about a few milliseconds of work on a loaded machine. */
export const LOAD_PAGE_ROWS = 500;
/** How long applying the rows after the snapshot may hold the event loop before it yields (ms). */
export const LOAD_SLICE_MS = 8;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The table as the store holds it, rebuilt with a turn for the event loop after every page of rows and every slice of replay. */
export async function loadTableInSlices(store: EventStore, engine: Engine, record: TableRecord): Promise<Table> {
  const { tableId } = record;
  const head = await store.head(tableId);
  // Every row is read (history and redo need them); only those after a usable snapshot are applied.
  const transactions: Transaction[] = [];
  while (transactions.length < head) {
    const page = await store.readLog(tableId, transactions.length, LOAD_PAGE_ROWS);
    if (page.length === 0) break;
    for (const r of page) {
      if (r.version !== transactions.length + 1) throw new Error(`table ${tableId}: row ${r.version} where ${transactions.length + 1} was expected`);
      transactions.push(r.transaction);
    }
    await yieldToLoop();
  }
  if (transactions.length !== head) throw new Error(`table ${tableId}: read ${transactions.length} transactions, the store has ${head}`);
  const snap = await store.latestSnapshot(tableId);
  // As Room.load: the stored genesis and snapshot read under today's names, never rewritten.
  const upcast = (w: World): World => engine.upcastWorld(w);
  let table = (snap !== null && snap.version <= head ? tableFromSnapshot(snap.state, record.genesis, transactions.slice(0, snap.version), [], upcast) : null) ?? emptyTable(upcast(record.genesis));
  let deadline = performance.now() + LOAD_SLICE_MS;
  for (let i = table.transactions.length; i < transactions.length; i++) {
    table = engine.apply(table, transactions[i]!);
    if (performance.now() > deadline) {
      await yieldToLoop();
      deadline = performance.now() + LOAD_SLICE_MS;
    }
  }
  return table;
}
