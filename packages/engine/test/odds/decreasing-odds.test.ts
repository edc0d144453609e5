// Odds for a decreasing countdown's major event (000 "Increasing or Decreasing").
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { rollDuality } from '../../src/dice/index.js';
import { DYNAMIC_ADVANCEMENT } from '../../src/countdowns/model.js';
import { decreasingOdds } from '../../src/odds/index.js';

function val<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}
const PMF = { critical: 0.1, successWithHope: 0.3, successWithFear: 0.2, failureWithHope: 0.2, failureWithFear: 0.2 };

describe('decreasingOdds', () => {
  it('"Rubble Falling" as a standard decreasing 7: the caves collapse on roll 7 + 6 + ... + 1 = 28, exactly', () => {
    const o = val(decreasingOdds({ start: 7, advance: 'standard' }, { pmf: PMF }));
    expect(o.cycles).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(o.byRoll).toHaveLength(28);
    expect(o.byRoll[27]).toBe(1);
    expect(o.expectedRolls).toBe(28);
  });
  it('a progress decreasing 2: E = E(2) + E(1) = 20/9 + 5/3; resuming mid-cycle starts from the current value', () => {
    const o = val(decreasingOdds({ start: 2, advance: 'progress' }, { pmf: PMF }));
    expect(o.expectedRolls).toBeCloseTo(20 / 9 + 5 / 3, 13);
    // The earliest collapse: a crit or success with Hope (0.4), then any success (0.6).
    expect(o.byRoll[0]).toBe(0);
    expect(o.byRoll[1]).toBeCloseTo(0.4 * 0.6, 15);
    const mid = val(decreasingOdds({ start: 3, value: 1, advance: 'progress' }, { pmf: PMF }));
    expect(mid.cycles).toEqual([1, 2, 1]);
    expect(o.remainingMass).toBeLessThan(1e-12);
  });
  it('matches simulated duality rolls for a consequence decreasing 4 (4 sigma)', () => {
    const roll = { modifier: 1, difficulty: 13 };
    const o = val(decreasingOdds({ start: 4, advance: 'consequence' }, roll));
    const rng = seededRng('rubble');
    const N = 20_000;
    let sum = 0;
    let sq = 0;
    let within12 = 0;
    for (let t = 0; t < N; t++) {
      let n = 0;
      for (let start = 4; start >= 1; start--) {
        let v = start;
        while (v > 0) {
          v -= DYNAMIC_ADVANCEMENT[rollDuality(rng, roll).outcome].consequence;
          n++;
        }
      }
      sum += n;
      sq += n * n;
      if (n <= 12) within12++;
    }
    const mean = sum / N;
    const sd = Math.sqrt(sq / N - mean * mean);
    expect(Math.abs(mean - o.expectedRolls)).toBeLessThan((4 * sd) / Math.sqrt(N));
    const q = o.within[11]!;
    expect(Math.abs(within12 / N - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / N));
  });
  it('rejects a current value above the limit and a bad start', () => {
    expect(decreasingOdds({ start: 0, advance: 'standard' }, { pmf: PMF }).ok).toBe(false);
    expect(decreasingOdds({ start: 5, value: 101, advance: 'standard' }, { pmf: PMF }).ok).toBe(false);
  });
});
