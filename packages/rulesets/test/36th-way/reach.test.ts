// Issue 20: 36th Way rules the engine knew but the screen could not reach (review 11 #3). Skill checks, Dicey
// Moves, granting a Last Gasp save, starting Last Gasp saves and fleeing are actions in the actor's list, with
// exact odds before the roll (recomputed here by counting dice faces) and the commands they send.
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { ANN, events, ORC, table, type T } from './setup.js';

const GM: Viewer = { role: 'gm' };

/** Chance that 3d6 with `net` Advantage (+: roll 3+net d6, keep the highest 3) shows a natural in `ok`, by counting faces. */
function count(net: number, ok: (natural: number) => boolean): number {
  const n = 3 + Math.abs(net);
  let hits = 0;
  let all = 0;
  const faces: number[] = [];
  const walk = (i: number): void => {
    if (i === n) {
      const kept = [...faces].sort((x, y) => (net >= 0 ? y - x : x - y)).slice(0, 3);
      all++;
      if (ok(kept[0]! + kept[1]! + kept[2]!)) hits++;
      return;
    }
    for (let f = 1; f <= 6; f++) {
      faces[i] = f;
      walk(i + 1);
    }
  };
  walk(0);
  return hits / all;
}

/** Ann and Bob (PCs) against an Orc, Ann engaged with it; Ann's turn. */
function party(seated = false): T {
  const t = table();
  let characterId: string | undefined;
  if (seated) {
    t.s.run({ type: 'seat.add', name: "Ann's player" });
    t.s.run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: Object.keys(t.world.seats)[0]! });
    characterId = Object.keys(t.world.characters)[0]!;
  }
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, ...(characterId === undefined ? {} : { characterId }) } as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, id: 'bob', name: 'Bob' } as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC } as unknown as Json });
  t.s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast', ...(characterId === undefined ? {} : { characterId }) },
      { id: 'bob', name: 'Bob', kind: 'pc', side: 'party', band: 'medium' },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'slow' },
    ],
  });
  return t;
}

const actions = (t: T, who: string, viewer: Viewer = GM): readonly TurnAction[] => {
  const r = t.s.engine.query(t.s.table, viewer, '36th-way.actions', { combatantId: who });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as unknown as ActionsAnswer).actions;
};
const find = (t: T, who: string, id: string) => actions(t, who).find((a) => a.id === id);
const odds = (t: T, name: string, args: { [k: string]: Json }) => {
  const r = t.s.engine.query(t.s.table, GM, name, args);
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { [k: string]: Json };
};

describe('skill checks and Dicey Moves (002 "Dicey Moves")', () => {
  it('a Skill check action asks 36th-way.checkOdds: 3d6 + bonus vs the Difficulty, Advantage counted', () => {
    const t = party();
    const check = find(t, 'ann', 'check')!;
    expect(check).toMatchObject({ allowed: true, command: '36th-way.check', fixed: { characterId: 'ann' }, odds: { query: '36th-way.checkOdds', pass: ['difficulty', 'bonus', 'advantage', 'sneak'] } });
    expect(check.numbers.map((n) => [n.field, n.value])).toEqual([['difficulty', 11], ['bonus', 0], ['advantage', 0]]);
    // Difficulty 14, +2: a natural 12+ succeeds (81/216 = 37.5%).
    const o = odds(t, '36th-way.checkOdds', { characterId: 'ann', difficulty: 14, bonus: 2, advantage: 0, sneak: false });
    expect(o['pass']).toBeCloseTo(count(0, (n) => n >= 12), 12);
    expect(o['pass']).toBeCloseTo(81 / 216, 12);
    expect(o['why']).toEqual(['3d6 +2 vs Difficulty 14: a natural 12+ succeeds']);
    // One Advantage: 4d6, the highest three.
    const adv = odds(t, '36th-way.checkOdds', { characterId: 'ann', difficulty: 14, bonus: 2, advantage: 1 });
    expect(adv['pass']).toBeCloseTo(count(1, (n) => n >= 12), 12);
    expect(adv['net']).toBe(1);
  });

  it('the check rolls what the odds counted and logs it in words', () => {
    const t = party();
    t.dice.push(4, 4, 4);
    const tx = t.s.run({ type: '36th-way.check', characterId: 'ann', difficulty: 14, bonus: 2 });
    expect(events(tx, '36th-way.checkRolled')[0]).toMatchObject({ difficulty: 14, bonus: 2, success: true });
    expect(t.s.world.log.at(-1)?.text).toBe('Ann made a check (14 vs 14): success.');
  });

  it('a Dicey move costs the move action, uses the same odds without Advantage, and is not offered once the move is spent', () => {
    const t = party();
    const dicey = find(t, 'ann', 'diceyMove')!;
    expect(dicey).toMatchObject({ allowed: true, cost: '1 move action (a skill check)', command: '36th-way.diceyMove', odds: { query: '36th-way.checkOdds', pass: ['difficulty', 'bonus'] } });
    t.dice.push(1, 2, 3);
    const tx = t.s.run({ type: '36th-way.diceyMove', characterId: 'ann', difficulty: 11, bonus: 0 });
    expect(events(tx, '36th-way.diceyMoveRolled')[0]).toMatchObject({ success: false });
    expect(t.s.world.log.at(-1)?.text).toBe('Ann tried a dicey move (6 vs 11): failure.');
    // The standard action may stand in for a second move (002 "Actions"); after that, nothing is left to move with.
    t.dice.push(6, 6, 6);
    t.s.run({ type: '36th-way.diceyMove', characterId: 'ann', difficulty: 11, bonus: 0 });
    expect(t.s.world.log.at(-1)?.text).toBe('Ann tried a dicey move (18 vs 11): success.');
    expect(find(t, 'ann', 'diceyMove')).toMatchObject({ allowed: false });
  });
});

describe('Last Gasp saves (002 "Last Gasp Saves") and fleeing (002 "Flee")', () => {
  it('the GM starts Bob on Last Gasp saves from his list; Ann may grant him one, with the odds of a 13+ save', () => {
    const t = party();
    expect(find(t, 'ann', 'grantSave')).toMatchObject({ allowed: false, reason: 'no ally in view is making Last Gasp saves' });
    const start = find(t, 'bob', 'lastGasp')!;
    expect(start).toMatchObject({ label: 'Bob starts Last Gasp saves', command: '36th-way.lastGasp', fixed: { characterId: 'bob' } });
    expect(start.texts.map((x) => x.field)).toEqual(['effect']);
    t.s.run({ type: '36th-way.lastGasp', characterId: 'bob', effect: 'the medusa\'s gaze' });
    expect(t.s.world.log.at(-1)?.text).toBe("Bob starts making Last Gasp saves against the medusa's gaze.");
    // Bob now makes saves: nobody starts them on him again.
    expect(find(t, 'bob', 'lastGasp')).toBeUndefined();
    const grant = find(t, 'ann', 'grantSave')!;
    expect(grant).toMatchObject({ allowed: true, cost: '1 standard action (a failure does not count)' });
    expect(grant.target!.options).toEqual([{ value: 'bob', label: 'Bob', note: "Last Gasp saves against the medusa's gaze" }]);
    const o = odds(t, '36th-way.grantSaveOdds', { helperId: 'ann', targetId: 'bob' });
    // 13+ on 3d6: 56/216.
    expect(o['pass']).toBeCloseTo(count(0, (n) => n >= 13), 12);
    expect(o['pass']).toBeCloseTo(56 / 216, 12);
    expect(o['why']).toContain('a failure does not count against the four');
    // Granting one that succeeds (a natural 14) ends his saves at the HP he had.
    t.dice.push(5, 5, 4);
    t.s.run({ type: '36th-way.grantSave', helperId: 'ann', targetId: 'bob' });
    expect(t.sheet('bob').dying).toBeNull();
  });

  it('a player never sees the GM\'s Last Gasp or Flee calls; the GM\'s Flee is a Campaign Loss that ends the fight', () => {
    const t = party(true);
    const seatId = Object.keys(t.world.seats)[0]!;
    const mine = actions(t, 'ann', { role: 'player', seatId }).map((a) => a.id);
    expect(mine).toEqual(expect.arrayContaining(['check', 'diceyMove', 'grantSave']));
    expect(mine).not.toContain('flee');
    expect(mine).not.toContain('lastGasp');
    expect(find(t, 'ann', 'flee')).toMatchObject({ label: 'The party flees', allowed: true, command: '36th-way.flee', fixed: {} });
    // A foe does not flee with the party: the Orc's own list has no Flee, even the GM's (review 12 #11).
    expect(find(t, 'orc', 'flee')).toBeUndefined();
    expect(find(t, 'orc', 'attack')).toBeDefined();
    const tx = t.s.run({ type: '36th-way.flee' });
    expect(events(tx, '36th-way.campaignLoss')[0]).toMatchObject({ reason: 'fled' });
    expect(events(tx, 'encounter.ended')).toHaveLength(1);
  });

  it('the grant-save odds refuse a target not making Last Gasp saves, in words', () => {
    const t = party();
    const r = t.s.engine.query(t.s.table, GM, '36th-way.grantSaveOdds', { helperId: 'ann', targetId: 'bob' });
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_LAST_GASP', message: 'Bob is not making Last Gasp saves', path: 'targetId' } });
  });
});

describe('36th-way.checks: a skill check per PC, in a fight or out of one', () => {
  it('lists every PC for the GM with the check form, one the player plays for the player, and says why a dying PC cannot', () => {
    const t = party(true);
    const seatId = Object.keys(t.world.seats)[0]!;
    const list = (viewer: Viewer) => {
      const r = t.s.engine.query(t.s.table, viewer, '36th-way.checks', {});
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as unknown as { actions: (TurnAction & { name: string })[] }).actions;
    };
    expect(list(GM).map((a) => [a.name, a.command, a.fixed['characterId'], a.allowed])).toEqual([
      ['Ann', '36th-way.check', 'ann', true],
      ['Bob', '36th-way.check', 'bob', true],
    ]);
    expect(list(GM)[0]!.odds).toMatchObject({ query: '36th-way.checkOdds', args: { characterId: 'ann' } });
    expect(list({ role: 'player', seatId }).map((a) => a.name)).toEqual(['Ann']);
    t.s.run({ type: '36th-way.damage', targetId: 'bob', amount: 31 });
    expect(list(GM)[1]).toMatchObject({ allowed: false, reason: 'Bob is dying' });
  });
});

