// Import as a bounded job: a JSON Lines export becomes a new table without
// stalling the other tables. The text is checked and replayed in time slices
// (replay is linear: apply copies neither the log nor the undo stacks), the
// rows are written in short write transactions between slices, and only one
// import runs at a time. Caps: bytes (the body limit), transactions, and
// the table count; every refusal names the line and field.
import { emptyTable, type Engine, type Table, type Transaction, type Viewer, type World } from '@tablekeeper/engine';
import { exportHeaderSchema, exportTransactionSchema, type RejectionError } from '@tablekeeper/protocol';
import { viewerKey } from './room.js';
import type { RulesetCatalog } from './rulesets.js';
import { encodeSnapshot } from './snapshot.js';
import type { EventStore, TableRecord, TokenRecord, TxRecord } from './store/port.js';
import { mintTableId } from './tokens.js';

export interface ImportLimits {
  readonly maxTransactions: number;
  readonly maxImportBytes: number;
  readonly maxTables: number;
}

/** How long one slice of import work may hold the event loop before it yields (ms). */
export const IMPORT_SLICE_MS = 8;
/** A write slice is longer: each one pays a commit (fsync), so fewer, larger ones finish sooner. */
export const IMPORT_WRITE_SLICE_MS = 20;

/** A checked import: the rows to store and the table they replay to. */
export interface CheckedImport {
  readonly tableId: string;
  readonly name: string;
  readonly rulesetId: string;
  readonly genesis: World;
  readonly log: readonly TxRecord[];
  readonly table: Table;
}

export type ImportRefusal = { readonly status: number; readonly error: RejectionError };

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `step(i)` for i in [from, to), yielding to the event loop every IMPORT_SLICE_MS; a step may stop the loop with a refusal. */
async function sliced<T>(from: number, to: number, step: (i: number) => T | undefined): Promise<T | undefined> {
  let sliceStart = performance.now();
  for (let i = from; i < to; i++) {
    const stop = step(i);
    if (stop !== undefined) return stop;
    if (performance.now() - sliceStart > IMPORT_SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  return undefined;
}

const pathOf = (issue: { path?: readonly PropertyKey[] } | undefined): (string | number)[] => (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)));

/**
 * Validates a JSON Lines export: header, every line's shape, consecutive
 * versions, unique command ids, and a replay through the ruleset's engine
 * (a log that does not replay is refused at the line that fails). The table
 * gets a fresh id. Yields to the event loop between slices.
 */
export async function checkImport(text: string, catalog: RulesetCatalog, limits: Pick<ImportLimits, 'maxTransactions' | 'maxImportBytes'>): Promise<CheckedImport | ImportRefusal> {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxImportBytes) return { status: 413, error: { kind: 'TOO_LARGE', message: `an import is at most ${limits.maxImportBytes} bytes; this one is ${bytes}`, limit: limits.maxImportBytes } };
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const bad = (line: number, message: string, path: (string | number)[] = []): ImportRefusal => ({ status: 400, error: { kind: 'INVALID', message: `line ${line}: ${message}`, path: [line, ...path] } });
  if (lines.length === 0) return bad(1, 'empty import');
  if (lines.length - 1 > limits.maxTransactions) {
    return { status: 413, error: { kind: 'LIMIT_REACHED', limit: 'maxTransactions', max: limits.maxTransactions, message: `an import holds at most ${limits.maxTransactions} transactions; this one has ${lines.length - 1}` } };
  }
  const parse = (i: number): unknown => {
    try {
      return JSON.parse(lines[i]!);
    } catch {
      return undefined;
    }
  };
  const head = exportHeaderSchema.safeParse(parse(0));
  if (!head.success) return bad(1, head.error.issues[0]?.message ?? 'not a table header', pathOf(head.error.issues[0]));
  const engine: Engine | null = catalog.engineFor(head.data.rulesetId);
  if (!engine) return bad(1, `unknown ruleset ${head.data.rulesetId}`, ['rulesetId']);
  const g = head.data.genesis as Record<string, unknown>;
  const isRec = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (g['rulesetId'] !== head.data.rulesetId || !isRec(g['seats']) || !isRec(g['characters']) || !isRec(g['ext']) || !isRec(g['settings']) || !isRec(g['clock']) || !Array.isArray(g['log']) || typeof g['nextId'] !== 'number') {
    return bad(1, 'the genesis is not a world of this ruleset', ['genesis']);
  }
  const tableId = mintTableId();
  const genesis = { ...(head.data.genesis as unknown as World), tableId };
  const log: TxRecord[] = [];
  const ids = new Set<string>();
  let table = emptyTable(genesis);
  const refused = await sliced(1, lines.length, (i): ImportRefusal | undefined => {
    const row = exportTransactionSchema.safeParse(parse(i));
    if (!row.success) return bad(i + 1, row.error.issues[0]?.message ?? 'not a transaction line', pathOf(row.error.issues[0]));
    if (row.data.version !== i) return bad(i + 1, `expected version ${i}, found ${row.data.version} (versions must have no gaps)`, ['version']);
    const { commandId } = row.data;
    const tx = row.data.transaction as unknown as Transaction;
    const actor = tx.actor as Viewer | undefined;
    const actorKey = actor && typeof actor === 'object' && typeof actor.role === 'string' ? viewerKey(actor) : 'gm';
    if (commandId !== null) {
      // Idempotency keys are per sender, like the store's.
      const key = `${actorKey}\u0000${commandId}`;
      if (ids.has(key)) return bad(i + 1, `commandId ${commandId} appears twice for ${actorKey}`, ['commandId']);
      ids.add(key);
    }
    try {
      table = engine.apply(table, tx);
    } catch (e) {
      return bad(i + 1, `the log does not replay here: ${e instanceof Error ? e.message : String(e)}`, ['transaction']);
    }
    log.push({ version: i, commandId, actorKey, transaction: tx });
    return undefined;
  });
  if (refused !== undefined) return refused;
  try {
    engine.view(table, { role: 'gm' });
  } catch (e) {
    return { status: 400, error: { kind: 'INVALID', message: `the imported table cannot be shown: ${e instanceof Error ? e.message : String(e)}`, path: [] } };
  }
  return { tableId, name: head.data.name, rulesetId: head.data.rulesetId, genesis, log, table };
}

/**
 * Writes a checked import: the table row, then the rows in short write
 * transactions between slices (other tables' commits interleave), then a
 * snapshot, and the GM token last: until then no one can open the table.
 * A failed write drops what was written and answers UNAVAILABLE.
 */
export async function writeImport(store: EventStore, checked: CheckedImport, gm: TokenRecord): Promise<ImportRefusal | null> {
  const record: TableRecord = { tableId: checked.tableId, name: checked.name, rulesetId: checked.rulesetId, genesis: checked.genesis, createdAt: Date.now() };
  let created = false;
  try {
    store.createTable(record, []);
    created = true;
    // Rows per write transaction adapt so that one (with its fsync) holds the loop about one slice.
    let next = 0;
    let chunk = 256;
    while (next < checked.log.length) {
      const started = performance.now();
      const rows = checked.log.slice(next, next + chunk);
      store.importRows(checked.tableId, rows);
      next += rows.length;
      const took = performance.now() - started;
      chunk = Math.max(16, Math.min(8192, Math.round(chunk * (IMPORT_WRITE_SLICE_MS / Math.max(took, 0.5)))));
      await yieldToLoop();
    }
    if (checked.log.length > 0) store.putSnapshot(checked.tableId, checked.log.length, encodeSnapshot(checked.table));
    store.addToken(gm);
    return null;
  } catch (e) {
    if (created) {
      try {
        store.dropTable(checked.tableId);
      } catch {
        // the table has no token, so no one can open what is left of it
      }
    }
    return { status: 503, error: { kind: 'UNAVAILABLE', message: `the import could not be saved, nothing was created (${e instanceof Error ? e.message : 'store error'})` } };
  }
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
