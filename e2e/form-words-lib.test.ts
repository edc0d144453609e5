// Errors a generated form shows are sentences in words (review 9: "power ›
// amount is required" on a 36th Way sheet): each names the field as the form
// labels it, its list item by name or place, and never a schema path; a
// server's refusal of what the form sent is said the same way. And a
// Daggerheart PC's sheet form asks for the Evasion it lacks instead of
// showing a made-up 10 (review 9).
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Command, type Json, type RuleError, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings, sheetSchemaFor } from '@tablekeeper/rulesets';
import { sheetNeedsOf } from '@tablekeeper/rulesets/browser';
import { fieldsOf, refusalInWords, toPayload, withNeeds, withSettingCaps, type FieldSpec, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { sheetFields, sheetFormSchema, sheetStart, type SheetSchema } from '../packages/web/src/lib/sheetForm.ts';
import { playerSheetSchema } from '../packages/web/src/lib/phoneSheet.ts';
import { sentenceOf } from '../packages/web/src/lib/words.ts';

type Values = { [k: string]: FormValue };

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(5)), rulesetId: id, settings: settings.value });
}
const sheetOf = (id: string): SheetSchema => sheetSchemaFor(id)! as SheetSchema;
const plain = (r: RuleError) => (message: string) => sentenceOf({ code: 'RULE_ERROR', ruleCode: r.code, message }, {});
const words = (fields: readonly FieldSpec[], values: Values, r: RuleError, base = 'sheet') => refusalInWords(fields, values, r, plain(r), base);

/** What a sentence in words never holds: a schema path ("abilities.0", "sheet.ac"), the old "›" chain, a camelCase key. */
function expectWords(message: string): void {
  expect(message).toMatch(/^[A-Z"].*[.)]$/);
  expect(message).not.toMatch(/›|\b[a-z]+\.\d|\bsheet\.|\b[a-z]+[A-Z][a-z]+\b/);
}

/** One wrong value for a field: text where a number goes, a number past its limits, an unknown option, a required one left empty. */
function wrongValuesFor(f: FieldSpec): FormValue[] {
  switch (f.kind) {
    case 'integer':
    case 'number':
      return ['lots', ...(f.max !== null ? [String(f.max + 1)] : []), ...(f.min !== null ? [String(f.min - 1)] : [])];
    case 'enum':
      return ['nope'];
    case 'text':
      return [...(f.maxLength !== null ? ['x'.repeat(f.maxLength + 1)] : []), ...(f.pattern !== null ? ['!!'] : [])];
    case 'json':
      return ['{not json'];
    default:
      return [];
  }
}

/** Every leaf field of a form with one wrong value, set where the form holds it (a list's first item, named "Cleave"). */
function* wrongForms(fields: readonly FieldSpec[], at: (v: FormValue) => Values): Generator<{ label: string; values: Values }> {
  for (const f of fields) {
    if (f.kind === 'object') {
      yield* wrongForms(f.fields, (v) => at({ [f.key]: v } as Values));
    } else if (f.kind === 'list' && f.item.kind === 'object') {
      const item = f.item;
      yield* wrongForms(item.fields, (v) => at({ [f.key]: [{ ...(item.fields.some((x) => x.key === 'name') ? { name: 'Cleave' } : {}), ...(v as Values) }] } as Values));
    } else {
      for (const w of wrongValuesFor(f)) yield { label: f.label, values: at({ [f.key]: w } as Values) };
    }
  }
}

describe('form errors in words (review 9)', () => {
  it('every error the 36th Way sheet form can give is a sentence naming the field by its label, never a path', () => {
    const fields = sheetFields(sheetOf('36th-way'));
    let checked = 0;
    for (const { label, values } of wrongForms(fields, (v) => v as Values)) {
      const r = toPayload(fields, values);
      expect(r.ok, `${label}: ${JSON.stringify(values)}`).toBe(false);
      if (r.ok) continue;
      for (const e of r.errors) expectWords(e.message);
      // A sibling the rules need may be named too (a power's amount beside its resource); this field always is.
      expect(r.errors.map((e) => e.message.toLowerCase()).join(' ')).toContain(label.toLowerCase());
      checked++;
    }
    // The sheet's numbers, its options and its ability's parts: every one was tried (bound by the form's own fields).
    expect(checked).toBeGreaterThanOrEqual(fields.length);
  });

  it('a nested field reads innermost first: "Amount of Power in Cleave is required.", by place when the ability has no name yet', () => {
    const fields = sheetFields(sheetOf('36th-way'));
    const named = toPayload(fields, { abilities: [{ name: 'Cleave', power: { amount: '', resource: 'ki' } }] });
    expect(named.ok ? [] : named.errors.map((e) => e.message)).toEqual(['Amount of Power in Cleave is required.']);
    // 002 "Power": a use costs 1 to 99, the rules' own limits, now the form's too.
    const big = toPayload(fields, { abilities: [{ name: 'Cleave', power: { amount: '150', resource: 'ki' } }] });
    expect(big.ok ? [] : big.errors.map((e) => e.message)).toEqual(['Amount of Power in Cleave must be from 1 to 99.']);
    const unnamed = toPayload(fields, { abilities: [{ name: '', attack: { hit: { sides: '0' } } }] });
    expect(unnamed.ok ? [] : unnamed.errors.map((e) => e.message)).toEqual(['Sides of Hit damage of Attack in Ability 1 must be from 1 to 100.']);
  });

  it("the server's refusals of a 36th Way sheet read the same way: the path becomes the form's words", () => {
    const s = table('36th-way');
    const fields = sheetFields(sheetOf('36th-way'));
    // An ability with no name: the rules cannot make its key.
    const values: Values = { name: 'Bram', abilities: [{ name: '' }] };
    const noName = s.fail({ type: '36th-way.sheet.set', sheet: { id: 'bram', name: 'Bram', abilities: [{}] } } as Command);
    expect(noName.path).toBe('sheet.abilities[0].name');
    expect(words(fields, values, noName)).toBe('Name in Ability 1 is required: give the ability a name.');
    // A limit the schema gate names: the path at the message's head goes, the field's label takes its place.
    const ac = s.fail({ type: '36th-way.sheet.set', sheet: { id: 'bram', ac: 5000 } } as Command);
    expect(ac.message.startsWith('sheet.ac')).toBe(true);
    const said = words(fields, { ac: '5000' }, ac);
    expect(said).toBe('AC must be an integer from 0 to 1000.');
    expectWords(said);
    // Two abilities of one name: the rule's own sentence, after the field it is about.
    const twice = s.fail({ type: '36th-way.sheet.set', sheet: { id: 'bram', abilities: [{ name: 'Cleave' }, { name: 'Cleave' }] } } as Command);
    const both = words(fields, { abilities: [{ name: 'Cleave' }, { name: 'Cleave' }] }, twice);
    expect(both).toMatch(/^Name in Cleave: Ability "Cleave" is listed twice/);
    expectWords(both);
  });

  it('a refusal with no field, or with one the form does not show, is still words', () => {
    const fields = sheetFields(sheetOf('36th-way'));
    expect(words(fields, {}, { code: 'INVALID_VALUE', message: 'at most 200 sheets per table' })).toBe('At most 200 sheets per table.');
    expect(words([], {}, { code: 'INVALID_VALUE', message: 'sheet.somethingElse: must be a string', path: 'sheet.somethingElse' })).toBe('Something else must be a string.');
  });
});

describe("Daggerheart: no made-up Evasion (review 9)", () => {
  it('the sheet model has no Evasion default: an invited PC reads none, and the rules read none either', () => {
    const fields = sheetFields(sheetOf('daggerheart'));
    expect(fields.find((f) => f.key === 'evasion')?.default).toBeUndefined();
    expect(sheetStart(fields, {})['evasion']).toBe('');
    const s = table('daggerheart');
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { hpMax: 6 } } as Command);
    const kira = Object.values(s.world.characters).find((c) => c.name === 'Kira')!;
    // A whole sheet saved without it stores none, as the form shows.
    s.run({ type: 'character.sheet.set', characterId: kira.id, sheet: { agility: 1 } } as Command);
    expect(Object.hasOwn(s.world.characters[kira.id]!.stats, 'evasion')).toBe(false);
    expect(sheetNeedsOf('daggerheart', s.world.characters[kira.id]!)).toEqual({ evasion: "not set yet: an adversary's attack on Kira needs it" });
  });

  it("a PC's form asks for it (required, said why when empty); a PC with one, an adversary and other rulesets are asked nothing", () => {
    const schema = withNeeds(sheetFormSchema(sheetOf('daggerheart')), sheetNeedsOf('daggerheart', { name: 'Kira', kind: 'pc', stats: {} }));
    const fields = fieldsOf(schema);
    const evasion = fields.find((f) => f.key === 'evasion')!;
    expect(evasion).toMatchObject({ required: true, unset: "not set yet: an adversary's attack on Kira needs it" });
    const r = toPayload(fields, sheetStart(fields, {}));
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual(['Evasion is required.']);
    expect(toPayload(fields, { ...sheetStart(fields, {}), evasion: '11' }).ok).toBe(true);
    expect(sheetNeedsOf('daggerheart', { name: 'Kira', kind: 'pc', stats: { evasion: 11 } })).toEqual({});
    expect(sheetNeedsOf('daggerheart', { name: 'Bandit', kind: 'npc', stats: { adversary: true, difficulty: 12 } })).toEqual({});
    expect(sheetNeedsOf('osr', { name: 'Kira', kind: 'pc', stats: {} })).toEqual({});
  });

  it('an adversary attack on a PC without Evasion is refused in words, and the picker says it is not set yet', () => {
    const s = table('daggerheart');
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { hpMax: 6 } } as Command);
    s.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 1, difficulty: 12, major: 5, severe: 9, hp: 4, attack: 1, damage: '1d6', visibility: 'visible' } as Command);
    const kira = Object.values(s.world.characters).find((c) => c.name === 'Kira')!.id;
    const bandit = Object.values(s.world.characters).find((c) => c.name.startsWith('Bandit'))!.id;
    const e = s.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira } as Command);
    expect(e).toMatchObject({ path: 'targetId', message: "Kira's sheet has no Evasion to roll against (set it on the sheet)" });
  });
});

// Keep the JSON type in use for stored sheets read above.
export type { Json };

describe("Daggerheart: the sheet's Hope stops at the table's Hope maximum (issue 20)", () => {
  it('the GM form refuses Hope 7 in words at the default maximum 6, takes 6, and follows a table that sets 8; the phone has no Hope box', () => {
    const settings = resolveSettings('daggerheart');
    if (!settings.ok) throw new Error(settings.error.message);
    const gmFields = sheetFields(sheetOf('daggerheart'), settings.value);
    expect(gmFields.find((f) => f.key === 'hope')).toMatchObject({ kind: 'integer', min: 0, max: 6 });
    const r = toPayload(gmFields, { ...sheetStart(gmFields, {}), evasion: '10', hope: '7' });
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual(['Hope must be from 0 to 6.']);
    expect(toPayload(gmFields, { ...sheetStart(gmFields, {}), evasion: '10', hope: '6' }).ok).toBe(true);
    // The phone has no Hope box at all: the GM keeps every number on a Daggerheart sheet (review 13 #1, ADR 103).
    const phone = fieldsOf(playerSheetSchema(withSettingCaps(sheetOf('daggerheart').schema, settings.value), sheetOf('daggerheart').playerEditable));
    expect(phone.find((f) => f.key === 'hope')).toBeUndefined();
    // Another table's setting, and no settings at all (the model's own 100).
    expect(sheetFields(sheetOf('daggerheart'), { ...settings.value, 'daggerheart.hopeMax': 8 }).find((f) => f.key === 'hope')).toMatchObject({ max: 8 });
    expect(sheetFields(sheetOf('daggerheart')).find((f) => f.key === 'hope')).toMatchObject({ max: 100 });
  });
});
