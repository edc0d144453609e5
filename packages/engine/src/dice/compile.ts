// Compiles a parsed notation once into closures (no eval, no new Function):
// each node becomes a `total` function (the fast path, nothing allocated for
// plain dice) and a `record` function that also writes down every die.

import { type CompareNode, type CompareOp, type DiceNode, type Expr, type Root, compare, divide, print } from './ast.js';
import { DiceError } from './errors.js';
import type { DiceLimits } from './limits.js';
import { rerollMatches } from './parser.js';
import type { Rng } from './rng.js';

/**
 * One die of a roll. Read-only: the records of plain faces (no explosion, no
 * reroll) are shared, frozen objects, one per face and kept flag.
 */
export interface DieRoll {
  /** What the die counts as (an exploded chain is summed into its die). */
  readonly value: number;
  /** False when keep/drop set it aside. */
  readonly kept: boolean;
  /** It rolled its highest face and rolled again. */
  readonly exploded: boolean;
  /** A reroll rule rolled it again. */
  readonly rerolled: boolean;
  /** Every face thrown for this die, in order, when there was more than one. */
  readonly rolls?: readonly number[];
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
  /** Every dice term, in the order a roll throws them. */
  readonly plans: GroupPlan[] = [];
  readonly planOf = new Map<DiceNode, GroupPlan>();
  /** The fast-path function of each term, same order as `plans`. */
  readonly totals: TotalFn[] = [];
  /**
   * Compiling a sum of terms and constants: it rolls by a loop over its terms,
   * so the closure tree is not built (fewer closures: compiling stays cheap).
   */
  lean = false;
  constructor(
    private readonly src: string,
    readonly limits: DiceLimits,
  ) {}

  expr(node: Expr): Compiled {
    switch (node.kind) {
      case 'number': {
        const v = node.value;
        if (this.lean) return { total: unused, record: unused, lo: v, hi: v };
        return { total: () => v, record: () => v, lo: v, hi: v };
      }
      case 'dice':
        return this.dice(node);
      case 'negate': {
        const a = this.expr(node.arg);
        if (this.lean) return { total: unused, record: unused, lo: -a.hi, hi: -a.lo };
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
        if (this.lean) {
          // Only + and - reach here when lean (a linear side).
          const lo = node.op === '+' ? a.lo + b.lo : a.lo - b.hi;
          const hi = node.op === '+' ? a.hi + b.hi : a.hi - b.lo;
          checkSafe(lo, hi, node, this.src);
          return { total: unused, record: unused, lo, hi };
        }
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
    // Plain dice summed whole never call it (their loop draws directly).
    let face: TotalFn = unused;
    if (!rule && (explode || K < N)) face = (rng) => rng.die(X);
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
    if (K === N && N === 1 && !explode && !rule) {
      total = (rng) => rng.die(X);
    } else if (K === N) {
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

    const index = this.plans.length;
    const plan: GroupPlan = {
      index, notation, position, sides: X, count: N, kept: K, high, explode, depth, rule, rerollCap, allowed,
      roll: !explode && !rule ? (K === N ? recordPlain : recordPlainKeep) : explode && !rule ? recordExploding : recordGeneral,
    };
    this.plans.push(plan);
    this.planOf.set(node, plan);
    this.totals.push(total);
    if (this.lean) return { total, record: unused, lo, hi };
    const roll = plan.roll;
    const record: RecordFn = (rng, out) => {
      const g = roll(plan, rng);
      out[index] = g;
      return g.total;
    };
    return { total, record, lo, hi };
  }
}

/** Stands in for closures a linear side never calls. */
function unused(): number {
  throw new Error('internal: a linear side has no closure tree');
}

/** What one dice term needs at roll time, fixed when compiling. */
interface GroupPlan {
  /** Slot of the term in the result's `dice` list (terms are rolled left to right). */
  readonly index: number;
  readonly notation: string;
  readonly position: number;
  readonly sides: number;
  readonly count: number;
  readonly kept: number;
  readonly high: boolean;
  readonly explode: boolean;
  readonly depth: number;
  readonly rule: DiceNode['reroll'];
  readonly rerollCap: number;
  readonly allowed: readonly number[];
  /** The recorder specialised for this kind of term (plain, plain with keep/drop, exploding, any). */
  readonly roll: (p: GroupPlan, rng: Rng) => DiceGroupRoll;
}

// Recorders, one per kind of dice term. Top-level functions (not per-term
// closures) so their type feedback stays monomorphic whatever the expression,
// and every die object is created once with its final fields.

/** `NdX`: every die kept. */
function recordPlain(p: GroupPlan, rng: Rng): DiceGroupRoll {
  const N = p.count;
  const X = p.sides;
  if (N === 1) {
    // `d20 + 5`: a literal one-element list is cheaper than a sized one.
    const v = rng.die(X);
    const d = v < SHARED_FACES ? (KEPT[v] ?? sharedDie(v, true)) : { value: v, kept: true, exploded: false, rerolled: false };
    return { notation: p.notation, position: p.position, sides: X, dice: [d], total: v };
  }
  const dice = newList<DieRoll>(N);
  let sum = 0;
  for (let i = 0; i < N; i++) {
    const v = rng.die(X);
    sum += v;
    dice[i] = v < SHARED_FACES ? (KEPT[v] ?? sharedDie(v, true)) : { value: v, kept: true, exploded: false, rerolled: false };
  }
  return { notation: p.notation, position: p.position, sides: X, dice, total: sum };
}

// A plain face's record depends only on its value and kept flag, so the
// common ones are made once and shared (frozen: no roll can change another's).
const SHARED_FACES = 1025;
const KEPT: (DieRoll | undefined)[] = new Array<DieRoll | undefined>(SHARED_FACES).fill(undefined);
const DROPPED: (DieRoll | undefined)[] = new Array<DieRoll | undefined>(SHARED_FACES).fill(undefined);

function sharedDie(value: number, kept: boolean): DieRoll {
  const d: DieRoll = Object.freeze({ value, kept, exploded: false, rerolled: false });
  (kept ? KEPT : DROPPED)[value] = d;
  return d;
}

/** The record of a plain face (shared when the face is small). */
function plainDie(v: number, kept: boolean): DieRoll {
  if (v < SHARED_FACES) return (kept ? KEPT[v] : DROPPED[v]) ?? sharedDie(v, kept);
  return { value: v, kept, exploded: false, rerolled: false };
}

/** Faces of the plain dice being kept or dropped (reused; no roll is re-entered). */
let faces = new Float64Array(64);
/** Keep flags for the same dice. */
let keepFlags = new Uint8Array(64);

/** `NdX` with keep / drop: faces first, then which are kept, then the objects. */
function recordPlainKeep(p: GroupPlan, rng: Rng): DiceGroupRoll {
  const N = p.count;
  const X = p.sides;
  const K = p.kept;
  if ((K === N - 1 || K === 1) && X < SHARED_FACES) {
    // Drop one / keep one (4d6kh3, 2d20kh1): one pass, tracking the die that
    // differs; the shared records make swapping its record free. Ties as markKept.
    const dropOne = K === N - 1;
    const high = p.high;
    const dice = newList<DieRoll>(N);
    let sum = 0;
    let at = 0;
    let best = high === dropOne ? Infinity : -Infinity;
    for (let i = 0; i < N; i++) {
      const v = rng.die(X);
      sum += v;
      dice[i] = dropOne ? (KEPT[v] ?? sharedDie(v, true)) : (DROPPED[v] ?? sharedDie(v, false));
      // Drop: the last lowest (highest for dh / kl); keep: the first highest (lowest).
      if (dropOne ? (high ? v <= best : v >= best) : high ? v > best : v < best) {
        best = v;
        at = i;
      }
    }
    dice[at] = dropOne ? (DROPPED[best] ?? sharedDie(best, false)) : (KEPT[best] ?? sharedDie(best, true));
    return { notation: p.notation, position: p.position, sides: X, dice, total: dropOne ? sum - best : best };
  }
  if (faces.length < N) {
    faces = new Float64Array(N);
    keepFlags = new Uint8Array(N);
  }
  const v = faces;
  for (let i = 0; i < N; i++) v[i] = rng.die(X);
  const flags = keepFlags;
  const sum = markKept(v, N, p.kept, p.high, flags);
  const dice = newList<DieRoll>(N);
  for (let i = 0; i < N; i++) dice[i] = plainDie(v[i]!, flags[i] === 1);
  return { notation: p.notation, position: p.position, sides: X, dice, total: sum };
}

/** Explosion chains of the dice being kept or dropped (null: the die did not explode). */
let chains: (number[] | null)[] = [];

/** `NdX!` without a reroll rule: most dice do not explode and share their record. */
function recordExploding(p: GroupPlan, rng: Rng): DiceGroupRoll {
  const N = p.count;
  const X = p.sides;
  const depth = p.depth;
  const dice = newList<DieRoll>(N);
  if (p.kept === N) {
    let sum = 0;
    for (let i = 0; i < N; i++) {
      let r = rng.die(X);
      if (r !== X || depth === 0) {
        sum += r;
        dice[i] = plainDie(r, true);
        continue;
      }
      const rolls = [r];
      let v = r;
      for (let e = 0; r === X && e < depth; e++) {
        r = rng.die(X);
        rolls.push(r);
        v += r;
      }
      sum += v;
      dice[i] = { value: v, kept: true, exploded: true, rerolled: false, rolls };
    }
    return { notation: p.notation, position: p.position, sides: X, dice, total: sum };
  }
  // Keep / drop: values and chains first, then which are kept, then the records.
  if (faces.length < N) {
    faces = new Float64Array(N);
    keepFlags = new Uint8Array(N);
  }
  const vals = faces;
  for (let i = 0; i < N; i++) {
    let r = rng.die(X);
    if (r !== X || depth === 0) {
      vals[i] = r;
      chains[i] = null;
      continue;
    }
    const rolls = [r];
    let v = r;
    for (let e = 0; r === X && e < depth; e++) {
      r = rng.die(X);
      rolls.push(r);
      v += r;
    }
    vals[i] = v;
    chains[i] = rolls;
  }
  const sum = markKept(vals, N, p.kept, p.high, keepFlags);
  for (let i = 0; i < N; i++) {
    const rolls = chains[i]!;
    const kept = keepFlags[i] === 1;
    dice[i] = rolls === null ? plainDie(vals[i]!, kept) : { value: vals[i]!, kept, exploded: true, rerolled: false, rolls };
  }
  if (chains.length > 1024) chains = [];
  else chains.fill(null, 0, N);
  return { notation: p.notation, position: p.position, sides: X, dice, total: sum };
}

/** Any term: reroll rule, explosion chain and keep / drop. */
function recordGeneral(p: GroupPlan, rng: Rng): DiceGroupRoll {
  const N = p.count;
  const dice = newList<DieRoll>(N);
  let sum = 0;
  for (let i = 0; i < N; i++) {
    const d = recordDie(rng, p);
    dice[i] = d;
    sum += d.value;
  }
  if (p.kept < N) sum = markDropped(dice, N, p.kept, p.high);
  return { notation: p.notation, position: p.position, sides: p.sides, dice, total: sum };
}

/** A list of known length: preallocated (no growth while filling) unless huge. */
function newList<T>(n: number): T[] {
  return n <= 50_000 ? (new Array(n) as T[]) : [];
}

/**
 * Keep flags for the first N faces (1 = kept) and the kept sum. Same order as
 * markDropped: ties go to the earlier die.
 */
function markKept(v: Float64Array, N: number, K: number, high: boolean, flags: Uint8Array): number {
  if (K === N - 1) {
    // Drop one: the lowest (highest for kl / dh), the last such die on ties.
    let at = 0;
    let sum = 0;
    for (let i = 0; i < N; i++) {
      const x = v[i]!;
      sum += x;
      if (high ? x <= v[at]! : x >= v[at]!) at = i;
      flags[i] = 1;
    }
    flags[at] = 0;
    return sum - v[at]!;
  }
  if (K === 1) {
    // Keep one: the highest (lowest), the first such die on ties.
    let at = 0;
    for (let i = 1; i < N; i++) if (high ? v[i]! > v[at]! : v[i]! < v[at]!) at = i;
    for (let i = 0; i < N; i++) flags[i] = 0;
    flags[at] = 1;
    return v[at]!;
  }
  const order = N <= ORDER.length ? ORDER : new Int32Array(N);
  sortIndices(v, N, high, order);
  let sum = 0;
  for (let j = 0; j < N; j++) {
    const i = order[j]!;
    if (j < K) {
      flags[i] = 1;
      sum += v[i]!;
    } else flags[i] = 0;
  }
  return sum;
}

/** Indices of the first N values, highest (or lowest) first, earlier index first on ties. */
function sortIndices(v: ArrayLike<number>, N: number, high: boolean, order: Int32Array): void {
  if (N > 32) {
    const list = Array.from({ length: N }, (_, i) => i);
    list.sort(high ? (x, y) => v[y]! - v[x]! || x - y : (x, y) => v[x]! - v[y]! || x - y);
    for (let i = 0; i < N; i++) order[i] = list[i]!;
    return;
  }
  for (let i = 0; i < N; i++) {
    // Insertion sort for the usual small pools (no comparator closure, no allocation).
    const x = v[i]!;
    let j = i - 1;
    while (j >= 0 && (high ? v[order[j]!]! < x : v[order[j]!]! > x)) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = i;
  }
}

// Module-level scratch for recordDie (single-threaded, not re-entered): keeps
// the hot path free of per-die closures.
let trail: number[] | null = null;
let wasRerolled = false;

function recordFace(rng: Rng, s: GroupPlan): number {
  let r = rng.die(s.sides);
  const rule = s.rule;
  if (rule !== null && rerollMatches(rule, r)) {
    wasRerolled = true;
    if (trail === null) trail = [];
    if (rule.once) {
      trail.push(r);
      return rng.die(s.sides);
    }
    // Same draws as the fast path: at most rerollCap rerolls, then straight
    // from the faces the rule allows (same distribution).
    for (let c = 0; rerollMatches(rule, r); c++) {
      trail.push(r);
      if (c >= s.rerollCap) {
        r = s.allowed[rng.die(s.allowed.length) - 1]!;
        break;
      }
      r = rng.die(s.sides);
    }
  }
  return r;
}

/** One die with its reroll rule and explosion chain, every face recorded. */
function recordDie(rng: Rng, s: GroupPlan): DieRoll {
  trail = null;
  wasRerolled = false;
  let r = recordFace(rng, s);
  let v = r;
  let exploded = false;
  let t = trail as number[] | null;
  if (s.explode && r === s.sides && s.depth > 0) {
    exploded = true;
    t ??= [];
    t.push(r);
    for (let e = 0; r === s.sides && e < s.depth; e++) {
      trail = t;
      r = recordFace(rng, s);
      t.push(r);
      v += r;
    }
  } else if (t !== null) t.push(r);
  const d: DieRoll = t === null ? { value: v, kept: true, exploded, rerolled: wasRerolled } : { value: v, kept: true, exploded, rerolled: wasRerolled, rolls: t };
  trail = null;
  return d;
}

/** Reused index buffer for the usual small pools. */
const ORDER = new Int32Array(32);

/** Marks all but the K highest (or lowest) dice as dropped (ties: the earlier die is kept); returns the kept sum. */
function markDropped(dice: DieRoll[], N: number, K: number, high: boolean): number {
  if (faces.length < N) {
    faces = new Float64Array(N);
    keepFlags = new Uint8Array(N);
  }
  const v = faces;
  for (let i = 0; i < N; i++) v[i] = dice[i]!.value;
  const sum = markKept(v, N, K, high, keepFlags);
  // Records from recordDie are fresh objects, never the shared ones.
  for (let i = 0; i < N; i++) if (keepFlags[i] === 0) (dice[i] as { kept: boolean }).kept = false;
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

/**
 * A side of the expression that is a sum of dice terms and constants
 * (`1d20+5`, `3d6`, `2d6 - d4 + 1`): rolled by one loop over its terms
 * instead of a tree of closures. Null for anything else (*, /, functions).
 */
interface LinearSide {
  readonly constant: number;
  readonly plans: readonly GroupPlan[];
  /** +1 or -1 per term. */
  readonly signs: readonly number[];
}

/**
 * Largest absolute value any partial sum of this side can reach, when the side
 * is a sum of dice terms and constants (then it rolls as a loop); else null.
 */
function linearBound(n: Expr, limits: DiceLimits): number | null {
  switch (n.kind) {
    case 'number':
      return n.value;
    case 'dice':
      return n.count * n.sides * (n.explode ? limits.maxExplodeDepth + 1 : 1);
    case 'negate':
      return linearBound(n.arg, limits);
    case 'binary': {
      if (n.op !== '+' && n.op !== '-') return null;
      const a = linearBound(n.left, limits);
      const b = a === null ? null : linearBound(n.right, limits);
      return a === null || b === null ? null : a + b;
    }
    default:
      return null;
  }
}

interface LinearAcc {
  constant: number;
  readonly plans: GroupPlan[];
  readonly signs: number[];
  readonly planOf: ReadonlyMap<DiceNode, GroupPlan>;
}

function collectLinear(n: Expr, sign: number, acc: LinearAcc): void {
  switch (n.kind) {
    case 'number':
      acc.constant += sign * n.value;
      return;
    case 'dice': {
      const p = acc.planOf.get(n)!;
      acc.plans.push(p);
      acc.signs.push(sign);
      return;
    }
    case 'negate':
      return collectLinear(n.arg, -sign, acc);
    case 'binary':
      collectLinear(n.left, sign, acc);
      return collectLinear(n.right, n.op === '+' ? sign : -sign, acc);
    default:
      throw new Error('internal: not a linear side');
  }
}

/** The terms of a linear side, in the order they roll. */
function linearSide(node: Expr, planOf: ReadonlyMap<DiceNode, GroupPlan>): LinearSide {
  const acc: LinearAcc = { constant: 0, plans: [], signs: [], planOf };
  collectLinear(node, 1, acc);
  return { constant: acc.constant + 0, plans: acc.plans, signs: acc.signs };
}

type SideRecord = (rng: Rng, out: DiceGroupRoll[]) => number;
type SideTotal = (rng: Rng) => number;

/** Recorder for a linear side: a loop over its terms. */
function linearRecord(lin: LinearSide): SideRecord {
  const { constant, plans, signs } = lin;
  if (plans.length === 0) return () => constant;
  if (plans.length === 1) {
    const p0 = plans[0]!;
    const f0 = p0.roll;
    const i0 = p0.index;
    const s0 = signs[0]!;
    return (rng, out) => {
      const g = f0(p0, rng);
      out[i0] = g;
      return constant + s0 * g.total;
    };
  }
  return (rng, out) => {
    let v = constant;
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i]!;
      const g = p.roll(p, rng);
      out[p.index] = g;
      v += signs[i]! * g.total;
    }
    return v;
  };
}

/** Fast path for a linear side: the same loop over the terms' fast functions (same draws, same order). */
function linearTotal(lin: LinearSide, ts: readonly TotalFn[]): SideTotal {
  const { constant: c, signs } = lin;
  if (ts.length === 0) return () => c;
  if (ts.length === 1) {
    const one = ts[0]!;
    if (signs[0] === 1) return c === 0 ? one : (rng) => c + one(rng);
    return (rng) => c - one(rng);
  }
  return (rng) => {
    let v = c;
    for (let i = 0; i < ts.length; i++) v += signs[i]! * ts[i]!(rng);
    return v;
  };
}

/** The result's list of dice terms, one slot per term, filled as they are rolled. */
function groupList(n: number): DiceGroupRoll[] {
  return n === 1 ? [null as unknown as DiceGroupRoll] : newList<DiceGroupRoll>(n);
}

interface Side {
  readonly lin: LinearSide | null;
  readonly tot: SideTotal;
  /** The closure tree's recorder (null for a linear side: see linearRecord). */
  readonly tree: RecordFn | null;
  readonly lo: number;
  readonly hi: number;
}

/** Compiles one side; a linear one skips the closure tree (and -0 never comes out of either). */
function compileSide(c: Compiler, node: Expr): Side {
  const bound = linearBound(node, c.limits);
  // Summed in another order than the tree, every partial sum must stay exact.
  const lean = bound !== null && Number.isSafeInteger(bound);
  const first = c.plans.length;
  c.lean = lean;
  const e = c.expr(node);
  c.lean = false;
  if (lean) {
    const lin = linearSide(node, c.planOf);
    return { lin, tot: linearTotal(lin, c.totals.slice(first)), tree: null, lo: e.lo, hi: e.hi };
  }
  const t = e.total;
  return { lin: null, tot: (rng) => t(rng) + 0, tree: e.record, lo: e.lo, hi: e.hi };
}

function sideRecord(s: Side): SideRecord {
  if (s.lin !== null) return linearRecord(s.lin);
  const r = s.tree!;
  return (rng, out) => r(rng, out) + 0;
}

export function compileAst(ast: Root, src: string, limits: DiceLimits): CompiledDice {
  const c = new Compiler(src, limits);
  if (ast.kind === 'compare') {
    const cmp: CompareNode = ast;
    const l = compileSide(c, cmp.left);
    const r = compileSide(c, cmp.right);
    const op = cmp.op;
    const groups = c.plans.length;
    const [tl, tr, rl, rr] = [l.tot, r.tot, sideRecord(l), sideRecord(r)];
    return {
      expression: src, ast, min: l.lo, max: l.hi, diceCount: c.diceCount, limits,
      total: tl,
      test: (rng) => compare(op, tl(rng), tr(rng)),
      roll(rng) {
        const dice = groupList(groups);
        const total = rl(rng, dice);
        const target = rr(rng, dice);
        return { expression: src, total, dice, comparison: { op, target, success: compare(op, total, target) } };
      },
    };
  }
  const e = compileSide(c, ast);
  const t = e.tot;
  if (e.lin !== null && e.lin.plans.length === 1) {
    // The most common shape (`1d20+5`, `4d6kh3`): one term and a constant, no intermediate closure.
    const p0 = e.lin.plans[0]!;
    const f0 = p0.roll;
    const k = e.lin.constant;
    const s0 = e.lin.signs[0]!;
    return {
      expression: src, ast, min: e.lo, max: e.hi, diceCount: c.diceCount, limits,
      total: t,
      test: (rng) => t(rng) > 0,
      roll(rng) {
        const g = f0(p0, rng);
        return { expression: src, total: k + s0 * g.total, dice: [g], comparison: null };
      },
    };
  }
  const groups = c.plans.length;
  const r = sideRecord(e);
  return {
    expression: src, ast, min: e.lo, max: e.hi, diceCount: c.diceCount, limits,
    total: t,
    test: (rng) => t(rng) > 0,
    roll(rng) {
      const dice = groupList(groups);
      const total = r(rng, dice);
      return { expression: src, total, dice, comparison: null };
    },
  };
}
