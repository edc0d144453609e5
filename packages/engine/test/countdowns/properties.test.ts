// Invariants over random tables: values never negative, undo of a roll reverts
// every countdown it moved, replay reproduces the table, undo + redo = identity.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countdownList } from '../../src/countdowns/module.js';
import { table, type Outcome } from './fixtures.js';

const outcome = fc.constantFrom<Outcome>('critical', 'successWithHope', 'successWithFear', 'failureWithHope', 'failureWithFear');
const create = fc.record({
  kind: fc.constantFrom('standard', 'progress', 'consequence', 'longTerm', 'manual'),
  repeat: fc.constantFrom('once', 'loop', 'increasing', 'decreasing'),
  start: fc.integer({ min: 4, max: 12 }),
  visibility: fc.constantFrom('visible', 'hidden', 'existence', 'reveal-on-trigger'),
});
const step = fc.oneof(
  { weight: 5, arbitrary: outcome.map((o) => ({ t: 'roll' as const, o })) },
  { weight: 1, arbitrary: fc.constantFrom('shortRest', 'longRest').map((u) => ({ t: 'rest' as const, u })) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tick' as const), i: fc.nat(), by: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('untick' as const), i: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('set' as const), i: fc.nat(), v: fc.integer({ min: 1, max: 12 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'undo' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'redo' as const }) },
);

type Create = { kind: string; repeat: string; start: number; visibility: string };
function build(creates: Create[], chase: { die: number; lead: number } | null) {
  const s = table();
  creates.forEach((c, i) => s.run({ type: 'countdown.create', name: `c${i}`, ...c }));
  if (chase !== null) s.run({ type: 'chase.create', name: 'chase', ...chase });
  return s;
}

const chaseArb = fc.option(
  fc.integer({ min: 2, max: 12 }).chain((die) => fc.record({ die: fc.constant(die), lead: fc.integer({ min: 1, max: die - 1 }) })),
  { nil: null },
);

describe('countdown properties', () => {
  it('values never go negative, stay within limits, and replay reproduces the live table', () => {
    fc.assert(
      fc.property(fc.array(create, { minLength: 1, maxLength: 4 }), chaseArb, fc.array(step, { maxLength: 40 }), (creates, chase, steps) => {
        const s = build(creates, chase);
        for (const st of steps) {
          const list = countdownList(s.world);
          const cd = 'i' in st ? list[st.i % list.length] : undefined;
          let r: unknown;
          if (st.t === 'roll') r = s.engine.execute(s.table, { type: 'test.roll', outcome: st.o }, { rng: s.rng, actor: { role: 'player', seatId: 'seat-1' } });
          else if (st.t === 'rest') r = s.engine.execute(s.table, { type: 'clock.advance', unit: st.u }, { rng: s.rng, actor: { role: 'gm' } });
          else if (st.t === 'tick') r = s.engine.execute(s.table, { type: 'countdown.tick', id: cd?.id ?? 'x', by: st.by }, { rng: s.rng, actor: { role: 'gm' } });
          else if (st.t === 'untick') r = s.engine.execute(s.table, { type: 'countdown.untick', id: cd?.id ?? 'x' }, { rng: s.rng, actor: { role: 'gm' } });
          else if (st.t === 'set') r = s.engine.execute(s.table, { type: 'countdown.set', id: cd?.id ?? 'x', value: st.v }, { rng: s.rng, actor: { role: 'gm' } });
          else r = s.engine.execute(s.table, { type: st.t === 'undo' ? 'history.undo' : 'history.redo' }, { rng: s.rng, actor: { role: 'gm' } });
          const res = r as { ok: boolean; value?: { table: typeof s.table } };
          if (res.ok && res.value !== undefined) s.table = res.value.table;
          for (const c of countdownList(s.world)) {
            expect(c.value).toBeGreaterThanOrEqual(0);
            expect(c.value).toBeLessThanOrEqual(100);
            expect(c.start).toBeGreaterThanOrEqual(1);
          }
        }
        const replayed = s.engine.replay(s.table.genesis, s.table.transactions);
        expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(s.world));
      }),
      { numRuns: 60 },
    );
  });

  it('undo of an action roll reverts every countdown it moved; redo re-applies it exactly', () => {
    fc.assert(
      fc.property(fc.array(create, { minLength: 1, maxLength: 5 }), chaseArb, fc.array(outcome, { maxLength: 15 }), outcome, (creates, chase, before, last) => {
        const s = build(creates, chase);
        for (const o of before) s.roll(o);
        const snapshot = JSON.stringify(s.world);
        s.roll(last);
        const after = JSON.stringify(s.world);
        s.undo();
        expect(JSON.stringify(s.world)).toBe(snapshot);
        s.redo();
        expect(JSON.stringify(s.world)).toBe(after);
      }),
      { numRuns: 60 },
    );
  });
});
