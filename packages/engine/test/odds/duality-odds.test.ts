// Countdown odds from an action roll's numbers, checked against seeded
// simulations of real duality rolls (the dice layer's rollDuality).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dualityOutcomeDistribution, rollDuality } from '../../src/dice/index.js';
import { seededRng } from '../../src/dice/rng.js';
import { DYNAMIC_ADVANCEMENT } from '../../src/countdowns/model.js';
import { chaseOdds, countdownOdds, triggerWithin } from '../../src/odds/index.js';

function val<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe('odds from { modifier, difficulty, advantage }', () => {
  it('match the same chain fed the dice layer\'s exact outcome distribution', () => {
    const roll = { modifier: 2, difficulty: 15, advantage: 1 };
    const a = val(chaseOdds({ progress: 6, consequence: 4 }, roll));
    const b = val(chaseOdds({ progress: 6, consequence: 4 }, { pmf: dualityOutcomeDistribution(roll) }));
    expect(a).toEqual(b);
  });
  it('a 1:1 chase is just the outcome distribution (crit + success with Hope / success with Fear / failures)', () => {
    const roll = { modifier: 0, difficulty: 13 };
    const d = dualityOutcomeDistribution(roll);
    const o = val(chaseOdds({ progress: 1, consequence: 1 }, roll));
    expect(o.progressFirst).toBeCloseTo(d.critical + d.successWithHope, 15);
    expect(o.sameRoll).toBeCloseTo(d.successWithFear, 15);
    expect(o.consequenceFirst).toBeCloseTo(d.failureWithHope + d.failureWithFear, 15);
  });
  it('rejects out-of-range roll numbers with a typed error', () => {
    expect(chaseOdds({ progress: 6, consequence: 4 }, { modifier: 0.5, difficulty: 15 }).ok).toBe(false);
    expect(chaseOdds({ progress: 6, consequence: 4 }, { modifier: 0, difficulty: 0 }).ok).toBe(false);
    expect(chaseOdds({ progress: 6, consequence: 4 }, { modifier: 0, difficulty: 15, advantage: 11 }).ok).toBe(false);
  });
  it('a better modifier never lowers the PCs\' chance to win a chase (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: -5, max: 5 }), fc.integer({ min: 5, max: 25 }), (p, c, m, dc) => {
        const lo = val(chaseOdds({ progress: p, consequence: c }, { modifier: m, difficulty: dc }));
        const hi = val(chaseOdds({ progress: p, consequence: c }, { modifier: m + 1, difficulty: dc }));
        expect(hi.progressFirst).toBeGreaterThanOrEqual(lo.progressFirst - 1e-12);
      }),
      { numRuns: 40 },
    );
  });
});

describe('against simulated duality rolls (seeded, 4 sigma)', () => {
  it('the market chase (d6s at 6 and 4, modifier 2, difficulty 15)', () => {
    const roll = { modifier: 2, difficulty: 15 };
    const o = val(chaseOdds({ progress: 6, consequence: 4 }, roll));
    const rng = seededRng('market-chase');
    const N = 30_000;
    let pcs = 0;
    let other = 0;
    let same = 0;
    let sum = 0;
    let sq = 0;
    for (let t = 0; t < N; t++) {
      let p = 6;
      let c = 4;
      let n = 0;
      while (p > 0 && c > 0) {
        const row = DYNAMIC_ADVANCEMENT[rollDuality(rng, roll).outcome];
        p -= row.progress;
        c -= row.consequence;
        n++;
      }
      if (p <= 0 && c <= 0) same++;
      else if (p <= 0) pcs++;
      else other++;
      sum += n;
      sq += n * n;
    }
    for (const [hits, q] of [
      [pcs, o.progressFirst],
      [other, o.consequenceFirst],
      [same, o.sameRoll],
    ] as const) {
      expect(Math.abs(hits / N - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / N) + 1e-12);
    }
    const mean = sum / N;
    const sd = Math.sqrt(sq / N - mean * mean);
    expect(Math.abs(mean - o.expectedRolls)).toBeLessThan((4 * sd) / Math.sqrt(N));
  });
  it('a progress countdown 8 with advantage: P(within 5 rolls) and expected rolls', () => {
    const roll = { modifier: 1, difficulty: 14, advantage: 1 };
    const o = val(countdownOdds({ value: 8, advance: 'progress' }, roll));
    const rng = seededRng('progress-8');
    const N = 30_000;
    let within5 = 0;
    let sum = 0;
    let sq = 0;
    for (let t = 0; t < N; t++) {
      let v = 8;
      let n = 0;
      while (v > 0) {
        v -= DYNAMIC_ADVANCEMENT[rollDuality(rng, roll).outcome].progress;
        n++;
      }
      if (n <= 5) within5++;
      sum += n;
      sq += n * n;
    }
    const q = triggerWithin(o, 5);
    expect(Math.abs(within5 / N - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / N));
    const mean = sum / N;
    const sd = Math.sqrt(sq / N - mean * mean);
    expect(Math.abs(mean - o.expectedRolls)).toBeLessThan((4 * sd) / Math.sqrt(N));
  });
});
