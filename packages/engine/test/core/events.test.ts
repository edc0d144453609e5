// Typed events (STYLE 2, ADR 34): a module's reducers and reactions are written
// against its event union; the engine still hands them stored events, so these
// check the bridge (reducersOf, reactionOf) on a toy module and on the encounter.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine, coreModule, ok, reactionOf, reducersOf, type EngineEvent, type Env, type Evolve, type Module, type Viewer, type World } from '../../src/core/index.js';
import { seededRng } from '../../src/dice/rng.js';
import { encounterModule } from '../../src/encounter/module.js';
import { osrEncounter } from '../../src/encounter/systems.js';

const GM: Viewer = { role: 'gm' };

type TallyEvent = { readonly type: 'tally.added'; readonly name: string; readonly amount: number } | { readonly type: 'tally.cleared'; readonly name: string };

const total = (w: World, name: string): number => {
  const t = (w.ext['tally'] ?? {}) as { readonly [k: string]: number };
  return Object.hasOwn(t, name) ? t[name]! : 0;
};
const withTotal = (w: World, name: string, n: number): World => ({ ...w, ext: { ...w.ext, tally: { ...((w.ext['tally'] ?? {}) as object), [name]: n } } });

const evolve: Evolve<TallyEvent> = {
  'tally.added': (w, e) => withTotal(w, e.name, total(w, e.name) + e.amount),
  'tally.cleared': (w, e) => withTotal(w, e.name, 0),
};

/** Reacts to its own clears only: a clear of "a" also clears "b". */
const linked = reactionOf<TallyEvent>(['tally.cleared'], (_w, e) => (e.type === 'tally.cleared' && e.name === 'a' ? [{ type: 'tally.cleared', name: 'b' }] : []));

const tally: Module = {
  id: 'tally',
  commands: {
    'tally.add': { decide: (_w, c) => ok([{ type: 'tally.added', name: String(c['name']), amount: Number(c['amount']) }]) },
    'tally.clear': { decide: (_w, c) => ok([{ type: 'tally.cleared', name: String(c['name']) }]) },
  },
  reducers: reducersOf(evolve),
  reactions: [linked],
};

const env = (): Env => ({ rng: seededRng(1), actor: GM }) as Env;

describe('typed events: reducersOf and reactionOf', () => {
  it('reducersOf hands the engine one reducer per type of the union, each reading its own member', () => {
    const r = reducersOf(evolve);
    expect(Object.keys(r).sort()).toEqual(['tally.added', 'tally.cleared']);
    const engine = createEngine([coreModule, tally]);
    let table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
    for (const c of [{ type: 'tally.add', name: 'a', amount: 3 }, { type: 'tally.add', name: 'b', amount: 4 }, { type: 'tally.add', name: 'a', amount: 2 }]) {
      const x = engine.execute(table, c, { rng: seededRng(1), actor: GM });
      if (!x.ok) throw new Error(x.error.message);
      table = x.value.table;
    }
    expect([total(table.world, 'a'), total(table.world, 'b')]).toEqual([5, 4]);
    // The reaction runs in the same transaction: clearing a clears b too.
    const x = engine.execute(table, { type: 'tally.clear', name: 'a' }, { rng: seededRng(1), actor: GM });
    if (!x.ok) throw new Error(x.error.message);
    expect([total(x.value.table.world, 'a'), total(x.value.table.world, 'b')]).toEqual([0, 0]);
  });

  it('reactionOf answers no events for a type it does not read, even one with the same fields', () => {
    const w = createEngine([coreModule, tally]).createTable({ tableId: 't', name: 'T', rulesetId: 'test' }).world;
    expect(linked(w, { type: 'other.cleared', name: 'a' }, env())).toEqual([]);
    expect(linked(w, { type: 'tally.added', name: 'a', amount: 1 }, env())).toEqual([]);
    expect(linked(w, { type: 'tally.cleared', name: 'a' }, env())).toEqual([{ type: 'tally.cleared', name: 'b' }]);
  });

  it('property: any run of typed events folds through reducersOf to the same world as calling the typed reducers directly', () => {
    const ev = fc.oneof(
      fc.record({ type: fc.constant('tally.added' as const), name: fc.constantFrom('a', 'b', 'c'), amount: fc.integer({ min: -50, max: 50 }) }),
      fc.record({ type: fc.constant('tally.cleared' as const), name: fc.constantFrom('a', 'b', 'c') }),
    );
    const base = createEngine([coreModule, tally]).createTable({ tableId: 't', name: 'T', rulesetId: 'test' }).world;
    const reducers = reducersOf(evolve);
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 40 }), (events) => {
        let viaEngineShape = base;
        let direct = base;
        for (const e of events) {
          viaEngineShape = reducers[e.type]!(viaEngineShape, e as unknown as EngineEvent);
          direct = e.type === 'tally.added' ? evolve['tally.added'](direct, e) : evolve['tally.cleared'](direct, e);
        }
        expect(viaEngineShape).toEqual(direct);
      }),
    );
  });

  it("the encounter's turn-flow reaction ignores events outside its union and the clock (a ruleset's event that names a combatant)", () => {
    const m = encounterModule({ ...osrEncounter(), conditions: [] });
    const engine = createEngine([coreModule, m]);
    let table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
    const x = engine.execute(table, { type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc', stats: { dex: 12 } }, { id: 'b', kind: 'npc', stats: { dex: 8 } }] }, { rng: seededRng(3), actor: GM });
    if (!x.ok) throw new Error(x.error.message);
    table = x.value.table;
    const react = m.reactions![0]!;
    // Shaped like encounter.turnEnded, but another module's: no clock tick, no saves.
    expect(react(table.world, { type: 'osr.turnEnded', id: 'a', round: 1 }, env())).toEqual([]);
    expect(react(table.world, { type: 'encounter.turnEnded', id: 'a', round: 1 }, env()).map((e) => e.type)).toEqual(['clock.advanced', 'encounter.savesDue']);
  });
});
