// A history entry as a player reads it: the events they may read, in order, and nothing else, whether the
// transaction has few events (the readable ones kept as bits of a number) or more than thirty (kept as flags);
// an entry whose events are all readable and unchanged reads exactly as the GM's; the history basis names each
// module's key once, in module order (issue 19 made these without per-viewer arrays or sets).
import { describe, expect, it } from 'vitest';
import { coreModule, createEngine, scenario, type Module, type Viewer } from '../../src/core/index.js';

const GM: Viewer = { role: 'gm' };

/** A table with one seat and a batch of `n` notes, every third of them (the 3rd, 6th...) for the GM alone. */
function batchOfNotes(n: number) {
  const s = scenario([]);
  s.run({ type: 'seat.add', name: 'Ann' });
  const seatId = Object.keys(s.world.seats)[0]!;
  const commands = Array.from({ length: n }, (_, i) => ({ type: 'log.note', text: `note ${i + 1}`, ...((i + 1) % 3 === 0 ? { audience: { kind: 'gm' } } : {}) }));
  s.run({ type: 'history.batch', commands });
  return { s, player: { role: 'player', seatId } as Viewer };
}

describe('a player\'s history entry', () => {
  for (const n of [2, 29, 30, 31, 45, 100]) {
    it(`of a batch of ${n} notes holds exactly the public ones, in order`, () => {
      const { s, player } = batchOfNotes(n);
      const entry = s.view(player).history.at(-1)!;
      const publicTexts = Array.from({ length: n }, (_, i) => i + 1)
        .filter((k) => k % 3 !== 0)
        .map((k) => `note ${k}`);
      expect(entry.events.map((e) => e['text'])).toEqual(publicTexts);
      // Shown only in part (a third note onwards), another's command reads as a redacted label; shown whole, as the GM's.
      expect(entry.label).toBe(n >= 3 ? 'an action by the GM' : s.view(GM).history.at(-1)!.label);
      expect(entry.command).toBeUndefined();
      // The GM reads every event.
      expect(s.view(GM).history.at(-1)!.events).toHaveLength(n);
    });
  }

  it('of a command whose events are all public reads as the GM\'s, less the command', () => {
    const { s, player } = batchOfNotes(2);
    s.run({ type: 'log.note', text: 'the door creaks' });
    const mine = s.view(player).history.at(-1)!;
    const gms = s.view(GM).history.at(-1)!;
    expect(mine.events).toEqual(gms.events);
    expect(mine.label).toBe(gms.label);
    expect(mine.command).toBeUndefined();
    expect(gms.command).toEqual({ type: 'log.note', text: 'the door creaks' });
  });

  it('of a GM-only note is left out, and two players in turn read the same entries', () => {
    const { s, player } = batchOfNotes(2);
    const other: Viewer = { role: 'spectator' };
    s.run({ type: 'log.note', text: 'the trap is armed', audience: { kind: 'gm' } });
    s.run({ type: 'log.note', text: 'a cold wind' });
    // The seat's addition first, then the batch and the two notes.
    const seen = (v: Viewer) => s.view(v).history.slice(1).map((h) => h.events.map((e) => e['text']));
    expect(seen(player)).toEqual([['note 1', 'note 2'], ['a cold wind']]);
    expect(seen(other)).toEqual(seen(player));
    expect(seen(GM)).toEqual([['note 1', 'note 2'], ['the trap is armed'], ['a cold wind']]);
  });
});

describe('the history basis', () => {
  /** A module that rewrites no event but says what its event views read (`basis`, or nothing: then a fresh key per world). */
  const viewing = (id: string, basis?: string): Module => ({ id, eventView: {}, ...(basis === undefined ? {} : { eventViewBasis: () => basis }) });

  it('names each distinct key once, in module order; none without event views', () => {
    const table = (mods: Module[]) => {
      const e = createEngine([coreModule, ...mods]);
      return { e, world: e.createTable({ tableId: 't', name: 't', rulesetId: 'test' }).genesis };
    };
    const none = table([]);
    expect(none.e.historyBasis(none.world)).toBe('');
    const one = table([viewing('a', 'x')]);
    expect(one.e.historyBasis(one.world)).toBe('x');
    const three = table([viewing('a', 'x'), viewing('b', 'y'), viewing('c', 'x'), viewing('d', 'z'), viewing('e', 'y')]);
    expect(three.e.historyBasis(three.world)).toBe('x\ny\nz');
  });

  it('is a new key for each world when a module does not declare what it reads, and the same for one world', () => {
    const e = createEngine([coreModule, viewing('a', 'x'), viewing('b')]);
    const w1 = e.createTable({ tableId: 't', name: 't', rulesetId: 'test' }).genesis;
    const w2 = { ...w1 };
    expect(e.historyBasis(w1)).toBe(e.historyBasis(w1));
    expect(e.historyBasis(w1)).not.toBe(e.historyBasis(w2));
    expect(e.historyBasis(w1).startsWith('x\n')).toBe(true);
  });
});
