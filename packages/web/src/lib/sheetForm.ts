// A character's sheet as a form (issue 20), in every ruleset: the ruleset's
// one sheet model (ADR 21) served as JSON Schema with a default per field
// (GET /api/rulesets/:id/sheet), sent through character.sheet.set. Editing
// starts from the stored sheet and sends a patch (play state is kept); a new
// character starts from the defaults and sends a whole sheet.
import type { Character, Json, World } from '@tablekeeper/engine';
import type { ClientCommand } from '../net/codec.ts';
import { keptSheetAsEntered, keptSheetCommandFor, keptSheetOf, keptSheetRulesOf } from '@tablekeeper/rulesets/browser';
import { hasSheet, sheetText, type SheetChoice, type SheetRules } from './sheetEditor.ts';
import { defaultValues, fieldsOf, valueFrom, withoutFields, withSettingCaps, type FieldSpec, type FormValue, type JsonSchema } from './schemaForm.ts';

/** What GET /api/rulesets/:id/sheet answers. */
export interface SheetSchema {
  readonly ruleset: string;
  readonly schema: JsonSchema;
  readonly playerEditable: readonly string[];
}

type Obj = { readonly [k: string]: Json };

/** The values the character's sheet holds now, in the shape the sheet command takes (the ruleset's selectors find a kept sheet). */
export function storedSheet(world: World, character: Character): Obj {
  const rules = keptSheetRulesOf(world.rulesetId);
  if (rules === null) return character.stats as Obj;
  const s = keptSheetOf(world, character.id, character.id);
  return s === null ? {} : keptSheetAsEntered(rules, s);
}

// The character's own name and kind are the sheet's too; the form asks them once, above the sheet.
const OWN_FIELDS = ['name', 'kind'];

/** The schema the form renders: the sheet without the fields the character itself holds. */
export function sheetFormSchema(sheet: SheetSchema, settings: { readonly [k: string]: unknown } = {}): JsonSchema {
  return withSettingCaps(withoutFields(sheet.schema, OWN_FIELDS), settings);
}

/** The form's fields, in the model's order. */
export function sheetFields(sheet: SheetSchema, settings: { readonly [k: string]: unknown } = {}): FieldSpec[] {
  return fieldsOf(sheetFormSchema(sheet, settings));
}

/** What the form starts from: each field's default, overlaid with what the character's sheet holds. */
export function sheetStart(fields: readonly FieldSpec[], stored: Obj): { [k: string]: FormValue } {
  const out = defaultValues(fields);
  for (const f of fields) {
    if (!Object.hasOwn(stored, f.key)) continue;
    const v = valueFrom(f, stored[f.key]!);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

/** Saving an edited sheet: a patch, so what the form leaves empty and the play state stay as stored. */
export function sheetSetCommand(characterId: string, sheet: { readonly [k: string]: Json }, whole = false): ClientCommand {
  return { type: 'character.sheet.set', characterId, sheet, ...(whole ? {} : { patch: true }) };
}

/** A new character, seated if a seat is chosen; its sheet follows once its id is known. */
export function addCharacterCommand(name: string, kind: 'pc' | 'npc', seatId: string | null): ClientCommand {
  return { type: 'character.add', name, kind, ...(seatId === null ? {} : { seatId }) };
}

export const MAX_NAME = 80;

/** Why this name cannot be a character's, or null. */
export function nameProblem(name: string): string | null {
  const n = name.trim();
  if (n === '') return 'Give the character a name.';
  if (n.length > MAX_NAME) return `A name has at most ${MAX_NAME} characters.`;
  return null;
}

/** The combatant's stored sheet in the shape the form takes (abilities as entered), or {} for none. */
export function combatantSheet(world: World, rules: SheetRules, id: string): { readonly [k: string]: Json } {
  return hasSheet(world, id) !== rules ? {} : (JSON.parse(sheetText(world, rules, { id, name: '', kind: 'npc', characterId: null, hasSheet: true })) as { [k: string]: Json });
}

/**
 * The command that stores what the form holds as this combatant's whole sheet (its id, name, kind and
 * character come from the combatant): the 36th Way's own, else character.sheet.set addressing the
 * character it plays (a character's one combatant takes its id, ADR 37) or the foe's own id (ADR 39).
 */
export function combatantSheetCommand(rules: SheetRules, c: SheetChoice, form: { readonly [k: string]: Json }): ClientCommand {
  return keptSheetCommandFor(rules, c, form);
}

type Row = { readonly [k: string]: FormValue };
const rowsOf = (x: FormValue | undefined): Row[] => (Array.isArray(x) ? x.filter((r): r is Row => typeof r === 'object' && r !== null && !Array.isArray(r)) : []);
const rowOf = (x: FormValue | undefined): Row | null => (typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Row) : null);

/**
 * A sheet's proficiencies that a weapon on it does not list, in words (review 7:
 * Kira's martial +2 silently missing from her spear's attacks). 003 "Attacks"
 * adds only a proficiency the weapon lists; read from the form as typed, on any
 * sheet with proficiencies and items holding weapons (the teams sheet).
 */
export function unlistedProficiencies(values: { readonly [k: string]: FormValue }): string[] {
  const held = rowsOf(values['proficiencies'])
    .map((r) => ({ key: String(r['key'] ?? '').trim(), value: Number(r['value'] ?? 0) }))
    .filter((p) => p.key !== '' && Number.isFinite(p.value) && p.value !== 0);
  if (held.length === 0) return [];
  const out: string[] = [];
  for (const item of rowsOf(values['items'])) {
    const it = rowOf(item['value']);
    const weapon = rowOf(it?.['weapon']);
    if (weapon === null) continue;
    const attributes = Array.isArray(weapon['attributes']) ? weapon['attributes'] : [];
    // A weapon the form holds but nobody filled in (a shield's blank profile) is no weapon.
    if (String(weapon['damage'] ?? '').trim() === '' && attributes.length === 0) continue;
    const listed = (Array.isArray(weapon['proficiencies']) ? weapon['proficiencies'] : []).map((p) => String(p).trim());
    const missing = held.filter((p) => !listed.includes(p.key));
    if (missing.length === 0) continue;
    const name = String(it?.['name'] ?? '').trim() || String(item['key'] ?? '').trim() || 'a weapon';
    const words = missing.map((p) => `${p.key} ${p.value > 0 ? '+' : ''}${p.value}`).join(' and ');
    out.push(`${name}: ${words} ${missing.length === 1 ? 'does' : 'do'} not add to its attacks, as it lists ${listed.length === 0 ? 'no proficiency' : listed.join(', ')}; add ${missing.length === 1 ? 'it' : 'them'} under its proficiencies if ${missing.length === 1 ? 'it' : 'they'} should.`);
  }
  return out;
}

// The draft rules live beside the form generator (the phone's sheet form loads them without the editor's code).
export { isDraft, rebaseDraft } from './schemaForm.ts';
