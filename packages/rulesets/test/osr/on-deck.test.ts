// Who is "on deck" on a phone and on the GM's screen (review 7: Kira's phone
// said Bram while the GM's screen said Goblin 1, a visible foe). 001
// "Initiative": highest DEX acts first, the same order every round. Players'
// placements are redacted (a foe's place only, ADR 53), so the phone's on
// deck is read from the true order, passing over foes hidden from them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Viewer } from '@tablekeeper/engine';
import { osrTable } from './helpers.js';

type Enc = { current: string | null; onDeck?: string | null };
const encOf = (t: ReturnType<typeof osrTable>, v: Viewer): Enc => t.s.view(v).world.ext['encounter'] as unknown as Enc;

describe('on deck, GM and phone (001 "Initiative", review 7)', () => {
  it('Kira (DEX 14) acting: Goblin 1 (DEX 12, visible) is on deck on both screens, not Bram (DEX 10); hidden Goblin 2 (DEX 16) is passed over on the phone', () => {
    const t = osrTable();
    const seat = t.seat('Ann');
    const kira = t.add('Kira', { maxHp: 9, dex: 14 }, 'pc', seat);
    const bram = t.add('Bram', { maxHp: 9, dex: 10 }, 'pc');
    const g1 = t.add('Goblin 1', { maxHp: 5, dex: 12 }, 'npc');
    const g2 = t.add('Goblin 2', { maxHp: 5, dex: 16 }, 'npc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira },
        { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: g1, visibility: 'visible' },
        { id: 'g2', name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: g2, visibility: 'hidden' },
      ],
    });
    const player: Viewer = { role: 'player', seatId: seat };
    // Goblin 2 (16) acts first: the phone sees nobody acting and Kira on deck, as the GM does.
    expect([encOf(t, { role: 'gm' }).current, encOf(t, { role: 'gm' }).onDeck]).toEqual(['g2', 'k']);
    expect([encOf(t, player).current, encOf(t, player).onDeck]).toEqual([null, 'k']);
    t.run({ type: 'encounter.endTurn' });
    expect(encOf(t, { role: 'gm' }).onDeck).toBe('g1');
    expect(encOf(t, player).onDeck).toBe('g1');
    t.run({ type: 'encounter.endTurn' });
    expect([encOf(t, { role: 'gm' }).onDeck, encOf(t, player).onDeck]).toEqual(['b', 'b']);
    t.run({ type: 'encounter.endTurn' });
    // Bram is last: a new round is next on both screens.
    expect([encOf(t, { role: 'gm' }).onDeck, encOf(t, player).onDeck]).toEqual([null, null]);
  });

  it('property: over any line-up of distinct DEX scores with visible and hidden foes, the phone names the next creature it can see in the GM\'s order, or nobody when the round ends first', () => {
    const lineUp = fc.uniqueArray(fc.record({ dex: fc.integer({ min: 1, max: 30 }), pc: fc.boolean(), hidden: fc.boolean() }), { minLength: 2, maxLength: 6, selector: (x) => x.dex });
    fc.assert(
      fc.property(lineUp, fc.integer({ min: 1, max: 14 }), (people, steps) => {
        const t = osrTable();
        const seat = t.seat('Ann');
        const cast = people.map((p, i) => ({ ...p, hidden: p.pc ? false : p.hidden, id: `c${i}`, ch: t.add(`C${i}`, { maxHp: 5, dex: p.dex }, p.pc ? 'pc' : 'npc', p.pc && i === 0 ? seat : null) }));
        t.run({
          type: 'encounter.start',
          combatants: cast.map((c) => ({ id: c.id, name: c.id, kind: c.pc ? 'pc' : 'npc', side: c.pc ? 'party' : 'foes', characterId: c.ch, visibility: c.hidden ? 'hidden' : 'visible' })),
        });
        // 001: highest DEX first, every round; the scores are distinct, so no tie rule is needed.
        const order = [...cast].sort((a, b) => b.dex - a.dex);
        const player: Viewer = { role: 'player', seatId: seat };
        for (let s = 0; s < steps; s++) {
          const gm = encOf(t, { role: 'gm' });
          const at = order.findIndex((c) => c.id === gm.current);
          expect(at).toBeGreaterThanOrEqual(0);
          expect(gm.onDeck ?? null).toBe(order[at + 1]?.id ?? null);
          const shown = order.slice(at + 1).find((c) => !c.hidden);
          expect(encOf(t, player).onDeck ?? null).toBe(shown?.id ?? null);
          t.run({ type: 'encounter.endTurn' });
        }
      }),
      { numRuns: 40 },
    );
  });
});
