// Property tests: random notation against brute-force enumeration of the
// roller itself, Monte Carlo agreement, reproducibility, and fuzzing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiceError, type Rng, compileDice, odds, seededRng } from '../../src/dice/index.js';
import { sumOf } from './helpers.js';

const SMALL = { maxExplodeDepth: 1 } as const;

/** A small random dice term, always valid. */
const diceTerm = fc
  .record({
    count: fc.integer({ min: 1, max: 2 }),
    sides: fc.constantFrom(1, 2, 3, 4, 6),
    explode: fc.boolean(),
    reroll: fc.option(fc.record({ op: fc.constantFrom('<', '<=', '>', '>=', '='), value: fc.integer({ min: 1, max: 6 }), once: fc.boolean() }), { freq: 3 }),
    keep: fc.option(fc.record({ mode: fc.constantFrom('kh', 'kl', 'dh', 'dl'), n: fc.integer({ min: 1, max: 2 }) }), { freq: 2 }),
  })
  .map(({ count, sides, explode, reroll, keep }) => {
    let s = `${count}d${sides}`;
    if (explode && sides >= 2) s += '!';
    if (reroll) {
      const covers = Array.from({ length: sides }, (_, i) => i + 1).every((f) =>
        reroll.op === '<' ? f < reroll.value : reroll.op === '<=' ? f <= reroll.value : reroll.op === '>' ? f > reroll.value : reroll.op === '>=' ? f >= reroll.value : f === reroll.value,
      );
      if (reroll.once || !covers) s += `${reroll.once ? 'ro' : 'r'}${reroll.op}${reroll.value}`;
    }
    if (keep && keep.n <= count) s += `${keep.mode}${keep.n}`;
    return s;
  });

const smallExpr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -3, max: 5 }).map(String),
    diceTerm,
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(fc.constantFrom('min', 'max'), tie('e'), tie('e')).map(([f, a, b]) => `${f}(${a}, ${b})`),
    tie('e').map((a) => `-(${a})`),
    tie('e').map((a) => `abs(${a})`),
    fc.tuple(fc.constantFrom('ceil', 'round'), tie('e'), fc.integer({ min: 1, max: 3 })).map(([f, a, b]) => `${f}(${a} / ${b})`),
  ),
})).e;

const withDice = fc.oneof(
  diceTerm,
  fc.tuple(diceTerm, fc.constantFrom('+', '-', '*', '/'), smallExpr).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(smallExpr, fc.constantFrom('+', '-', '*'), diceTerm).map(([a, op, b]) => `${a} ${op} ${b}`),
  smallExpr,
);
const withCompare = fc.tuple(withDice, fc.option(fc.tuple(fc.constantFrom('>=', '<=', '>', '<', '='), smallExpr))).map(([a, c]) => (c ? `${a} ${c[0]} ${c[1]}` : a));

/** Compiles or returns null when the random expression is invalid (e.g. a divisor that can be 0). */
function tryCompile(e: string, limits: object = SMALL) {
  try {
    return compileDice(e, limits);
  } catch (x) {
    if (x instanceof DiceError) return null;
    throw x;
  }
}

/**
 * Exhaustive enumeration of the roller: every sequence of die faces it can
 * ask for, depth first, with its probability. Returns null past `budget` paths.
 */
function enumerate(f: (rng: Rng) => number, budget = 60_000): Map<number, number> | null {
  const path: { face: number; sides: number }[] = [];
  const out = new Map<number, number>();
  const carry = new Map<number, number>();
  for (let paths = 0; paths < budget; paths++) {
    let i = 0;
    let p = 1;
    const rng: Rng = {
      kind: 'seeded',
      snapshot: () => null,
      die(sides) {
        if (i < path.length) {
          p /= sides;
          return path[i++]!.face;
        }
        path.push({ face: 1, sides });
        i++;
        p /= sides;
        return 1;
      },
    };
    const v = f(rng);
    path.length = i;
    // Tens of thousands of tiny terms: compensated (Neumaier) sums, so the
    // reference itself stays well inside the 1e-12 the odds are held to.
    const sum = out.get(v) ?? 0;
    const t = sum + p;
    carry.set(v, (carry.get(v) ?? 0) + (Math.abs(sum) >= p ? sum - t + p : p - t + sum));
    out.set(v, t);
    while (path.length > 0 && path[path.length - 1]!.face === path[path.length - 1]!.sides) path.pop();
    if (path.length === 0) {
      for (const [k, c] of carry) out.set(k, out.get(k)! + c);
      return out;
    }
    path[path.length - 1]!.face++;
  }
  return null;
}

describe('properties of random expressions', () => {
  it('exact odds equal brute-force enumeration of the roller', () => {
    let checked = 0;
    let varied = 0;
    fc.assert(
      fc.property(withCompare, (e) => {
        const c = tryCompile(e);
        fc.pre(c !== null);
        const brute = enumerate((rng) => c!.total(rng));
        fc.pre(brute !== null);
        const o = odds(e, SMALL);
        expect(o.truncatedMass).toBe(0);
        for (const [v, p] of brute!) expect(Math.abs(o.distribution.probability(v) - p)).toBeLessThan(1e-12);
        for (const [v, p] of o.distribution.entries()) expect(Math.abs((brute!.get(v) ?? 0) - p)).toBeLessThan(1e-12);
        if (o.probability !== null) {
          const hits = enumerate((rng) => (c!.test(rng) ? 1 : 0));
          fc.pre(hits !== null);
          expect(Math.abs(o.probability - (hits!.get(1) ?? 0))).toBeLessThan(1e-12);
        }
        checked++;
        if (brute!.size > 1) varied++;
        const mean = [...brute!].reduce((s, [v, p]) => s + v * p, 0);
        expect(Math.abs(o.mean - mean)).toBeLessThan(1e-9 * Math.max(1, Math.abs(mean)));
      }),
      { numRuns: 300 },
    );
    // The property must not pass by skipping: most runs are real comparisons.
    expect(checked).toBe(300);
    expect(varied).toBeGreaterThan(150);
  });

  it('every distribution sums to 1 (within 1e-12, counting truncated mass)', () => {
    fc.assert(
      fc.property(withCompare, (e) => {
        const c = tryCompile(e, {});
        fc.pre(c !== null);
        const o = odds(e);
        expect(Math.abs(sumOf(o.distribution) + o.truncatedMass - 1)).toBeLessThan(1e-12);
        expect(o.truncatedMass).toBeLessThan(1e-12);
      }),
      { numRuns: 200 },
    );
  });

  it('rolls stay within [min, max], the record matches the fast path, and seeds reproduce', () => {
    fc.assert(
      fc.property(withCompare, fc.integer(), (e, seed) => {
        const c = tryCompile(e, {});
        fc.pre(c !== null);
        for (let k = 0; k < 5; k++) {
          const r = c!.roll(seededRng(seed + k));
          expect(r.total).toBeGreaterThanOrEqual(c!.min);
          expect(r.total).toBeLessThanOrEqual(c!.max);
          expect(c!.total(seededRng(seed + k))).toBe(r.total);
          expect(c!.roll(seededRng(seed + k))).toEqual(r);
          for (const g of r.dice) {
            expect(g.dice.reduce((s, d) => s + (d.kept ? d.value : 0), 0)).toBe(g.total);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Monte Carlo agrees with the exact distribution within 4 sigma', () => {
  it.each(['3d6', '4d6kh3', '2d20kl1 + 3', '3d6!', 'd6r<3 * d4', 'max(2d6, d12) - min(d4, d8)', '10d10!kh5', '6d6kh3 >= 15'])('%s', (e) => {
    const N = 20_000;
    const c = compileDice(e);
    const rng = seededRng(`mc:${e}`);
    const counts = new Map<number, number>();
    for (let i = 0; i < N; i++) {
      const v = c.total(rng);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const o = odds(e);
    for (const [v, p] of o.distribution.entries()) {
      const seen = counts.get(v) ?? 0;
      const sigma = Math.sqrt(N * p * (1 - p));
      expect(Math.abs(seen - N * p)).toBeLessThanOrEqual(4 * sigma + 1);
    }
    for (const v of counts.keys()) expect(o.distribution.probability(v)).toBeGreaterThan(0);
  });
});

describe('fuzz', () => {
  const FUZZ_LIMITS = { maxOddsWork: 2_000_000, maxDice: 500, maxExplodeDepth: 20, maxLength: 200 };
  const onlyDiceErrors = (f: () => unknown): void => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof DiceError)) throw e;
      expect(e.position).toBeGreaterThanOrEqual(0);
      expect(e.position).toBeLessThanOrEqual(Math.max(e.expression.length, FUZZ_LIMITS.maxLength));
    }
  };

  it('random strings throw nothing but DiceError', () => {
    const alphabet = fc.constantFrom(...'0123456789dD%+-*/()!,<>= khlrofminaxbsceiu'.split(''), 'kh', 'dl', 'ro', 'min(', 'max(', '!!', '>=', 'd%', '100');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(alphabet, { maxLength: 40 }).map((a) => a.join(''))), (s) => {
        onlyDiceErrors(() => {
          const c = compileDice(s, FUZZ_LIMITS);
          const r = c.roll(seededRng(s));
          expect(r.dice.reduce((n, g) => n + g.dice.length, 0)).toBeLessThanOrEqual(FUZZ_LIMITS.maxDice);
          odds(s, FUZZ_LIMITS);
        });
      }),
      { numRuns: 1500 },
    );
  });

  it('random (larger) expressions throw nothing but DiceError and respect the limits', () => {
    const big = fc
      .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 2000 }), fc.constantFrom('', '!', 'kh3', 'kl2', 'r<2', 'ro=1', '!kh5', 'dl1'), fc.constantFrom('+', '*', '/', '-'), smallExpr)
      .map(([n, s, m, op, rest]) => `${n}d${s}${m} ${op} ${rest}`);
    fc.assert(
      fc.property(big, (s) => {
        onlyDiceErrors(() => {
          const c = compileDice(s, FUZZ_LIMITS);
          const r = c.roll(seededRng(1));
          expect(r.total).toBeGreaterThanOrEqual(c.min);
          expect(r.total).toBeLessThanOrEqual(c.max);
          odds(s, FUZZ_LIMITS);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('named-roll options: bad values are DiceErrors', async () => {
    const named = await import('../../src/dice/named.js');
    const anything = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(undefined), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(anything, anything, anything, (a, b, c) => {
        const rng = seededRng(3);
        const o = { modifier: a, difficulty: b, advantage: c, attributeDie: b, skillDie: c, mode: a } as never;
        for (const f of [
          () => named.rollDuality(rng, o), () => named.dualityOutcomeDistribution(o), () => named.rollThreeD6(rng, o), () => named.threeD6NaturalDistribution(c as never),
          () => named.rollKleptoTest(rng, o), () => named.kleptoTestDistribution(o), () => named.rollTeamTest(rng, o), () => named.teamTestDistribution(o),
          () => named.rollLuckTest(rng, b as never), () => named.rollD20(rng, o), () => named.d20Distribution(o),
        ]) onlyDiceErrors(f);
      }),
      { numRuns: 300 },
    );
  });
});
