// Words, not codes: what a refusal says on screen. The server's message is
// already a sentence about the rule; here it loses internal ids (a combatant
// id becomes its name), starts with a capital, ends with a full stop, and a
// few transport codes get what to do instead.
import type { Rejection } from '../net/codec.ts';

const ADVICE: { readonly [code: string]: string } = {
  VERSION_CONFLICT: 'Someone changed the table first; your screen is up to date now, so try again.',
  OFFLINE: 'You are offline; it will be sent when the connection is back.',
  RATE_LIMITED: 'Too many changes at once; wait a moment and try again.',
  UNAUTHORIZED: 'This link is not valid any more; ask the GM for a new one.',
  LOCAL: 'Too many changes are waiting for the server; wait a moment.',
  NOT_SENT: 'Not sent: the change before it was refused.',
};

const RULE_ADVICE: { readonly [ruleCode: string]: string } = {
  FORBIDDEN: 'Only the GM or the player of that character may do that.',
  NO_ENCOUNTER: 'No encounter is running: build one and press Roll initiative.',
  ENCOUNTER_RUNNING: 'An encounter is already running: end it first.',
  CANNOT_ADVANCE: 'Nobody left can act: end the encounter, or heal or revive someone.',
  NO_CURRENT_TURN: 'Nobody is taking a turn right now.',
  TURN_MOVED_ON: 'That turn is already over (an action or an earlier press ended it), so nothing was ended: it is someone else\'s turn now.',
};

/** A refusal as one sentence for people: no codes, no internal ids. */
export function sentenceOf(r: Pick<Rejection, 'code' | 'message' | 'ruleCode'>, names: { readonly [id: string]: string } = {}): string {
  const advice = ADVICE[r.code] ?? (r.ruleCode !== undefined ? RULE_ADVICE[r.ruleCode] : undefined);
  if (advice !== undefined) return advice;
  return tidy(withNames(r.message, names));
}

/** Quoted ids ("pc-m1x2-3") become the names they stand for, or "that one" when unknown. */
export function withNames(text: string, names: { readonly [id: string]: string }): string {
  return text.replace(/"([^"\s]{1,80})"/g, (whole, id: string) => {
    const name = names[id];
    if (name !== undefined) return name;
    return looksLikeId(id) ? 'that one' : whole;
  });
}

/** Ids the app mints: kind, base-36 time and a counter ("npc-m3k2x1-4"), or a condition / character id. */
export function looksLikeId(s: string): boolean {
  return /^(pc|npc|ch|cond|seat|cd)[-_]?[a-z0-9]*\d[a-z0-9-]*$/i.test(s);
}

function tidy(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return 'That was refused.';
  const capital = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** An id as words ("very-fast" -> "very fast"). Here, not in initiative.ts, so the recent-tables list does not pull the builder's helpers onto a phone. */
export function words(id: string): string {
  return id.replace(/-/g, ' ');
}
