// The clock panel's words for elapsed time (a Node test of the web helper).
import { describe, expect, it } from 'vitest';
import { elapsedLabel } from '../packages/web/src/lib/clock.ts';

describe('elapsedLabel', () => {
  it('says one or many as English does', () => {
    expect(elapsedLabel('turn', 1)).toBe('1 turn');
    expect(elapsedLabel('turn', 3)).toBe('3 turns');
    expect(elapsedLabel('travelTurn', 1)).toBe('1 travel turn');
    expect(elapsedLabel('longRest', 0)).toBe('0 long rests');
    expect(elapsedLabel('someNewUnit', 2)).toBe('2 someNewUnit');
  });
});
