// Issue 19: a viewer's projection memo keeps each log entry's copy the same
// object from one projection to the next, so the room's log deltas find held
// entries by reference instead of comparing copies. The memo never changes
// what a projection is, and never shows a viewer an entry it may not read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, type Command, type Table, type Viewer, type ViewMemo } from '../../src/core/index.js';
import { countdownsModule } from '../../src/countdowns/index.js';
import { diceyModule } from './fixtures.js';

const engine = createEngine([coreModule, countdownsModule, diceyModule]);
const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };
const newMemo = (): ViewMemo => ({ entryCopies: new WeakMap() });

const command = fc.constantFrom<Command>(
  { type: 'seat.add', name: 'Ann' },
  { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } },
  { type: 'log.note', text: 'for everyone' },
  { type: 'dicey.roll', sides: 6 },
  { type: 'clock.advance', unit: 'round' },
  { type: 'countdown.create', name: 'Doom', start: 3, visibility: 'hidden' },
  { type: 'countdown.create', name: 'Dawn', start: 3, visibility: 'visible' },
  { type: 'history.undo' },
  { type: 'history.redo' },
);

function start(): Table {
  return engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
}

describe('a viewer memo for projections (issue 19)', () => {
  it('changes nothing a projection shows, for every viewer after every step of random play', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        let t = start();
        const rng = seededRng(19);
        // Seat ids are minted: the player is whoever took the first seat, once there is one.
        const memos = new Map<string, ViewMemo>();
        const memo = (key: string) => memos.get(key) ?? memos.set(key, newMemo()).get(key)!;
        for (const c of commands) {
          const r = engine.execute(t, c, { rng, actor: GM });
          if (r.ok) t = r.value.table;
          const seatId = Object.keys(t.world.seats)[0];
          const viewers: [string, Viewer][] = [['gm', GM], ['spectator', SPECTATOR], ...(seatId === undefined ? [] : [[`player:${seatId}`, { role: 'player', seatId } as Viewer] as [string, Viewer]])];
          for (const [key, viewer] of viewers) expect(engine.project(t.world, viewer, memo(key))).toEqual(engine.project(t.world, viewer));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("keeps a spectator's copies of unchanged entries the same objects after a note and a clock advance (without a memo they are new copies)", () => {
    let t = start();
    const rng = seededRng(1);
    const run = (c: Command) => {
      const r = engine.execute(t, c, { rng, actor: GM });
      if (!r.ok) throw new Error(r.error.message);
      t = r.value.table;
    };
    for (let n = 0; n < 5; n++) run({ type: 'log.note', text: `note ${n}`, ...(n % 2 ? { audience: { kind: 'gm' } } : {}) });
    const memo = newMemo();
    const before = engine.project(t.world, SPECTATOR, memo).log;
    // Notes 0, 2 and 4 are for everyone; 1 and 3 for the GM.
    expect(before.map((e) => e.text)).toEqual(['note 0', 'note 2', 'note 4']);
    run({ type: 'log.note', text: 'note 5' });
    run({ type: 'clock.advance', unit: 'round' });
    const after = engine.project(t.world, SPECTATOR, memo).log;
    before.forEach((e, i) => expect(after[i]).toBe(e));
    expect(after.slice(before.length).map((e) => e.text)).toContain('note 5');
    const fresh = engine.project(t.world, SPECTATOR).log;
    expect(fresh[0]).toEqual(before[0]);
    expect(fresh[0]).not.toBe(before[0]);
  });

  it('never shows a viewer an entry for someone else, even when one memo served the GM first', () => {
    let t = start();
    const r = engine.execute(t, { type: 'log.note', text: 'the trap is fake', audience: { kind: 'gm' } }, { rng: seededRng(2), actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    t = r.value.table;
    const shared = newMemo();
    expect(engine.project(t.world, GM, shared).log.map((e) => e.text)).toEqual(['the trap is fake']);
    expect(engine.project(t.world, SPECTATOR, shared).log).toEqual([]);
  });
});
