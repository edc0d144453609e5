// A character's sheet as a form (issue 20), generated from the one sheet
// model's command (character.sheet.set, ADR 21) in the catalogue, sent as a
// patch. Offered where the sheet lives in the character's stats, so the form
// can start from the stored values: OSR and the Kleptonomicon.
import type { Character, Json } from '@tablekeeper/engine';
import type { ClientCommand } from '../net/codec.ts';
import { fieldsOf, formValuesFrom, withoutFields, type FormValue, type JsonSchema } from './schemaForm.ts';

export interface SheetForm {
  /** The ruleset's own command that saves the sheet. */
  readonly type: string;
  /** The payload field naming the character (filled by the panel, not shown). */
  readonly idKey: string;
  /** The payload field holding the sheet's numbers, or null when they sit at the top level. */
  readonly sheetKey: string | null;
  /** Send only the fields given (the form may leave some empty). */
  readonly patch: boolean;
}

const FORMS: { readonly [rulesetId: string]: SheetForm } = {
  osr: { type: 'character.sheet.set', idKey: 'characterId', sheetKey: 'sheet', patch: true },
  kleptonomicon: { type: 'character.sheet.set', idKey: 'characterId', sheetKey: 'sheet', patch: true },
};

/** The sheet form of a ruleset, or null (36th Way and teams keep theirs outside the stats: their JSON editor stays). */
export function sheetFormOf(rulesetId: string): SheetForm | null {
  return FORMS[rulesetId] ?? null;
}

/** The command's schema without the character field (the panel's picker chooses it) and the patch flag (always set). */
export function sheetFormSchema(form: SheetForm, schema: JsonSchema): JsonSchema {
  return withoutFields(schema, [form.idKey, 'patch']);
}

/** What the form starts from: the character's stats, where the form has a field for them. */
export function sheetInitial(form: SheetForm, schema: JsonSchema, character: Character): { [k: string]: FormValue } {
  const fields = fieldsOf(sheetFormSchema(form, schema));
  return formValuesFrom(fields, form.sheetKey === null ? character.stats : { [form.sheetKey]: character.stats });
}

/** The ruleset's command for what the form holds. */
export function sheetFormCommand(form: SheetForm, characterId: string, payload: { readonly [k: string]: Json }): ClientCommand {
  return { type: form.type, [form.idKey]: characterId, ...payload, ...(form.patch ? { patch: true } : {}) };
}
