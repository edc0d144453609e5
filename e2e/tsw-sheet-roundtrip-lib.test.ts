// The 36th Way sheet form reads back every saved value (review 7, ADR 55): a
// sheet set with every field the form offers, an ability with every part of
// 002's ability entry (frequency "recharge 11+", a power cost, Sustain, an
// escalation need, an attack with reach and damage), reopened in the GM's
// sheet editor exactly as the screen does it, one unrelated field changed,
// saved: the save is accepted and nothing else on the stored sheet changed.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Command, type Json, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings, sheetSchemaFor } from '@tablekeeper/rulesets';
import { placeOf, setAt, toPayload, type FieldSpec, type FormValue } from '../packages/web/src/lib/schemaForm.ts';
import { combatantSheet, combatantSheetCommand, sheetFields, sheetStart, type SheetSchema } from '../packages/web/src/lib/sheetForm.ts';
import type { SheetChoice } from '../packages/web/src/lib/sheetEditor.ts';

type Obj = { [k: string]: Json };

function table(): Scenario {
  const settings = resolveSettings('36th-way');
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor('36th-way')!.modules, { rng: countingIds(seededRng(3)), rulesetId: '36th-way', settings: settings.value });
}
const fields = (): FieldSpec[] => sheetFields(sheetSchemaFor('36th-way')! as SheetSchema);
const stored = (s: Scenario, id: string): Obj => (s.world.ext['36th-way'] as { sheets: { [k: string]: Obj } }).sheets[id]!;

/** Every field of the sheet form, each away from its default; abilities with every part of an ability entry. */
const FULL: Obj = {
  level: 4,
  tier: 2,
  volition: 3,
  ac: 17,
  pd: 14,
  md: 12,
  maxHp: 40,
  hp: 33,
  maxRecoveries: 8,
  recoveries: 6,
  recoveryDice: { count: 4, sides: 10 },
  recoveryBonus: 2,
  resources: { ki: 3 },
  maxResources: { ki: 5 },
  resist: { fire: 16 },
  weak: ['cold'],
  stance: 'ranged',
  stanceDice: { melee: 8, ranged: 6 },
  rangedReach: 'nearby',
  basicMiss: 'level',
  usesEscalation: false,
  abilities: [
    {
      name: 'Cleave',
      types: ['weapon', 'martial'],
      frequency: 'recharge 11+',
      action: 'standard',
      sustain: 13,
      power: { amount: 2, resource: 'ki' },
      escalation: { min: 2, parity: 'even', special: true },
      other: ['loud'],
      provokes: true,
      basic: false,
      attack: { defense: 'pd', bonus: 1, reach: 'nearby', targets: 2, asBasic: false, hit: { count: 2, sides: 8, bonus: 3 }, miss: 'dice', missDice: { count: 1, sides: 6, bonus: 0 }, types: ['fire'], rollAllFirst: true, wholeBonus: true },
    },
    // A power cost left empty, and no attack: the plainest entry the form makes.
    { name: 'Second Wind', frequency: 'daily', action: 'quick' },
  ],
};

describe('the 36th Way sheet form round trip (review 7: "recharge 11+" reopened on "(default)" and the next save was refused)', () => {
  it('open a saved sheet with every field set, change only AC 17 -> 18, save: accepted, and the stored sheet differs in AC alone', () => {
    const s = table();
    const c: SheetChoice = { id: 'kira', name: 'Kira', kind: 'pc', characterId: null, hasSheet: true };
    s.run(combatantSheetCommand('36th-way', c, FULL) as Command);
    const before = stored(s, 'kira');
    const f = fields();
    // Every field the form offers is exercised here (a new one must be added to FULL).
    expect(f.map((x) => x.key).sort()).toEqual(Object.keys(FULL).sort());
    const opened = sheetStart(f, combatantSheet(s.world, '36th-way', 'kira'));
    const cleave = (opened['abilities'] as { [k: string]: FormValue }[])[0]!;
    // The form reads back what was saved: the recharge, the power cost, the reach, the escalation need.
    expect(cleave).toMatchObject({ name: 'Cleave', frequency: 'recharge 11+', action: 'standard', sustain: '13', power: { amount: '2', resource: 'ki' }, escalation: { min: '2', parity: 'even', special: true } });
    expect(cleave['attack']).toMatchObject({ defense: 'pd', reach: 'nearby', targets: '2', miss: 'dice', hit: { count: '2', sides: '8', bonus: '3' } });
    expect(opened).toMatchObject({ usesEscalation: 'no', stance: 'ranged', rangedReach: 'nearby', basicMiss: 'level' });
    const changed = setAt(opened, ['ac'], '18') as { [k: string]: FormValue };
    const p = toPayload(f, changed);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const tx = s.run(combatantSheetCommand('36th-way', c, p.payload) as Command);
    expect(tx.kind).toBe('command');
    const after = stored(s, 'kira');
    expect(after['ac']).toBe(18);
    expect({ ...after, ac: 17 }).toEqual(before);
  });

  it('a power cost may be left empty, and a saved sheet without one reopens and saves as it was', () => {
    const s = table();
    const c: SheetChoice = { id: 'bram', name: 'Bram', kind: 'pc', characterId: null, hasSheet: true };
    s.run(combatantSheetCommand('36th-way', c, { maxHp: 20, abilities: [{ name: 'Jab', frequency: 'at-will', action: 'standard', attack: { hit: { count: 1, sides: 6 } } }] }) as Command);
    const before = stored(s, 'bram');
    const f = fields();
    const opened = sheetStart(f, combatantSheet(s.world, '36th-way', 'bram'));
    expect((opened['abilities'] as { [k: string]: FormValue }[])[0]).toMatchObject({ name: 'Jab', frequency: 'at-will', power: { amount: '', resource: '' } });
    const p = toPayload(f, setAt(opened, ['md'], '11') as { [k: string]: FormValue });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    s.run(combatantSheetCommand('36th-way', c, p.payload) as Command);
    expect({ ...stored(s, 'bram'), md: 10 }).toEqual(before);
  });

  it("a refused field is named in words by the ability's name, never a schema path", () => {
    const f = fields();
    const bad = toPayload(f, { abilities: [{ name: 'Cleave', frequency: 'recharge 10+' }] });
    if (bad.ok) expect.unreachable('recharge 10+ was accepted');
    else expect(bad.errors[0]!.message).toBe('Frequency in Cleave must be one of at-will, encounter, daily, recharge 9+, recharge 11+, recharge 13+.');
    const cost = toPayload(f, { abilities: [{ name: 'Cleave', power: { amount: '', resource: 'ki' } }] });
    if (cost.ok) expect.unreachable('a power resource without an amount was accepted');
    else expect(cost.errors[0]!.message).toBe('Amount of Power in Cleave is required.');
    // A refusal from the server names a path; the editor says it in the form's words.
    const values = { abilities: [{ name: 'Cleave', attack: { reach: 'far' } }, { name: '' }] } as { [k: string]: FormValue };
    expect(placeOf(f, values, 'abilities.0.frequency')).toBe('Frequency in Cleave');
    expect(placeOf(f, values, 'abilities.0.attack.reach')).toBe('Reach of Attack in Cleave');
    expect(placeOf(f, values, 'abilities.1.sustain')).toBe('Sustain in Ability 2');
    expect(placeOf(f, values, 'hp')).toBe('HP');
    expect(placeOf(f, values, 'nowhere')).toBeNull();
    // An ability with no name yet is named by its place.
    const unnamed = toPayload(f, { abilities: [{ name: '', sustain: '2' }] });
    if (unnamed.ok) expect.unreachable('Sustain 2 was accepted');
    else expect(unnamed.errors[0]!.message).toBe('Sustain in Ability 1 must be from 3 to 18.');
  });
});
