// Every field a GM or player types into is labelled in the rules' words (issue 20 "Words, not codes"; review 10
// read "str (optional)", "hd", "Item 1: key"): each ruleset's sheet, its stat block, and the catalogue
// schemas the sheet and bestiary forms are generated from. A field without a title would show its raw key.
import { describe, expect, it } from 'vitest';
import { catalogEntries } from '@tablekeeper/engine';
import { z } from 'zod';
import { engineFor, rulesetIds, sheetSchemaFor, statBlockOf } from '../src/index.js';

type Schema = { readonly [k: string]: unknown };

const defs = (root: Schema): Record<string, Schema> => (root['$defs'] ?? {}) as Record<string, Schema>;
const resolve = (s: Schema, root: Schema): Schema => (typeof s['$ref'] === 'string' ? (defs(root)[s['$ref'].replace('#/$defs/', '')] ?? {}) : s);

/** A label people read: a capital or a digit first, never a camelCase key. */
const isLabel = (t: unknown): t is string => typeof t === 'string' && /^[A-Z0-9]/.test(t) && !/[a-z][A-Z]/.test(t);

/**
 * The places under `path` whose form label would be missing: every property and every list item needs a title
 * (on itself, or on the nullable wrapper around it). A map's rows are named by their keys; its values' own
 * fields are walked. An older spelling a form never offers (x-long-form) is skipped; a key made from the name
 * (x-from-name), which a form does not ask for, still needs one (a refusal may name it).
 */
function unlabelled(s0: Schema, path: string, root: Schema, out: string[], titled: unknown = undefined): void {
  const s = resolve(s0, root);
  const alts = Array.isArray(s['anyOf']) ? (s['anyOf'] as Schema[]).map((x) => resolve(x, root)).filter((x) => x['type'] !== 'null' && x['x-long-form'] !== true) : [s];
  const title = titled ?? s['title'] ?? (alts.length === 1 ? alts[0]!['title'] : undefined);
  if (!isLabel(title)) out.push(`${path} (${JSON.stringify(title)})`);
  for (const x of alts) {
    const props = x['properties'] as Record<string, Schema> | undefined;
    if (props !== undefined) for (const [k, v] of Object.entries(props)) unlabelled(v, `${path}.${k}`, root, out);
    if (x['items'] !== undefined) unlabelled(x['items'] as Schema, `${path}[]`, root, out);
    const extra = x['additionalProperties'];
    // A map's value is labelled by its row's key; only its own fields need titles.
    if (extra !== null && typeof extra === 'object') {
      const v = resolve(extra as Schema, root);
      const props2 = v['properties'] as Record<string, Schema> | undefined;
      if (props2 !== undefined) for (const [k, f] of Object.entries(props2)) unlabelled(f, `${path}{}.${k}`, root, out);
    }
  }
}

/** The unlabelled fields of an object schema's properties. */
function fieldsWithoutLabels(schema: Schema, prefix: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries((schema['properties'] ?? {}) as Record<string, Schema>)) unlabelled(v, `${prefix}.${k}`, schema, out);
  return out;
}

const catalogueSchema = (id: string, type: string): Schema => {
  const entry = catalogEntries(id, engineFor(id)!).find((e) => e.type === type);
  if (entry === undefined) throw new Error(`${id} has no ${type}`);
  return entry.schema as Schema;
};

describe('form labels (issue 20: words, not raw keys)', () => {
  it.each(rulesetIds)('%s: every field of the sheet, at every depth, has a label in words', (id) => {
    const sheet = sheetSchemaFor(id);
    expect(sheet).not.toBeNull();
    const schema = sheet!.schema as Schema;
    expect(Object.keys((schema['properties'] ?? {}) as object).length).toBeGreaterThan(3);
    expect(fieldsWithoutLabels(schema, 'sheet')).toEqual([]);
  });

  it.each(rulesetIds)('%s: every field of the stat block has a label in words', (id) => {
    const block = statBlockOf(id);
    expect(block).toBeDefined();
    const schema = z.toJSONSchema(block!, { io: 'input', unrepresentable: 'any' }) as Schema;
    expect(fieldsWithoutLabels(schema, 'block')).toEqual([]);
  });

  it.each(rulesetIds)('%s: the forms\' catalogue schemas (bestiary.save, character.sheet.set) label every field they show', (id) => {
    // The bestiary form leaves out the entry's id (it is minted); the sheet form takes the character from its row.
    const save = catalogueSchema(id, 'bestiary.save');
    const saveProps = { ...((save['properties'] ?? {}) as Record<string, Schema>) };
    delete saveProps['id'];
    expect(fieldsWithoutLabels({ ...save, properties: saveProps }, 'bestiary.save')).toEqual([]);
    const set = catalogueSchema(id, 'character.sheet.set');
    const sheet = resolve((set['properties'] as Record<string, Schema>)['sheet']!, set);
    expect(fieldsWithoutLabels({ ...sheet, $defs: set['$defs'] }, 'character.sheet.set.sheet')).toEqual([]);
  });

  it('the check catches what review 10 read: a raw key, a lower-case title, a list item with no name', () => {
    const schema = { type: 'object', properties: { str: { type: 'integer' }, key: { type: 'string', title: 'key' }, maxHp: { type: 'integer', title: 'maxHp' }, weak: { type: 'array', title: 'Weak to', items: { type: 'string' } }, ok: { anyOf: [{ type: 'integer', title: 'HP' }, { type: 'null' }] } } };
    expect(fieldsWithoutLabels(schema, 'sheet')).toEqual(['sheet.str (undefined)', 'sheet.key ("key")', 'sheet.maxHp ("maxHp")', 'sheet.weak[] (undefined)']);
  });
});
