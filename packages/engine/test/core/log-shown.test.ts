// A log entry may carry a `shown` sentence: non-GM viewers read it in place of
// `text` and never receive `shown` itself; the GM reads `text` (ADR 33) and is
// not sent `shown` either (ADR 45: nothing of the GM's screen reads it).
import { describe, expect, it } from 'vitest';
import { appendLog } from '../../src/core/log.js';
import { scenario } from '../../src/core/testing.js';
import { copyEntry } from '../../src/core/view-cache.js';
import type { ViewMemo } from '../../src/core/types.js';

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

  it("the GM's view reads the GM's text without players' sentence, fresh and by parts, and keeps the entry's identity from view to view", () => {
    const s = scenario([]);
    const w = appendLog(appendLog(s.world, { audience: { kind: 'all' }, kind: 'k', text: 'Ogre took 5 damage: 20 -> 15 HP.', shown: 'Ogre took 5 damage.' }), { audience: { kind: 'all' }, kind: 'k', text: 'plain' });
    const memo: ViewMemo = { entryCopies: new WeakMap() };
    const fresh = s.engine.project(w, { role: 'gm' });
    const byParts = s.engine.project(w, { role: 'gm' }, memo);
    for (const v of [fresh, byParts]) {
      expect(v.log.at(-2)).toEqual({ tx: -1, audience: { kind: 'all' }, kind: 'k', text: 'Ogre took 5 damage: 20 -> 15 HP.' });
      expect(v.log.at(-1)).toBe(w.log.at(-1));
    }
    const grown = appendLog(w, { audience: { kind: 'all' }, kind: 'k', text: 'later', shown: 'later, in players\' words' });
    const next = s.engine.project(grown, { role: 'gm' }, memo);
    expect(next.log.at(-3)).toBe(byParts.log.at(-2));
    expect(next.log.at(-1)).not.toHaveProperty('shown');
    // Players still read their sentence.
    expect(s.engine.project(grown, { role: 'spectator' }).log.at(-1)!.text).toBe("later, in players' words");
  });
});
