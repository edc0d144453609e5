// 002 "Attacks" and the rules README's Advantage as counts: pure resolution and exact odds.
import { fixedRng, seededRng } from '@tablekeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attackOdds, resolveAttack } from '../../src/36th-way/attack.js';
import { rollOdds } from '../../src/36th-way/odds.js';
import { clampNet, naturalDistribution, roll3d6 } from '../../src/36th-way/roll.js';

const settings = (s: Record<string, unknown>) => ({ settings: s }) as never;

describe('resolveAttack (002 "Attacks")', () => {
  const base = { bonus: 5, defense: 16, critAt: 17 };
  it('meets or beats the defense to hit', () => {
    expect(resolveAttack(null, { ...base, natural: 11 })).toEqual({ total: 16, hit: true, crit: false, critFail: false });
    expect(resolveAttack(null, { ...base, natural: 10 })).toEqual({ total: 15, hit: false, crit: false, critFail: false });
  });
  it('natural 17+ crits, and by default a crit hits whatever the defense', () => {
    expect(resolveAttack(null, { ...base, natural: 17, defense: 40 })).toMatchObject({ hit: true, crit: true });
    expect(resolveAttack(settings({ '36th-way.critAlwaysHits': false }), { ...base, natural: 17, defense: 40 })).toMatchObject({ hit: false, crit: false });
  });
  it('natural 3 is a Crit Fail and misses even when the total would hit', () => {
    expect(resolveAttack(null, { ...base, natural: 3, defense: 5 })).toEqual({ total: 8, hit: false, crit: false, critFail: true });
    expect(resolveAttack(settings({ '36th-way.critFailAlwaysMisses': false }), { ...base, natural: 3, defense: 5 })).toMatchObject({ hit: true, critFail: true });
  });
  it('a lowered crit threshold (Weak / Vulnerable) crits on 16 or 15', () => {
    expect(resolveAttack(null, { ...base, natural: 16, critAt: 16 }).crit).toBe(true);
    expect(resolveAttack(null, { ...base, natural: 15, critAt: 16 }).crit).toBe(false);
    expect(resolveAttack(null, { ...base, natural: 15, critAt: 15 }).crit).toBe(true);
  });
  it('coup de grace crits whatever is rolled', () => {
    expect(resolveAttack(null, { ...base, natural: 3, autoCrit: true })).toMatchObject({ hit: true, crit: true, critFail: false });
  });
});

describe('3d6 with Advantage counts (rules README)', () => {
  it('N Advantage rolls 3+N dice and keeps the highest three', () => {
    const r = roll3d6(fixedRng([1, 6, 2, 6]), null, 1);
    expect(r.dice).toEqual([1, 6, 2, 6]);
    expect(r.kept).toEqual([2, 6, 6]);
    expect(r.natural).toBe(14);
  });
  it('N Disadvantage keeps the lowest three (Weakened + Dazed = 2 Disadvantage: five dice)', () => {
    const r = roll3d6(fixedRng([6, 5, 1, 6, 2]), null, -2);
    expect(r.kept).toEqual([1, 2, 5]);
    expect(r.natural).toBe(8);
  });
  it('net Advantage is capped by a named setting', () => {
    expect(clampNet(null, 9)).toBe(6);
    expect(clampNet(null, -9)).toBe(-6);
    expect(clampNet(settings({ '36th-way.maxNetAdvantage': 2 }), 5)).toBe(2);
    expect(roll3d6(seededRng(1), settings({ '36th-way.maxNetAdvantage': 2 }), 5).dice).toHaveLength(5);
  });
});

describe('exact odds', () => {
  it('straight 3d6: P(crit) = 4/216, P(crit fail) = 1/216, P(natural >= 11) = 1/2', () => {
    const dist = naturalDistribution(0);
    expect(dist.get(18)).toBeCloseTo(1 / 216, 15);
    expect(dist.get(17)).toBeCloseTo(3 / 216, 15);
    expect(dist.get(3)).toBeCloseTo(1 / 216, 15);
    const odds = attackOdds(null, dist, { bonus: 5, defense: 16, critAt: 17 });
    expect(odds.hit).toBeCloseTo(108 / 216, 12);
    expect(odds.crit).toBeCloseTo(4 / 216, 12);
    expect(odds.critFail).toBeCloseTo(1 / 216, 12);
    expect(odds.hit + odds.miss).toBeCloseTo(1, 12);
  });
  it('one Advantage: P(18) = P(at least three sixes in 4d6) = 21/1296', () => {
    expect(naturalDistribution(1).get(18)).toBeCloseTo(21 / 1296, 15);
    // one Disadvantage: P(3) = P(at least three ones) = 21/1296
    expect(naturalDistribution(-1).get(3)).toBeCloseTo(21 / 1296, 15);
  });
  it('Vulnerable (crit 16+) on a straight roll: 10/216', () => {
    const odds = attackOdds(null, naturalDistribution(0), { bonus: 0, defense: 30, critAt: 16 });
    expect(odds.crit).toBeCloseTo(10 / 216, 12);
    expect(odds.hit).toBeCloseTo(10 / 216, 12); // only crits hit AC 30
  });
  it('matches a brute-force enumeration of every ordered outcome (up to two Advantage or Disadvantage)', () => {
    for (const net of [-2, -1, 0, 1, 2]) {
      const k = 3 + Math.abs(net);
      const counts = new Map<number, number>();
      for (let code = 0; code < 6 ** k; code++) {
        const dice: number[] = [];
        for (let i = 0, c = code; i < k; i++, c = Math.floor(c / 6)) dice.push((c % 6) + 1);
        dice.sort((a, b) => a - b);
        const kept = net >= 0 ? dice.slice(k - 3) : dice.slice(0, 3);
        const s = kept[0]! + kept[1]! + kept[2]!;
        counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      const d = naturalDistribution(net);
      for (let s = 3; s <= 18; s++) expect(d.get(s)).toBeCloseTo((counts.get(s) ?? 0) / 6 ** k, 14);
    }
  });
  it('distributions sum to 1 and more Advantage never lowers the hit chance', () => {
    fc.assert(
      fc.property(fc.integer({ min: -6, max: 5 }), fc.integer({ min: -5, max: 15 }), fc.integer({ min: 5, max: 30 }), (net, bonus, defense) => {
        const d = naturalDistribution(net);
        let sum = 0;
        for (const p of d.values()) sum += p;
        expect(sum).toBeCloseTo(1, 12);
        const lo = attackOdds(null, d, { bonus, defense, critAt: 17 });
        const hi = attackOdds(null, naturalDistribution(net + 1), { bonus, defense, critAt: 17 });
        expect(hi.hit).toBeGreaterThanOrEqual(lo.hit - 1e-12);
      }),
    );
  });
});

describe('odds of saves, recharges and disengaging', () => {
  it('counts 3d6 outcomes exactly', () => {
    expect(rollOdds(0, 11)).toBeCloseTo(108 / 216, 12); // an 11+ save
    expect(rollOdds(0, 13)).toBeCloseTo(56 / 216, 12); // a death save
    expect(rollOdds(0, 9)).toBeCloseTo(160 / 216, 12); // recharge 9+
    expect(rollOdds(0, 12)).toBeCloseTo(81 / 216, 12); // disengaging from two enemies
    expect(rollOdds(0, 11, 2)).toBeCloseTo(rollOdds(0, 9), 12); // Rally at escalation 2
    expect(rollOdds(-2, 13)).toBeLessThan(rollOdds(0, 13)); // the first death save after a crit
  });
});
