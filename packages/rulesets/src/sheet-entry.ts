// A kept sheet in the shape the sheet commands take it (the GM's sheet editor
// and form, ADR 39), apart from sheets.ts's readers so a phone, which only reads
// a sheet's numbers, does not load it. Browser-safe: imports only sheets.ts (ADR 7).
import type { Json } from '@tablekeeper/engine';
import { record, type KeptSheet, type KeptSheetRules } from './sheets.js';

/** Play state a stored sheet holds that a freshly set sheet starts anew (uses, dying, consciousness): not part of what the GM enters. */
export const SHEET_PLAY_STATE: { readonly [r in KeptSheetRules]: readonly string[] } = {
  '36th-way': ['uses', 'dying', 'deathFailures', 'dead', 'unconscious', 'outOfFight', 'hitThisRound', 'exhaustion'],
  teams: ['conscious', 'dead', 'deathDifficulty'],
};

/**
 * A stored 36th Way ability in the shape a sheet takes it: the frequency as its word, a recharge as "recharge 11+"
 * (the words the form offers: review 7 found it reopened blank and the next save refused), unset parts left out.
 */
export function abilityAsEntered(stored: Json): Json {
  const a = record(stored);
  if (a === null) return stored;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(a)) if (v !== null) out[k] = v;
  const f = record(a['frequency']);
  if (f !== null && f['kind'] === 'recharge' && typeof f['target'] === 'number') out['frequency'] = `recharge ${f['target']}+`;
  else if (f !== null && typeof f['kind'] === 'string') out['frequency'] = f['kind'];
  return out;
}

/**
 * A kept sheet in the shape the sheet commands take it: the 36th Way stores its
 * abilities keyed by id and richer than entered, and takes them as a list.
 * With `withoutPlayState`, what a new sheet starts afresh is left out.
 */
export function keptSheetAsEntered(rules: KeptSheetRules, stored: KeptSheet, opts: { readonly withoutPlayState?: boolean } = {}): { [field: string]: Json } {
  const out: { [field: string]: Json } = {};
  for (const [k, v] of Object.entries(stored)) if (opts.withoutPlayState !== true || !SHEET_PLAY_STATE[rules].includes(k)) out[k] = v;
  if (rules === '36th-way') out['abilities'] = Object.values(record(stored['abilities']) ?? {}).map(abilityAsEntered);
  return out;
}
