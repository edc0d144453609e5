// Issue 19: the log and history stream patches. A re-projected list whose
// entries are equal copies is one kept range (nothing re-sent), and the patch
// always folds back to the new list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamPatch } from '@tablekeeper/protocol';
import { streamPatch } from '../../src/deltas.js';

/** The protocol's fold of a stream patch, for plain lists. */
function fold<T>(held: readonly T[], patch: StreamPatch<T>): T[] {
  return patch.flatMap((p) => ('add' in p ? [...p.add] : held.slice(p[0], p[0] + p[1])));
}

const entry = (n: number) => ({ tx: n, audience: { kind: 'all' }, kind: 'note', text: `note ${n}` });

describe('stream patches (issue 19)', () => {
  it('a list of equal copies plus one new entry is one kept range and the new entry', () => {
    const held = [1, 2, 3, 4].map(entry);
    const next = [...held.map((e) => ({ ...e, audience: { ...e.audience } })), entry(5)];
    expect(streamPatch(held, next)).toEqual([[0, 4], { add: [entry(5)] }]);
  });

  it('a sliding window of copies keeps the overlap', () => {
    const held = [1, 2, 3].map(entry);
    const next = [entry(2), entry(3), entry(4)];
    expect(streamPatch(held, next)).toEqual([[1, 2], { add: [entry(4)] }]);
  });

  it('folds back to the new list for any two lists, copies or not', () => {
    const list = fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 30 });
    fc.assert(
      fc.property(list, list, fc.boolean(), (a, b, copy) => {
        const pool = new Map<number, ReturnType<typeof entry>>();
        const heldEntry = (n: number) => pool.get(n) ?? pool.set(n, entry(n)).get(n)!;
        const held = a.map(heldEntry);
        const next = b.map((n) => (copy ? entry(n) : heldEntry(n)));
        expect(fold(held, streamPatch(held, next))).toEqual(next);
      }),
    );
  });
});
