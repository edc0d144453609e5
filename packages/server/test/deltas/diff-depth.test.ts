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
});
