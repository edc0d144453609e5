// Hand-written tokenizer and recursive-descent parser for dice notation
// (grammar in docs/dice.md). The common meaning of Roll20 / Foundry /
// rpg-dice-roller wins: a comparison right after a dice term counts
// successes; a total comparison is `vs` (ADR 0009).

import type {
  BinaryNode,
  Cmp,
  CompareOp,
  DiceNode,
  ExplodeRule,
  Expr,
  FnName,
  GroupNode,
  KeepMode,
  RerollRule,
  Root,
  TargetRule,
} from './ast.js';
import { compare } from './ast.js';
import { DiceError } from './errors.js';
import type { DiceLimits } from './limits.js';

export type TokKind = 'num' | 'name' | 'op' | 'cmp' | 'label' | 'comment' | 'eof';
export interface Token {
  readonly kind: TokKind;
  readonly text: string;
  readonly pos: number;
  readonly end: number;
}

const SINGLE_OPS = new Set(['+', '-', '*', '/', '(', ')', ',', '%', '!', '^', '{', '}', '.']);

/** Most characters a label or comment may have. */
export const MAX_LABEL = 200;

function unsupported(what: string, pos: number, src: string): never {
  throw new DiceError('UNSUPPORTED', `${what} is not supported (see docs/dice.md)`, pos, src);
}

/** Splits notation into tokens (numbers, lower-cased names, operators, labels), each with its columns. */
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
      // A decimal part only when a digit follows the point (`dF.2` keeps its point).
      if (src[i] === '.' && i + 1 < n && src.charCodeAt(i + 1) >= 48 && src.charCodeAt(i + 1) <= 57) {
        i++;
        while (i < n && src.charCodeAt(i) >= 48 && src.charCodeAt(i) <= 57) i++;
      }
      out.push({ kind: 'num', text: src.slice(start, i), pos: start, end: i });
      continue;
    }
    const lower = c | 0x20;
    if (lower >= 97 && lower <= 122) {
      while (i < n && ((src.charCodeAt(i) | 0x20) >= 97 && (src.charCodeAt(i) | 0x20) <= 122)) i++;
      out.push({ kind: 'name', text: src.slice(start, i).toLowerCase(), pos: start, end: i });
      continue;
    }
    const ch = src[i]!;
    if (ch === '[') {
      const close = src.indexOf(']', i + 1);
      if (close < 0) throw new DiceError('SYNTAX', 'a label opened with "[" needs its "]"', start, src);
      if (close - i - 1 > MAX_LABEL) throw new DiceError('LIMIT', `a label is longer than ${MAX_LABEL} characters (maxLabel)`, start, src, 'maxLabel');
      out.push({ kind: 'label', text: src.slice(i + 1, close).trim(), pos: start, end: close + 1 });
      i = close + 1;
      continue;
    }
    if (ch === '#') {
      const text = src.slice(i + 1).trim();
      if (text.length > MAX_LABEL) throw new DiceError('LIMIT', `a comment is longer than ${MAX_LABEL} characters (maxLabel)`, start, src, 'maxLabel');
      out.push({ kind: 'comment', text, pos: start, end: n });
      i = n;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '>=' || two === '<=' || two === '==' || two === '<>') {
      out.push({ kind: 'cmp', text: two === '==' ? '=' : two === '<>' ? '!=' : two, pos: start, end: i + 2 });
      i += 2;
      continue;
    }
    if (ch === '>' || ch === '<' || ch === '=') {
      out.push({ kind: 'cmp', text: ch, pos: start, end: i + 1 });
      i++;
      continue;
    }
    if (two === '!!' || two === '**') {
      out.push({ kind: 'op', text: two === '**' ? '^' : '!!', pos: start, end: i + 2 });
      i += 2;
      continue;
    }
    if (SINGLE_OPS.has(ch)) {
      out.push({ kind: 'op', text: ch, pos: start, end: i + 1 });
      i++;
      continue;
    }
    if (ch === '@' || ch === '&' || ch === '?') {
      unsupported(`${ch === '@' ? 'attribute references (@)' : ch === '&' ? 'roll templates (&)' : 'roll queries (?{...})'}`, start, src);
    }
    throw new DiceError('SYNTAX', `${JSON.stringify(ch)} is not part of dice notation`, start, src);
  }
  out.push({ kind: 'eof', text: '', pos: n, end: n });
  return out;
}

const FUNCTIONS = new Set<string>(['min', 'max', 'abs', 'floor', 'ceil', 'round', 'sqrt', 'pow', 'sign', 'log', 'exp', 'sin', 'cos', 'tan']);
const ARITY: Record<FnName, [number, number]> = {
  min: [1, 100], max: [1, 100], abs: [1, 1], floor: [1, 1], ceil: [1, 1], round: [1, 1], sqrt: [1, 1],
  pow: [2, 2], sign: [1, 1], log: [1, 1], exp: [1, 1], sin: [1, 1], cos: [1, 1], tan: [1, 1],
};
/** Keywords of the named rolls (named-notation.ts); they stand alone, never inside arithmetic. */
export const NAMED_ROLL_NAMES: readonly string[] = ['duality', 'way', 'klepto', 'team', 'osr', 'luck'];

/** Modifier words after a dice term, longest first (a run of letters may hold several: `4d6rkh3`). */
const DICE_WORDS = ['min', 'max', 'kh', 'kl', 'dh', 'dl', 'ro', 'rr', 'uo', 'cs', 'cf', 'sa', 'sd', 'k', 'd', 'r', 'u', 's', 'f', 'p', 'x'];
/** Words other dialects use that we refuse by name (the feature, not "unexpected"). */
const UNSUPPORTED_WORDS: Record<string, string> = {
  xo: 'Foundry\'s explode once (xo)',
  mt: 'Roll20\'s match counting (mt)',
  m: 'Roll20\'s matches (m)',
  ms: 'margin of success (ms)',
  sf: 'Foundry\'s subtract failures (sf)',
  df: 'Foundry\'s deduct failures (df)',
  even: 'Foundry\'s even counting (even)',
  odd: 'Foundry\'s odd counting (odd)',
  t: 'rollable tables (t[...])',
};

interface Keep { readonly mode: KeepMode; readonly count: number }

class Parser {
  private i = 0;
  private depth = 0;
  private readonly toks: Token[];
  comment: string | null = null;

  constructor(
    private readonly src: string,
    private readonly limits: DiceLimits,
  ) {
    this.toks = tokenize(src);
    const last = this.toks[this.toks.length - 2];
    if (last?.kind === 'comment') {
      this.comment = last.text;
      this.toks.splice(this.toks.length - 2, 1);
    }
  }

  private peek(k = 0): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }

  private next(): Token {
    return this.toks[this.i++]!;
  }

  private fail(message: string, pos: number): never {
    throw new DiceError('SYNTAX', message, pos, this.src);
  }

  private describe(t: Token): string {
    return t.kind === 'eof' ? 'the end of the expression' : JSON.stringify(t.kind === 'label' ? `[${t.text}]` : t.text);
  }

  private expectOp(text: string): Token {
    const t = this.next();
    if (t.kind !== 'op' || t.text !== text) this.fail(`expected "${text}" but found ${this.describe(t)}`, t.pos);
    return t;
  }

  private numberOf(t: Token): number {
    const value = Number(t.text);
    if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
      throw new DiceError('LIMIT', `number ${t.text.slice(0, 20)} is larger than the largest safe integer (safeInteger)`, t.pos, this.src, 'safeInteger');
    }
    return value;
  }

  /** A number after a modifier, optionally signed (`min-1`, `>=-1` on Fate dice). */
  private signed(what: string): { value: number; end: number } {
    let sign = 1;
    let t = this.peek();
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      this.next();
      sign = t.text === '-' ? -1 : 1;
      t = this.peek();
    }
    if (t.kind !== 'num') this.fail(`expected ${what} but found ${this.describe(t)}`, t.pos);
    this.next();
    return { value: sign * this.numberOf(t) + 0, end: t.end };
  }

  private cmpOp(): { op: CompareOp; pos: number } | null {
    const t = this.peek();
    if (t.kind === 'cmp') {
      this.next();
      return { op: t.text as CompareOp, pos: t.pos };
    }
    // `!=` arrives as "!" then "=" (the tokenizer cannot tell it from an explosion on "=").
    if (t.kind === 'op' && t.text === '!') {
      const e = this.peek(1);
      if (e.kind === 'cmp' && e.text === '=' && e.pos === t.end) {
        this.next();
        this.next();
        return { op: '!=', pos: t.pos };
      }
    }
    return null;
  }

  /** A compare point: `op number`, or a bare number meaning `=number`. */
  private comparePoint(what: string, optional: boolean): Cmp | null {
    const c = this.cmpOp();
    if (c) return { op: c.op, value: this.signed(`a number after "${c.op}"`).value };
    const t = this.peek();
    if (t.kind === 'num') return { op: '=', value: this.signed(what).value };
    if (optional) return null;
    this.fail(`expected ${what} but found ${this.describe(t)}`, t.pos);
  }

  parseRoot(): { root: Root; comment: string | null } {
    const left = this.expr();
    let root: Root = left;
    const t = this.peek();
    if (t.kind === 'name' && t.text === 'vs') {
      this.next();
      const right = this.expr();
      root = { kind: 'compare', op: '>=', opPos: t.pos, left, right, pos: left.pos, end: right.end, form: 'vs' };
    } else if (t.kind === 'cmp' || (t.kind === 'op' && t.text === '!' && this.peek(1).kind === 'cmp')) {
      // A comparison after a number or ")" (not after dice): the total, as before (ADR 0009).
      const c = this.cmpOp();
      if (!c) this.fail(`unexpected ${this.describe(t)}`, t.pos);
      const right = this.expr();
      root = { kind: 'compare', op: c.op, opPos: c.pos, left, right, pos: left.pos, end: right.end, form: 'op' };
    }
    const e = this.peek();
    if (e.kind === 'cmp' || (e.kind === 'name' && e.text === 'vs')) this.fail('only one total comparison is allowed, at the top level', e.pos);
    if (e.kind === 'label') this.fail('a label belongs right after a dice term, a group or a number', e.pos);
    if (e.kind !== 'eof') this.fail(`unexpected ${this.describe(e)}`, e.pos);
    return { root, comment: this.comment };
  }

  private expr(): Expr {
    let left = this.term();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.text !== '+' && t.text !== '-')) return left;
      this.next();
      const right = this.term();
      left = { kind: 'binary', op: t.text, opPos: t.pos, left, right, pos: left.pos, end: right.end };
    }
  }

  private term(): Expr {
    let left = this.power();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.text !== '*' && t.text !== '/' && t.text !== '%')) return left;
      this.next();
      const right = this.power();
      left = { kind: 'binary', op: t.text, opPos: t.pos, left, right, pos: left.pos, end: right.end } as BinaryNode;
    }
  }

  /** `^` binds tighter than `*` and groups to the right (2^3^2 = 2^9). */
  private power(): Expr {
    const base = this.unary();
    const t = this.peek();
    if (t.kind !== 'op' || t.text !== '^') return base;
    this.next();
    this.nest(t.pos);
    const exp = this.power();
    this.depth--;
    return { kind: 'binary', op: '^', opPos: t.pos, left: base, right: exp, pos: base.pos, end: exp.end };
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

  /** A label right after a term (`2d6 [fire]`, `5[STR]`). */
  private label(): string | null {
    const t = this.peek();
    if (t.kind !== 'label') return null;
    this.next();
    return t.text;
  }

  private atom(): Expr {
    const t = this.peek();
    if (t.kind === 'num') {
      this.next();
      const value = this.numberOf(t);
      const d = this.peek();
      if (d.kind === 'name' && d.text.startsWith('d') && d.pos === t.end) {
        if (!Number.isInteger(value)) this.fail(`a dice count must be a whole number, not ${t.text}`, t.pos);
        return this.dice(value, null, t.pos);
      }
      if (d.kind === 'name' && d.pos === t.end) this.fail(`unexpected ${this.describe(d)} after a number`, d.pos);
      const lab = this.label();
      if (lab === null) return { kind: 'number', value, pos: t.pos, end: t.end };
      return { kind: 'number', value, label: lab, pos: t.pos, end: this.toks[this.i - 1]!.end };
    }
    if (t.kind === 'name') {
      if (t.text.startsWith('d') && (t.text === 'd' || t.text === 'df')) return this.dice(1, null, t.pos);
      if (FUNCTIONS.has(t.text)) return this.call();
      if (NAMED_ROLL_NAMES.includes(t.text)) {
        this.fail(`${JSON.stringify(t.text)} is a named roll: it stands alone, at the start (e.g. "${t.text === 'team' ? 'team(d8, d6) +1 vs 12' : `${t.text}+2 vs 15`}"), not inside arithmetic`, t.pos);
      }
      if (t.text.startsWith('d')) this.fail(`expected sides after "d" but found ${JSON.stringify(t.text.slice(1))}`, t.pos + 1);
      if (t.text in UNSUPPORTED_WORDS) unsupported(UNSUPPORTED_WORDS[t.text]!, t.pos, this.src);
      this.fail(`unknown name ${JSON.stringify(t.text)} (functions: ${[...FUNCTIONS].join(', ')})`, t.pos);
    }
    if (t.kind === 'op' && t.text === '(') {
      this.next();
      this.nest(t.pos);
      const inner = this.expr();
      this.depth--;
      const c = this.peek();
      if (c.kind === 'cmp' || (c.kind === 'name' && c.text === 'vs')) this.fail('a total comparison is only allowed at the top level, not inside parentheses', c.pos);
      const close = this.expectOp(')');
      const d = this.peek();
      if (d.kind === 'name' && d.text.startsWith('d') && d.pos === close.end) return this.dice(0, inner, t.pos);
      return { ...inner, pos: t.pos, end: close.end } as Expr;
    }
    if (t.kind === 'op' && t.text === '{') return this.group();
    if (t.kind === 'label') this.fail('a label belongs right after a dice term, a group or a number', t.pos);
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
      if (t.kind === 'cmp') this.fail('a total comparison is only allowed at the top level, not inside a function', t.pos);
      break;
    }
    const close = this.expectOp(')');
    this.depth--;
    const fn = name.text as FnName;
    const [lo, hi] = ARITY[fn];
    if (args.length < lo || args.length > hi) this.fail(`${fn}() takes ${lo === hi ? `exactly ${lo}` : `${lo} to ${hi}`} argument${hi === 1 ? '' : 's'}`, name.pos);
    return { kind: 'call', fn, args, pos: name.pos, end: close.end };
  }

  private group(): GroupNode {
    const open = this.next();
    this.nest(open.pos);
    const members: Expr[] = [this.expr()];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && t.text === ',') {
        this.next();
        members.push(this.expr());
        continue;
      }
      break;
    }
    const close = this.expectOp('}');
    this.depth--;
    let keep: Keep | null = null;
    let target: TargetRule | null = null;
    let sort: GroupNode['sort'] = null;
    let end = close.end;
    for (;;) {
      const m = this.peek();
      const c = m.kind === 'cmp' ? m : null;
      if (c) {
        if (target) this.fail('a group counts successes once', c.pos);
        target = this.target(c.pos);
        end = this.toks[this.i - 1]!.end;
        continue;
      }
      if (m.kind !== 'name' || m.pos !== end) break;
      const word = this.word(m);
      if (word === 'kh' || word === 'kl' || word === 'dh' || word === 'dl' || word === 'k' || word === 'd') {
        if (keep) this.fail('only one keep or drop per group', m.pos);
        keep = this.keep(word, members.length === 1 ? Infinity : members.length, m);
      } else if (word === 's' || word === 'sa' || word === 'sd') {
        this.next();
        sort = word === 'sd' ? 'desc' : 'asc';
      } else if (word === 'f') {
        this.fail('a failure (f) needs a success comparison before it', m.pos);
      } else {
        unsupported(`the ${JSON.stringify(word)} modifier on a group`, m.pos, this.src);
      }
      end = this.toks[this.i - 1]!.end;
    }
    const label = this.label();
    if (label !== null) end = this.toks[this.i - 1]!.end;
    return { kind: 'group', members, keep, target, sort, label, pos: open.pos, end };
  }

  /**
   * The modifier word at the current name token. A run of letters can hold
   * several (`4d6rkh3`): the known word at its start is split off in place.
   */
  private word(m: Token): string {
    if (DICE_WORDS.includes(m.text) || m.text in UNSUPPORTED_WORDS) return m.text;
    const w = DICE_WORDS.find((x) => m.text.startsWith(x));
    if (w === undefined) return m.text;
    const rest: Token = { kind: 'name', text: m.text.slice(w.length), pos: m.pos + w.length, end: m.end };
    this.toks.splice(this.i, 1, { kind: 'name', text: w, pos: m.pos, end: m.pos + w.length }, rest);
    return w;
  }

  private keep(word: string, of: number, m: Token): Keep {
    this.next();
    const mode: KeepMode = word === 'k' ? 'kh' : word === 'd' ? 'dl' : (word as KeepMode);
    let n = 1;
    const c = this.peek();
    if (c.kind === 'num' && c.pos === m.end) {
      this.next();
      n = this.numberOf(c);
      if (!Number.isInteger(n)) this.fail('a keep or drop count must be a whole number', c.pos);
    }
    if (n > of) throw new DiceError('UNSUPPORTED', `cannot ${mode[0] === 'k' ? 'keep' : 'drop'} ${n} of ${of}`, m.pos, this.src);
    return { mode, count: n };
  }

  private target(pos: number): TargetRule {
    const success = this.comparePoint('a number to count successes against', false)!;
    let failure: Cmp | null = null;
    const f = this.peek();
    if (f.kind === 'name' && (f.text === 'f' || f.text.startsWith('f'))) {
      const w = this.word(f);
      if (w !== 'f') this.fail(`unknown modifier ${JSON.stringify(w)}`, f.pos);
      this.next();
      failure = this.comparePoint('a number to count failures against (f1, f<3)', false);
    }
    if (failure && failure.op === success.op && failure.value === success.value) this.fail('successes and failures cannot be the same faces', pos);
    return { success, failure };
  }

  /** A dice term from its `d` on: sides, then modifiers in any order. */
  private dice(count: number, countExpr: Expr | null, pos: number): DiceNode {
    const d = this.next(); // the 'd' (or 'df', or 'd' + more letters)
    let sides = 0;
    let sidesExpr: Expr | null = null;
    let fate: 0 | 1 | 2 = 0;
    let sidesPos = d.end;
    if (d.text === 'df' || d.text.startsWith('df')) {
      if (d.text !== 'df') {
        // `4dFcs=1`: the letters after F are modifiers; the 'dF' token ends at the F so they count as adjacent.
        this.toks.splice(this.i, 0, { kind: 'name', text: d.text.slice(2), pos: d.pos + 2, end: d.end });
        this.toks[this.i - 1] = { ...d, text: 'df', end: d.pos + 2 };
      }
      fate = 2;
      sides = 3;
      const dot = this.peek();
      if (dot.kind === 'op' && dot.text === '.' && dot.pos === d.pos + 2) {
        this.next();
        const v = this.peek();
        if (v.kind !== 'num' || (v.text !== '1' && v.text !== '2')) this.fail('Fate dice are dF.1 or dF.2', v.pos);
        this.next();
        if (v.text === '1') [fate, sides] = [1, 6];
      }
    } else if (d.text !== 'd') {
      // `d%`-less letters right after d: the sides are missing (`dx`), or a word we name.
      this.fail(`expected the number of sides right after "d" but found ${JSON.stringify(d.text.slice(1))}`, d.pos + 1);
    } else {
      const s = this.peek();
      sidesPos = s.pos;
      if (s.kind === 'op' && s.text === '%' && s.pos === d.end) {
        this.next();
        sides = 100;
      } else if (s.kind === 'num' && s.pos === d.end) {
        this.next();
        sides = this.numberOf(s);
        if (!Number.isInteger(sides)) this.fail(`a die needs a whole number of sides, not ${s.text}`, s.pos);
      } else if (s.kind === 'op' && s.text === '(' && s.pos === d.end) {
        // `d(1d4)`: rolled sides; the compiler checks their range (whole, 1..maxSides).
        this.next();
        this.nest(s.pos);
        sidesExpr = this.expr();
        this.depth--;
        this.expectOp(')');
        sides = 1;
      } else {
        this.fail(`expected the number of sides right after "d" but found ${this.describe(s)}`, s.kind === 'eof' ? s.pos : d.end);
      }
    }
    if (countExpr === null) {
      if (count < 1) throw new DiceError('UNSUPPORTED', 'roll at least one die', pos, this.src);
      if (count > this.limits.maxDice) throw new DiceError('LIMIT', `${count} dice is over maxDice (${this.limits.maxDice})`, pos, this.src, 'maxDice');
    }
    if (sides < 1) throw new DiceError('UNSUPPORTED', 'a die needs at least one side', sidesPos, this.src);
    if (sides > this.limits.maxSides) throw new DiceError('LIMIT', `d${sides} is over maxSides (${this.limits.maxSides})`, sidesPos, this.src, 'maxSides');
    const faceValues = fate === 0 ? null : fate === 2 ? [-1, 0, 1] : [-1, 0, 1];
    const lowFace = faceValues ? -1 : 1;
    const highFace = faceValues ? 1 : sides;

    let explode: ExplodeRule | null = null;
    let reroll: RerollRule | null = null;
    let keep: Keep | null = null;
    let clampMin: number | null = null;
    let clampMax: number | null = null;
    let unique: DiceNode['unique'] = null;
    let target: TargetRule | null = null;
    let critSuccess: Cmp | null = null;
    let critFailure: Cmp | null = null;
    let sort: DiceNode['sort'] = null;
    let end = this.toks[this.i - 1]!.end;
    const once = (taken: unknown, m: Token, what: string): void => {
      if (taken) this.fail(`the dice already have ${what}`, m.pos);
    };
    // Rolled sides (`d(1d6)`) fix no faces here: the checks against the faces
    // run for each side count the expression can give (withSides), and the
    // default explode trigger is resolved there to that count's top face.
    const rolled = sidesExpr !== null;
    for (;;) {
      const m = this.peek();
      // Modifiers are written without spaces; a success comparison may have them (`10d10 >= 8`).
      const isCmp = m.kind === 'cmp' || (m.kind === 'op' && m.text === '!' && m.pos !== end && this.peek(1).kind === 'cmp' && this.peek(1).text === '=' && this.peek(1).pos === m.end);
      if (isCmp && m.pos !== end) {
        // `3d6 >= 13` is how the old notation compared the total; the common one
        // counts successes and allows no space there. Neither reading is silent.
        const term = this.src.slice(pos, end);
        const op = m.kind === 'cmp' ? m.text : '!=';
        this.fail(
          `a comparison after dice: write "${term}${op}N" (no space) to count the dice that match, ` +
            `or "${term} vs N" to compare the total (meet or beat; "(${term}) ${op} N" for other comparisons)`,
          m.pos,
        );
      }
      if (isCmp) {
        once(target, m, 'a success count');
        target = this.target(m.pos);
        if (!rolled) this.checkTarget(target.success, lowFace, highFace, explode, count, countExpr, sides, fate, m.pos);
        end = this.toks[this.i - 1]!.end;
        continue;
      }
      if (m.pos !== end) break;
      if (m.kind === 'op' && (m.text === '!' || m.text === '!!')) {
        once(explode, m, 'an explosion');
        this.next();
        let compound = m.text === '!!';
        let penetrate = false;
        const p = this.peek();
        if (p.kind === 'name' && p.pos === m.end && this.word(p) === 'p') {
          this.next();
          penetrate = true;
        } else if (!compound && p.kind === 'op' && p.text === '!' && p.pos === m.end) {
          this.next();
          compound = true;
        }
        const given = this.comparePoint('a face to explode on', true);
        const trigger = given ?? { op: '=', value: highFace };
        if (!rolled) this.explodeCheck(trigger, lowFace, highFace, fate, m.pos);
        explode = rolled && !given ? { compound, penetrate, trigger, top: true } : { compound, penetrate, trigger };
        end = this.toks[this.i - 1]!.end;
        continue;
      }
      if (m.kind !== 'name') break;
      const word = this.word(m);
      if (word in UNSUPPORTED_WORDS) unsupported(UNSUPPORTED_WORDS[word]!, m.pos, this.src);
      switch (word) {
        case 'x': {
          // Foundry's explode.
          once(explode, m, 'an explosion');
          this.next();
          const given = this.comparePoint('a face to explode on', true);
          const trigger = given ?? { op: '=', value: highFace };
          if (!rolled) this.explodeCheck(trigger, lowFace, highFace, fate, m.pos);
          explode = rolled && !given ? { compound: false, penetrate: false, trigger, top: true } : { compound: false, penetrate: false, trigger };
          break;
        }
        case 'r':
        case 'ro':
        case 'rr': {
          once(reroll, m, 'a reroll rule');
          this.next();
          const c = this.comparePoint('a face to reroll', true) ?? { op: '=', value: lowFace };
          reroll = { op: c.op, value: c.value, once: word === 'ro' };
          let hits = 0;
          for (let f = lowFace; f <= Math.min(highFace, lowFace + 1_000_000); f++) if (compare(c.op, f, c.value)) hits++;
          if (!rolled && hits === highFace - lowFace + 1 && !reroll.once) {
            throw new DiceError('UNSUPPORTED', `rerolling ${word}${c.op}${c.value} on a d${fate ? 'F' : sides} would reroll every face forever`, m.pos, this.src);
          }
          break;
        }
        case 'kh': case 'kl': case 'dh': case 'dl': case 'k': case 'd':
          once(keep, m, 'a keep or drop');
          keep = this.keep(word, countExpr ? Infinity : count, m);
          break;
        case 'min':
        case 'max': {
          this.next();
          const v = this.signed(`a value after "${word}"`).value;
          if (word === 'min') {
            once(clampMin, m, 'a min');
            clampMin = v;
          } else {
            once(clampMax, m, 'a max');
            clampMax = v;
          }
          if (clampMin !== null && clampMax !== null && clampMin > clampMax) this.fail(`min${clampMin} is above max${clampMax}`, m.pos);
          break;
        }
        case 'u':
        case 'uo': {
          once(unique, m, 'a unique rule');
          this.next();
          unique = { once: word === 'uo', trigger: this.comparePoint('', true) };
          break;
        }
        case 'cs':
        case 'cf': {
          this.next();
          const c = this.comparePoint(`a face after "${word}"`, false)!;
          if (word === 'cs') {
            once(critSuccess, m, 'a critical success range');
            critSuccess = c;
          } else {
            once(critFailure, m, 'a critical failure range');
            critFailure = c;
          }
          break;
        }
        case 's':
        case 'sa':
        case 'sd':
          once(sort, m, 'a sort order');
          this.next();
          sort = word === 'sd' ? 'desc' : 'asc';
          break;
        case 'f':
          this.fail('a failure (f) needs a success comparison before it (e.g. 8d6>4f1)', m.pos);
          break;
        case 'p':
          this.fail('"p" (penetrate) belongs right after "!" (d6!p)', m.pos);
          break;
        default:
          this.fail(`unknown dice modifier ${JSON.stringify(word)} (see docs/dice.md)`, m.pos);
      }
      end = this.toks[this.i - 1]!.end;
    }
    if (explode && !rolled && (sides < 2 && fate === 0)) throw new DiceError('UNSUPPORTED', 'a one-sided die cannot explode (it would never stop)', pos, this.src);
    if (unique && !rolled && !unique.once && countExpr === null && unique.trigger === null && count > highFace - lowFace + 1 && !explode) {
      throw new DiceError('UNSUPPORTED', `${count} dice cannot all differ on a d${fate ? 'F' : sides}`, pos, this.src);
    }
    const label = this.label();
    if (label !== null) end = this.toks[this.i - 1]!.end;
    return {
      kind: 'dice', count: countExpr ? 0 : count, countExpr, sides, sidesExpr, fate, explode, reroll, keep, clampMin, clampMax, unique, target,
      critSuccess, critFailure, sort, label, pos, end, sidesPos,
    };
  }

  private explodeCheck(trigger: Cmp, lo: number, hi: number, fate: number, pos: number): void {
    let all = true;
    for (let f = lo; f <= Math.min(hi, lo + 1_000_000); f++) if (!compare(trigger.op, f, trigger.value)) all = false;
    if (all) throw new DiceError('UNSUPPORTED', `exploding on ${trigger.op}${trigger.value} would explode every face of a d${fate ? 'F' : hi} forever`, pos, this.src);
  }

  /**
   * Success counting where no die, or every die, can match is the old total
   * comparison typed by habit (`3d6 >= 13`): say so rather than count zero.
   */
  private checkTarget(c: Cmp, lo: number, hi: number, explode: ExplodeRule | null, count: number, countExpr: Expr | null, sides: number, fate: number, pos: number): void {
    if (explode?.compound) return;
    let any = false;
    let all = true;
    for (let f = lo; f <= Math.min(hi, lo + 1_000_000); f++) {
      if (compare(c.op, f, c.value)) any = true;
      else all = false;
    }
    if (any && !all) return;
    const term = `${countExpr ? '(...)' : count}d${fate ? 'F' : sides}`;
    this.fail(
      `${term}${c.op}${c.value} would count the dice showing ${c.op}${c.value}, and ${any ? 'every' : 'no'} face of a d${fate ? 'F' : sides} does; ` +
        `to compare the total write "${term} vs ${c.value}" (meet or beat) or "(${term}) ${c.op} ${c.value}"`,
      pos,
    );
  }
}

export function rerollMatches(rule: Cmp, face: number): boolean {
  return compare(rule.op, face, rule.value);
}

/** Parses notation into a tree, checking the length and per-term limits. */
export function parseWithComment(src: string, limits: DiceLimits): { root: Root; comment: string | null } {
  if (typeof src !== 'string') throw new DiceError('SYNTAX', 'the expression must be a string');
  if (src.length > limits.maxLength) {
    throw new DiceError('LIMIT', `the expression is ${src.length} characters, over maxLength (${limits.maxLength})`, limits.maxLength, src.slice(0, limits.maxLength + 1), 'maxLength');
  }
  if (src.trim() === '') throw new DiceError('SYNTAX', 'the expression is empty', 0, src);
  const p = new Parser(src, limits);
  return p.parseRoot();
}

export function parse(src: string, limits: DiceLimits): Root {
  return parseWithComment(src, limits).root;
}

/**
 * A rolled-sides term (`d(1d6)!`, `3d(1d8)>=5`) as if `s` sides were written:
 * the default explode trigger becomes the top face, and the checks the parser
 * makes against written faces are made for this side count, naming it.
 */
export function withSides(node: DiceNode, s: number, src: string): DiceNode {
  const fail = (message: string): never => {
    throw new DiceError('UNSUPPORTED', `the sides can roll ${s}, and ${message}; make the sides expression unable to give ${s} (e.g. d(1d4+1))`, node.sidesPos, src);
  };
  let explode = node.explode;
  if (explode?.top) explode = { compound: explode.compound, penetrate: explode.penetrate, trigger: { op: '=', value: s } };
  if (explode) {
    let all = true;
    for (let f = 1; f <= s && all; f++) if (!compare(explode.trigger.op, f, explode.trigger.value)) all = false;
    if (all) fail(`exploding on ${explode.trigger.op}${explode.trigger.value} would explode every face of a d${s} forever`);
  }
  const r = node.reroll;
  if (r && !r.once) {
    let all = true;
    for (let f = 1; f <= s && all; f++) if (!compare(r.op, f, r.value)) all = false;
    if (all) fail(`rerolling r${r.op}${r.value} would reroll every face of a d${s} forever`);
  }
  const u = node.unique;
  if (u && !u.once && u.trigger === null && node.countExpr === null && node.count > s && !explode) fail(`${node.count} dice cannot all differ on a d${s}`);
  return { ...node, sides: s, sidesExpr: null, explode };
}
