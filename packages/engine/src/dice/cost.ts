// What a dice expression may cost the server, read from its syntax tree alone
// (nothing is compiled or rolled), so a server can charge it before the work.
// Every figure is an upper bound: each explosion, reroll and unique reroll is
// taken at its cap, and a rolled count or rolled sides at their largest.

import type { DiceNode, Expr, Root } from './ast.js';
import { MAX_ROLLED_SIDES } from './compile.js';
import { type DiceLimits, withLimits } from './limits.js';
import { isNamedRoll, parseNamedRoll } from './named-notation.js';
import { parseWithComment } from './parser.js';

export interface DiceCost {
  /** Dice thrown at most (first throws, explosion chains, rerolls and unique rerolls at their caps). */
  readonly draws: number;
  /** Die records the roll may store at most (an explosion adds records; a reroll only lengthens one's trail). */
  readonly records: number;
  /** Dice terms and groups: one group record each. */
  readonly groups: number;
  /** Roller plans a rolled-sides term builds, one per side count it can give (at compile time). */
  readonly plans: number;
  /** Face values listed by all the plans, summed (at compile time). */
  readonly faces: number;
  /** Faces of plain terms small enough to get a record per face (at compile time). */
  readonly tableFaces: number;
  /** The whole, in budget units of about a millisecond of server work (at least 1). */
  readonly units: number;
}

/**
 * Weights of a unit, measured with TABLE_ROLL_LIMITS on a 2-core EPYC
 * (`npm run bench -- dice-cost` prints the time of a whole `dice.roll`,
 * compile cache emptied, against these units): a face with its own records
 * takes over a microsecond to build, a bare face value 20-100 ns, a plan
 * about 10 us, and a stored die record (event, log, deltas) about 10 us,
 * far more than drawing it.
 */
export const DICE_COST_WEIGHTS = Object.freeze({ draws: 1 / 2000, records: 1 / 100, groups: 1 / 200, plans: 1 / 100, faces: 1 / 10_000, tableFaces: 1 / 700 });

/** Sides up to which the compiler builds a record per face (compile.ts, isTableTerm). */
const TABLE_SIDES = 1024;

interface Tally {
  draws: number;
  records: number;
  groups: number;
  plans: number;
  faces: number;
  tableFaces: number;
}

/** A value range; null when the notation gives no finite bound (then the caps are charged). */
type Range = { lo: number; hi: number } | null;

/**
 * The cost of notation as a roll would read it: a named roll (`duality+2 adv`)
 * or plain notation (a trailing `# comment` allowed). Bad notation throws the
 * parser's DiceError, as rolling it would.
 */
export function notationCost(expression: string, limits?: Partial<DiceLimits>): DiceCost {
  const l = withLimits(limits);
  const text = expression.trim();
  if (isNamedRoll(text)) {
    // A named roll throws its system's two or three dice plus one per advantage die.
    const spec = parseNamedRoll(text, l);
    const draws = 3 + Math.abs(spec.advantage);
    return { draws, records: draws, groups: 1, plans: 0, faces: 0, tableFaces: 0, units: 1 };
  }
  return diceCost(parseWithComment(text, l).root, l);
}

/** The cost of a parsed notation under the limits it was parsed with. */
export function diceCost(root: Root, limits: DiceLimits): DiceCost {
  const t: Tally = { draws: 0, records: 0, groups: 0, plans: 0, faces: 0, tableFaces: 0 };
  if (root.kind === 'compare') {
    walk(root.left, limits, t);
    walk(root.right, limits, t);
  } else walk(root, limits, t);
  return { ...t, units: costUnits(t) };
}

/** Budget units for a tally of work (at least 1). */
export function costUnits(t: Omit<DiceCost, 'units'>): number {
  const w = DICE_COST_WEIGHTS;
  const work = t.draws * w.draws + t.records * w.records + t.groups * w.groups + t.plans * w.plans + t.faces * w.faces + t.tableFaces * w.tableFaces;
  return Math.max(1, Math.ceil(work));
}

/** Records one die may leave, and the draws it may take, with every chain at its cap. */
function perDie(node: DiceNode, limits: DiceLimits): { draws: number; records: number } {
  const chain = node.explode ? 1 + limits.maxExplodeDepth : 1;
  const records = node.explode?.compound ? 1 : chain;
  // The roller gives up after the cap and draws once more from the allowed faces.
  const again = limits.maxExplodeDepth + 1;
  const reroll = node.reroll ? (node.reroll.once ? 1 : again) : 0;
  const unique = node.unique ? (node.unique.once ? 1 : again) : 0;
  return { draws: chain + records * (reroll + unique), records };
}

function walk(e: Expr, limits: DiceLimits, t: Tally): void {
  switch (e.kind) {
    case 'number':
      return;
    case 'negate':
      return walk(e.arg, limits, t);
    case 'binary':
      walk(e.left, limits, t);
      return walk(e.right, limits, t);
    case 'call':
      for (const a of e.args) walk(a, limits, t);
      return;
    case 'group': {
      t.groups++;
      const before = t.records;
      for (const m of e.members) walk(m, limits, t);
      // A group lists each member as one entry, or a lone member's dice one by one (keep / drop over its dice).
      t.records += e.members.length + (e.members.length === 1 ? t.records - before : 0);
      return;
    }
    case 'dice': {
      t.groups++;
      if (e.countExpr) walk(e.countExpr, limits, t);
      const die = perDie(e, limits);
      const count = diceCount(e, limits);
      t.draws += count * die.draws;
      t.records += count * die.records;
      if (e.sidesExpr === null) {
        tabulate(e, e.fate === 0 ? e.sides : 6, t);
        return;
      }
      walk(e.sidesExpr, limits, t);
      // One plan per side count from the lowest to the highest the sides can roll (the compiler refuses more than MAX_ROLLED_SIDES).
      const r = valueRange(e.sidesExpr, limits);
      const lo = Math.max(1, r === null ? 1 : Math.ceil(r.lo));
      const hi = Math.min(limits.maxSides, r === null ? limits.maxSides : Math.floor(r.hi));
      // Plans from the top down: the widest ones are the ones built.
      for (let s = hi, n = 0; s >= lo && n < MAX_ROLLED_SIDES; s--, n++) {
        t.plans++;
        tabulate(e, s, t);
      }
      return;
    }
  }
}

/** The most dice a term throws: its count, or the top of its rolled count (the compiler refuses more than maxDice). */
function diceCount(e: DiceNode, limits: DiceLimits): number {
  if (e.countExpr === null) return e.count;
  const r = valueRange(e.countExpr, limits);
  return r === null ? limits.maxDice : Math.max(0, Math.min(limits.maxDice, Math.floor(r.hi)));
}

/**
 * The faces a term's plan lists: a plain term of up to 1024 sides gets a
 * frozen record per face (kept and dropped), far dearer than a face value.
 */
function tabulate(e: DiceNode, sides: number, t: Tally): void {
  if (!e.explode && !e.reroll && !e.unique && !e.countExpr && sides <= TABLE_SIDES) t.tableFaces += sides;
  else if (explodeSum(e) && sides <= TABLE_SIDES) t.tableFaces += 2 * sides;
  else t.faces += sides;
}

/** Explosions summed with nothing else changing the dice: four shared records per face (compile.ts, explodeRecords). */
function explodeSum(e: DiceNode): boolean {
  return e.explode !== null && !e.reroll && !e.unique && !e.keep && !e.target && e.clampMin === null && e.clampMax === null
    && !e.critSuccess && !e.critFailure && !e.sort && !e.countExpr;
}

const both = (a: Range, b: Range, f: (x: { lo: number; hi: number }, y: { lo: number; hi: number }) => Range): Range => (a === null || b === null ? null : f(a, b));

function corners(a: { lo: number; hi: number }, b: { lo: number; hi: number }, f: (x: number, y: number) => number): Range {
  const v = [f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)];
  return finite({ lo: Math.min(...v), hi: Math.max(...v) });
}

function finite(r: { lo: number; hi: number }): Range {
  return Number.isFinite(r.lo) && Number.isFinite(r.hi) ? r : null;
}

/**
 * Bounds that contain every value the expression can take (wider is fine:
 * it only charges more). Operators whose bound is not worth deriving
 * (powers, logarithms, tangents) answer null.
 */
export function valueRange(e: Expr, limits: DiceLimits): Range {
  switch (e.kind) {
    case 'number':
      return { lo: e.value, hi: e.value };
    case 'negate': {
      const a = valueRange(e.arg, limits);
      return a === null ? null : { lo: -a.hi, hi: -a.lo };
    }
    case 'binary': {
      const a = valueRange(e.left, limits);
      const b = valueRange(e.right, limits);
      switch (e.op) {
        case '+': return both(a, b, (x, y) => finite({ lo: x.lo + y.lo, hi: x.hi + y.hi }));
        case '-': return both(a, b, (x, y) => finite({ lo: x.lo - y.hi, hi: x.hi - y.lo }));
        case '*': return both(a, b, (x, y) => corners(x, y, (p, q) => p * q));
        // Division is bounded only when the divisor keeps one sign.
        case '/': return both(a, b, (x, y) => (y.lo > 0 || y.hi < 0 ? corners(x, y, (p, q) => p / q) : null));
        case '%': return both(a, b, (_x, y) => {
          const m = Math.max(Math.abs(y.lo), Math.abs(y.hi));
          return { lo: -m, hi: m };
        });
        // Powers of a base that cannot be negative are monotone in each argument.
        case '^': return both(a, b, (x, y) => (x.lo >= 0 ? corners(x, y, (p, q) => p ** q) : null));
      }
      return null;
    }
    case 'call': {
      const args = e.args.map((a) => valueRange(a, limits));
      const a = args[0] ?? null;
      switch (e.fn) {
        case 'min':
        case 'max': {
          if (args.some((x) => x === null) || args.length === 0) return null;
          const rs = args as { lo: number; hi: number }[];
          const pick = e.fn === 'min' ? Math.min : Math.max;
          return { lo: pick(...rs.map((r) => r.lo)), hi: pick(...rs.map((r) => r.hi)) };
        }
        case 'abs': return a === null ? null : { lo: a.lo <= 0 && a.hi >= 0 ? 0 : Math.min(Math.abs(a.lo), Math.abs(a.hi)), hi: Math.max(Math.abs(a.lo), Math.abs(a.hi)) };
        case 'floor':
        case 'ceil':
        case 'round': return a === null ? null : { lo: Math.floor(a.lo), hi: Math.ceil(a.hi) };
        case 'pow': {
          const b = args[1] ?? null;
          return both(a, b, (x, y) => (x.lo >= 0 ? corners(x, y, (p, q) => p ** q) : null));
        }
        case 'sqrt': return a === null ? null : { lo: 0, hi: Math.sqrt(Math.max(0, a.hi)) };
        case 'sign':
        case 'sin':
        case 'cos': return { lo: -1, hi: 1 };
        default: return null;
      }
    }
    case 'group': {
      let lo = 0;
      let hi = 0;
      let count = 0;
      for (const m of e.members) {
        const r = valueRange(m, limits);
        if (r === null) return null;
        lo += Math.min(0, r.lo);
        hi += Math.max(0, r.hi);
        count += recordsIn(m, limits) + 1;
      }
      // Success counting over a group counts members or their dice, each +1 or -1.
      if (e.target) return { lo: -count, hi: count };
      return { lo, hi };
    }
    case 'dice': {
      let faceHi: number;
      let faceLo: number;
      if (e.fate !== 0) [faceLo, faceHi] = [-1, 1];
      else if (e.sidesExpr) {
        const s = valueRange(e.sidesExpr, limits);
        [faceLo, faceHi] = [1, s === null ? limits.maxSides : Math.min(limits.maxSides, Math.max(1, Math.floor(s.hi)))];
      } else [faceLo, faceHi] = [1, e.sides];
      const pen = e.explode?.penetrate ? 1 : 0;
      const depth = e.explode ? limits.maxExplodeDepth : 0;
      // One record's extremes: a die, or with `!!` a whole chain summed.
      const [dieLo, dieHi] = e.explode?.compound ? [faceLo + depth * Math.min(0, faceLo - pen), faceHi * (1 + depth)] : [faceLo - pen, faceHi];
      const records = diceCount(e, limits) * perDie(e, limits).records;
      if (e.target) return { lo: -records, hi: records };
      return { lo: Math.min(0, records * dieLo), hi: Math.max(0, records * dieHi) };
    }
  }
}

function recordsIn(e: Expr, limits: DiceLimits): number {
  const t: Tally = { draws: 0, records: 0, groups: 0, plans: 0, faces: 0, tableFaces: 0 };
  walk(e, limits, t);
  return t.records;
}
