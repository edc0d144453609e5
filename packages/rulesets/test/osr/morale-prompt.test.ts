// The GM's morale prompt opens the morale form (review 7: its button rolled at once for the foes, and a tide
// against the party offered the goblins). 001 "Morale Checks": d20 + WIS mod + proficiency (if fitting) + the
// monster's morale bonus vs DC 11, with advantage or disadvantage by the circumstances ("such as being
// outnumbered"); "Side, Group, or Individual": PCs always roll alone. ADR 55.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

type Answer = { actions: { id: string; target: { options: { value: string; label: string; note?: string }[]; picked?: string[] }; texts: { field: string; value: string }[] }[] };

/** Kira and Bram (PCs) with Hob, a seated retainer, against two goblins (morale bonus 2). */
function fight() {
  const t = osrTable();
  const seat = t.seat('Ann');
  const kira = t.add('Kira', { maxHp: 9, hp: 9, dex: 14, wis: 10 }, 'pc', seat);
  const bram = t.add('Bram', { maxHp: 9, hp: 9, dex: 12, wis: 10 }, 'pc');
  const hob = t.add('Hob', { maxHp: 4, hp: 4, dex: 9, wis: 8 }, 'npc', seat);
  const gobs = [1, 2].map((i) => t.add(`Goblin ${i}`, { maxHp: 5, hp: 5, dex: 10, wis: 12, moraleBonus: 2 }, 'npc'));
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira },
      { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram },
      { id: 'h', name: 'Hob', kind: 'npc', side: 'party', characterId: hob },
      ...gobs.map((g, i) => ({ id: `g${i + 1}`, name: `Goblin ${i + 1}`, kind: 'npc' as const, side: 'foes', characterId: g })),
    ],
  });
  return { t, kira, bram, hob, gobs };
}

const ask = (t: ReturnType<typeof fight>['t'], args: { [k: string]: Json }) => {
  const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.moraleActions', args);
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as unknown as Answer).actions[0]!;
};

describe('the morale prompt opens the form (001 "Morale Checks")', () => {
  it('2 of 3 of the party down turns the tide against the party: the prompt names the party, and its form ticks Hob (a retainer), not the goblins; PCs roll alone', () => {
    const { t, kira, bram, hob, gobs } = fight();
    t.run({ type: 'osr.damage', targetId: kira, amount: 9 });
    t.run({ type: 'osr.damage', targetId: bram, amount: 9 });
    expect(t.osr.prompts.at(-1)).toMatchObject({ trigger: 'tide', side: 'party' });
    // Bram and Kira are down: Hob is the party's only one able to check; the goblins follow, unticked.
    const form = ask(t, { side: 'party', trigger: t.osr.prompts.at(-1)!.text });
    expect(form.target.options.map((o) => o.label)).toEqual(['Hob', 'Goblin 1', 'Goblin 2']);
    expect(form.target.picked).toEqual([hob]);
    expect(form.texts.find((x) => x.field === 'trigger')!.value).toBe('2 of 3 of the party are down: the tide looks obvious. Morale?');
    expect(gobs).toHaveLength(2);
  });

  it("the foes' prompt ticks both goblins; a side's check with advantage (outnumbered) rolls once, by Goblin 1: d20s 4 and 9, best 9 + WIS +1 + morale bonus 2 = 12 vs 11 holds, and the log gives the reason", () => {
    const { t, gobs } = fight();
    const form = ask(t, { side: 'foes' });
    expect(form.target.picked).toEqual(gobs);
    expect(form.target.options.find((o) => o.label === 'Kira')).toMatchObject({ note: 'PC: rolls alone' });
    const odds = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.moraleOdds', { characterIds: gobs, advantage: 1 });
    // Advantage: 1 - P(both d20 < 8) = 1 - (7/20)^2 = 0.8775.
    expect(odds).toMatchObject({ ok: true, value: { modifier: 3, wis: 1, moraleBonus: 2, difficulty: 11 } });
    expect((odds.ok ? (odds.value as { pass: number }).pass : 0)).toBeCloseTo(0.8775, 10);
    t.dice.queue(4, 9);
    const tx = t.run({ type: 'osr.morale', characterIds: gobs, as: 'side', advantage: 1, advantageWhy: 'outnumbered', trigger: 'the GM called for it' });
    expect(eventsOf(tx, 'osr.moraleRolled')).toEqual([expect.objectContaining({ characterId: gobs[0], group: gobs, held: true, side: 'foes', why: 'outnumbered' })]);
    expect(t.world.log.at(-1)!.text).toMatch(/^Morale for the foes, Goblin 1 rolling for 2 \(the GM called for it\): .*12 vs 11 \(outnumbered\): they stand and fight\.$/);
  });

  it('players may not ask for the morale form', () => {
    const { t } = fight();
    expect(t.s.engine.query(t.s.table, { role: 'spectator' }, 'osr.moraleActions', { side: 'foes' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});
