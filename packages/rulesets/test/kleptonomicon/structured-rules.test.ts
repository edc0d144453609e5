// The Kleptonomicon's two structured table rules (ADR 118): the sixth distance
// (004 "Distance", rules README) and the default movement styles (004
// "Movement"). One check refuses a bad value in words naming the field, at
// creation as on the create form; the words never show JSON; and a table made
// with other values plays by them: a new character's move form and turn start
// with the table's styles, and a long move is logged under the sixth's name.
import { fixedRng, getEncounter, scenario, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineFor, resolveSettings, rulesetIds, rulesetInfo } from '../../src/registry.js';
import { NAMED_STYLES, sameSettingValue, STYLE_VARIANTS } from '../../src/setting-shapes.js';
import { settingAllowedWords, settingProblems, settingRefusal, settingValueWords } from '../../src/setting-words.js';
import { NAMED_DISTANCES } from '../../src/kleptonomicon/distances.js';

const GM: Viewer = { role: 'gm' };
const defOf = (key: string) => rulesetInfo('kleptonomicon')!.settings.find((d) => d.key === key)!;
const SIXTH = defOf('kleptonomicon.sixthDistance');
const STYLES = defOf('kleptonomicon.defaultMovementStyles');

/** The refusal at creation (code, path, words), or null when the value is taken. */
function created(key: string, value: Json): { code: string; path: string | undefined; message: string } | null {
  const r = resolveSettings('kleptonomicon', { [key]: value });
  return r.ok ? null : { code: r.error.code, path: r.error.path, message: r.error.message };
}

describe('structured settings', () => {
  it('every setting whose default is a record or a list, in every ruleset, declares its shape (so the create form has an editor for it)', () => {
    const structured = rulesetIds.flatMap((id) => rulesetInfo(id)!.settings.filter((d) => d.default !== null && typeof d.default === 'object'));
    expect(structured.map((d) => d.key)).toEqual(['kleptonomicon.sixthDistance', 'kleptonomicon.defaultMovementStyles']);
    for (const d of structured) expect(d.shape, d.key).toBeDefined();
  });
});

describe('the sixth distance: what a table may choose (004 "Distance")', () => {
  it('takes a key, a name and units past 16u, or no limit; the default is Seeing Distance with no limit', () => {
    expect(settingRefusal(SIXTH, SIXTH.default)).toBeNull();
    expect(settingValueWords(SIXTH, SIXTH.default)).toBe('Seeing Distance (no limit)');
    expect(created('kleptonomicon.sixthDistance', { id: 'far-sight', name: 'Far Sight', units: 40 })).toBeNull();
    expect(created('kleptonomicon.sixthDistance', { id: 'horizon', name: 'Horizon', units: null })).toBeNull();
    expect(settingValueWords(SIXTH, { id: 'far-sight', name: 'Far Sight', units: 40 })).toBe('Far Sight (40u)');
    // The fifth named distance is 16u, and each is longer than the one before: 17u is the shortest sixth.
    expect(NAMED_DISTANCES.at(-1)!.units).toBe(16);
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: 'Far', units: 17 })).toBeNull();
    expect(settingAllowedWords(SIXTH)).toBe('a distance: a key, a name of at most 40 characters, and units from 17 to 1000 or no limit');
  });

  it('refuses units of 16 or less, a fraction, a key or a name of a named distance, a blank name, another field, and a non-record, naming the field', () => {
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: 'Far', units: 16 })).toEqual({
      code: 'INVALID_SETTING',
      path: 'settings.kleptonomicon.sixthDistance.units',
      message: 'the table rule "Sixth distance" (kleptonomicon.sixthDistance): its units must be a whole number from 17 to 1000 (past the Shooting Distance\'s 16u), or no limit; 16 is not',
    });
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: 'Far', units: 20.5 })?.path).toBe('settings.kleptonomicon.sixthDistance.units');
    expect(created('kleptonomicon.sixthDistance', { id: 'shooting', name: 'Far', units: 40 })).toMatchObject({ path: 'settings.kleptonomicon.sixthDistance.id', message: expect.stringContaining('its key "shooting" is already the Shooting Distance\'s') as unknown as string });
    expect(created('kleptonomicon.sixthDistance', { id: 'Far Sight', name: 'Far', units: 40 })).toMatchObject({ path: 'settings.kleptonomicon.sixthDistance.id', message: expect.stringContaining('its key must be a lower-case word') as unknown as string });
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: 'throwing distance', units: 40 })?.message).toContain('its name "throwing distance" is already one of the five named distances (8u)');
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: '   ', units: 40 })?.path).toBe('settings.kleptonomicon.sixthDistance.name');
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: ' Far', units: 40 })?.message).toContain('its name must not start or end with a space');
    expect(created('kleptonomicon.sixthDistance', { id: 'far', name: 'Far', units: 40, colour: 'red' })).toMatchObject({ path: 'settings.kleptonomicon.sixthDistance.colour' });
    expect(created('kleptonomicon.sixthDistance', 'far')).toEqual({
      code: 'INVALID_SETTING',
      path: 'settings.kleptonomicon.sixthDistance',
      message: 'the table rule "Sixth distance" (kleptonomicon.sixthDistance) must be a distance with a key, a name and its units; "far" is not',
    });
    // Every fault is said at once, the path at the first.
    const both = settingProblems(SIXTH, { id: 'spitting', name: '', units: 3 });
    expect(both.map((p) => p.where)).toEqual(['id', 'name', 'units']);
  });
});

describe('the default movement styles: what a table may choose (004 "Movement")', () => {
  it('takes a list of styles with variants; the default is Walk and Half Jump, said as the text says it', () => {
    expect(settingRefusal(STYLES, STYLES.default)).toBeNull();
    expect(settingValueWords(STYLES, STYLES.default)).toBe('Walk (4u), Half Jump (2u)');
    expect(settingValueWords(STYLES, [{ style: 'fly', variant: 'double' }, { style: 'climb' }])).toBe('Double Fly (8u), Climb (4u)');
    expect(created('kleptonomicon.defaultMovementStyles', [{ style: 'swim', variant: 'normal' }])).toBeNull();
  });

  it('refuses an empty list, a style twice, an unknown variant, a style name a sheet would refuse, and too many, naming the row', () => {
    expect(created('kleptonomicon.defaultMovementStyles', [])).toEqual({
      code: 'INVALID_SETTING',
      path: 'settings.kleptonomicon.defaultMovementStyles',
      message: 'the table rule "Default movement styles" (kleptonomicon.defaultMovementStyles) must list at least one movement style',
    });
    expect(created('kleptonomicon.defaultMovementStyles', [{ style: 'walk', variant: 'normal' }, { style: 'walk', variant: 'half' }])).toMatchObject({
      path: 'settings.kleptonomicon.defaultMovementStyles.1.style',
      message: 'the table rule "Default movement styles" (kleptonomicon.defaultMovementStyles): movement style 2 repeats "walk" (each style once)',
    });
    expect(created('kleptonomicon.defaultMovementStyles', [{ style: 'walk', variant: 'triple' }])).toMatchObject({ path: 'settings.kleptonomicon.defaultMovementStyles.0.variant', message: expect.stringContaining('movement style 1\'s variant must be one of "half", "normal", "double"; "triple" is not') as unknown as string });
    expect(created('kleptonomicon.defaultMovementStyles', [{ style: 'Walk 4u', variant: 'normal' }])?.path).toBe('settings.kleptonomicon.defaultMovementStyles.0.style');
    expect(created('kleptonomicon.defaultMovementStyles', [{ style: 'walk', speed: 4 }])?.path).toBe('settings.kleptonomicon.defaultMovementStyles.0.speed');
    expect(created('kleptonomicon.defaultMovementStyles', { style: 'walk' })?.path).toBe('settings.kleptonomicon.defaultMovementStyles');
    const many = Array.from({ length: 21 }, (_, i) => ({ style: `style-${'abcdefghijklmnopqrstu'[i]!}`, variant: 'normal' }));
    expect(created('kleptonomicon.defaultMovementStyles', many)?.message).toContain('may list at most 20 movement styles; 21 is too many');
  });

  it('table.setting still refuses both after creation, in words', () => {
    const s = table({});
    expect(s.fail({ type: 'table.setting', key: 'kleptonomicon.defaultMovementStyles', value: 'walk' }).message).toBe('the table rule "Default movement styles" is set only when the table is created');
  });

  it('a value back at its default is the default whatever its key order (the create form leaves it out)', () => {
    expect(sameSettingValue(SIXTH.default, { units: null, name: 'Seeing Distance', id: 'seeing' })).toBe(true);
    expect(sameSettingValue(STYLES.default, [{ variant: 'normal', style: 'walk' }, { style: 'jump', variant: 'half' }])).toBe(true);
    expect(sameSettingValue(STYLES.default, [{ style: 'jump', variant: 'half' }, { style: 'walk', variant: 'normal' }])).toBe(false);
  });
});

// ---------------------------------------------------------------- play

/** A Kleptonomicon table made with `settings`; Kira (no styles on her sheet, Athletics +30) first against a Rat. */
function table(settings: { [key: string]: Json }, dice: readonly number[] = []): Scenario {
  const resolved = resolveSettings('kleptonomicon', settings);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return scenario(engineFor('kleptonomicon')!.modules, { rng: countingIds(fixedRng([9, ...dice])), rulesetId: 'kleptonomicon', settings: resolved.value });
}
function fight(settings: { [key: string]: Json }, dice: readonly number[] = [], stats: { [k: string]: Json } = {}): { s: Scenario; kira: string } {
  const s = table(settings, dice);
  s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { edgeSave: 5, athletics: 30, ...stats } });
  const kira = Object.values(s.world.characters).find((c) => c.name === 'Kira')!.id;
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  s.run({ type: 'encounter.start', combatants: [{ id: 'c-kira', name: 'Kira', kind: 'pc', characterId: kira }, { id: 'rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
  expect(getEncounter(s.world).current).toBe('c-kira');
  return { s, kira };
}
type Move = { cost: string; choices: { field: string; options: { value: string; label: string; note?: string }[] }[]; numbers: { field: string; max: number }[] };
function moveOf(s: Scenario): Move {
  const r = s.engine.query(s.table, GM, 'kleptonomicon.actions', { combatantId: 'c-kira' });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { actions: (Move & { id: string })[] }).actions.find((a) => a.id === 'move')!;
}
const lines = (s: Scenario): string[] => s.world.log.map((l) => l.text);

describe('the chosen values change play', () => {
  it("a new character's move form, before any move, offers the table's styles and pool (Double Fly 8u, Walk 4u: 8u); the default offers Walk 4u and Jump 2u", () => {
    const custom = fight({ 'kleptonomicon.defaultMovementStyles': [{ style: 'fly', variant: 'double' }, { style: 'walk', variant: 'normal' }] }).s;
    const m = moveOf(custom);
    expect(m.cost).toBe('free (movement: 8u left this turn)');
    expect(m.choices.find((c) => c.field === 'style')!.options).toEqual([
      { value: 'fly', label: 'Fly', note: '8u left' },
      { value: 'walk', label: 'Walk', note: '4u left' },
    ]);
    expect(m.numbers.find((n) => n.field === 'units')!.max).toBe(8);
    const plain = moveOf(fight({}).s);
    expect(plain.choices.find((c) => c.field === 'style')!.options.map((o) => `${o.label} ${o.note}`)).toEqual(['Walk 4u left', 'Jump 2u left']);
    expect(plain.cost).toBe('free (movement: 4u left this turn)');
  });

  it("a style the table's default lacks is refused; a sheet's own styles still win over the table's", () => {
    const { s, kira } = fight({ 'kleptonomicon.defaultMovementStyles': [{ style: 'swim', variant: 'normal' }] });
    expect(s.fail({ type: 'kleptonomicon.move', characterId: kira, style: 'walk', units: 1 }).message).toContain('no walk movement style on this sheet');
    s.run({ type: 'kleptonomicon.move', characterId: kira, style: 'swim', units: 3 });
    expect(lines(s)).toContain('Kira moves 3u by swim (Spitting Distance).');
    const own = fight({ 'kleptonomicon.defaultMovementStyles': [{ style: 'swim', variant: 'normal' }] }, [], { movementStyles: [{ style: 'climb', variant: 'double' }] });
    expect(moveOf(own.s).choices.find((c) => c.field === 'style')!.options.map((o) => o.value)).toEqual(['climb']);
  });

  it('a move past 16u is logged under the sixth distance\'s name (Double Fly, two Dashes: 24u)', () => {
    const { s, kira } = fight({ 'kleptonomicon.sixthDistance': { id: 'far-sight', name: 'Far Sight', units: 40 }, 'kleptonomicon.defaultMovementStyles': [{ style: 'fly', variant: 'double' }] }, [5]);
    s.run({ type: 'kleptonomicon.dash', characterId: kira });
    s.run({ type: 'kleptonomicon.dash', characterId: kira });
    expect(moveOf(s).cost).toBe('free (movement: 24u left this turn)');
    s.run({ type: 'kleptonomicon.move', characterId: kira, style: 'fly', units: 20 });
    expect(lines(s)).toContain('Kira moves 20u by fly (Far Sight).');
    s.run({ type: 'kleptonomicon.move', characterId: kira, style: 'fly', units: 4 });
    expect(lines(s)).toContain('Kira moves 4u by fly (Spitting Distance).');
  });

  it('property: a list of named styles is taken exactly when it is non-empty with each style once, and a new character then starts with those styles, the largest setting the pool', () => {
    const row = fc.record({ style: fc.constantFrom(...NAMED_STYLES), variant: fc.constantFrom(...STYLE_VARIANTS) });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (list) => {
        const distinct = new Set(list.map((r) => r.style)).size === list.length;
        const taken = created('kleptonomicon.defaultMovementStyles', list) === null;
        expect(taken).toBe(list.length > 0 && distinct);
        if (!taken) return;
        const m = moveOf(fight({ 'kleptonomicon.defaultMovementStyles': list }).s);
        const caps = list.map((r) => ({ half: 2, normal: 4, double: 8 })[r.variant]);
        expect(m.choices.find((c) => c.field === 'style')!.options.map((o) => `${o.value} ${o.note}`)).toEqual(list.map((r, i) => `${r.style} ${caps[i]}u left`));
        expect(m.cost).toBe(`free (movement: ${Math.max(...caps)}u left this turn)`);
      }),
      { numRuns: 40 },
    );
  });
});
