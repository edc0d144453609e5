// Bad input never crashes: random payloads for every countdown command give
// a typed error (never INTERNAL) or a valid transaction.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countdownsModule, countdownList } from '../../src/countdowns/module.js';
import type { Json, Viewer } from '../../src/core/types.js';
import { GM, PLAYER, table } from './fixtures.js';

const KEYS = ['id', 'linkedTo', 'name', 'kind', 'repeat', 'start', 'startDie', 'rerollOnReset', 'visibility', 'effect', 'finalEffect', 'beats', 'restTicks', 'by', 'value', 'to', 'die', 'lead', 'pcs'];
const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: -5, max: 130 }), fc.constantFrom('cd-2', 'cd-3', 'chase-4', 'loop', 'longTerm', 'hidden', '1d6', 'd20+3'));
const payload = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 });

describe('countdown commands under random input', () => {
  it('return ok or a typed error, never INTERNAL, and keep values in range', () => {
    const types = Object.keys(countdownsModule.commands ?? {});
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...types), payload, fc.boolean()), { maxLength: 20 }), (steps) => {
        const s = table();
        s.run({ type: 'countdown.create', name: 'seed', start: 3 });
        s.run({ type: 'chase.create', name: 'seed chase', die: 6, lead: 3 });
        for (const [type, p, asGm] of steps) {
          const actor: Viewer = asGm ? GM : PLAYER;
          const r = s.engine.execute(s.table, { ...(p as { [k: string]: Json }), type }, { rng: s.rng, actor });
          if (r.ok) s.table = r.value.table;
          else {
            expect(typeof r.error.code).toBe('string');
            expect(r.error.code).not.toBe('INTERNAL');
            expect(r.error.message.length).toBeGreaterThan(0);
          }
          for (const c of countdownList(s.world)) {
            expect(c.value).toBeGreaterThanOrEqual(0);
            expect(c.value).toBeLessThanOrEqual(100);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
