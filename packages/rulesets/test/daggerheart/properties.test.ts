// Invariants over random Daggerheart sessions: Hope and Fear stay within
// [0, cap], countdowns never go negative, replay reproduces the table.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countdownList } from '@tablekeeper/engine';
import { DhTable, player } from './helpers.js';
import { daggerheartSettings } from '../../src/daggerheart/index.js';

const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('roll' as const), who: fc.nat(1), modifier: fc.integer({ min: -3, max: 5 }), difficulty: fc.integer({ min: 5, max: 25 }), advantage: fc.integer({ min: -2, max: 2 }), reaction: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('help' as const), who: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('spendHope' as const), who: fc.nat(1), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('spendFear' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('gainFear' as const), n: fc.integer({ min: 1, max: 12 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'undo' as const }) },
);

describe('Daggerheart properties', () => {
  it('Hope and Fear stay within their caps, countdowns stay >= 0, replay equals the live table', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), (steps, hopeMax) => {
        const t = new DhTable({ 'daggerheart.hopeMax': hopeMax, 'daggerheart.startingHope': Math.min(2, hopeMax) });
        const seats = [t.seat('A'), t.seat('B')];
        const pcs = [t.pc('A', seats[0]!), t.pc('B', seats[1]!)];
        t.run({ type: 'countdown.create', name: 'cd', kind: 'consequence', start: 5, repeat: 'decreasing' });
        t.run({ type: 'chase.create', name: 'chase', die: 6, lead: 3 });
        for (const st of steps) {
          if (st.t === 'roll') t.try({ type: 'daggerheart.actionRoll', characterId: pcs[st.who]!, modifier: st.modifier, difficulty: st.difficulty, advantage: st.advantage, reaction: st.reaction }, player(seats[st.who]!));
          else if (st.t === 'help') t.try({ type: 'daggerheart.helpAlly', helperId: pcs[st.who]!, targetId: pcs[1 - st.who]! }, player(seats[st.who]!));
          else if (st.t === 'spendHope') t.try({ type: 'daggerheart.spendHope', characterId: pcs[st.who]!, amount: st.n }, player(seats[st.who]!));
          else if (st.t === 'spendFear') t.try({ type: 'daggerheart.spendFear', amount: st.n });
          else if (st.t === 'gainFear') t.try({ type: 'daggerheart.gainFear', amount: st.n });
          else t.try({ type: 'history.undo' });
          const set = daggerheartSettings(t.world);
          for (const pc of pcs) {
            expect(t.hope(pc)).toBeGreaterThanOrEqual(0);
            expect(t.hope(pc)).toBeLessThanOrEqual(set.hopeMax);
          }
          expect(t.fear).toBeGreaterThanOrEqual(0);
          expect(t.fear).toBeLessThanOrEqual(set.fearMax);
          for (const c of countdownList(t.world)) expect(c.value).toBeGreaterThanOrEqual(0);
        }
        const replayed = t.engine.replay(t.table.genesis, t.table.transactions);
        expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(t.world));
      }),
      { numRuns: 50 },
    );
  });
});
