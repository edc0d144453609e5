// Issue 19: a view's history is built from the newest end. Cutting it (window,
// scan, after) gives exactly the matching part of the whole history, and the
// work it does is bounded by the window, not by how old the table is.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, type Command, type Table, type Viewer } from '../../src/core/index.js';
import { diceyModule } from './fixtures.js';

const engine = createEngine([coreModule, diceyModule]);
const GM: Viewer = { role: 'gm' };

const actor = fc.constantFrom<Viewer>(GM, GM, { role: 'player', seatId: 'seat-1' }, { role: 'spectator' });
const command = fc.constantFrom<Command>(
  { type: 'seat.add', name: 'Ann' },
  { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } },
  { type: 'log.note', text: 'for everyone' },
  { type: 'dicey.roll', sides: 6 },
  { type: 'clock.advance', unit: 'round' },
  { type: 'history.undo' },
  { type: 'history.redo' },
);

function play(steps: readonly [Command, Viewer][]): Table {
  let t = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
  const rng = seededRng(19);
  for (const [c, a] of steps) {
    const r = engine.execute(t, c, { rng, actor: a });
    if (r.ok) t = r.value.table;
  }
  return t;
}

describe('history from the newest end (issue 19)', () => {
  it('window, scan and after cut exactly the matching part of the whole history, for every viewer', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(command, actor), { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 40 }), fc.nat(40), (steps, window, scan, after) => {
        const t = play(steps);
        const n = t.transactions.length;
        for (const viewer of [GM, { role: 'player', seatId: 'seat-1' } as Viewer, { role: 'spectator' } as Viewer]) {
          const all = engine.view(t, viewer).history;
          expect(engine.view(t, viewer, { window }).history).toEqual(all.slice(-window));
          expect(engine.history(t, viewer, { scan })).toEqual(all.filter((h) => h.seq > n - scan));
          expect(engine.history(t, viewer, { after, window })).toEqual(all.filter((h) => h.seq > after).slice(-window));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a view of a 1,500-transaction table reads only the newest transactions its window needs', () => {
    let t = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
    const rng = seededRng(5);
    for (let i = 0; i < 1500; i++) {
      const r = engine.execute(t, i % 100 === 99 ? { type: 'history.undo' } : { type: 'log.note', text: `n${i}` }, { rng, actor: GM });
      if (!r.ok) throw new Error(r.error.message);
      t = r.value.table;
    }
    // Count every transaction the view looks up.
    const lookups = vi.spyOn(t.transactions, 'bySeq');
    const v = engine.view(t, GM, { window: 20 });
    const reads = lookups.mock.calls.length;
    expect(v.history.map((h) => h.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 1481 + i));
    // 20 entries, each undo also reads its target, and undo / redo labels read theirs: far below 1,500.
    expect(reads).toBeLessThan(60);
  });
});
