// Hand-written tokenizer and recursive-descent parser for dice notation.
//
//   root    := expr [ cmp expr ]                       (one comparison, top level only)
//   expr    := term { ('+' | '-') term }
//   term    := unary { ('*' | '/') unary }
//   unary   := ('-' | '+') unary | atom
//   atom    := INT [ dice ] | dice | '(' expr ')' | NAME '(' expr { ',' expr } ')'
//   dice    := 'd' (INT | '%') { '!' | '!!' | ('r' | 'ro') [cmp] INT | ('kh'|'kl'|'dh'|'dl'|'k') [INT] }
//   cmp     := '>=' | '<=' | '>' | '<' | '=' | '=='
//   NAME    := min | max | abs | floor | ceil | round

import type { BinaryNode, CompareOp, DiceNode, Expr, KeepMode, RerollRule, Root } from './ast.js';
import { DiceError } from './errors.js';
import type { DiceLimits } from './limits.js';

export type TokKind = 'int' | 'name' | 'op' | 'cmp' | 'eof';
export interface Token {
  readonly kind: TokKind;
  readonly text: string;
  readonly pos: number;
  readonly end: number;
}

const SINGLE_OPS = new Set(['+', '-', '*', '/', '(', ')', ',', '%', '!']);

/** Splits notation into tokens (numbers, lower-cased names, operators), each with its columns. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    const start = i;
    if (c >= 48 && c <= 57) {
      while (i < n && src.charCodeAt(i) >= 48 && src.charCodeAt(i) <= 57) i++;
      out.push({ kind: 'int', text: src.slice(start, i), pos: start, end: i });
      continue;
    }
    const lower = c | 0x20;
    if (lower >= 97 && lower <= 122) {
      while (i < n && ((src.charCodeAt(i) | 0x20) >= 97 && (src.charCodeAt(i) | 0x20) <= 122)) i++;
      out.push({ kind: 'name', text: src.slice(start, i).toLowerCase(), pos: start, end: i });
      continue;
    }
    const ch = src[i]!;
    const two = src.slice(i, i + 2);
    if (two === '>=' || two === '<=' || two === '==') {
      out.push({ kind: 'cmp', text: two === '==' ? '=' : two, pos: start, end: i + 2 });
      i += 2;
      continue;
    }
    if (ch === '>' || ch === '<' || ch === '=') {
      out.push({ kind: 'cmp', text: ch, pos: start, end: i + 1 });
      i++;
      continue;
    }
    if (two === '!!') {
      out.push({ kind: 'op', text: '!!', pos: start, end: i + 2 });
      i += 2;
      continue;
    }
    if (SINGLE_OPS.has(ch)) {
      out.push({ kind: 'op', text: ch, pos: start, end: i + 1 });
      i++;
      continue;
    }
    throw new DiceError('SYNTAX', `unexpected character ${JSON.stringify(ch)}`, start, src);
  }
  out.push({ kind: 'eof', text: '', pos: n, end: n });
  return out;
}

const FUNCTIONS = new Set(['min', 'max', 'abs', 'floor', 'ceil', 'round']);
/** Keywords of the named rolls (named-notation.ts); they stand alone, never inside arithmetic. */
export const NAMED_ROLL_NAMES: readonly string[] = ['duality', 'way', 'klepto', 'team', 'osr', 'luck'];
const KEEP_NAMES = new Set(['kh', 'kl', 'dh', 'dl', 'k']);

class Parser {
  private i = 0;
  private depth = 0;
  private readonly toks: Token[];

  constructor(
    private readonly src: string,
    private readonly limits: DiceLimits,
  ) {
    this.toks = tokenize(src);
  }

  private peek(): Token {
    return this.toks[this.i]!;
  }

  private next(): Token {
    return this.toks[this.i++]!;
  }

  private fail(message: string, pos: number): never {
    throw new DiceError('SYNTAX', message, pos, this.src);
  }

  private describe(t: Token): string {
    return t.kind === 'eof' ? 'the end of the expression' : JSON.stringify(t.text);
  }

  private expectOp(text: string): Token {
    const t = this.next();
    if (t.kind !== 'op' || t.text !== text) this.fail(`expected "${text}" but found ${this.describe(t)}`, t.pos);
    return t;
  }

  private int(what: string): { value: number; tok: Token } {
    const t = this.next();
    if (t.kind !== 'int') this.fail(`expected ${what} but found ${this.describe(t)}`, t.pos);
    const value = Number(t.text);
    if (!Number.isSafeInteger(value)) {
      throw new DiceError('LIMIT', `number ${t.text.slice(0, 20)} is larger than the largest safe integer (safeInteger)`, t.pos, this.src, 'safeInteger');
    }
    return { value, tok: t };
  }

  parseRoot(): Root {
    const left = this.expr();
    let root: Root = left;
    const t = this.peek();
    if (t.kind === 'cmp') {
      this.next();
      const right = this.expr();
      root = { kind: 'compare', op: t.text as CompareOp, opPos: t.pos, left, right, pos: left.pos, end: right.end };
    }
    const e = this.peek();
    if (e.kind === 'cmp') this.fail('only one comparison is allowed, at the top level', e.pos);
    if (e.kind !== 'eof') this.fail(`unexpected ${this.describe(e)}`, e.pos);
    return root;
  }

  private expr(): Expr {
    let left = this.term();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.text !== '+' && t.text !== '-')) return left;
      this.next();
      const right = this.term();
      left = { kind: 'binary', op: t.text, opPos: t.pos, left, right, rounding: 'floor', pos: left.pos, end: right.end };
    }
  }

  private term(): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.text !== '*' && t.text !== '/')) return left;
      this.next();
      const right = this.unary();
      left = { kind: 'binary', op: t.text, opPos: t.pos, left, right, rounding: 'floor', pos: left.pos, end: right.end };
    }
  }

  private nest(pos: number): void {
    if (++this.depth > this.limits.maxNesting) {
      throw new DiceError('LIMIT', `nesting deeper than maxNesting (${this.limits.maxNesting})`, pos, this.src, 'maxNesting');
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      this.next();
      this.nest(t.pos);
      const arg = this.unary();
      this.depth--;
      if (t.text === '+') return arg;
      return { kind: 'negate', arg, pos: t.pos, end: arg.end };
    }
    return this.atom();
  }

  private atom(): Expr {
    const t = this.peek();
    if (t.kind === 'int') {
      this.next();
      const value = Number(t.text);
      if (!Number.isSafeInteger(value)) {
        throw new DiceError('LIMIT', `number ${t.text.slice(0, 20)} is larger than the largest safe integer (safeInteger)`, t.pos, this.src, 'safeInteger');
      }
      const d = this.peek();
      if (d.kind === 'name' && d.text === 'd' && d.pos === t.end) return this.dice(value, t.pos);
      if (d.kind === 'name') this.fail(`unexpected ${this.describe(d)} after a number`, d.pos);
      return { kind: 'number', value, pos: t.pos, end: t.end };
    }
    if (t.kind === 'name') {
      if (t.text === 'd') return this.dice(1, t.pos);
      if (FUNCTIONS.has(t.text)) return this.call();
      if (NAMED_ROLL_NAMES.includes(t.text)) {
        this.fail(`${JSON.stringify(t.text)} is a named roll: it stands alone, at the start (e.g. "${t.text === 'team' ? 'team(d8, d6) +1 vs 12' : `${t.text}+2 vs 15`}"), not inside arithmetic`, t.pos);
      }
      if (t.text.startsWith('d')) this.fail(`expected sides after "d" but found ${JSON.stringify(t.text.slice(1))}`, t.pos + 1);
      this.fail(`unknown name ${JSON.stringify(t.text)} (functions: min, max, abs, floor, ceil, round)`, t.pos);
    }
    if (t.kind === 'op' && t.text === '(') {
      this.next();
      this.nest(t.pos);
      const inner = this.expr();
      this.depth--;
      const c = this.peek();
      if (c.kind === 'cmp') this.fail('comparisons are only allowed at the top level, not inside parentheses', c.pos);
      const close = this.expectOp(')');
      return { ...inner, pos: t.pos, end: close.end } as Expr;
    }
    this.fail(`expected a number, a die or "(" but found ${this.describe(t)}`, t.pos);
  }

  private call(): Expr {
    const name = this.next();
    this.expectOp('(');
    this.nest(name.pos);
    const args: Expr[] = [this.expr()];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && t.text === ',') {
        this.next();
        args.push(this.expr());
        continue;
      }
      if (t.kind === 'cmp') this.fail('comparisons are only allowed at the top level, not inside a function', t.pos);
      break;
    }
    const close = this.expectOp(')');
    this.depth--;
    const fn = name.text;
    if (fn === 'min' || fn === 'max') return { kind: 'call', fn, args, pos: name.pos, end: close.end };
    if (args.length !== 1) this.fail(`${fn}() takes exactly one argument`, name.pos);
    const arg = args[0]!;
    if (fn === 'abs') return { kind: 'call', fn, args, pos: name.pos, end: close.end };
    // floor / ceil / round choose how the division directly inside rounds; other
    // values are already whole numbers, so they pass through unchanged.
    if (arg.kind === 'binary' && arg.op === '/') {
      const div: BinaryNode = { ...arg, rounding: fn as 'floor' | 'ceil' | 'round', pos: name.pos, end: close.end };
      return div;
    }
    return { ...arg, pos: name.pos, end: close.end } as Expr;
  }

  private dice(count: number, pos: number): DiceNode {
    const d = this.next(); // the 'd'
    const s = this.peek();
    let sides: number;
    if (s.kind === 'op' && s.text === '%' && s.pos === d.end) {
      this.next();
      sides = 100;
    } else if (s.kind === 'int' && s.pos === d.end) {
      sides = this.int('the number of sides').value;
    } else {
      this.fail(`expected the number of sides right after "d" but found ${this.describe(s)}`, s.kind === 'eof' ? s.pos : d.end);
    }
    const sidesPos = s.pos;
    if (count < 1) throw new DiceError('UNSUPPORTED', 'roll at least one die', pos, this.src);
    if (sides < 1) throw new DiceError('UNSUPPORTED', 'a die needs at least one side', sidesPos, this.src);
    if (count > this.limits.maxDice) {
      throw new DiceError('LIMIT', `${count} dice is over maxDice (${this.limits.maxDice})`, pos, this.src, 'maxDice');
    }
    if (sides > this.limits.maxSides) {
      throw new DiceError('LIMIT', `d${sides} is over maxSides (${this.limits.maxSides})`, sidesPos, this.src, 'maxSides');
    }
    let explode = false;
    let reroll: RerollRule | null = null;
    let keep: DiceNode['keep'] = null;
    let end = this.toks[this.i - 1]!.end;
    for (;;) {
      const m = this.peek();
      if (m.kind === 'op' && (m.text === '!' || m.text === '!!')) {
        if (explode) this.fail('the dice already explode', m.pos);
        if (sides < 2) throw new DiceError('UNSUPPORTED', 'a one-sided die cannot explode (it would never stop)', m.pos, this.src);
        this.next();
        explode = true;
        end = m.end;
        continue;
      }
      if (m.kind === 'name' && (m.text === 'r' || m.text === 'ro')) {
        if (reroll) this.fail('the dice already have a reroll rule', m.pos);
        this.next();
        let op: CompareOp = '=';
        const c = this.peek();
        if (c.kind === 'cmp') {
          this.next();
          op = c.text as CompareOp;
        }
        const v = this.int('a face value to reroll');
        reroll = { op, value: v.value, once: m.text === 'ro' };
        let hits = 0;
        for (let f = 1; f <= Math.min(sides, 1_000_000); f++) if (rerollMatches(reroll, f)) hits++;
        if (hits === sides && !reroll.once) {
          throw new DiceError('UNSUPPORTED', `rerolling ${m.text}${op}${v.value} on a d${sides} would reroll every face forever`, m.pos, this.src);
        }
        end = v.tok.end;
        continue;
      }
      if (m.kind === 'name' && KEEP_NAMES.has(m.text)) {
        if (keep) this.fail('only one keep or drop per dice term', m.pos);
        this.next();
        const mode: KeepMode = m.text === 'k' ? 'kh' : (m.text as KeepMode);
        let n = 1;
        end = m.end;
        const c = this.peek();
        if (c.kind === 'int' && c.pos === m.end) {
          const v = this.int('a count');
          n = v.value;
          end = v.tok.end;
        }
        if (n > count) throw new DiceError('UNSUPPORTED', `cannot ${mode[0] === 'k' ? 'keep' : 'drop'} ${n} of ${count} dice`, m.pos, this.src);
        keep = { mode, count: n };
        continue;
      }
      if (m.kind === 'name') this.fail(`unknown dice modifier ${JSON.stringify(m.text)} (use !, r, ro, kh, kl, dh, dl)`, m.pos);
      break;
    }
    return { kind: 'dice', count, sides, explode, reroll, keep, pos, end, sidesPos };
  }
}

export function rerollMatches(rule: RerollRule, face: number): boolean {
  switch (rule.op) {
    case '>=': return face >= rule.value;
    case '<=': return face <= rule.value;
    case '>': return face > rule.value;
    case '<': return face < rule.value;
    case '=': return face === rule.value;
  }
}

/** Parses notation into a tree, checking the length and per-term limits. */
export function parse(src: string, limits: DiceLimits): Root {
  if (typeof src !== 'string') throw new DiceError('SYNTAX', 'the expression must be a string');
  if (src.length > limits.maxLength) {
    throw new DiceError('LIMIT', `the expression is ${src.length} characters, over maxLength (${limits.maxLength})`, limits.maxLength, src.slice(0, limits.maxLength + 1), 'maxLength');
  }
  if (src.trim() === '') throw new DiceError('SYNTAX', 'the expression is empty', 0, src);
  return new Parser(src, limits).parseRoot();
}
