// The notation's syntax tree. Every node carries the 0-based column range of
// the text it came from, so later errors (limits, division by zero) can point.

export type CompareOp = '>=' | '<=' | '>' | '<' | '=' | '!=';
export type KeepMode = 'kh' | 'kl' | 'dh' | 'dl';
/** How a rounding function rounds (kept for callers of the old API; `/` is real division). */
export type Rounding = 'floor' | 'ceil' | 'round';

interface Span {
  /** First column of the node's text. */
  readonly pos: number;
  /** Column just past the node's text. */
  readonly end: number;
}

/** A compare point: `>=8`, `=1`, `!=3`. */
export interface Cmp {
  readonly op: CompareOp;
  readonly value: number;
}

export interface NumberNode extends Span {
  readonly kind: 'number';
  readonly value: number;
  /** `+5 [STR]`: carried into the roll's `constants`. */
  readonly label?: string;
}

export interface RerollRule extends Cmp {
  /** `ro`: reroll at most once. */
  readonly once: boolean;
}

export interface ExplodeRule {
  /** `!!`: the chain adds up into one die; `!`: every extra roll is a die of its own. */
  readonly compound: boolean;
  /** `!p`: every extra roll counts one less. */
  readonly penetrate: boolean;
  /** Faces that roll again (default: the highest face). */
  readonly trigger: Cmp;
  /** Rolled sides (`d(1d6)!`): no trigger was written, so it is each side count's highest face. */
  readonly top?: true;
}

export interface TargetRule {
  /** A die matching this counts +1 (`>=8`). */
  readonly success: Cmp;
  /** A die matching this (and not the success) counts -1 (`f1`, `f<3`). */
  readonly failure: Cmp | null;
}

export interface DiceNode extends Span {
  readonly kind: 'dice';
  /** Number of dice (when `countExpr` is set: the most it can be). */
  readonly count: number;
  /** `(1d4)d6`: the count is rolled first. */
  readonly countExpr: Expr | null;
  /** Faces of one die: 1..sides, or for Fate dice the values of the `sides` faces (1 when `sidesExpr` is set). */
  readonly sides: number;
  /** `d(1d4)`: the sides are rolled (after the count, before the dice) and recorded. */
  readonly sidesExpr: Expr | null;
  /** 0: numbered faces; 2: `dF`/`dF.2` (-1, 0, +1 twice each); 1: `dF.1` (one -1, four 0, one +1). */
  readonly fate: 0 | 1 | 2;
  readonly explode: ExplodeRule | null;
  readonly reroll: RerollRule | null;
  readonly keep: { readonly mode: KeepMode; readonly count: number } | null;
  /** `min3` / `max5`: a first roll below / above counts as this. */
  readonly clampMin: number | null;
  readonly clampMax: number | null;
  /** `u` / `uo`: duplicates roll again (once); only values matching the trigger when one is given. */
  readonly unique: { readonly once: boolean; readonly trigger: Cmp | null } | null;
  /** Success counting (`>=8`, `>4f1`): the term's value is successes minus failures. */
  readonly target: TargetRule | null;
  /** Critical ranges, display only (`cs>=19`, `cf1`). */
  readonly critSuccess: Cmp | null;
  readonly critFailure: Cmp | null;
  /** Sort the recorded dice (display only). */
  readonly sort: 'asc' | 'desc' | null;
  /** `2d6 [fire]` */
  readonly label: string | null;
  /** Column of the sides, for pointing errors. */
  readonly sidesPos: number;
}

export interface NegateNode extends Span {
  readonly kind: 'negate';
  readonly arg: Expr;
}

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '^';

export interface BinaryNode extends Span {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  /** Column of the operator. */
  readonly opPos: number;
  readonly left: Expr;
  readonly right: Expr;
}

export type FnName = 'min' | 'max' | 'abs' | 'floor' | 'ceil' | 'round' | 'sqrt' | 'pow' | 'sign' | 'log' | 'exp' | 'sin' | 'cos' | 'tan';

export interface CallNode extends Span {
  readonly kind: 'call';
  readonly fn: FnName;
  readonly args: readonly Expr[];
}

/** `{3d6, 3d6}kh1`, `{4d6+2d8}kh1`: keep / drop and success counting over members (or, with one member, its dice). */
export interface GroupNode extends Span {
  readonly kind: 'group';
  readonly members: readonly Expr[];
  readonly keep: { readonly mode: KeepMode; readonly count: number } | null;
  readonly target: TargetRule | null;
  readonly sort: 'asc' | 'desc' | null;
  readonly label: string | null;
}

export type Expr = NumberNode | DiceNode | NegateNode | BinaryNode | CallNode | GroupNode;

export interface CompareNode extends Span {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly opPos: number;
  readonly left: Expr;
  readonly right: Expr;
  /** Written with `vs` (meet or beat), or with an operator after a non-dice left side. */
  readonly form: 'vs' | 'op';
}

/** A whole notation: an expression, or one total comparison at the top. */
export type Root = Expr | CompareNode;

export function compare(op: CompareOp, a: number, b: number): boolean {
  switch (op) {
    case '>=': return a >= b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '<': return a < b;
    case '=': return a === b;
    case '!=': return a !== b;
  }
}

export function matches(c: Cmp, v: number): boolean {
  return compare(c.op, v, c.value);
}

/** Integer division with a rounding, exact for safe integers (no float quotient). */
export function divide(a: number, b: number, rounding: Rounding): number {
  const r = a % b;
  let q = (a - r) / b; // truncated toward zero, exact
  if (r === 0) return q;
  const sameSign = r < 0 === b < 0;
  if (rounding === 'floor' || rounding === 'round') {
    if (!sameSign) q -= 1;
    if (rounding === 'floor') return q;
    // Halves go up (toward +infinity): compare the floor remainder with half the divisor.
    const rem = a - q * b;
    return 2 * Math.abs(rem) >= Math.abs(b) ? q + 1 : q;
  }
  return sameSign ? q + 1 : q;
}

/**
 * The final total of a notation: whole numbers as they are, anything else
 * rounded to two decimals (the way rpg-dice-roller and Roll20 show them).
 */
export function finalValue(x: number): number {
  if (Number.isInteger(x)) return x + 0;
  if (!Number.isFinite(x)) return x;
  return Number.parseFloat(x.toFixed(2)) + 0;
}

function cmpText(c: Cmp): string {
  return `${c.op}${c.value}`;
}

function keepText(k: { readonly mode: KeepMode; readonly count: number } | null): string {
  return k ? `${k.mode}${k.count}` : '';
}

function targetText(t: TargetRule | null): string {
  if (!t) return '';
  return cmpText(t.success) + (t.failure ? `f${cmpText(t.failure)}` : '');
}

/** Notation text for a node (canonical form). */
export function print(node: Root): string {
  switch (node.kind) {
    case 'number': return node.label === undefined ? String(node.value) : `${node.value} [${node.label}]`;
    case 'dice': {
      const count = node.countExpr ? `(${print(node.countExpr)})` : String(node.count);
      const sides = node.sidesExpr ? `(${print(node.sidesExpr)})` : node.fate === 0 ? node.sides : node.fate === 2 ? 'F' : 'F.1';
      let s = `${count}d${sides}`;
      if (node.clampMin !== null) s += `min${node.clampMin}`;
      if (node.clampMax !== null) s += `max${node.clampMax}`;
      if (node.explode) {
        // The default trigger (the highest face) is left out: `8d6!`.
        const t = node.explode.trigger;
        const top = node.fate ? 1 : node.sides;
        const implied = node.sidesExpr ? node.explode.top === true : t.op === '=' && t.value === top;
        s += `!${node.explode.compound ? '!' : ''}${node.explode.penetrate ? 'p' : ''}${implied ? '' : cmpText(t)}`;
      }
      if (node.reroll) s += `${node.reroll.once ? 'ro' : 'r'}${cmpText(node.reroll)}`;
      if (node.unique) s += `${node.unique.once ? 'uo' : 'u'}${node.unique.trigger ? cmpText(node.unique.trigger) : ''}`;
      s += keepText(node.keep) + targetText(node.target);
      if (node.critSuccess) s += `cs${cmpText(node.critSuccess)}`;
      if (node.critFailure) s += `cf${cmpText(node.critFailure)}`;
      if (node.sort) s += node.sort === 'asc' ? 'sa' : 'sd';
      if (node.label !== null) s += ` [${node.label}]`;
      return s;
    }
    case 'group': {
      let s = `{${node.members.map(print).join(', ')}}${keepText(node.keep)}${targetText(node.target)}`;
      if (node.sort) s += node.sort === 'asc' ? 'sa' : 'sd';
      if (node.label !== null) s += ` [${node.label}]`;
      return s;
    }
    case 'negate': return `-${wrap(node.arg)}`;
    case 'binary': return `${wrap(node.left)} ${node.op} ${wrap(node.right)}`;
    case 'call': return `${node.fn}(${node.args.map(print).join(', ')})`;
    case 'compare':
      if (node.form === 'vs') return `${print(node.left)} vs ${print(node.right)}`;
      // Parentheses keep it a total comparison (right after dice it would count successes).
      return `${node.left.kind === 'number' ? print(node.left) : `(${print(node.left)})`} ${node.op} ${print(node.right)}`;
  }
}

function wrap(node: Expr): string {
  return node.kind === 'binary' ? `(${print(node)})` : print(node);
}
