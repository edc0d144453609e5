// A foe's resources (health, vitality...) are the GM's (ADR 33): players read
// that they changed, and a fall to 0, in the log and in history; a PC's line
// is the same for all.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type TableView, type Viewer } from '@tablekeeper/engine';
import { ruleset } from '../../src/kleptonomicon/index.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };
const lines = (v: TableView): string[] => v.world.log.filter((e) => e.kind === 'kleptonomicon.resource').map((e) => e.text);
const events = (v: TableView) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === 'kleptonomicon.resourceSet');

function table() {
  const s = scenario(ruleset.modules, { rng: seededRng(7), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  const add = (name: string, kind: 'pc' | 'npc'): string => {
    const tx = s.run({ type: 'character.add', name, kind, visibility: 'visible' });
    return String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
  };
  return { s, alice: add('Alice', 'pc'), goon: add('Goon', 'npc') };
}

describe("Kleptonomicon: a foe's resources in log lines and history", () => {
  it('players read that a foe\'s health changed and its fall; the GM reads the numbers', () => {
    const { s, goon } = table();
    s.run({ type: 'kleptonomicon.setResource', characterId: goon, key: 'health', value: 7, max: 13 });
    s.run({ type: 'kleptonomicon.setResource', characterId: goon, key: 'health', value: 0 });
    const gm = s.view(GM);
    const seen = s.view(PLAYER);
    expect(lines(gm)[0]).toBe('Goon: health 7/13.');
    expect(lines(seen)).toEqual(["Goon's health changed.", "Goon's health changed to 0."]);
    expect(events(gm)[0]).toMatchObject({ value: 7, max: 13 });
    const ev = events(seen);
    expect(ev).toHaveLength(2);
    for (const k of ['from', 'value', 'max']) expect(ev[0]).not.toHaveProperty(k);
    expect(ev[1]).toMatchObject({ value: 0 });
    expect(ev[1]).not.toHaveProperty('max');
  });

  it("a PC's line and event are the same for players and the GM", () => {
    const { s, alice } = table();
    s.run({ type: 'kleptonomicon.setResource', characterId: alice, key: 'health', value: 7, max: 13 });
    const gm = s.view(GM);
    const seen = s.view(PLAYER);
    expect(lines(seen)).toEqual(['Alice: health 7/13.']);
    expect(lines(seen)).toEqual(lines(gm));
    expect(events(seen)).toEqual(events(gm));
  });
});
