// 002 "Actions" (end of turn: ongoing damage, then saves), "Rally", "Fight in
// Spirit", "Dicey Moves", the combat sequence wired to the kernel, the
// conformance suite and what players may see.
import { encounterConformance, getEncounter, seededRng, type Json } from '@tablekeeper/engine';
import { describe, expect, it } from 'vitest';
import { ruleset } from '../../src/36th-way/index.js';
import { ANN, events, expectReplayEqualsLive, fight, ORC, table, tsw } from './setup.js';

const apply = (target: string, condition: string, duration: object, extra: object = {}) => ({ type: 'condition.apply', target, condition, duration, ...extra }) as unknown as { type: string; [k: string]: Json };

describe('end of turn: ongoing damage, then saves (002 "Actions")', () => {
  it('takes every ongoing damage first, then rolls 11+ saves against save-ends effects', () => {
    const t = fight();
    t.s.run(apply('ann', 'ongoing', { kind: 'saveEnds' }, { params: { amount: 5, type: 'fire' }, source: 'orc' }));
    t.s.run(apply('ann', 'dazed', { kind: 'saveEnds' }));
    t.dice.push(6, 5, 1, 1, 2, 3); // saves in instance order: ongoing 12 (ends), dazed 6 (stays)
    const tx = t.s.run({ type: 'encounter.endTurn' });
    const order = events(tx).map((e) => e['type']).filter((x) => x === '36th-way.damaged' || x === 'condition.saveRolled');
    expect(order).toEqual(['36th-way.damaged', 'condition.saveRolled', 'condition.saveRolled']);
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 5, reason: 'ongoing', types: ['fire'] });
    const saves = events(tx, 'condition.saveRolled');
    expect(saves.map((s) => s['success'])).toEqual([true, false]);
    expect(saves[0]!['roll']).toMatchObject({ natural: 12, target: 11 });
    const left = Object.values(getEncounter(t.world).conditions).map((c) => c.defId);
    expect(left).toEqual(['dazed']);
    expect(t.sheet('ann').hp).toBe(25);
    expectReplayEqualsLive(t);
    t.s.undo();
    expect(t.sheet('ann').hp).toBe(30);
    expect(Object.keys(getEncounter(t.world).conditions)).toHaveLength(2);
  });
  it('a save-ends effect may name its own target; Enervated gives 1 Disadvantage on saves', () => {
    const t = fight();
    t.s.run(apply('ann', 'weakened', { kind: 'saveEnds', save: 16 }));
    t.s.run(apply('ann', 'enervated', { kind: 'encounterEnd' }));
    t.dice.push(6, 6, 6, 3);
    const tx = t.s.run({ type: 'encounter.endTurn' });
    expect(events(tx, 'condition.saveRolled')[0]).toMatchObject({ success: false, roll: { target: 16, net: -1, natural: 15 } });
  });
  it('ongoing damage can drop a PC into dying', () => {
    const t = fight({}, { ann: { hp: 3 } });
    t.s.run(apply('ann', 'ongoing', { kind: 'rounds', rounds: 2 }, { params: { amount: 5 } }));
    t.s.run({ type: 'encounter.endTurn' });
    expect(t.sheet('ann')).toMatchObject({ hp: -2 });
    expect(t.sheet('ann').dying).not.toBeNull();
  });
});

describe('Rally, Fight in Spirit, Dicey Moves (002 "Special Actions")', () => {
  it('Rally: a standard action that heals with a recovery and saves against one effect with the escalation die as a bonus', () => {
    const t = fight({}, { ann: { hp: 10 } });
    for (let i = 0; i < 4; i++) t.s.run({ type: 'encounter.endTurn' }); // round 3: escalation 2
    t.s.run(apply('ann', 'ongoing', { kind: 'saveEnds' }, { params: { amount: 3 } }));
    const inst = Object.keys(getEncounter(t.world).conditions)[0]!;
    t.dice.push(5, 3, 3, 3); // recovery 5 + 3; save natural 9 + 2 = 11
    const tx = t.s.run({ type: '36th-way.rally', who: 'ann', against: inst });
    expect(events(tx, 'economy.spent')[0]).toMatchObject({ kind: 'standard' });
    expect(events(tx, '36th-way.healed')[0]).toMatchObject({ hpTo: 18 });
    expect(events(tx, 'condition.saveRolled')[0]).toMatchObject({ success: true, roll: { natural: 9, bonus: 2, target: 11 } });
    expect(getEncounter(t.world).conditions).toEqual({});
  });
  it('Rally against a one-round effect is a 13+ save', () => {
    const t = fight();
    t.s.run(apply('ann', 'dazed', { kind: 'rounds', rounds: 1 }));
    const inst = Object.keys(getEncounter(t.world).conditions)[0]!;
    t.dice.push(4, 4, 4, 4);
    const tx = t.s.run({ type: '36th-way.rally', who: 'ann', against: inst });
    expect(events(tx, 'condition.saveRolled')[0]).toMatchObject({ success: false, roll: { target: 13 } });
  });
  it('Fight in Spirit: someone out of the fight grants an ally a boon for a round, with a reason', () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'bob', name: 'Bob', kind: 'pc' } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'bob', kind: 'pc', side: 'party', band: 'slow' } });
    expect(t.s.fail({ type: '36th-way.fightInSpirit', who: 'ann', ally: 'bob', boon: 'attack', reason: 'for the valley' }).code).toBe('NOT_OUT_OF_FIGHT');
    t.s.run({ type: '36th-way.outOfFight', id: 'ann', value: true });
    expect(t.s.fail({ type: '36th-way.fightInSpirit', who: 'ann', ally: 'bob', boon: 'attack' }).code).toBe('INVALID_VALUE');
    t.s.run({ type: '36th-way.fightInSpirit', who: 'ann', ally: 'bob', boon: 'attack', reason: 'for the valley' });
    expect(tsw.kit.netAdvantage(t.world, 'bob', 'attack')).toBe(1);
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }).code).toBe('CANNOT_ACT');
    // Lasts until the start of Ann's next turn.
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('ann');
    expect(tsw.kit.netAdvantage(t.world, 'bob', 'attack')).toBe(0);
  });
  it('Dicey Move: a move action and a check against the GM\'s difficulty', () => {
    const t = fight();
    t.dice.push(4, 4, 3);
    const tx = t.s.run({ type: '36th-way.diceyMove', who: 'ann', difficulty: 13, bonus: 2 });
    expect(events(tx, '36th-way.diceyMoveRolled')[0]).toMatchObject({ success: true });
    expect(events(tx, 'economy.spent')[0]).toMatchObject({ kind: 'move' });
    expect(t.s.fail({ type: '36th-way.diceyMove', who: 'ann', difficulty: 99 }).code).toBe('INVALID_VALUE');
  });
});

describe('combat sequence wired to the kernel (002 "Combat Sequence")', () => {
  it('bands: PCs then enemies in each band; the example order of five PCs and five enemies', () => {
    const t = table();
    const c = (id: string, kind: string, band: string) => ({ id, kind, side: kind === 'pc' ? 'party' : 'foes', band });
    t.s.run({
      type: 'encounter.start',
      combatants: [c('p1', 'pc', 'fast'), c('p2', 'pc', 'medium'), c('p3', 'pc', 'medium'), c('p4', 'pc', 'slow'), c('p5', 'pc', 'slow'), c('e1', 'npc', 'medium'), c('e2', 'npc', 'medium'), c('e3', 'npc', 'slow'), c('e4', 'npc', 'slow'), c('e5', 'npc', 'slow')],
    });
    const seen: string[] = [];
    for (let guard = 0; guard < 40 && getEncounter(t.world).round === 1; guard++) {
      const enc = getEncounter(t.world);
      if (enc.pending !== null) t.s.run({ type: 'encounter.choose', id: enc.pending.default ?? enc.pending.options[0]! });
      else {
        seen.push(enc.current!);
        t.s.run({ type: 'encounter.endTurn' });
      }
    }
    expect(seen).toEqual(['p1', 'p2', 'p3', 'e1', 'e2', 'p4', 'p5', 'e3', 'e4', 'e5']);
  });
  it('surprise: the ambushers\' two chosen characters act in a surprise round without the escalation die; the GM may start it at 1', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: ORC as unknown as Json });
    t.s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', side: 'party', band: 'slow' }, { id: 'orc', kind: 'npc', side: 'foes', band: 'fast' }], surprise: { side: 'party', actors: ['ann'] } });
    expect(getEncounter(t.world)).toMatchObject({ round: 0, current: 'ann' });
    expect(tsw.kit.escalation(t.world, 'ann')).toBe(0);
    t.s.run({ type: 'encounter.escalationOffset', offset: 1 });
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).round).toBe(1);
    expect(tsw.kit.escalation(t.world, 'ann')).toBe(1);
  });
  it('delaying moves you to a slower band for the rest of the encounter', () => {
    const t = fight();
    t.s.run({ type: 'encounter.delay', to: { band: 'slow' } });
    expect(getEncounter(t.world).current).toBe('orc');
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('ann');
  });
});

describe('conformance and views', () => {
  it('passes the encounter conformance suite', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: ORC as unknown as Json });
    const problems = encounterConformance({
      rules: tsw.kit.rules,
      modules: ruleset.modules.filter((m) => m.id !== 'encounter'),
      genesis: t.world,
      combatants: [
        { id: 'ann', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'orc', kind: 'npc', side: 'foes', band: 'medium' },
      ],
      rng: seededRng(7),
      rounds: 3,
    });
    expect(problems).toEqual([]);
  });
  it('players never see a hidden enemy\'s sheet or the events about it', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'lurker', name: 'Lurker' } as unknown as Json });
    t.s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', side: 'party', band: 'fast' }, { id: 'lurker', name: 'Lurker', kind: 'npc', side: 'foes', band: 'slow', visibility: 'hidden' }] });
    t.s.run({ type: '36th-way.damage', target: 'lurker', amount: 3 });
    const v = JSON.stringify(t.s.view({ role: 'spectator' }));
    expect(v).not.toContain('Lurker');
    expect(v).not.toContain('lurker');
    expect(JSON.stringify(t.s.view({ role: 'gm' }))).toContain('Lurker');
  });
});
