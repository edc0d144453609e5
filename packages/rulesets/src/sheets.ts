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

/** The value as a plain object, or null (shared with sheet-entry.ts). */
export const record = (v: Json | undefined): KeptSheet | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);

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

/**
 * The id of the sheet a character is played by between fights (ADR 110): the sheet under its own id (a character's
 * one combatant takes its id, ADR 37), else the one naming it; null where it has none. The same sheet a fight reads.
 */
export function keptSheetIdOf(world: World, characterId: string): string | null {
  const sheets = keptSheets(world);
  if (Object.hasOwn(sheets, characterId)) return characterId;
  return Object.keys(sheets).find((id) => sheets[id]!['characterId'] === characterId) ?? null;
}

/** The numbers a tracker row shows, as the sheet holds them (the rulesets' attacks damage the sheet, not the combatant). */
export const SHEET_TRACK_FIELDS = ['hp', 'maxHp', 'endurance', 'maxEndurance', 'health', 'maxHealth', 'stamina', 'maxStamina', 'focus', 'maxFocus', 'dead', 'unconscious'] as const;

export function keptSheetTrack(world: World, creatureId: string, characterId: string | null): { [field: string]: Json } {
  const s = keptSheetOf(world, creatureId, characterId);
  const out: { [field: string]: Json } = {};
  if (s === null) return out;
  for (const k of SHEET_TRACK_FIELDS) if (s[k] !== undefined) out[k] = s[k]!;
  if (s['dead'] === true) return out;
  // The state a card names instead of "down" (review 13 #6, #8), with what may come next in the text's terms.
  const dying = record(s['dying']);
  if (dying !== null) {
    const rolled = typeof dying['savesRolled'] === 'number' ? dying['savesRolled'] : 0;
    const failed = typeof s['deathFailures'] === 'number' ? s['deathFailures'] : 0;
    const kill = world.settings['36th-way.deathSaveFailures'];
    out['dying'] = true;
    // 002 "Dying and Death": a death save each turn; enough failures in one fight kill.
    out['lifeNote'] = `death saves: ${rolled} rolled, ${failed} failed${typeof kill === 'number' ? ` (${kill} failed in this fight kill)` : ''}`;
  } else if (s['conscious'] === false) {
    out['unconscious'] = true;
    // 003 "Death": no turn until conscious again; more damage past their health risks death, and an enemy may try a killing strike.
    out['lifeNote'] = 'cannot act until conscious again; more damage past their health risks death, and an enemy may try a killing strike';
  }
  return out;
}
