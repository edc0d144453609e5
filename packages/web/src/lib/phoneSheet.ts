// A player's own sheet on the phone (issue 20): only the fields their ruleset
// lets a player change (`playerEditable` in each sheet model), as a form
// generated from the sheet's JSON Schema, saved as a patch with
// `character.sheet.set`. The engine refuses any other field; the form never
// offers one.
import type { Json } from '@tablekeeper/engine';
import { fieldsOf, formValuesFrom, type FormValue, type JsonSchema } from './schemaForm.ts';

/** The sheet's schema cut down to the fields a player may change (and their limits). */
export function playerSheetSchema(schema: JsonSchema, editable: readonly string[]): JsonSchema {
  const props = (schema['properties'] ?? {}) as { readonly [k: string]: JsonSchema };
  const keep = editable.filter((k) => Object.hasOwn(props, k));
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]).filter((k) => keep.includes(k)) : undefined;
  return {
    ...schema,
    properties: Object.fromEntries(keep.map((k) => [k, props[k]!])),
    ...(required === undefined ? {} : { required }),
  };
}

/** What the form starts from: the stored values the sheet query gave, for the fields it shows. */
export function phoneSheetInitial(schema: JsonSchema, stored: { readonly [k: string]: Json }): { [k: string]: FormValue } {
  return formValuesFrom(fieldsOf(schema), stored);
}

/** The patch the phone sends: the player's fields only, for their own character. */
export function phoneSheetCommand(characterId: string, payload: { readonly [k: string]: Json }): { type: 'character.sheet.set'; characterId: string; sheet: { [k: string]: Json }; patch: true } {
  return { type: 'character.sheet.set', characterId, sheet: { ...payload }, patch: true };
}

/** Choices for a `keys:<field>` picker the phone's form does not hold: the stored sheet's own rows (a teams sheet's items, to wield). */
export function storedKeyOptions(stored: { readonly [k: string]: Json }, ref: string): { value: string; label: string }[] {
  if (!ref.startsWith('keys:')) return [];
  const rows = stored[ref.slice(5)];
  if (rows === null || rows === undefined || typeof rows !== 'object' || Array.isArray(rows)) return [];
  return Object.entries(rows).map(([k, v]) => {
    const name = v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v['name'] === 'string' ? v['name'] : '';
    return { value: k, label: name === '' || name === k ? k : `${name} (${k})` };
  });
}
