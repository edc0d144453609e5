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

  it('property: viewers asked in turn over one table (players sharing the views of what they did not issue) get what each gets from an engine of its own', () => {
    const seats: Viewer[] = [{ role: 'player', seatId: 'seat-1' }, { role: 'player', seatId: 'seat-2' }];
    const viewers: Viewer[] = [GM, ...seats, { role: 'spectator' }];
    const actors = fc.constantFrom<Viewer>(GM, ...seats);
    const commands = fc.constantFrom<Command>(
      { type: 'log.note', text: 'for everyone' },
      { type: 'log.note', text: 'for Ann', audience: { kind: 'seat', seatId: 'seat-1' } },
      { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } },
      { type: 'dicey.roll', sides: 6 },
      { type: 'history.undo' },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(commands, actors), { minLength: 1, maxLength: 30 }), fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }), (steps, order) => {
        const t = play([[{ type: 'seat.add', name: 'Ann' }, GM], [{ type: 'seat.add', name: 'Bo' }, GM], ...steps]);
        // The shared engine answers viewers in the order drawn (repeats included), as a broadcast does.
        for (const i of order) {
          const viewer = viewers[i]!;
          const alone = createEngine([coreModule, diceyModule]);
          expect(engine.view(t, viewer).history).toEqual(alone.view(t, viewer).history);
          expect(engine.undoState(t, viewer)).toEqual(alone.undoState(t, viewer));
        }
      }),
      { numRuns: 120 },
    );
  });

  it('two players who did not issue a command and may read the same events are given one view object; a player told more gets their own', () => {
    const t = play([
      [{ type: 'seat.add', name: 'Ann' }, GM],
      [{ type: 'seat.add', name: 'Bo' }, GM],
      [{ type: 'log.note', text: 'for everyone' }, GM],
    ]);
    const ann = engine.history(t, { role: 'player', seatId: 'seat-1' }, { window: 1 })[0];
    const bo = engine.history(t, { role: 'player', seatId: 'seat-2' }, { window: 1 })[0];
    expect(ann).toBeDefined();
    expect(bo).toBe(ann);
    const told = play([
      [{ type: 'seat.add', name: 'Ann' }, GM],
      [{ type: 'seat.add', name: 'Bo' }, GM],
      [{ type: 'log.note', text: 'for Ann', audience: { kind: 'seat', seatId: 'seat-1' } }, GM],
    ]);
    expect(engine.history(told, { role: 'player', seatId: 'seat-1' }, { window: 1 })[0]?.seq).toBe(3);
    // Bo may not learn the note happened: his newest entry is the seat before it.
    expect(engine.history(told, { role: 'player', seatId: 'seat-2' }, { window: 1 })[0]?.seq).toBe(2);
  });
});
