// Player requests without a DOM (issue 20, ADR 29): the phone's form turned
// into `request.make`, the GM's queue, and what the phone says about each of
// its own requests. The engine decides; this only words and shapes.
import { describeRequest, NO_CONDITION_OUTSIDE_FIGHT, pendingRequests, requestsOf, type PlayerRequest, type RequestKind } from '@tablekeeper/engine/requests';
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import { capabilitiesOf } from '@tablekeeper/rulesets/browser';
import { conditionName } from './encounter.ts';
import { CUSTOM, FLEETING } from './turns.ts';

export const MAX_REQUEST_AMOUNT = 10000;

export interface RequestForm {
  readonly kind: RequestKind;
  readonly amount: string;
  readonly choice: string;
  readonly custom: string;
  readonly duration: string;
  readonly rounds: string;
  /** An action request: what the character tries, and the player's bonus (blank: none). */
  readonly action?: string;
  readonly bonus?: string;
  readonly note: string;
}

/** An action request's bounds (the server's request.make). */
export const MAX_ACTION = 80;
export const MAX_BONUS = 30;

export type RequestCommand = { readonly type: 'request.make'; readonly [k: string]: Json };

/** The command the phone sends, or a sentence saying what to fix (the same limits as the server's). */
export function requestCommand(characterId: string, f: RequestForm): { ok: true; value: RequestCommand } | { ok: false; message: string } {
  const note = f.note.trim();
  if (note.length > 120) return { ok: false, message: 'Keep the note to 120 characters.' };
  const base = { type: 'request.make' as const, characterId, kind: f.kind, ...(note === '' ? {} : { note }) };
  if (f.kind === 'action') {
    const action = (f.action ?? '').trim();
    if (action === '' || action.length > MAX_ACTION) return { ok: false, message: `Say what your character tries (up to ${MAX_ACTION} characters).` };
    const b = (f.bonus ?? '').trim();
    const bonus = b === '' ? 0 : Number(b);
    if (!Number.isInteger(bonus) || Math.abs(bonus) > MAX_BONUS) return { ok: false, message: `The bonus must be a whole number from -${MAX_BONUS} to ${MAX_BONUS}.` };
    return { ok: true, value: { ...base, action, ...(bonus === 0 ? {} : { bonus }) } };
  }
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
  return { ok: true, value: { ...base, condition, duration: f.duration === FLEETING ? 'indefinite' : f.duration } };
}

export interface QueueRow {
  readonly id: string;
  /** "Kira (Ana): 5 damage" */
  readonly text: string;
  readonly note: string | null;
  /** A declared action: the GM sets its difficulty to approve it. */
  readonly needsDifficulty: boolean;
  /** A declared action's bonus and advantage, for its odds at the difficulty the GM types. */
  readonly roll?: { readonly bonus: number; readonly advantage: number };
}

/** Which kinds a phone may ask for: an action roll only where the ruleset rolls one against a difficulty the GM sets (Daggerheart). */
export function requestKinds(rulesetId: string): readonly [RequestKind, string][] {
  const kinds: [RequestKind, string][] = [
    ['damage', 'Damage'],
    ['heal', 'Healing'],
    ['condition', 'A condition'],
  ];
  return capabilitiesOf(rulesetId).actionRequests ? [...kinds, ['action', 'An action roll']] : kinds;
}

/**
 * Why a phone may not ask for `kind` now, as the engine would answer after Send (ADR 104), or null: outside a
 * running fight (or in one that hides the character) a condition has no combatant to sit on. Damage and healing are
 * taken between fights in every ruleset (ADR 110). Said before the player fills the form (review 13 #4).
 */
export function requestRefusal(enc: EncounterState | null, characterId: string, name: string, kind: RequestKind): string | null {
  const inFight = enc !== null && enc.active && enc.roster.some((id) => enc.combatants[id]?.characterId === characterId && enc.combatants[id]?.visibility !== 'hidden');
  return inFight || kind !== 'condition' ? null : `${NO_CONDITION_OUTSIDE_FIGHT(name)}.`;
}

/** The GM's approval: a declared action carries the difficulty typed next to it (1 to 60, Daggerheart's bounds), else none. */
export function approveCommand(row: Pick<QueueRow, 'id' | 'needsDifficulty'>, difficulty: string): { ok: true; value: { type: 'request.approve'; id: string; difficulty?: number } } | { ok: false; message: string } {
  if (!row.needsDifficulty) return { ok: true, value: { type: 'request.approve', id: row.id } };
  const d = Number(difficulty.trim());
  if (difficulty.trim() === '' || !Number.isInteger(d) || d < 1 || d > 60) return { ok: false, message: 'Set the difficulty (a whole number from 1 to 60) before approving the roll.' };
  return { ok: true, value: { type: 'request.approve', id: row.id, difficulty: d } };
}

/** The GM's queue: waiting requests, oldest first, in words. */
export function queueOf(world: World, enc: EncounterState | null): QueueRow[] {
  const named = (id: string) => (enc === null ? id : conditionName(enc, id));
  return pendingRequests(requestsOf(world)).map((r) => {
    const who = world.characters[r.characterId]?.name ?? 'A character';
    const seat = world.seats[r.seatId]?.name;
    return { id: r.id, text: `${who}${seat === undefined ? '' : ` (${seat})`}: ${describeRequest(r, named)}`, note: r.note ?? null, needsDifficulty: r.kind === 'action', ...(r.kind === 'action' ? { roll: { bonus: r.bonus ?? 0, advantage: r.advantage ?? 0 } } : {}) };
  });
}

/** The odds query for a declared action at the difficulty typed so far, or null while the box holds no valid difficulty. */
export function actionOddsArgs(row: Pick<QueueRow, 'roll'>, difficulty: string): { bonus: number; difficulty: number; advantage: number } | null {
  const d = Number(difficulty.trim());
  if (row.roll === undefined || difficulty.trim() === '' || !Number.isInteger(d) || d < 1 || d > 60) return null;
  return { bonus: row.roll.bonus, difficulty: d, advantage: row.roll.advantage };
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
