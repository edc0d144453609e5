// World patches go down to a countdown's fields (depth 5), so one tick sends its value
// alone, not the whole countdown; a record at that depth changed in many keys goes whole.
// Whatever the patches, folding them gives the next view.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TableView } from '@tablekeeper/engine';
import { applyDelta } from '@tablekeeper/protocol';
import { deltaBetween, DIFF_DEPTH, MAX_LEAF_PATCHES } from '../../src/deltas.js';

/** A view whose world holds `countdowns` where the countdowns module keeps them. */
const viewWith = (countdowns: Record<string, unknown>, version: number): TableView =>
  ({
    world: { tableId: 't', log: [], ext: { countdowns: { countdowns, order: Object.keys(countdowns), chases: {}, gone: {} } } },
    history: [],
    canUndo: false,
    canRedo: false,
    undoLabel: null,
    redoLabel: null,
    undoWords: null,
    redoWords: null,
    version,
  }) as unknown as TableView;

const doom = { id: 'cd-1', name: 'Doom', value: 6, start: 6, status: 'active', restTicks: { shortRest: 1, longRest: 2 }, beats: [] as unknown[] };

describe('world patches down to depth 5', () => {
  it('a tick sends the countdown\'s value alone', () => {
    const held = viewWith({ 'cd-1': doom }, 1);
    const next = viewWith({ 'cd-1': { ...doom, value: 5 } }, 2);
    const d = deltaBetween(held, next);
    expect(DIFF_DEPTH).toBe(5);
    expect(d.world).toEqual([{ p: ['ext', 'countdowns', 'countdowns', 'cd-1', 'value'], v: 5 }]);
    expect(applyDelta(held, d)).toEqual(next);
  });

  it('a field below depth 5 is replaced whole, a removed field is deleted, and a record changed in many fields goes whole', () => {
    const held = viewWith({ 'cd-1': doom }, 1);
    const rested = viewWith({ 'cd-1': { ...doom, restTicks: { shortRest: 2, longRest: 2 }, status: undefined } }, 2);
    const d = deltaBetween(held, rested);
    expect(d.world).toEqual([{ p: ['ext', 'countdowns', 'countdowns', 'cd-1', 'status'] }, { p: ['ext', 'countdowns', 'countdowns', 'cd-1', 'restTicks'], v: { shortRest: 2, longRest: 2 } }]);
    expect(applyDelta(held, d).world).toEqual(JSON.parse(JSON.stringify(rested.world)));
    const remade = { id: 'cd-1', name: 'Hope', value: 1, start: 2, status: 'ended', restTicks: doom.restTicks, beats: doom.beats };
    const whole = deltaBetween(held, viewWith({ 'cd-1': remade }, 2));
    expect(whole.world).toEqual([{ p: ['ext', 'countdowns', 'countdowns', 'cd-1'], v: remade }]);
  });

  it('property: any change to a countdown folds to the next view, in at most MAX_LEAF_PATCHES patches or one whole record', () => {
    const field = fc.oneof(fc.integer({ min: -3, max: 9 }), fc.constantFrom('a', 'b'), fc.constant(null), fc.record({ x: fc.nat(3) }));
    const record = fc.dictionary(fc.constantFrom('id', 'name', 'value', 'start', 'status', 'restTicks', 'beats', 'linkedTo'), field);
    fc.assert(
      fc.property(record, record, (a, b) => {
        const held = viewWith({ 'cd-1': a, 'cd-2': doom }, 1);
        const next = viewWith({ 'cd-1': b, 'cd-2': doom }, 2);
        const d = deltaBetween(held, next);
        expect(applyDelta(held, d)).toEqual(next);
        const patches = d.world ?? [];
        // The untouched countdown is never in the delta.
        expect(patches.every((p) => p.p[3] === 'cd-1')).toBe(true);
        expect(patches.length <= MAX_LEAF_PATCHES || (patches.length === 1 && patches[0]!.p.length === 4)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  // The walk now keeps one path stack instead of a new array per step (issue 19, perf12): the patches must be
  // the ones the copying walk gave, patch for patch and in order, for any pair of worlds sharing subtrees.
  it('gives the patches the path-copying walk gave, for random worlds that share and change nested records', () => {
    const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
    const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    type Patch = { p: string[]; v?: unknown };
    // The walk as it was before the path stack (deltas.ts before perf12).
    function reference(held: Record<string, unknown>, next: Record<string, unknown>, path: string[], depth: number, out: Patch[], skip: string | null): void {
      for (const k in next) {
        if (k === skip) continue;
        const a = held[k];
        const b = next[k];
        if (a === b) continue;
        if (b === undefined) {
          if (a !== undefined) out.push({ p: [...path, k] });
          continue;
        }
        if (depth < DIFF_DEPTH - 1 && isRecord(a) && isRecord(b)) reference(a, b, [...path, k], depth + 1, out, null);
        else if (depth === DIFF_DEPTH - 1 && isRecord(a) && isRecord(b)) {
          const at = out.length;
          reference(a, b, [...path, k], depth + 1, out, null);
          if (out.length - at > MAX_LEAF_PATCHES) out.splice(at, out.length - at, { p: [...path, k], v: b });
        } else if (!sameJson(a, b)) out.push({ p: [...path, k], v: b });
      }
      for (const k in held) {
        if (k === skip || held[k] === undefined) continue;
        if (!(k in next)) out.push({ p: [...path, k] });
      }
    }
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const leaf = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('x', 'y'), fc.constant(null), fc.constant([1, 2]));
    const { tree } = fc.letrec((tie) => ({ tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.dictionary(key, tie('tree'), { maxKeys: 4 })) }));
    // A change at a random path: a value set (maybe undefined, an absent key) or a key removed; records off the path stay shared.
    const change = fc.record({ path: fc.array(key, { minLength: 1, maxLength: 7 }), value: fc.option(tree, { nil: undefined }), remove: fc.boolean() });
    const applyChange = (v: unknown, path: readonly string[], value: unknown, remove: boolean): unknown => {
      if (!isRecord(v)) return v;
      const [k, ...rest] = path as [string, ...string[]];
      const out: Record<string, unknown> = { ...v };
      if (rest.length === 0) {
        if (remove) delete out[k];
        else out[k] = value;
      } else out[k] = applyChange(v[k], rest, value, remove);
      return out;
    };
    fc.assert(
      fc.property(fc.dictionary(key, tree, { maxKeys: 5 }), fc.array(change, { maxLength: 6 }), (base, changes) => {
        const held = { ...base, log: [] };
        let next: unknown = held;
        for (const c of changes) next = applyChange(next, c.path, c.value, c.remove);
        const want: Patch[] = [];
        reference(held, next as Record<string, unknown>, [], 1, want, 'log');
        const view = (world: unknown, version: number) => ({ ...viewWith({}, version), world }) as unknown as TableView;
        expect(deltaBetween(view(held, 1), view(next, 2)).world ?? []).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });
});
