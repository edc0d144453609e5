// 002 "Escalation Die": values by round, parity, surprise round, offset clamping.
import { describe, expect, it } from 'vitest';
import { escalationBase, escalationParity, escalationValue } from '../../src/encounter/escalation.js';
import { EMPTY_ENCOUNTER } from '../../src/encounter/state.js';

describe('escalation die (002 "Escalation Die")', () => {
  it('is 0 in round 1, then rises by 1 each round to a maximum of 6', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((r) => escalationBase(r))).toEqual([0, 1, 2, 3, 4, 5, 6, 6, 6]);
  });
  it('0 counts as neither even nor odd', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(escalationParity)).toEqual(['neither', 'odd', 'even', 'odd', 'even', 'odd', 'even']);
  });
  it('stays 0 in a surprise round even with a GM offset, and the offset is kept within 0..6', () => {
    const enc = { ...EMPTY_ENCOUNTER, active: true, round: 0, escalation: { offset: 1, suppressed: [] } };
    expect(escalationValue(enc)).toBe(0);
    // An explicit PC ambush: +1 makes the first real round start at 1.
    expect(escalationValue({ ...enc, round: 1 })).toBe(1);
    expect(escalationValue({ ...enc, round: 9 })).toBe(6);
    expect(escalationValue({ ...enc, round: 2, escalation: { offset: -5, suppressed: [] } })).toBe(0);
    expect(escalationValue({ ...enc, active: false, round: 5 })).toBe(0);
  });
});
