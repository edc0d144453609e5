// Attacks through the engine: 002 "Attacks", "Basic Attacks", "Damage",
// "Resistance and Weakness", "Coup de Grace", "Opportunity Attacks", the
// conditions that change attacks, undo and replay.
import { getEncounter, type Json } from '@tablekeeper/engine';
import { describe, expect, it } from 'vitest';
import { attackOddsFor } from '../../src/36th-way/odds.js';
import { events, expectReplayEqualsLive, fight, tsw } from './setup.js';

const cond = (target: string, condition: string, extra: object = {}) => ({ type: 'condition.apply', target, condition, duration: { kind: 'saveEnds' }, ...extra }) as unknown as { type: string; [k: string]: Json };

describe('basic attacks (002 "Attacks", "Basic Attacks")', () => {
  it('3d6 + Level + Volition vs AC; a hit deals Level x stance die + Volition and spends the standard action', () => {
    const t = fight();
    t.dice.push(5, 5, 5, 6); // natural 15; 1d8 = 6
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    const [roll] = events(tx, '36th-way.attackRolled');
    // 15 + level 1 + volition 3 + escalation 0 = 19 vs AC 14
    expect(roll).toMatchObject({ total: 19, hit: true, crit: false, defenseValue: 14, parts: { level: 1, volition: 3, escalation: 0, bonus: 0 } });
    const [dmg] = events(tx, '36th-way.damaged');
    expect(dmg).toMatchObject({ targetId: 'orc', amount: 9, hpFrom: 20, hpTo: 11 }); // 6 + 3
    expect(t.sheet('orc').hp).toBe(11);
    expect(events(tx, 'economy.spent')[0]).toMatchObject({ combatant: 'ann', kind: 'standard' });
    expect(t.world.log.some((l) => l.kind === '36th-way.attack' && l.text.includes('natural 15, total 19; hit'))).toBe(true);
    expect(t.dice.left).toBe(0);
  });
  it('a second standard action in the turn is refused (one standard per turn)', () => {
    const t = fight();
    t.dice.push(1, 1, 2);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }).code).toBe('NO_ACTIONS_LEFT');
  });
  it('a miss deals the class miss damage (Level) or none', () => {
    const t = fight({}, { ann: { basicMiss: 'level' } });
    t.dice.push(2, 2, 2); // natural 6, total 10 vs 14: miss
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 1, reason: 'miss' });
    const t2 = fight();
    t2.dice.push(2, 2, 2);
    expect(events(t2.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }), '36th-way.damaged')).toEqual([]);
  });
  it('natural 3 is a Crit Fail: no miss effects at all', () => {
    const t = fight({}, { ann: { basicMiss: 'level' } });
    t.dice.push(1, 1, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ critFail: true, hit: false });
    expect(events(tx, '36th-way.damaged')).toEqual([]);
  });
  it('natural 17+ crits for double damage', () => {
    const t = fight();
    t.dice.push(6, 6, 5, 4); // natural 17; 1d8 = 4 -> (4 + 3) x 2
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 14, crit: true, base: 7 });
  });
  it('basic melee needs an engaged target; basic ranged needs the ranged stance', () => {
    const t = fight();
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'far' });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }).code).toBe('OUT_OF_REACH');
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'ranged' }).code).toBe('WRONG_STANCE');
    t.s.run({ type: '36th-way.stance', who: 'ann', stance: 'ranged' }); // a quick action
    t.dice.push(4, 4, 4, 3);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'ranged' });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 6 }); // 1d6 = 3, + 3
  });
  it('the escalation die is added from round 2 (PCs; enemies only when their sheet says so)', () => {
    const t = fight();
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).round).toBe(2);
    t.dice.push(3, 3, 3, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ parts: { escalation: 1 }, total: 14, hit: true });
    // The orc: no escalation by default.
    t.s.run({ type: 'encounter.endTurn' });
    t.dice.push(3, 3, 3);
    const o = t.s.run({ type: '36th-way.attack', attacker: 'orc', targets: ['ann'], basic: 'melee' });
    expect(events(o, '36th-way.attackRolled')[0]).toMatchObject({ parts: { escalation: 0 } });
  });
  it('undo reverts the attack completely; replay equals live', () => {
    const t = fight();
    const before = t.world;
    t.dice.push(5, 5, 5, 6);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expectReplayEqualsLive(t);
    t.s.undo();
    expect(t.world.ext).toEqual(before.ext);
    expect(t.sheet('orc').hp).toBe(20);
    t.s.redo();
    expect(t.sheet('orc').hp).toBe(11);
    expectReplayEqualsLive(t);
  });
  it('players attack only with their own character', () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann\'s player' });
    const seatId = Object.keys(t.world.seats)[0]!;
    t.s.run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId });
    const charId = Object.keys(t.world.characters)[0]!;
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...(t.sheet('ann') as unknown as object), characterId: charId, abilities: [] } as unknown as Json });
    const player = { role: 'player', seatId } as const;
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'orc', targets: ['ann'], basic: 'melee' }, player).code).toBe('FORBIDDEN');
    t.dice.push(3, 3, 3);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }, player);
  });
});

describe('Advantage from stacked conditions (002 "Conditions and Effects")', () => {
  it('Weakened + Dazed = 2 Disadvantage: five dice, keep the lowest three', () => {
    const t = fight();
    t.s.run(cond('ann', 'weakened'));
    t.s.run(cond('ann', 'dazed'));
    t.dice.push(6, 6, 6, 1, 2);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]!['roll']).toMatchObject({ net: -2, kept: [1, 2, 6], natural: 9 });
  });
  it('the same condition twice counts once', () => {
    const t = fight();
    t.s.run(cond('ann', 'dazed'));
    t.s.run(cond('ann', 'dazed', { duration: { kind: 'rounds', rounds: 2 } }));
    t.dice.push(1, 1, 1, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]!['roll']).toMatchObject({ net: -1 });
  });
  it('Stunned, Softened and Weakened targets give Advantage; Helpless counts as Stunned once', () => {
    for (const [conds, net] of [
      [['stunned'], 1],
      [['softened'], 1],
      [['weakened', 'softened'], 2],
      [['helpless'], 1],
      [['helpless', 'stunned'], 1],
    ] as const) {
      const t = fight();
      for (const c of conds) t.s.run(cond('orc', c));
      t.dice.push(...new Array<number>(3 + net).fill(1));
      const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
      expect(events(tx, '36th-way.attackRolled')[0]!['roll']).toMatchObject({ net });
    }
  });
  it('Grabbed: the grabber gains 1 Advantage against the grabbed; the grabbed cannot attack at range', () => {
    const t = fight();
    t.s.run(cond('ann', 'grabbed', { source: 'orc', duration: { kind: 'encounterEnd' } }));
    t.s.run({ type: '36th-way.stance', who: 'ann', stance: 'ranged' });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'ranged' }).code).toBe('GRABBED');
    t.s.run({ type: 'encounter.endTurn' });
    t.dice.push(1, 1, 1, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'orc', targets: ['ann'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]!['roll']).toMatchObject({ net: 1 });
  });
  it('Shaken: 1 Disadvantage and the escalation die counts as 0', () => {
    const t = fight();
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run(cond('ann', 'shaken'));
    t.dice.push(3, 3, 3, 3);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ parts: { escalation: 0 }, roll: { net: -1 } });
  });
  it('Vulnerable: crits on 16+; Weak and Vulnerable: 15+', () => {
    const t = fight({}, { orc: { weak: ['fire'] } });
    t.s.run(cond('orc', 'vulnerable'));
    t.dice.push(6, 5, 5, 2);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ critAt: 16, crit: true, vulnerable: true, weak: false });
    const t2 = fight({}, { orc: { weak: ['fire'] } });
    t2.s.run(cond('orc', 'vulnerable'));
    t2.dice.push(5, 5, 5, 2);
    const tx2 = t2.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', types: ['fire', 'weapon'], damage: { count: 1, sides: 4, bonus: 0 } });
    expect(events(tx2, '36th-way.attackRolled')[0]).toMatchObject({ critAt: 15, crit: true, weak: true });
    expect(events(tx2, '36th-way.damaged')[0]).toMatchObject({ amount: 4, base: 2 });
  });
  it('Resist X+: a natural roll below X halves the damage; X or more deals it all', () => {
    const t = fight({}, { orc: { resist: { fire: 13 } } });
    t.dice.push(4, 4, 4, 8, 8); // natural 12 < 13: 2d8 = 16 -> 8
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', types: ['fire'], damage: { count: 2, sides: 8, bonus: 0 } });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 8, resisted: true, resistAt: 13 });
    const t2 = fight({}, { orc: { resist: { fire: 13 } } });
    t2.dice.push(5, 4, 4, 8, 8); // natural 13
    const tx2 = t2.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', types: ['fire'], damage: { count: 2, sides: 8, bonus: 0 } });
    expect(events(tx2, '36th-way.damaged')[0]).toMatchObject({ amount: 16, resisted: false });
  });
  it('Invisible target: the attacker first rolls an 11+ save; on a failure the attack has no effect', () => {
    const t = fight();
    t.s.run(cond('orc', 'invisible'));
    t.dice.push(2, 3, 4, 6, 6, 6); // save natural 9 fails; attack 18
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ noEffect: true, hit: false, invisibleSave: { target: 11, success: false } });
    expect(events(tx, '36th-way.damaged')).toEqual([]);
  });
  it('Confused: on an odd natural the attacker takes half the base damage it deals', () => {
    const t = fight();
    t.s.run(cond('ann', 'confused'));
    t.dice.push(6, 6, 5, 5); // natural 17 (odd) crit: base 5 + 3 = 8 -> 16 to the orc, 4 to Ann
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    const d = events(tx, '36th-way.damaged');
    expect(d[0]).toMatchObject({ targetId: 'orc', amount: 16 });
    expect(d[1]).toMatchObject({ targetId: 'ann', amount: 4, reason: 'confused' });
  });
});

describe('multi-target, coup de grace, opportunity attacks', () => {
  it('one roll per target; optionally every attack roll before any damage', () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'gob', name: 'Goblin', kind: 'npc', ac: 10, maxHp: 8 } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'gob', kind: 'npc', side: 'foes', band: 'slow' } });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...(t.sheet('ann') as unknown as object), abilities: [{ id: 'sweep', name: 'Sweep', frequency: 'encounter', action: 'standard', types: ['melee'] }] } as unknown as Json });
    t.dice.push(4, 4, 4, 5, 5, 5, 2, 3);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc', 'gob'], ability: 'sweep', damage: { count: 1, sides: 6, bonus: 0 }, rollAllFirst: true });
    const kinds = events(tx).map((e) => e['type']).filter((x) => x === '36th-way.attackRolled' || x === '36th-way.damaged');
    expect(kinds).toEqual(['36th-way.attackRolled', '36th-way.attackRolled', '36th-way.damaged', '36th-way.damaged']);
    expect(t.sheet('orc').hp).toBe(18);
    expect(t.sheet('gob').hp).toBe(5);
    expect(t.sheet('ann').uses['sweep']).toMatchObject({ expended: true });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], ability: 'sweep' }).code).toBe('ABILITY_EXPENDED');
  });
  it('a hit can inflict conditions (save ends, ongoing damage) on each target it hits, not on misses', () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'gob', name: 'Goblin', kind: 'npc', pd: 30, maxHp: 8 } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'gob', kind: 'npc', side: 'foes', band: 'slow' } });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...(t.sheet('ann') as unknown as object), abilities: [{ id: 'flame', frequency: 'at-will', action: 'standard', types: ['spell'] }] } as unknown as Json });
    t.dice.push(5, 5, 5, 3, 2, 2, 2);
    const tx = t.s.run({
      type: '36th-way.attack', attacker: 'ann', targets: ['orc', 'gob'], ability: 'flame', defense: 'pd', types: ['fire'], damage: { count: 1, sides: 6, bonus: 0 },
      onHit: [{ condition: 'dazed', duration: { kind: 'saveEnds' } }, { condition: 'ongoing', duration: { kind: 'saveEnds' }, params: { amount: 5, type: 'fire' } }],
    });
    const applied = events(tx, 'condition.applied');
    expect(applied.map((e) => [e['target'], e['condition']])).toEqual([['orc', 'dazed'], ['orc', 'ongoing']]);
    expect(new Set(applied.map((e) => e['id'])).size).toBe(2);
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', onHit: [{ condition: 'sleepy', duration: { kind: 'saveEnds' } }] }).code).toBe('INVALID_VALUE');
  });
  it('coup de grace: an engaged Helpless enemy, standard + move + quick, and the attack crits', () => {
    const t = fight();
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', coupDeGrace: true }).code).toBe('COUP_DE_GRACE');
    t.s.run(cond('orc', 'helpless'));
    t.dice.push(1, 1, 1, 1, 4);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', coupDeGrace: true });
    expect(events(tx, 'economy.spent').map((e) => e['kind'])).toEqual(['standard', 'move', 'quick']);
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ crit: true, hit: true });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 14 }); // (4 + 3) x 2
  });
  it('coup de grace is refused once the move action is gone', () => {
    const t = fight();
    t.s.run(cond('orc', 'helpless'));
    t.s.run({ type: 'encounter.spend', combatant: 'ann', kind: 'move' });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', coupDeGrace: true }).message).toContain('no move action left');
  });
  it('moving away without disengaging provokes; each engaged enemy in melee stance gets one free opportunity attack', () => {
    const t = fight();
    t.s.run({ type: 'encounter.endTurn' }); // the orc's turn
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'bob', name: 'Bob', kind: 'pc' } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'bob', kind: 'pc', side: 'party', band: 'slow' } });
    const mv = t.s.run({ type: '36th-way.move', who: 'orc', to: 'bob', range: 'engaged' });
    const [prov] = events(mv, '36th-way.provoked');
    expect(prov).toMatchObject({ characterId: 'orc', against: ['ann'] });
    t.dice.push(5, 5, 5, 2);
    const oa = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], opportunity: prov!['provocationId'] });
    expect(events(oa, 'economy.spent')[0]).toMatchObject({ kind: 'free' });
    expect(events(oa, '36th-way.damaged')[0]).toMatchObject({ amount: 5 });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], opportunity: prov!['provocationId'] }).code).toBe('NO_PROVOCATION');
  });
  it('any number of opportunity attacks in a round, one per provocation', () => {
    const t = fight({}, { orc: { abilities: [{ id: 'howl', frequency: 'at-will', action: 'quick', provokes: true }, { id: 'roar', frequency: 'at-will', action: 'move', provokes: true }] } });
    t.s.run({ type: 'encounter.endTurn' }); // the orc's turn
    const p1 = events(t.s.run({ type: '36th-way.useAbility', who: 'orc', ability: 'howl' }), '36th-way.provoked')[0]!;
    t.dice.push(1, 1, 2);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], opportunity: p1['provocationId'] });
    const p2 = events(t.s.run({ type: '36th-way.useAbility', who: 'orc', ability: 'roar' }), '36th-way.provoked')[0]!;
    expect(p2['provocationId']).not.toBe(p1['provocationId']);
    t.dice.push(1, 1, 2);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], opportunity: p2['provocationId'] });
  });
  it('an ability with Provokes provokes the engaged enemies', () => {
    const t = fight({}, { ann: { abilities: [{ id: 'chant', frequency: 'at-will', action: 'standard', provokes: true, types: ['spell'] }] } });
    const tx = t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'chant' });
    expect(events(tx, '36th-way.provoked')[0]).toMatchObject({ characterId: 'ann', against: ['orc'] });
  });
});

describe('exact odds for the GM', () => {
  it('hit and crit chances as the table stands', () => {
    const t = fight();
    // Ann: +4 vs AC 14 needs natural 10+: 1 - 81/216 = 135/216
    const o = attackOddsFor(tsw.kit, t.world, { attacker: 'ann', target: 'orc' })!;
    expect(o.needed).toBe(10);
    expect(o.hit).toBeCloseTo(135 / 216, 12);
    expect(o.crit).toBeCloseTo(4 / 216, 12);
    t.s.run(cond('orc', 'vulnerable'));
    t.s.run(cond('orc', 'stunned'));
    const o2 = attackOddsFor(tsw.kit, t.world, { attacker: 'ann', target: 'orc' })!;
    expect(o2.net).toBe(1);
    expect(o2.critAt).toBe(16);
    expect(o2.crit).toBeGreaterThan(10 / 216);
  });
});
