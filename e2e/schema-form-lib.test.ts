// The form generator's logic (a Node test of packages/web/src/lib/schemaForm.ts)
// on the real catalogue, as GET /api/rulesets/:id/commands serves it.
import { catalogEntries } from '@tablekeeper/engine';
import { engineFor } from '@tablekeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { entriesFor, fieldsOf, initialValues, recordRowLabel, setAt, toPayload, type CatalogEntry, type FieldSpec, type FormValue } from '../packages/web/src/lib/schemaForm.ts';

const catalogue = (id: string) => catalogEntries(id, engineFor(id)!) as unknown as CatalogEntry[];
const entry = (id: string, type: string) => catalogue(id).find((e) => e.type === type)!;
const field = (fields: readonly FieldSpec[], key: string) => fields.find((f) => f.key === key)!;

describe('fieldsOf', () => {
  it('reads strings, integers with limits, enums, booleans, id pickers and optional fields (osr.check)', () => {
    const fields = fieldsOf(entry('osr', 'osr.check').schema);
    expect(field(fields, 'characterId')).toMatchObject({ kind: 'ref', ref: 'character', required: true });
    expect(field(fields, 'difficulty')).toMatchObject({ kind: 'integer', min: 1, max: 40, required: true });
    expect(field(fields, 'ability')).toMatchObject({ kind: 'enum', options: ['str', 'dex', 'con', 'int', 'wis', 'cha'], required: false });
    expect(field(fields, 'proficient')).toMatchObject({ kind: 'boolean', required: false });
    expect(field(fields, 'label')).toMatchObject({ kind: 'text', maxLength: 100, required: false });
    expect(field(fields, 'tags')).toMatchObject({ kind: 'list', maxItems: 13, item: { kind: 'enum' } });
    expect(field(fields, 'damageOnFail')).toMatchObject({ kind: 'mixed' });
  });

  it('nests objects and discriminated choices (condition.apply duration, osr.expose stages)', () => {
    const apply = fieldsOf(entry('36th-way', 'condition.apply').schema);
    expect(field(apply, 'duration').kind).toBe('json');
    expect(field(apply, 'targetId')).toMatchObject({ kind: 'ref', ref: 'combatant' });
    const stages = field(fieldsOf(entry('osr', 'osr.expose').schema), 'stages');
    expect(stages).toMatchObject({ kind: 'list', minItems: 1, maxItems: 20, item: { kind: 'object' } });
    const item = (stages as Extract<FieldSpec, { kind: 'list' }>).item as Extract<FieldSpec, { kind: 'object' }>;
    expect(item.fields.map((f) => f.key)).toEqual(['hours', 'ability', 'dice', 'exhaustion', 'note']);
    expect(field(item.fields, 'ability')).toMatchObject({ kind: 'enum', required: false });
  });

  it('gives every declared payload of every ruleset a form (no field it cannot render)', () => {
    for (const id of ['daggerheart', 'osr', '36th-way', 'teams', 'kleptonomicon']) {
      for (const e of catalogue(id)) expect(() => initialValues(fieldsOf(e.schema)), e.type).not.toThrow();
    }
  });
});

describe('toPayload', () => {
  const fields = fieldsOf(entry('osr', 'osr.check').schema);
  const fill = (over: { [k: string]: FormValue }) => ({ ...initialValues(fields), ...over });

  it('turns typed text into the payload, leaving out empty optional fields and unticked boxes', () => {
    expect(toPayload(fields, fill({ characterId: 'ch2', difficulty: '12', bonus: '-1', label: 'climb', damageOnFail: '1d6' }))).toEqual({
      ok: true,
      payload: { characterId: 'ch2', difficulty: 12, bonus: -1, label: 'climb', damageOnFail: '1d6' },
    });
    expect(toPayload(fields, fill({ characterId: 'ch2', difficulty: '12', damageOnFail: '3', proficient: true, tags: ['stealth'] }))).toEqual({
      ok: true,
      payload: { characterId: 'ch2', difficulty: 12, damageOnFail: 3, proficient: true, tags: ['stealth'] },
    });
  });

  it('names every field that breaks a limit, as the server would (difficulty 41, a fraction, a missing character)', () => {
    const r = toPayload(fields, fill({ difficulty: '41', bonus: '1.5' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      { path: 'characterId', message: 'Character id is required.' },
      { path: 'difficulty', message: 'Difficulty must be from 1 to 40.' },
      { path: 'bonus', message: 'Bonus must be a whole number.' },
    ]);
  });

  it('converts nested lists of objects and reports their paths (osr.expose stages.0.hours)', () => {
    const f = fieldsOf(entry('osr', 'osr.expose').schema);
    let v: FormValue = { ...initialValues(f), characterId: 'ch1' };
    v = setAt(v, ['stages'], [{ hours: '24', ability: 'con', dice: '', exhaustion: true, note: '' }]);
    expect(toPayload(f, v as { [k: string]: FormValue })).toEqual({ ok: true, payload: { characterId: 'ch1', stages: [{ hours: 24, ability: 'con', exhaustion: true }] } });
    v = setAt(v, ['stages', 0, 'hours'], '0');
    const bad = toPayload(f, v as { [k: string]: FormValue });
    expect(!bad.ok && bad.errors.map((e) => e.path)).toEqual(['stages.0.hours']);
  });

  it('parses free JSON fields and refuses text that is not JSON', () => {
    const f = fieldsOf(entry('36th-way', 'condition.apply').schema);
    const base = { ...initialValues(f), targetId: 'orc', condition: 'dazed' };
    expect(toPayload(f, { ...base, duration: '{"kind":"rounds","rounds":2}' })).toEqual({ ok: true, payload: { targetId: 'orc', condition: 'dazed', duration: { kind: 'rounds', rounds: 2 } } });
    const r = toPayload(f, { ...base, duration: '{kind: rounds' });
    expect(!r.ok && r.errors[0]).toEqual({ path: 'duration', message: 'Duration is not valid JSON.' });
  });
});

describe('entriesFor', () => {
  it("lists commands before queries and leaves the GM's own commands out for players", () => {
    const all = catalogue('daggerheart');
    const gm = entriesFor(all, true);
    expect(gm.at(-1)?.kind).toBe('query');
    expect(gm.filter((e) => e.kind === 'query').map((e) => e.type)).toContain('countdown.odds');
    const player = entriesFor(all, false).map((e) => e.type);
    expect(player).toContain('daggerheart.spendHope');
    expect(player).not.toContain('daggerheart.gainFear');
    const hope = entriesFor(all, true, 'hope').map((e) => e.type);
    expect(hope).toEqual([...hope].sort());
    expect(hope).toEqual(expect.arrayContaining(['daggerheart.gainHope', 'daggerheart.helpAlly', 'daggerheart.spendHope']));
    expect(hope).not.toContain('daggerheart.gainFear');
  });

  it('leaves the deprecated teams sheet aliases out and keeps the shared sheet commands they point to (ADR 62)', () => {
    const all = catalogue('teams');
    expect(all.filter((e) => e.deprecated !== undefined).map((e) => e.type)).toEqual(['teams.setSheet', 'teams.removeSheet']);
    const gm = entriesFor(all, true).map((e) => e.type);
    expect(gm).not.toContain('teams.setSheet');
    expect(gm).not.toContain('teams.removeSheet');
    expect(gm).toEqual(expect.arrayContaining(['character.sheet.set', 'character.sheet.remove']));
  });
});

describe('recordRowLabel', () => {
  it('names a record row in words, one of the list, with what its key is called (review 8: "items 1 key")', () => {
    expect(recordRowLabel('items', 0, 'key')).toBe('Item 1: key');
    expect(recordRowLabel('proficiencies', 1, 'name')).toBe('Proficiency 2: name');
    expect(recordRowLabel('attributes', 2)).toBe('Attribute 3');
    // A label that is no plural stays as it is, and "ss" is not cut.
    expect(recordRowLabel('Resist', 0, 'name')).toBe('Resist 1: name');
    expect(recordRowLabel('class', 0)).toBe('Class 1');
  });
});
