// Review 9's blocker: a Kleptonomicon character made by the Party form or the
// sheet editor had no Health, so the damage box refused it. Health is now on
// the sheet model (004 names it among what Heal Up restores): a full Health
// starts the character at full, damage takes it down, Heal Up restores it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { fixedRng, getEncounter, scenario, sheetModule, type Json, type Scenario, type Transaction, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { kleptoSheetModel, ruleset } from '../../src/kleptonomicon/index.js';
import { kleptoSheetChanges } from '../../src/kleptonomicon/sheet.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const KIRA = 'ch-baaaaacaaaaa';
const idOf = (tx: Transaction): string => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
const heal: Json = [{ name: 'Heal Up', time: 'beat', recovery: 'healUp' }];

function table(): Scenario {
  const s = scenario([...ruleset.modules, sheetModule(kleptoSheetModel)], { rng: countingIds(fixedRng(Array.from({ length: 40 }, () => 9))), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  // Made as the Party form makes it: a bare character, then its whole sheet.
  expect(idOf(s.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: 'seat-1' }))).toBe(KIRA);
  return s;
}
const sheet = (s: Scenario, values: { [k: string]: Json }, patch = false) => s.run({ type: 'character.sheet.set', characterId: KIRA, sheet: values, ...(patch ? { patch: true } : {}) });
const log = (s: Scenario) => s.world.log.map((l) => l.text);

describe('Kleptonomicon Health on the sheet (review 9)', () => {
  it('the sheet schema offers Health (full) and Health now as whole numbers', () => {
    const shape = kleptoSheetModel.fields;
    expect(Object.keys(shape)).toEqual(expect.arrayContaining(['maxHp', 'hp']));
    expect(z.safeParse(shape['maxHp']!, 10).success).toBe(true);
    expect(z.safeParse(shape['maxHp']!, 0).success).toBe(false);
    expect(z.safeParse(shape['hp']!, 2.5).success).toBe(false);
  });

  it('a full Health of 10 starts Kira at 10/10; the log says the Defense, the Health and the attack the form set', () => {
    const s = table();
    sheet(s, { edgeSave: 2, defense: 12, maxHp: 10, attackModifier: 3, attackDamage: '1d6' });
    expect(s.world.characters[KIRA]?.stats).toMatchObject({ hp: 10, maxHp: 10, defense: 12 });
    expect(log(s)).toContain("Kira's sheet: Edge Save +2 · Defense 12 · Health 10/10 · Basic Attack +3, 1d6.");
  });

  it('the damage box takes her Health down and heals it back, never past full; Heal Up restores it', () => {
    const s = table();
    sheet(s, { edgeSave: 2, maxHp: 10, abilities: heal });
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'encounter.start', combatants: [{ id: 'c-kira', name: 'Kira', kind: 'pc', characterId: KIRA }, { id: 'rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
    s.run({ type: 'encounter.damage', characterId: 'c-kira', amount: 7 });
    expect(s.world.characters[KIRA]?.stats['hp']).toBe(3);
    s.run({ type: 'encounter.heal', characterId: 'c-kira', amount: 2 });
    expect(s.world.characters[KIRA]?.stats['hp']).toBe(5);
    s.run({ type: 'encounter.heal', characterId: 'c-kira', amount: 50 });
    expect(s.world.characters[KIRA]?.stats['hp']).toBe(10);
    s.run({ type: 'encounter.damage', characterId: 'c-kira', amount: 6 });
    s.run({ type: 'encounter.end' });
    // The Reward phase: Heal Up restores Health to full (004, Freeplay's return).
    s.run({ type: 'kleptonomicon.useAbility', characterId: KIRA, abilityId: 'heal-up' }, ANN);
    expect(s.world.characters[KIRA]?.stats['hp']).toBe(10);
    expect(getEncounter(s.world).active).toBe(false);
  });

  it('refuses Health now above full Health in words naming the field', () => {
    const s = table();
    sheet(s, { maxHp: 10 });
    expect(s.fail({ type: 'character.sheet.set', characterId: KIRA, sheet: { hp: 11 }, patch: true })).toMatchObject({ code: 'INVALID_VALUE', path: 'sheet.hp', message: 'Health now (11) must be at most full Health (10)' });
    expect(s.fail({ type: 'character.sheet.set', characterId: KIRA, sheet: { maxHp: 10, hp: 12 } })).toMatchObject({ path: 'sheet.hp' });
  });

  it('property: after any whole-sheet save, Health now is at most full Health, and full when only the full was given', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }), (max, now) => {
        const s = table();
        const r = s.engine.execute(s.table, { type: 'character.sheet.set', characterId: KIRA, sheet: { maxHp: max, ...(now === undefined ? {} : { hp: now }) } }, { rng: fixedRng([]), actor: { role: 'gm' } });
        expect(r.ok).toBe(now === undefined || now <= max);
        if (!r.ok) return;
        s.table = r.value.table;
        const st = s.world.characters[KIRA]!.stats;
        expect(st['hp']).toBe(now ?? max);
        expect(st['hp'] as number).toBeLessThanOrEqual(st['maxHp'] as number);
      }),
      { numRuns: 60 },
    );
  });

  it("a foe's sheet numbers stay with the GM in the log; the table reads that it changed", () => {
    const s = table();
    s.run({ type: 'character.add', name: 'Duke', kind: 'npc', visibility: 'visible' });
    const duke = Object.values(s.world.characters).find((c) => c.name === 'Duke')!.id;
    s.run({ type: 'character.sheet.set', characterId: duke, sheet: { defense: 9, maxHp: 30 } });
    expect(log(s)).toContain("Duke's sheet: Edge Save not set · Defense 9 · Health 30/30.");
    const phone = s.view(ANN).world.log.map((l) => l.text);
    expect(phone).toContain("Duke's sheet changed.");
    expect(phone.join('\n')).not.toContain('Defense 9');
  });

  it('lists what changed in words', () => {
    expect(kleptoSheetChanges({ movementStyles: [{ style: 'walk' }, { style: 'jump' }], abilities: [] }, {})).toEqual(['2 movement styles']);
    expect(kleptoSheetChanges({ abilities: [{ name: 'Heal Up' }] }, {})).toEqual(['1 ability']);
    expect(kleptoSheetChanges({ attackModifier: -1 }, { attackModifier: -1 })).toEqual(['Basic Attack -1']);
  });
});
