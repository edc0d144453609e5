// Sheets the 36th Way and teams keep in their own state (world.ext[ruleset].sheets,
// keyed by creature id), read for the browser (issue 17, ADR 39): the web asks
// these selectors instead of walking the state's shape. Browser-safe: type
// imports only (ADR 7). OSR, Daggerheart and the Kleptonomicon keep the sheet
// on the character (its stats), so they keep no sheets here.
import type { Json, World } from '@tablekeeper/engine';

/** Rulesets whose sheets live in their own state, keyed by creature (combatant) id. */
export type KeptSheetRules = '36th-way' | 'teams';

export type KeptSheet = { readonly [field: string]: Json };

export function keptSheetRulesOf(rulesetId: string): KeptSheetRules | null {
  return rulesetId === '36th-way' || rulesetId === 'teams' ? rulesetId : null;
}

const record = (v: Json | undefined): KeptSheet | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);

/** Every sheet the table's ruleset keeps, by creature id, as the viewer's world holds them (empty where the ruleset keeps none). */
export function keptSheets(world: World): { readonly [creatureId: string]: KeptSheet } {
  const rules = keptSheetRulesOf(world.rulesetId);
  if (rules === null || !Object.hasOwn(world.ext, rules)) return {};
  const sheets = record(record(world.ext[rules])?.['sheets']);
  if (sheets === null) return {};
  const out: { [creatureId: string]: KeptSheet } = {};
  for (const [id, s] of Object.entries(sheets)) {
    const o = record(s);
    if (o !== null) out[id] = o;
  }
  return out;
}

/** Whether the ruleset keeps a sheet under this creature's own id. */
export function hasKeptSheet(world: World, creatureId: string): boolean {
  return Object.hasOwn(keptSheets(world), creatureId);
}

/** A creature's kept sheet: the one under its own id, else (for a character) the one naming it. */
export function keptSheetOf(world: World, creatureId: string, characterId: string | null = null): KeptSheet | null {
  const sheets = keptSheets(world);
  if (Object.hasOwn(sheets, creatureId)) return sheets[creatureId]!;
  if (characterId === null) return null;
  return Object.values(sheets).find((s) => s['characterId'] === characterId) ?? null;
}

/** The numbers a tracker row shows, as the sheet holds them (the rulesets' attacks damage the sheet, not the combatant). */
export const SHEET_TRACK_FIELDS = ['hp', 'maxHp', 'endurance', 'maxEndurance', 'health', 'maxHealth', 'dead', 'unconscious'] as const;

export function keptSheetTrack(world: World, creatureId: string, characterId: string | null): { [field: string]: Json } {
  const s = keptSheetOf(world, creatureId, characterId);
  const out: { [field: string]: Json } = {};
  if (s === null) return out;
  for (const k of SHEET_TRACK_FIELDS) if (s[k] !== undefined) out[k] = s[k]!;
  return out;
}

/** Play state a stored sheet holds that a freshly set sheet starts anew (uses, dying, consciousness): not part of what the GM enters. */
export const SHEET_PLAY_STATE: { readonly [r in KeptSheetRules]: readonly string[] } = {
  '36th-way': ['uses', 'dying', 'deathFailures', 'dead', 'unconscious', 'outOfFight', 'hitThisRound', 'exhaustion'],
  teams: ['conscious', 'dead', 'deathDifficulty'],
};

/** A stored 36th Way ability in the shape a sheet takes it: the frequency as its word (a recharge kept whole), unset parts left out. */
export function abilityAsEntered(stored: Json): Json {
  const a = record(stored);
  if (a === null) return stored;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(a)) if (v !== null) out[k] = v;
  const f = record(a['frequency']);
  if (f !== null && f['kind'] !== 'recharge' && typeof f['kind'] === 'string') out['frequency'] = f['kind'];
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

