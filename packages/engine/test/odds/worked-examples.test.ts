// The exact figures docs/countdowns.md quotes, recomputed here from first
// principles (the 144 Hope/Fear die pairs and a plain recursion over the
// countdown values), independently of the dice layer and of the chains in
// src/odds, then compared with what the odds functions return.
import { describe, expect, it } from 'vitest';
import { chaseOdds, countdownOdds, decreasingOdds } from '../../src/odds/index.js';

type Outcome = 'critical' | 'successWithHope' | 'successWithFear' | 'failureWithHope' | 'failureWithFear';

// 000 "Dynamic Countdown Advancement", typed in again from the text: [progress, consequence].
const TABLE: Record<Outcome, readonly [number, number]> = {
  failureWithFear: [0, 2],
  failureWithHope: [0, 1],
  successWithFear: [1, 1],
  successWithHope: [2, 0],
  critical: [3, 0],
};

/** Rules README "Daggerheart action roll": two d12, equal dice crit, else total vs difficulty, Hope or Fear by the higher die. */
function outcomes(modifier: number, difficulty: number): Record<Outcome, number> {
  const p: Record<Outcome, number> = { critical: 0, successWithHope: 0, successWithFear: 0, failureWithHope: 0, failureWithFear: 0 };
  for (let hope = 1; hope <= 12; hope++) {
    for (let fear = 1; fear <= 12; fear++) {
      const success = hope + fear + modifier >= difficulty;
      const o: Outcome = hope === fear ? 'critical' : success ? (hope > fear ? 'successWithHope' : 'successWithFear') : hope > fear ? 'failureWithHope' : 'failureWithFear';
      p[o] += 1 / 144;
    }
  }
  return p;
}

/** [P(PCs first), P(other first), P(both on one roll), E(rolls)] by recursion; every outcome ticks something, so no self-loop. */
function chase(p: number, c: number, pmf: Record<Outcome, number>, memo = new Map<string, number[]>()): number[] {
  const key = `${p},${c}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const r = [0, 0, 0, 1];
  for (const o of Object.keys(TABLE) as Outcome[]) {
    const q = pmf[o];
    const np = p - TABLE[o][0];
    const nc = c - TABLE[o][1];
    if (np <= 0 && nc <= 0) r[2]! += q;
    else if (np <= 0) r[0]! += q;
    else if (nc <= 0) r[1]! += q;
    else {
      const x = chase(np, nc, pmf, memo);
      for (let i = 0; i < 4; i++) r[i]! += q * x[i]!;
    }
  }
  memo.set(key, r);
  return r;
}

/** Expected rolls for a consequence countdown at v: results that tick nothing repeat the roll. */
function expectedConsequence(v: number, pmf: Record<Outcome, number>): number {
  const e: number[] = [0];
  for (let x = 1; x <= v; x++) {
    let stay = 0;
    let sum = 1;
    for (const o of Object.keys(TABLE) as Outcome[]) {
      const a = TABLE[o][1];
      if (a === 0) stay += pmf[o];
      else if (x - a > 0) sum += pmf[o] * e[x - a]!;
    }
    e.push(sum / (1 - stay));
  }
  return e[v]!;
}

function val<T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

const roll = { modifier: 2, difficulty: 15 };

describe('worked examples from docs/countdowns.md, recomputed', () => {
  it('+2 vs 15: crit 12/144, success with Hope 36/144, with Fear 36/144, failure with Hope 30/144, with Fear 30/144', () => {
    const p = outcomes(2, 15);
    expect(p.critical * 144).toBeCloseTo(12, 9);
    expect(p.successWithHope * 144).toBeCloseTo(36, 9);
    expect(p.successWithFear * 144).toBeCloseTo(36, 9);
    expect(p.failureWithHope * 144).toBeCloseTo(30, 9);
    expect(p.failureWithFear * 144).toBeCloseTo(30, 9);
  });

  it('the market chase (000 "Example Chase": d6s at 6 and 4, the thief\'s difficulty 15, +2): PCs catch 0.3298, thief escapes 0.6418, both 0.0284, 3.94 rolls', () => {
    const [pcs, other, both, rolls] = chase(6, 4, outcomes(2, 15));
    // Exact rationals from the same recursion done in fractions: 36473/110592, 212941/331776, 1177/41472, 145115/36864.
    expect(pcs).toBeCloseTo(36473 / 110592, 13);
    expect(other).toBeCloseTo(212941 / 331776, 13);
    expect(both).toBeCloseTo(1177 / 41472, 13);
    expect(rolls).toBeCloseTo(145115 / 36864, 12);
    const o = val(chaseOdds({ progress: 6, consequence: 4 }, roll));
    expect(o.progressFirst).toBeCloseTo(pcs!, 13);
    expect(o.consequenceFirst).toBeCloseTo(other!, 13);
    expect(o.sameRoll).toBeCloseTo(both!, 13);
    expect(o.expectedRolls).toBeCloseTo(rolls!, 12);
    // The rounded figures the docs print.
    expect(o.progressFirst.toFixed(4)).toBe('0.3298');
    expect(o.consequenceFirst.toFixed(4)).toBe('0.6418');
    expect(o.sameRoll.toFixed(4)).toBe('0.0284');
    expect(o.expectedRolls.toFixed(2)).toBe('3.94');
  });

  it('two d12s (12 and 12) at +2 vs 15: the PCs catch first with 0.589785 (the benchmark\'s figure)', () => {
    const [pcs] = chase(12, 12, outcomes(2, 15));
    const o = val(chaseOdds({ progress: 12, consequence: 12 }, roll));
    expect(o.progressFirst).toBeCloseTo(pcs!, 12);
    expect(o.progressFirst.toFixed(6)).toBe('0.589785');
  });

  it('"Rubble Falling" (Decreasing 7, a consequence countdown) at +2 vs 15: the caves collapse after 33.97 rolls on average', () => {
    const pmf = outcomes(2, 15);
    let total = 0;
    for (let start = 7; start >= 1; start--) {
      total += expectedConsequence(start, pmf);
      expect(val(countdownOdds({ value: start, advance: 'consequence' }, roll)).expectedRolls).toBeCloseTo(expectedConsequence(start, pmf), 12);
    }
    // In fractions: 1139829579 / 33554432.
    expect(total).toBeCloseTo(1139829579 / 33554432, 11);
    const o = val(decreasingOdds({ start: 7, advance: 'consequence' }, roll));
    expect(o.cycles).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(o.expectedRolls).toBeCloseTo(total, 11);
    expect(o.expectedRolls.toFixed(2)).toBe('33.97');
  });
});
