// Issue 19: the shared foe rule's basis is kept by the four parts it reads
// (characters, seats, the foes' reveal, the combatants) instead of being re-made
// for every world. Whatever the play, the kept basis must equal one made afresh.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coreModule, createEngine, type Command, type Table, type Viewer } from '../../src/core/index.js';
import { encounterModule } from '../../src/encounter/module.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { BANDS_ECONOMY } from '../../src/encounter/economies.js';
import { foeBasis, foesModule, isFoe } from '../../src/foes/index.js';
import { seededRng } from '../../src/dice/rng.js';

const GM: Viewer = { role: 'gm' };
/** The same rule behind another function, so foeBasis makes it afresh (its cache serves the shared rule only). */
const fresh = (t: Table): string => foeBasis(t.world, (w, id) => isFoe(w, id));

type Step = { readonly kind: 'pc' | 'npc' | 'seat' | 'note' | 'reveal' | 'undo' | 'fight' | 'seated'; readonly n: number };

describe('the shared foe basis, kept by the parts it reads', () => {
  it('property: over characters added and seated, seats, reveals, fights, notes and undo, it equals a basis made afresh', () => {
    const engine = createEngine([coreModule, foesModule, encounterModule({ sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: [] })]);
    const done = new Set<string>();
    fc.assert(
      fc.property(fc.array(fc.record({ kind: fc.constantFrom('pc', 'npc', 'seat', 'note', 'reveal', 'undo', 'fight', 'seated'), n: fc.nat(9) }), { minLength: 1, maxLength: 30 }), (steps: Step[]) => {
        let t = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
        const rng = seededRng(3);
        for (const st of steps) {
          const characters = Object.keys(t.world.characters);
          const seats = Object.keys(t.world.seats);
          const pick = <T,>(xs: readonly T[]): T | undefined => xs[st.n % Math.max(1, xs.length)];
          const command: Command | undefined =
            st.kind === 'pc' || st.kind === 'npc' ? { type: 'character.add', name: `C${st.n}`, kind: st.kind }
            : st.kind === 'seat' ? { type: 'seat.add', name: `S${st.n}` }
            : st.kind === 'note' ? { type: 'log.note', text: `n${st.n}` }
            : st.kind === 'reveal' ? { type: 'foes.reveal', reveal: (['none', 'defences', 'all'] as const)[st.n % 3] }
            : st.kind === 'undo' ? { type: 'history.undo' }
            : st.kind === 'fight' ? (characters.length === 0 ? undefined : { type: 'encounter.start', combatants: characters.map((characterId, i) => ({ id: `k${i}`, name: `F${i}`, kind: i % 2 === 0 ? 'npc' : 'pc', side: i % 2 === 0 ? 'foes' : 'pcs', band: 'slow', characterId })) })
            : pick(seats) === undefined ? undefined : { type: 'character.add', name: `R${st.n}`, kind: 'npc', seatId: pick(seats)! };
          if (command === undefined) continue;
          const r = engine.execute(t, command, { rng, actor: GM });
          // A refused step (nothing to undo, a fight already on, an unknown command) changes nothing.
          if (!r.ok) continue;
          t = r.value.table;
          done.add(st.kind);
          expect(foeBasis(t.world)).toBe(fresh(t));
        }
      }),
      { numRuns: 80 },
    );
    // The runs reached every kind of step, fights and seated retainers included.
    expect([...done].sort()).toEqual(['fight', 'note', 'npc', 'pc', 'reveal', 'seat', 'seated', 'undo']);
  });
});
