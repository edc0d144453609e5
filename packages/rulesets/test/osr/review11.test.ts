// Review 11 #15: the injury line names the d20, the table's entry and the
// extra die (001 "Injury Table"); rolling to return shows each PC's exact
// chance before the roll (001 "Rolling To Return").
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

const GM = { role: 'gm' } as const;

describe('the injury line (001 "Injury Table")', () => {
  it('a 6 is Confused: the line names the entry, the WIS lost and the 1d6 that decided it', () => {
    const t = osrTable();
    const pc = t.add('Kira', { maxHp: 9, wis: 12 });
    const medic = t.add('Medic', { wis: 14, maxHp: 9 });
    t.run({ type: 'osr.damage', target: pc, amount: 20 });
    t.dice.queue(15, 6, 4); // check 15 + 2 vs 10; injury d20 6 (Confused), 1d6 = 4
    const tx = t.run({ type: 'osr.stabilize', target: pc, by: medic, ability: 'wis', dc: 10 });
    expect(eventsOf(tx, 'osr.injuryRolled')[0]).toMatchObject({ d20: 6, extra: 4 });
    expect(t.world.log.map((e) => e.text)).toContain('Injury roll for Kira: 6 on the d20, Confused: loses 4 WIS (4 on 1d6).');
    expect(t.stats(pc)['wis']).toBe(8);
  });

  it('a roll in 14-19 names the shared entry and has no extra die', () => {
    const t = osrTable();
    const pc = t.add('Kira', { maxHp: 9 });
    const medic = t.add('Medic', { wis: 14, maxHp: 9 });
    t.run({ type: 'osr.damage', target: pc, amount: 20 });
    t.dice.queue(15, 16);
    t.run({ type: 'osr.stabilize', target: pc, by: medic, ability: 'wis', dc: 10 });
    expect(t.world.log.map((e) => e.text)).toContain('Injury roll for Kira: 16 on the d20, Disadvantage until rest: has disadvantage on every check until rest.');
  });
});

describe('the odds of rolling to return (001 "Rolling To Return")', () => {
  const ask = (t: ReturnType<typeof osrTable>): { difficulty: number; pcs: { name: string; modifier: number; pass: number }[] } => {
    const r = t.s.engine.query(t.s.table, GM, 'osr.returnChances', {} as { [k: string]: Json });
    if (!r.ok) throw new Error(r.error.message);
    return r.value as unknown as { difficulty: number; pcs: { name: string; modifier: number; pass: number }[] };
  };

  it("the text's party four hours out (DC 14): +6 needs a natural 8 (13 in 20), +5 a natural 9 (12 in 20)", () => {
    const t = osrTable();
    // +6: DEX 18 (+4) and proficiency +2; +5: DEX 16 (+3) and +2, as in the roll's own test.
    t.add('First', { dex: 18, maxHp: 10 });
    t.add('Second', { dex: 16, maxHp: 10 });
    for (let i = 0; i < 4; i++) {
      t.dice.queue(15);
      t.run({ type: 'osr.travelTurn' });
    }
    const odds = ask(t);
    expect(odds.difficulty).toBe(14);
    expect(odds.pcs.map((c) => [c.name, c.modifier])).toEqual([['First', 6], ['Second', 5]]);
    expect(odds.pcs[0]!.pass).toBeCloseTo(13 / 20, 10);
    expect(odds.pcs[1]!.pass).toBeCloseTo(12 / 20, 10);
  });

  it('leaves out the dying, as the roll does', () => {
    const t = osrTable();
    t.add('Up', { maxHp: 10 });
    const down = t.add('Down', { maxHp: 5 });
    t.run({ type: 'osr.damage', target: down, amount: 20 });
    // DC 10, +0 best modifier and +2 proficiency: a natural 8 or more, 13 in 20.
    expect(ask(t).pcs.map((c) => [c.name, c.pass])).toEqual([['Up', 13 / 20]]);
  });
});
