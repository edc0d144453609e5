// ADR 115: a class's walk over reused steps puts their parts into one world made at the end (or where a
// projector must run), and a step may read what an earlier reused step put in. These projectors chain so:
// `b` reads `a`'s projected part, `c` reads `b`'s and writes a top-level part, `d` reads `a` and passes
// everything through. Every view by parts must equal a fresh projection, for the GM, a seat and a spectator.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, ok, type Command, type Json, type Module, type Table, type Viewer, type ViewMemo, type World } from '../../src/core/index.js';

const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };
const newMemo = (): ViewMemo => ({ entryCopies: new WeakMap() });
const stateOf = (w: World, id: string): { readonly [k: string]: Json } => (w.ext[id] ?? {}) as { readonly [k: string]: Json };

/** A module whose state is set whole by `<id>.set` (the command's `value`). */
const settable = (id: string, project: Module['project'], projectReads: Module['projectReads']): Module => ({
  id,
  commands: { [`${id}.set`]: { decide: (_w, c) => ok([{ type: `${id}.set`, value: c['value'] ?? null }]) } },
  reducers: { [`${id}.set`]: (w, e) => ({ ...w, ext: { ...w.ext, [id]: e['value'] as Json } }) },
  ...(project === undefined ? {} : { project }),
  ...(projectReads === undefined ? {} : { projectReads }),
});

// `a`: players and spectators see the open half only.
const a = settable('a', (w, v) => (v.role === 'gm' || w.ext['a'] === undefined ? w : { ...w, ext: { ...w.ext, a: { open: stateOf(w, 'a')['open'] ?? null } } }), { reads: ['ext.a'], writes: ['ext.a'] });
// `b`: reads what `a` left (so a non-GM `b` never learns `a`'s secret).
const b = settable(
  'b',
  (w, v) => (v.role === 'gm' || w.ext['b'] === undefined ? w : { ...w, ext: { ...w.ext, b: { n: stateOf(w, 'b')['n'] ?? null, sawSecret: 'secret' in stateOf(w, 'a'), open: stateOf(w, 'a')['open'] ?? null } } }),
  { reads: ['ext.b', 'ext.a'], writes: ['ext.b'] },
);
// `c`: a top-level part from what `b` left.
const c: Module = {
  id: 'c',
  project: (w, v) => (v.role === 'gm' ? w : { ...w, name: `${w.name} (${JSON.stringify(stateOf(w, 'b')['open'] ?? null)})` }),
  projectReads: { reads: ['name', 'ext.b'], writes: ['name'] },
};
// `d`: reads `a`, passes everything through.
const d: Module = { id: 'd', project: (w) => w, projectReads: { reads: ['ext.a'], writes: ['ext.d'] } };

function table() {
  const engine = createEngine([coreModule, a, b, c, d]);
  let t: Table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
  const rng = seededRng(115);
  const run = (cmd: Command) => {
    const r = engine.execute(t, cmd, { rng, actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    t = r.value.table;
  };
  run({ type: 'seat.add', name: 'Ann' });
  const seat: Viewer = { role: 'player', seatId: Object.keys(t.world.seats)[0]! };
  return { engine, run, table: () => t, viewers: [GM, seat, SPECTATOR] };
}

describe('the walk over reused steps (ADR 115)', () => {
  it('property: chained projectors, reused and re-run in any mix, give every viewer a fresh projection', () => {
    const step = fc.oneof(
      fc.record({ type: fc.constant('a.set'), value: fc.record({ secret: fc.nat(3), open: fc.nat(3) }) }),
      fc.record({ type: fc.constant('b.set'), value: fc.record({ n: fc.nat(3) }) }),
      fc.record({ type: fc.constant('log.note'), text: fc.constantFrom('x', 'y') }),
      fc.constant({ type: 'clock.advance', unit: 'round' }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (cmds) => {
        const { engine, run, table: t, viewers } = table();
        const memo = newMemo();
        for (const cmd of [...cmds, { type: 'log.note', text: 'end' }]) {
          run(cmd as Command);
          for (const v of viewers) {
            const byParts = engine.project(t().world, v, memo);
            const fresh = engine.project(t().world, v);
            expect(byParts).toEqual(fresh);
            if (v.role !== 'gm') expect(JSON.stringify(byParts)).not.toContain('secret');
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("after a note, the non-GM view keeps every reused step's parts (the same objects) and the GM's is the table's world", () => {
    const { engine, run, table: t, viewers } = table();
    run({ type: 'a.set', value: { secret: 1, open: 2 } });
    run({ type: 'b.set', value: { n: 3 } });
    const memo = newMemo();
    const before = viewers.map((v) => engine.project(t().world, v, memo));
    run({ type: 'log.note', text: 'a note' });
    const after = viewers.map((v) => engine.project(t().world, v, memo));
    const seat = 1;
    expect(after[seat]!.ext['a']).toBe(before[seat]!.ext['a']);
    expect(after[seat]!.ext['b']).toBe(before[seat]!.ext['b']);
    expect(after[seat]!.ext['b']).toEqual({ n: 3, sawSecret: false, open: 2 });
    expect(after[seat]!.name).toBe('T (2)');
    expect(after[0]).toBe(t().world);
    // The seat and the spectator are one class: one projection.
    expect(after[2]).toBe(after[seat]);
  });

  it('hands every viewer who may neither undo nor redo one shared answer', () => {
    const { engine, run, table: t } = table();
    run({ type: 'a.set', value: { secret: 1, open: 2 } });
    const seatId = Object.keys(t().world.seats)[0]!;
    const player = engine.undoState(t(), { role: 'player', seatId });
    expect(player).toEqual({ canUndo: false, canRedo: false, undoLabel: null, redoLabel: null, undoWords: null, redoWords: null });
    expect(engine.undoState(t(), SPECTATOR)).toBe(player);
    expect(engine.undoState(t(), GM).canUndo).toBe(true);
  });
});
