// Player requests without a DOM (issue 20, ADR 29): the phone's form turned
// into `request.make`, the GM's queue, and what the phone says about each of
// its own requests. The engine decides; this only words and shapes.
import { describeRequest, pendingRequests, requestsOf, type PlayerRequest, type RequestKind } from '@tablekeeper/engine/requests';
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import { conditionName } from './encounter.ts';
import { CUSTOM } from './turns.ts';

export const MAX_REQUEST_AMOUNT = 10000;

export interface RequestForm {
  readonly kind: RequestKind;
  readonly amount: string;
  readonly choice: string;
  readonly custom: string;
  readonly duration: string;
  readonly rounds: string;
  readonly note: string;
}

export type RequestCommand = { readonly type: 'request.make'; readonly [k: string]: Json };

/** The command the phone sends, or a sentence saying what to fix (the same limits as the server's). */
export function requestCommand(characterId: string, f: RequestForm): { ok: true; value: RequestCommand } | { ok: false; message: string } {
  const note = f.note.trim();
  if (note.length > 120) return { ok: false, message: 'Keep the note to 120 characters.' };
  const base = { type: 'request.make' as const, characterId, kind: f.kind, ...(note === '' ? {} : { note }) };
  if (f.kind !== 'condition') {
    const t = f.amount.trim();
    const n = Number(t);
    if (t === '' || !Number.isInteger(n) || n < 1 || n > MAX_REQUEST_AMOUNT) return { ok: false, message: `Type a whole number from 1 to ${MAX_REQUEST_AMOUNT}.` };
    return { ok: true, value: { ...base, amount: n } };
  }
  const custom = f.custom.trim();
  if (f.choice === CUSTOM && (custom === '' || custom.length > 40)) return { ok: false, message: 'Type a name for the condition (up to 40 characters).' };
  const condition = f.choice === CUSTOM ? `custom:${custom}` : f.choice;
  if (condition === '') return { ok: false, message: 'Choose a condition.' };
  if (f.duration === 'rounds') {
    const r = Number(f.rounds);
    if (!Number.isInteger(r) || r < 1 || r > 100) return { ok: false, message: 'Rounds must be a whole number from 1 to 100.' };
    return { ok: true, value: { ...base, condition, duration: 'rounds', rounds: r } };
  }
  return { ok: true, value: { ...base, condition, duration: f.duration } };
}

export interface QueueRow {
  readonly id: string;
  /** "Kira (Ana): 5 damage" */
  readonly text: string;
  readonly note: string | null;
}

/** The GM's queue: waiting requests, oldest first, in words. */
export function queueOf(world: World, enc: EncounterState | null): QueueRow[] {
  const named = (id: string) => (enc === null ? id : conditionName(enc, id));
  return pendingRequests(requestsOf(world)).map((r) => {
    const who = world.characters[r.characterId]?.name ?? 'A character';
    const seat = world.seats[r.seatId]?.name;
    return { id: r.id, text: `${who}${seat === undefined ? '' : ` (${seat})`}: ${describeRequest(r, named)}`, note: r.note ?? null };
  });
}

/** What the phone says about one of its requests. */
export function statusLine(r: PlayerRequest): string {
  switch (r.status) {
    case 'pending':
      return 'waiting for the GM';
    case 'approved':
      return 'approved';
    case 'declined':
      return r.reason === undefined ? 'declined by the GM' : `declined: ${r.reason}`;
    case 'expired':
      return r.reason === undefined ? 'expired' : `expired (${r.reason})`;
    default:
      return 'withdrawn';
  }
}

/** The phone's own requests, newest first, at most `limit`. */
export function myRequests(world: World, enc: EncounterState | null, limit = 5): { readonly id: string; readonly text: string; readonly status: string; readonly pending: boolean; readonly tone: string }[] {
  const named = (id: string) => (enc === null ? id : conditionName(enc, id));
  return requestsOf(world)
    .items.slice(-limit)
    .reverse()
    .map((r) => ({
      id: r.id,
      text: describeRequest(r, named),
      status: statusLine(r),
      pending: r.status === 'pending',
      tone: r.status === 'approved' ? 'ok' : r.status === 'pending' ? '' : 'warn',
    }));
}
