// teams.attackOdds through the engine: the GM's exact numbers (recomputed by
// hand from the dice), typed errors, and a player asking about a secret or
// hidden foe gets an error and never its evasion.
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import { attackOdds } from '../../src/teams/odds.js';
import { getTeams } from '../../src/teams/state.js';
import { boudica, enemy, sheetFor, shortbow, start, table } from './helpers.js';

const GM: Viewer = { role: 'gm' };

/** P(d6 + d6 + 1 >= 6) by counting the 36 faces. */
function twoD6Plus1AtLeast(n: number): number {
  let k = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b + 1 >= n) k++;
  return k / 36;
}

function played() {
  const t = table();
  t.s.run({ type: 'seat.add', name: 'Ann' });
  const seatId = Object.keys(t.s.world.seats)[0]!;
  t.s.run({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId });
  const ch = Object.keys(t.s.world.characters)[0]!;
  sheetFor(t.s, 'boudica', { ...boudica, characterId: ch, items: { ...boudica.items, bow: { name: 'bow', weapon: shortbow } } });
  sheetFor(t.s, 'foe', enemy());
  // Canary evasions: they must never reach the player.
  sheetFor(t.s, 'veiled', enemy({ name: 'Veiled', secret: true, evasion: 37 }));
  sheetFor(t.s, 'lurker', enemy({ name: 'Lurker', evasion: 41 }));
  start(t.s, {
    type: 'encounter.start',
    combatants: [
      { id: 'boudica', kind: 'pc', side: 'players', characterId: ch },
      { id: 'foe', kind: 'npc', side: 'foes' },
      { id: 'veiled', kind: 'npc', side: 'foes' },
      { id: 'lurker', kind: 'npc', side: 'foes', visibility: 'hidden' },
    ],
    params: { teamOrder: ['players', 'foes'] },
  });
  return { ...t, ann: { role: 'player', seatId } as Viewer };
}

describe('teams.attackOdds', () => {
  it('gives the GM Boudica\'s exact odds with the spear: 1/10 critical (19+ on the luck d20), 0.1 + 0.9 x 30/36 hits', () => {
    const { s } = played();
    const r = s.engine.query(s.table, GM, 'teams.attackOdds', { attacker: 'boudica', target: 'foe', weapon: 'spear', attribute: 'strength' });
    expect(r).toMatchObject({ ok: true, value: { weapon: 'spear', attribute: 'strength', evasion: 6, criticalThreshold: 19, advantage: 0, penalty: 0, ranged: false } });
    const o = (r as unknown as { value: { hit: number; critical: number; miss: number; astray: number } }).value;
    expect(o.critical).toBeCloseTo(2 / 20, 12);
    expect(o.hit).toBeCloseTo(2 / 20 + (18 / 20) * twoD6Plus1AtLeast(6), 12);
    expect(o.hit).toBeCloseTo(0.85, 12);
    expect(o.astray).toBe(0);
    expect(o.miss).toBeCloseTo(0.15, 12);
  });

  it('matches attackOdds for a sneak attack and a shot beside someone (astray on a luck 1)', () => {
    const { s } = played();
    const sneak = s.engine.query(s.table, GM, 'teams.attackOdds', { attacker: 'boudica', target: 'foe', weapon: 'spear', sneak: true });
    const direct = attackOdds(s.world, { attacker: 'boudica', target: 'foe', weapon: 'spear', sneak: true, flank: false, nearby: [], bonus: 0, await: false });
    expect(sneak).toMatchObject({ ok: true, value: { advantage: 1, hit: (direct as { hit: number }).hit } });
    const shot = s.engine.query(s.table, GM, 'teams.attackOdds', { attacker: 'boudica', target: 'foe', weapon: 'bow', nearby: ['veiled'] });
    expect(shot).toMatchObject({ ok: true, value: { ranged: true, astray: expect.closeTo(1 / 20, 12) as unknown as number } });
  });

  it('refuses bad arguments with typed errors and a path', () => {
    const { s } = played();
    const ask = (args: { [k: string]: Json }) => s.engine.query(s.table, GM, 'teams.attackOdds', args);
    expect(ask({ target: 'foe', weapon: 'spear' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'attackerId' } });
    expect(ask({ attacker: 'boudica', target: 'foe' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'weapon' } });
    expect(ask({ attacker: 'boudica', target: 'foe', weapon: 'spear', bonus: 'lots' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'bonus' } });
    expect(ask({ attacker: 'boudica', target: 'foe', weapon: 'spear', sneak: 'yes' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'sneak' } });
    expect(ask({ attacker: 'boudica', target: 'foe', weapon: 'shield' })).toMatchObject({ ok: false, error: { code: 'NOT_A_WEAPON', path: 'weapon' } });
    expect(ask({ attacker: 'boudica', target: 'foe', weapon: 'spear', attribute: 'charm' })).toMatchObject({ ok: false, error: { code: 'BAD_ATTRIBUTE', path: 'attribute' } });
    expect(ask({ attacker: 'boudica', target: 'nobody', weapon: 'spear' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
    expect(ask({ attacker: 'boudica', target: 'boudica', weapon: 'spear' })).toMatchObject({ ok: false, error: { code: 'BAD_TARGET' } });
  });

  it("a player: the visible foe's Evasion is the GM's until defences are revealed (ADR 33), then its odds are the GM's", () => {
    const { s, ann } = played();
    const ask = (v: Viewer, target: string) => s.engine.query(s.table, v, 'teams.attackOdds', { attacker: 'boudica', target, weapon: 'spear' });
    const refused = ask(ann, 'foe');
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'target' } });
    expect(JSON.stringify(refused)).not.toMatch(/\b6\b/);
    // The foe's own attack needs its weapon and dice: refused until the table shows every number.
    expect(s.engine.query(s.table, ann, 'teams.attackOdds', { attacker: 'foe', target: 'boudica', weapon: 'spear' })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(ask(ann, 'foe')).toEqual(ask(GM, 'foe'));
    const sheet = (getTeams(s.view(ann).world).sheets as unknown as { [k: string]: { [k: string]: Json } })['foe']!;
    expect(sheet).toMatchObject({ name: 'Enemy', evasion: 6, deflection: { physical: 8, elemental: 0 } });
    for (const k of ['endurance', 'health', 'maxHealth', 'constitution', 'luck']) expect(sheet).not.toHaveProperty(k);
    expect(sheet['items']).toEqual({});
  });

  it('a player: a secret foe is an error; a hidden one has no sheet; no evasion leaks', () => {
    const { s, ann } = played();
    const ask = (v: Viewer, target: string) => s.engine.query(s.table, v, 'teams.attackOdds', { attacker: 'boudica', target, weapon: 'spear' });
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(ask(GM, 'veiled')).toMatchObject({ ok: true, value: { evasion: 37 } });
    expect(ask(GM, 'lurker')).toMatchObject({ ok: true, value: { evasion: 41 } });
    const veiled = ask(ann, 'veiled');
    expect(veiled).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'target' } });
    const lurker = ask(ann, 'lurker');
    expect(lurker).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
    // The same answer as for an id that never existed: not even whether the lurker is there.
    expect(JSON.stringify(lurker).replace('lurker', 'nobody')).toBe(JSON.stringify(ask(ann, 'nobody')));
    for (const r of [veiled, lurker]) {
      expect(JSON.stringify(r)).not.toContain('37');
      expect(JSON.stringify(r)).not.toContain('41');
      expect(JSON.stringify(r)).not.toContain('Lurker');
    }
    // A spectator may ask only the status queries (ADR 39): refused before the target is read, so nothing leaks.
    const spectator = ask({ role: 'spectator' }, 'veiled');
    expect(spectator).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', path: 'name' } });
    expect(JSON.stringify(spectator)).not.toContain('veiled');
  });
});
