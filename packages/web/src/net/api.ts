// The HTTP side of the protocol: rulesets, creating a table, seats and the
// spectator link. The GM token goes in an Authorization header, never a URL.
import type { CreateSeatResponse, CreateTableResponse, HttpError, JoinCodeResponse, JoinResponse, RulesetSummary, SeatSummary, SpectatorResponse } from '@tablekeeper/protocol';
import type { CatalogEntry } from '../lib/schemaForm.ts';
import type { SheetSchema } from '../lib/sheetForm.ts';
import type { Json } from '@tablekeeper/engine';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; message: string; kind: string };

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['authorization'] = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    return { ok: false, kind: 'NETWORK', message: 'the table server cannot be reached' };
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    // fall through: an empty or non-JSON body
  }
  if (!res.ok) {
    const e = (json as HttpError | null)?.error;
    return { ok: false, kind: e?.kind ?? String(res.status), message: e?.message ?? `HTTP ${res.status}` };
  }
  return { ok: true, value: json as T };
}

export async function listRulesets(): Promise<ApiResult<RulesetSummary[]>> {
  const r = await call<RulesetSummary[] | { rulesets: RulesetSummary[] }>('GET', '/api/rulesets');
  if (!r.ok) return r;
  return { ok: true, value: Array.isArray(r.value) ? r.value : (r.value.rulesets ?? []) };
}

/** `settings`: the table rules picked at creation (ADR 111), the ruleset's defaults for the rest. */
export const createTable = (name: string, rulesetId: string, settings?: { readonly [key: string]: Json }) =>
  call<CreateTableResponse>('POST', '/api/tables', { name, rulesetId, ...(settings !== undefined && Object.keys(settings).length > 0 ? { settings } : {}) });
export const createSeat = (tableId: string, gmToken: string, name: string, characterIds?: string[]) =>
  call<CreateSeatResponse>('POST', `/api/tables/${encodeURIComponent(tableId)}/seats`, { name, ...(characterIds ? { characterIds } : {}) }, gmToken);
export const listSeats = (tableId: string, gmToken: string) => call<SeatSummary[] | { seats: SeatSummary[] }>('GET', `/api/tables/${encodeURIComponent(tableId)}/seats`, undefined, gmToken);
/** A seat's new short join code (ADR 44); its old code stops working. */
export const newJoinCode = (tableId: string, gmToken: string, seatId: string) =>
  call<JoinCodeResponse>('POST', `/api/tables/${encodeURIComponent(tableId)}/seats/${encodeURIComponent(seatId)}/code`, undefined, gmToken);
/** A typed join code for the seat's link (single use). */
export const joinWithCode = (code: string) => call<JoinResponse>('POST', '/api/join', { code });
export const createSpectator = (tableId: string, gmToken: string) => call<SpectatorResponse>('POST', `/api/tables/${encodeURIComponent(tableId)}/spectators`, {}, gmToken);

/** A link from the server may be relative or for another host name; anchor it to this page's origin. */
export function absoluteLink(link: string): string {
  try {
    return new URL(link, location.origin).href;
  } catch {
    return link;
  }
}

/** A ruleset's command catalogue (ADR 13): every command and query with its JSON Schema. */
export async function listCommands(rulesetId: string): Promise<ApiResult<CatalogEntry[]>> {
  const r = await call<{ commands: CatalogEntry[] }>('GET', `/api/rulesets/${encodeURIComponent(rulesetId)}/commands`);
  return r.ok ? { ok: true, value: r.value.commands } : r;
}

/** A ruleset's character sheet (ADR 21): JSON Schema with a default per field, and the fields a player may edit. */
export const getSheetSchema = (rulesetId: string) => call<SheetSchema>('GET', `/api/rulesets/${encodeURIComponent(rulesetId)}/sheet`);
