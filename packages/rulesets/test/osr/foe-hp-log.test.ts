// A foe's HP are the GM's (ADR 33): players read its damage and its fall in
// the log and in history, never its HP; a PC's line is the same for all.
import { describe, expect, it } from 'vitest';
import type { TableView, Viewer } from '@tablekeeper/engine';
import { osrTable } from './helpers.js';

const GM: Viewer = { role: 'gm' };
const lines = (v: TableView, kind: string): string[] => v.world.log.filter((e) => e.kind === kind).map((e) => e.text);
const events = (v: TableView, type: string) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === type);

describe("OSR: a foe's HP in log lines and history", () => {
  it('players read the damage and the fall; the GM reads the HP', () => {
    const t = osrTable();
    const seatId = t.seat('Ann');
    t.add('Ann', { maxHp: 9, hp: 9 }, 'pc', seatId);
    const tx = t.run({ type: 'character.add', name: 'Orc', kind: 'npc', visibility: 'visible', stats: { maxHp: 13, hp: 13 } });
    const orc = String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    t.run({ type: 'osr.damage', target: orc, amount: 5 });
    t.run({ type: 'osr.damage', target: orc, amount: 8 });
    const player = t.s.view({ role: 'player', seatId });
    const gm = t.s.view(GM);
    // One damage, one line: the amount and what it did (13 - 5 = 8, 8 - 8 = 0); no separate HP line.
    expect(lines(gm, 'osr.damageRolled')).toEqual(['Orc takes 5 damage: HP 13 → 8.', 'Orc takes 8 damage: HP 8 → 0.']);
    expect(lines(gm, 'osr.hpChanged')).toEqual([]);
    const seen = lines(player, 'osr.damageRolled');
    expect(seen).toEqual(['Orc takes 5 damage.', 'Orc takes 8 damage. Orc is down.']);
    expect(lines(player, 'osr.hpChanged')).toEqual([]);
    for (const l of seen) expect(l).not.toMatch(/13|→/);
    expect(events(gm, 'osr.hpChanged')[0]).toMatchObject({ from: 13, to: 8 });
    const ev = events(player, 'osr.hpChanged');
    expect(ev[0]).not.toHaveProperty('from');
    expect(ev[0]).not.toHaveProperty('to');
    expect(ev[0]).toMatchObject({ delta: -5 });
    expect(ev[1]).toMatchObject({ delta: -8, to: 0 });
  });

  it("a PC's line and event are the same for players and the GM", () => {
    const t = osrTable();
    const seatId = t.seat('Ann');
    const ann = t.add('Ann', { maxHp: 9, hp: 9 }, 'pc', seatId);
    t.run({ type: 'osr.damage', target: ann, amount: 4 });
    const player = t.s.view({ role: 'player', seatId });
    const gm = t.s.view(GM);
    expect(lines(player, 'osr.damageRolled')).toEqual(lines(gm, 'osr.damageRolled'));
    expect(lines(player, 'osr.damageRolled')).toEqual(['Ann takes 4 damage: HP 9 → 5.']);
    expect(events(player, 'osr.hpChanged')).toEqual(events(gm, 'osr.hpChanged'));
  });
});
