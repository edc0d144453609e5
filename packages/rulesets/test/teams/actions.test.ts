// 003 "Actions in Combat": the Actions and Free Actions tables on the kernel's
// economy, extended actions (Petra's reload), Command, Ready, Guard, Wait.
import { describe, expect, it } from 'vitest';
import type { Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { boudica, enc, enemy, fight, lastOf, sheet, sheetFor, shortbow, table, turnTo } from './helpers.js';

type EncState = {
  economy: { [k: string]: { spent: { [p: string]: number }; granted: { [p: string]: number }; extended: { label: string; remaining: number } | null } };
  conditions: { [k: string]: { target: string; defId: string } };
  combatants: { [k: string]: { readied: { action: string; trigger: string } | null } };
};
const E = (s: ReturnType<typeof table>['s']): EncState => s.world.ext['encounter'] as unknown as EncState;
const club = { name: 'club', weapon: { attributes: ['strength'], damage: 4, damageType: 'bludgeoning' } };
const petra = { name: 'Petra', characterId: 'ch-petra', attributes: { dexterity: 6, strength: 4 }, skills: { combat: 6 }, maxStamina: 2, maxFocus: 4, items: { crossbow: { weapon: { ...shortbow, damage: 5 } } } };

function setup(first = 'boudica') {
  const t = table();
  sheetFor(t.s, 'boudica', boudica);
  sheetFor(t.s, 'petra', petra);
  sheetFor(t.s, 'brute', enemy({ name: 'Brute', evasion: 4, items: { club } }));
  sheetFor(t.s, 'archer', enemy({ name: 'Archer', attributes: { dexterity: 6 }, items: { bow: { weapon: shortbow } } }));
  fight(t.s, ['boudica', 'petra'], ['brute', 'archer'], first);
  return t;
}
const hasCond = (s: ReturnType<typeof table>['s'], id: string, cond: string): boolean => Object.values(E(s).conditions).some((c) => c.target === id && c.defId === cond);

describe('Petra\'s crossbow (003 extended actions)', () => {
  it('fire, seek cover, start a two-action reload with one action left; next turn the first action finishes it', () => {
    const { s, dice } = setup('petra');
    dice.push(1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'petra', target: 'brute', weapon: 'crossbow' });
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Seek Cover' });
    expect(hasCond(s, 'petra', 'in-cover')).toBe(true);
    s.run({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 2, label: 'Reload crossbow' });
    expect(E(s).economy['petra']!.extended).toEqual({ label: 'Reload crossbow', pool: 'actions', remaining: 1 });
    turnTo(s, 'brute');
    turnTo(s, 'petra');
    // Cover lasted until her next turn.
    expect(hasCond(s, 'petra', 'in-cover')).toBe(false);
    expect(s.fail({ type: 'teams.attack', attacker: 'petra', target: 'brute', weapon: 'crossbow' }).code).toBe('EXTENDED_PENDING');
    s.run({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 2, label: 'Reload crossbow' });
    expect(E(s).economy['petra']!.extended).toBeNull();
    expect(E(s).economy['petra']!.spent['actions']).toBe(1);
    dice.push(1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'petra', target: 'brute', weapon: 'crossbow' });
  });

  it('an action started this way can be abandoned at no cost', () => {
    const { s } = setup('petra');
    s.run({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 1 });
    s.run({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 1 });
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Short Task', test: { attribute: 'dexterity', skill: 'combat' }, difficulty: 5 });
    expect(lastOf(s, 'teams.acted')).toMatchObject({ action: 'Short Task', extended: true, remaining: 2 });
    turnTo(s, 'brute');
    turnTo(s, 'petra');
    s.run({ type: 'encounter.cancelExtended', combatant: 'petra' });
    expect(E(s).economy['petra']!.extended).toBeNull();
    expect(E(s).economy['petra']!.spent['actions']).toBe(0);
  });

  it('a short task takes all three actions and then tests', () => {
    const { s, dice } = setup('petra');
    dice.push(3, 3, 20); // 6 + 4 (luck 20)
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Short Task', label: 'pick the lock', test: { attribute: 'dexterity', skill: 'combat' }, difficulty: 10 });
    expect(lastOf(s, 'teams.tested')).toMatchObject({ label: 'pick the lock', difficulty: 10, success: true });
    expect(E(s).economy['petra']!.spent['actions']).toBe(3);
  });
});

describe('Guard, Wait, Ready (actions that end the turn)', () => {
  it('Guard ends the turn and adds 1 to evasion and deflection until Boudica\'s next turn', () => {
    const { s, dice } = setup();
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Guard' });
    expect(enc(s).current).not.toBe('boudica');
    turnTo(s, 'brute');
    dice.push(3, 2, 10); // 5 against evasion 5 + 1: a miss
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ result: 5, evasion: 6, hit: false });
    dice.push(6, 6, 10); // 12 - 2 = 10 hits; 10 + 4 = 14, deflection 0 + 1
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'none' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ damage: 13 });
    turnTo(s, 'boudica');
    expect(hasCond(s, 'boudica', 'guarding')).toBe(false);
  });

  it('Guard adds 1 to defence tests (fortify)', () => {
    const { s, dice } = setup();
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Guard' });
    dice.push(1, 1, 10); // 1 + 1 + 1 fortitude + 1 guard = 4
    s.run({ type: 'teams.react', id: 'boudica', reaction: 'fortify', difficulty: 4, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } });
    expect(lastOf(s, 'teams.tested')).toMatchObject({ success: true });
    expect((lastOf(s, 'teams.tested')['roll'] as { total: number }).total).toBe(4);
  });

  it('Wait ends the turn with an extra reaction until the next turn', () => {
    const { s, dice } = setup();
    sheetFor(s, 'boudica', { ...boudica, maxEndurance: 100 });
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Wait' });
    turnTo(s, 'brute');
    for (let i = 0; i < 2; i++) {
      dice.push(6, 6, 10);
      s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
      expect(lastOf(s, 'teams.hitPending')).toBeTruthy();
      s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'parry', item: 'spear' });
    }
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none' }); // no reaction left: lands at once
    expect(sheet(s, 'boudica')['stamina']).toBe(2);
  });

  it('Ready an Action ends the turn; the readied attack is later taken as Boudica\'s reaction', () => {
    const { s, dice } = setup();
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Ready an Action', readiedAction: 'Attack', trigger: 'the brute comes within reach' });
    expect(E(s).combatants['boudica']!.readied).toMatchObject({ action: 'Attack', trigger: 'the brute comes within reach' });
    turnTo(s, 'brute');
    // Taken with no roll it would spend the reaction for nothing: the row's Take it now is refused in words (issue 20).
    const noRoll = s.fail({ type: 'teams.triggerReady', id: 'boudica', before: 'brute' });
    expect(noRoll.code).toBe('READIED_ATTACK');
    expect(noRoll.message).toContain('rolling the attack');
    expect(E(s).combatants['boudica']!.readied).not.toBeNull();
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'brute', weapon: 'spear', readied: true, before: 'brute' });
    expect(E(s).combatants['boudica']!.readied).toBeNull();
    expect(E(s).economy['boudica']!.spent['reaction']).toBe(1);
    expect(s.fail({ type: 'teams.attack', attacker: 'boudica', target: 'brute', weapon: 'spear', readied: true }).code).toBe('NOT_READIED');
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Ready an Action', readiedAction: 'Attack' }).code).toBe('NO_ACTIONS_LEFT');
  });

  it('the actions query offers a readied Attack as its own form: the reaction, the weapon, whose turn it interrupts, the odds (issue 20)', () => {
    const { s, dice } = setup();
    const GM: Viewer = { role: 'gm' };
    const listOf = (id: string): readonly TurnAction[] => {
      const r = s.engine.query(s.table, GM, 'teams.actions', { combatantId: id });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as unknown as ActionsAnswer).actions;
    };
    // Nothing readied: no such entry.
    expect(listOf('boudica').some((a) => a.id === 'readied-attack')).toBe(false);
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Ready an Action', readiedAction: 'Attack', trigger: 'the brute comes within reach' });
    turnTo(s, 'brute');
    const ra = listOf('boudica').find((a) => a.id === 'readied-attack');
    expect(ra).toMatchObject({ allowed: true, cost: 'the reaction', command: 'teams.attack', fixed: { attackerId: 'boudica', readied: true } });
    expect(ra!.odds?.query).toBe('teams.attackOdds');
    expect(ra!.target!.options.map((o) => o.value)).toEqual(expect.arrayContaining(['brute', 'archer']));
    // Whose turn it comes before: the one acting now first.
    const before = ra!.choices.find((c) => c.field === 'beforeId')!;
    expect(before.options[0]!.value).toBe('brute');
    expect(before.options.map((o) => o.value)).not.toContain('boudica');
    expect(ra!.choices.find((c) => c.field === 'weapon')!.options.map((o) => o.value)).toContain('spear');
    // Sent as the form sends it, it is the readied attack with the reaction; then the entry is gone.
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attackerId: 'boudica', targetId: 'brute', weapon: 'spear', readied: true, beforeId: 'brute' });
    expect(E(s).combatants['boudica']!.readied).toBeNull();
    expect(E(s).economy['boudica']!.spent['reaction']).toBe(1);
    expect(listOf('boudica').some((a) => a.id === 'readied-attack')).toBe(false);
  });
});

describe('readied non-attack actions and sheets', () => {
  it('a readied Interact is taken with teams.triggerReady: the reaction is spent and the readied action cleared', () => {
    const { s } = setup('petra');
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Ready an Action', readiedAction: 'Interact', trigger: 'the door opens' });
    turnTo(s, 'brute');
    s.run({ type: 'teams.triggerReady', id: 'petra', before: 'brute' });
    expect(lastOf(s, 'encounter.readyTaken')).toMatchObject({ id: 'petra', action: 'Interact' });
    expect(E(s).economy['petra']!.spent['reaction']).toBe(1);
    expect(s.fail({ type: 'teams.triggerReady', id: 'petra' }).code).toBe('NOT_READIED');
  });

  it('character.sheet.remove removes a sheet; one already gone is a typed error', () => {
    const { s } = setup();
    s.run({ type: 'character.sheet.remove', characterId: 'archer' });
    expect((s.world.ext['teams'] as { sheets: object }).sheets).not.toHaveProperty('archer');
    expect(s.fail({ type: 'character.sheet.remove', characterId: 'archer' }).code).toBe('NOT_FOUND');
  });
});

describe('Move, Sprint, Step, prone, cover, Command, Brandish, Drop Item', () => {
  it('Move once per turn; Sprint only after moving and for 1 stamina; Step replaces the move', () => {
    const { s } = setup();
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Sprint' }).code).toBe('REQUIREMENT');
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Move' });
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Move' }).code).toBe('LIMIT_REACHED');
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Step' }).code).toBe('LIMIT_REACHED');
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Sprint' });
    expect(sheet(s, 'boudica')['stamina']).toBe(3);
    turnTo(s, 'petra');
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Step' });
    expect(E(s).economy['petra']!.spent['actions'] ?? 0).toBe(0);
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Move' }).code).toBe('LIMIT_REACHED');
    s.run({ type: 'teams.setTrack', id: 'petra', field: 'stamina', value: 0 });
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Sprint' }).code).toBe('NO_STAMINA');
  });

  it('prone: melee attackers get advantage, ranged attackers disadvantage, until Stand Up (an action)', () => {
    const { s, dice } = setup();
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Stand Up' }).code).toBe('NOT_PRONE');
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Drop Prone' });
    expect(E(s).economy['boudica']!.spent['actions'] ?? 0).toBe(0);
    turnTo(s, 'brute');
    dice.push(1, 1, 2, 2, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ advantage: 1, result: 4 });
    turnTo(s, 'archer');
    dice.push(6, 6, 1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'archer', target: 'boudica', weapon: 'bow' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ advantage: -1, result: 2 });
    turnTo(s, 'boudica');
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Stand Up' });
    expect(hasCond(s, 'boudica', 'prone')).toBe(false);
  });

  it('cover gives ranged attackers disadvantage but not melee ones', () => {
    const { s, dice } = setup();
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Seek Cover' });
    turnTo(s, 'archer');
    dice.push(6, 6, 1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'archer', target: 'boudica', weapon: 'bow' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ advantage: -1 });
    turnTo(s, 'brute');
    dice.push(1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ advantage: 0 });
  });

  it('Command: 2 focus, once per turn per ally; the ally takes one action during the commander\'s turn', () => {
    const { s, dice } = setup('petra');
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Command', target: 'petra' }).code).toBe('BAD_TARGET');
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Command', target: 'brute' }).code).toBe('BAD_TARGET');
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Command', target: 'boudica' });
    expect(sheet(s, 'petra')['focus']).toBe(2);
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Command', target: 'boudica' }).code).toBe('LIMIT_REACHED');
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Guard', commanded: true }).code).toBe('NOT_COMMANDED');
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'brute', weapon: 'spear', commanded: true });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ attacker: 'boudica' });
    expect(s.fail({ type: 'teams.attack', attacker: 'boudica', target: 'brute', weapon: 'spear', commanded: true }).code).toBe('NOT_COMMANDED');
    // Boudica's own turn is untouched.
    turnTo(s, 'boudica');
    expect(E(s).economy['boudica']!.spent['actions'] ?? 0).toBe(0);
  });

  it('Command needs the focus', () => {
    const { s } = setup('petra');
    s.run({ type: 'teams.setTrack', id: 'petra', field: 'focus', value: 1 });
    expect(s.fail({ type: 'teams.act', combatant: 'petra', action: 'Command', target: 'boudica' }).code).toBe('NO_FOCUS');
  });

  it('Brandish chooses what is held (only held items block or parry); Drop Item is free', () => {
    const { s } = setup();
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Brandish', items: ['sword'] });
    expect(sheet(s, 'boudica')['wielded']).toEqual(['sword']);
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Drop Item', item: 'sword' });
    expect(sheet(s, 'boudica')['wielded']).toEqual([]);
    expect(E(s).economy['boudica']!.spent['actions']).toBe(1);
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Brandish', items: ['axe'] }).code).toBe('INVALID_VALUE');
  });

  it('attacks and reactions are not taken through teams.act; unknown actions are named', () => {
    const { s } = setup();
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Attack' }).code).toBe('USE_ATTACK');
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Parry' }).code).toBe('USE_REACTION');
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Dance' }).message).toContain('Short Task');
  });

  it('Interact and Brandish cost one action each: three a turn', () => {
    const { s } = setup();
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Interact' });
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Interact' });
    s.run({ type: 'teams.act', combatant: 'boudica', action: 'Brandish', items: ['spear'] });
    expect(s.fail({ type: 'teams.act', combatant: 'boudica', action: 'Interact' }).code).toBe('NO_ACTIONS_LEFT');
  });
});

describe('resist (003 Reactions table)', () => {
  it('costs 1 focus and the reaction; the test is recorded against the GM\'s difficulty', () => {
    const { s, dice } = setup();
    sheetFor(s, 'petra', { ...petra, skills: { ...petra.skills, will: 4 } });
    dice.push(2, 2, 10);
    s.run({ type: 'teams.react', id: 'petra', reaction: 'resist', difficulty: 5, test: { attribute: 'dexterity', skill: 'will' } });
    expect(lastOf(s, 'teams.tested')).toMatchObject({ label: 'resist', success: false });
    expect(sheet(s, 'petra')['focus']).toBe(3);
    expect(s.fail({ type: 'teams.react', id: 'petra', reaction: 'resist', difficulty: 5, test: { attribute: 'dexterity', skill: 'will' } }).code).toBe('NO_ACTIONS_LEFT');
  });
});
