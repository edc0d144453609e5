// Exact discrete distributions. A Pmf over whole numbers is a dense array of
// probabilities from `min` to `max`; one with non-whole values (real
// division, decimals, math functions) is sparse: sorted values and their
// probabilities. The helpers (convolve, sumIid, keepHighest, ...) take dense
// ones; the odds builder combines sparse ones pairwise.

import { DiceError } from './errors.js';

/** Work meter for the odds engine: counts inner-loop steps so huge requests fail fast with a named limit. */
export class OddsBudget {
  used = 0;
  constructor(
    readonly maxWork: number,
    readonly maxSpan: number,
  ) {}
  charge(steps: number, where = 0, expression = ''): void {
    this.used += steps;
    if (this.used > this.maxWork) {
      throw new DiceError('LIMIT', `exact odds need more than maxOddsWork (${this.maxWork}) steps`, where, expression, 'maxOddsWork');
    }
  }
  span(span: number, where = 0, expression = ''): void {
    if (span > this.maxSpan) {
      throw new DiceError('LIMIT', `the distribution would span ${span} values, over maxOddsSpan (${this.maxSpan})`, where, expression, 'maxOddsSpan');
    }
  }
}

/** Generous default so library callers of the Pmf helpers are never silently slow. */
const UNMETERED = new OddsBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);

export class Pmf {
  /** Smallest value of the support (the array's first index). */
  readonly min: number;
  /** Largest value of the support. */
  readonly max: number;
  /**
   * Probability left out of the distribution (explosions expanded only until
   * the remaining chance is negligible, or cut at the cap). The stored
   * probabilities sum to 1 - truncatedMass.
   */
  readonly truncatedMass: number;
  readonly #p: Float64Array;
  /** Sparse: the value of each probability (ascending); null when dense. */
  readonly #v: Float64Array | null;
  #mean: number | undefined;
  #variance: number | undefined;
  #cum: Float64Array | undefined;
  #suffix: Float64Array | undefined;

  /** `probs[i]` is the probability of `min + i`; the array is taken over (do not mutate it afterwards). */
  constructor(min: number, probs: Float64Array, truncatedMass = 0, values: Float64Array | null = null) {
    if (probs.length === 0) throw new DiceError('UNSUPPORTED', 'a distribution needs at least one value');
    if (values !== null) {
      this.#p = probs;
      this.#v = values;
      this.min = values[0]!;
      this.max = values[values.length - 1]!;
      this.truncatedMass = truncatedMass;
      return;
    }
    this.#v = null;
    // Trim exact zeros at the ends so min/max are real outcomes.
    let a = 0;
    let b = probs.length - 1;
    while (a < b && probs[a] === 0) a++;
    while (b > a && probs[b] === 0) b--;
    this.#p = a === 0 && b === probs.length - 1 ? probs : probs.slice(a, b + 1);
    this.min = min + a;
    this.max = min + b;
    this.truncatedMass = truncatedMass;
  }

  static constant(value: number): Pmf {
    return Number.isInteger(value) ? new Pmf(value, Float64Array.of(1)) : new Pmf(value, Float64Array.of(1), 0, Float64Array.of(value));
  }

  /**
   * From (value, probability) pairs that may include non-whole values (equal
   * values add up). Whole values only: the dense form.
   */
  static fromReal(pairs: Iterable<readonly [number, number]>, truncatedMass = 0): Pmf {
    const m = new Map<number, number>();
    let whole = true;
    for (const [v, q] of pairs) {
      const k = v + 0;
      m.set(k, (m.get(k) ?? 0) + q);
      if (!Number.isInteger(k)) whole = false;
    }
    if (m.size === 0) throw new DiceError('UNSUPPORTED', 'a distribution needs at least one value');
    if (whole) {
      let lo = Infinity;
      let hi = -Infinity;
      for (const k of m.keys()) {
        if (k < lo) lo = k;
        if (k > hi) hi = k;
      }
      // Dense only when the array stays small next to the values it holds (2^d20 is sparse).
      if (hi - lo <= Math.max(1_000_000, 8 * m.size)) return Pmf.fromEntries(m, truncatedMass);
    }
    const list = [...m].filter(([, q]) => q > 0).sort((a, b) => a[0] - b[0]);
    if (list.length === 0) list.push([[...m.keys()][0]!, 0]);
    return new Pmf(0, Float64Array.from(list, (x) => x[1]), truncatedMass, Float64Array.from(list, (x) => x[0]));
  }

  /** Dense (whole values, array from min to max) or sparse (listed values). */
  get dense(): boolean {
    return this.#v === null;
  }

  /** The value at index i of `raw` (min + i when dense). */
  valueAt(i: number): number {
    return this.#v === null ? this.min + i : this.#v[i]!;
  }

  /** Index of the last value <= x (-1 when none). */
  #floorIndex(x: number): number {
    const v = this.#v!;
    let lo = 0;
    let hi = v.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid]! <= x) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return at;
  }

  /** From (value, probability) pairs; repeated values add up. */
  static fromEntries(pairs: Iterable<readonly [number, number]>, truncatedMass = 0): Pmf {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    const list = [...pairs];
    for (const [v] of list) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (list.length === 0) throw new DiceError('UNSUPPORTED', 'a distribution needs at least one value');
    const p = new Float64Array(hi - lo + 1);
    for (const [v, q] of list) p[v - lo]! += q;
    return new Pmf(lo, p, truncatedMass);
  }

  /** The raw probabilities (a copy); index i is the value min + i. */
  toArray(): Float64Array {
    return this.#p.slice();
  }

  /** @internal read-only view for the odds engine (never mutate). */
  get raw(): Float64Array {
    return this.#p;
  }

  get mean(): number {
    if (this.#mean === undefined) {
      let s = 0;
      let w = 0;
      const p = this.#p;
      const v = this.#v;
      for (let i = 0; i < p.length; i++) {
        s += (v === null ? i : v[i]! - this.min) * p[i]!;
        w += p[i]!;
      }
      // Offsetting by min keeps the products small; dividing by the kept mass
      // gives the mean of the distribution as stored (w = 1 unless truncated).
      this.#mean = this.min + (w > 0 ? s / w : 0);
    }
    return this.#mean;
  }

  get variance(): number {
    if (this.#variance === undefined) {
      const m = this.mean - this.min;
      let s = 0;
      let w = 0;
      const p = this.#p;
      const v = this.#v;
      for (let i = 0; i < p.length; i++) {
        const d = (v === null ? i : v[i]! - this.min) - m;
        s += d * d * p[i]!;
        w += p[i]!;
      }
      this.#variance = w > 0 ? s / w : 0;
    }
    return this.#variance;
  }

  get stddev(): number {
    return Math.sqrt(this.variance);
  }

  /** Sum of the stored probabilities (1 - truncatedMass, up to rounding). */
  get total(): number {
    return this.atMost(this.max);
  }

  probability(value: number): number {
    if (this.#v !== null) {
      const i = this.#floorIndex(value);
      return i >= 0 && this.#v[i] === value ? this.#p[i]! : 0;
    }
    if (!Number.isInteger(value) || value < this.min || value > this.max) return 0;
    return this.#p[value - this.min]!;
  }

  /** P(X <= value). */
  cdf(value: number): number {
    if (value < this.min) return 0;
    const cum = this.#cumulative();
    const i = this.#v !== null ? this.#floorIndex(value) : Math.min(Math.floor(value), this.max) - this.min;
    return cum[i]!;
  }

  atMost(value: number): number {
    return this.cdf(value);
  }

  /** P(X >= value), summed from the top so small tails keep their precision. */
  atLeast(value: number): number {
    if (value > this.max) return 0;
    const v = this.#v !== null ? value : Math.ceil(value);
    if (!this.#suffix) {
      const p = this.#p;
      const c = new Float64Array(p.length);
      let s = 0;
      for (let i = p.length - 1; i >= 0; i--) c[i] = s += p[i]!;
      this.#suffix = c;
    }
    if (this.#v !== null) {
      const i = this.#floorIndex(v);
      return this.#suffix[i >= 0 && this.#v[i] === v ? i : i + 1]!;
    }
    return this.#suffix[Math.max(0, v - this.min)]!;
  }

  /** [value, probability] pairs in ascending order of value, zero-probability values left out. */
  entries(): [number, number][] {
    const out: [number, number][] = [];
    const p = this.#p;
    for (let i = 0; i < p.length; i++) if (p[i]! > 0) out.push([this.valueAt(i), p[i]!]);
    return out;
  }

  #cumulative(): Float64Array {
    if (!this.#cum) {
      const p = this.#p;
      const c = new Float64Array(p.length);
      let s = 0;
      for (let i = 0; i < p.length; i++) c[i] = s += p[i]!;
      this.#cum = c;
    }
    return this.#cum;
  }
}

/** A fair die numbered 1..sides. */
export function pmfOfDie(sides: number): Pmf {
  if (!Number.isSafeInteger(sides) || sides < 1) throw new DiceError('BAD_OPTION', `a die needs a positive whole number of sides, got ${sides}`);
  return new Pmf(1, new Float64Array(sides).fill(1 / sides));
}

/** Chance at least one of n independent events of chance t happens, accurate for tiny t. */
function anyOf(t: number, n: number): number {
  return t > 0 ? -Math.expm1(n * Math.log1p(-t)) : 0;
}

function combineTruncation(a: number, b: number): number {
  return a + b - a * b;
}

/** The distribution of A + B for independent A and B (direct convolution). */
export function convolve(a: Pmf, b: Pmf, budget: OddsBudget = UNMETERED): Pmf {
  const pa = a.raw;
  const pb = b.raw;
  budget.span(pa.length + pb.length - 1);
  budget.charge(pa.length * pb.length);
  const out = new Float64Array(pa.length + pb.length - 1);
  // The shorter array in the inner loop keeps the loop tight.
  const [x, y] = pa.length >= pb.length ? [pa, pb] : [pb, pa];
  for (let j = 0; j < y.length; j++) {
    const q = y[j]!;
    if (q === 0) continue;
    for (let i = 0; i < x.length; i++) out[i + j]! += x[i]! * q;
  }
  return new Pmf(a.min + b.min, out, combineTruncation(a.truncatedMass, b.truncatedMass));
}

/** The distribution of f(X). */
export function mapPmf(pmf: Pmf, f: (value: number) => number): Pmf {
  const pairs: [number, number][] = [];
  const p = pmf.raw;
  for (let i = 0; i < p.length; i++) {
    if (p[i]! > 0 || i === 0 || i === p.length - 1) {
      const v = f(pmf.valueAt(i));
      if (!Number.isFinite(v)) throw new DiceError('UNSUPPORTED', `mapPmf needs finite results, got ${v}`);
      pairs.push([v, p[i]!]);
    }
  }
  return Pmf.fromReal(pairs, pmf.truncatedMass);
}

/** -X, without a map (cheap reversal). */
export function negatePmf(pmf: Pmf): Pmf {
  if (!pmf.dense) return mapPmf(pmf, (x) => -x);
  const p = pmf.toArray().reverse();
  return new Pmf(-pmf.max, p, pmf.truncatedMass);
}

/** X + c. */
export function shiftPmf(pmf: Pmf, c: number): Pmf {
  if (!pmf.dense || !Number.isInteger(c)) return mapPmf(pmf, (x) => x + c);
  return c === 0 ? pmf : new Pmf(pmf.min + c, pmf.toArray(), pmf.truncatedMass);
}

/** Is this a fair die 1..n (all faces equal)? Such dice add by sliding window. */
function uniformSides(pmf: Pmf): number {
  const p = pmf.raw;
  if (pmf.min !== 1 || pmf.truncatedMass !== 0) return 0;
  const q = p[0]!;
  for (let i = 1; i < p.length; i++) if (p[i] !== q) return 0;
  return p.length;
}

/**
 * The sum of n independent copies of `die`. Small dice convolve directly (all
 * terms positive, so tails stay exact to the last bit); wide fair dice use a
 * sliding window over prefix sums, O(n * span) whatever the sides.
 */
export function sumIid(die: Pmf, n: number, budget: OddsBudget = UNMETERED): Pmf {
  if (n === 0) return Pmf.constant(0);
  const d = die.raw;
  const sides = uniformSides(die);
  budget.span((d.length - 1) * n + 1);
  if (sides > 12) {
    budget.charge(n * n * sides);
    let acc = new Float64Array(1).fill(1);
    let accMin = 0;
    const q = 1 / sides;
    const cum = new Float64Array(sides * n + 2);
    for (let k = 0; k < n; k++) {
      const len = acc.length + sides - 1;
      cum[0] = 0;
      for (let i = 0; i < acc.length; i++) cum[i + 1] = cum[i]! + acc[i]!;
      const next = new Float64Array(len);
      const last = cum[acc.length]!;
      for (let v = 0; v < len; v++) {
        // next[v] = q * sum(acc[v - sides + 1 .. v])
        const hi = v + 1 > acc.length ? last : cum[v + 1]!;
        const lo = v - sides + 1 > 0 ? cum[v - sides + 1]! : 0;
        const s = hi - lo;
        next[v] = s > 0 ? s * q : 0;
      }
      acc = next;
      accMin += 1;
    }
    return new Pmf(accMin, acc);
  }
  // Direct convolution in one buffer: walking values downward, each new entry
  // reads only lower, not-yet-updated entries (faces shifted to start at 0).
  const D = d.length;
  budget.charge(n * n * D * D / 2);
  const acc = new Float64Array((D - 1) * n + 1);
  acc[0] = 1;
  let top = 0;
  for (let k = 0; k < n; k++) {
    top += D - 1;
    for (let v = top; v >= 0; v--) {
      let s = 0;
      const jMax = v < D - 1 ? v : D - 1;
      const jMin = v - (top - (D - 1)) > 0 ? v - (top - (D - 1)) : 0;
      for (let j = jMin; j <= jMax; j++) s += d[j]! * acc[v - j]!;
      acc[v] = s;
    }
  }
  return new Pmf(die.min * n, acc, anyOf(die.truncatedMass, n));
}

/** Log of the binomial probabilities P(C = c) for c in 0..upTo, C ~ Binomial(r, q), 0 < q < 1. */
function binomialHead(r: number, q: number, upTo: number, out: Float64Array): void {
  let lg = r * Math.log1p(-q);
  const ratio = Math.log(q) - Math.log1p(-q);
  for (let c = 0; c <= upTo; c++) {
    out[c] = c <= r ? Math.exp(lg) : 0;
    lg += Math.log((r - c) / (c + 1)) + ratio;
  }
}

/**
 * The sum of the k highest of n independent copies of `die`, by a dynamic
 * program over the faces from the top down (order statistics): at each face,
 * how many of the still-unplaced dice show it is binomial, and only the
 * number of kept slots left matters (the dropped count is fixed at n - k).
 * Work is faces * k^2 * (k * width), polynomial; no enumeration of outcomes.
 */
export function keepHighest(die: Pmf, n: number, k: number, budget: OddsBudget = UNMETERED, weight?: (face: number) => number): Pmf {
  if (k <= 0) return Pmf.constant(0);
  if (k >= n && !weight) return sumIid(die, n, budget);
  if (k >= n) return sumIid(mapPmf(die, weight!), n, budget);
  const t = die.truncatedMass;
  // Ascending faces with positive probability; each kept die adds its weight (its value, or e.g. a success).
  const faces = die.entries().map(([f, p]) => [weight ? weight(f) : f, p] as [number, number]);
  const total = faces.reduce((s, [, p]) => s + p, 0);
  const dropped = n - k;
  const ws = faces.map(([w]) => w);
  const fMin = Math.min(...ws);
  const fMax = Math.max(...ws);
  const lo = Math.min(0, k * fMin);
  const hi = Math.max(0, k * fMax);
  const width = hi - lo + 1;
  budget.span(width);
  budget.charge(faces.length * ((k * (k + 1)) / 2) * width);
  // cur[s]: partial sums of the kept dice when s keep-slots are still open,
  // nonzero only between curLo[s] and curHi[s] (tracked to skip empty cells).
  let cur: (Float64Array | null)[] = new Array<Float64Array | null>(k + 1).fill(null);
  let curLo = new Int32Array(k + 1);
  let curHi = new Int32Array(k + 1);
  const start = new Float64Array(width);
  start[-lo] = 1;
  cur[k] = start;
  curLo[k] = curHi[k] = -lo;
  const result = new Float64Array(width);
  const binom = new Float64Array(k + 1);
  let below = total; // mass of faces at or below the current one
  for (let fi = faces.length - 1; fi >= 0; fi--) {
    const [f, pf] = faces[fi]!;
    const q = fi === 0 ? 1 : Math.min(1, pf / below);
    below -= pf;
    const next: (Float64Array | null)[] = new Array<Float64Array | null>(k + 1).fill(null);
    const nextLo = new Int32Array(k + 1);
    const nextHi = new Int32Array(k + 1);
    for (let s = 1; s <= k; s++) {
      const vec = cur[s];
      if (!vec) continue;
      const a = curLo[s]!;
      const b = curHi[s]!;
      const r = s + dropped;
      let head = 0;
      if (q < 1) {
        binomialHead(r, q, s - 1, binom);
        for (let c = 0; c < s; c++) head += binom[c]!;
      } else {
        binom.fill(0);
      }
      const tail = Math.max(0, 1 - head);
      for (let c = 0; c < s; c++) {
        const w = binom[c]!;
        if (w === 0) continue;
        const target = s - c;
        const shift = c * f;
        let dst = next[target];
        if (!dst) {
          dst = next[target] = new Float64Array(width);
          nextLo[target] = a + shift;
          nextHi[target] = b + shift;
        } else {
          if (a + shift < nextLo[target]!) nextLo[target] = a + shift;
          if (b + shift > nextHi[target]!) nextHi[target] = b + shift;
        }
        for (let x = a; x <= b; x++) dst[x + shift]! += vec[x]! * w;
      }
      if (tail > 0) {
        const shift = s * f;
        for (let x = a; x <= b; x++) result[x + shift]! += vec[x]! * tail;
      }
    }
    cur = next;
    curLo = nextLo;
    curHi = nextHi;
  }
  // The DP is conditional on no die being truncated; scale back by that chance.
  const keptMass = t > 0 ? Math.pow(1 - t, n) : 1;
  if (keptMass !== 1) for (let i = 0; i < width; i++) result[i]! *= keptMass;
  return new Pmf(lo, result, anyOf(t, n));
}

/** The sum of the k lowest of n copies (or of their weights): keep-highest of the negated die. */
export function keepLowest(die: Pmf, n: number, k: number, budget: OddsBudget = UNMETERED, weight?: (face: number) => number): Pmf {
  if (!weight) return negatePmf(keepHighest(negatePmf(die), n, k, budget));
  return keepHighest(negatePmf(die), n, k, budget, (v) => weight(-v));
}

/** Highest (or lowest) single die of n: P(max <= v) = F(v)^n. */
export function extremeOf(die: Pmf, n: number, highest: boolean): Pmf {
  const p = die.raw;
  const out = new Float64Array(p.length);
  if (highest) {
    let below = 0;
    let prev = 0;
    for (let i = 0; i < p.length; i++) {
      below += p[i]!;
      const c = Math.pow(below, n);
      out[i] = c - prev;
      prev = c;
    }
  } else {
    let above = 0;
    let prev = 0;
    for (let i = p.length - 1; i >= 0; i--) {
      above += p[i]!;
      const c = Math.pow(above, n);
      out[i] = c - prev;
      prev = c;
    }
  }
  return new Pmf(die.min, out);
}
