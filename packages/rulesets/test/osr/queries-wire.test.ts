// osr.attackOdds and osr.characterStatus through the engine: the GM's exact
// numbers (recomputed by hand on the d20), typed errors, and a player asking
// about a character whose values they may not read gets an error, never its AC.
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import { attackOddsAt, characterStatus } from '../../src/osr/queries.js';
import { osrTable } from './helpers.js';

const GM: Viewer = { role: 'gm' };

function setup() {
  const t = osrTable();
  const seatId = t.seat('Ann');
  const pc = t.add('Brannoc', { str: 14, dex: 10, level: 1, maxHp: 8 }, 'pc', seatId);
  const orc = t.add('Orc', { ac: 15, maxHp: 6 }, 'npc');
  // NPCs show players their name only until the GM shows them in full.
  t.run({ type: 'character.update', id: orc, visibility: 'visible' });
  // Canary ACs: they must never reach the player.
  const veiled = t.add('Veiled', { ac: 37, maxHp: 6 }, 'npc');
  t.run({ type: 'character.update', id: veiled, visibility: 'existence' });
  const lurker = t.add('Lurker', { ac: 41, maxHp: 6 }, 'npc');
  t.run({ type: 'character.update', id: lurker, visibility: 'hidden' });
  return { t, pc, orc, veiled, lurker, ann: { role: 'player', seatId } as Viewer };
}

describe('osr.attackOdds', () => {
  it('gives the GM the exact chances: +2 STR +2 proficiency vs AC 15 hits on 11+ (10/20), crits on 20 (1/20)', () => {
    const { t, pc, orc } = setup();
    const r = t.s.engine.query(t.s.table, GM, 'osr.attackOdds', { attacker: pc, target: orc, proficient: true, damage: '1d8' });
    expect(r).toMatchObject({ ok: true, value: { modifier: 4, ac: 15, advantage: 0, kind: 'melee', delivery: 'melee', range: 'close' } });
    const o = (r as unknown as { value: { hit: number; crit: number; expectedDamage: number } }).value;
    expect(o.hit).toBeCloseTo(10 / 20, 12);
    expect(o.crit).toBeCloseTo(1 / 20, 12);
    // 1d8 + 2 STR averages 6.5; hits 9/20 at 6.5, the crit doubles: 9/20 x 6.5 + 1/20 x 13 = 3.575.
    expect(o.expectedDamage).toBeCloseTo((9 / 20) * 6.5 + (1 / 20) * 13, 12);
    expect(r).toEqual({ ok: true, value: { ...attackOddsAt(t.world, { attacker: pc, target: orc, proficient: true, damage: { count: 1, sides: 8, bonus: 0 } }), kind: 'melee', delivery: 'melee', range: 'close' } });
  });

  it('a shot at close range is at disadvantage, as the command rolls it: (6/20)^2 to meet AC 15 with +0', () => {
    const { t, pc, orc } = setup();
    const r = t.s.engine.query(t.s.table, GM, 'osr.attackOdds', { attacker: pc, target: orc, kind: 'ranged', range: 'close' });
    expect(r).toMatchObject({ ok: true, value: { advantage: -1, modifier: 0, delivery: 'ranged' } });
    expect((r as unknown as { value: { hit: number } }).value.hit).toBeCloseTo((6 / 20) ** 2, 12);
    const far = t.s.engine.query(t.s.table, GM, 'osr.attackOdds', { attacker: pc, target: orc, kind: 'ranged' });
    expect((far as unknown as { value: { hit: number } }).value.hit).toBeCloseTo(6 / 20, 12);
  });

  it('refuses bad arguments with typed errors and a path', () => {
    const { t, pc, orc } = setup();
    const ask = (args: { [k: string]: Json }) => t.s.engine.query(t.s.table, GM, 'osr.attackOdds', args);
    expect(ask({ target: orc })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'attackerId' } });
    expect(ask({ attacker: pc, target: 'nobody' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
    expect(ask({ attacker: pc, target: pc })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'target' } });
    expect(ask({ attacker: pc, target: orc, kind: 'psychic' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'kind' } });
    expect(ask({ attacker: pc, target: orc, range: 'far' })).toMatchObject({ ok: false, error: { code: 'OUT_OF_RANGE', path: 'range' } });
    expect(ask({ attacker: pc, target: orc, range: 'ranged' })).toMatchObject({ ok: false, error: { code: 'OUT_OF_RANGE', path: 'range' } });
    expect(ask({ attacker: pc, target: orc, damage: 'lots' })).toMatchObject({ ok: false, error: { path: 'damage' } });
    expect(ask({ attacker: pc, target: orc, advantage: -11 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'advantage' } });
    expect(ask({ attacker: pc, target: orc, longRange: true })).toMatchObject({ ok: false, error: { code: 'OUT_OF_RANGE', path: 'longRange' } });
    // In stealth (a natural 20 on the hide check), the orc cannot be targeted, as osr.attack says.
    t.dice.queue(20);
    t.run({ type: 'osr.hide', character: orc });
    expect(ask({ attacker: pc, target: orc })).toMatchObject({ ok: false, error: { code: 'TARGET_HIDDEN', path: 'target' } });
  });

  it("a player: the visible orc's AC is the GM's until revealed (ADR 33); a name-only or hidden character is an error and its AC never leaks", () => {
    const { t, pc, orc, veiled, lurker, ann } = setup();
    const ask = (v: Viewer, target: string) => t.s.engine.query(t.s.table, v, 'osr.attackOdds', { attacker: pc, target, proficient: true });
    expect(ask(GM, orc)).toMatchObject({ ok: true, value: { ac: 15 } });
    expect(ask(ann, orc)).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'target' } });
    expect(JSON.stringify(ask(ann, orc))).not.toMatch(/15/);
    expect(ask(GM, veiled)).toMatchObject({ ok: true, value: { ac: 37 } });
    expect(ask(GM, lurker)).toMatchObject({ ok: true, value: { ac: 41 } });
    const v = ask(ann, veiled);
    expect(v).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'target' } });
    const l = ask(ann, lurker);
    expect(JSON.stringify(l).replace(lurker, 'nobody')).toBe(JSON.stringify(ask(ann, 'nobody')));
    for (const r of [v, l, ask({ role: 'spectator' }, veiled)]) {
      expect(r.ok).toBe(false);
      expect(JSON.stringify(r)).not.toMatch(/37|41|Lurker/);
    }
  });
});

describe('osr.characterStatus', () => {
  it('answers the GM with characterStatus, a player for visible characters only', () => {
    const { t, pc, veiled, ann } = setup();
    expect(t.s.engine.query(t.s.table, GM, 'osr.characterStatus', { characterId: pc })).toEqual({ ok: true, value: characterStatus(t.world, pc) });
    // The old field name (`id`, before docs/vocabulary.md named its kind) still reads, and errors name it as sent.
    expect(t.s.engine.query(t.s.table, GM, 'osr.characterStatus', { id: pc })).toEqual({ ok: true, value: characterStatus(t.world, pc) });
    expect(t.s.engine.query(t.s.table, ann, 'osr.characterStatus', { characterId: pc })).toMatchObject({ ok: true, value: { hp: 8, maxHp: 8, modifiers: { str: 2 } } });
    expect(t.s.engine.query(t.s.table, ann, 'osr.characterStatus', { id: veiled })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'id' } });
    expect(t.s.engine.query(t.s.table, ann, 'osr.characterStatus', { characterId: veiled })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'characterId' } });
    expect(t.s.engine.query(t.s.table, GM, 'osr.characterStatus', {})).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'characterId' } });
  });
});
