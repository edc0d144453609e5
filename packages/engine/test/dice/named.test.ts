import { describe, expect, it } from 'vitest';
import {
  DiceError, d20Distribution, dualityOutcomeDistribution, fixedRng, kleptoTestDistribution, luckTestProbability, rollD20,
  rollDuality, rollKleptoTest, rollLuckTest, rollTeamTest, rollThreeD6, seededRng, teamTestDistribution, threeD6NaturalDistribution,
  DUALITY_OUTCOMES, dualityTotalDistribution,
} from '../../src/dice/index.js';
import { bruteForce, maxDiff, outcomes, sumOf } from './helpers.js';

const sum = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);

describe('Daggerheart duality roll', () => {
  it('equal dice are a critical success whatever the total', () => {
    const r = rollDuality(fixedRng([1, 1]), { modifier: 0, difficulty: 30 });
    expect(r.outcome).toBe('critical');
    expect(r.critical).toBe(true);
    expect(r.success).toBe(true);
    expect(r.total).toBe(2);
  });

  it('success with Hope, failure with Fear', () => {
    const a = rollDuality(fixedRng([9, 4]), { modifier: 2, difficulty: 15 });
    expect(a).toMatchObject({ hope: 9, fear: 4, total: 15, withHope: true, withFear: false, outcome: 'successWithHope' });
    const b = rollDuality(fixedRng([3, 8]), { modifier: 1, difficulty: 13 });
    expect(b).toMatchObject({ total: 12, withFear: true, outcome: 'failureWithFear' });
  });

  it('advantage adds d6s, disadvantage subtracts them, and every die is recorded', () => {
    const a = rollDuality(fixedRng([5, 6, 4]), { modifier: 0, difficulty: 15, advantage: 1 });
    expect(a).toMatchObject({ advantageDice: [4], advantageSign: 1, total: 15, outcome: 'successWithFear' });
    const d = rollDuality(fixedRng([7, 6, 3, 2]), { modifier: 0, difficulty: 10, advantage: -2 });
    expect(d).toMatchObject({ advantageDice: [3, 2], advantageSign: -1, total: 8, outcome: 'failureWithHope' });
  });

  it('outcome distribution: criticals are 12/144; extreme difficulties split by Hope/Fear', () => {
    const easy = dualityOutcomeDistribution({ modifier: 0, difficulty: 3 });
    expect(easy.critical).toBeCloseTo(1 / 12, 13);
    expect(easy.successWithHope).toBeCloseTo(66 / 144, 13);
    expect(easy.successWithFear).toBeCloseTo(66 / 144, 13);
    expect(easy.failureWithHope).toBe(0);
    const hard = dualityOutcomeDistribution({ modifier: 0, difficulty: 24 });
    expect(hard.failureWithHope).toBeCloseTo(66 / 144, 13);
    expect(hard.successWithHope).toBe(0);
  });

  it('outcome distribution matches enumeration with advantage', () => {
    for (const [modifier, difficulty, advantage] of [[2, 14, 1], [0, 12, -1], [-1, 10, 2], [3, 18, 0]] as const) {
      const n = Math.abs(advantage);
      const exact = dualityOutcomeDistribution({ modifier, difficulty, advantage });
      const brute: Record<string, number> = {};
      for (const [faces, p] of outcomes([12, 12, ...Array<number>(n).fill(6)])) {
        const r = rollDuality(fixedRng(faces), { modifier, difficulty, advantage });
        brute[r.outcome] = (brute[r.outcome] ?? 0) + p;
      }
      for (const o of DUALITY_OUTCOMES) expect(exact[o]).toBeCloseTo(brute[o] ?? 0, 12);
      expect(Math.abs(sum(exact) - 1)).toBeLessThan(1e-12);
    }
  });

  it('total distribution of 2d12 + 1', () => {
    const p = dualityTotalDistribution({ modifier: 1 });
    expect(p.mean).toBeCloseTo(14, 13);
    expect(p.probability(3)).toBeCloseTo(1 / 144, 13);
  });

  it('bad options are DiceErrors', () => {
    expect(() => rollDuality(fixedRng([1, 2]), { difficulty: 1.5 })).toThrow(DiceError);
    expect(() => dualityOutcomeDistribution({ difficulty: 10, advantage: 99 })).toThrow(DiceError);
  });
});

describe('36th Way 3d6', () => {
  it('keeps the highest three with advantage and records all dice', () => {
    const r = rollThreeD6(fixedRng([2, 6, 1, 5]), { advantage: 1 });
    expect(r.natural).toBe(13);
    expect(r.dice).toEqual([{ value: 2, kept: true }, { value: 6, kept: true }, { value: 1, kept: false }, { value: 5, kept: true }]);
  });

  it('keeps the lowest three with disadvantage (Weakened + Dazed = 2)', () => {
    const r = rollThreeD6(fixedRng([6, 6, 1, 5, 2]), { advantage: -2 });
    expect(r.natural).toBe(8);
    expect(r.dice.filter((d) => d.kept)).toHaveLength(3);
  });

  it('natural distributions match enumeration; 17+ crit chance without advantage is 4/216', () => {
    expect(threeD6NaturalDistribution(0).atLeast(17)).toBeCloseTo(4 / 216, 13);
    expect(threeD6NaturalDistribution(0).probability(3)).toBeCloseTo(1 / 216, 13);
    for (const a of [1, 2, -1, -2]) {
      const n = 3 + Math.abs(a);
      const brute = bruteForce(Array<number>(n).fill(6), (f) => rollThreeD6(fixedRng(f), { advantage: a }).natural);
      expect(maxDiff(threeD6NaturalDistribution(a), brute)).toBeLessThan(1e-12);
    }
  });
});

describe('Kleptonomicon Test', () => {
  it('a 10 flips a coin: called right counts 10, wrong counts 0', () => {
    expect(rollKleptoTest(fixedRng([10, 1]), { modifier: 2 })).toMatchObject({ score: 12, critical: 'success', chosen: 0 });
    expect(rollKleptoTest(fixedRng([10, 2]), { modifier: 2 })).toMatchObject({ score: 2, critical: 'failure' });
    expect(rollKleptoTest(fixedRng([7]), { modifier: -1 })).toMatchObject({ score: 6, critical: null });
  });

  it('criticals resolve before the highest die is chosen', () => {
    const r = rollKleptoTest(fixedRng([10, 2, 4]), { modifier: 0, advantage: 1 });
    expect(r.dice).toHaveLength(2);
    expect(r.dice[0]).toMatchObject({ face: 10, value: 0, critical: 'failure', coin: 2 });
    expect(r).toMatchObject({ chosen: 1, score: 4, critical: null });
  });

  it('net advantage is capped at 3 (at most 4 dice)', () => {
    const r = rollKleptoTest(fixedRng([1, 2, 3, 4]), { advantage: 7 });
    expect(r.dice).toHaveLength(4);
    expect(r.advantage).toBe(3);
    expect(r.score).toBe(4);
    const d = rollKleptoTest(fixedRng([5, 2, 3, 4]), { advantage: -5 });
    expect(d.score).toBe(2);
  });

  it('one die reads 0 at 1/20, 10 at 1/20 and 1-9 at 2/20; the Edge Save fails on 6 or lower', () => {
    const p = kleptoTestDistribution({ modifier: 0 });
    expect(p.probability(0)).toBeCloseTo(1 / 20, 13);
    expect(p.probability(10)).toBeCloseTo(1 / 20, 13);
    expect(p.probability(5)).toBeCloseTo(2 / 20, 13);
    expect(p.atMost(6)).toBeCloseTo(13 / 20, 13);
    expect(p.mean).toBeCloseTo(5, 12);
  });

  it('distributions match enumeration of dice and coins', () => {
    for (const advantage of [1, -1, 2, -3]) {
      const n = 1 + Math.abs(advantage);
      // each die as d10 x coin (d2), coin ignored unless face 10
      const sides = Array<number>(n).fill(0).flatMap(() => [10, 2]);
      const brute = bruteForce(sides, (f) => {
        const faces: number[] = [];
        for (let i = 0; i < n; i++) faces.push(f[2 * i]!, ...(f[2 * i] === 10 ? [f[2 * i + 1]!] : []));
        return rollKleptoTest(fixedRng(faces), { modifier: 1, advantage }).score;
      });
      expect(maxDiff(kleptoTestDistribution({ modifier: 1, advantage }), brute)).toBeLessThan(1e-12);
    }
  });
});

describe('team game test', () => {
  it("Boudica's spear attack: strength d6 + combat d6 + martial 1 = 6 (003 Attacks)", () => {
    const r = rollTeamTest(fixedRng([4, 1, 19]), { attributeDie: 6, skillDie: 6, bonus: 1, luckBonus: false });
    expect(r).toMatchObject({ attribute: 4, skill: 1, bonus: 1, luck: 19, luckBonus: 0, total: 6 });
  });

  it('a luck die of 20 adds +4 to an ordinary test, not to an attack', () => {
    expect(rollTeamTest(fixedRng([3, 2, 20]), { attributeDie: 6, skillDie: 8 }).total).toBe(9);
    expect(rollTeamTest(fixedRng([3, 2, 20]), { attributeDie: 6, skillDie: 8, luckBonus: false }).total).toBe(5);
    expect(rollTeamTest(fixedRng([3, 2, 18]), { attributeDie: 6, skillDie: 8, luckModifier: 2 }).luckBonus).toBe(4);
  });

  it('advantage rolls the test dice again and keeps the better total', () => {
    const r = rollTeamTest(fixedRng([1, 2, 5, 4, 7]), { attributeDie: 6, skillDie: 6, advantage: 1 });
    expect(r.sets).toHaveLength(2);
    expect(r).toMatchObject({ chosen: 1, total: 9, luck: 7 });
  });

  it('distribution matches enumeration', () => {
    for (const o of [{ attributeDie: 6, skillDie: 6, bonus: 1 }, { attributeDie: 4, skillDie: 8, advantage: 1 }, { attributeDie: 6, advantage: -1, luckBonus: false }, { attributeDie: 4, skillDie: 4, advantage: 2, luckModifier: 3 }]) {
      const per = o.skillDie ? [o.attributeDie, o.skillDie] : [o.attributeDie];
      const sides = [...Array<number>(1 + Math.abs(o.advantage ?? 0)).fill(0).flatMap(() => per), 20];
      const brute = bruteForce(sides, (f) => rollTeamTest(fixedRng(f), o).total);
      const p = teamTestDistribution(o);
      expect(maxDiff(p, brute)).toBeLessThan(1e-12);
      expect(Math.abs(sumOf(p) - 1)).toBeLessThan(1e-12);
    }
  });

  it('a luck test to cheat death needs 10+ on the d20 (003 Death): 11/20', () => {
    expect(rollLuckTest(fixedRng([1]), 10)).toMatchObject({ luck: 1, success: false });
    expect(rollLuckTest(fixedRng([10]), 10).success).toBe(true);
    expect(luckTestProbability(10)).toBeCloseTo(11 / 20, 13);
    expect(luckTestProbability(15)).toBeCloseTo(6 / 20, 13);
  });
});

describe('OSR d20', () => {
  it('advantage keeps the higher, disadvantage the lower', () => {
    expect(rollD20(fixedRng([7, 15]), { modifier: 2, mode: 'advantage' })).toEqual({ dice: [7, 15], kept: 1, natural: 15, modifier: 2, total: 17 });
    expect(rollD20(fixedRng([7, 15]), { mode: 'disadvantage' })).toMatchObject({ kept: 0, natural: 7, total: 7 });
    expect(rollD20(fixedRng([12]))).toMatchObject({ dice: [12], total: 12 });
  });

  it('distributions: a natural 20 with advantage is 39/400; mean 13.825', () => {
    const a = d20Distribution({ mode: 'advantage' });
    expect(a.probability(20)).toBeCloseTo(39 / 400, 13);
    expect(a.mean).toBeCloseTo(13.825, 13);
    const d = d20Distribution({ modifier: 3, mode: 'disadvantage' });
    expect(d.mean).toBeCloseTo(7.175 + 3, 13);
    expect(d20Distribution().atLeast(11)).toBeCloseTo(0.5, 13);
  });

  it('seeded rolls reproduce', () => {
    const a = Array.from({ length: 5 }, ((r) => () => rollD20(r, { mode: 'advantage' }).total)(seededRng(42)));
    const b = Array.from({ length: 5 }, ((r) => () => rollD20(r, { mode: 'advantage' }).total)(seededRng(42)));
    expect(a).toEqual(b);
  });
});

describe('worked numbers from the rules texts', () => {
  it('002 Disengage: 3d6 vs 11 for one enemy is 1/2; vs 12 for two enemies is 81/216', () => {
    const p = threeD6NaturalDistribution(0);
    expect(p.atLeast(11)).toBeCloseTo(108 / 216, 14);
    expect(p.atLeast(12)).toBeCloseTo(81 / 216, 14);
  });

  it('002 crits: natural 17+ is 4/216, Vulnerable (16+) is 10/216, crit fail (natural 3) is 1/216', () => {
    const p = threeD6NaturalDistribution(0);
    expect(p.atLeast(17)).toBeCloseTo(4 / 216, 14);
    expect(p.atLeast(16)).toBeCloseTo(10 / 216, 14);
    expect(p.atMost(3)).toBeCloseTo(1 / 216, 14);
    // one Advantage: P(natural 17+) over 6^4 outcomes, by enumeration
    const brute = bruteForce([6, 6, 6, 6], (f) => rollThreeD6(fixedRng(f), { advantage: 1 }).natural);
    const crit = [...brute].filter(([v]) => v >= 17).reduce((s, [, q]) => s + q, 0);
    expect(threeD6NaturalDistribution(1).atLeast(17)).toBeCloseTo(crit, 14);
  });

  it('000 chase: an action roll against difficulty 15 lands in one of the table rows', () => {
    // Hope 10, Fear 4, +1 modifier = 15: success with Hope (the Progress Countdown ticks 2).
    expect(rollDuality(fixedRng([10, 4]), { modifier: 1, difficulty: 15 }).outcome).toBe('successWithHope');
    // Hope 3, Fear 9, +1 = 13 < 15: failure with Fear.
    expect(rollDuality(fixedRng([3, 9]), { modifier: 1, difficulty: 15 }).outcome).toBe('failureWithFear');
  });

  it('004 Edge Save: fails on a Score of 6 or lower; with +2 and Advantage by enumeration', () => {
    const p = kleptoTestDistribution({ modifier: 2, advantage: 1 });
    const sides = [10, 2, 10, 2];
    const brute = bruteForce(sides, (f) => {
      const faces = [f[0]!, ...(f[0] === 10 ? [f[1]!] : []), f[2]!, ...(f[2] === 10 ? [f[3]!] : [])];
      return rollKleptoTest(fixedRng(faces), { modifier: 2, advantage: 1 }).score <= 6 ? 1 : 0;
    });
    expect(p.atMost(6)).toBeCloseTo(brute.get(1) ?? 0, 13);
    // one die: Score <= 6 with +2 means die value <= 4: 1/20 + 4 * 2/20 = 9/20; the worse of two: 1 - (11/20)^2
    expect(kleptoTestDistribution({ modifier: 2 }).atMost(6)).toBeCloseTo(9 / 20, 14);
    expect(kleptoTestDistribution({ modifier: 2, advantage: 1 }).atMost(6)).toBeCloseTo((9 / 20) ** 2, 14);
    expect(kleptoTestDistribution({ modifier: 2, advantage: -1 }).atMost(6)).toBeCloseTo(1 - (11 / 20) ** 2, 14);
  });
});

describe('every named distribution sums to 1', () => {
  it('for a spread of options', () => {
    for (let a = -6; a <= 6; a++) {
      expect(Math.abs(sumOf(threeD6NaturalDistribution(a)) - 1)).toBeLessThan(1e-12);
      expect(Math.abs(sumOf(kleptoTestDistribution({ modifier: a, advantage: a })) - 1)).toBeLessThan(1e-12);
      expect(Math.abs(sum(dualityOutcomeDistribution({ modifier: a, difficulty: 12 + a, advantage: a })) - 1)).toBeLessThan(1e-12);
      expect(Math.abs(sumOf(dualityTotalDistribution({ modifier: a, advantage: a })) - 1)).toBeLessThan(1e-12);
      expect(Math.abs(sumOf(teamTestDistribution({ attributeDie: 8, skillDie: 6, bonus: a, advantage: Math.max(-2, Math.min(2, a)), luckModifier: a })) - 1)).toBeLessThan(1e-12);
    }
    for (const mode of ['normal', 'advantage', 'disadvantage'] as const) expect(Math.abs(sumOf(d20Distribution({ modifier: 3, mode })) - 1)).toBeLessThan(1e-12);
    // 36th Way with heavy advantage matches the direct formula for the top: P(natural 18) = P(at least three 6s among 3+N dice)
    const n = 9;
    let atLeast3 = 0;
    for (let k = 3; k <= n; k++) atLeast3 += (binom(n, k) * 5 ** (n - k)) / 6 ** n;
    expect(threeD6NaturalDistribution(6).probability(18)).toBeCloseTo(atLeast3, 14);
  });
});

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}
