// Compiles a parsed notation once into closures (no eval, no new Function):
// each node becomes a `total` function (the fast path, nothing allocated for
// plain dice) and a `record` function that also writes down every die.

import { type CompareNode, type CompareOp, type DiceNode, type Expr, type Root, compare, divide, print } from './ast.js';
import { DiceError } from './errors.js';
import type { DiceLimits } from './limits.js';
import { rerollMatches } from './parser.js';
import type { Rng } from './rng.js';

/** One die of a roll. */
export interface DieRoll {
  /** What the die counts as (an exploded chain is summed into its die). */
  value: number;
  /** False when keep/drop set it aside. */
  kept: boolean;
  /** It rolled its highest face and rolled again. */
  exploded: boolean;
  /** A reroll rule rolled it again. */
  rerolled: boolean;
  /** Every face thrown for this die, in order, when there was more than one. */
  rolls?: number[];
}

/** One dice term of the expression (e.g. the `4d6kh3` in `4d6kh3 + 2`). */
export interface DiceGroupRoll {
  /** The term in canonical notation. */
  notation: string;
  /** Column of the term in the expression. */
  position: number;
  sides: number;
  dice: DieRoll[];
  /** Sum of the kept dice. */
  total: number;
}

export interface DiceRollResult {
  expression: string;
  /** Value of the expression (the left side when there is a comparison). */
  total: number;
  /** Every dice term, in the order rolled (left to right). */
  dice: DiceGroupRoll[];
  /** For `expr op expr`: the right side's value and whether the comparison held. */
  comparison: { op: CompareOp; target: number; success: boolean } | null;
}

type TotalFn = (rng: Rng) => number;
type RecordFn = (rng: Rng, out: DiceGroupRoll[]) => number;
interface Compiled {
  readonly total: TotalFn;
  readonly record: RecordFn;
  readonly lo: number;
  readonly hi: number;
}

/** What a dice term does to each die, shared by the roller and the odds. */
export interface DieModel {
  readonly sides: number;
  /** Faces a repeated reroll can end on (all faces when there is no such rule). */
  readonly allowed: readonly number[];
  readonly explodeDepth: number;
  /** Dice counted and whether the highest (true) or lowest are kept. */
  readonly kept: number;
  readonly keepHighest: boolean;
  readonly minValue: number;
  readonly maxValue: number;
}

export function dieModel(node: DiceNode, limits: DiceLimits): DieModel {
  const X = node.sides;
  let allowed: number[];
  if (node.reroll && !node.reroll.once) {
    allowed = [];
    for (let f = 1; f <= X; f++) if (!rerollMatches(node.reroll, f)) allowed.push(f);
  } else {
    allowed = [1, X];
  }
  const minFace = allowed[0]!;
  const maxFace = allowed[allowed.length - 1]!;
  const depth = node.explode ? limits.maxExplodeDepth : 0;
  const canExplode = node.explode && maxFace === X;
  let minValue = minFace;
  if (canExplode && minFace === X) minValue = X * (depth + 1); // every roll explodes up to the cap
  const maxValue = canExplode ? X * depth + maxFace : maxFace;
  let kept = node.count;
  let keepHighest = true;
  if (node.keep) {
    const { mode, count } = node.keep;
    if (mode === 'kh') kept = count;
    else if (mode === 'kl') [kept, keepHighest] = [count, false];
    else if (mode === 'dh') [kept, keepHighest] = [node.count - count, false];
    else kept = node.count - count;
  }
  return { sides: X, allowed: node.reroll && !node.reroll.once ? allowed : [], explodeDepth: depth, kept, keepHighest, minValue, maxValue };
}

function checkSafe(lo: number, hi: number, node: Expr, src: string): void {
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) {
    throw new DiceError('LIMIT', 'this part of the expression can exceed the largest safe integer, 2^53 - 1 (safeInteger)', node.pos, src, 'safeInteger');
  }
}

class Compiler {
  diceCount = 0;
  constructor(
    private readonly src: string,
    private readonly limits: DiceLimits,
  ) {}

  expr(node: Expr): Compiled {
    switch (node.kind) {
      case 'number': {
        const v = node.value;
        return { total: () => v, record: () => v, lo: v, hi: v };
      }
      case 'dice':
        return this.dice(node);
      case 'negate': {
        const a = this.expr(node.arg);
        const t = a.total;
        const r = a.record;
        return { total: (rng) => -t(rng), record: (rng, out) => -r(rng, out), lo: -a.hi, hi: -a.lo };
      }
      case 'call': {
        const args = node.args.map((x) => this.expr(x));
        if (node.fn === 'abs') {
          const a = args[0]!;
          const t = a.total;
          const r = a.record;
          const lo = a.lo >= 0 ? a.lo : a.hi <= 0 ? -a.hi : 0;
          return { total: (rng) => Math.abs(t(rng)), record: (rng, out) => Math.abs(r(rng, out)), lo, hi: Math.max(Math.abs(a.lo), Math.abs(a.hi)) };
        }
        const pick = node.fn === 'min' ? Math.min : Math.max;
        const ts = args.map((a) => a.total);
        const rs = args.map((a) => a.record);
        // Every argument is rolled (all dice are recorded), then the min / max is taken.
        return {
          total: (rng) => {
            let v = ts[0]!(rng);
            for (let i = 1; i < ts.length; i++) v = pick(v, ts[i]!(rng));
            return v;
          },
          record: (rng, out) => {
            let v = rs[0]!(rng, out);
            for (let i = 1; i < rs.length; i++) v = pick(v, rs[i]!(rng, out));
            return v;
          },
          lo: pick(...args.map((a) => a.lo)),
          hi: pick(...args.map((a) => a.hi)),
        };
      }
      case 'binary': {
        const a = this.expr(node.left);
        const b = this.expr(node.right);
        const [ta, ra, tb, rb] = [a.total, a.record, b.total, b.record];
        let out: Compiled;
        switch (node.op) {
          case '+':
            out = { total: (rng) => ta(rng) + tb(rng), record: (rng, o) => ra(rng, o) + rb(rng, o), lo: a.lo + b.lo, hi: a.hi + b.hi };
            break;
          case '-':
            out = { total: (rng) => ta(rng) - tb(rng), record: (rng, o) => ra(rng, o) - rb(rng, o), lo: a.lo - b.hi, hi: a.hi - b.lo };
            break;
          case '*': {
            const c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
            out = { total: (rng) => ta(rng) * tb(rng), record: (rng, o) => ra(rng, o) * rb(rng, o), lo: Math.min(...c), hi: Math.max(...c) };
            break;
          }
          case '/': {
            if (b.lo <= 0 && b.hi >= 0) {
              throw new DiceError('DIVISION_BY_ZERO', b.lo === b.hi ? 'division by zero' : 'the divisor can be zero', node.opPos, this.src);
            }
            const rounding = node.rounding;
            const c = [divide(a.lo, b.lo, rounding), divide(a.lo, b.hi, rounding), divide(a.hi, b.lo, rounding), divide(a.hi, b.hi, rounding)];
            out = {
              total: (rng) => divide(ta(rng), tb(rng), rounding),
              record: (rng, o) => divide(ra(rng, o), rb(rng, o), rounding),
              lo: Math.min(...c),
              hi: Math.max(...c),
            };
            break;
          }
        }
        checkSafe(out.lo, out.hi, node, this.src);
        return out;
      }
    }
  }

  dice(node: DiceNode): Compiled {
    this.diceCount += node.count;
    if (this.diceCount > this.limits.maxDice) {
      throw new DiceError('LIMIT', `the expression rolls ${this.diceCount} dice, over maxDice (${this.limits.maxDice})`, node.pos, this.src, 'maxDice');
    }
    const m = dieModel(node, this.limits);
    const lo = m.kept * m.minValue;
    const hi = m.kept * m.maxValue;
    checkSafe(lo, hi, node, this.src);
    const N = node.count;
    const X = node.sides;
    const K = m.kept;
    const high = m.keepHighest;
    const depth = m.explodeDepth;
    const rerollCap = this.limits.maxExplodeDepth;
    const explode = node.explode;
    const rule = node.reroll;
    const allowed = m.allowed;
    const notation = print(node);
    const position = node.pos;

    // One die's faces: reroll rule first, then the explosion chain on the final face.
    let face: TotalFn = (rng) => rng.die(X);
    if (rule) {
      face = rule.once
        ? (rng) => {
            const r = rng.die(X);
            return rerollMatches(rule, r) ? rng.die(X) : r;
          }
        : (rng) => {
            let r = rng.die(X);
            for (let c = 0; rerollMatches(rule, r); c++) {
              // Past the cap, draw straight from the faces the rule allows (same distribution).
              if (c >= rerollCap) return allowed[rng.die(allowed.length) - 1]!;
              r = rng.die(X);
            }
            return r;
          };
    }
    let one: TotalFn = face;
    if (explode) {
      const f = face;
      one = (rng) => {
        let r = f(rng);
        let v = r;
        for (let e = 0; r === X && e < depth; e++) {
          r = f(rng);
          v += r;
        }
        return v;
      };
    }
    let total: TotalFn;
    if (K === N) {
      total = explode || rule
        ? (rng) => {
            let s = 0;
            for (let i = 0; i < N; i++) s += one(rng);
            return s;
          }
        : (rng) => {
            let s = 0;
            for (let i = 0; i < N; i++) s += rng.die(X);
            return s;
          };
    } else {
      const plainDie = !explode && !rule;
      if (K === N - 1 || K === 1) {
        // Drop one / keep one: track the extreme while rolling, no buffer.
        const dropOne = K === N - 1;
        total = (rng) => {
          let s = 0;
          let hi = -Infinity;
          let lo = Infinity;
          for (let i = 0; i < N; i++) {
            const v = plainDie ? rng.die(X) : one(rng);
            s += v;
            if (v > hi) hi = v;
            if (v < lo) lo = v;
          }
          if (dropOne) return s - (high ? lo : hi);
          return high ? hi : lo;
        };
      } else {
        const scratch = new Float64Array(N);
        total = (rng) => {
          for (let i = 0; i < N; i++) scratch[i] = one(rng);
          return sumExtremes(scratch, N, K, high);
        };
      }
    }

    const plain = !explode && !rule;
    const spec: DieSpec = { X, rule, rerollCap, allowed, explode, depth };
    const record: RecordFn = (rng, out) => {
      const dice: DieRoll[] = [];
      let sum = 0;
      for (let i = 0; i < N; i++) {
        const d = plain ? { value: rng.die(X), kept: true, exploded: false, rerolled: false } : recordDie(rng, spec);
        dice.push(d);
        sum += d.value;
      }
      if (K < N) sum = markDropped(dice, N, K, high);
      out.push({ notation, position, sides: X, dice, total: sum });
      return sum;
    };
    return { total, record, lo, hi };
  }
}

interface DieSpec {
  readonly X: number;
  readonly rule: DiceNode['reroll'];
  readonly rerollCap: number;
  readonly allowed: readonly number[];
  readonly explode: boolean;
  readonly depth: number;
}

// Module-level scratch for recordDie (single-threaded, not re-entered): keeps
// the hot path free of per-die closures.
let trail: number[] | null = null;
let wasRerolled = false;

function recordFace(rng: Rng, s: DieSpec): number {
  let r = rng.die(s.X);
  const rule = s.rule;
  if (rule !== null && rerollMatches(rule, r)) {
    wasRerolled = true;
    if (trail === null) trail = [];
    trail.push(r);
    r = rng.die(s.X);
    if (!rule.once) {
      for (let c = 0; rerollMatches(rule, r); c++) {
        trail.push(r);
        // Past the cap, draw straight from the faces the rule allows (same distribution).
        if (c >= s.rerollCap) {
          r = s.allowed[rng.die(s.allowed.length) - 1]!;
          break;
        }
        r = rng.die(s.X);
      }
    }
  }
  return r;
}

/** One die with its reroll rule and explosion chain, every face recorded. */
function recordDie(rng: Rng, s: DieSpec): DieRoll {
  trail = null;
  wasRerolled = false;
  let r = recordFace(rng, s);
  let v = r;
  let exploded = false;
  let t = trail as number[] | null;
  if (s.explode && r === s.X && s.depth > 0) {
    exploded = true;
    t ??= [];
    t.push(r);
    for (let e = 0; r === s.X && e < s.depth; e++) {
      trail = t;
      r = recordFace(rng, s);
      t.push(r);
      v += r;
    }
  } else if (t !== null) t.push(r);
  const d: DieRoll = { value: v, kept: true, exploded, rerolled: wasRerolled };
  if (t !== null) d.rolls = t;
  trail = null;
  return d;
}

/** Marks all but the K highest (or lowest) dice as dropped (ties: the earlier die is kept); returns the kept sum. */
/** Reused index buffer for markDropped's small pools. */
const ORDER = new Int32Array(32);

function markDropped(dice: DieRoll[], N: number, K: number, high: boolean): number {
  let order: Int32Array | number[] = ORDER;
  if (N > 32) {
    const list: number[] = [];
    for (let i = 0; i < N; i++) list.push(i);
    list.sort(high ? (x, y) => dice[y]!.value - dice[x]!.value || x - y : (x, y) => dice[x]!.value - dice[y]!.value || x - y);
    order = list;
  } else for (let i = 0; i < N; i++) {
    // Insertion sort of indices for the usual small pools (no comparator closure, no allocation).
    const v = dice[i]!.value;
    let j = i - 1;
    order[i] = i;
    while (j >= 0 && (high ? dice[order[j]!]!.value < v : dice[order[j]!]!.value > v)) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = i;
  }
  let sum = 0;
  for (let j = 0; j < N; j++) {
    const d = dice[order[j]!]!;
    if (j < K) sum += d.value;
    else d.kept = false;
  }
  return sum;
}

/** Sum of the K highest (or lowest) of the first N values; sorts in place. */
function sumExtremes(v: Float64Array, N: number, K: number, high: boolean): number {
  if (N <= 48) {
    for (let i = 1; i < N; i++) {
      const x = v[i]!;
      let j = i - 1;
      while (j >= 0 && v[j]! > x) {
        v[j + 1] = v[j]!;
        j--;
      }
      v[j + 1] = x;
    }
  } else {
    v.sort();
  }
  let s = 0;
  if (high) for (let i = N - K; i < N; i++) s += v[i]!;
  else for (let i = 0; i < K; i++) s += v[i]!;
  return s;
}

export interface CompiledDice {
  readonly expression: string;
  readonly ast: Root;
  /** Smallest and largest possible values of the expression (left side of a comparison). */
  readonly min: number;
  readonly max: number;
  /** Dice per roll, over every term (explosions and rerolls not counted). */
  readonly diceCount: number;
  readonly limits: DiceLimits;
  /** Rolls and records every die. */
  roll(rng: Rng): DiceRollResult;
  /** Rolls the same dice, returns only the value (left side of a comparison); the fast path. */
  total(rng: Rng): number;
  /** For a comparison: does a roll succeed? (Otherwise: is the total positive.) */
  test(rng: Rng): boolean;
}

export function compileAst(ast: Root, src: string, limits: DiceLimits): CompiledDice {
  const c = new Compiler(src, limits);
  if (ast.kind === 'compare') {
    const cmp: CompareNode = ast;
    const l = c.expr(cmp.left);
    const r = c.expr(cmp.right);
    const op = cmp.op;
    const [tl, tr, rl, rr] = [l.total, r.total, l.record, r.record];
    return {
      expression: src, ast, min: l.lo, max: l.hi, diceCount: c.diceCount, limits,
      total: tl,
      test: (rng) => compare(op, tl(rng), tr(rng)),
      roll(rng) {
        const dice: DiceGroupRoll[] = [];
        const total = rl(rng, dice);
        const target = rr(rng, dice);
        return { expression: src, total, dice, comparison: { op, target, success: compare(op, total, target) } };
      },
    };
  }
  const e = c.expr(ast);
  const [t, r] = [e.total, e.record];
  return {
    expression: src, ast, min: e.lo, max: e.hi, diceCount: c.diceCount, limits,
    total: t,
    test: (rng) => t(rng) > 0,
    roll(rng) {
      const dice: DiceGroupRoll[] = [];
      const total = r(rng, dice);
      return { expression: src, total, dice, comparison: null };
    },
  };
}
