// Compiles a parsed notation once into closures (no eval, no new Function):
// each node becomes a `total` function (the fast path) and a `record`
// function that also writes down every die. Dice terms follow the modifier
// order of rpg-dice-roller (min, max, explode, reroll, unique, keep/drop,
// success counting, criticals, sort), so the same notation means the same.

import { type Cmp, type CompareNode, type CompareOp, type DiceNode, type Expr, type GroupNode, type Root, compare, finalValue, matches, print } from './ast.js';
import { DiceError } from './errors.js';
import { withSides } from './parser.js';
import type { DiceLimits } from './limits.js';
import { type Rng, drawDice } from './rng.js';

/** One die of a roll. Read-only: records that depend only on the face are shared, frozen objects. */
export interface DieRoll {
  /** What the die counts as (a compounded chain is summed into its die). */
  readonly value: number;
  /** False when keep/drop set it aside. */
  readonly kept: boolean;
  /** It matched the explode trigger and rolled again (`!`: the next roll is the following die). */
  readonly exploded: boolean;
  /** A reroll or unique rule rolled it again. */
  readonly rerolled: boolean;
  /** Every face thrown for this die, in order, when there was more than one. */
  readonly rolls?: readonly number[];
  /** Success counting: what the die counted as. */
  readonly outcome?: 'success' | 'failure' | 'neutral';
  /** Critical range (`cs`, `cf`): display only. */
  readonly critical?: 'success' | 'failure';
  /** `min` / `max` changed its face. */
  readonly clamped?: boolean;
  /** A penetrating explosion's roll: it counts one less than its face. */
  readonly penetrated?: boolean;
}

/** One dice term or group of the expression (e.g. the `4d6kh3` in `4d6kh3 + 2`). */
export interface DiceGroupRoll {
  /** The term in canonical notation. */
  notation: string;
  /** Column of the term in the expression. */
  position: number;
  /** Sides of one die (0 for a group; 3 or 6 for Fate dice). */
  sides: number;
  /** The dice (for a group: one entry per member, or per die when one member keeps dice). */
  dice: DieRoll[];
  /** Sum of the kept dice, or successes minus failures. */
  total: number;
  /** `2d6 [fire]` */
  label?: string;
}

export interface DiceRollResult {
  expression: string;
  /** Value of the expression (the left side when there is a comparison); non-whole values rounded to 2 decimals. */
  total: number;
  /** Every dice term and group, in the order rolled (left to right). */
  dice: DiceGroupRoll[];
  /** For a total comparison: the right side's value and whether the comparison held. */
  comparison: { op: CompareOp; target: number; success: boolean } | null;
  /** `1d20+5 # to hit` */
  comment?: string;
  /** Labelled numbers (`1d20 + 5 [STR] + 2 [proficiency]`), in the order written. */
  constants?: readonly LabelledConstant[];
}

/** A number written with a label: what it adds is fixed, the label says why. */
export interface LabelledConstant {
  readonly value: number;
  readonly label: string;
  /** Column of the number in the expression. */
  readonly position: number;
}

/** Every labelled number of the notation, left to right (frozen: shared by every roll). */
function labelledConstants(root: Root): readonly LabelledConstant[] {
  const out: LabelledConstant[] = [];
  const walk = (n: Root): void => {
    switch (n.kind) {
      case 'number':
        if (n.label !== undefined) out.push(Object.freeze({ value: n.value, label: n.label, position: n.pos }));
        return;
      case 'dice':
        if (n.countExpr) walk(n.countExpr);
        if (n.sidesExpr) walk(n.sidesExpr);
        return;
      case 'negate':
        return walk(n.arg);
      case 'binary':
      case 'compare':
        walk(n.left);
        return walk(n.right);
      case 'call':
      case 'group':
        for (const a of n.kind === 'call' ? n.args : n.members) walk(a);
        return;
    }
  };
  walk(root);
  return Object.freeze(out);
}

type TotalFn = (rng: Rng) => number;
type RecordFn = (rng: Rng, out: DiceGroupRoll[]) => number;
interface Compiled {
  readonly total: TotalFn;
  readonly record: RecordFn;
  readonly lo: number;
  readonly hi: number;
  /** Every value it can take is a whole number. */
  readonly integral: boolean;
}

function checkSafe(lo: number, hi: number, node: Expr, src: string): void {
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) {
    throw new DiceError('LIMIT', 'this part of the expression can exceed the largest safe integer, 2^53 - 1 (safeInteger)', node.pos, src, 'safeInteger');
  }
}

// ---------------------------------------------------------------- dice terms

/** What a dice term does to each die, shared by the roller and the odds. */
export interface TermPlan {
  /** Slot of the term in the result's `dice` list (terms are rolled left to right). */
  index: number;
  readonly node: DiceNode;
  readonly notation: string;
  readonly position: number;
  readonly count: number;
  /** Faces per die: `rng.die(n)`. */
  readonly n: number;
  /** Value of face i (index 1..n); identity for numbered dice. */
  readonly faceValue: readonly number[];
  readonly sides: number;
  readonly depth: number;
  readonly rerollCap: number;
  /** Face indices the repeated reroll rule allows (drawn directly past the cap). */
  readonly allowed: readonly number[];
  /** Kept dice, from the top (true) or bottom; null: all kept. */
  readonly keepHigh: boolean;
  readonly label: string | null;
  /** Face tables (table terms only): value, score and the shared records. */
  readonly valueOf: Float64Array | null;
  readonly scoreOf: Float64Array | null;
  readonly recKept: readonly DieRoll[] | null;
  readonly recDropped: readonly DieRoll[] | null;
  /** Shared records of an exploding term (explosions summed, at most 1,024 faces). */
  readonly explodeRecs: ExplodeRecords | null;
  /** Faces are 1..n and count as themselves (no clamp, target or criticals). */
  readonly identity: boolean;
  readonly roll: (p: TermPlan, rng: Rng, N: number) => DiceGroupRoll;
  /** Which recorder `roll` is (see recordTerm): a switch on it calls the recorder directly. */
  readonly kind: RecorderKind;
}

/** 0: table, 1: table with keep / drop, 2: explosions summed, 3: anything else. */
type RecorderKind = 0 | 1 | 2 | 3;

/**
 * Records one term. A switch of direct calls, not `p.roll(...)`: a call through
 * a function value shared by every expression turns megamorphic once a few
 * kinds of terms have been rolled, and V8 then neither inlines nor specialises it.
 */
function recordTerm(p: TermPlan, rng: Rng, N: number): DiceGroupRoll {
  switch (p.kind) {
    case 0: return rollTable(p, rng, N);
    case 1: return rollTableKeep(p, rng, N);
    case 2: return rollExplodeSum(p, rng, N);
    default: return rollGeneral(p, rng, N);
  }
}

/** How many of `N` dice are kept (`total` rolls when explosions add dice). */
function keptOf(node: DiceNode, N: number): number {
  const k = node.keep;
  if (!k) return N;
  if (k.mode === 'kh' || k.mode === 'kl') return Math.min(k.count, N);
  return Math.max(0, N - k.count);
}

function keepsHigh(node: DiceNode): boolean {
  const k = node.keep;
  return !k || k.mode === 'kh' || k.mode === 'dl';
}

/** Face values of a term's die: 1..n, or Fate's. */
export function faceValues(node: DiceNode): number[] {
  if (node.fate === 2) return [0, -1, 0, 1];
  if (node.fate === 1) return [0, -1, 0, 0, 0, 0, 1];
  const v = new Array<number>(node.sides + 1);
  for (let i = 0; i <= node.sides; i++) v[i] = i;
  return v;
}

export function clampValue(node: DiceNode, x: number): number {
  if (node.clampMin !== null && x < node.clampMin) return node.clampMin;
  if (node.clampMax !== null && x > node.clampMax) return node.clampMax;
  return x;
}

/** +1 success, -1 failure, 0 neither. */
export function scoreOf(node: DiceNode, v: number): number {
  const t = node.target!;
  if (matches(t.success, v)) return 1;
  return t.failure && matches(t.failure, v) ? -1 : 0;
}

function outcomeOf(node: DiceNode, v: number): 'success' | 'failure' | 'neutral' {
  const s = scoreOf(node, v);
  return s > 0 ? 'success' : s < 0 ? 'failure' : 'neutral';
}

function criticalOf(node: DiceNode, v: number): 'success' | 'failure' | undefined {
  if (node.critSuccess && matches(node.critSuccess, v)) return 'success';
  if (node.critFailure && matches(node.critFailure, v)) return 'failure';
  return undefined;
}

interface MutableDie {
  value: number;
  kept: boolean;
  exploded: boolean;
  rerolled: boolean;
  rolls?: number[];
  outcome?: 'success' | 'failure' | 'neutral';
  critical?: 'success' | 'failure';
  clamped?: boolean;
  penetrated?: boolean;
}

/** A finished record: only the flags that apply (plain JSON, stable shape for equal dice). */
function finish(node: DiceNode, d: MutableDie): DieRoll {
  const out: MutableDie = { value: d.value, kept: d.kept, exploded: d.exploded, rerolled: d.rerolled };
  if (d.rolls) out.rolls = d.rolls;
  if (node.target) out.outcome = outcomeOf(node, d.value);
  const c = criticalOf(node, d.value);
  if (c) out.critical = c;
  if (d.clamped) out.clamped = true;
  if (d.penetrated) out.penetrated = true;
  return out;
}

/** Dice whose record depends only on the face: built once per term, frozen, shared by every roll. */
function faceTables(node: DiceNode, faceValue: readonly number[], n: number): Pick<TermPlan, 'valueOf' | 'scoreOf' | 'recKept' | 'recDropped'> {
  const valueOf = new Float64Array(n + 1);
  const score = new Float64Array(n + 1);
  const recKept: DieRoll[] = [];
  const recDropped: DieRoll[] = [];
  for (let i = 1; i <= n; i++) {
    const raw = faceValue[i]!;
    const v = clampValue(node, raw);
    valueOf[i] = v;
    score[i] = node.target ? scoreOf(node, v) : v;
    const base: MutableDie = { value: v, kept: true, exploded: false, rerolled: false, clamped: v !== raw };
    recKept[i] = Object.freeze(finish(node, base));
    recDropped[i] = Object.freeze(finish(node, { ...base, kept: false }));
  }
  return { valueOf, scoreOf: score, recKept, recDropped };
}

/** Is this term rolled from face tables (no explosion, reroll, unique or rolled count)? */
function isTableTerm(node: DiceNode, n: number): boolean {
  return !node.explode && !node.reroll && !node.unique && !node.countExpr && n <= 1024;
}

/**
 * `shared`: build the shared per-face records (face tables, explosion records);
 * off for the plans of many rolled side counts, which then record die by die.
 */
export function termPlan(node: DiceNode, limits: DiceLimits, index: number, shared = true): TermPlan {
  const faceValue = faceValues(node);
  const n = faceValue.length - 1;
  const allowed: number[] = [];
  if (node.reroll && !node.reroll.once) for (let i = 1; i <= n; i++) if (!matches(node.reroll, faceValue[i]!)) allowed.push(i);
  const identity = node.fate === 0 && node.clampMin === null && node.clampMax === null && !node.target && !node.critSuccess && !node.critFailure;
  const table = shared && isTableTerm(node, n);
  const tables = table ? faceTables(node, faceValue, n) : { valueOf: null, scoreOf: null, recKept: null, recDropped: null };
  let roll: TermPlan['roll'] = rollGeneral;
  let kind: RecorderKind = 3;
  if (table) [roll, kind] = node.keep ? [rollTableKeep, 1] : [rollTable, 0];
  else if (shared && isExplodeSum(node) && n <= 1024) [roll, kind] = [rollExplodeSum, 2];
  return {
    index, node, notation: print({ ...node, label: null }), position: node.pos, count: node.count, n, faceValue, sides: node.sides,
    depth: node.explode ? limits.maxExplodeDepth : 0, rerollCap: limits.maxExplodeDepth, allowed, keepHigh: keepsHigh(node),
    label: node.label, ...tables, explodeRecs: kind === 2 ? explodeRecords(faceValue, n) : null, identity, roll, kind,
  };
}

/** Explosions summed, nothing else changing the dice (`8d6!`, `d6!!`, `3d6!p>5`). */
function isExplodeSum(node: DiceNode): boolean {
  return node.explode !== null && !node.reroll && !node.unique && !node.keep && !node.target && node.clampMin === null && node.clampMax === null
    && !node.critSuccess && !node.critFailure && !node.sort && !node.countExpr;
}

function group(p: TermPlan, dice: DieRoll[], total: number): DiceGroupRoll {
  const g: DiceGroupRoll = { notation: p.notation, position: p.position, sides: p.sides, dice, total: total + 0 };
  if (p.label !== null) g.label = p.label;
  return g;
}

function sortDice(node: { readonly sort: 'asc' | 'desc' | null }, dice: DieRoll[]): void {
  if (node.sort === 'asc') dice.sort((a, b) => a.value - b.value);
  else if (node.sort === 'desc') dice.sort((a, b) => b.value - a.value);
}

/** A list of known length: preallocated (no growth while filling) unless huge. */
function newList<T>(n: number): T[] {
  return n <= 50_000 ? (new Array(n) as T[]) : [];
}

/**
 * Table term, every die kept. Faces used as indices are taken `| 0`: the draw
 * is computed in floating point, and a float index costs a conversion on every
 * table load (a quarter of the recorded `10d6` in a profile).
 */
function rollTable(p: TermPlan, rng: Rng, N: number): DiceGroupRoll {
  const n = p.n;
  const rec = p.recKept!;
  const score = p.scoreOf!;
  if (N === 1) {
    // `d20 + 5`: a literal one-element list is cheaper than a sized one.
    const f = rng.die(n) | 0;
    // A face that counts as itself stays a small integer (a Float64Array load would box the total).
    return group(p, [rec[f]!], p.identity ? f : score[f]!);
  }
  const f = drawn(rng, n, N);
  const dice = newList<DieRoll>(N);
  let sum = 0;
  if (p.identity) {
    // Faces count as themselves: a whole-number sum, no table load.
    for (let i = 0; i < N; i++) {
      const x = f[i]!;
      sum += x;
      dice[i] = rec[x]!;
    }
  } else {
    for (let i = 0; i < N; i++) {
      const x = f[i]!;
      sum += score[x]!;
      dice[i] = rec[x]!;
    }
  }
  if (p.node.sort) sortDice(p.node, dice);
  return group(p, dice, sum);
}

/** Faces of one term's dice, drawn in one call (reused: terms roll one at a time, never re-entered). */
let draws = new Int32Array(64);

function drawn(rng: Rng, n: number, N: number): Int32Array {
  if (draws.length < N) draws = new Int32Array(Math.max(N, draws.length * 2));
  drawDice(rng, n, draws, N);
  return draws;
}

/** Faces of the dice being kept or dropped (reused; no roll is re-entered). */
let faces = new Float64Array(64);
let keepVals = new Float64Array(64);
let keepFlags = new Uint8Array(64);
const ORDER = new Int32Array(32);

function ensureScratch(N: number): void {
  if (faces.length < N) {
    faces = new Float64Array(N);
    keepVals = new Float64Array(N);
    keepFlags = new Uint8Array(N);
  }
}

/** Table term with keep / drop: faces first, then which are kept (by value), then the shared records. */
function rollTableKeep(p: TermPlan, rng: Rng, N: number): DiceGroupRoll {
  const n = p.n;
  const K = keptOf(p.node, N);
  const high = p.keepHigh;
  const valueOf = p.valueOf!;
  const score = p.scoreOf!;
  const dice = newList<DieRoll>(N);
  if (p.identity && (K === N - 1 || K === 1)) {
    // Drop one / keep one (4d6kh3, 2d20kh1): one pass, tracking the die that differs.
    const dropOne = K === N - 1;
    const kept = p.recKept!;
    const dropped = p.recDropped!;
    let sum = 0;
    let at = 0;
    let best = high === dropOne ? 0x7fff_ffff : -0x7fff_ffff;
    const f = drawn(rng, n, N);
    for (let i = 0; i < N; i++) {
      const v = f[i]!;
      sum += v;
      dice[i] = dropOne ? kept[v]! : dropped[v]!;
      // Drop: the last lowest (highest for dh / kl); keep: the first highest (lowest).
      if (dropOne ? (high ? v <= best : v >= best) : high ? v > best : v < best) {
        best = v;
        at = i;
      }
    }
    dice[at] = dropOne ? dropped[best]! : kept[best]!;
    if (p.node.sort) sortDice(p.node, dice);
    return group(p, dice, dropOne ? sum - best : best);
  }
  ensureScratch(N);
  const f = drawn(rng, n, N);
  const vals = keepVals;
  for (let i = 0; i < N; i++) vals[i] = valueOf[f[i]!]!;
  markKept(vals, N, K, high, keepFlags);
  let sum = 0;
  for (let i = 0; i < N; i++) {
    const face = f[i]!;
    if (keepFlags[i] === 1) {
      sum += score[face]!;
      dice[i] = p.recKept![face]!;
    } else dice[i] = p.recDropped![face]!;
  }
  if (p.node.sort) sortDice(p.node, dice);
  return group(p, dice, sum);
}

/** Shared, frozen records of an exploding term's faces, by face index (see rollExplodeSum). */
interface ExplodeRecords {
  /** The face, not exploding. */
  readonly plain: readonly DieRoll[];
  /** The face, exploding (rolling the next die). */
  readonly exploded: readonly DieRoll[];
  /** A penetrating roll of the face (one less), ending the chain or exploding. */
  readonly pen: readonly DieRoll[];
  readonly penExploded: readonly DieRoll[];
}

function explodeRecords(faceValue: readonly number[], n: number): ExplodeRecords {
  const make = (f: (v: number) => DieRoll): DieRoll[] => {
    const out = new Array<DieRoll>(n + 1);
    out[0] = f(0);
    for (let i = 1; i <= n; i++) out[i] = Object.freeze(f(faceValue[i]!));
    return out;
  };
  return {
    plain: make((v) => ({ value: v, kept: true, exploded: false, rerolled: false })),
    exploded: make((v) => ({ value: v, kept: true, exploded: true, rerolled: false })),
    pen: make((v) => ({ value: v - 1, kept: true, exploded: false, rerolled: false, penetrated: true })),
    penExploded: make((v) => ({ value: v - 1, kept: true, exploded: true, rerolled: false, penetrated: true })),
  };
}

/**
 * Explosions summed: every record is a shared one, and the draws come in
 * batches. The dice of an exploding term form one stream of draws (each die,
 * then its chain, then the next die), so the term draws its N dice in one
 * call and, whenever a chain has used the batch up, draws the N - i dice it
 * is sure to need next: the same faces in the same order as one `die` call each.
 */
function rollExplodeSum(p: TermPlan, rng: Rng, N: number): DiceGroupRoll {
  const node = p.node;
  const ex = node.explode!;
  const t = ex.trigger;
  const n = p.n;
  const fv = p.faceValue;
  const pen = ex.penetrate ? 1 : 0;
  const depth = p.depth;
  const x = p.explodeRecs!;
  // `8d6!`: the default trigger is a plain comparison with the top face (no switch on the operator per die).
  const top = node.fate === 0 && t.op === '=' && t.value === n ? n : 0;
  const dice = newList<DieRoll>(N);
  let f = drawn(rng, n, N);
  let have = N;
  let at = 0;
  let k = 0;
  let sum = 0;
  for (let i = 0; i < N; i++) {
    if (at === have) {
      f = drawn(rng, n, (have = N - i));
      at = 0;
    }
    const fi = f[at++]!;
    const u = fv[fi]!;
    if ((top !== 0 ? fi !== top : !matches(t, u)) || depth === 0) {
      sum += u;
      dice[k++] = x.plain[fi]!;
      continue;
    }
    if (ex.compound) {
      const rolls = [u];
      let v = u;
      let r = u;
      for (let e = 0; matches(t, r) && e < depth; e++) {
        if (at === have) {
          f = drawn(rng, n, (have = N - i));
          at = 0;
        }
        r = fv[f[at++]!]!;
        rolls.push(r - pen);
        v += r - pen;
      }
      sum += v;
      dice[k++] = { value: v, kept: true, exploded: true, rerolled: false, rolls };
      continue;
    }
    sum += u;
    dice[k++] = x.exploded[fi]!;
    for (let e = 0; e < depth; e++) {
      if (at === have) {
        f = drawn(rng, n, (have = N - i));
        at = 0;
      }
      const ri = f[at++]!;
      const r = fv[ri]!;
      sum += r - pen;
      // Past the first N slots the list grows (explosions are the rare case).
      const more = (top !== 0 ? ri === top : matches(t, r)) && e + 1 < depth;
      dice[k++] = pen ? (more ? x.penExploded[ri]! : x.pen[ri]!) : more ? x.exploded[ri]! : x.plain[ri]!;
      if (!more) break;
    }
  }
  return group(p, dice, sum);
}

/** Does `c` match some faces of a d`s` and miss others (a success count that can vary)? */
function countsSome(c: Cmp, s: number): boolean {
  let any = false;
  let all = true;
  for (let f = 1; f <= s; f++) {
    if (compare(c.op, f, c.value)) any = true;
    else all = false;
  }
  return any && !all;
}

/** Most different side counts one `d(...)` may roll (one plan each). */
export const MAX_ROLLED_SIDES = 1000;

const SHARED = 1025;
const PLAIN: (DieRoll | undefined)[] = new Array<DieRoll | undefined>(SHARED * 2).fill(undefined);
const DROPPED: (DieRoll | undefined)[] = new Array<DieRoll | undefined>(SHARED * 2).fill(undefined);
/** The frozen record of a plain dropped value (shared when small and whole). */
function droppedRecord(v: number): DieRoll {
  const k = v + SHARED;
  if (k >= 0 && k < DROPPED.length && Number.isInteger(v)) return DROPPED[k] ?? (DROPPED[k] = Object.freeze({ value: v + 0, kept: false, exploded: false, rerolled: false }));
  return { value: v, kept: false, exploded: false, rerolled: false };
}

/** The frozen record of a plain kept face (shared when small). */
function plainRecord(v: number): DieRoll {
  const k = v + SHARED;
  if (k >= 0 && k < PLAIN.length && Number.isInteger(v)) return PLAIN[k] ?? (PLAIN[k] = Object.freeze({ value: v + 0, kept: true, exploded: false, rerolled: false }));
  return { value: v, kept: true, exploded: false, rerolled: false };
}

/** Reroll a value while the rule matches (once for `ro`); past the cap, straight from the allowed faces. */
function rerollValue(p: TermPlan, rng: Rng, d: MutableDie): void {
  const rule = p.node.reroll!;
  if (!matches(rule, d.value)) return;
  const trail = d.rolls ?? [d.value];
  for (let c = 0; matches(rule, d.value); c++) {
    if (!rule.once && c >= p.rerollCap) {
      d.value = p.faceValue[p.allowed[rng.die(p.allowed.length) - 1]!]!;
      trail.push(d.value);
      break;
    }
    d.value = p.faceValue[rng.die(p.n)]!;
    trail.push(d.value);
    if (rule.once) break;
  }
  d.rerolled = true;
  d.rolls = trail;
  d.clamped = false;
}

/** Duplicates roll again (`u`), once (`uo`), or only those matching the trigger. */
function makeUnique(p: TermPlan, rng: Rng, list: MutableDie[]): void {
  const u = p.node.unique!;
  const seen = new Set<number>();
  for (let i = 0; i < list.length; i++) {
    const d = list[i]!;
    if (i > 0) {
      for (let c = 0; (u.trigger === null || matches(u.trigger, d.value)) && seen.has(d.value); c++) {
        const trail = d.rolls ?? [d.value];
        if (c >= p.rerollCap) {
          // Past the cap: straight from the faces not yet seen (same distribution), if any.
          const free: number[] = [];
          for (let f = 1; f <= p.n; f++) if (!seen.has(p.faceValue[f]!)) free.push(f);
          if (free.length === 0) break;
          d.value = p.faceValue[free[rng.die(free.length) - 1]!]!;
        } else d.value = p.faceValue[rng.die(p.n)]!;
        trail.push(d.value);
        d.rolls = trail;
        d.rerolled = true;
        d.clamped = false;
        if (u.once) break;
      }
    }
    seen.add(d.value);
  }
}

/** Any term: every modifier, in rpg-dice-roller's order. */
function rollGeneral(p: TermPlan, rng: Rng, N: number): DiceGroupRoll {
  const node = p.node;
  const fv = p.faceValue;
  const n = p.n;
  // Each die is thrown and, when it explodes, its chain at once (the same draws as the fast path).
  const list: MutableDie[] = [];
  const ex = node.explode && p.depth > 0 ? node.explode : null;
  const pen = ex?.penetrate ? 1 : 0;
  for (let i = 0; i < N; i++) {
    const u = fv[rng.die(n) | 0]!;
    const v = clampValue(node, u);
    const d: MutableDie = v !== u ? { value: v, kept: true, exploded: false, rerolled: false, clamped: true } : { value: v, kept: true, exploded: false, rerolled: false };
    if (!ex || !matches(ex.trigger, v)) {
      list.push(d);
      continue;
    }
    // The trigger is tested on each new roll's face (before a penetrating -1).
    const chain: MutableDie[] = [d];
    let r = v;
    for (let e = 0; matches(ex.trigger, r) && e < p.depth; e++) {
      chain[chain.length - 1]!.exploded = true;
      r = fv[rng.die(n) | 0]!;
      chain.push(pen ? { value: r - pen, kept: true, exploded: false, rerolled: false, penetrated: true } : { value: r, kept: true, exploded: false, rerolled: false });
    }
    if (ex.compound) {
      const sum = chain.reduce((s, x) => s + x.value, 0);
      list.push({ value: sum, kept: true, exploded: true, rerolled: false, rolls: chain.map((x) => x.value) });
    } else list.push(...chain);
  }
  if (node.reroll) for (const d of list) rerollValue(p, rng, d);
  if (node.unique) makeUnique(p, rng, list);
  const M = list.length;
  let sum = 0;
  if (node.keep) {
    const K = keptOf(node, M);
    ensureScratch(M);
    const vals = new Float64Array(M);
    for (let i = 0; i < M; i++) vals[i] = list[i]!.value;
    markKept(vals, M, K, p.keepHigh, keepFlags);
    for (let i = 0; i < M; i++) list[i]!.kept = keepFlags[i] === 1;
  }
  for (const d of list) if (d.kept) sum += node.target ? scoreOf(node, d.value) : d.value;
  const dice = list.map((d) => finish(node, d));
  if (node.sort) sortDice(node, dice);
  return group(p, dice, sum);
}

/**
 * Keep flags for the first N values (1 = kept) and the kept sum. Ties go to
 * the earlier die.
 */
function markKept(v: Float64Array, N: number, K: number, high: boolean, flags: Uint8Array): number {
  if (K >= N) {
    let s = 0;
    for (let i = 0; i < N; i++) {
      flags[i] = 1;
      s += v[i]!;
    }
    return s;
  }
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
    const x = v[i]!;
    let j = i - 1;
    while (j >= 0 && (high ? v[order[j]!]! < x : v[order[j]!]! > x)) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = i;
  }
}

/** The fast path of a term: the same draws as its recorder, value only. */
function termTotal(p: TermPlan): (rng: Rng, N: number) => number {
  const node = p.node;
  const n = p.n;
  if (p.roll === rollTable) {
    if (p.identity) {
      if (p.count === 1) return (rng) => rng.die(n);
      return (rng, N) => {
        const f = drawn(rng, n, N);
        let s = 0;
        for (let i = 0; i < N; i++) s += f[i]!;
        return s;
      };
    }
    const score = p.scoreOf!;
    return (rng, N) => {
      const f = drawn(rng, n, N);
      let s = 0;
      for (let i = 0; i < N; i++) s += score[f[i]!]!;
      return s;
    };
  }
  if (p.roll === rollTableKeep) {
    const high = p.keepHigh;
    const valueOf = p.valueOf!;
    const score = p.scoreOf!;
    if (p.identity) {
      return (rng, N) => {
        const K = keptOf(node, N);
        if (K === N - 1 || K === 1) {
          // Drop one / keep one: track the extreme while rolling, no buffer.
          let s = 0;
          let hi = -0x7fff_ffff;
          let lo = 0x7fff_ffff;
          const f = drawn(rng, n, N);
          for (let i = 0; i < N; i++) {
            const v = f[i]!;
            s += v;
            if (v > hi) hi = v;
            if (v < lo) lo = v;
          }
          if (K === N - 1) return s - (high ? lo : hi);
          return high ? hi : lo;
        }
        ensureScratch(N);
        const v = faces;
        const f = drawn(rng, n, N);
        for (let i = 0; i < N; i++) v[i] = f[i]!;
        return markKept(v, N, K, high, keepFlags);
      };
    }
    return (rng, N) => {
      const K = keptOf(node, N);
      ensureScratch(N);
      const f = drawn(rng, n, N);
      const v = faces;
      for (let i = 0; i < N; i++) v[i] = valueOf[f[i]!]!;
      markKept(v, N, K, high, keepFlags);
      let s = 0;
      for (let i = 0; i < N; i++) if (keepFlags[i] === 1) s += score[f[i]!]!;
      return s;
    };
  }
  if (p.roll === rollExplodeSum) {
    const ex = node.explode!;
    const t = ex.trigger;
    const fv = p.faceValue;
    const pen = ex.penetrate ? 1 : 0;
    const depth = p.depth;
    // The same batched stream of draws as the recorder (rollExplodeSum).
    const top = node.fate === 0 && t.op === '=' && t.value === n ? n : 0;
    return (rng, N) => {
      let f = drawn(rng, n, N);
      let have = N;
      let at = 0;
      let s = 0;
      for (let i = 0; i < N; i++) {
        if (at === have) {
          f = drawn(rng, n, (have = N - i));
          at = 0;
        }
        let ri = f[at++]!;
        let r = fv[ri]!;
        s += r;
        for (let e = 0; (top !== 0 ? ri === top : matches(t, r)) && e < depth; e++) {
          if (at === have) {
            f = drawn(rng, n, (have = N - i));
            at = 0;
          }
          ri = f[at++]!;
          r = fv[ri]!;
          s += r - pen;
        }
      }
      return s;
    };
  }
  return (rng, N) => rollGeneral(p, rng, N).total;
}

/** Smallest and largest value a dice term can take (for range checks and linear sides). */
export function termRange(node: DiceNode, limits: DiceLimits, countLo: number, countHi: number): { lo: number; hi: number } {
  const fl = node.fate ? -1 : 1;
  const fh = node.fate ? 1 : node.sides;
  const ex = node.explode;
  const depth = ex ? limits.maxExplodeDepth : 0;
  const pen = ex?.penetrate ? 1 : 0;
  let rl = clampValue(node, fl);
  let rh = clampValue(node, fh);
  if (ex && !ex.compound) [rl, rh] = [Math.min(rl, fl - pen), Math.max(rh, fh - pen)];
  if (ex?.compound) [rl, rh] = [rl + depth * Math.min(0, fl - pen), rh + depth * Math.max(0, fh - pen)];
  if (node.reroll || node.unique) [rl, rh] = [Math.min(rl, fl), Math.max(rh, fh)];
  const nHi = ex && !ex.compound ? countHi * (depth + 1) : countHi;
  const kLo = keptOf(node, countLo);
  const kHi = Math.max(keptOf(node, nHi), keptOf(node, countHi));
  const sLo = node.target ? (node.target.failure ? -1 : 0) : rl;
  const sHi = node.target ? 1 : rh;
  return { lo: Math.min(kLo * sLo, kHi * sLo) + 0, hi: Math.max(kLo * sHi, kHi * sHi) + 0 };
}

class Compiler {
  diceCount = 0;
  /** Slots of the result's `dice` list, one per term or group, in roll order. */
  slots = 0;
  readonly planOf = new Map<DiceNode, TermPlan>();
  /** The fast-path function of each plain term (linear sides), by plan. */
  readonly totalOf = new Map<TermPlan, TotalFn>();
  /** Compiling a sum of terms and constants: it rolls by a loop over its terms. */
  lean = false;
  /** Groups recorded by a closure of their own (groupRecorder), by node. */
  readonly groupRolls = new Map<GroupNode, RecordFn>();
  constructor(
    private readonly src: string,
    readonly limits: DiceLimits,
  ) {}

  fail(code: 'DIVISION_BY_ZERO' | 'UNSUPPORTED', message: string, pos: number): never {
    throw new DiceError(code, message, pos, this.src);
  }

  expr(node: Expr): Compiled {
    switch (node.kind) {
      case 'number': {
        const v = node.value;
        const integral = Number.isInteger(v);
        if (this.lean) return { total: unused, record: unused, lo: v, hi: v, integral };
        return { total: () => v, record: () => v, lo: v, hi: v, integral };
      }
      case 'dice':
        return this.dice(node);
      case 'group':
        return this.group(node);
      case 'negate': {
        const a = this.expr(node.arg);
        if (this.lean) return { total: unused, record: unused, lo: -a.hi, hi: -a.lo, integral: a.integral };
        const t = a.total;
        const r = a.record;
        return { total: (rng) => -t(rng), record: (rng, out) => -r(rng, out), lo: -a.hi, hi: -a.lo, integral: a.integral };
      }
      case 'call':
        return this.call(node);
      case 'binary': {
        const a = this.expr(node.left);
        const b = this.expr(node.right);
        const [ta, ra, tb, rb] = [a.total, a.record, b.total, b.record];
        if (this.lean) {
          // Only + and - reach here when lean (a linear side).
          const lo = node.op === '+' ? a.lo + b.lo : a.lo - b.hi;
          const hi = node.op === '+' ? a.hi + b.hi : a.hi - b.lo;
          if (a.integral && b.integral) checkSafe(lo, hi, node, this.src);
          return { total: unused, record: unused, lo, hi, integral: a.integral && b.integral };
        }
        const integral = a.integral && b.integral;
        let out: Compiled;
        switch (node.op) {
          case '+':
            out = { total: (rng) => ta(rng) + tb(rng), record: (rng, o) => ra(rng, o) + rb(rng, o), lo: a.lo + b.lo, hi: a.hi + b.hi, integral };
            break;
          case '-':
            out = { total: (rng) => ta(rng) - tb(rng), record: (rng, o) => ra(rng, o) - rb(rng, o), lo: a.lo - b.hi, hi: a.hi - b.lo, integral };
            break;
          case '*': {
            const c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
            out = { total: (rng) => ta(rng) * tb(rng), record: (rng, o) => ra(rng, o) * rb(rng, o), lo: Math.min(...c), hi: Math.max(...c), integral };
            break;
          }
          case '/': {
            if (b.lo <= 0 && b.hi >= 0) this.fail('DIVISION_BY_ZERO', b.lo === b.hi ? 'division by zero' : 'the divisor can be zero', node.opPos);
            // Real division, as Roll20, Foundry and rpg-dice-roller: floor(), ceil() and round() choose a whole number.
            const c = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
            out = { total: (rng) => ta(rng) / tb(rng), record: (rng, o) => ra(rng, o) / rb(rng, o), lo: Math.min(...c), hi: Math.max(...c), integral: false };
            break;
          }
          case '%': {
            if (b.lo <= 0 && b.hi >= 0) this.fail('DIVISION_BY_ZERO', b.lo === b.hi ? 'modulo by zero' : 'the divisor of % can be zero', node.opPos);
            // JavaScript's remainder: the sign of the dividend (5 % 3 = 2, -5 % 3 = -2).
            const m = Math.max(Math.abs(b.lo), Math.abs(b.hi));
            out = { total: (rng) => ta(rng) % tb(rng), record: (rng, o) => ra(rng, o) % rb(rng, o), lo: a.lo < 0 ? -m : 0, hi: a.hi > 0 ? m : 0, integral };
            break;
          }
          case '^': {
            if (a.lo < 0 && !(b.integral)) this.fail('UNSUPPORTED', 'a negative number to a fractional power is not a real number', node.opPos);
            if (a.lo <= 0 && a.hi >= 0 && b.lo < 0) this.fail('DIVISION_BY_ZERO', 'zero to a negative power (division by zero)', node.opPos);
            const c = [a.lo ** b.lo, a.lo ** b.hi, a.hi ** b.lo, a.hi ** b.hi, b.lo <= 2 && b.hi >= 2 ? 0 : a.lo ** b.lo, a.lo < 0 && a.hi > 0 ? 0 : a.lo ** b.lo];
            // Odd and even exponents between the ends: bound by the largest magnitude.
            const mag = Math.max(Math.abs(a.lo), Math.abs(a.hi)) ** Math.max(Math.abs(b.lo), Math.abs(b.hi), 1);
            const lo = a.lo < 0 ? -mag : Math.min(...c);
            const hi = a.lo < 0 ? mag : Math.max(...c);
            if (!(Math.abs(lo) <= Number.MAX_SAFE_INTEGER && Math.abs(hi) <= Number.MAX_SAFE_INTEGER)) {
              throw new DiceError('LIMIT', 'this power can exceed the largest safe integer, 2^53 - 1 (safeInteger)', node.pos, this.src, 'safeInteger');
            }
            out = { total: (rng) => ta(rng) ** tb(rng), record: (rng, o) => ra(rng, o) ** rb(rng, o), lo, hi, integral: integral && b.lo >= 0 };
            break;
          }
        }
        if (out.integral) checkSafe(out.lo, out.hi, node, this.src);
        else if (!(Math.abs(out.lo) <= Number.MAX_SAFE_INTEGER && Math.abs(out.hi) <= Number.MAX_SAFE_INTEGER)) {
          throw new DiceError('LIMIT', 'this part of the expression can exceed 2^53 - 1 (safeInteger)', node.pos, this.src, 'safeInteger');
        }
        return out;
      }
    }
  }

  call(node: Extract<Expr, { kind: 'call' }>): Compiled {
    const args = node.args.map((x) => this.expr(x));
    const a = args[0]!;
    const t = a.total;
    const r = a.record;
    const unary = (f: (x: number) => number, lo: number, hi: number, integral: boolean): Compiled => ({
      total: (rng) => f(t(rng)),
      record: (rng, out) => f(r(rng, out)),
      lo,
      hi,
      integral,
    });
    switch (node.fn) {
      case 'abs':
        return unary(Math.abs, a.lo >= 0 ? a.lo : a.hi <= 0 ? -a.hi : 0, Math.max(Math.abs(a.lo), Math.abs(a.hi)), a.integral);
      case 'floor':
        return unary(Math.floor, Math.floor(a.lo), Math.floor(a.hi), true);
      case 'ceil':
        return unary(Math.ceil, Math.ceil(a.lo), Math.ceil(a.hi), true);
      case 'round':
        // Halves go up (toward +infinity), as JavaScript's Math.round.
        return unary(Math.round, Math.round(a.lo), Math.round(a.hi), true);
      case 'sign':
        return unary(Math.sign, Math.sign(a.lo), Math.sign(a.hi), true);
      case 'sqrt':
        if (a.lo < 0) this.fail('UNSUPPORTED', 'sqrt of a value that can be negative is not a real number', node.pos);
        return unary(Math.sqrt, Math.sqrt(a.lo), Math.sqrt(a.hi), false);
      case 'log':
        if (a.lo <= 0) this.fail('UNSUPPORTED', 'log of a value that can be zero or negative is not a real number', node.pos);
        return unary(Math.log, Math.log(a.lo), Math.log(a.hi), false);
      case 'exp':
        if (a.hi > 36) throw new DiceError('LIMIT', 'exp of more than 36 exceeds the largest safe integer (safeInteger)', node.pos, this.src, 'safeInteger');
        return unary(Math.exp, Math.exp(a.lo), Math.exp(a.hi), false);
      case 'sin':
        return unary(Math.sin, -1, 1, false);
      case 'cos':
        return unary(Math.cos, -1, 1, false);
      case 'tan': {
        // tan of the values the argument can take (finite: no whole or dyadic value is an odd multiple of pi/2).
        return unary(Math.tan, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, false);
      }
      case 'pow':
        return this.expr({ kind: 'binary', op: '^', opPos: node.pos, left: node.args[0]!, right: node.args[1]!, pos: node.pos, end: node.end });
      case 'min':
      case 'max': {
        const pick = node.fn === 'min' ? Math.min : Math.max;
        const ts = args.map((x) => x.total);
        const rs = args.map((x) => x.record);
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
          lo: pick(...args.map((x) => x.lo)),
          hi: pick(...args.map((x) => x.hi)),
          integral: args.every((x) => x.integral),
        };
      }
    }
  }

  dice(node: DiceNode): Compiled {
    let count: Compiled | null = null;
    let cLo = node.count;
    let cHi = node.count;
    if (node.countExpr) {
      const lean = this.lean;
      this.lean = false;
      count = this.expr(node.countExpr);
      this.lean = lean;
      if (!count.integral) this.fail('UNSUPPORTED', 'a dice count from an expression must be a whole number (use floor(), ceil() or round())', node.countExpr.pos);
      if (count.lo < 0) this.fail('UNSUPPORTED', 'a dice count from an expression cannot be negative', node.countExpr.pos);
      [cLo, cHi] = [count.lo, count.hi];
    }
    if (node.sidesExpr) return this.rolledSides(node, count, cLo, cHi);
    this.diceCount += cHi;
    if (this.diceCount > this.limits.maxDice) {
      throw new DiceError('LIMIT', `the expression rolls up to ${this.diceCount} dice, over maxDice (${this.limits.maxDice})`, node.pos, this.src, 'maxDice');
    }
    const { lo, hi } = termRange(node, this.limits, cLo, cHi);
    checkSafe(lo, hi, node, this.src);
    const plan = termPlan(node, this.limits, this.slots++);
    this.planOf.set(node, plan);
    const tt = termTotal(plan);
    const N = node.count;
    const index = plan.index;
    if (count === null) {
      const total: TotalFn = (rng) => tt(rng, N);
      this.totalOf.set(plan, total);
      if (this.lean) return { total, record: unused, lo, hi, integral: true };
      return {
        total,
        record: (rng, out) => {
          const g = recordTerm(plan, rng, N);
          out[index] = g;
          return g.total;
        },
        lo,
        hi,
        integral: true,
      };
    }
    const ct = count.total;
    const cr = count.record;
    return {
      total: (rng) => tt(rng, ct(rng)),
      record: (rng, out) => {
        const g = recordTerm(plan, rng, cr(rng, out));
        out[index] = g;
        return g.total;
      },
      lo,
      hi,
      integral: true,
    };
  }

  /**
   * `d(1d4)`, `(1d4)d(1d6)`: the count, then the sides are rolled (and recorded), then
   * the dice. One plan per side count the expression can give, built up front.
   */
  rolledSides(node: DiceNode, count: Compiled | null, cLo: number, cHi: number): Compiled {
    const sidesExpr = node.sidesExpr!;
    const lean = this.lean;
    this.lean = false;
    const sx = this.expr(sidesExpr);
    this.lean = lean;
    if (!sx.integral) this.fail('UNSUPPORTED', 'sides from an expression must be a whole number (use floor(), ceil() or round())', sidesExpr.pos);
    if (sx.lo < 1) this.fail('UNSUPPORTED', 'sides from an expression must be at least 1 (this one can be lower)', sidesExpr.pos);
    if (sx.hi > this.limits.maxSides) throw new DiceError('LIMIT', `these sides can reach ${sx.hi}, over maxSides (${this.limits.maxSides})`, sidesExpr.pos, this.src, 'maxSides');
    if (sx.hi - sx.lo + 1 > MAX_ROLLED_SIDES) {
      throw new DiceError('LIMIT', `sides from an expression may take at most ${MAX_ROLLED_SIDES} different values (maxRolledSides); these take ${sx.hi - sx.lo + 1}`, sidesExpr.pos, this.src, 'maxRolledSides');
    }
    this.diceCount += cHi;
    if (this.diceCount > this.limits.maxDice) {
      throw new DiceError('LIMIT', `the expression rolls up to ${this.diceCount} dice, over maxDice (${this.limits.maxDice})`, node.pos, this.src, 'maxDice');
    }
    const index = this.slots++;
    const sLo = sx.lo;
    const plans: TermPlan[] = [];
    const totals: ((rng: Rng, N: number) => number)[] = [];
    let lo = Infinity;
    let hi = -Infinity;
    // Shared per-face records cost about s objects per side count: only for a few counts.
    const shared = sx.hi - sx.lo < 64;
    let counts = node.target === null;
    for (let s = sx.lo; s <= sx.hi; s++) {
      const fixed = withSides(node, s, this.src);
      if (fixed.target && countsSome(fixed.target.success, s)) counts = true;
      const r = termRange(fixed, this.limits, cLo, cHi);
      lo = Math.min(lo, r.lo);
      hi = Math.max(hi, r.hi);
      const plan = termPlan(fixed, this.limits, index, shared);
      plans.push(plan);
      totals.push(termTotal(plan));
    }
    if (!counts) {
      // No side count has a face that both matches and misses: the old total comparison typed by habit.
      const c = node.target!.success;
      this.fail('UNSUPPORTED', `counting the dice showing ${c.op}${c.value} gives the same count whatever the faces, for every side count d(...) can give; to compare the total write "... vs ${c.value}"`, node.pos);
    }
    checkSafe(lo, hi, node, this.src);
    const N = node.count;
    const [st, sr] = [sx.total, sx.record];
    const [ct, cr] = count ? [count.total, count.record] : [null, null];
    return {
      total: (rng) => {
        const n = ct ? ct(rng) : N;
        return totals[st(rng) - sLo]!(rng, n);
      },
      record: (rng, out) => {
        const n = cr ? cr(rng, out) : N;
        const g = recordTerm(plans[sr(rng, out) - sLo]!, rng, n);
        out[index] = g;
        return g.total;
      },
      lo,
      hi,
      integral: true,
    };
  }

  group(node: GroupNode): Compiled {
    const lean = this.lean;
    this.lean = false;
    // Members compile as sides: a sum of terms rolls as a loop, without a closure tree.
    const sides = node.members.map((m) => compileSide(this, m));
    const members = sides.map((x) => ({ total: x.tot, record: sideRecord(x), lo: x.lo, hi: x.hi, integral: x.lin !== null || Number.isInteger(x.lo) }));
    this.lean = lean;
    const index = this.slots++;
    const notation = print({ ...node, label: null });
    const single = members.length === 1;
    let terms: TermPlan[] = [];
    if (single && node.keep) {
      // One member: keep / drop works on its dice, so it must be a sum of plain dice terms.
      const found: DiceNode[] = [];
      const walk = (e: Expr): boolean => {
        if (e.kind === 'dice') {
          found.push(e);
          return !e.keep && !e.target && !e.countExpr && !e.sidesExpr;
        }
        return e.kind === 'binary' && e.op === '+' && walk(e.left) && walk(e.right);
      };
      if (!walk(node.members[0]!)) this.fail('UNSUPPORTED', 'keep or drop across the dice of one group member works on a sum (+) of dice terms without keep or success counting', node.pos);
      terms = found.map((d) => this.planOf.get(d)!);
    }
    const recs = members.map((m) => m.record);
    const keep = node.keep;
    const target = node.target;
    const high = !keep || keep.mode === 'kh' || keep.mode === 'dl';
    const label = node.label;
    const score = (v: number): number => (matches(target!.success, v) ? 1 : target!.failure && matches(target!.failure, v) ? -1 : 0);
    const outcome = (v: number): 'success' | 'failure' | 'neutral' => (score(v) > 0 ? 'success' : score(v) < 0 ? 'failure' : 'neutral');
    const M = members.length;
    const vals = new Float64Array(M);
    const flags = new Uint8Array(M);
    const K = keep ? keepCount(keep, M) : M;
    // Members that are one plain term each (`{3d6, 3d6}`): recorded by direct calls, not through their closures.
    const direct = sides.every((x) => x.lin !== null && x.lin.plans.length === 1 && x.lin.constant === 0 && x.lin.signs[0] === 1)
      ? sides.map((x) => x.lin!.plans[0]!) : null;
    const fasts = direct === null ? [] : direct.map((p) => (p.count > 1 ? fastTerm(p) : null));
    // `{3d6, 3d6}kh1`, `{4dF, 4dF}`: the whole group in one closure of its own (see groupRecorder).
    const whole = direct !== null && !target && M > 1 ? groupRecorder(node, direct, index, notation, K, high) : null;
    if (whole !== null) this.groupRolls.set(node, whole);
    const rollGroup = (rng: Rng, out: DiceGroupRoll[]): number => {
      if (direct !== null) {
        for (let i = 0; i < M; i++) {
          const p = direct[i]!;
          const fast = fasts[i]!;
          const g = fast !== null ? fast(rng) : recordTerm(p, rng, p.count);
          out[p.index] = g;
          vals[i] = g.total;
        }
      } else for (let i = 0; i < M; i++) vals[i] = recs[i]!(rng, out);
      let dice: DieRoll[];
      let total: number;
      if (single && keep) {
        const all: DieRoll[] = [];
        for (const t of terms) for (const d of out[t.index]!.dice) all.push(d);
        const D = all.length;
        const v = new Float64Array(D);
        for (let i = 0; i < D; i++) v[i] = all[i]!.value;
        const fl = new Uint8Array(D);
        total = markKept(v, D, keepCount(keep, D), high, fl);
        dice = all.map((d, i) => ({ ...d, kept: fl[i] === 1 }));
        if (target) total = score(total);
      } else if (single) {
        total = target ? score(vals[0]!) : vals[0]!;
        dice = [{ value: vals[0]!, kept: true, exploded: false, rerolled: false, ...(target ? { outcome: outcome(vals[0]!) } : {}) }];
      } else {
        if (K === 1 && M > 1) {
          // Keep one member (`{3d6, 3d6}kh1`): the first highest (lowest), without the general marking.
          let at = 0;
          for (let i = 1; i < M; i++) if (high ? vals[i]! > vals[at]! : vals[i]! < vals[at]!) at = i;
          for (let i = 0; i < M; i++) flags[i] = i === at ? 1 : 0;
        } else markKept(vals, M, K, high, flags);
        total = 0;
        dice = newList<DieRoll>(M);
        for (let i = 0; i < M; i++) {
          const v = vals[i]!;
          const kept = flags[i] === 1;
          if (kept) total += target ? score(v) : v;
          dice[i] = target ? { value: v, kept, exploded: false, rerolled: false, outcome: outcome(v) } : kept ? plainRecord(v) : droppedRecord(v);
        }
      }
      if (node.sort) sortDice(node, dice);
      const g: DiceGroupRoll = { notation, position: node.pos, sides: 0, dice, total: total + 0 };
      if (label !== null) g.label = label;
      out[index] = g;
      return total + 0;
    };
    let lo: number;
    let hi: number;
    if (target) [lo, hi] = [target.failure ? -members.length : 0, single && keep ? 1 : members.length];
    else if (single) [lo, hi] = [Math.min(members[0]!.lo, 0), members[0]!.hi];
    else {
      const k = keep ? keepCount(keep, members.length) : members.length;
      const sortedLo = members.map((m) => m.lo).sort((x, y) => x - y);
      const sortedHi = members.map((m) => m.hi).sort((x, y) => y - x);
      lo = sortedLo.slice(0, k).reduce((s, x) => s + Math.min(x, 0) + Math.max(x, 0), 0);
      hi = sortedHi.slice(0, k).reduce((s, x) => s + x, 0);
      lo = Math.min(lo, sortedLo.reduce((s, x) => s + Math.min(0, x), 0));
      hi = Math.max(hi, sortedHi.reduce((s, x) => s + Math.max(0, x), 0));
    }
    const scratch: DiceGroupRoll[] = [];
    const tots = members.map((m) => m.total);
    // Fast path of a group of several members with keep / drop: their totals, the kept ones summed.
    const fast: TotalFn | null = single || target ? null
      : K === 1 ? (rng) => {
        let best = tots[0]!(rng);
        for (let i = 1; i < M; i++) {
          const v = tots[i]!(rng);
          if (high ? v > best : v < best) best = v;
        }
        return best;
      }
      : (rng) => {
        for (let i = 0; i < M; i++) vals[i] = tots[i]!(rng);
        return markKept(vals, M, K, high, flags);
      };
    return {
      total: fast ?? ((rng) => rollGroup(rng, scratch)),
      record: whole ?? rollGroup,
      lo,
      hi,
      integral: target !== null || members.every((m) => m.integral),
    };
  }
}

function keepCount(k: { readonly mode: string; readonly count: number }, M: number): number {
  return k.mode === 'kh' || k.mode === 'kl' ? Math.min(k.count, M) : Math.max(0, M - k.count);
}

/** Stands in for closures a linear side never calls. */
function unused(): number {
  throw new Error('internal: a linear side has no closure tree');
}

/** Rounds a value about to be compared or shown (whole numbers pass unchanged). */
export { finalValue };
export type { Cmp, GroupNode };
export interface CompiledDice {
  readonly expression: string;
  readonly ast: Root;
  /** Smallest and largest possible values of the expression (left side of a comparison; bounds, not always reached). */
  readonly min: number;
  readonly max: number;
  /** Dice per roll, over every term (explosions and rerolls not counted). */
  readonly diceCount: number;
  readonly limits: DiceLimits;
  /** `# ...` at the end of the notation. */
  readonly comment: string | null;
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
  readonly plans: readonly TermPlan[];
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
      return Number.isInteger(n.value) ? Math.abs(n.value) : null;
    case 'dice': {
      if (n.countExpr || n.sidesExpr) return null;
      const r = termRange(n, limits, n.count, n.count);
      return Math.max(Math.abs(r.lo), Math.abs(r.hi));
    }
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
  readonly plans: TermPlan[];
  readonly signs: number[];
  readonly planOf: ReadonlyMap<DiceNode, TermPlan>;
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
function linearSide(node: Expr, planOf: ReadonlyMap<DiceNode, TermPlan>): LinearSide {
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
    const i0 = p0.index;
    const s0 = signs[0]!;
    const n0 = p0.count;
    return (rng, out) => {
      const g = recordTerm(p0, rng, n0);
      out[i0] = g;
      return constant + s0 * g.total;
    };
  }
  return (rng, out) => {
    let v = constant;
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i]!;
      const g = recordTerm(p, rng, p.count);
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
  c.lean = lean;
  const e = c.expr(node);
  c.lean = false;
  if (lean) {
    const lin = linearSide(node, c.planOf);
    return { lin, tot: linearTotal(lin, lin.plans.map((p) => c.totalOf.get(p)!)), tree: null, lo: e.lo, hi: e.hi };
  }
  const t = e.total;
  const r = e.record;
  // Real division, decimals and math functions: the value is rounded once, at the end.
  if (!e.integral) return { lin: null, tot: (rng) => finalValue(t(rng)), tree: (rng, out) => finalValue(r(rng, out)), lo: finalValue(e.lo), hi: finalValue(e.hi) };
  return { lin: null, tot: (rng) => t(rng) + 0, tree: r, lo: e.lo, hi: e.hi };
}

function sideRecord(s: Side): SideRecord {
  if (s.lin !== null) return linearRecord(s.lin);
  const r = s.tree!;
  return (rng, out) => r(rng, out) + 0;
}

/** The face scores as whole numbers when they all are (a double total would be boxed in every record). */
function intScores(p: TermPlan): Int32Array | null {
  const s = p.scoreOf!;
  for (let i = 1; i < s.length; i++) if ((s[i]! | 0) !== s[i]) return null;
  return Int32Array.from(s);
}

/** The constant c when every face f scores f + c (plain dice 0, dF -2), else null. */
function faceShift(score: Int32Array): number | null {
  const c = score[1]! - 1;
  for (let f = 2; f < score.length; f++) if (score[f] !== f + c) return null;
  return c;
}

/**
 * A closure of its own for the most common shapes of term with a written
 * count and no sort: plain dice (`10d6`, `4dF`, `10d10>=8`), and drop one /
 * keep one (`4d6kh3`, `2d20kh1`). Small enough for V8 to inline where it is
 * called, with the term's constants and a draw buffer of its own captured,
 * and the same draws and records as rollTable / rollTableKeep.
 * Null for any other term.
 */
function fastTerm(p: TermPlan): ((rng: Rng) => DiceGroupRoll) | null {
  const node = p.node;
  if (p.kind === 2) return fastExplode(p);
  if (node.sort || node.countExpr || node.sidesExpr || (p.kind !== 0 && p.kind !== 1)) return null;
  const { n, notation, position, sides, label } = p;
  const N = p.count;
  const rec = p.recKept!;
  const buf = new Int32Array(N);
  const make = (dice: DieRoll[], total: number): DiceGroupRoll =>
    label === null ? { notation, position, sides, dice, total } : { notation, position, sides, dice, total, label };
  if (p.kind === 0) {
    const score = p.identity ? null : intScores(p);
    if (!p.identity && score === null) return null;
    // Faces that count as the face plus a constant: numbered dice (0), and Fate's dF (-2: faces 1..3 count -1, 0, +1).
    const shift = score === null ? 0 : faceShift(score);
    if (score === null || shift !== null) {
      const off = (shift ?? 0) * N;
      // The dice's sum from the faces alone, no table load per die; the record is made here (no call).
      return (rng) => {
        drawDice(rng, n, buf, N);
        const dice = new Array<DieRoll>(N);
        let sum = 0;
        for (let i = 0; i < N; i++) {
          const x = buf[i]!;
          sum += x;
          dice[i] = rec[x]!;
        }
        return label === null ? { notation, position, sides, dice, total: sum + off } : { notation, position, sides, dice, total: sum + off, label };
      };
    }
    return (rng) => {
      drawDice(rng, n, buf, N);
      const dice = new Array<DieRoll>(N);
      let sum = 0;
      for (let i = 0; i < N; i++) {
        const x = buf[i]!;
        sum += score[x]!;
        dice[i] = rec[x]!;
      }
      return make(dice, sum + 0);
    };
  }
  const K = keptOf(node, N);
  if (!p.identity || N < 2 || (K !== N - 1 && K !== 1)) return null;
  const dropOne = K === N - 1;
  const high = p.keepHigh;
  // Drop one: the set-aside die is the last lowest (highest for dh / kl); keep one: the first highest (lowest).
  const mark = dropOne ? rec : p.recDropped!;
  const other = dropOne ? p.recDropped! : rec;
  return (rng) => {
    drawDice(rng, n, buf, N);
    const dice = new Array<DieRoll>(N);
    let sum = 0;
    let at = 0;
    let best = high === dropOne ? 0x7fff_ffff : -0x7fff_ffff;
    for (let i = 0; i < N; i++) {
      const v = buf[i]!;
      sum += v;
      dice[i] = mark[v]!;
      if (dropOne ? (high ? v <= best : v >= best) : high ? v > best : v < best) {
        best = v;
        at = i;
      }
    }
    dice[at] = other[best]!;
    return make(dice, dropOne ? sum - best : best);
  };
}

/** Most different member totals a group recorder keeps shared records for. */
const GROUP_SPAN = 2048;

/**
 * A group of several members, each one plain table term whose face scores
 * are whole (`{3d6, 3d6}kh1`, `{4dF, 4dF}`, `{d20, d20}kl1`, `{5d10>=8, 5d10>=8}`),
 * with keep / drop across members and no success count on the group: one
 * closure records the members and the group. Every member's dice come from
 * one draw when they share a die (one stream of draws, as one `die` call
 * each), records are the shared per-face and per-total ones, and the choice
 * of kept members is the general one's (first highest kept, last lowest
 * dropped). Null for any other group, which rollGroup records.
 */
function groupRecorder(node: GroupNode, plans: readonly TermPlan[], index: number, notation: string, K: number, high: boolean): RecordFn | null {
  const M = plans.length;
  const scores: Int32Array[] = [];
  let lo = 0;
  let hi = 0;
  for (const p of plans) {
    if (p.kind !== 0 || p.node.sort || p.node.countExpr || p.node.sidesExpr) return null;
    const sc = intScores(p);
    if (sc === null) return null;
    scores.push(sc);
    let fl = Infinity;
    let fh = -Infinity;
    for (let f = 1; f <= p.n; f++) [fl, fh] = [Math.min(fl, sc[f]!), Math.max(fh, sc[f]!)];
    [lo, hi] = scores.length === 1 ? [p.count * fl, p.count * fh] : [Math.min(lo, p.count * fl), Math.max(hi, p.count * fh)];
  }
  if (hi - lo >= GROUP_SPAN) return null;
  // The group's member records by total: the same frozen objects rollGroup shares.
  const keptRec: DieRoll[] = [];
  const droppedRec: DieRoll[] = [];
  for (let v = lo; v <= hi; v++) {
    keptRec.push(plainRecord(v));
    droppedRec.push(droppedRecord(v));
  }
  const counts = Int32Array.from(plans, (p) => p.count);
  const slots = Int32Array.from(plans, (p) => p.index);
  const recs = plans.map((p) => p.recKept!);
  const names = plans.map((p) => p.notation);
  const positions = plans.map((p) => p.position);
  const sidesOf = plans.map((p) => p.sides);
  const labels = plans.map((p) => p.label);
  const n = plans[0]!.n;
  // One draw for every member's dice when they share a die; else one per member, into its part of the buffer.
  const oneDraw = plans.every((p) => p.n === n);
  let D = 0;
  const starts = new Int32Array(M);
  for (let m = 0; m < M; m++) {
    starts[m] = D;
    D += counts[m]!;
  }
  const buf = new Int32Array(D);
  const parts = plans.map((p, m) => buf.subarray(starts[m]!, starts[m]! + p.count));
  const sides = plans.map((p) => p.n);
  const vals = new Float64Array(M);
  const flags = new Uint8Array(M);
  const totals = new Int32Array(M);
  const { pos: position, label } = node;
  const sorted = node.sort !== null;
  const keepOne = K === 1;
  const dropOne = K === M - 1;
  return (rng, out) => {
    if (oneDraw) drawDice(rng, n, buf, D);
    else for (let m = 0; m < M; m++) drawDice(rng, sides[m]!, parts[m]!, counts[m]!);
    let o = 0;
    for (let m = 0; m < M; m++) {
      const N = counts[m]!;
      const sc = scores[m]!;
      const rec = recs[m]!;
      const dice = new Array<DieRoll>(N);
      let sum = 0;
      for (let i = 0; i < N; i++) {
        const x = buf[o + i]!;
        sum += sc[x]!;
        dice[i] = rec[x]!;
      }
      o += N;
      const l = labels[m]!;
      out[slots[m]!] = l === null
        ? { notation: names[m]!, position: positions[m]!, sides: sidesOf[m]!, dice, total: sum }
        : { notation: names[m]!, position: positions[m]!, sides: sidesOf[m]!, dice, total: sum, label: l };
      totals[m] = sum;
    }
    const dice = new Array<DieRoll>(M);
    let total = 0;
    if (keepOne || dropOne) {
      // Keep one: the first highest (lowest); drop one: the last lowest (highest).
      let at = 0;
      let best = totals[0]!;
      for (let m = 1; m < M; m++) {
        const v = totals[m]!;
        if (keepOne ? (high ? v > best : v < best) : high ? v <= best : v >= best) {
          best = v;
          at = m;
        }
      }
      for (let m = 0; m < M; m++) {
        const v = totals[m]!;
        const kept = keepOne ? m === at : m !== at;
        if (kept) total += v;
        dice[m] = kept ? keptRec[v - lo]! : droppedRec[v - lo]!;
      }
    } else {
      for (let m = 0; m < M; m++) vals[m] = totals[m]!;
      markKept(vals, M, K, high, flags);
      for (let m = 0; m < M; m++) {
        const v = totals[m]!;
        const kept = flags[m] === 1;
        if (kept) total += v;
        dice[m] = kept ? keptRec[v - lo]! : droppedRec[v - lo]!;
      }
    }
    if (sorted) sortDice(node, dice);
    out[index] = label === null ? { notation, position, sides: 0, dice, total } : { notation, position, sides: 0, dice, total, label };
    return total;
  };
}

/**
 * `8d6!`: explode on the top face, each extra roll a die of its own, in a
 * closure of its own (rollExplodeSum handles every other explosion). The same
 * batched stream of draws and the same shared records as rollExplodeSum.
 */
function fastExplode(p: TermPlan): ((rng: Rng) => DiceGroupRoll) | null {
  const node = p.node;
  const ex = node.explode!;
  const t = ex.trigger;
  if (ex.compound || ex.penetrate || node.fate !== 0 || t.op !== '=' || t.value !== p.n || node.countExpr || node.sidesExpr || p.depth === 0) return null;
  const { n, notation, position, sides, label, depth } = p;
  const N = p.count;
  const plain = p.explodeRecs!.plain;
  const boom = p.explodeRecs!.exploded;
  const buf = new Int32Array(N);
  return (rng) => {
    drawDice(rng, n, buf, N);
    let have = N;
    let at = 0;
    const dice = new Array<DieRoll>(N);
    let k = 0;
    let sum = 0;
    for (let i = 0; i < N; i++) {
      if (at === have) {
        have = N - i;
        drawDice(rng, n, buf, have);
        at = 0;
      }
      let f = buf[at++]!;
      sum += f;
      if (f !== n) {
        dice[k++] = plain[f]!;
        continue;
      }
      dice[k++] = boom[f]!;
      for (let e = 0; e < depth; e++) {
        if (at === have) {
          have = N - i;
          drawDice(rng, n, buf, have);
          at = 0;
        }
        f = buf[at++]!;
        sum += f;
        const more = f === n && e + 1 < depth;
        dice[k++] = more ? boom[f]! : plain[f]!;
        if (!more) break;
      }
    }
    return label === null ? { notation, position, sides, dice, total: sum } : { notation, position, sides, dice, total: sum, label };
  };
}

/**
 * The roll of a one-term notation (`1d20+5`, `4d6kh3`): one closure literal per
 * kind of recorder, each calling its recorder directly, so every kind keeps
 * its own type feedback and V8 can inline the recorder.
 */
function oneTermRoll(src: string, p0: TermPlan, k: number, s0: number): (rng: Rng) => DiceRollResult {
  const n0 = p0.count;
  const fast = n0 > 1 ? fastTerm(p0) : null;
  if (fast !== null) {
    return (rng) => {
      const g = fast(rng);
      return { expression: src, total: k + s0 * g.total, dice: [g], comparison: null };
    };
  }
  switch (p0.kind) {
    case 0:
      if (n0 === 1 && p0.identity) {
        // `1d20+5`: one die counting as its face, in one closure (the table recorder is too large to inline).
        const rec = p0.recKept!;
        const [n, notation, position, sides, label] = [p0.n, p0.notation, p0.position, p0.sides, p0.label];
        if (label === null) {
          return (rng) => {
            const f = rng.die(n) | 0;
            const g: DiceGroupRoll = { notation, position, sides, dice: [rec[f]!], total: f };
            return { expression: src, total: k + s0 * f, dice: [g], comparison: null };
          };
        }
        return (rng) => {
          const f = rng.die(n) | 0;
          const g: DiceGroupRoll = { notation, position, sides, dice: [rec[f]!], total: f, label };
          return { expression: src, total: k + s0 * f, dice: [g], comparison: null };
        };
      }
      return (rng) => {
        const g = rollTable(p0, rng, n0);
        return { expression: src, total: k + s0 * g.total, dice: [g], comparison: null };
      };
    case 1:
      return (rng) => {
        const g = rollTableKeep(p0, rng, n0);
        return { expression: src, total: k + s0 * g.total, dice: [g], comparison: null };
      };
    case 2:
      return (rng) => {
        const g = rollExplodeSum(p0, rng, n0);
        return { expression: src, total: k + s0 * g.total, dice: [g], comparison: null };
      };
    default:
      return (rng) => {
        const g = rollGeneral(p0, rng, n0);
        return { expression: src, total: k + s0 * g.total, dice: [g], comparison: null };
      };
  }
}

export function compileAst(ast: Root, src: string, limits: DiceLimits, comment: string | null = null): CompiledDice {
  const c = new Compiler(src, limits);
  const constants = labelledConstants(ast);
  const withComment = (r: DiceRollResult): DiceRollResult => {
    if (comment !== null) r.comment = comment;
    if (constants.length > 0) r.constants = constants;
    return r;
  };
  if (ast.kind === 'compare') {
    const cmp: CompareNode = ast;
    const l = compileSide(c, cmp.left);
    const r = compileSide(c, cmp.right);
    const op = cmp.op;
    const groups = c.slots;
    const [tl, tr, rl, rr] = [l.tot, r.tot, sideRecord(l), sideRecord(r)];
    return {
      expression: src, ast, min: l.lo, max: l.hi, diceCount: c.diceCount, limits, comment,
      total: tl,
      test: (rng) => compare(op, tl(rng), tr(rng)),
      roll(rng) {
        const dice = groupList(groups);
        const total = rl(rng, dice);
        const target = rr(rng, dice);
        return withComment({ expression: src, total, dice, comparison: { op, target, success: compare(op, total, target) } });
      },
    };
  }
  const e = compileSide(c, ast);
  const t = e.tot;
  if (e.lin !== null && e.lin.plans.length === 1 && comment === null && constants.length === 0) {
    // The most common shape (`1d20+5`, `4d6kh3`): one term and a constant, no intermediate closure.
    const p0 = e.lin.plans[0]!;
    return {
      expression: src, ast, min: e.lo, max: e.hi, diceCount: c.diceCount, limits, comment,
      total: t,
      test: (rng) => t(rng) > 0,
      roll: oneTermRoll(src, p0, e.lin.constant, e.lin.signs[0]!),
    };
  }
  const groups = c.slots;
  const whole = ast.kind === 'group' ? c.groupRolls.get(ast) : undefined;
  if (whole !== undefined) {
    // A notation that is one group (`{3d6, 3d6}kh1`): its recorder fills the list directly.
    const plain = comment === null && constants.length === 0;
    return {
      expression: src, ast, min: e.lo, max: e.hi, diceCount: c.diceCount, limits, comment,
      total: t,
      test: (rng) => t(rng) > 0,
      roll(rng) {
        const dice = new Array<DiceGroupRoll>(groups);
        const total = whole(rng, dice);
        const r: DiceRollResult = { expression: src, total, dice, comparison: null };
        return plain ? r : withComment(r);
      },
    };
  }
  const r = sideRecord(e);
  return {
    expression: src, ast, min: e.lo, max: e.hi, diceCount: c.diceCount, limits, comment,
    total: t,
    test: (rng) => t(rng) > 0,
    roll(rng) {
      const dice = groupList(groups);
      const total = r(rng, dice);
      return withComment({ expression: src, total, dice, comparison: null });
    },
  };
}
