// 003 "Defensive Actions" (block, parry, dodge, intercept) and the multiple
// attack penalty, inside a running encounter.
import { describe, expect, it } from 'vitest';
import { boudica, enemy, fight, lastOf, sheet, sheetFor, shortbow, table, turnTo } from './helpers.js';

const agnessa = { name: 'Agnessa', attributes: { dexterity: 6 }, skills: { combat: 4 }, maxStamina: 2, items: { bow: { weapon: shortbow } } };
const brute = enemy({ name: 'Brute', maxStamina: 3, items: { club: { name: 'club', weapon: { attributes: ['strength'], damage: 4, criticalDamage: 8, criticalThreshold: 20, damageType: 'bludgeoning' } } } });

function setup() {
  const t = table();
  sheetFor(t.s, 'boudica', boudica);
  sheetFor(t.s, 'agnessa', agnessa);
  sheetFor(t.s, 'brute', brute);
  fight(t.s, ['boudica', 'agnessa'], ['brute']);
  return t;
}

const reaction = (s: ReturnType<typeof table>['s'], id: string): number => {
  const e = s.world.ext['encounter'] as { economy: { [k: string]: { spent: { [p: string]: number }; granted: { [p: string]: number } } } };
  const st = e.economy[id];
  return 1 + (st?.granted['reaction'] ?? 0) - (st?.spent['reaction'] ?? 0);
};

describe('the multiple attack penalty (003 "Attacks")', () => {
  it('Agnessa\'s second attack this round: 5 becomes 3 and misses evasion 4; next round the count starts again', () => {
    const { s, dice } = setup();
    turnTo(s, 'agnessa');
    dice.push(5, 4, 10); // 9: a hit on the brute (evasion 6) with no defence chosen yet
    s.run({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ earlier: 0, penalty: 0, result: 9, hit: true });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'none' });
    sheetFor(s, 'brute', { ...brute, evasion: 4 });
    dice.push(3, 2, 10); // 5 - 2 = 3
    s.run({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ earlier: 1, penalty: -2, result: 3, evasion: 4, hit: false });
    dice.push(3, 2, 10);
    s.run({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ earlier: 2, penalty: -4, result: 1 });
    // Out of actions now.
    expect(s.fail({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' }).code).toBe('NO_ACTIONS_LEFT');
    turnTo(s, 'brute');
    turnTo(s, 'agnessa'); // round 2
    dice.push(3, 2, 10);
    s.run({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ earlier: 0, penalty: 0, result: 5 });
  });

  it('an attack outside your turn is refused (the three actions are your own turn\'s)', () => {
    const { s } = setup();
    turnTo(s, 'boudica');
    expect(s.fail({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' }).code).toBe('NO_ACTIONS_LEFT');
  });
});

describe('block (003 "Block")', () => {
  it('the shield (block 3, durability 6) takes 16 - 3 = 13: it breaks and the excess 7 reaches Boudica; 1 stamina and the reaction are spent', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(6, 6, 10); // 12 against Boudica's evasion 5: hit; raw 12 + 4 = 16
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const id = String(lastOf(s, 'teams.attacked')['id']);
    expect(lastOf(s, 'teams.hitPending')).toMatchObject({ target: 'boudica' });
    s.run({ type: 'teams.defend', attack: id, reaction: 'block', item: 'shield' });
    // 16 - 3 = 13 to a 6-durability shield: broken, 7 through.
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ toItem: 13, damage: 7 });
    expect((sheet(s, 'boudica')['items'] as { shield: { durability: number } }).shield.durability).toBe(0);
    expect(sheet(s, 'boudica')['endurance']).toBe(5);
    expect(sheet(s, 'boudica')['stamina']).toBe(3);
    expect(reaction(s, 'boudica')).toBe(0);
    expect(s.world.log.map((l) => l.text)).toContain('Boudica blocked with the shield: 13 to the shield, 7 through (bludgeoning): 7 off endurance; endurance 5, health 12 (harmed).');
  });

  it('a small hit still costs the item at least 1 durability and nothing reaches the bearer', () => {
    const { s, dice } = setup();
    sheetFor(s, 'brute', { ...brute, items: { club: { weapon: { attributes: ['strength'], damage: 0, damageType: 'bludgeoning' } } } });
    turnTo(s, 'brute');
    dice.push(1, 1, 10); // 2 against evasion 5: miss
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.attacked')['hit']).toBe(false);
    dice.push(2, 1, 20); // critical: 3 + 0 = 3, minus block 3 = 0 -> 1
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'block', item: 'shield' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ toItem: 1, damage: 0 });
    expect((sheet(s, 'boudica')['items'] as { shield: { durability: number } }).shield.durability).toBe(5);
    expect(sheet(s, 'boudica')['endurance']).toBe(12);
  });

  it('a broken item, an item without the block property, an unwielded item, no stamina: typed refusals', () => {
    const { s, dice } = setup();
    sheetFor(s, 'boudica', { ...boudica, items: { ...boudica.items, shield: { block: 3, durability: 0, maxDurability: 6 } } });
    turnTo(s, 'brute');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const id = String(lastOf(s, 'teams.attacked')['id']);
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'block', item: 'shield' }).code).toBe('BROKEN');
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'block', item: 'spear' }).code).toBe('CANNOT_BLOCK');
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'parry', item: 'sword' }).code).toBe('NOT_WIELDED');
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'parry', item: 'shield' }).code).toBe('BROKEN');
    expect(s.fail({ type: 'teams.defend', attack: 'attack-999', reaction: 'none' }).code).toBe('NO_PENDING_ATTACK');
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'stamina', value: 0 });
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'parry', item: 'spear' }).code).toBe('NO_STAMINA');
  });

  it('with the blockExcessReduced setting the overflow is reduced by the bearer\'s deflection', () => {
    const { s, dice } = table({ 'teams.blockExcessReduced': true });
    sheetFor(s, 'boudica', { ...boudica, deflection: 2 });
    sheetFor(s, 'brute', brute);
    fight(s, ['boudica'], ['brute'], 'brute');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'block', item: 'shield' });
    // 7 through, minus deflection 2.
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ damage: 5 });
  });
});

describe('parry (003 "Parry")', () => {
  it('the sword\'s parry 2 adds to physical defence, and the sword loses 1 durability (metal: 10 -> 9)', () => {
    const { s, dice } = setup();
    sheetFor(s, 'boudica', { ...boudica, deflection: 3, wielded: ['sword'] });
    turnTo(s, 'brute');
    dice.push(4, 4, 10); // 8 + 4 = 12 raw
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'parry', item: 'sword' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ parryBonus: 2, damage: 12 - 3 - 2 });
    expect((sheet(s, 'boudica')['items'] as { sword: { durability: number } }).sword.durability).toBe(9);
  });

  it('an item without a parry value adds 1 (the spear, non-metal: 4 -> 3)', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(4, 4, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'parry', item: 'spear' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ parryBonus: 1, damage: 11 });
    expect((sheet(s, 'boudica')['items'] as { spear: { durability: number } }).spear.durability).toBe(3);
  });
});

describe('dodge and intercept', () => {
  it('a dodge at or above the attack result avoids it; below, the hit lands', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(3, 3, 10); // 6 against evasion 5
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const id = String(lastOf(s, 'teams.attacked')['id']);
    dice.push(4, 1, 10); // dexterity d4 + athletics d4 = 5 < 6
    s.run({ type: 'teams.defend', attack: id, reaction: 'dodge', test: { attribute: 'dexterity', skill: 'athletics' } });
    expect(lastOf(s, 'teams.dodgeRolled')).toMatchObject({ difficulty: 6, success: false });
    expect(sheet(s, 'boudica')['endurance']).toBe(12 - 10);
    s.run({ type: 'history.undo' });
    dice.push(4, 1, 20); // luck 20 adds 4: 9 >= 6
    s.run({ type: 'teams.defend', attack: id, reaction: 'dodge', test: { attribute: 'dexterity', skill: 'athletics' } });
    expect(lastOf(s, 'teams.dodgeRolled')).toMatchObject({ success: true });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ avoided: true, damage: 0 });
    expect(sheet(s, 'boudica')['endurance']).toBe(12);
  });

  it('a critical cannot be dodged unless the table allows it', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(3, 3, 20);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(s.fail({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'dodge', test: { attribute: 'dexterity', skill: 'athletics' } }).code).toBe('CANNOT_DODGE');
  });

  it('Agnessa intercepts: she becomes the target, the roll is checked against her evasion, and her block or parry is a free reaction', () => {
    const { s, dice } = setup();
    sheetFor(s, 'agnessa', { ...agnessa, evasion: 3, maxEndurance: 20, maxHealth: 5, items: { ...agnessa.items, buckler: { block: 2 } }, wielded: ['buckler'] });
    turnTo(s, 'brute');
    dice.push(3, 3, 10); // 6: hits Boudica (5) and Agnessa (3)
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const id = String(lastOf(s, 'teams.attacked')['id']);
    s.run({ type: 'teams.intercept', attack: id, by: 'agnessa' });
    expect(lastOf(s, 'teams.intercepted')).toMatchObject({ from: 'boudica', by: 'agnessa', stillHits: true, evasion: 3 });
    expect(reaction(s, 'agnessa')).toBe(0);
    s.run({ type: 'teams.defend', attack: id, reaction: 'block', item: 'buckler' });
    // raw 10 - block 2 = 8 against the buckler's 4: broken, 4 through; stamina 2 -> 1 (intercept) -> 0 (block).
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ target: 'agnessa', toItem: 8, damage: 4 });
    expect(sheet(s, 'agnessa')['stamina']).toBe(0);
    expect(sheet(s, 'boudica')['endurance']).toBe(12);
  });

  it('only an ally may intercept', () => {
    const { s, dice } = setup();
    s.run({ type: 'encounter.add', combatant: { id: 'brute2', kind: 'npc', side: 'foes' } });
    sheetFor(s, 'brute2', brute);
    turnTo(s, 'brute');
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const id = String(lastOf(s, 'teams.attacked')['id']);
    expect(s.fail({ type: 'teams.intercept', attack: id, by: 'brute2' }).code).toBe('NOT_AN_ALLY');
    expect(s.fail({ type: 'teams.intercept', attack: id, by: 'boudica' }).code).toBe('INVALID_VALUE');
  });

  it('an intercepted attack that no longer meets the interceptor\'s evasion misses', () => {
    const { s, dice } = setup();
    sheetFor(s, 'agnessa', { ...agnessa, evasion: 9 });
    turnTo(s, 'brute');
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const id = String(lastOf(s, 'teams.attacked')['id']);
    s.run({ type: 'teams.intercept', attack: id, by: 'agnessa' });
    expect(lastOf(s, 'teams.intercepted')).toMatchObject({ stillHits: false });
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'none' }).code).toBe('NO_PENDING_ATTACK');
  });

  it('a target with no reaction left takes the hit at once', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'parry', item: 'spear' });
    dice.push(6, 6, 10); // 12 - 2 (second attack) = 10: a hit, and Boudica's reaction is spent

    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none' });
  });

  it('a hit left unanswered lands with no reaction when the turn ends (setting teams.hitsLandAtTurnEnd)', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(6, 6, 10); // 12 + 4 = 16 on Boudica's 12 endurance: 4 to health
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'encounter.endTurn' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none', damage: 16 });
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 0, health: 8 });
    expect((s.world.ext['teams'] as { pending: object }).pending).toEqual({});
    s.undo();
    expect(Object.keys((s.world.ext['teams'] as { pending: object }).pending)).toHaveLength(1);

    // A knock-out at the end of the turn: the turn closes first, then the knocked-out target is passed over.
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'health', value: 1 });
    s.run({ type: 'teams.setTrack', id: 'boudica', field: 'endurance', value: 0 });
    dice.push(12); // the luck test to cheat death
    s.run({ type: 'encounter.endTurn' });
    expect(sheet(s, 'boudica')).toMatchObject({ conscious: false, dead: false });
    const tx = s.table.transactions.at(-1)!;
    const types = tx.kind === 'command' ? tx.events.map((e) => e.type) : [];
    expect(types.indexOf('encounter.turnClosed')).toBeLessThan(types.indexOf('encounter.turnStarted'));
    expect((s.world.ext['encounter'] as { current: string }).current).toBe('agnessa');

    const off = table({ 'teams.hitsLandAtTurnEnd': false });
    sheetFor(off.s, 'boudica', boudica);
    sheetFor(off.s, 'brute', brute);
    fight(off.s, ['boudica'], ['brute'], 'brute');
    off.dice.push(6, 6, 10);
    off.s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    off.s.run({ type: 'encounter.endTurn' });
    expect(Object.keys((off.s.world.ext['teams'] as { pending: object }).pending)).toHaveLength(1);
  });

  it('a hit left unanswered when the GM ends the encounter lands then, with no reaction, and never in the next fight (review 10)', () => {
    // Even with teams.hitsLandAtTurnEnd off: 003 takes a reaction in the moment of the attack, not after the fight.
    const { s, dice } = table({ 'teams.hitsLandAtTurnEnd': false });
    sheetFor(s, 'boudica', boudica);
    sheetFor(s, 'brute', brute);
    fight(s, ['boudica'], ['brute'], 'brute');
    dice.push(6, 6, 10); // 12 + club 4 = 16 on Boudica's 12 endurance: 4 to health
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(Object.keys((s.world.ext['teams'] as { pending: object }).pending)).toHaveLength(1);
    s.run({ type: 'encounter.end' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none', damage: 16 });
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 0, health: 8 });
    expect((s.world.ext['teams'] as { pending: object }).pending).toEqual({});
    // One Undo takes back the end and the hit together: the hit waits again.
    s.undo();
    expect(Object.keys((s.world.ext['teams'] as { pending: object }).pending)).toHaveLength(1);
    expect(sheet(s, 'boudica')).toMatchObject({ endurance: 12 });
  });

  it('undo of a block restores the shield, the stamina, the reaction and the endurance', () => {
    const { s, dice } = setup();
    turnTo(s, 'brute');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const before = JSON.stringify(s.world.ext);
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'block', item: 'shield' });
    expect(JSON.stringify(s.world.ext)).not.toBe(before);
    s.undo();
    expect(JSON.stringify(s.world.ext)).toBe(before);
  });
});
