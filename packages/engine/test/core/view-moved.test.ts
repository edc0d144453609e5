// ADR 123: a class's walk notes which declared parts moved since its last walk, by place, and a step runs only
// when one of its reads is flagged (in the unprojected world or where the walk stands). A seat's lane flags what
// moved between the shared steps' last and new outputs; after a step the walk cannot follow (an undeclared
// one) the walk compares values again. Every view by parts must equal a fresh projection for the GM, two seats
// and a spectator, in either mix of steps; and a step whose reads did not move is not run at all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, ok, type Command, type Json, type Module, type Table, type Viewer, type ViewMemo, type World } from '../../src/core/index.js';

const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };
const newMemo = (): ViewMemo => ({ entryCopies: new WeakMap() });
const stateOf = (w: World, id: string): { readonly [k: string]: Json } => (w.ext[id] ?? {}) as { readonly [k: string]: Json };

/** How many times each projector ran (reset per check). */
const runs = new Map<string, number>();
const counted =
  (id: string, project: NonNullable<Module['project']>): NonNullable<Module['project']> =>
  (w, v, s) => {
    runs.set(id, (runs.get(id) ?? 0) + 1);
    return project(w, v, s);
  };

/** A module whose state is set whole by `<id>.set` (the command's `value`). */
const settable = (id: string, project: NonNullable<Module['project']>, projectReads: Module['projectReads']): Module => ({
  id,
  commands: { [`${id}.set`]: { decide: (_w, c) => ok([{ type: `${id}.set`, value: c['value'] ?? null }]) } },
  reducers: { [`${id}.set`]: (w, e) => ({ ...w, ext: { ...w.ext, [id]: e['value'] as Json } }) },
  project: counted(id, project),
  ...(projectReads === undefined ? {} : { projectReads }),
});

// `a`: players and spectators see the open half only.
const a = settable('a', (w, v) => (v.role === 'gm' || w.ext['a'] === undefined ? w : { ...w, ext: { ...w.ext, a: { open: stateOf(w, 'a')['open'] ?? null } } }), { reads: ['ext.a'], writes: ['ext.a'] });
// `b`: reads what `a` left, and the clock (so a clock advance re-runs it; what it writes may still be the same).
const b = settable(
  'b',
  (w, v) => (v.role === 'gm' || w.ext['b'] === undefined ? w : { ...w, ext: { ...w.ext, b: { n: stateOf(w, 'b')['n'] ?? null, open: stateOf(w, 'a')['open'] ?? null, late: w.clock.counts['round'] ?? 0 } } }),
  { reads: ['ext.b', 'ext.a', 'clock'], writes: ['ext.b'] },
);
// `u`: undeclared (runs every time; the walk cannot follow it), passes everything through.
const u: Module = { id: 'u', project: counted('u', (w) => w) };
// `s`: by seat; reads what `b` left and writes the name, which `c` reads after it (so it stays in its place: a lane from here).
const s = settable(
  's',
  (w, v) => (v.role === 'gm' ? w : { ...w, name: `${w.name} [${v.role === 'player' ? v.seatId : '-'} ${JSON.stringify(stateOf(w, 'b')['open'] ?? null)} ${JSON.stringify(stateOf(w, 's')['x'] ?? null)}]` }),
  { reads: ['name', 'ext.b', 'ext.s'], writes: ['name'], bySeat: true },
);
// `c`: a top-level part from what `s` left, and `a`'s part passed through when nothing is open.
const c = settable(
  'c',
  (w, v) => (v.role === 'gm' ? w : { ...w, ext: { ...w.ext, c: { seen: w.name, k: stateOf(w, 'c')['k'] ?? null } } }),
  { reads: ['name', 'ext.c'], writes: ['ext.c'] },
);

function table(modules: readonly Module[]) {
  const engine = createEngine([coreModule, ...modules]);
  let t: Table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
  const rng = seededRng(123);
  const run = (cmd: Command) => {
    const r = engine.execute(t, cmd, { rng, actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    t = r.value.table;
  };
  run({ type: 'seat.add', name: 'Ann' });
  run({ type: 'seat.add', name: 'Bo' });
  const seats = Object.keys(t.world.seats).map((seatId): Viewer => ({ role: 'player', seatId }));
  return { engine, run, table: () => t, viewers: [GM, ...seats, SPECTATOR] };
}

const step = fc.oneof(
  fc.record({ type: fc.constant('a.set'), value: fc.record({ secret: fc.nat(3), open: fc.nat(3) }) }),
  fc.record({ type: fc.constant('b.set'), value: fc.record({ n: fc.nat(3) }) }),
  fc.record({ type: fc.constant('s.set'), value: fc.record({ x: fc.nat(2) }) }),
  fc.record({ type: fc.constant('c.set'), value: fc.record({ k: fc.nat(2) }) }),
  fc.record({ type: fc.constant('log.note'), text: fc.constantFrom('x', 'y') }),
  fc.constant({ type: 'clock.advance', unit: 'round' }),
);

describe('the walk notes what moved by place (ADR 123)', () => {
  for (const [label, modules] of [
    ['declared steps, a seat lane', [a, b, s, c]],
    ['an undeclared step before the lane', [a, b, u, s, c]],
  ] as const) {
    it(`property: every viewer's view by parts equals a fresh projection, and a note re-runs no step that does not read the log (${label})`, () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 25 }), fc.nat(3), (cmds, rotate) => {
          const { engine, run, table: t, viewers } = table(modules);
          const memo = newMemo();
          // One memo for all, asked in a rotating order (a seat's lane must never hand another seat its parts).
          const order = viewers.map((_, i) => viewers[(i + rotate) % viewers.length]!);
          for (const v of order) engine.project(t().world, v, memo);
          for (const cmd of cmds) {
            run(cmd as Command);
            for (const v of order) {
              const byParts = engine.project(t().world, v, memo);
              const fresh = engine.project(t().world, v);
              expect(byParts).toEqual(fresh);
              if (v.role !== 'gm') expect(JSON.stringify(byParts)).not.toContain('secret');
            }
          }
          // Every viewer was just projected: a note moves the log alone, which no step here reads.
          run({ type: 'log.note', text: 'end' });
          runs.clear();
          const views = order.map((v) => engine.project(t().world, v, memo));
          const byPartsRuns = new Map(runs);
          runs.clear();
          order.forEach((v, i) => expect(views[i]).toEqual(engine.project(t().world, v)));
          // The fresh projections ran every projector for every viewer; by parts, only the undeclared one ran (each lane).
          expect(runs.get('a')).toBe(order.length);
          expect(byPartsRuns.get('a') ?? 0).toBe(0);
          expect(byPartsRuns.get('b') ?? 0).toBe(0);
          expect(byPartsRuns.get('s') ?? 0).toBe(0);
          expect(byPartsRuns.get('c') ?? 0).toBe(0);
          expect(byPartsRuns.get('u') ?? 0).toBe(modules.includes(u) ? viewers.length : 0);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('a clock advance re-runs the step that reads the clock, once per class, and no step after it whose reads it left as they were', () => {
    const { engine, run, table: t, viewers } = table([a, b, s, c]);
    const memo = newMemo();
    run({ type: 'a.set', value: { secret: 1, open: 2 } });
    run({ type: 'b.set', value: { n: 1 } });
    for (const v of viewers) engine.project(t().world, v, memo);
    run({ type: 'clock.advance', unit: 'round' });
    runs.clear();
    const views = viewers.map((v) => engine.project(t().world, v, memo));
    viewers.forEach((v, i) => expect(views[i]).toEqual(engine.project(t().world, v)));
    // Fresh projections add one run of each per viewer (4); by parts, `b` ran for the GM and for the others' class.
    expect(runs.get('b')).toBe(2 + viewers.length);
    expect(runs.get('a')).toBe(viewers.length);
    // `b`'s part moved for the others (its `late`), so each non-GM lane's `s` ran; the GM's `b` passed its part through as it was.
    expect(runs.get('s')).toBe(viewers.length + viewers.length - 1);
    // `s` wrote the same name (a string is its value), so `c` was not run again in any lane.
    expect(runs.get('c')).toBe(viewers.length);
  });
});
