// A character as a file (issue 20): the GM exports one from the party and
// imports it at another table of the same rules. The file holds the core
// character (name, kind, stats: the whole sheet for OSR, Daggerheart and the
// Kleptonomicon) and, for The 36th Way and the teams game, the ruleset's own
// sheet. Checked here with named errors; the server checks every field.
import { isDefeated, type Character, type Json, type World } from '@tablekeeper/engine';
import type { ClientCommand } from '../net/codec.ts';
import { keptSheetCommandFromText, rulesetTitleOf } from '@tablekeeper/rulesets/browser';
import { encounterOf } from './encounter.ts';
import { hasSheet, sheetRulesOf, sheetText } from './sheetEditor.ts';
import { addThen, madeCharacter } from './made.ts';

export const CHARACTER_FORMAT = 'tablekeeper-character';
export const CHARACTER_VERSION = 1;
export const MAX_CHARACTER_FILE_BYTES = 256 * 1024;
const MAX_NAME = 100;
const MAX_STATS = 200;

type Obj = { readonly [k: string]: Json };
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface CharacterFile {
  readonly format: typeof CHARACTER_FORMAT;
  readonly version: number;
  readonly rulesetId: string;
  readonly character: { readonly name: string; readonly kind: 'pc' | 'npc'; readonly stats: Obj };
  /** The ruleset's own sheet (36th Way, teams), without the table's ids. */
  readonly sheet?: Obj;
}

/** The file for one character of this table, or null when there is no such character. */
export function characterExport(world: World, id: string): CharacterFile | null {
  const ch = Object.hasOwn(world.characters, id) ? world.characters[id]! : null;
  if (ch === null) return null;
  const rules = sheetRulesOf(world);
  let sheet: Obj | undefined;
  if (rules !== null) {
    const parsed = JSON.parse(sheetText(world, rules, { id, name: ch.name, kind: ch.kind, characterId: id, hasSheet: true })) as { [k: string]: Json };
    if (hasSheet(world, id) !== null) {
      delete parsed['id'];
      delete parsed['characterId'];
      sheet = parsed;
    }
  }
  return { format: CHARACTER_FORMAT, version: CHARACTER_VERSION, rulesetId: world.rulesetId, character: { name: ch.name, kind: ch.kind, stats: ch.stats }, ...(sheet !== undefined ? { sheet } : {}) };
}

/** A character file read back, or every problem found, each naming the field. */
export function parseCharacterFile(text: string, rulesetId: string): { ok: true; file: CharacterFile } | { ok: false; errors: string[] } {
  if (text.length > MAX_CHARACTER_FILE_BYTES) return { ok: false, errors: [`The file is larger than ${MAX_CHARACTER_FILE_BYTES / 1024} KB; a character file is much smaller.`] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, errors: ['The file is not a character file: it is not JSON text.'] };
  }
  if (!isObj(data) || data['format'] !== CHARACTER_FORMAT) return { ok: false, errors: ['The file is not a character file (Export character makes one).'] };
  if (data['version'] !== CHARACTER_VERSION) return { ok: false, errors: [`The file is version ${String(data['version'])}; this app reads version ${CHARACTER_VERSION}.`] };
  // The rules by their names, never the ids (review 13 #15): "a character for OSR; this table plays The Kleptonomicon".
  if (data['rulesetId'] !== rulesetId) return { ok: false, errors: [`The file holds a character for ${typeof data['rulesetId'] === 'string' ? rulesetTitleOf(data['rulesetId']) : 'no rules it names'}; this table plays ${rulesetTitleOf(rulesetId)}.`] };
  const errors: string[] = [];
  const c = data['character'];
  if (!isObj(c)) return { ok: false, errors: ['The file has no character in it (character).'] };
  const name = typeof c['name'] === 'string' ? c['name'].trim() : '';
  if (name === '' || name.length > MAX_NAME) errors.push(`character.name: the name must be 1 to ${MAX_NAME} characters.`);
  if (c['kind'] !== 'pc' && c['kind'] !== 'npc') errors.push('character.kind: must be pc or npc.');
  if (!isObj(c['stats'])) errors.push('character.stats: must be an object of the sheet\'s numbers.');
  else if (Object.keys(c['stats']).length > MAX_STATS) errors.push(`character.stats: at most ${MAX_STATS} entries.`);
  const sheet = data['sheet'];
  if (sheet !== undefined && !isObj(sheet)) errors.push('sheet: must be an object (the ruleset\'s sheet).');
  const extra = Object.keys(data).filter((k) => !['format', 'version', 'rulesetId', 'character', 'sheet'].includes(k));
  if (extra.length > 0) errors.push(`unknown field${extra.length === 1 ? '' : 's'} ${extra.join(', ')}.`);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    file: {
      format: CHARACTER_FORMAT,
      version: CHARACTER_VERSION,
      rulesetId,
      character: { name, kind: c['kind'] as 'pc' | 'npc', stats: c['stats'] as Obj },
      ...(isObj(sheet) ? { sheet } : {}),
    },
  };
}

/** The command that adds the file's character (a PC with no seat yet: the GM seats it from the invite panel), under `name` if given. */
export function addCommand(file: CharacterFile, name = file.character.name): ClientCommand {
  return { type: 'character.add', name, kind: file.character.kind, stats: file.character.stats as { [k: string]: Json } };
}

const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The character already at the table under the file's name (a PC first), or null: the import then asks before adding a twin. */
export function namesake(world: World, file: CharacterFile): Character | null {
  const same = Object.values(world.characters).filter((c) => sameName(c.name, file.character.name));
  return same.find((c) => c.kind === 'pc') ?? same[0] ?? null;
}

/** The first of "Kira 2", "Kira 3"... that nobody at the table goes by. */
export function freeName(world: World, name: string): string {
  const taken = Object.values(world.characters).map((c) => c.name);
  for (let n = 2; ; n++) {
    const candidate = `${name} ${n}`;
    if (!taken.some((t) => sameName(t, candidate))) return candidate;
  }
}

/**
 * "Replace": the file's numbers onto the character already there (same id, so its seat, its place in a fight and its
 * history stay), with the ruleset's sheet where it keeps one, as one change.
 */
export function replaceCommand(world: Pick<World, 'rulesetId'>, file: CharacterFile, characterId: string): ClientCommand {
  const update: ClientCommand = { type: 'character.update', characterId, stats: file.character.stats as { [k: string]: Json } };
  const sheet = sheetImportCommand(world, file, characterId);
  return sheet === null ? update : { type: 'history.batch', commands: [update, sheet] as unknown as Json };
}

/**
 * The ruleset's sheet command for the character the import adds (`newId`: its id, or the batch reference that
 * stands for it), or null when the file has no sheet. The file's own ids never reach the table.
 */
export function sheetImportCommand(world: Pick<World, 'rulesetId'>, file: CharacterFile, newId: Json): ClientCommand | null {
  const rules = sheetRulesOf(world as World);
  if (rules === null || file.sheet === undefined) return null;
  const { id: _id, characterId: _characterId, ...sheet } = file.sheet;
  return keptSheetCommandFromText(rules, newId as string, { ...sheet, characterId: newId });
}

/** The import as one change (ADR 73): the character and its sheet in one batch, so one Undo takes both back. */
export function importCommand(world: Pick<World, 'rulesetId'>, file: CharacterFile, name = file.character.name): ClientCommand {
  const add = addCommand(file, name);
  const sheet = sheetImportCommand(world, file, madeCharacter(0));
  return sheet === null ? add : addThen(add, () => sheet);
}

export interface ExportGroup {
  readonly label: string;
  readonly options: readonly { readonly id: string; readonly label: string }[];
}

/**
 * The export picker's list (review 13 #13): the party, the foes of the latest fight, then the foes of past fights
 * still standing; a fallen foe of a past fight is left out. A name that still repeats gets "(2)", "(3)"...
 */
export function exportGroups(world: World): ExportGroup[] {
  const enc = encounterOf(world);
  const inFight = new Map<string, boolean>();
  for (const c of Object.values(enc?.combatants ?? {})) if (c.characterId !== null) inFight.set(c.characterId, isDefeated(c));
  const fallen = (ch: Character): boolean => ch.stats['dead'] === true || (typeof ch.stats['hp'] === 'number' && ch.stats['hp'] <= 0);
  const party: Character[] = [];
  const foes: Character[] = [];
  const past: Character[] = [];
  for (const ch of Object.values(world.characters)) {
    const foe = ch.kind === 'npc' && ch.seatId === null && !Object.values(world.seats).some((s) => s.characterIds.includes(ch.id));
    if (!foe) party.push(ch);
    else if (inFight.has(ch.id)) foes.push(ch);
    else if (!fallen(ch)) past.push(ch);
  }
  const seen = new Map<string, number>();
  const label = (ch: Character, note = ''): string => {
    const n = (seen.get(ch.name.toLowerCase()) ?? 0) + 1;
    seen.set(ch.name.toLowerCase(), n);
    return `${ch.name}${n > 1 ? ` (${n})` : ''}${note}`;
  };
  const groups: ExportGroup[] = [
    { label: 'Party', options: party.map((c) => ({ id: c.id, label: label(c) })) },
    { label: enc?.active === true ? 'Foes in this fight' : 'Foes of the last fight', options: foes.map((c) => ({ id: c.id, label: label(c, inFight.get(c.id) === true || fallen(c) ? ' (fallen)' : '') })) },
    { label: 'Foes of past fights', options: past.map((c) => ({ id: c.id, label: label(c) })) },
  ];
  return groups.filter((g) => g.options.length > 0);
}
