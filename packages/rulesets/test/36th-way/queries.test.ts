// 36th-way.attackOdds through the engine: the GM's exact numbers (recomputed by
// counting the 216 faces of 3d6), typed errors, and a player who asks about a
// hidden foe gets the same "no sheet" as for a made-up id, never its defences.
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import { attackOddsFor, rollOdds } from '../../src/36th-way/odds.js';
import { ANN, fight, ORC, table, tsw } from './setup.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };

/** Chance that a plain 3d6 (no Advantage) shows a natural in `ok`, by counting faces. */
function count3d6(ok: (natural: number) => boolean): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (ok(a + b + c)) n++;
  return n / 216;
}

const cond = (target: string, condition: string) => ({ type: 'condition.apply', target, condition, duration: { kind: 'saveEnds' } }) as unknown as { type: string; [k: string]: Json };

describe('36th-way.attackOdds', () => {
  it('gives the GM the exact hit, crit and crit-fail chances (3d6 + Level + Volition + bonus vs the chosen defence)', () => {
    const t = fight();
    const r = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'orc' });
    expect(r.ok).toBe(true);
    const o = (r as unknown as { value: { [k: string]: Json } }).value;
    // Ann +4 (level 1, volition 3) vs the Orc's AC 14: natural 10+ hits, 17+ crits, 3 is a crit fail.
    expect(o['needed']).toBe(10);
    expect(o['hit']).toBeCloseTo(count3d6((n) => n >= 10), 12);
    expect(o['crit']).toBeCloseTo(count3d6((n) => n >= 17), 12);
    expect(o['critFail']).toBeCloseTo(count3d6((n) => n === 3), 12);
    expect(o['miss']).toBeCloseTo(1 - count3d6((n) => n >= 10), 12);
    expect(o).toMatchObject({ defense: 'ac', defenseValue: 14, bonus: 4, net: 0, critAt: 17, invisibleSave: null });

    // Against PD 13 with +2: needs natural 7+ (13 - 6).
    const pd = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', targets: ['orc'], defense: 'pd', bonus: 2 });
    expect(pd).toMatchObject({ ok: true, value: { needed: 7, defenseValue: 13, bonus: 6 } });
    expect((pd as unknown as { value: { hit: number } }).value.hit).toBeCloseTo(count3d6((n) => n >= 7), 12);
  });

  it('counts Advantage and the escalation die as attackOddsFor does, and the command then rolls those same numbers', () => {
    const t = fight();
    t.s.run(cond('orc', 'stunned'));
    t.s.run(cond('orc', 'vulnerable'));
    const r = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'orc', advantage: 1 });
    const direct = attackOddsFor(tsw.kit, t.world, { attacker: 'ann', target: 'orc', advantage: 1 })!;
    expect(r).toMatchObject({ ok: true, value: { net: 2, critAt: 16 } });
    const o = (r as unknown as { value: { hit: number; crit: number } }).value;
    expect(o.hit).toBe(direct.hit);
    expect(o.crit).toBe(direct.crit);
    // The command's own roll carries the same net Advantage (4d6 + 1 situational: five dice kept three).
    t.dice.push(6, 6, 6, 1, 1, 8);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', advantage: 1 });
    const rolled = (tx as unknown as { events: { type: string; roll?: { net?: number } }[] }).events.find((e) => e.type === '36th-way.attackRolled');
    expect(rolled?.roll?.net).toBe(2);
  });

  it('an Invisible target: the attacker\'s 11+ save scales the hit and crit chances', () => {
    const t = fight();
    t.s.run(cond('orc', 'invisible'));
    const r = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'orc' });
    const found = count3d6((n) => n >= 11);
    expect(rollOdds(0, 11)).toBeCloseTo(found, 12);
    expect(r).toMatchObject({ ok: true, value: { invisibleSave: expect.closeTo(found, 12) as unknown as number } });
    expect((r as unknown as { value: { hit: number } }).value.hit).toBeCloseTo(found * count3d6((n) => n >= 10), 12);
  });

  it('a coup de grace always crits', () => {
    const t = fight();
    expect(t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'orc', coupDeGrace: true })).toMatchObject({ ok: true, value: { hit: 1, crit: 1, critFail: 0, miss: 0 } });
  });

  it('refuses bad arguments with typed errors and a path', () => {
    const t = fight();
    const ask = (args: { [k: string]: Json }) => t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', args);
    expect(ask({ target: 'orc' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'attackerId' } });
    expect(ask({ attacker: 'ann' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'targetId' } });
    expect(ask({ attacker: 'ann', target: 'ann' })).toMatchObject({ ok: false, error: { code: 'BAD_TARGET', path: 'target' } });
    expect(ask({ attacker: 'ann', target: 'orc', defense: 'hp' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'defense' } });
    expect(ask({ attacker: 'ann', target: 'orc', types: ['cheese'] })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'types.0' } });
    expect(ask({ attacker: 'ann', target: 'orc', bonus: 1.5 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'bonus' } });
    expect(ask({ attacker: 'ann', target: 'orc', advantage: 7 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'advantage' } });
    expect(ask({ attacker: 'ann', target: 'orc', ability: 'nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'ability' } });
    expect(ask({ attacker: 'ann', target: 'ghost' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
  });

  it('a player asking about a hidden foe gets "no sheet", as for a made-up id, and never its defences', () => {
    const t = table();
    t.s.run({ type: 'seat.add', name: 'Ann\'s player' });
    t.s.run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: 'seat-1' });
    const annChar = Object.keys(t.world.characters)[0]!;
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, characterId: annChar } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC } as unknown as Json });
    // The lurker's defences are canaries: they must never reach the player.
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'lurker', name: 'Lurker', ac: 37, pd: 41, md: 43 } as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast', characterId: annChar },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
        { id: 'lurker', name: 'Lurker', kind: 'npc', side: 'foes', band: 'slow', visibility: 'hidden' },
      ],
    });
    const gm = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'lurker' });
    expect(gm).toMatchObject({ ok: true, value: { defenseValue: 37 } });
    // The visible Orc: its defences are the GM's until revealed (ADR 33), and the refusal names no number.
    const secret = t.s.engine.query(t.s.table, PLAYER, '36th-way.attackOdds', { attacker: 'ann', target: 'orc' });
    expect(secret).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
    for (const n of ['14', '13', '10']) expect(JSON.stringify(secret)).not.toContain(n);
    for (const defense of ['ac', 'pd', 'md']) {
      const hidden = t.s.engine.query(t.s.table, PLAYER, '36th-way.attackOdds', { attacker: 'ann', target: 'lurker', defense });
      const madeUp = t.s.engine.query(t.s.table, PLAYER, '36th-way.attackOdds', { attacker: 'ann', target: 'nobody', defense });
      expect(hidden).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
      expect(JSON.stringify(hidden).replace('lurker', 'nobody')).toBe(JSON.stringify(madeUp));
      for (const canary of ['37', '41', '43']) expect(JSON.stringify(hidden)).not.toContain(canary);
    }
    // Revealed in the fight, it is a visible foe: its defences stay secret until the GM reveals defences, then the player gets the GM's own answer.
    t.s.run({ type: 'encounter.reveal', id: 'lurker' });
    expect(t.s.engine.query(t.s.table, PLAYER, '36th-way.attackOdds', { attacker: 'ann', target: 'lurker' })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
    t.s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(t.s.engine.query(t.s.table, PLAYER, '36th-way.attackOdds', { attacker: 'ann', target: 'lurker' })).toMatchObject({ ok: true, value: { defenseValue: 37 } });
    const seen = t.s.engine.query(t.s.table, PLAYER, '36th-way.attackOdds', { attacker: 'ann', target: 'orc' });
    expect(seen).toEqual(t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'orc' }));
  });
});
