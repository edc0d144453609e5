// A character's sheet by form (issue 20), through the real engines: the form
// generated from osr.setSheet / klepto.setSheet starts from the character's
// stats, and what it sends is accepted and lands on the sheet.
import { describe, expect, it } from 'vitest';
import { payloadJsonSchema, scenario, seededRng, type Command, type Json, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { fieldsOf, toPayload, setAt, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { sheetFormCommand, sheetFormOf, sheetFormSchema, sheetInitial } from '../packages/web/src/lib/sheetForm.ts';

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(2)), rulesetId: id, settings: settings.value });
}
const schemaOf = (rulesetId: string, type: string) => payloadJsonSchema(engineFor(rulesetId)!.catalog.find((d) => d.type === type)!) as { [k: string]: unknown };

describe('sheet by form', () => {
  it('OSR: starts from the stats, hides the character field, and saves a changed STR through osr.setSheet', () => {
    const s = table('osr');
    const id = s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { str: 12, dex: 15, hp: 9, maxHp: 9 } }).events[0]!['id'] as string;
    const form = sheetFormOf('osr')!;
    const schema = sheetFormSchema(form, schemaOf('osr', form.type));
    const fields = fieldsOf(schema);
    expect(fields.map((f) => f.key)).not.toContain('character');
    let values = sheetInitial(form, schemaOf('osr', form.type), s.world.characters[id]!) as FormValue;
    expect((values as { stats: { str: string; dex: string } }).stats).toMatchObject({ str: '12', dex: '15' });
    values = setAt(values, ['stats', 'str'], '16');
    const p = toPayload(fields, values as { [k: string]: FormValue });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    s.run(sheetFormCommand(form, id, p.payload) as Command);
    expect(s.world.characters[id]!.stats).toMatchObject({ str: 16, dex: 15, hp: 9 });
  });

  it('OSR: a score outside the declared range is named before sending', () => {
    const form = sheetFormOf('osr')!;
    const schema = sheetFormSchema(form, schemaOf('osr', form.type));
    const fields = fieldsOf(schema);
    const p = toPayload(fields, { stats: { str: '99' } } as { [k: string]: FormValue });
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.errors[0]!.message).toMatch(/^stats\.str: must be/);
  });

  it('Kleptonomicon: Edge Save and Sneaky by form through klepto.setSheet', () => {
    const s = table('kleptonomicon');
    const id = s.run({ type: 'character.add', name: 'Vex', kind: 'pc' }).events[0]!['id'] as string;
    const form = sheetFormOf('kleptonomicon')!;
    const fields = fieldsOf(sheetFormSchema(form, schemaOf('kleptonomicon', form.type)));
    expect(fields.map((f) => f.key)).toEqual(['edgeSave', 'sneaky']);
    const p = toPayload(fields, { edgeSave: '3', sneaky: true });
    if (!p.ok) throw new Error('form');
    s.run(sheetFormCommand(form, id, p.payload as { [k: string]: Json }) as Command);
    expect(s.world.characters[id]!.stats).toMatchObject({ edgeSave: 3, sneaky: true });
    expect(sheetInitial(form, schemaOf('kleptonomicon', form.type), s.world.characters[id]!)).toMatchObject({ edgeSave: '3', sneaky: true });
  });

  it('is offered only where the sheet command has plain fields', () => {
    expect(['osr', 'kleptonomicon', '36th-way', 'teams', 'daggerheart'].map((r) => sheetFormOf(r)?.type ?? null)).toEqual(['osr.setSheet', 'klepto.setSheet', null, null, null]);
  });
});
