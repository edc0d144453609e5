// A foe's sheet is the GM's (ADR 33, issue 15): players read who it is and
// whether it is out, its defences once the GM reveals them, and every number
// only when the table shows them all. A PC's sheet stays whole.
import { describe, expect, it } from 'vitest';
import type { Json, TableView, Viewer } from '@tablekeeper/engine';
import { getTsw } from '../../src/36th-way/state.js';
import { fight } from './setup.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };
const SPECTATOR: Viewer = { role: 'spectator' };

const sheetIn = (v: TableView, id: string): { readonly [k: string]: Json } => getTsw(v.world).sheets[id] as unknown as { readonly [k: string]: Json };
const lines = (v: TableView, kind: string): string[] => v.world.log.filter((e) => e.kind === kind).map((e) => e.text);
const events = (v: TableView, type: string) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === type);

describe("36th Way: a foe's sheet reaches players by declared fields only", () => {
  it("players and spectators read the Orc's name and state, not its AC 14, PD 13, MD 10, level or HP; Ann's sheet is whole", () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    for (const viewer of [PLAYER, SPECTATOR]) {
      const v = t.s.view(viewer);
      const orc = sheetIn(v, 'orc');
      expect(orc).toMatchObject({ id: 'orc', name: 'Orc', kind: 'npc', dead: false, unconscious: false });
      for (const k of ['ac', 'pd', 'md', 'hp', 'maxHp', 'level', 'volition', 'recoveries']) expect(orc).not.toHaveProperty(k);
      expect(orc['abilities']).toEqual({});
      expect(sheetIn(v, 'ann')).toEqual(sheetIn(t.s.view(GM), 'ann'));
    }
    expect(sheetIn(t.s.view(GM), 'orc')).toMatchObject({ ac: 14, pd: 13, md: 10, hp: 20, level: 2 });
  });

  it('a fallen foe shows players hp 0 (the table sees the fall), never its maximum', () => {
    const t = fight();
    t.s.run({ type: '36th-way.damage', targetId: 'orc', amount: 25 });
    const orc = sheetIn(t.s.view(PLAYER), 'orc');
    expect(orc['hp']).toBe(0);
    expect(orc).not.toHaveProperty('maxHp');
  });

  it("the GM's reveal: defences shows AC, PD and MD (not HP); all shows the GM's sheet; only the GM may choose", () => {
    const t = fight();
    expect(t.s.fail({ type: 'foes.reveal', reveal: 'all' }, PLAYER).code).toBe('FORBIDDEN');
    t.s.run({ type: 'foes.reveal', reveal: 'defences' });
    const orc = sheetIn(t.s.view(PLAYER), 'orc');
    expect(orc).toMatchObject({ ac: 14, pd: 13, md: 10 });
    expect(orc).not.toHaveProperty('hp');
    expect(lines(t.s.view(PLAYER), 'foes.revealed')).toEqual(["The GM shows players foes' defences."]);
    t.s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(sheetIn(t.s.view(PLAYER), 'orc')).toEqual(sheetIn(t.s.view(GM), 'orc'));
    // Choosing what the table already shows is a clear error, not a silent event.
    expect(t.s.fail({ type: 'foes.reveal', reveal: 'all' }).code).toBe('INVALID_VALUE');
    t.s.undo();
    t.s.undo();
    expect(sheetIn(t.s.view(PLAYER), 'orc')).not.toHaveProperty('ac');
  });

  it("Ann's attack line and event name the Orc's AC to the GM only, until defences are revealed (natural 15 + 1 + 3 = 19 vs AC 14: hit)", () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    t.dice.push(5, 5, 5, 6);
    t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], basic: 'melee' });
    expect(lines(t.s.view(GM), '36th-way.attack')).toEqual(['Ann attacked Orc (AC 14): natural 15, total 19; hit.']);
    expect(lines(t.s.view(PLAYER), '36th-way.attack')).toEqual(['Ann attacked Orc (AC): natural 15, total 19; hit.']);
    const [seen] = events(t.s.view(PLAYER), '36th-way.attackRolled');
    expect(seen).toMatchObject({ total: 19, hit: true });
    for (const k of ['defenseValue', 'weak', 'critAt']) expect(seen).not.toHaveProperty(k);
    expect(events(t.s.view(GM), '36th-way.attackRolled')[0]).toMatchObject({ defenseValue: 14 });
    // Revealed later: the event shows its number; a line written before stays as it was written.
    t.s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(events(t.s.view(PLAYER), '36th-way.attackRolled')[0]).toMatchObject({ defenseValue: 14 });
    expect(lines(t.s.view(PLAYER), '36th-way.attack')).toEqual(['Ann attacked Orc (AC): natural 15, total 19; hit.']);
    // A line written while defences are shown is the same for everyone.
    const t2 = fight();
    t2.s.run({ type: 'seat.add', name: 'Ann' });
    t2.s.run({ type: 'foes.reveal', reveal: 'defences' });
    t2.dice.push(5, 5, 5, 6);
    t2.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], basic: 'melee' });
    expect(lines(t2.s.view(PLAYER), '36th-way.attack')).toEqual(['Ann attacked Orc (AC 14): natural 15, total 19; hit.']);
  });

  it("the Orc's sheet in history (36th-way.sheetSet, once it is in a fight) carries its declared fields only", () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', level: 3, ac: 16, pd: 14, md: 11, maxHp: 30 } });
    const set = events(t.s.view(PLAYER), '36th-way.sheetSet').map((e) => e['sheet'] as { readonly [k: string]: Json });
    expect(set.length).toBeGreaterThan(0);
    for (const sh of set.filter((x) => x['id'] === 'orc')) for (const k of ['ac', 'pd', 'md', 'maxHp', 'level']) expect(sh).not.toHaveProperty(k);
    expect(set.filter((x) => x['id'] === 'orc').length).toBeGreaterThan(0);
    const gm = events(t.s.view(GM), '36th-way.sheetSet').map((e) => e['sheet'] as { readonly [k: string]: Json });
    expect(gm.filter((x) => x['id'] === 'orc').at(-1)).toMatchObject({ ac: 16, pd: 14, md: 11, maxHp: 30 });
  });
});
