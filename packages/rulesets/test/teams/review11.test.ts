// Review 11: Attack needs the combat skill (003 "Attacks": attribute + combat
// skill + proficiency), said before the form; the invite's quick PC carries
// endurance and stamina onto its sheet (003 "Damage", the reaction table).
import { describe, expect, it } from 'vitest';
import type { Json, Scenario, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { inviteNeedsOf } from '../../src/invite-needs.js';
import { boudica, enemy, fight, sheet, sheetFor, spear, table } from './helpers.js';

const GM: Viewer = { role: 'gm' };

function actions(s: Scenario, id: string): readonly TurnAction[] {
  const r = s.engine.query(s.table, GM, 'teams.actions', { combatantId: id });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as unknown as ActionsAnswer).actions;
}
const find = (list: readonly TurnAction[], id: string): TurnAction => {
  const x = list.find((y) => y.id === id);
  if (x === undefined) throw new Error(`no ${id}`);
  return x;
};

describe('Attack without a combat skill (003 "Attacks")', () => {
  const kira = { name: 'Kira', attributes: { strength: 6 }, skills: { athletics: 4 }, evasion: 5, maxHealth: 10, items: { spear: { name: 'spear', weapon: spear } } };

  it('is offered under Not now with the reason in words, and the engine agrees it cannot roll', () => {
    const { s } = table();
    sheetFor(s, 'k', kira);
    sheetFor(s, 'w', enemy({ name: 'Wolf', evasion: 4 }));
    fight(s, ['k'], ['w'], 'k');
    const attack = find(actions(s, 'k'), 'attack');
    expect(attack.allowed).toBe(false);
    expect(attack.reason).toBe('Kira has no combat skill, and an attack rolls it: give Kira a combat skill die with the Sheet');
    // The rule the reason states: the command itself refuses a skill-less attacker.
    expect(s.fail({ type: 'teams.attack', attackerId: 'k', targetId: 'w', weapon: 'spear' }).message).toMatch(/combat/);
  });

  it('becomes available once the sheet gives a combat skill', () => {
    const { s } = table();
    sheetFor(s, 'k', kira);
    sheetFor(s, 'w', enemy({ name: 'Wolf', evasion: 4 }));
    fight(s, ['k'], ['w'], 'k');
    s.run({ type: 'character.sheet.set', characterId: 'k', sheet: { skills: { athletics: 4, combat: 6 } }, patch: true } as unknown as { type: string; [k: string]: Json });
    const attack = find(actions(s, 'k'), 'attack');
    expect(attack.reason).toBeNull();
    expect(attack.allowed).toBe(true);
  });

  it('a sheet with the skill (Boudica) is never told so', () => {
    const { s } = table();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'w', enemy({ name: 'Wolf', evasion: 4 }));
    fight(s, ['b'], ['w'], 'b');
    expect(find(actions(s, 'b'), 'attack').allowed).toBe(true);
  });
});

/** The invite form's character: a name, HP and what inviteNeedsOf asks for, on its stats. */
function invite(s: Scenario): string {
  s.run({ type: 'character.add', name: 'Ann', kind: 'pc', stats: { hp: 11, maxHp: 11, maxEndurance: 8, maxStamina: 2 } });
  return Object.values(s.world.characters).find((c) => c.name === 'Ann')!.id;
}

describe('the invite quick PC (review 11 #14)', () => {
  it('asks for endurance, stamina and constitution, within the sheet limits', () => {
    expect(inviteNeedsOf('teams').map((q) => [q.key, q.min, q.max])).toEqual([
      ['maxEndurance', 0, 10_000],
      ['maxStamina', 0, 10_000],
      ['constitution', 0, 10_000],
      ['evasion', 0, 10_000],
    ]);
  });

  it('the first sheet written for it starts with full endurance and stamina beside its health', () => {
    const { s } = table();
    const ann = invite(s);
    s.run({ type: 'character.sheet.set', characterId: ann, sheet: {} });
    expect(sheet(s, ann)).toMatchObject({ maxHealth: 11, health: 11, maxEndurance: 8, endurance: 8, maxStamina: 2, stamina: 2 });
  });

  it('numbers the GM types on that first sheet win over the invite', () => {
    const { s } = table();
    const ann = invite(s);
    s.run({ type: 'character.sheet.set', characterId: ann, sheet: { maxEndurance: 5 } });
    expect(sheet(s, ann)).toMatchObject({ maxEndurance: 5, endurance: 5, maxStamina: 2 });
  });
});
