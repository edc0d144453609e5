// Bad input never crashes: random payloads for every teams command give a
// typed error (or a valid result), never an internal error.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRng, type Json } from '@tablekeeper/engine';
import { teamsModule } from '../../src/teams/index.js';
import { boudica, enemy, fight, sheetFor, table } from './helpers.js';

const fields = ['id', 'attacker', 'target', 'weapon', 'attack', 'by', 'combatant', 'action', 'reaction', 'item', 'items', 'test', 'difficulty', 'amount', 'damageType', 'field', 'value', 'sheet', 'nearby', 'sneak', 'fortify', 'readiedAction', 'trigger', 'commanded', 'readied', 'bonus'];
const names = ['boudica', 'foe', 'nobody', 'spear', 'shield', 'Guard', 'Command', 'Resuscitate', 'block', 'parry', 'dodge', 'strength', 'attack-1'];

describe('fuzz: every teams command', () => {
  it('answers random payloads with results or typed errors', () => {
    const types = Object.keys(teamsModule.commands ?? {});
    const value: fc.Arbitrary<Json> = fc.oneof(
      fc.constantFrom<Json>(...names),
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.constantFrom<Json>(...names), { maxLength: 3 }),
      fc.record({ attribute: fc.constantFrom('strength', 'x'), skill: fc.constantFrom('combat', 'athletics', 'y') }) as fc.Arbitrary<Json>,
      fc.jsonValue() as fc.Arbitrary<Json>,
    );
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 }), fc.integer({ min: 1, max: 1e6 }), (type, payload, seed) => {
        const { s } = table();
        sheetFor(s, 'boudica', boudica);
        sheetFor(s, 'foe', enemy());
        fight(s, ['boudica'], ['foe'], 'boudica');
        const r = s.engine.execute(s.table, { ...payload, type }, { rng: seededRng(seed), actor: { role: 'gm' } });
        if (!r.ok) expect(r.error.code).not.toBe('INTERNAL');
        return true;
      }),
      { numRuns: 400 },
    );
  });
});
