// A character's sheet by form (issue 20), through the real engines: the form
// generated from character.sheet.set (ADR 21) starts from the character's
// stats, and what it sends is accepted and lands on the sheet.
import { describe, expect, it } from 'vitest';
import { payloadJsonSchema, scenario, seededRng, type Transaction, type Command, type Json, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { fieldsOf, toPayload, setAt, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { sheetFormCommand, sheetFormOf, sheetFormSchema, sheetInitial } from '../packages/web/src/lib/sheetForm.ts';

const idOf = (tx: Transaction): string => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(2)), rulesetId: id, settings: settings.value });
}
const schemaOf = (rulesetId: string, type: string) => payloadJsonSchema(engineFor(rulesetId)!.catalog.find((d) => d.type === type)!) as { [k: string]: unknown };

describe('sheet by form', () => {
  it('OSR: starts from the stats, hides the character field, and saves a changed STR through character.sheet.set', () => {
    const s = table('osr');
    const id = idOf(s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { str: 12, dex: 15, hp: 9, maxHp: 9 } })) as string;
    const form = sheetFormOf('osr')!;
    const schema = sheetFormSchema(form, schemaOf('osr', form.type));
    const fields = fieldsOf(schema);
    expect(fields.map((f) => f.key)).toEqual(['sheet']);
    let values = sheetInitial(form, schemaOf('osr', form.type), s.world.characters[id]!) as FormValue;
    expect((values as { sheet: { str: string; dex: string } }).sheet).toMatchObject({ str: '12', dex: '15' });
    values = setAt(values, ['sheet', 'str'], '16');
    const p = toPayload(fields, values as { [k: string]: FormValue });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    s.run(sheetFormCommand(form, id, p.payload) as Command);
    expect(s.world.characters[id]!.stats).toMatchObject({ str: 16, dex: 15, hp: 9 });
  });

  it('OSR: a score outside the declared range is named before sending', () => {
    const form = sheetFormOf('osr')!;
    const schema = sheetFormSchema(form, schemaOf('osr', form.type));
    const fields = fieldsOf(schema);
    const p = toPayload(fields, { sheet: { str: '99' } } as { [k: string]: FormValue });
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.errors[0]!.message).toMatch(/^sheet\.str: must be/);
  });

  it('Kleptonomicon: Edge Save and Sneaky by form through character.sheet.set', () => {
    const s = table('kleptonomicon');
    const id = idOf(s.run({ type: 'character.add', name: 'Vex', kind: 'pc' })) as string;
    const form = sheetFormOf('kleptonomicon')!;
    const fields = fieldsOf(sheetFormSchema(form, schemaOf('kleptonomicon', form.type)));
    expect(fields.map((f) => f.key)).toEqual(['sheet']);
    const p = toPayload(fields, { sheet: { edgeSave: '3', sneaky: true } } as { [k: string]: FormValue });
    if (!p.ok) throw new Error('form');
    s.run(sheetFormCommand(form, id, p.payload as { [k: string]: Json }) as Command);
    expect(s.world.characters[id]!.stats).toMatchObject({ edgeSave: 3, sneaky: true });
    expect(sheetInitial(form, schemaOf('kleptonomicon', form.type), s.world.characters[id]!)).toMatchObject({ sheet: { edgeSave: '3', sneaky: true } });
  });

  it('is offered only where the sheet command has plain fields', () => {
    expect(['osr', 'kleptonomicon', '36th-way', 'teams', 'daggerheart'].map((r) => sheetFormOf(r)?.type ?? null)).toEqual(['character.sheet.set', 'character.sheet.set', null, null, null]);
  });
});
