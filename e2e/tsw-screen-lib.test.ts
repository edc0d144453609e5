// The 36th Way screen's pieces without a browser (issue 20): the quick rest's
// recoveries per PC (002 "Quick Rest", "Recoveries"), through the real engine;
// HP at half reads "staggered" (002's word), not "bloodied".
import { describe, expect, it } from 'vitest';
import { scenario, type Json, type Rng } from '@tablekeeper/engine';
import { rulesetDefinition } from '@tablekeeper/rulesets';
import { tracksOf } from '../packages/web/src/lib/encounter.ts';
import { nobodySpendsNote, overSpendNote, quickRestCommand, recoveryLine, recoveryRowsOf } from '../packages/web/src/lib/quickRest.ts';

/** Dice that land on the faces given, in order. */
function faces(...f: number[]): Rng {
  const q = [...f];
  return { kind: 'seeded', die: () => q.shift() ?? 1, snapshot: () => null };
}

function table(rng: Rng) {
  const s = scenario(rulesetDefinition('36th-way')!.modules, { rng, rulesetId: '36th-way' });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', level: 2, maxHp: 30, hp: 10, recoveries: 1, maxRecoveries: 8, recoveryDice: { count: 2, sides: 8 }, recoveryBonus: 3 } as unknown as Json });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'bram', name: 'Bram', kind: 'pc', level: 1, maxHp: 20, hp: 20 } as unknown as Json });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', level: 2, maxHp: 20 } as unknown as Json });
  return s;
}

describe('the quick rest form (002 "Quick Rest")', () => {
  it("lists the PCs' sheets (no foe) with HP, recoveries and what one heals", () => {
    const rows = recoveryRowsOf(table(faces()).world);
    expect(rows.map(recoveryLine)).toEqual(['Bram: HP 20/20, 8 of 8 recoveries (each heals 1d8)', 'Kira: HP 10/30, 1 of 8 recoveries (each heals 2d8+3)']);
  });

  it('Kira spends 2 with 1 left: the note says the second heals half; the command carries only the boxes not 0', () => {
    const s = table(faces());
    const rows = recoveryRowsOf(s.world);
    const kira = rows.find((r) => r.id === 'kira')!;
    expect(overSpendNote(kira, 1)).toBeNull();
    expect(overSpendNote(kira, 2)).toBe('Kira has 1 left: the last 1 heals half and costs -1 to Volition and defences until a full rest each.');
    expect(quickRestCommand(rows, { kira: '2', bram: '0' }, false)).toEqual({ ok: true, command: { type: '36th-way.quickRest', recoveries: { kira: 2 } } });
    expect(quickRestCommand(rows, { kira: '2' }, true)).toEqual({ ok: true, command: { type: '36th-way.quickRest', recoveries: { kira: 2 }, average: true } });
    expect(quickRestCommand(rows, { kira: '2.5' }, false)).toEqual({ ok: false, message: "Kira's recoveries must be a whole number from 0 to 20." });
    expect(quickRestCommand(rows, { bram: '21' }, false)).toMatchObject({ ok: false });
  });

  it('review 13 #12: with every box empty or 0 the form says nobody spends recoveries; one recovery anywhere and it says nothing', () => {
    const rows = recoveryRowsOf(table(faces()).world);
    const none = 'Nobody spends recoveries: this quick rest heals no one. Type how many each PC spends above.';
    expect(nobodySpendsNote(rows, {})).toBe(none);
    expect(nobodySpendsNote(rows, { kira: '0', bram: ' ' })).toBe(none);
    expect(nobodySpendsNote(rows, { kira: '1' })).toBeNull();
    expect(nobodySpendsNote([], {})).toBeNull();
  });

  it('sent to the engine: Kira heals 2d8+3 twice from 10 HP, the second halved (no recoveries left): 3+5+3 = 11, then (6+2+3)/2 = 5 rounded down; 26 HP', () => {
    const s = table(faces(3, 5, 6, 2));
    const cmd = quickRestCommand(recoveryRowsOf(s.world), { kira: '2' }, false);
    if (!cmd.ok) throw new Error(cmd.message);
    s.run(cmd.command as never);
    const kira = recoveryRowsOf(s.world).find((r) => r.id === 'kira')!;
    expect(kira).toMatchObject({ hp: 26, recoveries: 0 });
  });
});

describe("002's words", () => {
  it('HP at half or less is staggered in the 36th Way; OSR names no such state, so no chip (review 9)', () => {
    expect(tracksOf({ hp: 15, maxHp: 30 }, '36th-way')[0]!.states).toEqual(['staggered']);
    expect(tracksOf({ hp: 15, maxHp: 30 }, 'osr')[0]!.states).toEqual([]);
    expect(tracksOf({ hp: 16, maxHp: 30 }, '36th-way')[0]!.states).toEqual([]);
  });
});
