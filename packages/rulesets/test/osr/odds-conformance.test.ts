// Exact odds (via the engine's Pmf), the encounter conformance check, and
// fuzzing: random payloads never crash, only typed errors.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encounterConformance, genesisWorld, seededRng, type Json } from '@tablekeeper/engine';
import { attackOdds, checkChance, lootDistribution, naturalDistribution } from '../../src/osr/odds.js';
import { osrKit, osrModule } from '../../src/osr/module.js';
import { attackOddsAt, characterStatus, checkOddsAt } from '../../src/osr/queries.js';
import { osrTable } from './helpers.js';

describe('exact odds', () => {
  it('a straight d20 needing 11: 1/2; with advantage 1 - (1/2)^2 = 3/4; with disadvantage 1/4', () => {
    expect(checkChance(0, 11, 0)).toBeCloseTo(0.5, 12);
    expect(checkChance(0, 11, 1)).toBeCloseTo(0.75, 12);
    expect(checkChance(0, 11, -1)).toBeCloseTo(0.25, 12);
  });
  it('+5 vs AC 15 with advantage: hit 1 - (9/20)^2 = 0.7975, crit 1 - (19/20)^2 = 0.0975', () => {
    const o = attackOdds(5, 15, 1, { count: 1, sides: 8, bonus: 3 });
    expect(o.hit).toBeCloseTo(0.7975, 12);
    expect(o.crit).toBeCloseTo(0.0975, 12);
    // 1d8+3 averages 7.5: (0.7975 - 0.0975) x 7.5 + 0.0975 x 15
    expect(o.expectedDamage).toBeCloseTo(0.7 * 7.5 + 0.0975 * 15, 12);
  });
  it('an AC out of reach is hit only by a natural 20 (setting natural20AlwaysHits)', () => {
    expect(attackOdds(0, 30, 0, { count: 1, sides: 6, bonus: 0 }).hit).toBeCloseTo(1 / 20, 12);
    expect(checkChance(0, 30, 0)).toBe(0);
    expect(checkChance(30, 10, 0, { natural1Fails: true })).toBeCloseTo(19 / 20, 12);
  });
  it('damage clamps at 0 before averaging: 1d4-3 averages (0+0+0+1)/4', () => {
    expect(attackOdds(100, 0, 0, { count: 1, sides: 4, bonus: -3 }).expectedDamage).toBeCloseTo((19 / 20) * 0.25 + (1 / 20) * 0.5, 12);
  });
  it('the kept d20 under advantage sums to 1; loot of 2 HD averages 21 gp', () => {
    const adv = naturalDistribution(1);
    let total = 0;
    for (let n = 1; n <= 20; n++) total += adv.probability(n);
    expect(total).toBeCloseTo(1, 12);
    expect(adv.probability(20)).toBeCloseTo(39 / 400, 12);
    expect(lootDistribution(2).mean).toBeCloseTo(21, 12);
  });
  it('+9 vs AC 10 hits on every natural (1 + 9 = 10): exactly 1, not the 1.0000000000000002 twenty twentieths add up to (the catalogue property found it)', () => {
    expect(checkChance(9, 10, 0)).toBe(1);
    expect(checkChance(9, 10, 1)).toBe(1);
    expect(checkChance(9, 10, -1)).toBe(1);
    expect(attackOdds(9, 10, 0, { count: 1, sides: 6, bonus: 0 }).hit).toBe(1);
    // With natural1AlwaysMisses the same attack is 19/20.
    expect(checkChance(9, 10, 0, { natural1Fails: true })).toBeCloseTo(19 / 20, 12);
  });
  it('every chance is a probability, in [0, 1], for any modifier, DC, advantage and setting (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -10, max: 40 }), fc.constantFrom(-1 as const, 0 as const, 1 as const), fc.boolean(), fc.boolean(), (m, dc, adv, n20, n1) => {
        const o = { natural20Succeeds: n20, natural1Fails: n1 };
        const p = checkChance(m, dc, adv, o);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        const a = attackOdds(m, dc, adv, { count: 1, sides: 6, bonus: 0 }, o);
        expect(a.hit).toBeLessThanOrEqual(1);
        expect(a.crit).toBeLessThanOrEqual(a.hit + 1e-12);
      }),
      { numRuns: 300 },
    );
  });
  it('advantage never lowers the chance (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -10, max: 10 }), fc.integer({ min: 1, max: 30 }), (m, dc) => {
      expect(checkChance(m, dc, 1)).toBeGreaterThanOrEqual(checkChance(m, dc, 0) - 1e-12);
      expect(checkChance(m, dc, 0)).toBeGreaterThanOrEqual(checkChance(m, dc, -1) - 1e-12);
    }));
  });
});

describe('encounter conformance (ADR 5)', () => {
  it('the OSR rules pass the kernel\'s conformance check', () => {
    const genesis = genesisWorld({ tableId: 't', name: 'c', rulesetId: 'osr' });
    const problems = encounterConformance({
      rules: osrKit.rules,
      modules: [osrModule],
      genesis,
      combatants: [
        { id: 'a', kind: 'pc', stats: { dex: 14 } },
        { id: 'b', kind: 'npc', stats: { dex: 12 } },
        { id: 'c', kind: 'npc', stats: { dex: 9 }, visibility: 'hidden' },
      ],
      rng: seededRng(1),
    });
    expect(problems).toEqual([]);
  });
});

const TYPES = Object.keys(osrModule.commands ?? {});

describe('fuzz: every osr command with random payloads gives a typed error or succeeds; never crashes', () => {
  it('property', () => {
    const json: fc.Arbitrary<Json> = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom('melee', 'dex', '2d6+1', 'ch-1', 'ch-2', 'torch', 'darkness', 'safe'), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), fc.dictionary(fc.constantFrom('character', 'target', 'attacker', 'dc', 'ability', 'amount', 'damage', 'kind', 'level', 'stages', 'characters', 'nights', 'dice', 'path', 'speed', 'gp', 'item', 'value', 'hd', 'id', 'combatant', 'stats', 'load'), json), (type, payload) => {
        const t = osrTable();
        t.add('One', { maxHp: 6 });
        t.add('Two', { maxHp: 6 }, 'npc');
        const r = t.s.engine.execute(t.s.table, { ...payload, type }, { rng: seededRng(3), actor: { role: 'gm' } });
        if (!r.ok) {
          expect(typeof r.error.code).toBe('string');
          expect(r.error.code).not.toBe('INTERNAL');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('queries as the table stands', () => {
  it('attack odds use the same load, light and proficiency as the attack command', () => {
    const t = osrTable();
    const pc = t.add('PC', { str: 14, level: 1, maxHp: 8 });
    const orc = t.add('Orc', { ac: 15 }, 'npc');
    // +2 STR +2 proficiency vs AC 15: natural 11+ hits, 10/20.
    expect(attackOddsAt(t.world, { attacker: pc, target: orc, proficient: true })).toMatchObject({ modifier: 4, ac: 15, advantage: 0 });
    expect(attackOddsAt(t.world, { attacker: pc, target: orc, proficient: true }).hit).toBeCloseTo(0.5, 12);
    t.run({ type: 'osr.setLight', level: 'darkness' });
    const dark = attackOddsAt(t.world, { attacker: pc, target: orc, proficient: true });
    expect(dark.advantage).toBe(-1);
    expect(dark.hit).toBeCloseTo(0.25, 12);
    expect(checkOddsAt(t.world, pc, { modifier: 0, dc: 5, tags: ['sight'] })).toBe(0);
  });
  it('character status: speed after load, resilience hours, the death timer', () => {
    const t = osrTable();
    const pc = t.add('PC', { str: 10, load: 12, con: 9, maxHp: 4 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 11 * 3600 });
    t.run({ type: 'osr.damage', target: pc, amount: 9 });
    expect(characterStatus(t.world, pc)).toMatchObject({
      speed: 20,
      overloaded: 2,
      resilience: { hours: 11, limit: 9, dc: 12 },
      dying: { downAt: 11 * 3600, deadAfter: 11 * 3600 + 60, untilFightEnds: false },
      proficiency: 2,
    });
    expect(characterStatus(t.world, 'nobody')).toBeNull();
  });
});

describe('replay and undo over random play (property)', () => {
  it('HP stays in bounds; replaying the transactions rebuilds the live world; undoing everything returns to the start', () => {
    const command = fc.oneof(
      fc.record({ type: fc.constant('osr.check'), character: fc.constantFrom('ch-1', 'ch-2'), dc: fc.integer({ min: 5, max: 20 }), damageOnFail: fc.constantFrom('1d6', '2d4', 0) }),
      fc.record({ type: fc.constant('osr.attack'), attacker: fc.constantFrom('ch-1', 'ch-2'), target: fc.constantFrom('ch-1', 'ch-2'), damage: fc.constantFrom('1d8', '2d6+2') }),
      fc.record({ type: fc.constant('osr.damage'), target: fc.constantFrom('ch-1', 'ch-2'), amount: fc.integer({ min: 1, max: 12 }) }),
      fc.record({ type: fc.constant('osr.stabilize'), target: fc.constantFrom('ch-1', 'ch-2'), method: fc.constant('spell') }),
      fc.record({ type: fc.constant('osr.travelTurn'), approach: fc.constantFrom('cautious', 'normal', 'careless') }),
      fc.record({ type: fc.constant('osr.lightSource'), kind: fc.constantFrom('torch', 'lantern') }),
      fc.record({ type: fc.constant('clock.advance'), unit: fc.constant('time'), seconds: fc.integer({ min: 1, max: 4 * 3600 }) }),
      fc.record({ type: fc.constant('osr.rest'), kind: fc.constantFrom('safe', 'unsafe') }),
      fc.record({ type: fc.constant('osr.expose'), character: fc.constantFrom('ch-1', 'ch-2'), stages: fc.constant([{ hours: 1, ability: 'con' }]) }),
      fc.record({ type: fc.constant('osr.scene') }),
      fc.record({ type: fc.constant('osr.rollToReturn'), path: fc.constantFrom('dangerous', 'arduous') }),
    );
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 12 }), (cmds) => {
        const t = osrTable();
        t.add('One', { maxHp: 6, con: 8, load: 3 });
        t.add('Two', { maxHp: 5 }, 'npc');
        const start = JSON.stringify(t.world);
        let ran = 0;
        for (const c of cmds) {
          const r = t.s.engine.execute(t.s.table, c as never, { rng: t.s.rng, actor: { role: 'gm' } });
          if (r.ok) {
            t.s.table = r.value.table;
            ran++;
          } else expect(r.error.code).not.toBe('INTERNAL');
          // Invariants after every step: HP within 0..max; the dying are at 0 HP; nobody is both dead and dying.
          for (const ch of Object.values(t.world.characters)) {
            const hp = Number(ch.stats['hp'] ?? ch.stats['maxHp']);
            expect(hp).toBeGreaterThanOrEqual(0);
            expect(hp).toBeLessThanOrEqual(Number(ch.stats['maxHp']));
            if (t.osr.dying[ch.id] !== undefined) expect(hp).toBe(0);
            expect(t.osr.dead.includes(ch.id) && t.osr.dying[ch.id] !== undefined).toBe(false);
          }
        }
        const replayed = t.s.engine.replay(t.s.table.genesis, t.s.table.transactions);
        expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(t.world));
        for (let i = 0; i < ran; i++) t.s.undo();
        expect(JSON.stringify(t.world)).toBe(start);
      }),
      { numRuns: 100 },
    );
  });
});
