// The tracker's manual order without a DOM (issue 20, ADR 29).
import { describe, expect, it } from 'vitest';
import { dropTarget, hasManualOrder, moveTarget } from '../packages/web/src/lib/reorder.ts';

const order = ['ann', 'bo', 'cy', 'gob'];

describe('manual turn order', () => {
  it('DEX order (001) and bands (002) take one; teams (003), Daggerheart and Edge Save slots (004) do not', () => {
    expect(['osr', '36th-way', 'teams', 'daggerheart', 'kleptonomicon'].map(hasManualOrder)).toEqual([true, true, false, false, false]);
  });

  it('earlier goes before the one above; later goes before the one two below (last: null); the ends cannot move further', () => {
    expect(moveTarget(order, 'cy', 'up')).toBe('bo');
    expect(moveTarget(order, 'bo', 'down')).toBe('gob');
    expect(moveTarget(order, 'cy', 'down')).toBeNull();
    expect(moveTarget(order, 'ann', 'up')).toBeUndefined();
    expect(moveTarget(order, 'gob', 'down')).toBeUndefined();
  });

  it('a drop takes the target row\'s place: from below it goes above the target, from above it goes below', () => {
    expect(dropTarget(order, 'gob', 'bo')).toBe('bo');
    expect(dropTarget(order, 'ann', 'cy')).toBe('gob');
    expect(dropTarget(order, 'ann', 'gob')).toBeNull();
    expect(dropTarget(order, 'bo', 'bo')).toBeUndefined();
  });
});
