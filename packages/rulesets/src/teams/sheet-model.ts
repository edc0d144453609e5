// The teams sheet as the one sheet model (issue 17): attributes, skills,
// evasion, deflection, tracks, weapons and armour (items) and what is
// wielded, addressed by the character. Sheets stay keyed by combatant id (the
// one whose key is the character's id or that names it, else a new one under
// the character's id) and are written by the teams.sheetSet event.
import { asJson } from '@tablekeeper/engine/events';
import { defineSheet, err, getEncounter, ok, own, type EngineEvent, type Json, type Result, type World } from '@tablekeeper/engine';
import { withTitles } from '../field-titles.js';
import { teamsSheet } from './declarations.js';
import { numSetting } from './settings.js';
import { parseSheet } from './sheet.js';
import { getTeams } from './state.js';

/** Stored in a richer shape than it is entered: kept as stored unless a command gives it again. */
const AS_STORED = new Set(['items', 'deflection']);
// The labels the sheet forms show, in 003's words (review 10 read "evasion (optional) 0–10000", "max endurance", "secret").
const TITLES: { readonly [field: string]: string } = {
  name: 'Name',
  attributes: 'Attributes',
  skills: 'Skills',
  proficiencies: 'Proficiencies',
  evasion: 'Evasion',
  size: 'Size',
  luck: 'Luck',
  constitution: 'Constitution',
  maxEndurance: 'Endurance (full)',
  maxHealth: 'Health (full)',
  maxStamina: 'Stamina (full)',
  maxFocus: 'Focus (full)',
  endurance: 'Endurance now',
  health: 'Health now',
  stamina: 'Stamina now',
  focus: 'Focus now',
  deflection: 'Deflection',
  items: 'Items',
  wielded: 'Wielded',
  deathDifficulty: 'Cheat death difficulty',
  secret: 'Secret (players see its name and status only)',
  conscious: 'Conscious',
  dead: 'Dead',
};
const fields = withTitles(Object.fromEntries(Object.entries(teamsSheet.shape).filter(([k]) => k !== 'characterId')), TITLES);

/**
 * The key of the sheet that plays this character: its own, the one naming it, else (a new
 * sheet) the id of the combatant playing it, so the fight finds it (teams keys sheets by combatant).
 */
export function teamsSheetKey(world: World, characterId: string): string {
  const sheets = getTeams(world).sheets;
  if (own(sheets, characterId) !== undefined) return characterId;
  const named = Object.entries(sheets).find(([, s]) => s.characterId === characterId)?.[0];
  if (named !== undefined) return named;
  const enc = getEncounter(world);
  return (enc.active ? Object.values(enc.combatants).find((c) => c.characterId === characterId)?.id : undefined) ?? characterId;
}

/** Stored keys of a foe's sheet players read (the turn order shows who is down). */
export const TEAMS_FOE_FIELDS = { shown: ['name', 'characterId', 'secret', 'conscious', 'dead'], defences: ['evasion', 'size', 'deflection'] } as const;

const asInvalid = <T>(r: Result<T>): Result<T> => (r.ok || r.error.code !== 'BAD_SHEET' ? r : err('INVALID_VALUE', r.error.message, r.error.path));

export const teamsSheetModel = defineSheet({
  rulesetId: 'teams',
  fields,
  // Medium (4) as the sheet parser and 003 "Size" take it: a default of 0 made every PC smaller than every foe (a GM review finding).
  defaults: { attributes: {}, skills: {}, proficiencies: {}, evasion: 0, size: 4, luck: 0, items: {}, wielded: [], secret: false, conscious: true, dead: false },
  // A player chooses what their character holds (Brandish); the numbers are the GM's.
  playerEditable: ['wielded'],
  // A foe's sheet as players read it (ADR 33): its name and whether it is up; its Evasion, size and deflection once the GM reveals defences.
  foeFields: TEAMS_FOE_FIELDS,
  read(world, characterId) {
    const s = own(getTeams(world).sheets, teamsSheetKey(world, characterId));
    if (s === undefined) return {};
    const stored = s as unknown as { readonly [k: string]: Json };
    return Object.fromEntries(Object.keys(fields).flatMap((k) => (AS_STORED.has(k) || !Object.hasOwn(stored, k) ? [] : [[k, stored[k]!]])));
  },
  // A foe without a character keeps its sheet under its combatant id (ADR 34): the shared commands address it by that id.
  creature: (world, id) => own(getTeams(world).sheets, id) !== undefined || own(getEncounter(world).combatants, id) !== undefined,
  remove(world, id) {
    const key = teamsSheetKey(world, id);
    if (own(getTeams(world).sheets, key) === undefined) return err('NOT_FOUND', `no sheet for "${id}"`, 'characterId');
    return ok([{ type: 'teams.sheetRemoved', id: key }]);
  },
  write(world, characterId, next, _changed, patch) {
    const key = teamsSheetKey(world, characterId);
    const prev = own(getTeams(world).sheets, key);
    const ch = own(world.characters, characterId);
    // A creature's sheet keeps the character it names, if any; its name is its own (or its combatant's).
    const name = ch?.name ?? prev?.name ?? own(getEncounter(world).combatants, key)?.name ?? key;
    const link = ch !== undefined ? characterId : (prev?.characterId ?? null);
    const raw = { name, ...invitedHealth(ch?.stats, prev === undefined ? next : null), ...next, characterId: link, ...(patch && prev !== undefined && next['items'] === undefined ? { items: asJson(prev.items) } : {}) };
    const parsed = asInvalid(parseSheet(raw, { metal: numSetting(world, 'teams.metalDurability'), other: numSetting(world, 'teams.otherDurability') }, numSetting(world, 'teams.deathDifficulty')));
    if (!parsed.ok) return parsed;
    let sheet = parsed.value;
    if (patch && prev !== undefined && next['deflection'] === undefined) sheet = { ...sheet, deflection: prev.deflection };
    const events: EngineEvent[] = [{ type: 'teams.sheetSet', id: key, sheet: asJson(sheet) }];
    const enc = getEncounter(world);
    if (enc.active && own(enc.combatants, key) !== undefined) events.push({ type: 'encounter.incapacitatedSet', id: key, value: !sheet.conscious || sheet.dead });
    return ok(events);
  },
});

/**
 * A character added with hit points (the Invite panel's "HP 10") and no teams sheet yet: its first sheet takes
 * them as health unless it gives its own (review 8: an unrelated first save left an invited PC at health 1/1).
 */
function invitedHealth(stats: { readonly [k: string]: Json } | undefined, first: { readonly [k: string]: Json } | null): { [k: string]: Json } {
  if (stats === undefined || first === null) return {};
  // The invite's quick form also asks for endurance and stamina (review 11 #14: a health-only PC could not dodge, parry or fortify); they start full.
  const tracks: { [k: string]: Json } = {};
  for (const k of ['maxEndurance', 'maxStamina'] as const) {
    const v = stats[k];
    if (first[k] === undefined && typeof v === 'number' && Number.isInteger(v) && v >= 0) tracks[k] = v;
  }
  if (first['maxHealth'] !== undefined) return tracks;
  const max = stats['maxHp'] ?? stats['hp'];
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) return tracks;
  const now = stats['hp'];
  return { ...tracks, maxHealth: max, ...(first['health'] === undefined && typeof now === 'number' && Number.isInteger(now) && now >= 0 && now <= max ? { health: now } : {}) };
}
