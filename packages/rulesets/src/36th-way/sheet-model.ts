// The 36th Way sheet as the one sheet model (issue 17): the fields
// 36th-way.sheet.set takes (resistances, defenses, recoveries, stances, abilities),
// addressed by the character. Sheets stay keyed by combatant id: the sheet
// whose key is the character's id or that names it, else a new one under the
// character's id (a combatant is most often added under it).
import { stored } from '@tablekeeper/engine';
import { defineSheet, err, ok, own, type EngineEvent, type Json, type Result, type World } from '@tablekeeper/engine';
import type { z } from 'zod';
import { titled } from '../field-titles.js';
import { abilityAsEntered } from './abilities.js';
import { tswSheet } from './declarations.js';
import { getTsw, parseSheet, type Sheet } from './state.js';
import type { TswEvent } from './events.js';

const MAX_SHEETS = 500;
/** Stored keys of a foe's sheet players read; the hit points only as a fall to 0 (see the projector). */
export const TSW_FOE_FIELDS = { shown: ['id', 'name', 'kind', 'characterId', 'dying', 'dead', 'unconscious', 'outOfFight', 'hitThisRound'], defences: ['ac', 'pd', 'md', 'exhaustion', 'resist', 'weak'] } as const;
/** What the table writes during play; a patch keeps it, a whole sheet starts afresh (as 36th-way.sheet.set does). */
const PLAY_STATE = ['exhaustion', 'uses', 'dying', 'deathFailures', 'dead', 'unconscious', 'outOfFight', 'hitThisRound'] as const;
/** Stored in a richer shape than it is entered: read back in the entered shape, kept as stored unless a form gives it again. */
const AS_ENTERED: { readonly [k: string]: (s: Sheet) => Json } = { abilities: (s) => Object.values(s.abilities).map(abilityAsEntered) };
const SKIP = new Set<string>(['id', 'characterId', ...PLAY_STATE]);
// The labels the generated sheet forms show (002's words), not the field keys.
const TITLES: { readonly [field: string]: string } = {
  name: 'Name',
  kind: 'Kind',
  level: 'Level',
  tier: 'Tier',
  volition: 'Volition',
  ac: 'AC',
  pd: 'PD',
  md: 'MD',
  maxHp: 'Max HP',
  hp: 'HP',
  maxRecoveries: 'Max recoveries',
  recoveries: 'Recoveries',
  recoveryDice: 'Recovery dice',
  recoveryBonus: 'Recovery bonus',
  resources: 'Resources',
  maxResources: 'Max resources',
  resist: 'Resist',
  weak: 'Weak to',
  stance: 'Stance',
  stanceDice: 'Stance dice',
  rangedReach: 'Ranged reach',
  basicMiss: 'Basic attack miss',
  usesEscalation: 'Uses the escalation die',
  abilities: 'Abilities',
};
const fields = Object.fromEntries(Object.entries(tswSheet.shape).flatMap(([k, v]) => (SKIP.has(k) ? [] : [[k, titled(v as z.ZodType, TITLES[k])]])));

/** The key of the sheet that plays this character. */
export function tswSheetKey(world: World, characterId: string): string {
  const sheets = getTsw(world).sheets;
  if (own(sheets, characterId) !== undefined) return characterId;
  return Object.values(sheets).find((s) => s.characterId === characterId)?.id ?? characterId;
}

const asInvalid = <T>(r: Result<T>): Result<T> => (r.ok || r.error.code !== 'INVALID_VALUE' ? r : err('INVALID_VALUE', r.error.message, r.error.path));

export const tswSheetModel = defineSheet({
  rulesetId: '36th-way',
  fields,
  defaults: { level: 1, tier: 1, volition: 0, ac: 10, pd: 10, md: 10, maxHp: 10, recoveryBonus: 0, resources: {}, resist: {}, weak: [], stance: 'melee', rangedReach: 'far', basicMiss: 'none', usesEscalation: null, abilities: [] },
  // A player keeps their own stance and the Power they spend; the numbers are the GM's.
  playerEditable: ['stance', 'resources'],
  // A foe's sheet as players read it (ADR 33): who it is and whether it is out; its defences (with the exhaustion that lowers them, and what it resists) once the GM reveals them.
  foeFields: TSW_FOE_FIELDS,
  read(world, characterId) {
    const s = own(getTsw(world).sheets, tswSheetKey(world, characterId));
    if (s === undefined) return {};
    const stored = s as unknown as { readonly [k: string]: Json };
    return Object.fromEntries(Object.keys(fields).flatMap((k) => (AS_ENTERED[k] !== undefined ? [[k, AS_ENTERED[k](s)]] : !Object.hasOwn(stored, k) ? [] : [[k, stored[k]!]])));
  },
  write(world, characterId, next, _changed, patch) {
    const key = tswSheetKey(world, characterId);
    const prev = own(getTsw(world).sheets, key);
    if (prev === undefined && Object.keys(getTsw(world).sheets).length >= MAX_SHEETS) return err('LIMIT_EXCEEDED', `at most ${MAX_SHEETS} sheets per table`, 'characterId');
    const ch = own(world.characters, characterId)!;
    const parsed = asInvalid(parseSheet({ name: ch.name, kind: ch.kind, ...next, id: key, characterId }, world));
    if (!parsed.ok) return parsed;
    let sheet: Sheet = parsed.value;
    if (patch && prev !== undefined) {
      const keep: Partial<Record<string, unknown>> = {};
      for (const k of PLAY_STATE) keep[k] = prev[k];
      if (next['abilities'] === undefined) keep['abilities'] = prev.abilities;
      sheet = { ...sheet, ...keep } as Sheet;
    }
    const events: EngineEvent[] = [stored<TswEvent>({ type: '36th-way.sheetSet', sheet, replaced: prev !== undefined })];
    return ok(events);
  },
});
