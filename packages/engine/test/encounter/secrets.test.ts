// Secrets through every road (DESIGN law 5): random encounter sessions with
// hidden combatants (ids and names carry a canary), conditions anchored to
// their turns, undo and redo; no player or spectator view (world, log,
// history, labels) may ever contain the canary. Also: replay rebuilds the table.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command, Json, Viewer } from '../../src/core/types.js';
import { seededRng } from '../../src/dice/rng.js';
import { BANDS, bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { BANDS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import type { ConditionDef, EncounterRules } from '../../src/encounter/types.js';
import { Table } from './harness.js';

// Not something a random id (12 letters a-z) can spell by chance: 'zq' alone once turned up inside a condition id.
const CANARY = 'zq_canary';
const DEFS: ConditionDef[] = [
  { id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: { 'attack.advantage': -1 } },
  { id: 'slowed', name: 'Slowed', stacking: 'stack', effects: { 'movement.penalty': 1 }, effectsScaleWithStacks: true, fleeting: true },
  { id: 'helpless', name: 'Helpless', stacking: 'refresh', effects: {}, incapacitates: true },
];
const rules: EncounterRules = {
  sequencer: bandsSequencer(),
  economy: BANDS_ECONOMY,
  conditions: DEFS,
  saveRoll: (_w, _i, rng) => ({ success: rng.die(20) >= 11, roll: null }),
};

const visibleIds = ['ana', 'bel', 'orc'];
const secretIds = [`${CANARY}-lurk`, `${CANARY}-spy`];
const allIds = [...visibleIds, 'shade', ...secretIds];
const viewers: Viewer[] = [{ role: 'player', seatId: 's1' }, { role: 'spectator' }];

const band = fc.constantFrom(...BANDS);
const duration = fc.oneof(
  fc.constant<Json>({ kind: 'encounterEnd' }),
  fc.integer({ min: 1, max: 3 }).map((rounds): Json => ({ kind: 'rounds', rounds })),
  fc.record({ kind: fc.constantFrom('turnStart', 'turnEnd'), of: fc.constantFrom(...allIds) }).map((d): Json => d),
  fc.constant<Json>({ kind: 'saveEnds' }),
);
type Step = { command: Command; actor: Viewer } | { pick: true };
const gm: Viewer = { role: 'gm' };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Step>({ command: { type: 'encounter.endTurn' }, actor: gm }) },
  { weight: 3, arbitrary: fc.constant<Step>({ pick: true }) },
  { weight: 1, arbitrary: fc.constant<Step>({ command: { type: 'encounter.endTurn' }, actor: { role: 'player', seatId: 's1' } }) },
  {
    weight: 3,
    arbitrary: fc
      .record({ target: fc.constantFrom(...allIds), condition: fc.constantFrom('dazed', 'slowed', 'helpless'), duration, source: fc.constantFrom<Json>(null, ...allIds) })
      .map((c): Step => ({ command: { type: 'condition.apply', ...c }, actor: gm })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...allIds).map((id): Step => ({ command: { type: 'encounter.spend', combatant: id, kind: 'standard' }, actor: gm })) },
  { weight: 1, arbitrary: band.map((b): Step => ({ command: { type: 'encounter.add', combatant: { id: `${CANARY}-spy`, name: `${CANARY} the spy`, kind: 'npc', band: b, visibility: 'hidden' } }, actor: gm })) },
  { weight: 1, arbitrary: fc.constantFrom(...allIds).map((id): Step => ({ command: { type: 'encounter.remove', id }, actor: gm })) },
  { weight: 1, arbitrary: fc.record({ id: fc.constantFrom(...visibleIds), to: fc.constantFrom('encounter.hide', 'encounter.reveal', 'encounter.obscure') }).map(({ id, to }): Step => ({ command: { type: to, id }, actor: gm })) },
  { weight: 1, arbitrary: fc.record({ id: fc.constantFrom(...allIds), value: fc.boolean() }).map((c): Step => ({ command: { type: 'encounter.setIncapacitated', ...c }, actor: gm })) },
  { weight: 2, arbitrary: fc.constantFrom<Step>({ command: { type: 'history.undo' }, actor: gm }, { command: { type: 'history.redo' }, actor: gm }) },
  { weight: 1, arbitrary: fc.constant<Step>({ command: { type: 'log.note', text: `${CANARY} plans`, audience: { kind: 'gm' } }, actor: gm }) },
);

describe('encounter secrets on every road', () => {
  it('no player or spectator view ever contains a hidden combatant; replay rebuilds the table', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), band, band, fc.integer(), (steps, lurkBand, shadeBand, seed) => {
        const t = new Table([encounterModule(rules)], seededRng(seed));
        t.ok({
          type: 'encounter.start',
          combatants: [
            { id: 'ana', kind: 'pc', band: 'fast', characterId: 'ch-roland' },
            { id: 'bel', kind: 'pc', band: 'medium' },
            { id: 'orc', kind: 'npc', band: 'medium' },
            { id: 'shade', name: 'A shade', kind: 'npc', band: shadeBand, visibility: 'existence' },
            { id: `${CANARY}-lurk`, name: `${CANARY} the lurker`, kind: 'npc', band: lurkBand, visibility: 'hidden' },
          ],
        });
        const check = () => {
          for (const v of viewers) expect(JSON.stringify(t.engine.view(t.table, v)).toLowerCase()).not.toContain(CANARY);
        };
        check();
        for (const s of steps) {
          if ('pick' in s) {
            const p = t.enc.pending;
            if (p !== null) t.run({ type: 'encounter.choose', id: p.default ?? p.options[0] ?? '' });
          } else t.run(s.command, s.actor);
          check();
        }
        expect(JSON.stringify(t.engine.replay(t.table.genesis, t.table.transactions))).toBe(JSON.stringify(t.table));
        expect(JSON.stringify(t.engine.view(t.table, gm))).toContain(CANARY);
      }),
      { numRuns: 120 },
    );
  });
});
