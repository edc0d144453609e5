// The teams sheet form's pickers (issue 20, GM review): attribute and skill
// names suggested from 003's examples, their values as dice ("d8"), and what
// is wielded picked from the sheet's own items, in the GM's form (the items
// rows it holds) and on the phone (the stored items), read from the sheet
// model's schema as the server serves it.
import { describe, expect, it } from 'vitest';
import { sheetSchemaFor } from '@tablekeeper/rulesets';
import { dieLabel, keysOfField, setAt, type FieldSpec, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { storedKeyOptions } from '../packages/web/src/lib/phoneSheet.ts';
import { sheetFields, type SheetSchema } from '../packages/web/src/lib/sheetForm.ts';

const fields = sheetFields(sheetSchemaFor('teams')! as SheetSchema);
const field = (key: string): FieldSpec => fields.find((f) => f.key === key)!;

describe('teams sheet pickers', () => {
  it("attributes and skills: 003's names suggested (strength, dexterity; combat, athletics), each value a die from d2 to d20", () => {
    const a = field('attributes');
    const s = field('skills');
    expect(a.kind === 'record' ? [a.keyExamples, a.value.kind === 'integer' ? a.value.dice : null] : null).toEqual([['strength', 'dexterity'], [2, 4, 6, 8, 10, 12, 20]]);
    expect(s.kind === 'record' ? s.keyExamples : null).toEqual(['combat', 'athletics']);
    // A proficiency is a plain bonus, not a die.
    const p = field('proficiencies');
    expect(p.kind === 'record' ? [p.keyExamples, p.value.kind === 'integer' ? (p.value.dice ?? null) : 'not integer'] : null).toEqual([['martial', 'finesse', 'fortitude'], null]);
    expect([6, 8, 20].map(dieLabel)).toEqual(['d6', 'd8', 'd20']);
  });

  it("wielded picks from the form's own items, named by their names, and follows rows as they are added", () => {
    const w = field('wielded');
    expect(w.kind === 'list' && w.item.kind === 'ref' ? w.item.ref : null).toBe('keys:items');
    let v: { [k: string]: FormValue } = { items: [] };
    expect(keysOfField(v, 'items')).toEqual([]);
    v = setAt(v, ['items'], [{ key: 'spear', value: { name: 'Long spear' } }, { key: '', value: {} }, { key: 'shield', value: { name: 'shield' } }]) as { [k: string]: FormValue };
    // A row without a name yet offers nothing; a name equal to the key is said once.
    expect(keysOfField(v, 'items')).toEqual([
      { value: 'spear', label: 'Long spear (spear)' },
      { value: 'shield', label: 'shield' },
    ]);
  });

  it("a weapon's attributes are ticked from the sheet's own attributes (keys:attributes), 003's strength and dexterity offered too; none ticked names them", () => {
    const items = field('items');
    if (items.kind !== 'record' || items.value.kind !== 'object') throw new Error('items is a record of objects');
    const weapon = items.value.fields.find((f) => f.key === 'weapon')!;
    if (weapon.kind !== 'object') throw new Error('weapon is an object');
    const attrs = weapon.fields.find((f) => f.key === 'attributes')!;
    expect(attrs.kind === 'list' && attrs.item.kind === 'ref' ? [attrs.item.ref, attrs.item.examples] : null).toEqual(['keys:attributes', ['strength', 'dexterity']]);
    // The rows the form holds: a typed attribute name is a choice at once.
    const v = setAt({ attributes: [] }, ['attributes'], [{ key: 'might', value: '8' }, { key: '', value: '' }]) as { [k: string]: FormValue };
    expect(keysOfField(v, 'attributes')).toEqual([{ value: 'might', label: 'might' }]);
  });

  it("the phone's form (wielded only) picks from the stored sheet's items", () => {
    const stored = { items: { spear: { name: 'spear' }, buckler: { name: 'Buckler' } }, wielded: ['spear'] };
    expect(storedKeyOptions(stored, 'keys:items')).toEqual([
      { value: 'spear', label: 'spear' },
      { value: 'buckler', label: 'Buckler (buckler)' },
    ]);
    expect(storedKeyOptions(stored, 'character')).toEqual([]);
    expect(storedKeyOptions({}, 'keys:items')).toEqual([]);
  });
});
