// A log entry may carry a `shown` sentence: non-GM viewers read it in place of
// `text` and never receive `shown` itself; the GM reads `text` (ADR 33) from
// the stored entries themselves (ADR 38: the GM's view passes the world through).
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

  it("the GM's view is the stored log itself, fresh and by parts (ADR 45 item 7 withdrawn, ADR 38); players read their sentence", () => {
    const s = scenario([]);
    const w = appendLog(appendLog(s.world, { audience: { kind: 'all' }, kind: 'k', text: 'Ogre took 5 damage: 20 -> 15 HP.', shown: 'Ogre took 5 damage.' }), { audience: { kind: 'all' }, kind: 'k', text: 'plain' });
    const memo: ViewMemo = { entryCopies: new WeakMap() };
    const fresh = s.engine.project(w, { role: 'gm' });
    const byParts = s.engine.project(w, { role: 'gm' }, memo);
    for (const v of [fresh, byParts]) {
      expect(v.log.at(-2)).toBe(w.log.at(-2));
      expect(v.log.at(-2)!.text).toBe('Ogre took 5 damage: 20 -> 15 HP.');
      expect(v.log.at(-1)).toBe(w.log.at(-1));
    }
    const grown = appendLog(w, { audience: { kind: 'all' }, kind: 'k', text: 'later', shown: 'later, in players\' words' });
    const next = s.engine.project(grown, { role: 'gm' }, memo);
    expect(next.log.at(-3)).toBe(byParts.log.at(-2));
    expect(next.log.at(-1)!.text).toBe('later');
    // Players read their sentence, and never the field itself.
    const spectator = s.engine.project(grown, { role: 'spectator' }).log.at(-1)!;
    expect(spectator.text).toBe("later, in players' words");
    expect(spectator).not.toHaveProperty('shown');
  });
});
