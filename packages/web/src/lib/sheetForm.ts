// A character's sheet as a form (issue 20) on the rulesets whose sheet
// command has plain fields: OSR (osr.setSheet) and the Kleptonomicon
// (klepto.setSheet). The form is generated from the command's schema in the
// catalogue; this file says which command, which field names the character,
// and what the form starts from (the character's stats, where both keep it).
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
}

const FORMS: { readonly [rulesetId: string]: SheetForm } = {
  osr: { type: 'osr.setSheet', idKey: 'character', sheetKey: 'stats' },
  kleptonomicon: { type: 'klepto.setSheet', idKey: 'characterId', sheetKey: null },
};

/** The sheet form of a ruleset, or null (36th Way and teams sheets have their own editor; Daggerheart keeps no sheet command). */
export function sheetFormOf(rulesetId: string): SheetForm | null {
  return FORMS[rulesetId] ?? null;
}

/** The command's schema without the character field (the panel's picker chooses the character). */
export function sheetFormSchema(form: SheetForm, schema: JsonSchema): JsonSchema {
  return withoutFields(schema, [form.idKey]);
}

/** What the form starts from: the character's stats, where the form has a field for them. */
export function sheetInitial(form: SheetForm, schema: JsonSchema, character: Character): { [k: string]: FormValue } {
  const fields = fieldsOf(sheetFormSchema(form, schema));
  return formValuesFrom(fields, form.sheetKey === null ? character.stats : { [form.sheetKey]: character.stats });
}

/** The ruleset's command for what the form holds. */
export function sheetFormCommand(form: SheetForm, characterId: string, payload: { readonly [k: string]: Json }): ClientCommand {
  return { type: form.type, [form.idKey]: characterId, ...payload };
}
