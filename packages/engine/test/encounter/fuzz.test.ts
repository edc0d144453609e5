// Bad input gets a typed error, never a crash: random payloads for every encounter command.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json } from '../../src/core/types.js';
import { seededRng } from '../../src/dice/rng.js';
import { encounterModule } from '../../src/encounter/module.js';
import { bandsEncounter, kleptonomiconEncounter, osrEncounter, teamsEncounter } from '../../src/encounter/systems.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table } from './harness.js';

const systems: EncounterRules[] = [
  { ...osrEncounter(), conditions: [{ id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: {} }] },
  { ...bandsEncounter(), conditions: [] },
  { ...teamsEncounter(), conditions: [] },
  { ...kleptonomiconEncounter({ roll: (rng, o) => ({ score: rng.die(10) + o.modifier }) }), conditions: [] },
];
const types = Object.keys(encounterModule(systems[0]!).commands!);

const arbJson: fc.Arbitrary<Json> = fc.letrec<{ j: Json }>((tie) => ({
  j: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -5, max: 20 }),
    fc.double(),
    fc.constantFrom('a', 'c0', 'c1', 'pcs', 'npcs', 'fast', 'slow', 'turnEnd', 'saveEnds', 'standard', 'action', 'beats', 'short', ''),
    fc.array(tie('j'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('id', 'kind', 'band', 'score', 'team', 'side', 'of', 'rounds', 'stats', 'dex', 'group', 'groups', 'teamOrder', 'actors'), tie('j'), { maxKeys: 4 }),
  ),
})).j;

describe('encounter commands never crash on bad input', () => {
  it('random payloads return a typed error or a valid transaction', () => {
    fc.assert(
      fc.property(
        fc.nat(3),
        fc.array(fc.record({ type: fc.constantFrom(...types), fields: fc.dictionary(fc.constantFrom('id', 'characterId', 'beforeId', 'conditionId', 'targetId', 'combatant', 'combatants', 'kind', 'to', 'placement', 'params', 'surprise', 'target', 'condition', 'duration', 'stacks', 'cost', 'pool', 'n', 'offset', 'value', 'rest', 'before', 'action', 'trigger', 'tag', 'limit', 'label', 'suppressed'), arbJson, { maxKeys: 5 }) }), { maxLength: 25 }),
        (sys, cmds) => {
          const t = new Table([encounterModule(systems[sys]!)], seededRng(sys));
          t.ok({ type: 'encounter.start', combatants: [{ id: 'c0', kind: 'pc', band: 'fast', stats: { dex: 12 } }, { id: 'c1', kind: 'npc', band: 'slow', stats: { dex: 10 } }, { id: 'c2', kind: 'npc', band: 'slow', stats: { dex: 9, creatureType: 'x' } }], params: { teamOrder: ['pcs', 'npcs'] } });
          for (const c of cmds) {
            const err = t.run({ ...c.fields, type: c.type });
            if (err !== null) {
              expect(typeof err.code).toBe('string');
              expect(err.message.length).toBeGreaterThan(0);
            }
            expect(JSON.parse(JSON.stringify(t.world))).toEqual(t.world);
          }
        },
      ),
      { numRuns: 300 },
    );
    // 300 sessions of up to 25 commands: ~25 s on a loaded 2-core machine, so the hang guard sits well above the default.
  }, 120_000);
});
