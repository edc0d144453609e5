// @tablekeeper/protocol/wire: the zod-free half of the protocol, shared by the
// server, the web client and tests: wire constants, the delta shape and the one
// delta fold. Importing it never ships zod to a phone.
import type { LogEntry, TableView, TransactionView } from '@tablekeeper/engine';

/** Bumped on any incompatible change to the messages. 2: deltas patch paths and stream the log and history; acks ride in deltas. */
export const PROTOCOL_VERSION = 2;

/** The subprotocol a client offers first; the server always selects it. */
export const WS_SUBPROTOCOL = `tablekeeper.v${PROTOCOL_VERSION}`;
/** Subprotocols of earlier versions: the server accepts the upgrade only to close it with a "please reload". */
export const WS_OLD_SUBPROTOCOLS: readonly string[] = ['tablekeeper.v1'];
/** Prefix of the second subprotocol that carries the capability token (auth before upgrade). */
export const WS_TOKEN_PREFIX = 'tablekeeper.token.';
/** The WebSocket path on the server. */
export const WS_PATH = '/ws';

/** `new WebSocket(url, wsProtocols(token))` authenticates during the upgrade; the token never goes in the URL. */
export function wsProtocols(token: string): string[] {
  return [WS_SUBPROTOCOL, WS_TOKEN_PREFIX + token];
}

/** WebSocket close codes (4xxx are ours). */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  tooLarge: 1009,
  /** The client speaks another protocol version: it must reload the page (its code is stale). */
  badProtocolVersion: 4400,
  unauthorized: 4401,
  revoked: 4403,
  authTimeout: 4408,
  rateLimited: 4429,
  tableClosed: 4410,
} as const;

/** The close reason an out-of-date client shows its user. */
export const RELOAD_REASON = `The table server was updated (protocol ${PROTOCOL_VERSION}). Please reload the page.`;

// ---------------------------------------------------------------- deltas

/** One change inside the world: set the value at `p` (a path of keys from the world), or delete it when `v` is absent. */
export interface WorldPatch {
  readonly p: readonly string[];
  readonly v?: unknown;
}

/**
 * A run of a streamed list: `[start, count]` keeps that many entries the client
 * holds, from `start`; `{ add }` inserts new ones.
 */
export type StreamPiece<T> = readonly [start: number, count: number] | { readonly add: readonly T[] };

/**
 * An append-only list (the log, the history) as a change to what the client
 * holds: its pieces in order. Unchanged entries are never re-sent: a new entry
 * is `[[0, n], { add: [e] }]`, a sliding window `[[1, n - 1], { add: [e] }]`, an
 * entry hidden mid-list splits the kept range in two.
 */
export type StreamPatch<T> = readonly StreamPiece<T>[];

/** A command of the receiver's own that this delta carries out (its ack, folded in). */
export interface DeltaAck {
  readonly commandId: string;
  readonly version: number;
}

/** The changes to this viewer's view from version `from` to `version`. Fold with `applyDelta`. */
export interface Delta {
  readonly type: 'delta';
  readonly from: number;
  readonly version: number;
  /** Changed top-level flags of the view (canUndo, canRedo, undoLabel, redoLabel, undoWords, redoWords): replace. */
  readonly parts?: { readonly [key: string]: unknown };
  /** Changed world values other than the log, by path. */
  readonly world?: readonly WorldPatch[];
  readonly log?: StreamPatch<LogEntry>;
  readonly history?: StreamPatch<TransactionView>;
  /** Only in the sender's copy: the commands of theirs this delta applies (no separate ack frame). */
  readonly acks?: readonly DeltaAck[];
}

/** Largest path a world patch may have (the fold refuses deeper ones: a bound on what a frame can make it do). */
export const MAX_PATCH_DEPTH = 8;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Sets (or deletes) `value` at `path` inside `root`, copying each object on the way (never mutates). */
function patchAt(root: Record<string, unknown>, path: readonly string[], i: number, patch: WorldPatch): Record<string, unknown> {
  const key = path[i]!;
  const out = { ...root };
  if (i === path.length - 1) {
    if ('v' in patch) out[key] = patch.v;
    else delete out[key];
    return out;
  }
  const child = root[key];
  out[key] = patchAt(isRecord(child) ? child : {}, path, i + 1, patch);
  return out;
}

function foldStream<T>(held: readonly T[], patch: StreamPatch<T>, what: string): T[] {
  const out: T[] = [];
  let next = 0;
  for (const piece of patch) {
    if (!Array.isArray(piece)) {
      out.push(...(piece as { readonly add: readonly T[] }).add);
      continue;
    }
    const [start, count] = piece as readonly [number, number];
    // Kept ranges go forward through what the client holds; anything else means the delta is not for this view.
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < next || count < 1 || start + count > held.length) {
      throw new Error(`the ${what} delta keeps entries ${start}-${start + count - 1}, but the view holds ${held.length} (from ${next})`);
    }
    for (let i = start; i < start + count; i++) out.push(held[i]!);
    next = start + count;
  }
  return out;
}

/** Folds a delta into the view a client holds (pure; returns a new object). The same fold runs on the server in tests and in every client. */
export function applyDelta(view: TableView, delta: Delta): TableView {
  let world = view.world as unknown as Record<string, unknown>;
  for (const patch of delta.world ?? []) {
    if (patch.p.length === 0 || patch.p.length > MAX_PATCH_DEPTH) throw new Error(`a world patch path has 1-${MAX_PATCH_DEPTH} keys, not ${patch.p.length}`);
    world = patchAt(world, patch.p, 0, patch);
  }
  if (delta.log) world = { ...world, log: foldStream(view.world.log, delta.log, 'log') };
  const next: Record<string, unknown> = { ...(view as unknown as Record<string, unknown>), ...(delta.parts ?? {}), world };
  if (delta.history) next['history'] = foldStream(view.history, delta.history, 'history');
  next['version'] = delta.version;
  return next as unknown as TableView;
}

/** The ack frames a message stands for: a delta's folded acks, one by one (for clients that wait on acks by commandId). */
export function unfoldAcks(msg: { readonly type: string; readonly acks?: readonly DeltaAck[] }): { type: 'ack'; commandId: string; version: number; duplicate: false }[] {
  if (msg.type !== 'delta' || msg.acks === undefined) return [];
  return msg.acks.map((a) => ({ type: 'ack', commandId: a.commandId, version: a.version, duplicate: false }));
}
