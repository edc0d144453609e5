// 003 "Damage" and "Death": Boudica's three hits, cheating death, nonlethal
// damage, the killing strike and resuscitation, through the engine.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { teamsStatus } from '../../src/teams/index.js';
import { boudica, enemy, fight, lastOf, sheet, sheetFor, table, turnTo } from './helpers.js';

type Combatants = { combatants: { [k: string]: { incapacitated: boolean } } };
const incapacitated = (s: ReturnType<typeof table>['s'], id: string): boolean => (s.world.ext['encounter'] as unknown as Combatants).combatants[id]!.incapacitated;
const fortify = { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' };

function boudicaFights() {
  const t = table();
  sheetFor(t.s, 'boudica', boudica);
  sheetFor(t.s, 'foe', enemy({ items: { club: { weapon: { attributes: ['strength'], damage: 4, damageType: 'bludgeoning' } } } }));
  fight(t.s, ['boudica'], ['foe']);
  return t;
}

describe('Boudica\'s three hits (003 "Damage", "Death")', () => {
  it('7 damage: endurance 12 -> 5, harmed (5 is half of 12 or less)', () => {
    const { s } = boudicaFights();
    s.run({ type: 'teams.damage', target: 'boudica', amount: 7 });
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 5, health: 12 });
    expect(s.world.log[s.world.log.length - 1]!.text).toContain('harmed');
    expect(teamsStatus(s.world, 'boudica')).toEqual({ harmed: true, bloodied: false, conscious: true, dead: false });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 6 });
    expect(teamsStatus(s.world, 'boudica')).toMatchObject({ harmed: true, bloodied: true });
  });

  it('10 more: endurance 0, 5 to health (12 -> 7); missing 5 > constitution 4: she fortifies with d6 + d4 + 1 = 7 against 5 and stays conscious, bloodied', () => {
    const { s, dice } = boudicaFights();
    s.run({ type: 'teams.damage', target: 'boudica', amount: 7 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 10 });
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 0, health: 7 });
    expect(lastOf(s, 'teams.consciousnessAtRisk')).toMatchObject({ difficulty: 5 });
    dice.push(4, 2, 7);
    s.run({ type: 'teams.stayConscious', id: 'boudica', fortify: true, test: fortify });
    expect(lastOf(s, 'teams.fortified')).toMatchObject({ difficulty: 5, success: true });
    expect((lastOf(s, 'teams.fortified')['roll'] as { total: number }).total).toBe(7);
    expect(sheet(s, 'boudica')).toMatchObject({ conscious: true, stamina: 3 });
    expect(s.world.log[s.world.log.length - 1]!.text).toContain('stays conscious');
  });

  it('8 more with 7 health left: health 0, unconscious, and the luck test (a 1 against 10) fails: she dies', () => {
    const { s, dice } = boudicaFights();
    s.run({ type: 'teams.damage', target: 'boudica', amount: 7 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 10 });
    dice.push(4, 2, 7);
    s.run({ type: 'teams.stayConscious', id: 'boudica', fortify: true, test: fortify });
    dice.push(1);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 8 });
    expect(lastOf(s, 'teams.fellUnconscious')).toMatchObject({ id: 'boudica' });
    expect(lastOf(s, 'teams.deathRisked')).toMatchObject({ die: 1, total: 1, difficulty: 10, survived: false });
    expect(sheet(s, 'boudica')).toMatchObject({ health: 0, dead: true, conscious: false });
    expect(incapacitated(s, 'boudica')).toBe(true);
  });

  it('cheating death: a 12 against 10 survives and the next test is against 15; any more damage at zero health risks death again', () => {
    const { s, dice } = boudicaFights();
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'health', value: 7 });
    dice.push(12);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 8 });
    expect(lastOf(s, 'teams.deathRisked')).toMatchObject({ survived: true, difficulty: 10, newDifficulty: 15 });
    expect(sheet(s, 'boudica')).toMatchObject({ dead: false, conscious: false, deathDifficulty: 15 });
    dice.push(14);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 1 });
    expect(lastOf(s, 'teams.deathRisked')).toMatchObject({ survived: false, difficulty: 15 });
  });

  it('damage exactly equal to the remaining health knocks out without risking death', () => {
    const { s } = boudicaFights();
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'health', value: 7 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 7 });
    expect(sheet(s, 'boudica')).toMatchObject({ health: 0, conscious: false, dead: false });
    const tx = s.table.transactions.at(-1)!;
    expect(tx.kind === 'command' && tx.events.some((e) => e.type === 'teams.deathRisked')).toBe(false);
  });

  it('nonlethal damage past zero does not risk death the first time; more damage at zero (even nonlethal) does', () => {
    const { s, dice } = boudicaFights();
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'health', value: 3 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 9, nonlethal: true });
    let tx = s.table.transactions.at(-1)!;
    expect(tx.kind === 'command' && tx.events.some((e) => e.type === 'teams.deathRisked')).toBe(false);
    expect(sheet(s, 'boudica')).toMatchObject({ health: 0, conscious: false });
    dice.push(10);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 1, nonlethal: true });
    tx = s.table.transactions.at(-1)!;
    expect(tx.kind === 'command' && tx.events.some((e) => e.type === 'teams.deathRisked')).toBe(true);
    expect(sheet(s, 'boudica')['dead']).toBe(false); // 10 against 10 cheats death
  });

  it('a character brought round at zero health: a blow soaked by endurance changes nothing, one that reaches health risks death', () => {
    const { s, dice } = boudicaFights();
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'health', value: 0 });
    sheetFor(s, 'boudica', { ...boudica, health: 0, endurance: 5 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 5 });
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 0, health: 0, conscious: true });
    dice.push(10);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 1 });
    expect(sheet(s, 'boudica')).toMatchObject({ conscious: false, dead: false, deathDifficulty: 15 });
  });

  it('a fortify choice left unanswered when the turn ends counts as falling unconscious', () => {
    const { s } = boudicaFights();
    turnTo(s, 'foe');
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 6 });
    expect(lastOf(s, 'teams.consciousnessAtRisk')).toMatchObject({ difficulty: 6 });
    s.run({ type: 'encounter.endTurn' });
    expect(lastOf(s, 'teams.fellUnconscious')).toMatchObject({ reason: 'did not fortify in time' });
    expect(sheet(s, 'boudica')['conscious']).toBe(false);
  });

  it('choosing not to fortify, or having no reaction left, means unconsciousness', () => {
    const { s } = boudicaFights();
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 6 });
    s.run({ type: 'teams.stayConscious', id: 'boudica', fortify: false });
    expect(sheet(s, 'boudica')['conscious']).toBe(false);
    expect(incapacitated(s, 'boudica')).toBe(true);
    expect(s.fail({ type: 'teams.stayConscious', id: 'boudica', fortify: true, test: fortify }).code).toBe('NOT_AT_RISK');

    const b = boudicaFights();
    b.s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    b.s.run({ type: 'teams.setTrack', id: 'boudica', field: 'stamina', value: 0 });
    b.s.run({ type: 'teams.damage', target: 'boudica', amount: 6 });
    expect(lastOf(b.s, 'teams.fellUnconscious')).toMatchObject({ reason: 'could not fortify to stay conscious' });
  });

  it('damage from a trap is reduced by the matching deflection (min 1); typeless is not; unknown types are refused', () => {
    const { s } = boudicaFights();
    sheetFor(s, 'boudica', { ...boudica, deflection: { physical: 3, elemental: 1 } });
    s.run({ type: 'teams.damage', target: 'boudica', amount: 5, damageType: 'slashing' });
    expect(sheet(s, 'boudica')['endurance']).toBe(10);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 1, damageType: 'fire' });
    expect(sheet(s, 'boudica')['endurance']).toBe(9);
    s.run({ type: 'teams.damage', target: 'boudica', amount: 4, damageType: 'psychic' });
    expect(sheet(s, 'boudica')['endurance']).toBe(5);
    expect(s.fail({ type: 'teams.damage', target: 'boudica', amount: 4, damageType: 'sonic' }).code).toBe('INVALID_VALUE');
    expect(s.fail({ type: 'teams.damage', target: 'boudica', amount: 1e9 }).message).toContain('100000');
  });
});

describe('killing strike (003 "Death")', () => {
  function downed(constitution: number) {
    const t = table();
    sheetFor(t.s, 'boudica', { ...boudica, constitution, conscious: false });
    sheetFor(t.s, 'foe', enemy({ items: { club: { weapon: { attributes: ['strength'], damage: 4, damageType: 'bludgeoning' } }, sap: { weapon: { attributes: ['strength'], damage: 1, damageType: 'bludgeoning', nonlethal: true } } } }));
    sheetFor(t.s, 'ally', enemy({ name: 'Ally' }));
    fight(t.s, ['boudica'], ['foe', 'ally'], 'foe');
    return t;
  }

  it('takes three actions and a test with advantage against the constitution: success kills', () => {
    const { s, dice } = downed(4);
    dice.push(1, 1, 3, 2, 10); // best of (2, 5), luck 10: 5 >= 4
    s.run({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.killed')).toMatchObject({ difficulty: 4 });
    expect((lastOf(s, 'teams.killed')['roll'] as { sets: unknown[] }).sets).toHaveLength(2);
    expect(sheet(s, 'boudica')['dead']).toBe(true);
    expect(s.fail({ type: 'teams.attack', attacker: 'foe', target: 'ally', weapon: 'club' }).code).toBe('NO_ACTIONS_LEFT');
  });

  it('failure makes a sneak attack instead (advantage, and it counts as an attack)', () => {
    const { s, dice } = downed(30);
    dice.push(1, 1, 3, 2, 10); // 5 < 30
    dice.push(2, 2, 6, 6, 10); // sneak attack: best of (4, 12) = 12 against evasion 5; the unconscious cannot react
    s.run({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.killingStrikeFailed')).toMatchObject({ difficulty: 30 });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ advantage: 1, result: 12, hit: true });
    // 12 + 4 = 16 bludgeoning, no deflection: endurance 12 -> 0, health 12 -> 8.
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 0, health: 8, dead: false });
  });

  it('started with fewer than three actions left it is finished on the next turn; conscious targets are refused', () => {
    const { s, dice } = downed(4);
    expect(s.fail({ type: 'teams.killingStrike', attacker: 'foe', target: 'ally', weapon: 'club' }).code).toBe('CONSCIOUS');
    s.run({ type: 'encounter.spend', combatant: 'foe', kind: 'action' });
    s.run({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.acted')).toMatchObject({ action: 'Killing Strike', extended: true, remaining: 1 });
    expect(sheet(s, 'boudica')['dead']).toBe(false);
    turnTo(s, 'ally');
    turnTo(s, 'foe');
    dice.push(1, 1, 3, 2, 10);
    s.run({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'club' });
    expect(sheet(s, 'boudica')['dead']).toBe(true);
  });
});

describe('killing strike weapons (003 "Death": "any nonlethal weapon")', () => {
  function downed(settings: { [k: string]: Json } = {}) {
    const t = table(settings);
    sheetFor(t.s, 'boudica', { ...boudica, constitution: 4, conscious: false });
    sheetFor(t.s, 'foe', enemy({ items: { club: { weapon: { attributes: ['strength'], damage: 4, damageType: 'bludgeoning' } }, sap: { weapon: { attributes: ['strength'], damage: 1, damageType: 'bludgeoning', nonlethal: true } } } }));
    fight(t.s, ['boudica'], ['foe'], 'foe');
    return t;
  }

  it('by default a nonlethal weapon (the sap) delivers it, as the text says', () => {
    const { s, dice } = downed();
    dice.push(1, 1, 3, 2, 10); // best of (2, 5) = 5 against constitution 4
    s.run({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'sap' });
    expect(lastOf(s, 'teams.killed')).toMatchObject({ difficulty: 4 });
    expect(sheet(s, 'boudica')['dead']).toBe(true);
  });

  it('"lethal" refuses the sap with a sentence; "nonlethal" refuses the club', () => {
    const lethal = downed({ 'teams.killingStrikeWeapons': 'lethal' }).s.fail({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'sap' });
    expect(lethal).toMatchObject({ code: 'NONLETHAL', path: 'weapon' });
    expect(lethal.message).toContain('only lethal weapons');
    const only = downed({ 'teams.killingStrikeWeapons': 'nonlethal' }).s.fail({ type: 'teams.killingStrike', attacker: 'foe', target: 'boudica', weapon: 'club' });
    expect(only).toMatchObject({ code: 'LETHAL', path: 'weapon' });
    expect(only.message).toContain('only nonlethal weapons');
  });
});

describe('resuscitate (003 Actions table)', () => {
  it('two actions: the rescuer goes prone and tests; success brings the target round and lets them take their turn', () => {
    const { s, dice } = table();
    sheetFor(s, 'clementine', { name: 'Clementine', attributes: { wits: 6 }, skills: { medicine: 6 }, proficiencies: { healer: 2 } });
    sheetFor(s, 'roland', { name: 'Roland', maxHealth: 8 });
    sheetFor(s, 'guard', enemy({ name: 'Guard' }));
    fight(s, ['roland', 'clementine'], ['guard'], 'clementine');
    sheetFor(s, 'roland', { name: 'Roland', maxHealth: 8, health: 0, conscious: false });
    expect(incapacitated(s, 'roland')).toBe(true);
    dice.push(4, 4, 10); // 8 + 2 = 10 against the default 10
    s.run({ type: 'teams.act', combatant: 'clementine', action: 'Resuscitate', target: 'roland', test: { attribute: 'wits', skill: 'medicine', proficiency: 'healer' } });
    expect(lastOf(s, 'teams.revived')).toMatchObject({ difficulty: 10, success: true });
    expect(sheet(s, 'roland')['conscious']).toBe(true);
    expect(incapacitated(s, 'roland')).toBe(false);
    const conds = Object.values((s.world.ext['encounter'] as unknown as { conditions: { [k: string]: { target: string; defId: string } } }).conditions);
    expect(conds.some((c) => c.target === 'clementine' && c.defId === 'prone')).toBe(true);
    // The guards act, then the players may give Roland the next turn.
    s.run({ type: 'encounter.endTurn' });
    expect((s.world.ext['encounter'] as { current: string }).current).toBe('guard');
    s.run({ type: 'encounter.endTurn' });
    expect((s.world.ext['encounter'] as { current: string }).current).toBe('roland');
  });

  it('refuses the dead and the conscious', () => {
    const { s } = table();
    sheetFor(s, 'clementine', { name: 'Clementine', attributes: { wits: 6 }, skills: { medicine: 6 } });
    sheetFor(s, 'roland', { name: 'Roland', dead: true, conscious: false });
    sheetFor(s, 'guard', enemy({ name: 'Guard' }));
    fight(s, ['clementine', 'roland'], ['guard'], 'clementine');
    expect(s.fail({ type: 'teams.act', combatant: 'clementine', action: 'Resuscitate', target: 'roland', test: { attribute: 'wits', skill: 'medicine' } }).code).toBe('DEAD');
    expect(s.fail({ type: 'teams.act', combatant: 'clementine', action: 'Resuscitate', target: 'guard', test: { attribute: 'wits', skill: 'medicine' } }).code).toBe('CONSCIOUS');
  });
});
