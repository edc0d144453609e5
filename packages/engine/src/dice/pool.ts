// Exact odds of a pool of dice thrown one after another, for the cases the
// closed forms cannot take: what a die shows may depend on the dice before it
// (unique), a die may start a chain of further dice (explosions), and keep /
// drop looks at the whole pool. The state after each die is small and bounded:
// the values seen so far (unique only), the kept end of the pool (the few
// highest or lowest values) and, when dropping, the running sum. Every
// transition is charged to the odds budget; a state space over the limits is
// refused with the limit's name, never sampled.

import type { KeepMode } from './ast.js';
import { DiceError } from './errors.js';
import type { OddsBudget } from './pmf.js';

/** One way a die can come out: its final value, the chance, and whether its explosion chain goes on. */
export interface PoolOutcome {
  readonly value: number;
  readonly p: number;
  readonly more: boolean;
}

/** State code -> running sum -> probability. */
export type PoolStates = Map<number, Map<number, number>>;

/** Work units per state transition (a hash-map update costs tens of array steps). */
const STEP = 200;
/** Most distinct values a unique rule can track (one bit each). */
export const MAX_UNIQUE_VALUES = 30;

export interface PoolKeep {
  readonly mode: KeepMode;
  readonly count: number;
}

/** Sums of real-valued members are keyed to 9 decimals, so equal totals reached in another order meet. */
function key(x: number): number {
  return Number.isInteger(x) ? x + 0 : Number.parseFloat(x.toFixed(9)) + 0;
}

export class PoolOdds {
  /** Value -> 1-based index (0 is an empty slot of the kept end). */
  private readonly index = new Map<number, number>();
  private readonly values: number[] = [];
  /** Size of the kept (or dropped) end of the pool. */
  private readonly m: number;
  /** The end holds the highest values (else the lowest). */
  private readonly top: boolean;
  /** A running sum of every die's weight is kept (no keep, or a drop). */
  private readonly running: boolean;
  /** The result is the running sum minus the end (drop), else the end's sum or the running sum. */
  private readonly subtract: boolean;
  private readonly base: number;
  /** Codes of the kept end: base^m. */
  private readonly radix: number;
  states: PoolStates = new Map([[0, new Map([[0, 1]])]]);
  /** Distinct values the current unique rule tracks: value -> bit. */
  private bits: Map<number, number> | null = null;

  constructor(
    values: Iterable<number>,
    keep: PoolKeep | null,
    private readonly weight: (v: number) => number,
    private readonly budget: OddsBudget,
    private readonly maxStates: number,
    private readonly fail: (message: string, limit: string) => never,
  ) {
    const sorted = [...new Set(values)].sort((a, b) => a - b);
    sorted.forEach((v, i) => {
      this.index.set(v, i + 1);
      this.values.push(v);
    });
    if (!keep) [this.m, this.top, this.running, this.subtract] = [0, true, true, false];
    else if (keep.mode === 'kh' || keep.mode === 'kl') [this.m, this.top, this.running, this.subtract] = [keep.count, keep.mode === 'kh', false, false];
    else [this.m, this.top, this.running, this.subtract] = [keep.count, keep.mode === 'dh', true, true];
    this.base = sorted.length + 1;
    this.radix = this.base ** this.m;
    if (this.radix > 2 ** 40) this.fail(`keep or drop of ${this.m} dice among ${sorted.length} possible values has too many states to track`, 'maxOddsSpan');
  }

  /** Starts a term with a unique rule over these values (or none): the values seen so far start empty. */
  track(values: Iterable<number> | null): void {
    const next: PoolStates = new Map();
    for (const [code, sums] of this.states) {
      const ms = code % this.radix;
      const at = next.get(ms);
      if (!at) next.set(ms, new Map(sums));
      else for (const [s, p] of sums) at.set(s, (at.get(s) ?? 0) + p);
    }
    this.states = next;
    if (values === null) {
      this.bits = null;
      return;
    }
    const distinct = [...new Set(values)].sort((a, b) => a - b);
    if (distinct.length > MAX_UNIQUE_VALUES) this.fail(`unique dice over ${distinct.length} possible values (more than ${MAX_UNIQUE_VALUES}) have too many states to track`, 'maxOddsSpan');
    if (this.radix * 2 ** distinct.length > Number.MAX_SAFE_INTEGER) this.fail('unique dice kept or dropped over this many values have too many states to track', 'maxOddsSpan');
    this.bits = new Map(distinct.map((v, i) => [v, 1 << i]));
  }

  /** The values seen so far in a state (unique rules), as a bit set. */
  seenOf(code: number): number {
    return Math.floor(code / this.radix);
  }

  /** Is value v among the seen bits? */
  seen(bits: number, v: number): boolean {
    const b = this.bits?.get(v);
    return b !== undefined && (bits & b) !== 0;
  }

  private insert(ms: number, x: number): number {
    const m = this.m;
    if (m === 0) return 0;
    const B = this.base;
    // Digits from the most extreme kept value down; 0 marks an empty slot.
    const d: number[] = [];
    let rest = ms;
    for (let i = 0; i < m; i++) {
      d.push(rest % B);
      rest = Math.floor(rest / B);
    }
    let at = m;
    for (let i = 0; i < m; i++) {
      if (d[i] === 0 || (this.top ? x > d[i]! : x < d[i]!)) {
        at = i;
        break;
      }
    }
    if (at === m) return ms;
    d.splice(at, 0, x);
    let code = 0;
    for (let i = m - 1; i >= 0; i--) code = code * B + d[i]!;
    return code;
  }

  /**
   * Throws one die in every state: `outcomes(seen)` lists how it can come out
   * given the values seen so far. Returns the states whose chain goes on and
   * those where it ended.
   */
  step(from: PoolStates, outcomes: (seen: number) => readonly PoolOutcome[], where: number, src: string): { more: PoolStates; done: PoolStates } {
    const more: PoolStates = new Map();
    const done: PoolStates = new Map();
    let work = 0;
    for (const [code, sums] of from) {
      const seen = this.seenOf(code);
      const ms = code - seen * this.radix;
      const outs = outcomes(seen);
      work += outs.length * sums.size;
      for (const o of outs) {
        if (o.p === 0) continue;
        const idx = this.index.get(o.value);
        if (idx === undefined) throw new Error(`internal: pool value ${o.value} was not declared`);
        const bit = this.bits?.get(o.value) ?? 0;
        const next = (seen | bit) * this.radix + this.insert(ms, idx);
        const into = o.more ? more : done;
        let at = into.get(next);
        if (!at) into.set(next, (at = new Map()));
        const w = this.running ? this.weight(o.value) : 0;
        for (const [s, p] of sums) {
          const k = this.running ? key(s + w) : 0;
          at.set(k, (at.get(k) ?? 0) + p * o.p);
        }
      }
    }
    this.budget.charge(work * STEP, where, src);
    let size = 0;
    for (const m of more.values()) size += m.size;
    for (const m of done.values()) size += m.size;
    if (size > this.maxStates) this.budget.span(size, where, src);
    return { more, done };
  }

  /** Adds the states of b into a. */
  static merge(a: PoolStates, b: PoolStates): void {
    for (const [code, sums] of b) {
      const at = a.get(code);
      if (!at) a.set(code, sums);
      else for (const [s, p] of sums) at.set(s, (at.get(s) ?? 0) + p);
    }
  }

  /** The distribution of the pool's result: value -> probability. */
  result(): Map<number, number> {
    const out = new Map<number, number>();
    const B = this.base;
    for (const [code, sums] of this.states) {
      let rest = code % this.radix;
      let end = 0;
      for (let i = 0; i < this.m; i++) {
        const d = rest % B;
        if (d !== 0) end += this.weight(this.values[d - 1]!);
        rest = Math.floor(rest / B);
      }
      for (const [s, p] of sums) {
        const v = key(this.subtract ? s - end : this.running ? s : end);
        out.set(v, (out.get(v) ?? 0) + p);
      }
    }
    return out;
  }
}

/** A DiceError for a pool the limits refuse. */
export function poolLimit(src: string, pos: number): (message: string, limit: string) => never {
  return (message, limit) => {
    throw new DiceError('LIMIT', `exact odds: ${message} (${limit})`, pos, src, limit);
  };
}
