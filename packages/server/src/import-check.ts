// The check half of an import, with no I/O: it reads a JSON Lines export line
// by line, checks each row's shape, its version and its commandId, replays it
// through the ruleset's engine, and hands the rows on in batches of stored
// text. It runs in the import worker (import-worker.ts) or, for catalogs
// without a worker module, on the event loop in slices (import.ts).
import { emptyTable, type Engine, type Table, type Transaction, type Viewer, type World } from '@tablekeeper/engine';
import { LIMITS, exportHeaderSchema, type RejectionError } from '@tablekeeper/protocol';

export type ImportRefusal = { readonly status: number; readonly error: RejectionError };

/** The table an import creates: the header's name and ruleset, the genesis under the fresh table id. */
export interface ImportHeader {
  readonly tableId: string;
  readonly name: string;
  readonly rulesetId: string;
  readonly genesis: World;
}

/** Checked rows `from`, `from + 1`, ... with their transactions as the text the store keeps. */
export interface RowBatch {
  readonly from: number;
  readonly commandIds: (string | null)[];
  readonly actorKeys: string[];
  readonly txs: string[];
}

export interface ImportCheckLimits {
  readonly maxTransactions: number;
  readonly maxImportBytes: number;
}

/** Rows per batch: small enough that the event loop parses and writes one within a slice. */
export const IMPORT_BATCH_ROWS = 256;

const viewerKeyOf = (v: Viewer): string => (v.role === 'player' ? `player:${v.seatId}` : v.role);
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const pathOf = (issue: { path?: readonly PropertyKey[] } | undefined): (string | number)[] => (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)));
const bad = (line: number, message: string, path: (string | number)[] = []): ImportRefusal => ({ status: 400, error: { kind: 'INVALID', message: `line ${line}: ${message}`, path: [line, ...path] } });

/**
 * One transaction line's shape, checked by hand: JSON.parse already gives
 * plain JSON, so a schema walk over the whole transaction (what zod's
 * `z.json()` did, about 30 us a row) checks nothing more.
 */
function rowShape(raw: unknown, line: number): { version: number; commandId: string | null; transaction: Record<string, unknown> } | ImportRefusal {
  if (!isRecord(raw)) return bad(line, 'not a transaction line (a JSON object)');
  if (raw['kind'] !== 'transaction') return bad(line, 'kind must be "transaction"', ['kind']);
  const version = raw['version'];
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) return bad(line, 'version must be a whole number from 1', ['version']);
  const commandId = raw['commandId'];
  if (commandId !== null && (typeof commandId !== 'string' || commandId.length > LIMITS.commandIdMaxLength)) return bad(line, `commandId must be null or a string of at most ${LIMITS.commandIdMaxLength} characters`, ['commandId']);
  const transaction = raw['transaction'];
  if (!isRecord(transaction)) return bad(line, 'transaction must be an object', ['transaction']);
  return { version, commandId, transaction };
}

/**
 * A running check: `next()` checks and replays up to `maxRows` rows (or
 * until `deadline`, a performance.now() time) and returns them as a batch,
 * a refusal naming the line, or null when every row is done.
 */
export interface ImportCheck {
  readonly header: ImportHeader;
  next(maxRows: number, deadline?: number): RowBatch | ImportRefusal | null;
  /** After the last batch: the replayed table (the GM's view of it is built once, as a last check). */
  finish(): Table | ImportRefusal;
}

/** True for the bytes JSON Lines may pad a line with (space, tab, carriage return). */
const isBlankByte = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d;

/**
 * The non-blank lines of the export's bytes, found as the check reaches them
 * (a native search for the next newline): a 27 MB import never holds the
 * event loop to split itself into 100k strings up front, and each line is
 * decoded only when its row is checked. A newline byte never occurs inside a
 * UTF-8 sequence, so each line decodes on its own.
 */
class Lines {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private at = 0;

  constructor(private readonly bytes: Buffer) {}

  /** True when line `i` (0-based, blank lines skipped) exists; finds lines up to it. */
  has(i: number): boolean {
    while (this.starts.length <= i && this.at < this.bytes.length) {
      let end = this.bytes.indexOf(0x0a, this.at);
      if (end < 0) end = this.bytes.length;
      let k = this.at;
      while (k < end && isBlankByte(this.bytes[k]!)) k++;
      if (k < end) {
        this.starts.push(this.at);
        this.ends.push(end);
      }
      this.at = end + 1;
    }
    return i < this.starts.length;
  }

  /** How many lines there are (finds them all: for a refusal's message). */
  count(): number {
    this.has(Number.MAX_SAFE_INTEGER);
    return this.starts.length;
  }

  text(i: number): string {
    return this.bytes.toString('utf8', this.starts[i], this.ends[i]);
  }
}

/** Checks the size and the header; the rows (and their count against the cap) are checked by the returned `next()`. */
export function startImportCheck(body: Buffer | string, engineFor: (rulesetId: string) => Engine | null, limits: ImportCheckLimits, tableId: string): ImportCheck | ImportRefusal {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length > limits.maxImportBytes) return { status: 413, error: { kind: 'TOO_LARGE', message: `an import is at most ${limits.maxImportBytes} bytes; this one is ${bytes.length}`, limit: limits.maxImportBytes } };
  const lines = new Lines(bytes);
  if (!lines.has(0)) return bad(1, 'empty import');
  const parse = (i: number): unknown => {
    try {
      return JSON.parse(lines.text(i));
    } catch {
      return undefined;
    }
  };
  const head = exportHeaderSchema.safeParse(parse(0));
  if (!head.success) return bad(1, head.error.issues[0]?.message ?? 'not a table header', pathOf(head.error.issues[0]));
  const engine = engineFor(head.data.rulesetId);
  if (!engine) return bad(1, `unknown ruleset ${head.data.rulesetId}`, ['rulesetId']);
  const g = head.data.genesis as Record<string, unknown>;
  if (g['rulesetId'] !== head.data.rulesetId || !isRecord(g['seats']) || !isRecord(g['characters']) || !isRecord(g['ext']) || !isRecord(g['settings']) || !isRecord(g['clock']) || !Array.isArray(g['log']) || typeof g['nextId'] !== 'number') {
    return bad(1, 'the genesis is not a world of this ruleset', ['genesis']);
  }
  const header: ImportHeader = { tableId, name: head.data.name, rulesetId: head.data.rulesetId, genesis: { ...(head.data.genesis as unknown as World), tableId } };
  const ids = new Set<string>();
  // The header keeps the file's genesis (stored as sent); the replay reads it under today's names.
  let table = emptyTable(engine.upcastWorld(header.genesis));
  let i = 1;

  return {
    header,
    next(maxRows, deadline = Infinity) {
      if (!lines.has(i)) return null;
      const batch: RowBatch = { from: i, commandIds: [], actorKeys: [], txs: [] };
      for (let n = 0; n < maxRows && lines.has(i); n++, i++) {
        if (i > limits.maxTransactions) {
          return { status: 413, error: { kind: 'LIMIT_REACHED', limit: 'maxTransactions', max: limits.maxTransactions, message: `an import holds at most ${limits.maxTransactions} transactions; this one has ${lines.count() - 1}` } };
        }
        const row = rowShape(parse(i), i + 1);
        if ('error' in row) return row;
        if (row.version !== i) return bad(i + 1, `expected version ${i}, found ${row.version} (versions must have no gaps)`, ['version']);
        const tx = row.transaction as unknown as Transaction;
        const actor = tx.actor as Viewer | undefined;
        const actorKey = isRecord(actor) && typeof actor.role === 'string' ? viewerKeyOf(actor) : 'gm';
        if (row.commandId !== null) {
          // Idempotency keys are per sender, like the store's.
          const key = `${actorKey}\u0000${row.commandId}`;
          if (ids.has(key)) return bad(i + 1, `commandId ${row.commandId} appears twice for ${actorKey}`, ['commandId']);
          ids.add(key);
        }
        try {
          table = engine.apply(table, tx);
        } catch (e) {
          return bad(i + 1, `the log does not replay here: ${e instanceof Error ? e.message : String(e)}`, ['transaction']);
        }
        batch.commandIds.push(row.commandId);
        batch.actorKeys.push(actorKey);
        batch.txs.push(JSON.stringify(tx));
        if ((n & 15) === 15 && performance.now() > deadline) {
          i++;
          break;
        }
      }
      return batch;
    },
    finish() {
      try {
        engine.view(table, { role: 'gm' });
      } catch (e) {
        return { status: 400, error: { kind: 'INVALID', message: `the imported table cannot be shown: ${e instanceof Error ? e.message : String(e)}`, path: [] } };
      }
      return table;
    },
  };
}
