// Room snapshots: the world and the undo / redo stacks at a version, without
// the transactions (they are the store's rows), so writing one costs the size
// of the world, not of the table's age, and a cold load applies only the rows
// after it. A snapshot is a cache: anything odd about it means a full replay.
import { SeqStack, TransactionLog, type Table, type Transaction, type World } from '@tablekeeper/engine';
import type { TxRecord } from './store/port.js';

interface SnapshotState {
  readonly genesis: World;
  readonly world: World;
  readonly live: readonly number[];
  readonly redoable: readonly number[];
}

export function encodeSnapshot(table: Table): string {
  const state: SnapshotState = { genesis: table.genesis, world: table.world, live: table.live.toArray(), redoable: table.redoable.toArray() };
  return JSON.stringify(state);
}

/** A stored world under today's names (Engine.upcastWorld): run after reading, so stored bytes never change. */
export type Upcast = (world: World) => World;
const same: Upcast = (w) => w;

const isSeqs = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => Number.isSafeInteger(n) && (n as number) > 0);

/**
 * The table at `version` from a snapshot and the first `version` rows, or null
 * when the snapshot does not fit this table (older format, other genesis).
 */
export function decodeSnapshot(text: string, version: number, genesis: World, rows: readonly TxRecord[], upcast: Upcast = same): Table | null {
  if (version > rows.length) return null;
  return tableFromSnapshot(text, genesis, rows.slice(0, version).map((r) => r.transaction), [], upcast);
}

/**
 * The table after `transactions` from a snapshot taken there, or null when it
 * does not fit. `kept` (the undo stack's newest worlds, SeqStack.keptWorlds)
 * lets the newest entries undo without a replay from the genesis.
 */
export function tableFromSnapshot(text: string, stored: World, transactions: readonly Transaction[], kept: readonly [number, World][] = [], upcast: Upcast = same): Table | null {
  const version = transactions.length;
  let s: Partial<SnapshotState>;
  try {
    s = JSON.parse(text) as Partial<SnapshotState>;
  } catch {
    return null;
  }
  if (s === null || typeof s !== 'object' || typeof s.world !== 'object' || s.world === null || typeof s.genesis !== 'object' || s.genesis === null || !isSeqs(s.live) || !isSeqs(s.redoable)) return null;
  // Both sides under today's names: a snapshot written before a settings rename (or after it) still fits its table.
  const genesis = upcast(stored);
  if (JSON.stringify(upcast(s.genesis)) !== JSON.stringify(genesis)) return null;
  if (s.live.some((n) => n > version) || s.redoable.some((n) => n > version)) return null;
  return {
    genesis,
    world: upcast(s.world),
    transactions: TransactionLog.from(transactions),
    live: SeqStack.from(s.live, genesis, new Map(kept)),
    redoable: SeqStack.from(s.redoable),
  };
}
