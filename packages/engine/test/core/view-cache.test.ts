// ADR 20: projection by parts. One memo serves every viewer of a table; what
// a projector may show one seat must never reach another through it, a
// projector without a declaration still runs, and a log at its limit is
// brought forward by its new entries only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, logExtension, seatStepsLast, type Command, type Json, type Module, type Table, type Viewer, type ViewMemo } from '../../src/core/index.js';
import { countdownsModule } from '../../src/countdowns/index.js';

const GM: Viewer = { role: 'gm' };
const newMemo = (): ViewMemo => ({ entryCopies: new WeakMap() });

/** A projector that tells each player their own seat (a stand-in for per-seat state such as requests). */
const seatEcho = (declared: boolean): Module => ({
  id: 'echo',
  project: (w, v) => (v.role === 'gm' ? w : { ...w, ext: { ...w.ext, echo: (v.role === 'player' ? v.seatId : 'spectator') as Json } }),
  ...(declared ? { projectReads: { reads: [], writes: ['ext.echo'], bySeat: true } } : {}),
});

function tableWith(modules: readonly Module[], settings: { [k: string]: Json } = {}) {
  const engine = createEngine(modules);
  let t: Table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test', settings });
  const rng = seededRng(20);
  const run = (c: Command) => {
    const r = engine.execute(t, c, { rng, actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    t = r.value.table;
  };
  return { engine, run, table: () => t };
}

describe('projection by parts (ADR 20)', () => {
  for (const declared of [true, false]) {
    it(`gives each seat its own output from a projector that reads the seat (${declared ? 'declared bySeat' : 'undeclared'}), with one memo for all`, () => {
      const { engine, run, table } = tableWith([coreModule, countdownsModule, seatEcho(declared)]);
      run({ type: 'seat.add', name: 'Ann' });
      run({ type: 'seat.add', name: 'Bo' });
      const [ann, bo] = Object.keys(table().world.seats) as [string, string];
      const memo = newMemo();
      for (let round = 0; round < 3; round++) {
        for (const [v, want] of [
          [{ role: 'player', seatId: ann }, ann],
          [{ role: 'spectator' }, 'spectator'],
          [{ role: 'player', seatId: bo }, bo],
        ] as const) {
          expect(engine.project(table().world, v, memo).ext['echo']).toBe(want);
        }
        run({ type: 'clock.advance', unit: 'round' });
      }
    });
  }

  it('moves a seat-reading projector after the later ones only when it commutes with each of them', () => {
    const step = (id: string, reads: string[], writes: string[], extra: object = {}): Module => ({
      id,
      project: (w) => w,
      projectReads: { reads: reads as never, writes: writes as never, ...extra },
    });
    const seat = step('seat', ['ext.seat'], ['ext.seat'], { bySeat: true });
    const names = (ms: readonly Module[]) => seatStepsLast(ms).map((m) => m.id);
    expect(names([step('a', ['ext.a'], ['ext.a']), seat, step('b', ['ext.b', 'characters'], ['ext.b'])])).toEqual(['a', 'b', 'seat']);
    // A later projector reads what the seat's writes, writes the same part, writes what it reads, or is undeclared.
    expect(names([seat, step('b', ['ext.seat'], ['ext.b'])])).toEqual(['seat', 'b']);
    expect(names([seat, step('b', [], ['ext.seat'])])).toEqual(['seat', 'b']);
    expect(names([step('s2', ['log'], ['ext.s2'], { bySeat: true }), step('b', [], ['log'])])).toEqual(['s2', 'b']);
    expect(names([step('s3', ['ext.x'], ['log'], { bySeat: true }), step('b', ['ext.y'], ['ext.y', 'log'], { logByEntry: true })])).toEqual(['s3', 'b']);
    expect(names([seat, { id: 'u', project: (w) => w }])).toEqual(['seat', 'u']);
  });

  it('runs the projectors after a movable seat-reading one once per class, not once per seat (issue 19)', () => {
    let runs = 0;
    const counted: Module = {
      id: 'counted',
      project: (w, v) => {
        if (v.role !== 'gm') runs++;
        return { ...w, ext: { ...w.ext, counted: w.clock.counts.round as Json } };
      },
      projectReads: { reads: ['clock'], writes: ['ext.counted'] },
    };
    const { engine, run, table } = tableWith([coreModule, seatEcho(true), countdownsModule, counted]);
    run({ type: 'seat.add', name: 'Ann' });
    run({ type: 'seat.add', name: 'Bo' });
    const seats = Object.keys(table().world.seats);
    const memo = newMemo();
    for (let round = 0; round < 3; round++) {
      runs = 0;
      const views = seats.map((seatId) => engine.project(table().world, { role: 'player', seatId }, memo));
      // Each seat still gets its own echo, and the counted part is the same object for both.
      expect(views.map((w) => w.ext['echo'])).toEqual(seats);
      expect(views[0]!.ext['counted']).toBe(views[1]!.ext['counted']);
      expect(views[0]!.ext['counted']).toEqual(table().world.clock.counts.round);
      expect(runs).toBe(1);
      run({ type: 'clock.advance', unit: 'round' });
    }
  });

  it('brings a log at its limit forward by its new entries: held copies stay the same objects, and it equals a fresh projection', () => {
    const { engine, run, table } = tableWith([coreModule, countdownsModule], { 'core.logLimit': 4 });
    const spectator: Viewer = { role: 'spectator' };
    const memo = newMemo();
    for (let n = 0; n < 4; n++) run({ type: 'log.note', text: `note ${n}` });
    const before = engine.project(table().world, spectator, memo).log;
    run({ type: 'log.note', text: 'note 4' });
    const after = engine.project(table().world, spectator, memo).log;
    expect(after.map((e) => e.text)).toEqual(['note 1', 'note 2', 'note 3', 'note 4']);
    // The three entries both views hold are the very same copies.
    after.slice(0, 3).forEach((e, i) => expect(e).toBe(before[i + 1]));
    expect(after).toEqual(engine.project(table().world, spectator).log);
  });

  it('equals fresh projections over random notes, clock advances, countdowns and undo at a small log limit', () => {
    const command = fc.constantFrom<Command>(
      { type: 'log.note', text: 'for everyone' },
      { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } },
      { type: 'clock.advance', unit: 'round' },
      { type: 'countdown.create', name: 'Doom', start: 3, visibility: 'hidden' },
      { type: 'countdown.create', name: 'Dawn', start: 3, visibility: 'existence' },
      { type: 'history.undo' },
      { type: 'history.redo' },
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (commands, limit) => {
        const { engine, table } = tableWith([coreModule, countdownsModule], { 'core.logLimit': limit });
        let t = table();
        const rng = seededRng(3);
        const memo = newMemo();
        for (const c of commands) {
          const r = engine.execute(t, c, { rng, actor: GM });
          if (r.ok) t = r.value.table;
          for (const v of [GM, { role: 'spectator' } as Viewer]) expect(engine.project(t.world, v, memo)).toEqual(engine.project(t.world, v));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('property: a projector whose module key comes, changes and goes (and other parts move beside it) gives, with the memo, what a fresh projection gives', () => {
    // A projector that reads its own key only: players see how many items are on the shelf. Worlds are made by
    // hand so the key can be absent, replaced by an equal copy, or left the same object while others move.
    const shelf: Module = {
      id: 'shelf',
      project: (w, v) => (v.role === 'gm' || !Object.hasOwn(w.ext, 'shelf') ? w : { ...w, ext: { ...w.ext, shelf: { count: (w.ext['shelf'] as { items: Json[] }).items.length } } }),
      projectReads: { reads: ['ext.shelf'], writes: ['ext.shelf'] },
    };
    const { engine, table } = tableWith([coreModule, countdownsModule, shelf]);
    const base = table().world;
    type Move = { kind: 'set'; items: number } | { kind: 'copy' } | { kind: 'drop' } | { kind: 'clock' } | { kind: 'other' };
    const move = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), items: fc.nat(3) }),
      fc.constantFrom<Move>({ kind: 'copy' }, { kind: 'drop' }, { kind: 'clock' }, { kind: 'other' }),
    );
    const viewers: Viewer[] = [GM, { role: 'spectator' }, { role: 'player', seatId: 'seat-x' }];
    fc.assert(
      fc.property(fc.array(fc.tuple(move, fc.nat(2)), { minLength: 1, maxLength: 30 }), (moves) => {
        const memo = newMemo();
        let w = base;
        for (const [m, who] of moves) {
          const ext = { ...w.ext };
          if (m.kind === 'set') ext['shelf'] = { items: Array.from({ length: m.items }, (_, i) => i) };
          else if (m.kind === 'copy' && Object.hasOwn(ext, 'shelf')) ext['shelf'] = JSON.parse(JSON.stringify(ext['shelf'])) as Json;
          else if (m.kind === 'drop') delete ext['shelf'];
          else if (m.kind === 'other') ext['bystander'] = { n: 1 }; // a new object: the part moved, equal or not
          w = m.kind === 'clock' ? { ...w, clock: { ...w.clock, counts: { ...w.clock.counts, round: (w.clock.counts['round'] ?? 0) + 1 } } } : { ...w, ext };
          // Two viewers each time, the second often of the same class: both walks and the class's shortcut are checked.
          for (const v of [viewers[who]!, viewers[(who + 1) % viewers.length]!]) expect(engine.project(w, v, memo)).toEqual(engine.project(w, v));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('logExtension finds what a grown log kept, dropped and added, and refuses anything else', () => {
    const [a, b, c, d] = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
    expect(logExtension([a, b], [a, b, c])).toEqual({ dropped: [], fresh: [c] });
    expect(logExtension([a, b, c], [b, c, d])).toEqual({ dropped: [a], fresh: [d] });
    expect(logExtension([], [a])).toEqual({ dropped: [], fresh: [a] });
    // An undo restores an older log; an entry hidden mid-log is a change, not growth.
    expect(logExtension([a, b, c], [a, b])).toBeNull();
    expect(logExtension([a, b, c], [a, c])).toBeNull();
    // Equal copies are not the same entries.
    expect(logExtension([a, b], [{ n: 1 }, { n: 2 }])).toBeNull();
  });
});
