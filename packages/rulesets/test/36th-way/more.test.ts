// Remaining rules through the engine: readying an action, enemies and the
// escalation die, ranged attacks while engaged, the "unconscious" variant,
// skill checks while Invisible, the Crit Fail prompt; and a fuzz property.
import { getEncounter, seededRng, type Json } from '@tablekeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANN, events, fight, ORC, table } from './setup.js';
import { ruleset, summary, tsw } from '../../src/36th-way/index.js';
import { scenario } from '@tablekeeper/engine';

describe('readying an action (002 "Readying an Action")', () => {
  it('taken in the same round: your band becomes that of whoever triggered it', () => {
    const t = fight();
    t.s.run({ type: 'encounter.ready', action: 'standard', trigger: 'the orc raises its axe' });
    expect(getEncounter(t.world).current).toBe('orc');
    t.s.run({ type: 'encounter.triggerReady', id: 'ann', before: 'orc' });
    expect(getEncounter(t.world).combatants['ann']?.placement).toEqual({ band: 'medium' });
  });
  it('taken next round before your turn: that action is used up on your turn and your band stays', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: ORC as unknown as Json });
    t.s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', side: 'party', band: 'slow' }, { id: 'orc', kind: 'npc', side: 'foes', band: 'fast' }] });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' });
    t.s.run({ type: 'encounter.endTurn' }); // the orc
    t.s.run({ type: 'encounter.ready', action: 'standard', trigger: 'the orc attacks' });
    expect(getEncounter(t.world)).toMatchObject({ round: 2, current: 'orc' });
    const tx = t.s.run({ type: 'encounter.triggerReady', id: 'ann', before: 'orc' });
    expect(events(tx, 'encounter.readyTaken')[0]).toMatchObject({ forNextTurn: true, placement: null });
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('ann');
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }).code).toBe('NO_ACTIONS_LEFT');
    expect(getEncounter(t.world).combatants['ann']?.placement).toEqual({ band: 'slow' });
  });
});

describe('enemies and the escalation die', () => {
  it('enemies add it only when the table (or their sheet) says so', () => {
    const t = fight({ '36th-way.npcEscalation': true });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' }); // round 2, the orc's turn
    t.dice.push(1, 1, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'orc', targets: ['ann'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ parts: { escalation: 1 } });
  });
});

describe('who may act', () => {
  it('a dying, dead, knocked-out or out-of-the-fight character takes no actions', () => {
    const t = fight();
    t.s.run({ type: '36th-way.damage', target: 'ann', amount: 30 });
    for (const c of [
      { type: '36th-way.move', who: 'ann', to: 'orc', range: 'far' },
      { type: '36th-way.disengage', who: 'ann' },
      { type: '36th-way.stance', who: 'ann', stance: 'ranged' },
      { type: '36th-way.rally', who: 'ann' },
      { type: '36th-way.check', who: 'ann', difficulty: 10 },
      { type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' },
    ]) expect(t.s.fail(c as never).code).toBe('CANNOT_ACT');
  });
  it('a sheet may opt out of (or into) the escalation die whatever the table default', () => {
    const t = fight({}, { ann: { usesEscalation: false } });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.dice.push(1, 1, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ parts: { escalation: 0 } });
  });
});

describe('ranged attacks while engaged (002 "Free and Engaged")', () => {
  it('a basic ranged attack while engaged provokes opportunity attacks', () => {
    const t = fight({}, { ann: { stance: 'ranged' } });
    t.dice.push(1, 1, 1);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'ranged' });
    expect(events(tx, '36th-way.provoked')[0]).toMatchObject({ characterId: 'ann', against: ['orc'], reason: 'made a ranged attack while engaged' });
    // The crit fail also leaves the GM a private prompt.
    const prompt = t.world.log.find((l) => l.kind === '36th-way.critFailPrompt');
    expect(prompt?.audience).toEqual({ kind: 'gm' });
    expect(JSON.stringify(t.s.view({ role: 'spectator' }).world.log)).not.toContain('36th-way.critFailPrompt');
  });
});

describe('the "unconscious" variant (002 "Dying and Death")', () => {
  it('a PC at 0 is knocked out, loses turns, is not woken by healing, and wakes at a full rest', () => {
    const t = fight({ '36th-way.dyingMode': 'unconscious' });
    t.s.run({ type: '36th-way.damage', target: 'ann', amount: 40 });
    expect(t.sheet('ann')).toMatchObject({ unconscious: true, dying: null });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' }); // Ann's turn is lost; the orc acts again
    expect(getEncounter(t.world).current).toBe('orc');
    t.s.run({ type: '36th-way.heal', id: 'ann', average: true });
    expect(t.sheet('ann')).toMatchObject({ unconscious: true, hp: 7 });
    t.s.run({ type: 'encounter.end' });
    t.s.run({ type: '36th-way.fullRest' });
    expect(t.sheet('ann')).toMatchObject({ unconscious: false, hp: 30 });
  });
});

describe('damage roll modes through an attack (002 "Damage")', () => {
  it('10d6 as 10 x 1d6, and 10d6 with seven dice averaged', () => {
    const t = fight({}, { orc: { maxHp: 200 } });
    t.dice.push(5, 5, 5, 4);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', damage: { count: 10, sides: 6, bonus: 0 }, mode: { kind: 'multiply', multiplier: 10 } });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 40, roll: { mode: 'multiply', dice: [4], multiplier: 10 } });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.dice.push(5, 5, 5, 1, 2, 3);
    const tx2 = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', damage: { count: 10, sides: 6, bonus: 0 }, mode: { kind: 'average', averaged: 7 } });
    expect(events(tx2, '36th-way.damaged')[0]).toMatchObject({ amount: 30, roll: { averagedPoints: 24, dice: [1, 2, 3] } });
    expect(t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', damage: { count: 10, sides: 6 }, mode: { kind: 'average', averaged: 2 } }).code).toBe('INVALID_VALUE');
  });
});

describe('tracker summary', () => {
  it('HP, status, recoveries, escalation and expended abilities per sheet', () => {
    const t = fight({}, { ann: { abilities: [{ id: 'surge', frequency: 'encounter', action: 'quick' }] } });
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'surge' });
    t.s.run({ type: '36th-way.damage', target: 'ann', amount: 15 });
    const ann = summary(tsw.kit, t.world).find((x) => x.id === 'ann');
    expect(ann).toEqual({ id: 'ann', name: 'Ann', hp: 15, maxHp: 30, status: 'staggered', recoveries: 8, escalation: 0, deathFailures: 0, expended: ['surge'] });
  });
});

describe('moving away', () => {
  it('from engaged to far takes two move actions', () => {
    const t = fight();
    const tx = t.s.run({ type: '36th-way.move', who: 'ann', to: 'orc', range: 'far' });
    expect(events(tx, 'economy.spent')).toHaveLength(2);
    expect(events(tx, '36th-way.provoked')[0]).toMatchObject({ against: ['orc'] });
  });
});

describe('skill checks', () => {
  it('Invisible: 2 Advantage on checks to sneak', () => {
    const t = fight();
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'invisible', duration: { kind: 'encounterEnd' } });
    t.dice.push(1, 6, 6, 6, 2);
    const tx = t.s.run({ type: '36th-way.check', who: 'ann', difficulty: 15, sneak: true });
    expect(events(tx, '36th-way.checkRolled')[0]).toMatchObject({ roll: { net: 2, natural: 18 }, success: true });
    t.dice.push(1, 2, 3);
    const plain = t.s.run({ type: '36th-way.check', who: 'ann', difficulty: 15 });
    expect(events(plain, '36th-way.checkRolled')[0]).toMatchObject({ roll: { net: 0 } });
  });
});

describe('authorization', () => {
  it('GM-only commands refuse players; players command their own character', () => {
    const t = fight();
    t.s.run({ type: 'seat.add', name: 'Ann\'s player' });
    const seatId = Object.keys(t.world.seats)[0]!;
    t.s.run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId });
    const charId = Object.keys(t.world.characters)[0]!;
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, characterId: charId } as unknown as Json });
    const player = { role: 'player', seatId } as const;
    for (const c of [
      { type: '36th-way.damage', target: 'orc', amount: 5 },
      { type: '36th-way.position', a: 'ann', b: 'orc', range: 'far' },
      { type: '36th-way.sheet.set', sheet: { id: 'x' } },
      { type: '36th-way.fullRest' },
      { type: '36th-way.stance', who: 'orc', stance: 'ranged' },
      { type: '36th-way.heal', id: 'orc', how: 'npc' },
    ]) expect(t.s.fail(c as never, player).code).toBe('FORBIDDEN');
    t.s.run({ type: '36th-way.stance', who: 'ann', stance: 'ranged' }, player);
    expect(t.s.fail({ type: '36th-way.stance', who: 'ann', stance: 'ranged' }, { role: 'spectator' }).code).toBe('FORBIDDEN');
  });
  it('players never see an enemy sheet the GM has not brought openly into the fight', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'dragon', name: 'Red Dragon' } as unknown as Json });
    expect(JSON.stringify(t.s.view({ role: 'spectator' }))).not.toContain('Red Dragon');
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', side: 'party', band: 'fast' }, { id: 'dragon', name: 'Red Dragon', kind: 'npc', side: 'foes', band: 'slow' }] });
    expect(JSON.stringify(t.s.view({ role: 'spectator' }).world.ext['36th-way'])).toContain('Red Dragon');
  });
});

describe('robustness', () => {
  const types = [
    '36th-way.sheet.set', '36th-way.sheet.remove', '36th-way.outOfFight', '36th-way.attack', '36th-way.damage', '36th-way.heal', '36th-way.stabilize', '36th-way.lastGasp', '36th-way.grantSave', '36th-way.useAbility', '36th-way.sustain',
    '36th-way.quickRest', '36th-way.fullRest', '36th-way.restore', '36th-way.stance', '36th-way.position', '36th-way.move', '36th-way.disengage', '36th-way.popOff', '36th-way.intercept', '36th-way.rally', '36th-way.fightInSpirit', '36th-way.flee', '36th-way.check', '36th-way.diceyMove',
  ];
  it('every command has a handler', () => {
    const handled = ruleset.modules.flatMap((m) => Object.keys(m.commands ?? {}));
    for (const ty of types) expect(handled).toContain(ty);
  });
  it('random payloads give typed errors or valid events, never a crash', () => {
    const ids = fc.constantFrom('ann', 'orc', 'nobody', '', 42, null);
    const json: fc.Arbitrary<Json> = fc.oneof(ids as fc.Arbitrary<Json>, fc.integer({ min: -5, max: 40 }), fc.boolean(), fc.array(ids as fc.Arbitrary<Json>, { maxLength: 3 }), fc.constantFrom<Json>('melee', 'ranged', 'engaged', 'far', 'fire', { kind: 'average', averaged: 1 }, { count: 3, sides: 6 }, 'recovery', 'npc'));
    const keys = ['attacker', 'targets', 'target', 'who', 'id', 'basic', 'ability', 'damage', 'mode', 'types', 'range', 'to', 'a', 'b', 'from', 'amount', 'how', 'stance', 'difficulty', 'against', 'sheet', 'value', 'opportunity', 'interceptor', 'mover', 'coupDeGrace', 'recoveries'];
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.dictionary(fc.constantFrom(...keys), json, { maxKeys: 6 }), fc.integer({ min: 0, max: 1000 }), (type, payload, seed) => {
        const s = scenario(ruleset.modules, { rng: seededRng(seed), rulesetId: '36th-way' });
        s.run({ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', abilities: [{ id: 'x', frequency: 'encounter' }] } });
        s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc' } });
        s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', side: 'party', band: 'fast' }, { id: 'orc', kind: 'npc', side: 'foes', band: 'slow' }] });
        s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' });
        const r = s.engine.execute(s.table, { type, ...payload }, { rng: s.rng, actor: { role: 'gm' } });
        if (!r.ok) {
          expect(typeof r.error.code).toBe('string');
          expect(r.error.code).not.toBe('INTERNAL');
        }
      }),
      { numRuns: 300 },
    );
  });
});
