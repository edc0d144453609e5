// The table's append-only transaction log and its undo / redo stacks, built so
// that applying a transaction copies neither: replay of n transactions is O(n)
// instead of O(n^2). Both are persistent: an older Table keeps reading exactly
// what it held, however many versions were made from it.
import type { Transaction, World } from './types.js';

/**
 * Versions of one log share a single buffer; each version knows only its
 * length. Appending to the newest version pushes in place (O(1)); appending to
 * an older one (a discarded branch, e.g. a command whose store write failed)
 * copies its prefix once and goes on from the copy.
 */
export class TransactionLog implements Iterable<Transaction> {
  readonly #buf: Transaction[];
  readonly length: number;

  private constructor(buf: Transaction[], length: number) {
    this.#buf = buf;
    this.length = length;
  }

  static empty(): TransactionLog {
    return new TransactionLog([], 0);
  }

  static from(transactions: Iterable<Transaction>): TransactionLog {
    const buf = [...transactions];
    return new TransactionLog(buf, buf.length);
  }

  append(tx: Transaction): TransactionLog {
    if (this.#buf.length === this.length) {
      this.#buf.push(tx);
      return new TransactionLog(this.#buf, this.length + 1);
    }
    const buf = this.#buf.slice(0, this.length);
    buf.push(tx);
    return new TransactionLog(buf, buf.length);
  }

  /** The transaction with this seq (1-based), or undefined. */
  bySeq(seq: number): Transaction | undefined {
    return Number.isInteger(seq) && seq >= 1 && seq <= this.length ? this.#buf[seq - 1] : undefined;
  }

  /** Like Array#at: 0-based, negative counts from the end. */
  at(index: number): Transaction | undefined {
    const i = index < 0 ? this.length + index : index;
    return i >= 0 && i < this.length ? this.#buf[i] : undefined;
  }

  *[Symbol.iterator](): Iterator<Transaction> {
    for (let i = 0; i < this.length; i++) yield this.#buf[i]!;
  }

  /** The newest first: what a history window walks. */
  *newestFirst(): Generator<Transaction> {
    for (let i = this.length - 1; i >= 0; i--) yield this.#buf[i]!;
  }

  slice(start?: number, end?: number): Transaction[] {
    return this.#buf.slice(0, this.length).slice(start, end);
  }

  toArray(): Transaction[] {
    return this.#buf.slice(0, this.length);
  }

  map<U>(f: (tx: Transaction, index: number) => U): U[] {
    return this.toArray().map(f);
  }

  filter(f: (tx: Transaction, index: number) => boolean): Transaction[] {
    return this.toArray().filter(f);
  }

  flatMap<U>(f: (tx: Transaction, index: number) => U | readonly U[]): U[] {
    return this.toArray().flatMap(f);
  }

  /** Stored and compared as the plain array it stands for. */
  toJSON(): Transaction[] {
    return this.toArray();
  }
}

/** How often (in stack depth) an undo stack entry keeps the world before it, so undo replays at most this many transactions. */
export const UNDO_CHECKPOINT_EVERY = 64;

interface StackNode {
  readonly seq: number;
  /** Entries in the stack up to and including this one. */
  readonly size: number;
  /** The world before this entry was applied, when kept (the top entry, every checkpoint, the bottom). */
  readonly before: World | null;
  readonly below: StackNode | null;
}

/** Whether the stack entry at this size keeps the world before it after another is pushed on it. */
export const keepsCheckpoint = (size: number): boolean => size === 1 || size % UNDO_CHECKPOINT_EVERY === 0;

/**
 * A persistent stack of transaction seqs (a linked list): push and pop are
 * O(1) and share every entry below. The undo stack's entries may keep the
 * world before them, so undo restores a world instead of replaying the table.
 */
export class SeqStack {
  readonly #top: StackNode | null;

  private constructor(top: StackNode | null) {
    this.#top = top;
  }

  /** One empty stack serves all (stacks never change): every command empties the redo stack. */
  static readonly #EMPTY = new SeqStack(null);

  static empty(): SeqStack {
    return SeqStack.#EMPTY;
  }

  /**
   * From seqs oldest first; `bottomBefore` is the world before the oldest (the genesis for the undo stack).
   * `kept` (from another stack's `keptWorlds`) restores worlds by stack size, so the newest entries undo without a replay.
   */
  static from(seqs: Iterable<number>, bottomBefore: World | null = null, kept?: ReadonlyMap<number, World>): SeqStack {
    let top = null as StackNode | null;
    for (const seq of seqs) {
      const size = (top?.size ?? 0) + 1;
      top = { seq, size, before: top === null ? bottomBefore : (kept?.get(size) ?? null), below: top };
    }
    return new SeqStack(top);
  }

  /** The worlds the newest entries keep, as [stack size, world before the entry], newest first, at most `max`. */
  keptWorlds(max: number): [number, World][] {
    const out: [number, World][] = [];
    for (let n = this.#top; n !== null && out.length < max; n = n.below) if (n.before !== null && n.below !== null) out.push([n.size, n.before]);
    return out;
  }

  get length(): number {
    return this.#top?.size ?? 0;
  }

  /** The most recent seq, or undefined when empty. */
  get top(): number | undefined {
    return this.#top?.seq;
  }

  /** Pushes `seq`; `before` is the world before it, kept while it is on top and at checkpoints. */
  push(seq: number, before: World | null = null): SeqStack {
    const t = this.#top;
    // The old top keeps its world only if it is a checkpoint: memory stays O(n / checkpoint interval).
    // Written out, not `{ ...t, before: null }`: one push per applied command.
    const below = t !== null && t.before !== null && !keepsCheckpoint(t.size) ? { seq: t.seq, size: t.size, before: null, below: t.below } : t;
    return new SeqStack({ seq, size: (t?.size ?? 0) + 1, before, below });
  }

  pop(): SeqStack {
    return new SeqStack(this.#top?.below ?? null);
  }

  /**
   * The world before the top entry, and the stack without it. When the top
   * kept no world, replays (with `applySeq`) from the nearest entry below that
   * did; a long walk (after a cold load) rebuilds the checkpoints it passed.
   */
  popWorld(applySeq: (world: World, seq: number) => World): { world: World; rest: SeqStack } | null {
    const top = this.#top;
    if (top === null) return null;
    if (top.before !== null) return { world: top.before, rest: new SeqStack(top.below) };
    const chain: StackNode[] = [];
    let n = top.below;
    while (n !== null && n.before === null) {
      chain.push(n);
      n = n.below;
    }
    if (n === null) throw new Error('the undo stack has no world to start from');
    chain.push(n);
    chain.reverse();
    let world = n.before!;
    const rebuild = chain.length > UNDO_CHECKPOINT_EVERY;
    let rebuilt: StackNode | null = n.below;
    for (const node of chain) {
      if (rebuild) rebuilt = { seq: node.seq, size: node.size, before: node === n || keepsCheckpoint(node.size) ? world : null, below: rebuilt };
      world = applySeq(world, node.seq);
    }
    return { world, rest: new SeqStack(rebuild ? rebuilt : top.below) };
  }

  /** Seqs oldest first. */
  toArray(): number[] {
    const out: number[] = [];
    for (let n = this.#top; n !== null; n = n.below) out.push(n.seq);
    return out.reverse();
  }

  /** Like Array#at over the seqs oldest first. */
  at(index: number): number | undefined {
    if (index === -1) return this.top;
    return this.toArray().at(index);
  }

  toJSON(): number[] {
    return this.toArray();
  }
}
