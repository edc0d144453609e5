import { describe, expect, it } from 'vitest';
import { Pmf, convolve, keepHighest, keepLowest, mapPmf, pmfOfDie, sumIid, extremeOf } from '../../src/dice/index.js';
import { bruteForce, maxDiff, sumOf } from './helpers.js';

describe('Pmf', () => {
  it('a d6 has mean 3.5, variance 35/12 and a CDF', () => {
    const d6 = pmfOfDie(6);
    expect(d6.min).toBe(1);
    expect(d6.max).toBe(6);
    expect(d6.mean).toBeCloseTo(3.5, 14);
    expect(d6.variance).toBeCloseTo(35 / 12, 14);
    expect(d6.stddev).toBeCloseTo(Math.sqrt(35 / 12), 14);
    expect(d6.cdf(2)).toBeCloseTo(2 / 6, 15);
    expect(d6.atMost(0)).toBe(0);
    expect(d6.atLeast(5)).toBeCloseTo(2 / 6, 15);
    expect(d6.atLeast(7)).toBe(0);
    expect(d6.probability(3.5)).toBe(0);
    expect(d6.entries()).toHaveLength(6);
    expect(d6.truncatedMass).toBe(0);
  });

  it('3d6 >= 13 is 56/216 = 7/27', () => {
    const p = sumIid(pmfOfDie(6), 3);
    expect(p.atLeast(13)).toBeCloseTo(7 / 27, 15);
    expect(p.mean).toBeCloseTo(10.5, 13);
    expect(maxDiff(p, bruteForce([6, 6, 6], (f) => f[0]! + f[1]! + f[2]!))).toBeLessThan(1e-15);
  });

  it('convolve and mapPmf', () => {
    const p = convolve(pmfOfDie(4), pmfOfDie(6));
    expect(maxDiff(p, bruteForce([4, 6], (f) => f[0]! + f[1]!))).toBeLessThan(1e-15);
    const m = mapPmf(pmfOfDie(6), (v) => v % 2);
    expect(m.entries()).toEqual([[0, 0.5], [1, 0.5]]);
  });

  it('wide dice (sliding window) agree with direct convolution', () => {
    const wide = sumIid(pmfOfDie(20), 3);
    expect(maxDiff(wide, bruteForce([20, 20, 20], (f) => f[0]! + f[1]! + f[2]!))).toBeLessThan(1e-15);
    const big = sumIid(pmfOfDie(100), 50);
    expect(Math.abs(sumOf(big) - 1)).toBeLessThan(1e-12);
    expect(big.mean).toBeCloseTo(50 * 50.5, 9);
    expect(big.variance).toBeCloseTo((50 * (100 * 100 - 1)) / 12, 6);
  });

  it('100d6 sums to 1 and has mean 350 exactly', () => {
    const p = sumIid(pmfOfDie(6), 100);
    expect(Math.abs(sumOf(p) - 1)).toBeLessThan(1e-12);
    expect(p.mean).toBeCloseTo(350, 10);
    expect(p.min).toBe(100);
    expect(p.max).toBe(600);
    expect(p.probability(100)).toBeCloseTo(Math.pow(6, -100), 90);
  });

  it('4d6 keep highest 3 matches enumeration (mean 15869/1296)', () => {
    const brute = bruteForce([6, 6, 6, 6], (f) => f.reduce((a, b) => a + b) - Math.min(...f));
    const p = keepHighest(pmfOfDie(6), 4, 3);
    expect(maxDiff(p, brute)).toBeLessThan(1e-15);
    expect(p.mean).toBeCloseTo(15869 / 1296, 13);
  });

  it('keep lowest and keep highest over several shapes match enumeration', () => {
    for (const [n, s, k] of [[3, 4, 1], [4, 5, 2], [5, 3, 3], [2, 20, 1], [5, 4, 4]] as const) {
      const sides = Array<number>(n).fill(s);
      const hi = bruteForce(sides, (f) => [...f].sort((a, b) => b - a).slice(0, k).reduce((a, b) => a + b, 0));
      const lo = bruteForce(sides, (f) => [...f].sort((a, b) => a - b).slice(0, k).reduce((a, b) => a + b, 0));
      expect(maxDiff(keepHighest(pmfOfDie(s), n, k), hi)).toBeLessThan(1e-14);
      expect(maxDiff(keepLowest(pmfOfDie(s), n, k), lo)).toBeLessThan(1e-14);
    }
  });

  it('keep highest on a non-uniform die', () => {
    const die = Pmf.fromEntries([[0, 0.25], [1, 0.5], [5, 0.25]]);
    const p = keepHighest(die, 3, 2);
    // enumerate with faces 1..4 mapped to 0,1,1,5
    const face = [0, 0, 1, 1, 5];
    const brute = bruteForce([4, 4, 4], (f) => f.map((x) => face[x]!).sort((a, b) => b - a).slice(0, 2).reduce((a, b) => a + b));
    expect(maxDiff(p, brute)).toBeLessThan(1e-15);
  });

  it('extremeOf is the highest / lowest single die', () => {
    const hi = extremeOf(pmfOfDie(20), 2, true);
    expect(hi.probability(20)).toBeCloseTo(39 / 400, 15);
    const lo = extremeOf(pmfOfDie(20), 2, false);
    expect(lo.probability(1)).toBeCloseTo(39 / 400, 15);
  });
});
