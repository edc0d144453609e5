// The notation's syntax tree. Every node carries the 0-based column range of
// the text it came from, so later errors (limits, division by zero) can point.

export type CompareOp = '>=' | '<=' | '>' | '<' | '=';
export type KeepMode = 'kh' | 'kl' | 'dh' | 'dl';
/** How `/` rounds: floor by default; ceil(...) and round(...) around a division change it. */
export type Rounding = 'floor' | 'ceil' | 'round';

interface Span {
  /** First column of the node's text. */
  readonly pos: number;
  /** Column just past the node's text. */
  readonly end: number;
}

export interface NumberNode extends Span {
  readonly kind: 'number';
  readonly value: number;
}

export interface RerollRule {
  readonly op: CompareOp;
  readonly value: number;
  /** `ro`: reroll at most once. */
  readonly once: boolean;
}

export interface DiceNode extends Span {
  readonly kind: 'dice';
  readonly count: number;
  readonly sides: number;
  /** Rolling the highest face rolls again and adds (the chain is one die). */
  readonly explode: boolean;
  readonly reroll: RerollRule | null;
  readonly keep: { readonly mode: KeepMode; readonly count: number } | null;
  /** Columns of the count, sides and modifiers, for pointing errors. */
  readonly sidesPos: number;
}

export interface NegateNode extends Span {
  readonly kind: 'negate';
  readonly arg: Expr;
}

export interface BinaryNode extends Span {
  readonly kind: 'binary';
  readonly op: '+' | '-' | '*' | '/';
  /** Column of the operator. */
  readonly opPos: number;
  readonly left: Expr;
  readonly right: Expr;
  readonly rounding: Rounding;
}

export interface CallNode extends Span {
  readonly kind: 'call';
  readonly fn: 'min' | 'max' | 'abs';
  readonly args: readonly Expr[];
}

export type Expr = NumberNode | DiceNode | NegateNode | BinaryNode | CallNode;

export interface CompareNode extends Span {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly opPos: number;
  readonly left: Expr;
  readonly right: Expr;
}

/** A whole notation: an expression, or one comparison at the top. */
export type Root = Expr | CompareNode;

export function compare(op: CompareOp, a: number, b: number): boolean {
  switch (op) {
    case '>=': return a >= b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '<': return a < b;
    case '=': return a === b;
  }
}

/** Integer division with the node's rounding, exact for safe integers (no float quotient). */
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

/** Notation text for a node (canonical form). */
export function print(node: Root): string {
  switch (node.kind) {
    case 'number': return String(node.value);
    case 'dice': {
      let s = `${node.count}d${node.sides}`;
      if (node.explode) s += '!';
      if (node.reroll) s += `${node.reroll.once ? 'ro' : 'r'}${node.reroll.op}${node.reroll.value}`;
      if (node.keep) s += `${node.keep.mode}${node.keep.count}`;
      return s;
    }
    case 'negate': return `-${wrap(node.arg)}`;
    case 'binary': {
      const s = `${wrap(node.left)} ${node.op} ${wrap(node.right)}`;
      if (node.op === '/' && node.rounding !== 'floor') return `${node.rounding}(${s})`;
      return s;
    }
    case 'call': return `${node.fn}(${node.args.map(print).join(', ')})`;
    case 'compare': return `${print(node.left)} ${node.op} ${print(node.right)}`;
  }
}

function wrap(node: Expr): string {
  return node.kind === 'binary' && !(node.op === '/' && node.rounding !== 'floor') ? `(${print(node)})` : print(node);
}
