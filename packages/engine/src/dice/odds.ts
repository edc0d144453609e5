// Exact distributions of notation. Sums convolve, keep/drop use the
// order-statistics dynamic program, explosions expand until the remaining
// chance is negligible or the cap is reached, and other arithmetic combines
// the independent sides pairwise (sparse when values are not whole). No
// sampling anywhere.

import { type DiceNode, type Expr, type GroupNode, type Root, compare, finalValue, matches } from './ast.js';
import { clampValue, faceValues, scoreOf } from './compile.js';
import { DiceError } from './errors.js';
import type { DiceLimits } from './limits.js';
import { withSides } from './parser.js';
import { OddsBudget, Pmf, convolve, keepHighest, keepLowest, mapPmf, negatePmf, pmfOfDie, sumIid } from './pmf.js';
import { type PoolKeep, PoolOdds, type PoolOutcome, type PoolStates, poolLimit } from './pool.js';

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
  /** For a total comparison: the probability it holds. */
  probability: number | null;
}

/**
 * Work units charged per step of the map-based (sparse) paths: a hash-map
 * update costs tens of array steps, and maxOddsWork should bound time alike.
 */
const MAP_STEP = 200;

/** Sums p * (a distribution) into a value -> probability accumulator. */
function addScaled(acc: Map<number, number>, pmf: Pmf, p: number, shift = 0): void {
  const raw = pmf.raw;
  for (let i = 0; i < raw.length; i++) {
    const q = raw[i]!;
    if (q === 0) continue;
    const v = pmf.valueAt(i) + shift;
    acc.set(v, (acc.get(v) ?? 0) + p * q);
  }
}

function mixture(parts: readonly (readonly [number, Pmf])[], truncated = 0): Pmf {
  const acc = new Map<number, number>();
  let t = truncated;
  for (const [p, pmf] of parts) {
    addScaled(acc, pmf, p);
    t += p * pmf.truncatedMass;
  }
  if (acc.size === 0) acc.set(0, 0);
  return Pmf.fromReal(acc, t);
}

class OddsBuilder {
  readonly budget: OddsBudget;
  constructor(
    private readonly src: string,
    private readonly limits: DiceLimits,
  ) {
    this.budget = new OddsBudget(limits.maxOddsWork, limits.maxOddsSpan);
  }

  private guard<T>(node: { pos: number }, f: () => T): T {
    try {
      return f();
    } catch (e) {
      // Re-point limit errors raised inside the Pmf helpers at this node.
      if (e instanceof DiceError && e.expression === '') throw new DiceError(e.code, e.message, node.pos, this.src, e.limit);
      throw e;
    }
  }

  private unsupported(what: string, node: { pos: number }): never {
    throw new DiceError('UNSUPPORTED', `exact odds of ${what} are not supported (see docs/dice.md)`, node.pos, this.src);
  }

  /** Probability of each raw value of one die (Fate faces merge). */
  raw(node: DiceNode): Pmf {
    if (node.fate === 0) return pmfOfDie(node.sides);
    const fv = faceValues(node);
    const n = fv.length - 1;
    const pairs: [number, number][] = [];
    for (let i = 1; i <= n; i++) pairs.push([fv[i]!, 1 / n]);
    return Pmf.fromEntries(pairs);
  }

  /** A value after the reroll rule: itself, or a fresh raw face (once), or one the rule allows (repeated). */
  rerolled(node: DiceNode, raw: Pmf, x: Pmf): Pmf {
    const rule = node.reroll;
    if (!rule) return x;
    let hit = 0;
    const acc = new Map<number, number>();
    for (const [v, p] of x.entries()) {
      if (matches(rule, v)) hit += p;
      else acc.set(v, (acc.get(v) ?? 0) + p);
    }
    if (hit > 0) {
      let again = raw;
      if (!rule.once) {
        const ok = raw.entries().filter(([v]) => !matches(rule, v));
        const mass = ok.reduce((s, [, p]) => s + p, 0);
        again = Pmf.fromEntries(ok.map(([v, p]) => [v, p / mass]));
      }
      addScaled(acc, again, hit);
    }
    return Pmf.fromReal(acc, x.truncatedMass);
  }

  /** A value as the term counts it: itself, or +1 / -1 / 0 when counting successes. */
  scored(node: DiceNode, x: Pmf): Pmf {
    return node.target ? mapPmf(x, (v) => scoreOf(node, v)) : x;
  }

  /** How deep to expand a chain that goes on with chance `p` per roll (and the mass left out). */
  chainDepth(p: number): number {
    const depth = this.limits.maxExplodeDepth;
    if (p <= 0) return 0;
    if (p >= 1) return depth;
    let J = 0;
    while (J < depth && Math.pow(p, J + 1) >= this.limits.oddsTruncation) J++;
    return J;
  }

  /**
   * One exploding chain, forward: `going` holds the partial sums (of values,
   * or of scores) of chains still exploding. Each new roll adds its
   * contribution; a face that does not match the trigger (or the cap) ends it.
   */
  chain(node: DiceNode, raw: Pmf, perRoll: (first: boolean, face: number) => Pmf): Pmf {
    const ex = node.explode!;
    const depth = this.limits.maxExplodeDepth;
    // Refuse wide dice before touching their faces one by one (d1000000!).
    this.budget.charge(raw.raw.length * raw.raw.length * MAP_STEP, node.pos, this.src);
    const acc = new Map<number, number>();
    let going = new Map<number, number>();
    const faces = raw.entries();
    for (const [u, p] of faces) {
      const x0 = clampValue(node, u);
      const c = perRoll(true, x0);
      const into = matches(ex.trigger, x0) && depth > 0 ? going : acc;
      addScaled(into, c, p);
    }
    const pT = faces.filter(([u]) => matches(ex.trigger, u)).reduce((s, [, p]) => s + p, 0);
    // At least one extra roll: a clamped first roll may trigger where no raw face does (`d3min5!>4`).
    const J = depth === 0 ? 0 : Math.max(1, this.chainDepth(pT));
    const extra = faces.map(([u, p]) => [u, p, perRoll(false, u).entries()] as const);
    for (let j = 1; j <= J && going.size > 0; j++) {
      const next = new Map<number, number>();
      this.budget.charge(going.size * extra.reduce((n, x) => n + x[2].length, 0) * MAP_STEP, node.pos, this.src);
      for (const [u, p, c] of extra) {
        const more = matches(ex.trigger, u) && j < depth;
        const into = more ? next : acc;
        for (const [s, q] of going) for (const [v, r] of c) {
          const k = s + v;
          into.set(k, (into.get(k) ?? 0) + q * p * r);
        }
      }
      going = next;
      if (acc.size + going.size > this.limits.maxOddsSpan) this.budget.span(acc.size + going.size, node.pos, this.src);
    }
    let truncated = 0;
    for (const q of going.values()) truncated += q;
    if (acc.size === 0) acc.set(0, 0);
    return Pmf.fromReal(acc, truncated);
  }

  /** Distribution of one dice term with N dice. */
  term(node: DiceNode, N: number): Pmf {
    if (N === 0) return Pmf.constant(0);
    const raw = this.raw(node);
    const ex = node.explode && this.limits.maxExplodeDepth > 0 ? node.explode : null;
    const K = node.keep ? (node.keep.mode === 'kh' || node.keep.mode === 'kl' ? node.keep.count : N - node.keep.count) : N;
    const high = !node.keep || node.keep.mode === 'kh' || node.keep.mode === 'dl';
    const weight = node.target ? (v: number): number => scoreOf(node, v) : undefined;
    if (node.unique) {
      const u = node.unique;
      const plain = !u.once && !u.trigger && !node.explode && !node.reroll && node.clampMin === null && node.clampMax === null && node.fate === 0 && N <= node.sides;
      return plain ? this.unique(node, raw, N, K, high, weight) : this.pooled([node], [N], node.keep, weight ?? ((v) => v), node);
    }
    if (!ex || ex.compound) {
      // One value per die: the first face (clamped), its compounded chain, then the reroll rule.
      // The widest distribution this term can build, refused before any work.
      this.budget.span((raw.max - raw.min) * N + 1, node.pos, this.src);
      let die = node.clampMin === null && node.clampMax === null ? raw : mapPmf(raw, (u) => clampValue(node, u));
      if (ex) die = this.chain(node, raw, (first, face) => Pmf.constant(first ? face : face - (ex.penetrate ? 1 : 0)));
      die = this.rerolled(node, raw, die);
      return this.guard(node, () => {
        if (!node.keep || K >= N) return sumIid(this.scored(node, die), N, this.budget);
        const k = Math.max(0, Math.min(K, N));
        return high ? keepHighest(die, N, k, this.budget, weight) : keepLowest(die, N, k, this.budget, weight);
      });
    }
    // Separate explosions: every roll of the chain is a die of its own.
    const pen = ex.penetrate ? 1 : 0;
    if (!node.keep) {
      const chain = this.chain(node, raw, (first, face) => this.scored(node, this.rerolled(node, raw, Pmf.constant(first ? face : face - pen))));
      return this.guard(node, () => sumIid(chain, N, this.budget));
    }
    return this.keepExploded(node, raw, N, high, weight);
  }

  /**
   * Keep / drop over dice that explode into separate dice. The pool is N
   * faces off the trigger plus J on it, J negative-binomial; when every
   * trigger face is above (or below) every other face, the kept dice split
   * into the top of one part and the rest from the other.
   */
  keepExploded(node: DiceNode, raw: Pmf, N: number, high: boolean, weight?: (v: number) => number): Pmf {
    const ex = node.explode!;
    const on = raw.entries().filter(([u]) => matches(ex.trigger, u));
    const off = raw.entries().filter(([u]) => !matches(ex.trigger, u));
    if (on.length === 0 && node.clampMin === null && node.clampMax === null) return this.term({ ...node, explode: null }, N);
    const above = on.length > 0 && Math.min(...on.map(([u]) => u)) > Math.max(...off.map(([u]) => u));
    const below = on.length > 0 && Math.max(...on.map(([u]) => u)) < Math.min(...off.map(([u]) => u));
    const pT0 = on.reduce((s, [, p]) => s + p, 0);
    // The split below needs every die alike (no penetration, reroll or clamp) and the trigger at one end of the faces;
    // anything else goes through the pool of dice thrown one by one.
    if (ex.penetrate || node.reroll || node.clampMin !== null || node.clampMax !== null || (!above && !below)
      || Math.pow(pT0, this.limits.maxExplodeDepth) >= this.limits.oddsTruncation) {
      return this.pooled([node], [N], node.keep, weight ?? ((v) => v), node);
    }
    const pT = on.reduce((s, [, p]) => s + p, 0);
    if (Math.pow(pT, this.limits.maxExplodeDepth) >= this.limits.oddsTruncation) this.unsupported('keep or drop over explosions that reach the cap this often', node);
    const norm = (list: [number, number][], m: number): Pmf => Pmf.fromEntries(list.map(([v, p]) => [v, p / m]));
    const A = norm(off, 1 - pT);
    const B = norm(on, pT);
    const parts: [number, Pmf][] = [];
    // P(J = j) for a negative binomial: j trigger faces before the N-th other face.
    // In logs: (1 - pT)^N underflows for large pools.
    let logPj = N * Math.log1p(-pT);
    const logPT = Math.log(pT);
    let mass = 0;
    const jMax = N * this.limits.maxExplodeDepth;
    const keepOf = (total: number): number => {
      const k = node.keep!;
      return k.mode === 'kh' || k.mode === 'kl' ? Math.min(k.count, total) : Math.max(0, total - k.count);
    };
    // The high part (top of the pool) and the low part, by where the trigger faces lie.
    const pick = (pmf: Pmf, n: number, k: number, top: boolean): Pmf => {
      if (k <= 0 || n === 0) return Pmf.constant(0);
      return top ? keepHighest(pmf, n, Math.min(k, n), this.budget, weight) : keepLowest(pmf, n, Math.min(k, n), this.budget, weight);
    };
    const mean = (N * pT) / (1 - pT);
    for (let j = 0; j <= jMax; j++) {
      if (j > 0) logPj += Math.log((N + j - 1) / j) + logPT;
      const pj = Math.exp(logPj);
      // Past the mean, stop once the terms are negligible (they only shrink from there).
      if (j > mean && pj < this.limits.oddsTruncation) break;
      this.budget.charge(N + j, node.pos, this.src);
      mass += pj;
      const K = keepOf(N + j);
      const [hiPart, hiN, loPart, loN] = above ? [B, j, A, N] : [A, N, B, j];
      const dist = this.guard(node, () => {
        if (high) {
          const kTop = Math.min(K, hiN);
          return convolve(pick(hiPart, hiN, kTop, true), pick(loPart, loN, K - kTop, true), this.budget);
        }
        const kLow = Math.min(K, loN);
        return convolve(pick(loPart, loN, kLow, false), pick(hiPart, hiN, K - kLow, false), this.budget);
      });
      parts.push([pj, dist]);
    }
    return mixture(parts, Math.max(0, 1 - mass));
  }

  /** `u`: the dice are a uniformly random set of distinct faces (rolled in turn, each new one unlike the last). */
  unique(node: DiceNode, raw: Pmf, N: number, K: number, high: boolean, weight?: (v: number) => number): Pmf {
    const u = node.unique!;
    if (u.once || u.trigger || node.explode || node.reroll || node.clampMin !== null || node.clampMax !== null || node.fate !== 0) {
      this.unsupported('unique dice with once, a trigger, explosions, rerolls, min/max or Fate faces', node);
    }
    const F = node.sides;
    if (N > F) this.unsupported('unique dice beyond the number of faces', node);
    const w = weight ?? ((v: number): number => v);
    // Faces visited from the kept end; kept while fewer than K chosen. counts[c]: sums -> number of sets.
    const order = Array.from({ length: F }, (_, i) => (high ? F - i : i + 1));
    let layers: Map<number, number>[] = Array.from({ length: N + 1 }, () => new Map<number, number>());
    layers[0]!.set(0, 1);
    this.budget.charge(F * N * MAP_STEP, node.pos, this.src);
    for (const f of order) {
      const next = layers.map((m) => new Map(m));
      for (let c = 0; c < N; c++) {
        for (const [s, cnt] of layers[c]!) {
          const v = c < K ? s + w(f) : s;
          const m = next[c + 1]!;
          m.set(v, (m.get(v) ?? 0) + cnt);
        }
      }
      layers = next;
      this.budget.charge(layers.reduce((s, m) => s + m.size, 0) * MAP_STEP, node.pos, this.src);
    }
    let sets = 1;
    for (let i = 0; i < N; i++) sets = (sets * (F - i)) / (i + 1);
    return Pmf.fromReal([...layers[N]!].map(([s, cnt]) => [s, cnt / sets] as [number, number]));
  }

  dice(node: DiceNode): Pmf {
    if (node.sidesExpr) {
      // Rolled sides: a mixture over the side counts, each term as if its sides were written.
      const sides = this.expr(node.sidesExpr);
      const parts: [number, Pmf][] = [];
      for (const [s, p] of sides.entries()) {
        const t = this.dice(withSides(node, s, this.src));
        this.budget.charge(t.raw.length * MAP_STEP, node.pos, this.src);
        parts.push([p, t]);
      }
      return mixture(parts, sides.truncatedMass);
    }
    if (!node.countExpr) return this.term(node, node.count);
    const counts = this.expr(node.countExpr);
    const parts: [number, Pmf][] = [];
    for (const [c, p] of counts.entries()) {
      const t = this.term(node, c);
      this.budget.charge(t.raw.length * MAP_STEP, node.pos, this.src);
      parts.push([p, t]);
    }
    return mixture(parts, counts.truncatedMass);
  }

  group(node: GroupNode): Pmf {
    const members = node.members.map((m) => this.side(m));
    const t = node.target;
    const score = (v: number): number => (matches(t!.success, v) ? 1 : t!.failure && matches(t!.failure, v) ? -1 : 0);
    const keep = node.keep;
    const M = members.length;
    if (M === 1) {
      let d = members[0]!;
      if (keep) d = this.groupDice(node);
      return t ? mapPmf(d, score) : d;
    }
    if (!keep) return members.map((m) => (t ? mapPmf(m, score) : m)).reduce((a, b) => this.guard(node, () => this.add(a, b)));
    const K = keep.mode === 'kh' || keep.mode === 'kl' ? keep.count : M - keep.count;
    const high = keep.mode === 'kh' || keep.mode === 'dl';
    const same = node.members.every((m) => JSON.stringify(strip(m)) === JSON.stringify(strip(node.members[0]!)));
    if (same && members[0]!.dense) {
      const w = t ? score : undefined;
      return this.guard(node, () => (high ? keepHighest(members[0]!, M, K, this.budget, w) : keepLowest(members[0]!, M, K, this.budget, w)));
    }
    if (K === 1 && !t) return members.reduce((a, b) => this.extreme(a, b, high));
    if (K === M - 1 && M === 2 && !t) return this.extreme(members[0]!, members[1]!, !high);
    return this.pooledMembers(node, members, keep, t ? score : (v) => v);
  }

  /** Keep / drop over different members: each member's total is one die of the pool. */
  private pooledMembers(node: GroupNode, members: readonly Pmf[], keep: PoolKeep, weight: (v: number) => number): Pmf {
    const values = new Set<number>();
    for (const m of members) for (const [v] of m.entries()) values.add(v);
    const pool = new PoolOdds(values, keep, weight, this.budget, this.limits.maxOddsSpan, poolLimit(this.src, node.pos));
    pool.track(null);
    for (const m of members) {
      const outs: PoolOutcome[] = m.entries().map(([v, p]) => ({ value: v, p, more: false }));
      pool.states = pool.step(pool.states, () => outs, node.pos, this.src).done;
    }
    const out = pool.result();
    let mass = 0;
    for (const p of out.values()) mass += p;
    if (out.size === 0) out.set(0, 0);
    return Pmf.fromReal(out, members.some((m) => m.truncatedMass > 0) ? Math.max(0, 1 - mass) : 0);
  }

  /** `{4d6+2d8}kh1`: keep / drop across every die of the one member. */
  groupDice(node: GroupNode): Pmf {
    const keep = node.keep!;
    const terms: DiceNode[] = [];
    const walk = (e: Expr): void => {
      if (e.kind === 'dice') terms.push(e);
      else if (e.kind === 'binary') {
        walk(e.left);
        walk(e.right);
      }
    };
    walk(node.members[0]!);
    const total = terms.reduce((s, d) => s + d.count, 0);
    const K = keep.mode === 'kh' || keep.mode === 'kl' ? Math.min(keep.count, total) : Math.max(0, total - keep.count);
    const high = keep.mode === 'kh' || keep.mode === 'dl';
    // Separate explosions and unique rules change which dice exist or what they show: the pool, die by die.
    if (terms.some((d) => (d.explode && !d.explode.compound && this.limits.maxExplodeDepth > 0) || d.unique)) {
      return this.pooled(terms, terms.map((d) => d.count), keep, (v) => v, node);
    }
    const dies = terms.map((d) => this.term({ ...d, count: 1, keep: null, target: null, sort: null }, 1));
    const sameDie = terms.every((d) => d.sides === terms[0]!.sides && d.fate === terms[0]!.fate && JSON.stringify({ ...strip(d), count: 0 }) === JSON.stringify({ ...strip(terms[0]!), count: 0 }));
    if (sameDie) return this.guard(node, () => (high ? keepHighest(dies[0]!, total, K, this.budget) : keepLowest(dies[0]!, total, K, this.budget)));
    if (K === 1) {
      let acc: Pmf | null = null;
      terms.forEach((d, i) => {
        for (let c = 0; c < d.count; c++) acc = acc ? this.extreme(acc, dies[i]!, high) : dies[i]!;
      });
      return acc!;
    }
    if (K === total) return terms.map((d, i) => sumIid(dies[i]!, d.count, this.budget)).reduce((a, b) => convolve(a, b, this.budget));
    return this.pooled(terms, terms.map((d) => d.count), keep, (v) => v, node);
  }

  /** A raw face's value after the term's reroll rule: itself, a fresh face (once), or a face the rule allows. */
  private rerollEntries(node: DiceNode, rawE: readonly (readonly [number, number])[], x: number): (readonly [number, number])[] {
    const rule = node.reroll;
    if (!rule || !matches(rule, x)) return [[x, 1]];
    if (rule.once) return [...rawE];
    const ok = rawE.filter(([v]) => !matches(rule, v));
    const mass = ok.reduce((t, [, p]) => t + p, 0);
    return ok.map(([v, p]) => [v, p / mass] as const);
  }

  /**
   * Keep / drop and unique over dice thrown one by one, in the roller's order:
   * each die (and its explosion chain) after the one before, every roll then
   * rerolled, then made unique against the values already seen in its term.
   */
  private pooled(terms: readonly DiceNode[], counts: readonly number[], keep: PoolKeep | null, weight: (v: number) => number, at: { pos: number }): Pmf {
    const depth = this.limits.maxExplodeDepth;
    const plans = terms.map((node) => {
      const raw = this.raw(node);
      const ex = node.explode && depth > 0 ? node.explode : null;
      const compound = ex?.compound ? this.chain(node, raw, (first, face) => Pmf.constant(first ? face : face - (ex.penetrate ? 1 : 0))) : null;
      return { node, raw, rawE: raw.entries(), ex, compound };
    });
    const values = new Set<number>();
    for (const { node, rawE, ex, compound } of plans) {
      for (const [u] of rawE) {
        values.add(u);
        values.add(clampValue(node, u));
        if (ex && !ex.compound) values.add(u - (ex.penetrate ? 1 : 0));
      }
      if (compound) for (const [v] of compound.entries()) values.add(v);
    }
    const pool = new PoolOdds(values, keep, weight, this.budget, this.limits.maxOddsSpan, poolLimit(this.src, at.pos));
    let cut = plans.some((x) => x.compound !== null && x.compound.truncatedMass > 0);
    plans.forEach((plan, t) => {
      if (this.poolTerm(pool, plan, counts[t]!, values, at)) cut = true;
    });
    const out = pool.result();
    let mass = 0;
    for (const p of out.values()) mass += p;
    if (out.size === 0) out.set(0, 0);
    // Only chains left unexpanded lose mass; otherwise 1 - mass is rounding, not truncation.
    return Pmf.fromReal(out, cut ? Math.max(0, 1 - mass) : 0);
  }

  private poolTerm(
    pool: PoolOdds,
    plan: { node: DiceNode; rawE: [number, number][]; ex: DiceNode['explode']; compound: Pmf | null },
    N: number,
    values: ReadonlySet<number>,
    at: { pos: number },
  ): boolean {
    const { node, rawE, ex, compound } = plan;
    const u = node.unique;
    const cap = this.limits.maxExplodeDepth;
    const pen = ex?.penetrate ? 1 : 0;
    // One die has nothing to repeat unless it explodes into more dice: then its chain must stay unique too.
    pool.track(u && (N > 1 || (ex !== null && !ex.compound)) ? values : null);
    // What a die that rolled x ends on, given the values already seen: the reroll rule, then the unique rule.
    const uniqueEntries = (y: number, seen: number): (readonly [number, number])[] => {
      const bad = (v: number): boolean => (u!.trigger === null || matches(u!.trigger, v)) && pool.seen(seen, v);
      if (!bad(y)) return [[y, 1]];
      if (u!.once) return rawE;
      // Rerolled while it repeats a value; after `cap` rerolls, straight from the values not yet seen (the roller's rule).
      const good = rawE.filter(([v]) => !bad(v));
      const pg = good.reduce((t, [, p]) => t + p, 0);
      const tail = pg > 0 ? (1 - pg) ** cap : 1;
      const acc = new Map<number, number>();
      const put = (v: number, p: number): void => void acc.set(v, (acc.get(v) ?? 0) + p);
      if (pg > 0) for (const [v, p] of good) put(v, ((1 - tail) * p) / pg);
      if (tail > 0) {
        const free = rawE.filter(([v]) => !pool.seen(seen, v));
        const pf = free.reduce((t, [, p]) => t + p, 0);
        if (pf > 0) for (const [v, p] of free) put(v, (tail * p) / pf);
        else {
          const badE = rawE.filter(([v]) => bad(v));
          const pb = badE.reduce((t, [, p]) => t + p, 0);
          for (const [v, p] of badE) put(v, (tail * p) / pb);
        }
      }
      return [...acc];
    };
    const after = (x: number, seen: number): (readonly [number, number])[] => {
      const r = this.rerollEntries(node, rawE, x);
      if (!u) return r;
      const acc = new Map<number, number>();
      for (const [y, q] of r) for (const [z, s] of uniqueEntries(y, seen)) acc.set(z, (acc.get(z) ?? 0) + q * s);
      return [...acc];
    };
    const build = (faces: readonly (readonly [number, number])[], valueOf: (face: number) => number, more: (face: number) => boolean) => {
      const memo = new Map<number, PoolOutcome[]>();
      return (seen: number): readonly PoolOutcome[] => {
        let list = memo.get(seen);
        if (list) return list;
        list = [];
        for (const [f, p] of faces) {
          const m = more(f);
          for (const [v, q] of after(valueOf(f), seen)) list.push({ value: v, p: p * q, more: m });
        }
        memo.set(seen, list);
        return list;
      };
    };
    if (!ex || compound) {
      const first = compound ? build(compound.entries(), (x) => x, () => false) : build(rawE, (f) => clampValue(node, f), () => false);
      for (let i = 0; i < N; i++) pool.states = pool.step(pool.states, first, at.pos, this.src).done;
      return false;
    }
    const first = build(rawE, (f) => clampValue(node, f), (f) => matches(ex.trigger, clampValue(node, f)));
    const pT = rawE.filter(([f]) => matches(ex.trigger, f)).reduce((t, [, p]) => t + p, 0);
    const J = Math.max(1, this.chainDepth(pT));
    const extras: ((seen: number) => readonly PoolOutcome[])[] = [];
    for (let j = 1; j <= J; j++) extras.push(build(rawE, (f) => f - pen, (f) => matches(ex.trigger, f) && j < cap));
    let cut = false;
    for (let i = 0; i < N; i++) {
      const r0 = pool.step(pool.states, first, at.pos, this.src);
      pool.states = r0.done;
      let going: PoolStates = r0.more;
      // A chain still going after J extra rolls is the truncated mass (left out of the states).
      for (let j = 1; j <= J && going.size > 0; j++) {
        const r = pool.step(going, extras[j - 1]!, at.pos, this.src);
        PoolOdds.merge(pool.states, r.done);
        going = r.more;
      }
      if (going.size > 0) cut = true;
    }
    return cut;
  }

  add(a: Pmf, b: Pmf): Pmf {
    if (a.dense && b.dense) return convolve(a, b, this.budget);
    return this.pairwise({ pos: 0 }, a, b, (x, y) => x + y);
  }

  pairwise(node: { pos: number }, a: Pmf, b: Pmf, f: (x: number, y: number) => number): Pmf {
    return this.guard(node, () => {
      const pa = a.raw;
      const pb = b.raw;
      this.budget.charge(pa.length * pb.length * MAP_STEP);
      const acc = new Map<number, number>();
      for (let i = 0; i < pa.length; i++) {
        const p = pa[i]!;
        if (p === 0) continue;
        const x = a.valueAt(i);
        for (let j = 0; j < pb.length; j++) {
          const q = pb[j]!;
          if (q === 0) continue;
          const v = f(x, b.valueAt(j)) + 0;
          acc.set(v, (acc.get(v) ?? 0) + p * q);
        }
      }
      if (acc.size > this.limits.maxOddsSpan) this.budget.span(acc.size);
      return Pmf.fromReal(acc, a.truncatedMass + b.truncatedMass - a.truncatedMass * b.truncatedMass);
    });
  }

  expr(node: Expr): Pmf {
    switch (node.kind) {
      case 'number':
        return Pmf.constant(node.value);
      case 'dice':
        return this.dice(node);
      case 'group':
        return this.group(node);
      case 'negate':
        return negatePmf(this.expr(node.arg));
      case 'call': {
        const args = node.args.map((x) => this.expr(x));
        const a = args[0]!;
        switch (node.fn) {
          case 'abs': return mapPmf(a, Math.abs);
          case 'floor': return mapPmf(a, Math.floor);
          case 'ceil': return mapPmf(a, Math.ceil);
          case 'round': return mapPmf(a, Math.round);
          case 'sign': return mapPmf(a, Math.sign);
          case 'sqrt': return mapPmf(a, Math.sqrt);
          case 'log': return mapPmf(a, Math.log);
          case 'exp': return mapPmf(a, Math.exp);
          case 'sin': return mapPmf(a, Math.sin);
          case 'cos': return mapPmf(a, Math.cos);
          case 'tan': return mapPmf(a, Math.tan);
          case 'pow': return this.pairwise(node, a, args[1]!, (x, y) => x ** y);
          case 'min':
          case 'max': {
            const high = node.fn === 'max';
            return args.reduce((acc, b) => (acc.dense && b.dense ? this.extreme(acc, b, high) : this.pairwise(node, acc, b, high ? Math.max : Math.min)));
          }
        }
        break;
      }
      case 'binary': {
        const a = this.expr(node.left);
        const b = this.expr(node.right);
        if (node.op === '+') return this.guard(node, () => this.add(a, b));
        if (node.op === '-') return this.guard(node, () => this.add(a, negatePmf(b)));
        if (node.op === '*') {
          if (b.min === b.max && a.dense && Number.isInteger(b.min)) return this.scale(node, a, b.min);
          if (a.min === a.max && b.dense && Number.isInteger(a.min)) return this.scale(node, b, a.min);
          return this.pairwise(node, a, b, (x, y) => x * y);
        }
        if (node.op === '/') return this.pairwise(node, a, b, (x, y) => x / y);
        if (node.op === '%') return this.pairwise(node, a, b, (x, y) => x % y);
        return this.pairwise(node, a, b, (x, y) => x ** y);
      }
    }
    throw new Error('internal: unknown node');
  }

  scale(node: Expr, a: Pmf, c: number): Pmf {
    this.budget.span(Math.abs(c) * (a.max - a.min) + 1, node.pos, this.src);
    return mapPmf(a, (x) => x * c);
  }

  /** max / min of two independent variables through their CDFs: O(span), not O(span^2). */
  extreme(a: Pmf, b: Pmf, highest: boolean): Pmf {
    if (a.truncatedMass > 0 || b.truncatedMass > 0 || !a.dense || !b.dense) return this.pairwise({ pos: 0 }, a, b, highest ? Math.max : Math.min);
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

  side(node: Expr): Pmf {
    const d = this.expr(node);
    if (!d.dense) this.budget.charge(d.raw.length * MAP_STEP, node.pos, this.src);
    // The roller rounds a value that is not whole to 2 decimals, once, at the end.
    return d.dense ? d : mapPmf(d, finalValue);
  }

  root(ast: Root): OddsResult {
    const left = this.side(ast.kind === 'compare' ? ast.left : ast);
    let probability: number | null = null;
    let truncated = left.truncatedMass;
    if (ast.kind === 'compare') {
      const right = this.side(ast.right);
      let p = 0;
      if (left.dense && right.dense) {
        let diff = left;
        if (right.min !== right.max || right.min !== 0) diff = this.guard(ast.right, () => convolve(left, negatePmf(right), this.budget));
        truncated = diff.truncatedMass;
        for (const [v, q] of diff.entries()) if (compare(ast.op, v, 0)) p += q;
      } else {
        for (const [x, q] of left.entries()) for (const [y, r] of right.entries()) if (compare(ast.op, x, y)) p += q * r;
        truncated = left.truncatedMass + right.truncatedMass - left.truncatedMass * right.truncatedMass;
      }
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

/** A node without its columns and label (two members are the same roll when these match). */
function strip(e: Expr): Record<string, unknown> {
  return JSON.parse(JSON.stringify(e, (k, v: unknown) => (k === 'pos' || k === 'end' || k === 'sidesPos' || k === 'opPos' || k === 'label' ? undefined : v))) as Record<string, unknown>;
}

export function oddsOfAst(ast: Root, src: string, limits: DiceLimits): OddsResult {
  return new OddsBuilder(src, limits).root(ast);
}
