// The notation's public face: compile (cached), roll and odds.

import type { Root } from './ast.js';
import { type CompiledDice, type DiceRollResult, compileAst } from './compile.js';
import { DEFAULT_LIMITS, type DiceLimits, withLimits } from './limits.js';
import { type OddsResult, oddsOfAst } from './odds.js';
import { parse as parseNotation, parseWithComment } from './parser.js';
import type { Rng } from './rng.js';

/** Compiled expressions kept for reuse (least recently used evicted first). */
export const COMPILE_CACHE_SIZE = 512;

/**
 * Least-recently-used cache. A hit only stamps the entry (no map reshuffle, so
 * the cached roll path stays cheap); eviction scans for the oldest stamp,
 * which happens only when a new expression arrives at a full cache.
 */
class Lru<V> {
  private readonly map = new Map<string, { value: V; used: number }>();
  private clock = 0;
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    e.used = ++this.clock;
    return e.value;
  }
  set(key: string, value: V): void {
    if (!this.map.has(key) && this.map.size >= this.size) {
      let oldest: string | undefined;
      let min = Infinity;
      for (const [k, e] of this.map) {
        if (e.used < min) {
          min = e.used;
          oldest = k;
        }
      }
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(key, { value, used: ++this.clock });
  }
  clear(): void {
    this.map.clear();
  }
  get count(): number {
    return this.map.size;
  }
}

const cache = new Lru<CompiledDice>(COMPILE_CACHE_SIZE);
const oddsCache = new WeakMap<CompiledDice, OddsResult>();

function keyOf(expression: string, limits: DiceLimits): string {
  return limits === DEFAULT_LIMITS ? expression : `${JSON.stringify(limits)}\u0000${expression}`;
}

/** Parses notation to its syntax tree (positions on every node). */
export function parseDice(expression: string, limits?: Partial<DiceLimits>): Root {
  return parseNotation(expression, withLimits(limits));
}

/** Parses and compiles once; later calls with the same text reuse the compiled roller. */
export function compileDice(expression: string, limits?: Partial<DiceLimits>): CompiledDice {
  const l = withLimits(limits);
  const key = keyOf(expression, l);
  const hit = cache.get(key);
  if (hit) return hit;
  const { root, comment } = parseWithComment(expression, l);
  const compiled = compileAst(root, expression, l, comment);
  cache.set(key, compiled);
  return compiled;
}

/** Parses and compiles without the cache (benchmarks of the parse path; tools that must not share). */
export function compileDiceUncached(expression: string, limits?: Partial<DiceLimits>): CompiledDice {
  const l = withLimits(limits);
  const { root, comment } = parseWithComment(expression, l);
  return compileAst(root, expression, l, comment);
}

/** Exact odds without touching either cache. */
export function oddsUncached(expression: string, limits?: Partial<DiceLimits>): OddsResult {
  const compiled = compileDiceUncached(expression, limits);
  return oddsOfAst(compiled.ast, expression, compiled.limits);
}

/** Rolls notation, recording every die. */
export function rollDice(expression: string, rng: Rng, limits?: Partial<DiceLimits>): DiceRollResult {
  return compileDice(expression, limits).roll(rng);
}

/** Exact odds of notation (cached with the compiled expression). */
export function odds(expression: string, limits?: Partial<DiceLimits>): OddsResult {
  const compiled = compileDice(expression, limits);
  let o = oddsCache.get(compiled);
  if (!o) {
    o = oddsOfAst(compiled.ast, expression, compiled.limits);
    oddsCache.set(compiled, o);
  }
  return o;
}

/** Empties the compile cache (tests, memory pressure). */
export function clearDiceCache(): void {
  cache.clear();
}

export function diceCacheSize(): number {
  return cache.count;
}
