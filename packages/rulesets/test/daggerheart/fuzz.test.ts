// Random payloads for every Daggerheart command: a typed error or a valid
// transaction, never a crash; Hope and Fear stay in range.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json } from '@tablekeeper/engine';
import { daggerheartModule, daggerheartSettings } from '../../src/daggerheart/index.js';
import { DhTable, GM, player } from './helpers.js';

const KEYS = ['characterId', 'helperId', 'targetId', 'modifier', 'difficulty', 'advantage', 'reaction', 'label', 'amount', 'reason',
  // issue 21: requests, trackers, adversaries, rests, the spotlight
  'requestId', 'trait', 'hidden', 'experience', 'experienceBonus', 'useExperience', 'track', 'useArmor', 'name', 'count', 'major', 'severe', 'hp', 'stress', 'attack', 'damage', 'moves', 'visibility', 'rest', 'combatantId'];
const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: -40, max: 70 }), fc.constantFrom('ch-3', 'ch-4', 'ch-5', 'nobody', 'req-6', 'req-7', 'hp', 'stress', 'armor', 'short', 'long', 'agility'), fc.constant([{ characterId: 'ch-3', move: 'tendWounds' }, { name: 'm', countdown: { start: 2, repeat: 'loop' } }] as Json));

describe('Daggerheart commands under random input', () => {
  it('return ok or a typed error (never INTERNAL)', () => {
    const types = Object.keys(daggerheartModule.commands ?? {});
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...types), fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }), fc.boolean()), { maxLength: 15 }), (steps) => {
        const t = new DhTable();
        const s = t.seat('A');
        t.pc('A', s);
        t.pc('B', null);
        t.run({ type: 'character.add', name: 'npc', kind: 'npc' });
        for (const [type, p, asGm] of steps) {
          const r = t.try({ ...(p as { [k: string]: Json }), type }, asGm ? GM : player(s));
          if (!r.ok) expect(r.error.code).not.toBe('INTERNAL');
          const set = daggerheartSettings(t.world);
          expect(t.fear).toBeGreaterThanOrEqual(0);
          expect(t.fear).toBeLessThanOrEqual(set.fearMax);
        }
      }),
      { numRuns: 100 },
    );
  });
});
