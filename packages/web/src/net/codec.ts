// Wire shapes, confined here: the client speaks @tablekeeper/protocol. Its
// runtime values and the delta fold come from the zod-free subpath
// @tablekeeper/protocol/wire (the very fold the server's tests use), so zod is
// not shipped to the browser; the server validates every frame.
import type { Ack, QueryResult, Rejection as WireRejection, RejectionError, ServerMessage, Snapshot, Welcome } from '@tablekeeper/protocol';
import { applyDelta, type Delta, type DeltaAck } from '@tablekeeper/protocol/wire';
import type { Json } from '@tablekeeper/engine';
import type { ViewState } from './view.ts';

export { WS_PATH, wsProtocols, CLOSE } from '@tablekeeper/protocol/wire';

export type RejectionKind = RejectionError['kind'];
/** A typed rejection as the UI shows it (LOCAL and NOT_SENT: refused by the client itself, never sent). */
export type Rejection = { readonly code: RejectionKind | 'LOCAL' | 'NOT_SENT'; readonly message: string; readonly ruleCode?: string; readonly current?: number; readonly column?: number; readonly path?: string };

export interface ClientCommand {
  readonly type: string;
  readonly [field: string]: unknown;
}

export type ServerMsg =
  | { readonly kind: 'welcome'; readonly tableId: string; readonly version: number; readonly viewer: Welcome['viewer']; readonly serverTime?: number }
  | { readonly kind: 'snapshot'; readonly view: ViewState }
  | { readonly kind: 'delta'; readonly from: number; readonly apply: (v: ViewState) => ViewState; readonly acks: readonly DeltaAck[] }
  | { readonly kind: 'ack'; readonly commandId: string; readonly version: number }
  | { readonly kind: 'rejected'; readonly commandId: string | null; readonly rejection: Rejection }
  | { readonly kind: 'revoked'; readonly message: string }
  | { readonly kind: 'answer'; readonly queryId: string; readonly answer: QueryAnswer }
  | { readonly kind: 'other' };

/** A module query's answer (exact odds and the like), computed on the server from this viewer's own view. */
export type QueryAnswer =
  | { readonly ok: true; readonly result: Json }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string; readonly path?: string; readonly retryAfterMs?: number } };

export function toRejection(e: RejectionError): Rejection {
  switch (e.kind) {
    case 'VERSION_CONFLICT':
      return { code: e.kind, message: e.message, current: e.current };
    case 'RULE_ERROR':
      return { code: e.kind, message: e.message, ruleCode: e.code, ...(e.path === undefined ? {} : { path: e.path }), ...(e.column === undefined ? {} : { column: e.column }) };
    default:
      return { code: e.kind, message: e.message };
  }
}

export function decodeServer(text: string): ServerMsg | null {
  let raw: ServerMessage;
  try {
    raw = JSON.parse(text) as ServerMessage;
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  switch (raw.type) {
    case 'welcome':
      return { kind: 'welcome', tableId: raw.tableId, version: raw.version, viewer: raw.viewer, ...(typeof raw.serverTime === 'number' ? { serverTime: raw.serverTime } : {}) };
    case 'snapshot': {
      const s = raw as Snapshot;
      return { kind: 'snapshot', view: { ...(s.view as unknown as ViewState), version: s.version } };
    }
    case 'delta': {
      const d = raw as Delta;
      return { kind: 'delta', from: d.from, apply: (v) => applyDelta(v, d), acks: d.acks ?? [] };
    }
    case 'ack': {
      const a = raw as Ack;
      return { kind: 'ack', commandId: a.commandId, version: a.version };
    }
    case 'rejection': {
      const r = raw as WireRejection;
      return { kind: 'rejected', commandId: r.commandId, rejection: toRejection(r.error) };
    }
    case 'seatRevoked':
      return { kind: 'revoked', message: raw.message };
    case 'queryResult': {
      const q = raw as QueryResult;
      const answer: QueryAnswer = q.ok ? { ok: true, result: q.result ?? null } : { ok: false, error: q.error ?? { code: 'UNKNOWN', message: 'no answer' } };
      return { kind: 'answer', queryId: q.queryId, answer };
    }
    default:
      return { kind: 'other' };
  }
}

export function encodeCommand(commandId: string, expectedVersion: number, command: ClientCommand): string {
  return JSON.stringify({ type: 'command', commandId, expectedVersion: Math.max(0, expectedVersion), command });
}

export function encodeQuery(queryId: string, name: string, args: { readonly [k: string]: Json }): string {
  return JSON.stringify({ type: 'query', queryId, name, args });
}

export function encodeResync(since: number): string {
  return JSON.stringify({ type: 'resync', since: Math.max(0, since) });
}
