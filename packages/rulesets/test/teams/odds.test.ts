// Exact odds: recomputed by hand and by exhaustive enumeration (no sampling).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { attackOdds, hitOdds, testChance } from '../../src/teams/odds.js';
import { boudica, enemy, table, characters } from './helpers.js';

/** Every face of every die: the exact chance the attack hits (crit or result >= evasion), not astray. */
function enumerate(a: number, s: number, bonus: number, adv: number, evasion: number, threshold: number, astrayAt: number | null): { hit: number; astray: number } {
  let hit = 0;
  let astray = 0;
  const sets: number[] = [];
  for (let x = 1; x <= a; x++) for (let y = 1; y <= s; y++) sets.push(x + y);
  // Distribution of the kept total over 1 + |adv| independent sets.
  const n = 1 + Math.abs(adv);
  let dist = new Map<number, number>();
  const p1 = 1 / sets.length;
  for (const v of sets) dist.set(v, (dist.get(v) ?? 0) + p1);
  let acc = dist;
  for (let k = 1; k < n; k++) {
    const next = new Map<number, number>();
    for (const [u, pu] of acc) for (const [v, pv] of dist) {
      const kept = adv > 0 ? Math.max(u, v) : Math.min(u, v);
      next.set(kept, (next.get(kept) ?? 0) + pu * pv);
    }
    acc = next;
  }
  dist = acc;
  for (let luck = 1; luck <= 20; luck++) {
    if (astrayAt !== null && luck <= astrayAt) {
      astray += 1 / 20;
      continue;
    }
    if (luck >= threshold) {
      hit += 1 / 20;
      continue;
    }
    for (const [v, p] of dist) if (v + bonus >= evasion) hit += p / 20;
  }
  return { hit, astray };
}

describe('exact hit odds (003 "Attacks")', () => {
  it('Boudica (d6 + d6 + 1) against evasion 6 with the spear\'s 19+ threshold: 0.1 + 0.9 x 30/36 = 0.85', () => {
    const o = hitOdds({ spec: { attributeDie: 6, skillDie: 6, bonus: 1, advantage: 0, luckModifier: 0 }, evasion: 6, criticalThreshold: 19, misdirectAtOrBelow: null });
    expect(o.critical).toBeCloseTo(0.1, 12);
    expect(o.hit).toBeCloseTo(0.85, 12);
    expect(o.miss).toBeCloseTo(0.15, 12);
  });

  it('with advantage (a sneak attack): 0.1 + 0.9 x (1 - (6/36)^2) = 0.975', () => {
    const o = hitOdds({ spec: { attributeDie: 6, skillDie: 6, bonus: 1, advantage: 1, luckModifier: 0 }, evasion: 6, criticalThreshold: 19, misdirectAtOrBelow: null });
    expect(o.hit).toBeCloseTo(0.975, 12);
  });

  it('Agnessa (d6 + d4) shooting at evasion 4 beside an ally: 1/20 astray, 0.05 + 0.9 x 21/24 = 0.8375 hits', () => {
    const o = hitOdds({ spec: { attributeDie: 6, skillDie: 4, bonus: 0, advantage: 0, luckModifier: 0 }, evasion: 4, criticalThreshold: 20, misdirectAtOrBelow: 1 });
    expect(o.astray).toBeCloseTo(0.05, 12);
    expect(o.hit).toBeCloseTo(0.8375, 12);
    expect(o.miss).toBeCloseTo(0.1125, 12);
  });

  it('property: equals exhaustive enumeration of every face', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(4, 6, 8),
        fc.constantFrom(4, 6, 8, 10),
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 21 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        (a, s, bonus, adv, evasion, threshold, ranged, astrayAt) => {
          const o = hitOdds({ spec: { attributeDie: a, skillDie: s, bonus, advantage: adv, luckModifier: 0 }, evasion, criticalThreshold: threshold, misdirectAtOrBelow: ranged ? astrayAt : null });
          const e = enumerate(a, s, bonus, adv, evasion, threshold, ranged ? astrayAt : null);
          return Math.abs(o.hit - e.hit) < 1e-12 && Math.abs(o.astray - e.astray) < 1e-12;
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads the table: Boudica\'s attack on the enemy as it would be made now', () => {
    const { s } = table();
    const id = characters(s, { boudica, foe: enemy() }, ['foe']);
    const o = attackOdds(s.world, { attacker: id.boudica, target: id.foe, weapon: 'spear', attribute: 'strength', sneak: false, flank: false, nearby: [], bonus: 0, await: false });
    expect('hit' in o && o.hit).toBeCloseTo(0.85, 12);
    const bad = attackOdds(s.world, { attacker: id.boudica, target: 'nobody', weapon: 'spear', sneak: false, flank: false, nearby: [], bonus: 0, await: false });
    expect('code' in bad && bad.code).toBe('NOT_FOUND');
  });

  it('an ordinary test with the luck bonus: Boudica\'s fortify (d6 + d4 + 1) against 5 is 0.95 x 21/24 + 0.05 = 0.88125', () => {
    const { s } = table();
    expect(testChance(s.world, { attributeDie: 6, skillDie: 4, bonus: 1, advantage: 0, luckModifier: 0 }, 5)).toBeCloseTo(0.88125, 12);
    const { s: noBonus } = table({ 'teams.luckBonus': 0 });
    expect(testChance(noBonus.world, { attributeDie: 6, skillDie: 4, bonus: 1, advantage: 0, luckModifier: 0 }, 5)).toBeCloseTo(21 / 24, 12);
  });
});

