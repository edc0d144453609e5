// Issue 19: isJson checks every command and every event, so it walks with loops
// instead of every() over Object.values() (which allocate per object). It must
// judge every value as the walk it replaced did: holes, undefined, NaN,
// class instances, null prototypes and depth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCommand, isJson, jsonLengthBound, MAX_COMMAND_BYTES, MAX_COMMAND_DEPTH } from '../../src/core/validate.js';

/** The walk as it was before (every() over values), kept here as the reference. */
function reference(v: unknown, depth = 0): boolean {
  if (depth > MAX_COMMAND_DEPTH) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => reference(x, depth + 1));
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(v as Record<string, unknown>).every((x) => x === undefined || reference(x, depth + 1));
  }
  return false;
}

/** [1, <hole>, 3]. */
function sparse(): unknown[] {
  const a: unknown[] = [1];
  a[2] = 3;
  return a;
}

/** Nested to any depth around the limit: a value wrapped n times in arrays or objects. */
const nested = fc.tuple(fc.integer({ min: 0, max: MAX_COMMAND_DEPTH + 3 }), fc.boolean(), fc.jsonValue()).map(([n, asArray, leaf]) => {
  let v: unknown = leaf;
  for (let i = 0; i < n; i++) v = asArray ? [v] : { k: v };
  return v;
});

describe('isJson (issue 19)', () => {
  it('judges any value as the every()-based walk did', () => {
    const odd = fc.constantFrom<unknown>(undefined, NaN, Infinity, -Infinity, new Date(0), new Map(), Object.create(null) as object, sparse(), [undefined], { a: undefined }, () => 1, Symbol('s'), 10n);
    fc.assert(
      fc.property(fc.oneof(fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withMap: true, withSet: true, withDate: true }), odd, nested, fc.jsonValue()), (v) => {
        expect(isJson(v)).toBe(reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('a hole reads as JSON, an undefined array element does not, and depth is bounded', () => {
    expect(isJson(sparse())).toBe(true);
    expect(isJson([1, undefined])).toBe(false);
    expect(isJson({ a: undefined, b: 1 })).toBe(true);
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_COMMAND_DEPTH; i++) deep = [deep];
    expect(isJson(deep)).toBe(false);
  });
});

describe('jsonLengthBound: one walk for checkCommand (issue 19)', () => {
  const anyValue = () => {
    const odd = fc.constantFrom<unknown>(undefined, NaN, Infinity, -0, Number.MIN_VALUE, -Number.MAX_VALUE, -2.2250738585072014e-308, new Date(0), Object.create(null) as object, sparse(), [undefined], { a: undefined }, '\u0000\ud800"\\', () => 1);
    return fc.oneof(fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withMap: true, withDate: true }), odd, nested, fc.jsonValue(), fc.string({ unit: 'binary' }), fc.double());
  };

  it('is -1 exactly when isJson refuses the value, and never below the JSON text length', () => {
    fc.assert(
      fc.property(anyValue(), (v) => {
        const b = jsonLengthBound(v);
        expect(b < 0).toBe(!isJson(v));
        if (b >= 0) expect(b).toBeGreaterThanOrEqual(JSON.stringify(v).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('checkCommand refuses a command over the size limit and passes one just under it, however its text escapes', () => {
    // Plain characters: the bound (6 a character) passes the limit long before the text does, so both are measured exactly.
    const pad = (n: number) => 'x'.repeat(n);
    const overhead = JSON.stringify({ type: 'log.note', text: '' }).length;
    expect(checkCommand({ type: 'log.note', text: pad(MAX_COMMAND_BYTES - overhead) })).toBeNull();
    expect(checkCommand({ type: 'log.note', text: pad(MAX_COMMAND_BYTES - overhead + 1) })?.code).toBe('LIMIT_EXCEEDED');
    // Control characters escape to six each: the text is over the limit though the string is short.
    const escaped = '\u0001'.repeat(Math.ceil(MAX_COMMAND_BYTES / 6));
    expect(checkCommand({ type: 'log.note', text: escaped })?.code).toBe('LIMIT_EXCEEDED');
    expect(checkCommand({ type: 'log.note', text: NaN })?.code).toBe('INVALID_COMMAND');
  });
});
