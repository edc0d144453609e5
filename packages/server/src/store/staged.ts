// A group commit's rows, staged while the batch decides on the event loop and
// written afterwards by a store whose writes are asynchronous: PostgreSQL
// (ADR 49) and the SQLite writer thread (ADR 107). Each row's transaction is
// serialised here, once; a duplicate inside the batch is answered from it.
import type { Transaction } from '@tablekeeper/engine';
import type { AppendResult, BatchWriter, TxRecord } from './port.js';

export interface StagedRow {
  readonly tableId: string;
  readonly version: number;
  readonly commandId: string | null;
  readonly actorKey: string;
  readonly tx: string;
}

export const commandKey = (tableId: string, actorKey: string, commandId: string) => `${tableId}\u0000${actorKey}\u0000${commandId}`;

export class StagedBatch implements BatchWriter {
  readonly rows: StagedRow[] = [];
  readonly snapshots = new Map<string, { version: number; state: string }>();
  private readonly heads = new Map<string, number>();
  /** Command ids this batch appended: a later command with the same id is answered as a duplicate of it (parsed only then). */
  private readonly staged = new Map<string, StagedRow>();

  /** `stored` answers a command id from the store (synchronously: read before the batch, or on a read connection). */
  constructor(private readonly stored: (tableId: string, actorKey: string, commandId: string) => TxRecord | null) {}

  empty(): boolean {
    return this.rows.length === 0 && this.snapshots.size === 0;
  }

  findCommand(tableId: string, actorKey: string, commandId: string): TxRecord | null {
    const row = this.staged.get(commandKey(tableId, actorKey, commandId));
    if (row === undefined) return this.stored(tableId, actorKey, commandId);
    return { version: row.version, commandId: row.commandId, actorKey: row.actorKey, transaction: JSON.parse(row.tx) as Transaction };
  }

  append(tableId: string, expected: number, record: Omit<TxRecord, 'version'>): AppendResult {
    if (record.commandId !== null) {
      const dup = this.findCommand(tableId, record.actorKey, record.commandId);
      if (dup) return { ok: false, reason: 'duplicate', existing: dup };
    }
    // A table's first row trusts the room's version; the write checks it against the stored head.
    const head = this.heads.get(tableId);
    if (head !== undefined && head !== expected) return { ok: false, reason: 'conflict', current: head };
    const version = expected + 1;
    const tx = JSON.stringify(record.transaction);
    const row = { tableId, version, commandId: record.commandId, actorKey: record.actorKey, tx };
    this.rows.push(row);
    this.heads.set(tableId, version);
    if (record.commandId !== null) this.staged.set(commandKey(tableId, record.actorKey, record.commandId), row);
    return { ok: true, version };
  }

  putSnapshot(tableId: string, version: number, state: string): void {
    this.snapshots.set(tableId, { version, state });
  }
}
