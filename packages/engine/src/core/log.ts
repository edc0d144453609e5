// The table log lives in the world (so undo removes entries with everything
// else). Reducers append with tx = PENDING_TX; the engine stamps the
// transaction's seq once the transaction is applied.
import type { Audience, Json, LogEntry, World } from './types.js';

export const PENDING_TX = -1;
/** Named setting: how many log entries the world keeps (oldest dropped first). */
export const LOG_LIMIT_SETTING = 'core.logLimit';
export const DEFAULT_LOG_LIMIT = 1000;
export const MAX_LOG_TEXT = 2000;

export interface LogInput {
  readonly audience: Audience;
  readonly kind: string;
  readonly text: string;
  /** The sentence players read instead, without the GM-only detail in `text` (ADR 33). */
  readonly shown?: string;
  readonly data?: Json;
}

function logLimit(world: World): number {
  const v = world.settings[LOG_LIMIT_SETTING];
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : DEFAULT_LOG_LIMIT;
}

/** Append an entry from a reducer. Oldest entries are dropped past the named limit (no note: a count of dropped GM entries would leak). */
export function appendLog(world: World, entry: LogInput): World {
  const e: LogEntry = {
    tx: PENDING_TX,
    audience: entry.audience,
    kind: entry.kind,
    text: entry.text,
    ...(entry.shown === undefined || entry.shown === entry.text ? {} : { shown: entry.shown }),
    ...(entry.data === undefined ? {} : { data: entry.data }),
  };
  const limit = logLimit(world);
  const drop = world.log.length + 1 - limit;
  // One exact copy (concat sizes it; a spread grows the array as it goes); at the limit, the oldest go in the same copy.
  const log = drop > 0 ? world.log.slice(drop).concat([e]) : world.log.concat([e]);
  return { ...world, log };
}

/** Engine side: give every pending entry the seq of the transaction that wrote it. */
export function stampLog(world: World, seq: number): World {
  const log = world.log;
  let i = log.length;
  while (i > 0 && log[i - 1]!.tx === PENDING_TX) i--;
  if (i === log.length) return world;
  // One copy of the log (it may hold a thousand entries), stamped in place.
  const out = log.slice();
  for (let k = i; k < out.length; k++) out[k] = { ...out[k]!, tx: seq };
  return { ...world, log: out };
}
