// Import as a bounded job (ADR 19): a JSON Lines export becomes a new table
// without stalling the other tables. The export is parsed, checked and
// replayed (import-check.ts) in slices on the event loop, or, when asked, in
// a worker thread that posts the checked rows in batches; the event loop
// writes the rows in short write transactions without their own fsync,
// yielding between slices. The GM token is written last, fully synced: until
// then no one can open the table, and a failure drops what was written. Only
// one import runs at a time.
import { Worker } from 'node:worker_threads';
import type { Engine, Table, Transaction, World } from '@tablekeeper/engine';
import type { RejectionError } from '@tablekeeper/protocol';
import { IMPORT_BATCH_ROWS, startImportCheck, type ImportCheckLimits, type ImportHeader, type ImportRefusal, type RowBatch } from './import-check.js';
import type { ImportJob, ImportWorkerMessage } from './import-worker.js';
import type { RulesetCatalog } from './rulesets.js';
import { encodeSnapshot, tableFromSnapshot } from './snapshot.js';
import type { EventStore, StoredRow, TableRecord, TokenRecord } from './store/port.js';

export type { ImportRefusal } from './import-check.js';

export interface ImportLimits extends ImportCheckLimits {
  readonly maxTables: number;
}

/** How long one slice of import work may hold the event loop before it yields (ms). */
export const IMPORT_SLICE_MS = 8;
/** An import that has not finished after this long is stopped (its worker terminated) and nothing is kept. */
export const IMPORT_TIME_CAP_MS = 5 * 60_000;

/** What the event loop receives from a check, wherever it runs. */
type CheckMessage =
  | { readonly type: 'header'; readonly header: ImportHeader }
  | { readonly type: 'rows'; readonly batch: RowBatch }
  /** `table` when the check ran on this thread; from a worker, its snapshot and newest undo worlds. */
  | { readonly type: 'done'; readonly table: Table }
  | { readonly type: 'done'; readonly snapshot: string; readonly kept: [number, World][] }
  | { readonly type: 'refused'; readonly refusal: ImportRefusal };

interface CheckSource {
  next(): Promise<CheckMessage>;
  /** The batch last received is written: the worker may send another. */
  ack(): void;
  close(): void;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const unavailable = (message: string): ImportRefusal => ({ status: 503, error: { kind: 'UNAVAILABLE', message } });

/** A large body's bytes move to the worker instead of being copied (a small Buffer may share Node's pool: copied). */
function ownedBuffer(body: Uint8Array | string): ArrayBuffer[] {
  if (typeof body === 'string' || body.byteLength < 64 * 1024) return [];
  const b = body.buffer;
  return b instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === b.byteLength ? [b] : [];
}

/** The check in a worker thread, which loads the catalog's engines by module specifier. */
function workerSource(catalogModule: string, job: ImportJob, timeCapMs: number): CheckSource {
  const worker = new Worker(new URL('./import-worker-boot.mjs', import.meta.url), { workerData: { catalogModule } });
  const inbox: CheckMessage[] = [];
  let waiting: ((m: CheckMessage) => void) | null = null;
  let ended = false;
  const deliver = (m: CheckMessage) => {
    if (ended) return;
    if (m.type === 'done' || m.type === 'refused') ended = true;
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(m);
    } else inbox.push(m);
  };
  const timer = setTimeout(() => deliver({ type: 'refused', refusal: unavailable(`the import did not finish within ${timeCapMs / 1000} s; nothing was created`) }), timeCapMs);
  timer.unref();
  worker.on('message', (m: ImportWorkerMessage) => {
    if (m.type === 'ready') worker.postMessage({ type: 'job', job }, ownedBuffer(job.body));
    else if (m.type === 'header') deliver({ type: 'header', header: m.header });
    else deliver(m);
  });
  worker.on('error', (e) => deliver({ type: 'refused', refusal: unavailable(`the import's check failed: ${e.message}; nothing was created`) }));
  worker.on('exit', () => deliver({ type: 'refused', refusal: unavailable('the import worker stopped; nothing was created') }));
  return {
    next: () => {
      const m = inbox.shift();
      return m !== undefined ? Promise.resolve(m) : new Promise((resolve) => (waiting = resolve));
    },
    ack: () => worker.postMessage({ type: 'ack' }),
    close: () => {
      clearTimeout(timer);
      ended = true;
      void worker.terminate();
    },
  };
}

/** The check on the event loop, one slice per batch. */
function inlineSource(body: Buffer | string, engineFor: (id: string) => Engine | null, job: ImportJob): CheckSource {
  const check = startImportCheck(body, engineFor, job.limits, job.tableId);
  let state: 'start' | 'rows' | 'ended' = 'start';
  return {
    async next() {
      if ('error' in check) return { type: 'refused', refusal: check };
      if (state === 'start') {
        state = 'rows';
        return { type: 'header', header: check.header };
      }
      await yieldToLoop();
      const batch = check.next(Number.MAX_SAFE_INTEGER, performance.now() + IMPORT_SLICE_MS);
      if (batch === null) {
        state = 'ended';
        const table = check.finish();
        return 'error' in table ? { type: 'refused', refusal: table } : { type: 'done', table };
      }
      return 'error' in batch ? { type: 'refused', refusal: batch } : { type: 'rows', batch };
    },
    ack: () => undefined,
    close: () => undefined,
  };
}

export interface ImportDeps {
  readonly store: EventStore;
  readonly catalog: RulesetCatalog;
  readonly limits: ImportLimits;
  /** Mints the GM token of the new table (its record is written last). */
  readonly newGmToken: (tableId: string) => { token: string; record: TokenRecord };
  readonly mintTableId: () => string;
  /** Check in a worker thread (when the catalog names a worker module) instead of on the event loop. */
  readonly inWorker: boolean;
  readonly timeCapMs?: number;
}

export type ImportOutcome = { readonly ok: true; readonly record: TableRecord; readonly table: Table; readonly gmToken: string } | ({ readonly ok: false } & ImportRefusal);

/**
 * Imports an export: checks it (in a worker when asked and the catalog names
 * a worker module), writes the checked rows between slices, then a snapshot,
 * and the GM token last. A refusal or failure leaves nothing behind.
 */
export async function importTable(body: Buffer | string, deps: ImportDeps): Promise<ImportOutcome> {
  const { store, catalog, limits } = deps;
  const job: ImportJob = { body, tableId: deps.mintTableId(), limits: { maxTransactions: limits.maxTransactions, maxImportBytes: limits.maxImportBytes } };
  const inWorker = deps.inWorker && catalog.workerModule !== undefined;
  const source = inWorker && catalog.workerModule
    ? workerSource(catalog.workerModule, job, deps.timeCapMs ?? IMPORT_TIME_CAP_MS)
    : inlineSource(body, (id) => catalog.engineFor(id), job);
  const refuse = (r: ImportRefusal): ImportOutcome => ({ ok: false, ...r });
  let record: TableRecord | null = null;
  try {
    const first = await source.next();
    if (first.type === 'refused') return refuse(first.refusal);
    if (first.type !== 'header') return refuse(unavailable('the import check answered out of order; nothing was created'));
    const { header } = first;
    const engine = catalog.engineFor(header.rulesetId);
    if (!engine) return refuse({ status: 400, error: { kind: 'INVALID', message: `line 1: unknown ruleset ${header.rulesetId}`, path: [1, 'rulesetId'] } });
    if ((await store.countTables()) >= limits.maxTables) return refuse({ status: 403, error: { kind: 'LIMIT_REACHED', limit: 'maxTables', max: limits.maxTables, message: `this server holds at most ${limits.maxTables} tables` } as RejectionError });
    const made: TableRecord = { tableId: header.tableId, name: header.name, rulesetId: header.rulesetId, genesis: header.genesis, createdAt: Date.now() };
    await store.createTable(made, []);
    record = made;
    // From a worker, the rows arrive as text: parsed here for the room's log (the worker replayed them).
    const transactions: Transaction[] = [];
    const keepParsed = inWorker;
    let table: Table | null = null;
    let chunk = 64;
    for (;;) {
      const m = await source.next();
      if (m.type === 'refused') return refuse(await dropped(store, made.tableId, m.refusal));
      if (m.type === 'header') return refuse(await dropped(store, made.tableId, unavailable('the import check answered out of order; nothing was created')));
      if (m.type === 'done') {
        table = 'table' in m ? m.table : tableFromSnapshot(m.snapshot, header.genesis, transactions, m.kept, (w) => engine.upcastWorld(w));
        break;
      }
      const { batch } = m;
      // Rows per write transaction adapt so that one (parse and insert) holds the loop about one slice.
      for (let at = 0; at < batch.txs.length; ) {
        const started = performance.now();
        const end = Math.min(batch.txs.length, at + chunk);
        const rows: StoredRow[] = [];
        for (let k = at; k < end; k++) {
          if (keepParsed) transactions.push(JSON.parse(batch.txs[k]!) as Transaction);
          rows.push({ version: batch.from + k, commandId: batch.commandIds[k]!, actorKey: batch.actorKeys[k]!, tx: batch.txs[k]! });
        }
        await store.importRows(made.tableId, rows);
        at = end;
        const took = performance.now() - started;
        chunk = Math.max(8, Math.min(IMPORT_BATCH_ROWS * 4, Math.round(chunk * (IMPORT_SLICE_MS / Math.max(took, 0.25)))));
        await yieldToLoop();
      }
      source.ack();
    }
    if (table === null) return refuse(await dropped(store, made.tableId, unavailable('the checked table does not match its rows; nothing was created')));
    if (table.transactions.length > 0) await store.putSnapshot(made.tableId, table.transactions.length, encodeSnapshot(table));
    const gm = deps.newGmToken(made.tableId);
    // Written with the store's full durability: this commit also syncs every row before it.
    await store.addToken(gm.record);
    return { ok: true, record: made, table, gmToken: gm.token };
  } catch (e) {
    const failure = unavailable(`the import could not be saved, nothing was created (${e instanceof Error ? e.message : 'store error'})`);
    return refuse(record ? await dropped(store, record.tableId, failure) : failure);
  } finally {
    source.close();
  }
}

/** Drops a half-written import; the refusal stands whatever happens. */
async function dropped(store: EventStore, tableId: string, refusal: ImportRefusal): Promise<ImportRefusal> {
  try {
    await store.dropTable(tableId);
  } catch {
    // the table has no token, so no one can open what is left of it
  }
  return refusal;
}

/** One import at a time: a second one waits its turn instead of doubling the memory and the work. */
export class ImportQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly maxWaiting = 2) {}

  /** Runs `job` after the ones before it; null when too many are already waiting. */
  run<T>(job: () => Promise<T>): Promise<T> | null {
    if (this.waiting >= this.maxWaiting) return null;
    this.waiting++;
    const p = this.tail.then(job).finally(() => this.waiting--);
    this.tail = p.catch(() => undefined);
    return p;
  }
}
