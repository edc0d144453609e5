// Exact distributions of notation. Sums convolve, keep/drop use the
// order-statistics dynamic program, explosions expand until the remaining
// chance is negligible or the cap is reached, and other arithmetic combines
// the independent sides pairwise. No sampling anywhere.

import { type Expr, type Root, compare, divide } from './ast.js';
import { dieModel } from './compile.js';
import { DiceError } from './errors.js';
import type { DiceLimits } from './limits.js';
import { rerollMatches } from './parser.js';
import { OddsBudget, Pmf, convolve, keepHighest, keepLowest, mapPmf, negatePmf, sumIid } from './pmf.js';
import type { DiceNode } from './ast.js';

export interface OddsResult {
  expression: string;
  /** Smallest / largest value with probability kept in the distribution (left side of a comparison). */
  min: number;
  max: number;
  /** Exact mean of the distribution (never (min + max) / 2). */
  mean: number;
  variance: number;
  stddev: number;
  distribution: Pmf;
  /** Probability left out (explosion chains not expanded); the distribution sums to 1 - truncatedMass. */
  truncatedMass: number;
  /** For `expr op expr`: the probability the comparison holds. */
  probability: number | null;
}

class OddsBuilder {
  readonly budget: OddsBudget;
  constructor(
    private readonly src: string,
    private readonly limits: DiceLimits,
  ) {
    this.budget = new OddsBudget(limits.maxOddsWork, limits.maxOddsSpan);
  }

  private guard<T>(node: Expr, f: () => T): T {
    try {
      return f();
    } catch (e) {
      // Re-point limit errors raised inside the Pmf helpers at this node.
      if (e instanceof DiceError && e.expression === '') throw new DiceError(e.code, e.message, node.pos, this.src, e.limit);
      throw e;
    }
  }

  /** One die's value after its reroll rule and explosion chain. */
  die(node: DiceNode): Pmf {
    const X = node.sides;
    const rule = node.reroll;
    const face = new Float64Array(X);
    if (!rule) face.fill(1 / X);
    else {
      let hits = 0;
      for (let f = 1; f <= X; f++) if (rerollMatches(rule, f)) hits++;
      for (let f = 1; f <= X; f++) {
        const bad = rerollMatches(rule, f);
        // Once: a bad face is rolled again and the second face stands. Repeated: uniform over the good faces.
        face[f - 1] = rule.once ? (bad ? 0 : 1 / X) + (hits / X) * (1 / X) : bad ? 0 : 1 / (X - hits);
      }
    }
    const single = new Pmf(1, face);
    if (!node.explode || this.limits.maxExplodeDepth === 0) return single;
    const pTop = face[X - 1]!;
    if (pTop === 0) return single;
    // Expand j explosions (value j*X + last face) while the chance of going on is not negligible.
    const depth = this.limits.maxExplodeDepth;
    let J = 0;
    while (J < depth && Math.pow(pTop, J + 1) >= this.limits.oddsTruncation) J++;
    const span = X * (J + 1);
    this.budget.span(span, node.pos, this.src);
    const out = new Float64Array(span);
    let reach = 1; // chance of having exploded j times
    for (let j = 0; j <= J; j++) {
      const last = j === depth; // at the cap the final face stands, even the highest
      for (let f = 1; f <= X; f++) {
        if (f === X && !last) continue;
        out[j * X + f - 1]! += reach * face[f - 1]!;
      }
      reach *= pTop;
    }
    const truncated = J === depth ? 0 : Math.pow(pTop, J + 1);
    return new Pmf(1, out, truncated);
  }

  dice(node: DiceNode): Pmf {
    const m = dieModel(node, this.limits);
    const die = this.die(node);
    return this.guard(node, () => {
      if (m.kept === node.count) return sumIid(die, node.count, this.budget);
      return m.keepHighest ? keepHighest(die, node.count, m.kept, this.budget) : keepLowest(die, node.count, m.kept, this.budget);
    });
  }

  pairwise(node: Expr, a: Pmf, b: Pmf, f: (x: number, y: number) => number): Pmf {
    return this.guard(node, () => {
      const pa = a.raw;
      const pb = b.raw;
      this.budget.charge(pa.length * pb.length);
      const corners = [f(a.min, b.min), f(a.min, b.max), f(a.max, b.min), f(a.max, b.max)];
      const lo = Math.min(...corners);
      const hi = Math.max(...corners);
      // min/max are monotone, so the corners bound them; products and quotients too (divisor never crosses 0).
      this.budget.span(hi - lo + 1);
      const out = new Float64Array(hi - lo + 1);
      for (let i = 0; i < pa.length; i++) {
        const p = pa[i]!;
        if (p === 0) continue;
        const x = a.min + i;
        for (let j = 0; j < pb.length; j++) {
          const q = pb[j]!;
          if (q !== 0) out[f(x, b.min + j) - lo]! += p * q;
        }
      }
      return new Pmf(lo, out, a.truncatedMass + b.truncatedMass - a.truncatedMass * b.truncatedMass);
    });
  }

  expr(node: Expr): Pmf {
    switch (node.kind) {
      case 'number':
        return Pmf.constant(node.value);
      case 'dice':
        return this.dice(node);
      case 'negate':
        return negatePmf(this.expr(node.arg));
      case 'call': {
        const args = node.args.map((x) => this.expr(x));
        if (node.fn === 'abs') return mapPmf(args[0]!, Math.abs);
        const pick = node.fn === 'min' ? Math.min : Math.max;
        return args.reduce((acc, b) => this.extreme(node, acc, b, node.fn === 'max') ?? this.pairwise(node, acc, b, pick));
      }
      case 'binary': {
        const a = this.expr(node.left);
        const b = this.expr(node.right);
        if (node.op === '+') return this.guard(node, () => convolve(a, b, this.budget));
        if (node.op === '-') return this.guard(node, () => convolve(a, negatePmf(b), this.budget));
        if (node.op === '*') {
          if (b.min === b.max) return this.scale(node, a, b.min);
          if (a.min === a.max) return this.scale(node, b, a.min);
          return this.pairwise(node, a, b, (x, y) => x * y);
        }
        const rounding = node.rounding;
        if (b.min === b.max) return mapPmf(a, (x) => divide(x, b.min, rounding));
        return this.pairwise(node, a, b, (x, y) => divide(x, y, rounding));
      }
    }
  }

  scale(node: Expr, a: Pmf, c: number): Pmf {
    this.budget.span(Math.abs(c) * (a.max - a.min) + 1, node.pos, this.src);
    return mapPmf(a, (x) => x * c);
  }

  /** max / min of two independent variables through their CDFs: O(span), not O(span^2). */
  extreme(_node: Expr, a: Pmf, b: Pmf, highest: boolean): Pmf | null {
    if (a.truncatedMass > 0 || b.truncatedMass > 0) return null;
    const lo = highest ? Math.max(a.min, b.min) : Math.min(a.min, b.min);
    const hi = highest ? Math.max(a.max, b.max) : Math.min(a.max, b.max);
    this.budget.charge((hi - lo + 1) * 2);
    const out = new Float64Array(hi - lo + 1);
    let prev = 0;
    if (highest) {
      for (let v = lo; v <= hi; v++) {
        const c = a.cdf(v) * b.cdf(v);
        out[v - lo] = Math.max(0, c - prev);
        prev = c;
      }
    } else {
      // P(min >= v) = P(a >= v) P(b >= v), walked from the top.
      for (let v = hi; v >= lo; v--) {
        const c = a.atLeast(v) * b.atLeast(v);
        out[v - lo] = Math.max(0, c - prev);
        prev = c;
      }
    }
    return new Pmf(lo, out);
  }

  root(ast: Root): OddsResult {
    const left = this.expr(ast.kind === 'compare' ? ast.left : ast);
    let probability: number | null = null;
    let truncated = left.truncatedMass;
    if (ast.kind === 'compare') {
      const right = this.expr(ast.right);
      let diff = left;
      if (right.min !== right.max || right.min !== 0) diff = this.guard(ast.right, () => convolve(left, negatePmf(right), this.budget));
      truncated = diff.truncatedMass;
      let p = 0;
      // Sum the side of the comparison away from the bulk last, smallest terms first.
      for (const [v, q] of diff.entries()) if (compare(ast.op, v, 0)) p += q;
      probability = Math.min(1, p);
    }
    return {
      expression: this.src,
      min: left.min,
      max: left.max,
      mean: left.mean,
      variance: left.variance,
      stddev: left.stddev,
      distribution: left,
      truncatedMass: truncated,
      probability,
    };
  }
}

export function oddsOfAst(ast: Root, src: string, limits: DiceLimits): OddsResult {
  return new OddsBuilder(src, limits).root(ast);
}
