// 002 "Positioning and Movement", "Free and Engaged", "Disengaging and Popping
// Off", "Intercept", Grabbed / Stuck / Flying.
import { getEncounter, type Json } from '@tablekeeper/engine';
import { describe, expect, it } from 'vitest';
import { disengageTarget, movesNeeded, rangeBetween } from '../../src/36th-way/positioning.js';
import { getTsw } from '../../src/36th-way/state.js';
import { events, expectReplayEqualsLive, fight } from './setup.js';

const apply = (target: string, condition: string, extra: object = {}) => ({ type: 'condition.apply', target, condition, duration: { kind: 'encounterEnd' }, ...extra }) as unknown as { type: string; [k: string]: Json };

/** Ann and Bob (party) against an Orc and a Goblin; Ann engaged with the Orc. Ann's turn. */
function skirmish() {
  const t = fight();
  t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'bob', name: 'Bob', kind: 'pc' } });
  t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'gob', name: 'Goblin', kind: 'npc', maxHp: 8 } });
  t.s.run({ type: 'encounter.add', combatant: { id: 'bob', kind: 'pc', side: 'party', band: 'slow' } });
  t.s.run({ type: 'encounter.add', combatant: { id: 'gob', kind: 'npc', side: 'foes', band: 'slow' } });
  return t;
}

describe('pure positioning', () => {
  it('disengage difficulty: 11 for one enemy, +1 for each extra enemy', () => {
    expect(disengageTarget(null, 1)).toBe(11);
    expect(disengageTarget(null, 2)).toBe(12);
    expect(disengageTarget(null, 4)).toBe(14);
  });
  it('move actions: far -> nearby 1, nearby -> engaged 1, far -> engaged 2', () => {
    expect(movesNeeded('far', 'nearby')).toBe(1);
    expect(movesNeeded('nearby', 'engaged')).toBe(1);
    expect(movesNeeded('far', 'engaged')).toBe(2);
    expect(movesNeeded('engaged', 'far')).toBe(2);
    expect(movesNeeded('nearby', 'nearby')).toBe(0);
  });
});

describe('moving and disengaging', () => {
  it('from far to engaged takes two move actions (the standard pays for the second)', () => {
    const t = skirmish();
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'gob', range: 'far' });
    // Ann leaves the orc without disengaging: provokes.
    const tx = t.s.run({ type: '36th-way.move', who: 'ann', to: 'gob', range: 'engaged' });
    expect(events(tx, 'economy.spent').map((e) => e['paid'])).toEqual([[{ pool: 'move', n: 1 }], [{ pool: 'standard', n: 1 }]]);
    expect(events(tx, '36th-way.provoked')[0]).toMatchObject({ characterId: 'ann', against: ['orc'] });
    const st = getTsw(t.world);
    expect(rangeBetween(st, 'ann', 'gob')).toBe('engaged');
    expect(rangeBetween(st, 'ann', 'orc')).toBe('nearby');
  });
  it('disengage: 3d6 vs 11 (+1 per extra enemy); success pops off, failure loses the move action', () => {
    const t = skirmish();
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'gob', range: 'engaged' });
    t.dice.push(4, 4, 3); // 11 < 12
    const fail = t.s.run({ type: '36th-way.disengage', who: 'ann' });
    expect(events(fail, '36th-way.disengageRolled')[0]).toMatchObject({ from: ['gob', 'orc'], target: 12, success: false });
    expect(events(fail, 'economy.spent')[0]).toMatchObject({ kind: 'move' });
    // The move action is gone; the standard action can still pay for another try (Standard for Move).
    t.dice.push(4, 4, 4);
    const ok = t.s.run({ type: '36th-way.disengage', who: 'ann', from: ['gob', 'orc'] });
    expect(events(ok, '36th-way.disengageRolled')[0]).toMatchObject({ success: true });
    expect(getTsw(t.world).engaged).toEqual([]);
    // Free now: moving no longer provokes.
    t.s.run({ type: 'encounter.grant', combatant: 'ann', pool: 'move' });
    const mv = t.s.run({ type: '36th-way.move', who: 'ann', to: 'bob', range: 'engaged' });
    expect(events(mv, '36th-way.provoked')).toEqual([]);
    expectReplayEqualsLive(t);
  });
  it('Grabbed: 1 Disadvantage to disengage from the grabber, unless you hit it this round', () => {
    const t = skirmish();
    t.s.run(apply('ann', 'grabbed', { source: 'orc' }));
    t.dice.push(6, 6, 5, 1); // keep the lowest three: 1 + 5 + 6 = 12
    const tx = t.s.run({ type: '36th-way.disengage', who: 'ann' });
    expect(events(tx, '36th-way.disengageRolled')[0]).toMatchObject({ grabbedPenalty: true, roll: { net: -1, natural: 12 }, success: true });
    const t2 = skirmish();
    t2.s.run(apply('ann', 'grabbed', { source: 'orc' }));
    t2.dice.push(5, 5, 5, 2); // Ann hits the orc first
    t2.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    t2.dice.push(4, 4, 3);
    const tx2 = t2.s.run({ type: '36th-way.disengage', who: 'ann' });
    expect(events(tx2, '36th-way.disengageRolled')[0]).toMatchObject({ grabbedPenalty: false, roll: { net: 0 } });
  });
  it('Grabbed characters cannot take opportunity attacks', () => {
    const t = skirmish();
    t.s.run(apply('ann', 'grabbed', { source: 'gob' }));
    t.s.run({ type: 'encounter.endTurn' }); // the orc's turn
    const mv = t.s.run({ type: '36th-way.move', who: 'orc', to: 'bob', range: 'engaged' });
    expect(events(mv, '36th-way.provoked')[0]).toMatchObject({ against: [] });
  });
  it('Stuck: no moving, disengaging or popping free', () => {
    const t = skirmish();
    t.s.run(apply('ann', 'stuck'));
    expect(t.s.fail({ type: '36th-way.move', who: 'ann', to: 'bob', range: 'engaged' }).code).toBe('STUCK');
    expect(t.s.fail({ type: '36th-way.disengage', who: 'ann' }).code).toBe('STUCK');
    expect(t.s.fail({ type: '36th-way.popOff', who: 'ann' }).code).toBe('STUCK');
  });
  it('popping off skips the disengage check', () => {
    const t = skirmish();
    t.s.run({ type: '36th-way.popOff', who: 'ann', from: ['orc'] });
    expect(getTsw(t.world).engaged).toEqual([]);
  });
});

describe('intercept (002 "Intercept")', () => {
  /** The goblin's turn: it moves to engage Bob; Ann is engaged with nobody. */
  const charge = (opts: { flying?: boolean; annEngaged?: boolean; intercept?: boolean } = {}) => {
    const t = skirmish();
    if (opts.annEngaged !== true) t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'nearby' });
    if (opts.flying === true) t.s.run(apply('gob', 'flying'));
    while (getEncounter(t.world).current !== 'gob') {
      if (getEncounter(t.world).pending !== null) t.s.run({ type: 'encounter.choose' });
      else t.s.run({ type: 'encounter.endTurn' });
    }
    t.s.run({ type: '36th-way.move', who: 'gob', to: 'bob', range: 'engaged', intercept: opts.intercept === true });
    return t;
  };
  it('a Free character intercepts an enemy moving to engage a nearby ally (a free action): the enemy engages them instead', () => {
    const t = charge();
    const tx = t.s.run({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' });
    expect(events(tx, '36th-way.intercepted')[0]).toMatchObject({ interceptorId: 'ann', moverId: 'gob', allyId: 'bob' });
    const st = getTsw(t.world);
    expect(rangeBetween(st, 'gob', 'ann')).toBe('engaged');
    expect(rangeBetween(st, 'gob', 'bob')).toBe('nearby');
    expect(t.s.fail({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' }).code).toBe('NOTHING_TO_INTERCEPT');
  });
  it('an engaged character cannot intercept', () => {
    const t = charge({ annEngaged: true });
    expect(t.s.fail({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' }).code).toBe('NOT_FREE');
  });
  it('a Flying enemy can only be intercepted by someone also Flying', () => {
    const t = charge({ flying: true });
    expect(t.s.fail({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' }).code).toBe('FLYING');
    t.s.run(apply('ann', 'flying'));
    t.s.run({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' });
  });
  it('nobody can intercept an enemy who is itself moving to intercept', () => {
    const t = charge({ intercept: true });
    expect(t.s.fail({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' }).code).toBe('CANNOT_INTERCEPT');
  });
  it('a far ally cannot be protected', () => {
    const t = skirmish();
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'nearby' });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'bob', range: 'far' });
    while (getEncounter(t.world).current !== 'gob') {
      if (getEncounter(t.world).pending !== null) t.s.run({ type: 'encounter.choose' });
      else t.s.run({ type: 'encounter.endTurn' });
    }
    t.s.run({ type: '36th-way.move', who: 'gob', to: 'bob', range: 'engaged' });
    expect(t.s.fail({ type: '36th-way.intercept', interceptor: 'ann', mover: 'gob' }).code).toBe('TOO_FAR');
  });
});
