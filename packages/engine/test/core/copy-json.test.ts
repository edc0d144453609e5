// Issue 19: the engine copies every command and event it records. copyJson replaces the JSON
// round trip it used (a string per copy, then parsing it back) and must give exactly what that
// round trip gave for every value isJson accepts: same keys in the same order, holes as null,
// keys holding undefined left out, -0 as 0, "__proto__" as an own key, and no shared objects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyJson, isJson } from '../../src/core/validate.js';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

/** Same as the round trip down to each leaf (Object.is, so -0 and 0 differ) and key order, with no object shared with `from`. */
function sameAsRoundTrip(copy: unknown, want: unknown, from: unknown): void {
  if (typeof want !== 'object' || want === null) {
    expect(Object.is(copy, want)).toBe(true);
    return;
  }
  expect(copy).not.toBe(from);
  expect(Array.isArray(copy)).toBe(Array.isArray(want));
  expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(want));
  const c = copy as Record<string, unknown>;
  const w = want as Record<string, unknown>;
  const f = from as Record<string, unknown>;
  expect(Object.keys(c)).toEqual(Object.keys(w));
  for (const k of Object.keys(w)) sameAsRoundTrip(c[k], w[k], f[k]);
}

/** [1, <hole>, 3]. */
function sparse(): unknown[] {
  const a: unknown[] = [1];
  a[2] = 3;
  return a;
}

/** Values the engine may be handed: JSON, plus the shapes a JavaScript caller can build that still pass isJson. */
const odd = fc.constantFrom<unknown>(-0, [-0], sparse(), { a: undefined, b: 1 }, JSON.parse('{"__proto__": {"x": 1}, "y": 2}'), Object.create(null) as object, { 2: 'b', 1: 'a', z: 0 }, '\ud800 lone surrogate');
const values = fc.oneof(fc.jsonValue(), odd, fc.anything({ withNullPrototype: true, withSparseArray: true, maxDepth: 4 }));

describe('copyJson (issue 19)', () => {
  it('gives what JSON.parse(JSON.stringify(v)) gives for every value isJson accepts, sharing no object with v', () => {
    let compared = 0;
    fc.assert(
      fc.property(values, (v) => {
        if (!isJson(v)) return;
        compared++;
        sameAsRoundTrip(copyJson(v), roundTrip(v), v);
      }),
      { numRuns: 2000 },
    );
    // fc.jsonValue() is one of three arms and always passes isJson, so far more than a tenth are compared.
    expect(compared).toBeGreaterThan(200);
  });

  it('the edge cases one by one: -0, a hole, an undefined key, a "__proto__" key, a null prototype', () => {
    expect(Object.is(copyJson(-0), 0)).toBe(true);
    expect(copyJson(sparse())).toEqual([1, null, 3]);
    expect(Object.keys(copyJson({ a: undefined, b: 1 }))).toEqual(['b']);
    const proto = copyJson(JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copyJson(Object.create(null) as object))).toBe(Object.prototype);
  });
});
