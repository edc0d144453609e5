// Invariants over random fights: undo restores the world before each command,
// redo re-applies it exactly, replay equals live, HP never exceed the maximum,
// recoveries never go negative, and no pool of actions is overdrawn.
import { economyRemaining, getEncounter, scenario, seededRng, type Command, type Json } from '@tablekeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heal } from '../../src/36th-way/health.js';
import { ruleset, tsw } from '../../src/36th-way/index.js';
import { getTsw, parseSheet } from '../../src/36th-way/state.js';
import { ANN, ORC } from './setup.js';

const OPS: readonly ((who: string, other: string) => Command)[] = [
  (who, other) => ({ type: '36th-way.attack', attacker: who, targets: [other], basic: 'melee' }),
  (who, other) => ({ type: '36th-way.attack', attacker: who, targets: [other], ability: 'blast', types: ['fire'], damage: { count: 6, sides: 6, bonus: 0 }, mode: { kind: 'average', averaged: 4 } }),
  (who) => ({ type: '36th-way.heal', id: who }),
  (who) => ({ type: '36th-way.rally', who }),
  (who) => ({ type: '36th-way.disengage', who }),
  (who, other) => ({ type: '36th-way.move', who, to: other, range: 'engaged' }),
  (who) => ({ type: '36th-way.stance', who, stance: 'ranged' }),
  (who) => ({ type: '36th-way.stance', who, stance: 'melee' }),
  (who) => ({ type: 'condition.apply', target: who, condition: 'ongoing', duration: { kind: 'saveEnds' }, params: { amount: 4, type: 'fire' } }),
  (who) => ({ type: 'condition.apply', target: who, condition: 'dazed', duration: { kind: 'saveEnds' } }),
  () => ({ type: 'encounter.endTurn' }),
  () => ({ type: 'encounter.endTurn' }),
  () => ({ type: 'encounter.choose' }),
];

describe('properties of random fights', () => {
  it('undo, redo, replay and bounds hold after every command', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.array(fc.tuple(fc.integer({ min: 0, max: OPS.length - 1 }), fc.boolean()), { minLength: 1, maxLength: 25 }), (seed, plan) => {
        const s = scenario(ruleset.modules, { rng: seededRng(seed), rulesetId: '36th-way' });
        const blast = [{ id: 'blast', frequency: { kind: 'recharge', target: 11 }, action: 'standard', types: ['ranged', 'spell'] }];
        s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, maxHp: 24, abilities: blast } as unknown as Json });
        s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, resist: { fire: 13 }, abilities: blast } as unknown as Json });
        s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', side: 'party', band: 'fast' }, { id: 'orc', kind: 'npc', side: 'foes', band: 'medium' }] });
        s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' });
        for (const [i, annActs] of plan) {
          const cur = getEncounter(s.world).current;
          const who = cur ?? (annActs ? 'ann' : 'orc');
          const other = who === 'ann' ? 'orc' : 'ann';
          const before = s.table.world;
          const r = s.engine.execute(s.table, OPS[i]!(who, other), { rng: s.rng, actor: { role: 'gm' } });
          if (!r.ok) {
            expect(r.error.code).not.toBe('INTERNAL');
            continue;
          }
          s.table = r.value.table;
          const after = s.table.world;
          s.undo();
          expect(s.table.world.ext).toEqual(before.ext);
          expect(s.table.world.clock).toEqual(before.clock);
          s.redo();
          expect(s.table.world.ext).toEqual(after.ext);
          for (const sh of Object.values(getTsw(s.world).sheets)) {
            expect(sh.hp).toBeLessThanOrEqual(sh.maxHp);
            expect(sh.recoveries).toBeGreaterThanOrEqual(0);
          }
          for (const id of ['ann', 'orc']) {
            const e = tsw.kit.economy(s.world, id);
            for (const pool of ['standard', 'move', 'quick', 'interrupt']) expect(economyRemaining(tsw.kit.rules.economy, e, pool)).toBeGreaterThanOrEqual(0);
          }
        }
        const replayed = s.engine.replay(s.table.genesis, s.table.transactions);
        expect(replayed.world).toEqual(s.table.world);
      }),
      { numRuns: 60 },
    );
  });
  it('healing never exceeds max HP and starts from 0 below it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 40 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), (hp, amount, recoveries, free) => {
        const r = parseSheet({ ...ANN, hp, recoveries } as unknown as Json, null);
        if (!r.ok) return;
        const h = heal(null, r.value, amount, { free });
        expect(h.hp).toBeLessThanOrEqual(r.value.maxHp);
        expect(h.hp).toBeGreaterThanOrEqual(Math.min(r.value.maxHp, Math.max(0, hp)));
        expect(h.hp).toBe(Math.min(r.value.maxHp, Math.max(0, hp) + (h.halved ? Math.floor(amount / 2) : amount)));
      }),
    );
  });
});
