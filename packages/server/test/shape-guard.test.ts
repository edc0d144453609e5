// The message depth guard runs on every frame: it first walks without making paths, and only a message
// that fails is walked again for the path named in the refusal. Both walks must agree with a plain reading.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_DEPTH, tooDeep } from '../src/shape-guard.js';

/** How deep the deepest object or array in `v` sits (the root at 0); -1 for a value with none. */
function deepest(v: unknown, depth = 0): number {
  if (v === null || typeof v !== 'object') return -1;
  let d = depth;
  for (const x of Object.values(v as object)) d = Math.max(d, deepest(x, depth + 1));
  return d;
}

/** A JSON value wrapped `n` times in arrays or objects, so depths around the limit come up often. */
const nested = fc.tuple(fc.integer({ min: 0, max: 8 }), fc.boolean(), fc.jsonValue({ maxDepth: 4 })).map(([n, asArray, leaf]) => {
  let v: unknown = leaf;
  for (let i = 0; i < n; i++) v = asArray ? [1, v] : { k: v, z: [] };
  return v;
});

describe('tooDeep (the message depth guard)', () => {
  it('refuses exactly the values with an object or array at the limit, and its path leads to one', () => {
    fc.assert(
      fc.property(nested, fc.integer({ min: 1, max: 8 }), (v, max) => {
        const path = tooDeep(v, max);
        expect(path === null).toBe(deepest(v) < max);
        if (path === null) return;
        expect(path.length).toBe(max);
        let at: unknown = v;
        for (const k of path) at = (at as Record<string | number, unknown>)[k];
        expect(at !== null && typeof at === 'object').toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('names the first such value in the order the message is written', () => {
    const msg = { type: 'command', command: { a: [[[1]]], b: [[[[2]]]] } };
    expect(tooDeep(msg, 4)).toEqual(['command', 'a', 0, 0]);
    expect(tooDeep(msg, 6)).toBeNull();
    expect(tooDeep(JSON.parse(JSON.stringify({ x: 1 })))).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_MESSAGE_DEPTH; i++) deep = [deep];
    expect(tooDeep(deep)?.length).toBe(MAX_MESSAGE_DEPTH);
  });
});
