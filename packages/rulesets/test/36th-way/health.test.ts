// 002 "Damage and Recovery": staggered, dying, death saves, recoveries, Last Gasp saves.
import { getEncounter, type Json } from '@tablekeeper/engine';
import { describe, expect, it } from 'vitest';
import { heal, isStaggered, recoveryAmount, takeDamage } from '../../src/36th-way/health.js';
import { parseSheet, type Sheet } from '../../src/36th-way/state.js';
import { ANN, events, expectReplayEqualsLive, fight } from './setup.js';

const sheet = (over: object = {}): Sheet => {
  const r = parseSheet({ ...ANN, ...over } as unknown as Json, null);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('pure: staggered, dropping, healing', () => {
  it('staggered at half HP or less (and above 0)', () => {
    expect(isStaggered({ hp: 15, maxHp: 30 })).toBe(true);
    expect(isStaggered({ hp: 16, maxHp: 30 })).toBe(false);
    expect(isStaggered({ hp: 10, maxHp: 21 })).toBe(true);
    expect(isStaggered({ hp: 11, maxHp: 21 })).toBe(false);
    expect(isStaggered({ hp: 0, maxHp: 30 })).toBe(false);
  });
  it('a PC at 0 or less is dying; a crit or minus half max HP gives 2 Disadvantage on the first death save', () => {
    const s = sheet();
    expect(takeDamage(null, s, 30, false).dying).toMatchObject({ firstSaveDisadvantage: 0 });
    expect(takeDamage(null, s, 30, true).dying).toMatchObject({ firstSaveDisadvantage: 2 });
    expect(takeDamage(null, s, 44, false).dying).toMatchObject({ firstSaveDisadvantage: 0 }); // -14
    expect(takeDamage(null, s, 45, false).dying).toMatchObject({ firstSaveDisadvantage: 2 }); // -15 = -half of 30
    expect(takeDamage(null, s, 29, true).dying).toBeNull();
    // Already dying, hit again before the first save: the penalty still applies.
    const down = { ...s, hp: -2, dying: takeDamage(null, s, 32, false).dying };
    expect(down.dying).toMatchObject({ firstSaveDisadvantage: 0 });
    expect(takeDamage(null, down, 20, false).dying).toMatchObject({ firstSaveDisadvantage: 2 });
  });
  it('an enemy at 0 or less is dead, or unconscious by setting', () => {
    const orc = sheet({ kind: 'npc' });
    expect(takeDamage(null, orc, 30, false)).toMatchObject({ dead: true, dying: null });
    expect(takeDamage({ settings: { '36th-way.npcAtZero': 'unconscious' } } as never, orc, 30, false)).toMatchObject({ dead: false, unconscious: true });
  });
  it('the "unconscious" variant knocks PCs out instead of dying', () => {
    expect(takeDamage({ settings: { '36th-way.dyingMode': 'unconscious' } } as never, sheet(), 30, false)).toMatchObject({ dying: null, unconscious: true });
  });
  it('healing starts from 0 when below it and is capped at max HP', () => {
    expect(heal(null, sheet({ hp: -8 }), 7, { free: false })).toMatchObject({ hp: 7, spent: 1, halved: false });
    expect(heal(null, sheet({ hp: 28 }), 7, { free: false })).toMatchObject({ hp: 30 });
  });
  it('with no recoveries left healing is halved and costs -1 Volition and defenses until a full rest', () => {
    expect(heal(null, sheet({ hp: 10, recoveries: 0 }), 7, { free: false })).toMatchObject({ hp: 13, spent: 0, halved: true, exhaustion: 1 });
    // A free recovery does not need one.
    expect(heal(null, sheet({ hp: 10, recoveries: 0 }), 7, { free: true })).toMatchObject({ hp: 17, halved: false, exhaustion: 0 });
  });
  it('recovery amount: rolled dice or the average with each die rounded down, plus the bonus', () => {
    expect(recoveryAmount(sheet({ recoveryDice: { count: 2, sides: 8 }, recoveryBonus: 3 }), null)).toBe(11); // 2 x 4 + 3
    expect(recoveryAmount(sheet({ recoveryDice: { count: 2, sides: 8 }, recoveryBonus: 3 }), [8, 1])).toBe(12);
  });
});

/** End turns (taking default choices) until `id` acts. */
function advanceTo(t: ReturnType<typeof fight>, id: string): void {
  for (let guard = 0; guard < 50 && getEncounter(t.world).current !== id; guard++) {
    if (getEncounter(t.world).pending !== null) t.s.run({ type: 'encounter.choose' });
    else t.s.run({ type: 'encounter.endTurn' });
  }
  expect(getEncounter(t.world).current).toBe(id);
}

describe('dying and death saves through turns (002 "Dying and Death")', () => {
  /** Ann drops to 0 on her own turn; the orc's turn passes; round 2 starts with Ann's turn, hers to roll. */
  const dropped = (amount = 30, crit = false, settings = {}) => {
    const t = fight(settings);
    t.s.run({ type: '36th-way.damage', target: 'ann', amount, crit });
    t.s.run({ type: 'encounter.endTurn' });
    return t;
  };
  /** The orc's turn ends and Ann's starts: nothing is rolled for her (review 9: her player rolls it). */
  const toAnn = (t: ReturnType<typeof fight>) => {
    const tx = t.s.run({ type: 'encounter.endTurn' });
    expect(events(tx, '36th-way.deathSaveRolled')).toEqual([]);
    expect(getEncounter(t.world).current).toBe('ann');
  };
  const save = (t: ReturnType<typeof fight>) => t.s.run({ type: '36th-way.deathSave', characterId: 'ann' });
  it('a dying PC rolls a 13+ death save on their own turn; a failure is marked and the turn passes', () => {
    const t = dropped();
    expect(t.sheet('ann').dying).not.toBeNull();
    toAnn(t);
    t.dice.push(2, 2, 2);
    const tx = save(t);
    expect(events(tx, '36th-way.deathSaveRolled')[0]).toMatchObject({ outcome: 'failure', target: 13, failures: 1, dead: false, passed: false });
    expect(getEncounter(t.world).current).toBe('orc');
    expect(getEncounter(t.world).round).toBe(2);
    // The dice and the target in the log (review 9).
    expect(t.world.log.map((l) => l.text)).toContain('Ann rolled a death save: 3d6 [2, 2, 2] = 6 vs 13+, failure (1 failed this encounter).');
    expectReplayEqualsLive(t);
  });
  it('one death save per turn, on her own turn only', () => {
    const t = dropped();
    expect(t.s.fail({ type: '36th-way.deathSave', characterId: 'ann' })).toMatchObject({ code: 'NOT_NOW', message: "only on Ann's own turn" });
    toAnn(t);
    t.dice.push(6, 6, 5, 1); // a crit: she acts on, so the turn stays hers
    save(t);
    expect(t.s.fail({ type: '36th-way.deathSave', characterId: 'ann' })).toMatchObject({ code: 'NOT_NOW', message: 'Ann is not dying' });
    expect(t.s.fail({ type: '36th-way.deathSave', characterId: 'orc' })).toMatchObject({ code: 'NOT_NOW', message: 'Orc is not dying' });
  });
  it('a success heals with a recovery from 0 HP; the character acts next turn', () => {
    const t = dropped(40); // -10 HP
    toAnn(t);
    t.dice.push(5, 5, 3, 4); // natural 13; 1d8 = 4, + 3 = 7
    const tx = save(t);
    expect(events(tx, '36th-way.healed')[0]).toMatchObject({ hpFrom: 0, hpTo: 7, spent: 1, revived: true });
    expect(t.sheet('ann')).toMatchObject({ hp: 7, recoveries: 7, dying: null });
    expect(getEncounter(t.world).current).toBe('orc');
    // The line names the recovery spent, its die and what is left (review 6; ADR 51).
    expect(t.world.log.map((l) => l.text)).toContain('Ann spends a Recovery (death save): 1d8+3 [4] = 7 HP (7 left): now 7 HP, back from dying.');
  });
  it('a crit heals and the character acts at once', () => {
    const t = dropped();
    toAnn(t);
    t.dice.push(6, 6, 5, 1);
    save(t);
    expect(getEncounter(t.world).current).toBe('ann');
    expect(t.sheet('ann').hp).toBe(4);
  });
  it('dropped by a crit: 2 Disadvantage on the first death save only, said in the log with all five dice', () => {
    const t = dropped(30, true);
    toAnn(t);
    t.dice.push(6, 6, 6, 6, 1, 2);
    const tx = save(t);
    // Five dice, the lowest three kept: 1 + 6 + 6 = 13, a success; the recovery die is the 2.
    expect(events(tx, '36th-way.deathSaveRolled')[0]).toMatchObject({ firstSaveDisadvantage: 2, roll: { net: -2, natural: 13 } });
    expect(t.world.log.map((l) => l.text)).toContain('Ann rolled a death save: 5d6 keep lowest 3 (2 Disadvantage) [6, 6, 6, 6, 1] = 13 vs 13+, first save with 2 Disadvantage (dropped by a crit or to -half HP), success.');
  });
  it('dropped to minus half max HP: 2 Disadvantage on the first death save', () => {
    const t = dropped(45);
    toAnn(t);
    t.dice.push(1, 1, 1, 1, 1);
    const tx = save(t);
    expect(events(tx, '36th-way.deathSaveRolled')[0]).toMatchObject({ firstSaveDisadvantage: 2 });
    toAnn(t);
    t.dice.push(1, 1, 1); // second save: three dice only
    const tx2 = save(t);
    expect(events(tx2, '36th-way.deathSaveRolled')[0]).toMatchObject({ firstSaveDisadvantage: 0, failures: 2 });
  });
  it('Enervated gives 1 Disadvantage on death saves', () => {
    const t = dropped();
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'enervated', duration: { kind: 'encounterEnd' } });
    toAnn(t);
    t.dice.push(6, 6, 6, 1, 2);
    const tx = save(t);
    expect(events(tx, '36th-way.deathSaveRolled')[0]).toMatchObject({ roll: { net: -1, natural: 13 }, outcome: 'success' });
  });
  it('four failed death saves in one encounter: the character dies and loses later turns', () => {
    const t = dropped();
    for (let i = 1; i <= 4; i++) {
      toAnn(t);
      t.dice.push(1, 2, 3);
      const tx = save(t);
      expect(events(tx, '36th-way.deathSaveRolled')[0]).toMatchObject({ failures: i, dead: i === 4 });
    }
    expect(t.sheet('ann')).toMatchObject({ dead: true, dying: null });
  });
  it('a turn passed with no save rolls it as the turn ends (the GM going on for an absent player, ADR 69), once', () => {
    const t = dropped();
    toAnn(t);
    t.dice.push(1, 2, 3);
    const tx = t.s.run({ type: 'encounter.endTurn' });
    expect(events(tx, '36th-way.deathSaveRolled')).toHaveLength(1);
    expect(events(tx, '36th-way.deathSaveRolled')[0]).toMatchObject({ passed: true, failures: 1 });
    expect(t.world.log.map((l) => l.text)).toContain('Ann rolled a death save as the turn passed: 3d6 [1, 2, 3] = 6 vs 13+, failure (1 failed this encounter).');
    // Rolled on her turn, the save is not rolled again when that turn ends.
    toAnn(t);
    t.dice.push(1, 2, 4);
    const own = save(t);
    expect(events(own, '36th-way.deathSaveRolled')).toHaveLength(1);
    expect(t.sheet('ann').deathFailures).toBe(2);
    expectReplayEqualsLive(t);
  });
  it('stabilized: still cannot act, but failures no longer kill', () => {
    const t = dropped();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'bob', name: 'Bob', kind: 'pc' } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'bob', kind: 'pc', side: 'party', band: 'medium' } }); // joins late: next round
    for (let i = 0; i < 6; i++) t.dice.push(1, 2, 3);
    advanceTo(t, 'bob');
    expect(t.sheet('ann').deathFailures).toBe(1);
    t.s.run({ type: '36th-way.stabilize', who: 'bob', target: 'ann' });
    expect(t.sheet('ann').dying).toMatchObject({ stabilized: true });
    for (let r = 0; r < 4; r++) {
      t.s.run({ type: 'encounter.endTurn' });
      advanceTo(t, 'bob');
    }
    expect(t.sheet('ann')).toMatchObject({ dead: false, deathFailures: 5 });
    expect(t.sheet('ann').dying).not.toBeNull();
  });
  it('any healing brings a dying character back from 0', () => {
    const t = dropped(36); // -6
    t.s.run({ type: '36th-way.heal', id: 'ann', how: 'recovery', average: true });
    expect(t.sheet('ann')).toMatchObject({ hp: 7, dying: null, recoveries: 7 }); // 1d8 averaged = 4, + 3
  });
  it('death save failures reset when the encounter ends', () => {
    const t = dropped();
    toAnn(t);
    t.dice.push(1, 2, 3);
    save(t);
    expect(t.sheet('ann').deathFailures).toBe(1);
    t.s.run({ type: 'encounter.end' });
    expect(t.sheet('ann').deathFailures).toBe(0);
  });
});

describe('Last Gasp saves (002 "Last Gasp Saves")', () => {
  it('death saves against an effect; success keeps the HP held when it began; healing cannot help; an ally grants a save that does not count', () => {
    const t = fight();
    t.s.run({ type: '36th-way.damage', target: 'ann', amount: 5 });
    t.s.run({ type: '36th-way.lastGasp', id: 'ann', effect: 'petrifying gaze' });
    expect(t.s.fail({ type: '36th-way.heal', id: 'ann' }).code).toBe('LAST_GASP');
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'bob', name: 'Bob', kind: 'pc' } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'bob', kind: 'pc', side: 'party', band: 'medium' } });
    advanceTo(t, 'bob');
    t.dice.push(1, 1, 2);
    const g = t.s.run({ type: '36th-way.grantSave', who: 'bob', target: 'ann' });
    expect(events(g, '36th-way.deathSaveRolled')[0]).toMatchObject({ lastGasp: true, outcome: 'failure', counted: false, failures: 0 });
    t.s.run({ type: '36th-way.damage', target: 'ann', amount: 3 }); // the effect's consequences
    t.dice.push(5, 5, 4); // Ann's own save at the start of her next turn: 14, a success
    t.s.run({ type: 'encounter.endTurn' });
    advanceTo(t, 'bob');
    expect(t.sheet('ann')).toMatchObject({ dying: null, hp: 25 });
  });
});

describe('healing commands', () => {
  it('no recoveries left: halved, and -1 Volition and defenses until a full rest', () => {
    const t = fight({}, { ann: { hp: 10, recoveries: 0 } });
    const tx = t.s.run({ type: '36th-way.heal', id: 'ann', average: true });
    expect(events(tx, '36th-way.healed')[0]).toMatchObject({ amount: 7, hpTo: 13, halved: true, exhaustion: 1 });
    // 1d8 averaged rounds down to 4, + 3 = 7, halved to 3 (rounded as the heal rounds).
    expect(t.world.log.at(-1)?.text).toMatch(/^Ann has no Recovery left \(recovery\): 1d8\+3 averaged = 7 HP, halved to 3 \(-1 Volition and defenses until a full rest\): now 13 HP\.$/);
    t.dice.push(5, 5, 4, 1); // natural 14 + 1 + (3 - 1) = 17 vs AC 14
    const a = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
    expect(events(a, '36th-way.attackRolled')[0]).toMatchObject({ parts: { volition: 2 }, total: 17 });
    expect(events(a, '36th-way.damaged')[0]).toMatchObject({ amount: 3 }); // 1 + Volition 2
    t.s.run({ type: 'encounter.end' });
    t.s.run({ type: '36th-way.fullRest' });
    expect(t.sheet('ann')).toMatchObject({ exhaustion: 0, hp: 30, recoveries: 8 });
  });
  it('NPCs heal 1d6 (or 1d10) per level', () => {
    const t = fight({}, { orc: { hp: 5 } });
    t.dice.push(4, 6);
    const tx = t.s.run({ type: '36th-way.heal', id: 'orc', how: 'npc', die: 6 });
    expect(events(tx, '36th-way.healed')[0]).toMatchObject({ amount: 10, hpTo: 15 });
    expect(t.s.fail({ type: '36th-way.heal', id: 'orc', how: 'npc', die: 8 }).code).toBe('INVALID_VALUE');
  });
  it('an enemy at 0 HP is dead and loses its turns', () => {
    const t = fight();
    t.s.run({ type: '36th-way.damage', target: 'orc', amount: 20 });
    expect(t.sheet('orc').dead).toBe(true);
    const tx = t.s.run({ type: 'encounter.endTurn' });
    expect(events(tx, 'encounter.turnSkipped').length + events(tx, 'encounter.roundEnded').length).toBeGreaterThan(0);
    expect(getEncounter(t.world).current).toBe('ann');
  });
});
