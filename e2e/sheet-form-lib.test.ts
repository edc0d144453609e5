// The party by form (issue 20), through the real engines in every ruleset:
// the form is generated from the ruleset's sheet model as the server serves
// it (sheetSchemaFor is GET /api/rulesets/:id/sheet), starts from the
// defaults for a new character or from the stored sheet for an edit, holds
// records (resistances, attribute dice, items) as rows, and what it sends
// through character.sheet.set lands on the sheet.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Command, type Json, type Scenario, type Transaction } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings, sheetSchemaFor } from '@tablekeeper/rulesets';
import { isDraft, rebaseDraft, setAt, toPayload, type FieldSpec, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { addCharacterCommand, nameProblem, sheetFields, sheetSetCommand, sheetStart, storedSheet, unlistedProficiencies, type SheetSchema } from '../packages/web/src/lib/sheetForm.ts';

const idOf = (tx: Transaction): string => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');
type Values = { [k: string]: FormValue };

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(2)), rulesetId: id, settings: settings.value });
}
const sheetOf = (id: string): SheetSchema => sheetSchemaFor(id)! as SheetSchema;
const field = (fields: readonly FieldSpec[], key: string): FieldSpec => fields.find((f) => f.key === key)!;

/** What the GM does in "Add a character": the character, then its whole sheet from what the form holds. */
function addByForm(s: Scenario, name: string, values: Values, seatId: string | null = null): string {
  const fields = sheetFields(sheetOf(s.world.rulesetId));
  const id = idOf(s.run(addCharacterCommand(name, 'pc', seatId) as Command));
  const p = toPayload(fields, values);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  s.run(sheetSetCommand(id, p.payload, true) as Command);
  return id;
}

const tswSheets = (s: Scenario) => (s.world.ext['36th-way'] as { sheets: { [k: string]: { [k: string]: Json } } }).sheets;
const teamsSheets = (s: Scenario) => (s.world.ext['teams'] as { sheets: { [k: string]: { [k: string]: Json } } }).sheets;

describe('party by form', () => {
  it('every ruleset has a sheet form; its name and kind are asked above it, not in it', () => {
    for (const r of ['osr', 'kleptonomicon', '36th-way', 'teams', 'daggerheart']) {
      const keys = sheetFields(sheetOf(r)).map((f) => f.key);
      expect(keys.length, r).toBeGreaterThan(0);
      expect(keys, r).not.toContain('name');
      expect(keys, r).not.toContain('kind');
    }
  });

  it('36th Way: the form starts from the model defaults (level 1, AC/PD/MD 10, melee stance) and resistances are rows named by damage type', () => {
    const fields = sheetFields(sheetOf('36th-way'));
    const start = sheetStart(fields, {});
    expect(start).toMatchObject({ level: '1', ac: '10', pd: '10', md: '10', maxHp: '10', stance: 'melee', resist: [], weak: [], abilities: [] });
    const resist = field(fields, 'resist');
    expect(resist.kind).toBe('record');
    if (resist.kind === 'record') expect(resist.keys).toContain('fire');
  });

  it('36th Way: a character added by form with Resist fire 16+, weak to cold and an ability lands on its sheet; editing AC keeps the HP lost', () => {
    const s = table('36th-way');
    let v: FormValue = sheetStart(sheetFields(sheetOf('36th-way')), {});
    v = setAt(v, ['maxHp'], '30');
    v = setAt(v, ['ac'], '17');
    v = setAt(v, ['resist'], [{ key: 'fire', value: '16' }]);
    v = setAt(v, ['weak'], ['cold']);
    v = setAt(v, ['abilities'], [{ id: 'smite', name: 'Smite', action: 'standard', frequency: 'encounter' }]);
    const id = addByForm(s, 'Ardent', v as Values);
    const stored = tswSheets(s)[id]!;
    expect(stored).toMatchObject({ name: 'Ardent', ac: 17, maxHp: 30, level: 1, resist: { fire: 16 }, weak: ['cold'] });
    expect(Object.values(stored['abilities'] as object)).toHaveLength(1);
    // The edit form starts from the stored sheet: the record and the list come back as rows.
    const fields = sheetFields(sheetOf('36th-way'));
    const again = sheetStart(fields, storedSheet(s.world, s.world.characters[id]!));
    expect(again).toMatchObject({ ac: '17', maxHp: '30', resist: [{ key: 'fire', value: '16' }], weak: ['cold'] });
    // The ability comes back by its name; its key stays with the sheet (the form shows no id box, ADR 43).
    expect((again['abilities'] as Values[])[0]).toMatchObject({ name: 'Smite', action: 'standard', frequency: 'encounter' });
    expect(JSON.stringify(stored['abilities'])).toContain('smite');
    s.run({ type: 'character.sheet.set', characterId: id, sheet: { hp: 21 }, patch: true });
    const p = toPayload(fields, { ...again, ac: '18', hp: '' });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    s.run(sheetSetCommand(id, p.payload) as Command);
    expect(tswSheets(s)[id]).toMatchObject({ ac: 18, hp: 21, resist: { fire: 16 } });
  });

  it('teams: attribute dice and skills as named rows, an item with its weapon, what is wielded', () => {
    const s = table('teams');
    let v: FormValue = sheetStart(sheetFields(sheetOf('teams')), {});
    v = setAt(v, ['attributes'], [{ key: 'strength', value: '8' }, { key: 'dexterity', value: '6' }]);
    v = setAt(v, ['skills'], [{ key: 'combat', value: '6' }]);
    v = setAt(v, ['maxEndurance'], '12');
    v = setAt(v, ['maxHealth'], '10');
    v = setAt(v, ['items'], [{ key: 'spear', value: { name: 'Spear', metal: true, weapon: { attributes: ['strength'], damage: '3', damageType: 'piercing' } } }]);
    v = setAt(v, ['wielded'], ['spear']);
    const id = addByForm(s, 'Boudica', v as Values);
    expect(teamsSheets(s)[id]).toMatchObject({ name: 'Boudica', attributes: { strength: 8, dexterity: 6 }, skills: { combat: 6 }, maxEndurance: 12, wielded: ['spear'] });
    expect((teamsSheets(s)[id]!['items'] as { spear: { weapon: { damage: number } } }).spear.weapon.damage).toBe(3);
    const again = sheetStart(sheetFields(sheetOf('teams')), storedSheet(s.world, s.world.characters[id]!));
    expect(again['attributes']).toEqual([{ key: 'strength', value: '8' }, { key: 'dexterity', value: '6' }]);
    expect((again['items'] as Values[])[0]).toMatchObject({ key: 'spear', value: { name: 'Spear', metal: true, weapon: { attributes: ['strength'], damage: '3', damageType: 'piercing' } } });
    // The stored sheet sent back unchanged is accepted (the round trip holds, the weapon field by field).
    const back = toPayload(sheetFields(sheetOf('teams')), again);
    if (!back.ok) throw new Error(JSON.stringify(back.errors));
    s.run(sheetSetCommand(id, back.payload) as Command);
    expect((teamsSheets(s)[id]!['items'] as { spear: { weapon: { damage: number } } }).spear.weapon.damage).toBe(3);
  });

  it("teams items (reviews 7 and 10): the row's key is labelled \"short name\" (never \"key\"), the item's name \"Full name\"; a weapon's lists say what they do; a weapon with no attribute is named with what it takes", () => {
    const fields = sheetFields(sheetOf('teams'));
    const items = field(fields, 'items');
    if (items.kind !== 'record' || items.value.kind !== 'object') throw new Error('items is a record of objects');
    expect(items.keyLabel).toBe('short name');
    expect(items.value.fields.find((f) => f.key === 'name')?.label).toBe('Full name');
    const weapon = items.value.fields.find((f) => f.key === 'weapon')!;
    if (weapon.kind !== 'object') throw new Error('weapon is an object');
    const attrs = weapon.fields.find((f) => f.key === 'attributes')!;
    const profs = weapon.fields.find((f) => f.key === 'proficiencies')!;
    expect(attrs).toMatchObject({ kind: 'list', minItems: 1, description: expect.stringMatching(/^required: the attribute dice an attack with it may use/) as unknown as string });
    expect(profs.description).toContain("a character's martial +2 counts only when the weapon lists martial");
    let v: FormValue = sheetStart(fields, {});
    v = setAt(v, ['items'], [{ key: 'spear', value: { name: 'Spear', weapon: { attributes: [], damage: '3', damageType: 'piercing' } } }]);
    const r = toPayload(fields, v as Values);
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual(['Attributes of Weapon in Items "spear" needs at least 1 item, such as strength or dexterity.']);
  });

  it("teams: a sheet's proficiency a weapon does not list is said in words (003 \"Attacks\": only a listed proficiency adds); a blank profile is no weapon", () => {
    const spear = (proficiencies: string[]) => ({ key: 'spear', value: { name: 'Spear', weapon: { attributes: ['strength'], proficiencies, damage: '4' } } });
    const shield = { key: 'shield', value: { name: '', weapon: { attributes: [], proficiencies: [], damage: '' } } };
    const with_ = (profs: { key: string; value: string }[], items: FormValue[]) => ({ proficiencies: profs, items }) as Values;
    expect(unlistedProficiencies(with_([{ key: 'martial', value: '2' }], [spear([]), shield]))).toEqual(['Spear: martial +2 does not add to its attacks, as it lists no proficiency; add it under its proficiencies if it should.']);
    expect(unlistedProficiencies(with_([{ key: 'martial', value: '2' }, { key: 'finesse', value: '1' }], [spear(['finesse'])]))).toEqual(['Spear: martial +2 does not add to its attacks, as it lists finesse; add it under its proficiencies if it should.']);
    expect(unlistedProficiencies(with_([{ key: 'martial', value: '2' }, { key: 'finesse', value: '1' }], [spear(['fortitude'])]))).toEqual(['Spear: martial +2 and finesse +1 do not add to its attacks, as it lists fortitude; add them under its proficiencies if they should.']);
    expect(unlistedProficiencies(with_([{ key: 'martial', value: '2' }], [spear(['martial'])]))).toEqual([]);
    expect(unlistedProficiencies(with_([{ key: 'martial', value: '0' }], [spear([])]))).toEqual([]);
    expect(unlistedProficiencies({})).toEqual([]);
  });

  it('records: a row with no name, a name given twice, or a name the rules do not list is named before sending, by the labels the form shows', () => {
    const t = sheetFields(sheetOf('teams'));
    const noName = toPayload(t, { attributes: [{ key: '', value: '6' }] });
    expect(noName.ok).toBe(false);
    if (!noName.ok) expect(noName.errors[0]!.message).toBe('Attributes 1 needs a name.');
    const twice = toPayload(t, { attributes: [{ key: 'strength', value: '6' }, { key: 'strength', value: '8' }] });
    if (!twice.ok) expect(twice.errors[0]!.message).toBe('Attributes "strength" is named twice.');
    else expect.unreachable('a name given twice was accepted');
    const w = sheetFields(sheetOf('36th-way'));
    const unknown = toPayload(w, { resist: [{ key: 'sonic', value: '16' }] });
    if (!unknown.ok) expect(unknown.errors[0]!.message).toMatch(/^Resist "sonic" has a name that must be one of acid, cold/);
    else expect.unreachable('an unlisted damage type was accepted');
    // 002 "Resist": the number is 3 to 19 as the sheet model declares it.
    const range = toPayload(w, { resist: [{ key: 'fire', value: '25' }] });
    if (!range.ok) expect(range.errors[0]!.message).toBe('Resist "fire" must be from 3 to 19.');
    else expect.unreachable('Resist 25+ was accepted');
  });

  it('Daggerheart: thresholds, slots and traits by form; a Severe below Major is refused by the rules with the field named', () => {
    const s = table('daggerheart');
    let v: FormValue = sheetStart(sheetFields(sheetOf('daggerheart')), {});
    // No made-up Evasion (review 9): the form starts it empty, and the character's own is typed.
    expect(v).toMatchObject({ evasion: '', tier: '1', agility: '0' });
    v = setAt(v, ['evasion'], '11');
    v = setAt(v, ['agility'], '2');
    v = setAt(v, ['major'], '7');
    v = setAt(v, ['severe'], '14');
    v = setAt(v, ['hpMax'], '6');
    const id = addByForm(s, 'Marlowe', v as Values);
    expect(s.world.characters[id]!.stats).toMatchObject({ agility: 2, major: 7, severe: 14, hpMax: 6, evasion: 11 });
    const p = toPayload(sheetFields(sheetOf('daggerheart')), { severe: '5' });
    if (!p.ok) throw new Error('form');
    const e = s.fail(sheetSetCommand(id, p.payload) as Command);
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.path ?? '').toMatch(/severe|major/);
  });

  it('OSR and the Kleptonomicon: a seated character by form, then an edit starting from the stats', () => {
    const s = table('osr');
    const seat = idOf(s.run({ type: 'seat.add', name: 'Ana' } as Command));
    const fields = sheetFields(sheetOf('osr'));
    const id = addByForm(s, 'Kira', setAt(sheetStart(fields, {}), ['str'], '15') as Values, seat || null);
    expect(s.world.characters[id]!.stats).toMatchObject({ str: 15 });
    if (seat !== '') expect(s.world.characters[id]!.seatId).toBe(seat);
    const again = sheetStart(fields, storedSheet(s.world, s.world.characters[id]!));
    expect(again['str']).toBe('15');
    const k = table('kleptonomicon');
    const kid = addByForm(k, 'Vex', setAt(sheetStart(sheetFields(sheetOf('kleptonomicon')), {}), ['edgeSave'], '3') as Values);
    expect(k.world.characters[kid]!.stats).toMatchObject({ edgeSave: 3 });
  });

  it('a character needs a name of 1 to 80 characters', () => {
    expect(nameProblem('  ')).toBe('Give the character a name.');
    expect(nameProblem('x'.repeat(81))).toMatch(/at most 80/);
    expect(nameProblem('Kira')).toBeNull();
  });
});

describe('unsaved sheet drafts over a changed sheet (review 8: the tracker\'s editor dropped them on a delta)', () => {
  it('keeps each field the GM changed and takes every other from the new sheet', () => {
    const base = { evasion: '5', endurance: '10', items: [{ key: 'spear', value: { durability: '10' } }] };
    const typed = { ...base, evasion: '7' };
    // Damage lowered the endurance and a parry the spear's durability meanwhile.
    const next = { evasion: '5', endurance: '6', items: [{ key: 'spear', value: { durability: '9' } }] };
    expect(rebaseDraft(base, typed, next)).toEqual({ evasion: '7', endurance: '6', items: [{ key: 'spear', value: { durability: '9' } }] });
    // The GM's own endurance wins over the delta's: what they typed is what they meant.
    expect(rebaseDraft(base, { ...typed, endurance: '8' }, next)['endurance']).toBe('8');
    // A field only the new sheet has comes in; none typed comes out.
    expect(rebaseDraft(base, base, { ...next, luck: '1' })).toEqual({ ...next, luck: '1' });
  });

  it('a draft is a form whose values differ from its start, in any field, nested or new', () => {
    const start = { evasion: '5', items: [{ key: 'spear', value: { durability: '10' } }] };
    expect(isDraft(start, { ...start })).toBe(false);
    expect(isDraft(start, { ...start, evasion: '6' })).toBe(true);
    expect(isDraft(start, { ...start, items: [{ key: 'spear', value: { durability: '9' } }] })).toBe(true);
    expect(isDraft(start, { ...start, luck: '1' })).toBe(true);
  });
});
