// A foe's HP are the GM's (ADR 33): players read its damage and its fall in
// the log and in history, never its HP; a PC's line is the same for all.
import { describe, expect, it } from 'vitest';
import type { TableView, Viewer } from '@tablekeeper/engine';
import { fight } from './setup.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };

const lines = (v: TableView, kind: string): string[] => v.world.log.filter((e) => e.kind === kind).map((e) => e.text);
const events = (v: TableView, type: string) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === type);

describe("36th Way: a foe's HP in log lines and history", () => {
  it('players read the damage and the fall; the GM reads the HP', () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    t.s.run({ type: '36th-way.damage', targetId: 'orc', amount: 5 });
    t.s.run({ type: '36th-way.damage', targetId: 'orc', amount: 15 });
    const gm = t.s.view(GM);
    const player = t.s.view(PLAYER);
    expect(lines(gm, '36th-way.damaged')[0]).toContain('20 -> 15 HP');
    expect(lines(player, '36th-way.damaged')).toEqual(['Orc took 5 damage.', 'Orc took 15 damage. Orc is down.']);
    expect(player.world.log.some((e) => 'shown' in e)).toBe(false);
    expect(events(gm, '36th-way.damaged')[0]).toMatchObject({ hpFrom: 20, hpTo: 15 });
    const seen = events(player, '36th-way.damaged');
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toHaveProperty('hpFrom');
    expect(seen[0]).not.toHaveProperty('hpTo');
    expect(seen[0]).toMatchObject({ amount: 5 });
    expect(seen[1]).toMatchObject({ amount: 15, hpTo: 0 });
    expect(seen[1]).not.toHaveProperty('hpFrom');
  });

  it("a foe's healing hides its HP from players", () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    t.s.run({ type: '36th-way.damage', targetId: 'orc', amount: 5 });
    t.dice.push(2, 2);
    t.s.run({ type: '36th-way.heal', characterId: 'orc', how: 'npc' });
    const player = t.s.view(PLAYER);
    const text = lines(player, '36th-way.healed').join(' ');
    expect(text).not.toMatch(/now \d+ HP/);
    expect(lines(t.s.view(GM), '36th-way.healed').join(' ')).toMatch(/now \d+ HP/);
    for (const e of events(player, '36th-way.healed')) expect(e).not.toHaveProperty('hpFrom');
  });

  it("a PC's line and event are the same for players and the GM", () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    t.s.run({ type: '36th-way.damage', targetId: 'ann', amount: 4 });
    const gm = t.s.view(GM);
    const player = t.s.view(PLAYER);
    expect(lines(player, '36th-way.damaged')).toEqual(lines(gm, '36th-way.damaged'));
    expect(lines(player, '36th-way.damaged')[0]).toContain('30 -> 26 HP');
    expect(events(player, '36th-way.damaged')).toEqual(events(gm, '36th-way.damaged'));
  });
});
