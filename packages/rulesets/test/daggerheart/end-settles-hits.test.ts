// Ending a conflict settles the hits still waiting on an Armor choice (issue
// 20, ADR 79, as ADR 76 does for the teams' reactions): each lands as it is,
// no Armor Slot marked, in the end's own transaction, so nothing carries over
// into the next conflict and one undo takes back the end and the hits.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getDaggerheart } from '../../src/daggerheart/index.js';
import { DhTable, GM, ofType, player } from './helpers.js';

/** Kira (7 / 14, 6 HP, 2 Armor Slots) and Dorn (5 / 10, 6 HP, 1 Armor Slot), in a running conflict. */
function setup() {
  const t = new DhTable();
  const seat = t.seat('Ana');
  const kira = t.pc('Kira', seat, { evasion: 10, major: 7, severe: 14, hpMax: 6, armorMax: 2 });
  const dorn = t.pc('Dorn', null, { evasion: 9, major: 5, severe: 10, hpMax: 6, armorMax: 1 });
  t.run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', characterId: kira }, { id: dorn, name: 'Dorn', kind: 'pc', characterId: dorn }] });
  return { t, seat, kira, dorn };
}

const waiting = (t: DhTable) => Object.keys(getDaggerheart(t.world).hits ?? {}).length;
const hp = (t: DhTable, id: string) => t.world.characters[id]!.stats['hpMarked'] ?? 0;
const armor = (t: DhTable, id: string) => t.world.characters[id]!.stats['armorMarked'] ?? 0;

describe("End settles the hits waiting on an Armor choice", () => {
  it('15 on Kira (severe, 3 HP) and 8 then 11 on Dorn (major 2, then severe 3): all land bare at the end; the log says why; Armor untouched', () => {
    const { t, seat, kira, dorn } = setup();
    for (const [id, amount] of [[kira, 15], [dorn, 8], [dorn, 11]] as const) t.run({ type: 'daggerheart.takeDamage', characterId: id, amount });
    expect(waiting(t)).toBe(3);
    const tx = t.run({ type: 'encounter.end' });
    expect(waiting(t)).toBe(0);
    expect(ofType(tx, 'daggerheart.hitAnswered').map((e) => e['markArmor'])).toEqual([false, false, false]);
    const landed = ofType(tx, 'daggerheart.damageTaken').map((e) => [e['characterId'], e['marks'], e['hpFrom'], e['hpTo']]);
    // Dorn's second hit counts on from his first (2, then 3 more).
    expect(landed.filter((l) => l[0] === kira)).toEqual([[kira, 3, 0, 3]]);
    expect(landed.filter((l) => l[0] === dorn).map((l) => l.slice(1))).toEqual(expect.arrayContaining([[2, 0, 2], [3, 2, 5]]) as unknown as unknown[]);
    expect(hp(t, kira)).toBe(3);
    expect(hp(t, dorn)).toBe(5);
    expect([armor(t, kira), armor(t, dorn)]).toEqual([0, 0]);
    const lines = t.view(player(seat)).world.log.map((e) => e.text);
    expect(lines).toContain('The conflict ends before Kira chooses: the hit lands with no Armor Slot marked.');
    expect(lines.some((l) => l.startsWith('Kira takes 15 damage'))).toBe(true);
  });
  it('one undo takes back the end and the hits together: the hits wait again, nothing marked', () => {
    const { t, kira } = setup();
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 9 });
    t.run({ type: 'encounter.end' });
    expect(hp(t, kira)).toBe(2);
    t.undo();
    expect(waiting(t)).toBe(1);
    expect(hp(t, kira)).toBe(0);
  });
  it('a hit answered before the end is not landed twice; an end with nothing waiting writes no settle line', () => {
    const { t, kira } = setup();
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 15 });
    const hitId = Object.keys(getDaggerheart(t.world).hits ?? {})[0]!;
    t.run({ type: 'daggerheart.answerHit', hitId, markArmor: true });
    const tx = t.run({ type: 'encounter.end' });
    expect(ofType(tx, 'daggerheart.damageTaken')).toEqual([]);
    expect(hp(t, kira)).toBe(2);
    expect(t.view(GM).world.log.filter((e) => e.text.startsWith('The conflict ends before'))).toEqual([]);
  });
  it('property: whatever hits wait, after End none waits and each PC has marked exactly the HP its bare hits mark, in order, within its slots', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 40 })), { minLength: 0, maxLength: 6 }), (hits) => {
        const { t, kira, dorn } = setup();
        const expected: Record<string, number> = { [kira]: 0, [dorn]: 0 };
        const th: Record<string, [number, number]> = { [kira]: [7, 14], [dorn]: [5, 10] };
        for (const [onKira, amount] of hits) {
          const id = onKira ? kira : dorn;
          t.run({ type: 'daggerheart.takeDamage', characterId: id, amount });
          const [major, severe] = th[id]!;
          expected[id] = Math.min(6, expected[id]! + (amount >= severe ? 3 : amount >= major ? 2 : 1));
        }
        t.run({ type: 'encounter.end' });
        expect(waiting(t)).toBe(0);
        expect([hp(t, kira), hp(t, dorn)]).toEqual([expected[kira], expected[dorn]]);
      }),
      { numRuns: 60, seed: 20261126 },
    );
  });
});
