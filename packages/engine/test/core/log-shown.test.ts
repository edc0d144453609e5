// A log entry may carry a `shown` sentence: non-GM viewers read it in place of
// `text` and never receive `shown` itself; the GM reads `text` (ADR 33).
import { describe, expect, it } from 'vitest';
import { appendLog } from '../../src/core/log.js';
import { scenario } from '../../src/core/testing.js';
import { copyEntry } from '../../src/core/view-cache.js';

describe('log entries with a player sentence', () => {
  it('appendLog keeps shown only when it differs from text', () => {
    const w = scenario([]).world;
    const a = appendLog(w, { audience: { kind: 'all' }, kind: 'k', text: 'Ogre took 5 damage: 20 -> 15 HP.', shown: 'Ogre took 5 damage.' });
    expect(a.log.at(-1)).toMatchObject({ text: 'Ogre took 5 damage: 20 -> 15 HP.', shown: 'Ogre took 5 damage.' });
    const b = appendLog(w, { audience: { kind: 'all' }, kind: 'k', text: 'same', shown: 'same' });
    expect(b.log.at(-1)).not.toHaveProperty('shown');
  });

  it("a non-GM copy reads shown as its text and drops the GM's sentence", () => {
    const e = { tx: 1, audience: { kind: 'all' } as const, kind: 'k', text: 'Ogre took 5 damage: 20 -> 15 HP.', shown: 'Ogre took 5 damage.', data: { id: 'ogre' } };
    expect(copyEntry(e)).toEqual({ tx: 1, audience: { kind: 'all' }, kind: 'k', text: 'Ogre took 5 damage.', data: { id: 'ogre' } });
    expect(copyEntry({ tx: 1, audience: { kind: 'all' }, kind: 'k', text: 'plain' })).toEqual({ tx: 1, audience: { kind: 'all' }, kind: 'k', text: 'plain' });
  });
});
