// The encounter projector keeps its projection per stored encounter object
// (issue 19): a change elsewhere (a clock advance, a note, a character's sheet
// that canAct does not read) reuses it. Over random sessions, a long-lived
// module's projection (memo warm) must equal a fresh module's (memo cold) for
// the GM, a player and a spectator after every step, and a clock advance must
// keep the projected encounter's object.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command, Viewer, ViewMemo, World } from '../../src/core/types.js';
import { createEngine } from '../../src/core/engine.js';
import { coreModule } from '../../src/core/module.js';
import { seededRng } from '../../src/dice/rng.js';
import { BANDS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table } from './harness.js';

// canAct reads the characters (declared), so a sheet change must re-project and a clock advance must not.
const rules: EncounterRules = {
  sequencer: bandsSequencer(),
  economy: BANDS_ECONOMY,
  conditions: [{ id: 'helpless', name: 'Helpless', stacking: 'refresh', effects: {}, incapacitates: true }],
  canAct: (w: World, c) => c.characterId === null || w.characters[c.characterId]?.name !== 'Asleep',
  canActReads: ['characters'],
};
const gm: Viewer = { role: 'gm' };
const viewers: Viewer[] = [gm, { role: 'player', seatId: 's1' }, { role: 'spectator' }];
const ids = ['ana', 'bel', 'orc', 'shade', 'lurk'];
/** Stands for the character's minted id in generated commands (ids are random: read after character.add). */
const HERO = '<hero>';
/** Adds the hero's character and returns a function that puts its minted id into a generated command. */
function addHero(t: Table): (c: Command) => Command {
  const id = String(t.ok({ type: 'character.add', name: 'Roland', kind: 'pc', seatId: 's1' })[0]?.['id']);
  return (c) => (c['characterId'] === HERO ? { ...c, characterId: id } : c);
}

const step: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Command>({ type: 'encounter.endTurn' }) },
  { weight: 3, arbitrary: fc.constant<Command>({ type: 'clock.advance', unit: 'round' }) },
  { weight: 1, arbitrary: fc.constant<Command>({ type: 'log.note', text: 'the torches gutter' }) },
  { weight: 2, arbitrary: fc.record({ id: fc.constantFrom(...ids), to: fc.constantFrom('encounter.hide', 'encounter.reveal', 'encounter.obscure') }).map(({ id, to }): Command => ({ type: to, id })) },
  { weight: 1, arbitrary: fc.record({ id: fc.constantFrom(...ids), value: fc.boolean() }).map((c): Command => ({ type: 'encounter.setIncapacitated', ...c })) },
  { weight: 1, arbitrary: fc.constantFrom(...ids).map((id): Command => ({ type: 'encounter.remove', id })) },
  { weight: 1, arbitrary: fc.constantFrom('Roland', 'Asleep').map((name): Command => ({ type: 'character.update', characterId: HERO, name })) },
  { weight: 2, arbitrary: fc.constantFrom<Command>({ type: 'history.undo' }, { type: 'history.redo' }) },
);

describe('encounter projection memo', () => {
  it('equals a fresh projection for every viewer after every step, in random sessions with hidden and veiled combatants', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer(), (steps, seed) => {
        const t = new Table([encounterModule(rules)], seededRng(seed));
        const minted = addHero(t);
        const heroId = String(minted({ type: 'x', characterId: HERO })['characterId']);
        t.ok({
          type: 'encounter.start',
          combatants: [
            { id: 'ana', kind: 'pc', band: 'fast', characterId: heroId },
            { id: 'bel', kind: 'pc', band: 'medium' },
            { id: 'orc', kind: 'npc', band: 'medium' },
            { id: 'shade', name: 'A shade', kind: 'npc', band: 'slow', visibility: 'existence' },
            { id: 'lurk', name: 'The lurker', kind: 'npc', band: 'fast', visibility: 'hidden' },
          ],
        });
        // As a room projects: one view memo for every viewer, kept across steps.
        const memo: ViewMemo = { entryCopies: new WeakMap() };
        const check = () => {
          // A module made now has an empty memo: its projection is the fresh one.
          const fresh = createEngine([coreModule, encounterModule(rules)]);
          for (const v of viewers) {
            expect(t.engine.project(t.world, v, memo)).toEqual(fresh.project(t.world, v));
            expect(t.engine.project(t.world, v)).toEqual(fresh.project(t.world, v));
          }
        };
        check();
        for (const c of steps) {
          t.run(minted(c));
          check();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the projected encounter object through a clock advance, and re-projects when a sheet canAct reads changes', () => {
    const t = new Table([encounterModule(rules)], seededRng(7));
    const minted = addHero(t);
    const heroId = String(minted({ type: 'x', characterId: HERO })['characterId']);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'ana', kind: 'pc', band: 'fast', characterId: heroId }, { id: 'lurk', name: 'The lurker', kind: 'npc', band: 'fast', visibility: 'hidden' }] });
    const player: Viewer = { role: 'player', seatId: 's1' };
    const memo: ViewMemo = { entryCopies: new WeakMap() };
    const before = viewers.map((v) => t.engine.project(t.world, v, memo).ext['encounter']);
    t.ok({ type: 'clock.advance', unit: 'round' });
    viewers.forEach((v, i) => expect(t.engine.project(t.world, v, memo).ext['encounter']).toBe(before[i]));
    t.ok(minted({ type: 'character.update', characterId: HERO, name: 'Asleep' }));
    expect(t.engine.project(t.world, player, memo).ext['encounter']).not.toBe(before[1]);
  });
});
