// Exact countdown odds against hand-computed tiny chains and seeded brute force.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRng, type Rng } from '../../src/dice/rng.js';
import { chaseOdds, countdownOdds, triggerWithin, type OutcomePmf } from '../../src/odds/countdown-odds.js';
import { DYNAMIC_ADVANCEMENT } from '../../src/countdowns/model.js';

// A made-up duality PMF with round numbers, so hand sums are easy.
const PMF = { critical: 0.1, successWithHope: 0.3, successWithFear: 0.2, failureWithHope: 0.2, failureWithFear: 0.2 };

function sample(pmf: OutcomePmf, rng: Rng): string {
  const u = (rng.die(2 ** 32) - 1) / 2 ** 32;
  let acc = 0;
  const entries = Object.entries(pmf);
  for (const [k, p] of entries) {
    acc += p;
    if (u < acc) return k;
  }
  return entries[entries.length - 1]![0];
}

function val<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe('countdownOdds: hand-computed cases', () => {
  it('a standard countdown 3 triggers on roll 3 exactly', () => {
    const o = val(countdownOdds({ value: 3, advance: 'standard' }, { pmf: PMF }));
    expect(o.byRoll).toEqual([0, 0, 1]);
    expect(o.within).toEqual([0, 0, 1]);
    expect(o.expectedRolls).toBe(3);
    expect(o.remainingMass).toBe(0);
    expect(triggerWithin(o, 2)).toBe(0);
    expect(triggerWithin(o, 3)).toBe(1);
  });
  it('a progress countdown 1 is geometric in P(success) = 0.6', () => {
    const o = val(countdownOdds({ value: 1, advance: 'progress' }, { pmf: PMF }));
    expect(o.expectedRolls).toBeCloseTo(1 / 0.6, 14);
    expect(o.byRoll[0]).toBeCloseTo(0.6, 15);
    expect(o.byRoll[1]).toBeCloseTo(0.4 * 0.6, 15);
    expect(o.byRoll[4]).toBeCloseTo(0.4 ** 4 * 0.6, 15);
    // Iterates until what is left is below 1e-15, and reports it.
    expect(o.remainingMass).toBeLessThan(1e-15);
    expect(o.remainingMass).toBeGreaterThan(0);
    expect(o.within[o.within.length - 1]! + o.remainingMass).toBeCloseTo(1, 14);
  });
  it('a progress countdown 2: E = (1 + 0.2 * E1) / 0.6 = 20/9; P(within 1) = 0.4 (crit or success with Hope)', () => {
    const o = val(countdownOdds({ value: 2, advance: 'progress' }, { pmf: PMF }));
    expect(o.expectedRolls).toBeCloseTo(20 / 9, 14);
    expect(o.byRoll[0]).toBeCloseTo(0.4, 15);
    // Roll 2: (SwF then any success) 0.2 * 0.6 + (no tick then crit/SwH) 0.4 * 0.4 = 0.28.
    expect(o.byRoll[1]).toBeCloseTo(0.28, 15);
  });
  it('a consequence countdown 2: failure with Fear ends it at once (0.2); E by hand', () => {
    const o = val(countdownOdds({ value: 2, advance: 'consequence' }, { pmf: PMF }));
    expect(o.byRoll[0]).toBeCloseTo(0.2, 15);
    // E1 = 1 / 0.6; E2 = (1 + (0.2 + 0.2) * E1) / 0.6 (FwH and SwF tick 1).
    expect(o.expectedRolls).toBeCloseTo((1 + 0.4 / 0.6) / 0.6, 14);
  });
  it('a custom PMF and ticks map work; an outcome that ticks nothing makes it never trigger', () => {
    const o = val(countdownOdds({ value: 2, advance: { heads: 1, tails: 0 } }, { pmf: { heads: 0.5, tails: 0.5 } }));
    expect(o.expectedRolls).toBeCloseTo(4, 14); // negative binomial: 2 / 0.5
    const n = val(countdownOdds({ value: 2, advance: { tails: 0 } }, { pmf: { tails: 1 } }));
    expect(n.pTrigger).toBe(0);
    expect(n.expectedRolls).toBe(Infinity);
    expect(n.remainingMass).toBe(1);
  });
  it('bad input is a typed error, never a crash', () => {
    const bad = [
      countdownOdds({ value: 0, advance: 'standard' }, { pmf: PMF }),
      countdownOdds({ value: 101, advance: 'standard' }, { pmf: PMF }),
      countdownOdds({ value: 2, advance: 'progress' }, { pmf: { critical: 0.5 } }),
      countdownOdds({ value: 2, advance: 'progress' }, { pmf: { banana: 1 } }),
      countdownOdds({ value: 2, advance: { heads: -1 } }, { pmf: { heads: 1 } }),
      countdownOdds({ value: 2, advance: 'standard' }, { pmf: PMF }, { maxRolls: 0 }),
      countdownOdds({ value: 2, advance: 'standard' }, { pmf: { a: NaN } }),
    ];
    for (const r of bad) expect(r.ok).toBe(false);
  });
});

describe('chaseOdds: hand-computed cases', () => {
  it('1:1 - crit / success with Hope: PCs first; success with Fear: same roll; failures: the other party', () => {
    const o = val(chaseOdds({ progress: 1, consequence: 1 }, { pmf: PMF }));
    expect(o.progressFirst).toBeCloseTo(0.4, 15);
    expect(o.sameRoll).toBeCloseTo(0.2, 15);
    expect(o.consequenceFirst).toBeCloseTo(0.4, 15);
    expect(o.expectedRolls).toBe(1);
    expect(o.byRoll.progressFirst).toEqual([o.progressFirst]);
  });
  it('2:1 - success with Fear leaves PCs at 1 and the other at 0, so it is the other party first', () => {
    const o = val(chaseOdds({ progress: 2, consequence: 1 }, { pmf: PMF }));
    expect(o.progressFirst).toBeCloseTo(0.4, 15);
    expect(o.sameRoll).toBe(0);
    expect(o.consequenceFirst).toBeCloseTo(0.6, 15);
  });
  it('2:2 by hand', () => {
    // From (2,2): crit/SwH (0.4) PCs win; FwF (0.2) other wins; SwF (0.2) -> (1,1); FwH (0.2) -> (2,1).
    // (1,1): 0.4 / 0.2 same / 0.4.  (2,1): PCs 0.4, other 0.6.
    const o = val(chaseOdds({ progress: 2, consequence: 2 }, { pmf: PMF }));
    expect(o.progressFirst).toBeCloseTo(0.4 + 0.2 * 0.4 + 0.2 * 0.4, 15);
    expect(o.sameRoll).toBeCloseTo(0.2 * 0.2, 15);
    expect(o.consequenceFirst).toBeCloseTo(0.2 + 0.2 * 0.4 + 0.2 * 0.6, 15);
    expect(o.expectedRolls).toBeCloseTo(1 + 0.4 * 1 + 0, 15);
    expect(o.byRoll.progressFirst[0]! + o.byRoll.consequenceFirst[0]! + o.byRoll.sameRoll[0]!).toBeCloseTo(0.6, 15);
  });
  it('a chase always ends in at most progress + consequence - 1 rolls (every outcome ticks something)', () => {
    const o = val(chaseOdds({ progress: 12, consequence: 12 }, { pmf: PMF }));
    expect(o.byRoll.progressFirst.length).toBeLessThanOrEqual(23);
    expect(o.remainingMass).toBe(0);
    expect(o.progressFirst + o.consequenceFirst + o.sameRoll).toBeCloseTo(1, 13);
  });
  it('probabilities sum to 1 and per-roll sums match the totals (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 5, maxLength: 5 }), (p, c, w) => {
        const total = w.reduce((a, b) => a + b, 0);
        fc.pre(total > 0);
        const keys = Object.keys(DYNAMIC_ADVANCEMENT);
        const pmf = Object.fromEntries(keys.map((k, i) => [k, w[i]! / total]));
        const o = val(chaseOdds({ progress: p, consequence: c }, { pmf }));
        const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
        expect(o.progressFirst + o.consequenceFirst + o.sameRoll).toBeCloseTo(1, 12);
        expect(sum(o.byRoll.progressFirst)).toBeCloseTo(o.progressFirst, 12);
        expect(sum(o.byRoll.consequenceFirst)).toBeCloseTo(o.consequenceFirst, 12);
        const mean = o.byRoll.progressFirst.reduce((a, x, k) => a + (k + 1) * (x + o.byRoll.consequenceFirst[k]! + o.byRoll.sameRoll[k]!), 0);
        expect(mean).toBeCloseTo(o.expectedRolls, 10);
      }),
      { numRuns: 60 },
    );
  });
  it('a PMF that can stall forever reports the never-ending mass', () => {
    const o = val(chaseOdds({ progress: 2, consequence: 2, advance: { a: [1, 0], z: [0, 0] } }, { pmf: { a: 0.5, z: 0.5 } }));
    expect(o.progressFirst).toBeCloseTo(1, 14);
    expect(o.expectedRolls).toBeCloseTo(4, 12);
    const n = val(chaseOdds({ progress: 2, consequence: 2, advance: { z: [0, 0] } }, { pmf: { z: 1 } }, { maxRolls: 50 }));
    expect(n.never).toBe(1);
    expect(n.expectedRolls).toBe(Infinity);
  });
});

describe('against seeded brute force (4 sigma)', () => {
  it('countdownOdds for a consequence countdown 5', () => {
    const o = val(countdownOdds({ value: 5, advance: 'consequence' }, { pmf: PMF }));
    const rng = seededRng('countdown-mc');
    const N = 40_000;
    let within4 = 0;
    let sumRolls = 0;
    let sumSq = 0;
    for (let t = 0; t < N; t++) {
      let v = 5;
      let rolls = 0;
      while (v > 0) {
        const out = sample(PMF, rng) as keyof typeof DYNAMIC_ADVANCEMENT;
        v -= DYNAMIC_ADVANCEMENT[out].consequence;
        rolls++;
      }
      if (rolls <= 4) within4++;
      sumRolls += rolls;
      sumSq += rolls * rolls;
    }
    const p4 = triggerWithin(o, 4);
    expect(Math.abs(within4 / N - p4)).toBeLessThan(4 * Math.sqrt((p4 * (1 - p4)) / N));
    const mean = sumRolls / N;
    const sd = Math.sqrt(sumSq / N - mean * mean);
    expect(Math.abs(mean - o.expectedRolls)).toBeLessThan((4 * sd) / Math.sqrt(N));
  });
  it('chaseOdds for the 6:4 market chase', () => {
    const o = val(chaseOdds({ progress: 6, consequence: 4 }, { pmf: PMF }));
    const rng = seededRng('chase-mc');
    const N = 40_000;
    let pcs = 0;
    let other = 0;
    let same = 0;
    let sumRolls = 0;
    let sumSq = 0;
    for (let t = 0; t < N; t++) {
      let p = 6;
      let c = 4;
      let rolls = 0;
      while (p > 0 && c > 0) {
        const row = DYNAMIC_ADVANCEMENT[sample(PMF, rng) as keyof typeof DYNAMIC_ADVANCEMENT];
        p -= row.progress;
        c -= row.consequence;
        rolls++;
      }
      if (p <= 0 && c <= 0) same++;
      else if (p <= 0) pcs++;
      else other++;
      sumRolls += rolls;
      sumSq += rolls * rolls;
    }
    for (const [hits, q] of [
      [pcs, o.progressFirst],
      [other, o.consequenceFirst],
      [same, o.sameRoll],
    ] as const) {
      expect(Math.abs(hits / N - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / N) + 1e-12);
    }
    const mean = sumRolls / N;
    const sd = Math.sqrt(sumSq / N - mean * mean);
    expect(Math.abs(mean - o.expectedRolls)).toBeLessThan((4 * sd) / Math.sqrt(N));
  });
});
