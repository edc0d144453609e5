// Why a 36th Way attack is not available now, and what to do (review 9): a foe
// not yet engaged had its Spear offered because another foe (its ally) stood
// nearby, and the roll was then refused with no reason on the screen. Only an
// enemy in reach makes an attack available; the reason, a refused target's
// note and the roll's own refusal say what to do (002 "Positioning").
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { BLOCK_ATTACK_ID, tswFoeSheet } from '../../src/foe-sheets.js';
import { ANN, table, type T } from './setup.js';

const GM: Viewer = { role: 'gm' };
const SPEAR = { hp: 20, level: 2, ac: 16, pd: 14, md: 11, attackName: 'Spear', attackBonus: 7, attackVs: 'ac', damage: '2d6' };

/** Two orcs from a stat block (an engaged-reach Spear) and Ann, nobody engaged yet; the first orc's turn. */
function unengaged(): T {
  const t = table();
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN } as unknown as Json });
  for (const id of ['orc-1', 'orc-2']) t.s.run({ type: '36th-way.sheet.set', sheet: { id, name: id === 'orc-1' ? 'Orc 1' : 'Orc 2', kind: 'npc', maxHp: 20, ...tswFoeSheet(SPEAR) } as unknown as Json });
  t.s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'orc-1', name: 'Orc 1', kind: 'npc', side: 'foes', band: 'fast' },
      { id: 'orc-2', name: 'Orc 2', kind: 'npc', side: 'foes', band: 'medium' },
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'slow' },
    ],
  });
  return t;
}

const actions = (t: T, who: string): readonly TurnAction[] => {
  const r = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: who });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as unknown as ActionsAnswer).actions;
};
const spear = (t: T) => actions(t, 'orc-1').find((a) => a.id === `ability:${BLOCK_ATTACK_ID}`)!;

describe('Not now, and why (review 9)', () => {
  it("a foe not engaged with an enemy cannot use its Spear now, though its ally stands nearby: the reason says to engage first", () => {
    const t = unengaged();
    // Orc 2 is Orc 1's ally, nearby (the default range); an ally in reach does not make the attack available.
    t.s.run({ type: '36th-way.position', a: 'orc-1', b: 'orc-2', range: 'engaged' });
    expect(spear(t)).toMatchObject({ allowed: false, reason: "no enemy within Spear's reach (engaged) — move to engage one first" });
    // Each target says why it is refused and what to do; Ann (the enemy) comes first.
    expect(spear(t).target!.options.map((o) => [o.label, o.refused ?? null])).toEqual([
      ['Ann', "out of Spear's reach: move to engage first"],
      ['Orc 2', null],
    ]);
    // Moving is what the GM can do now.
    expect(actions(t, 'orc-1').find((a) => a.id === 'move')).toMatchObject({ allowed: true });
  });

  it('the roll itself, sent anyway, is refused with the same advice; once engaged the Spear is available', () => {
    const t = unengaged();
    const e = t.s.fail({ type: '36th-way.attack', attackerId: 'orc-1', targetIds: ['ann'], ability: BLOCK_ATTACK_ID });
    expect(e).toMatchObject({ code: 'OUT_OF_REACH', path: 'targetIds', message: "Ann is nearby: beyond Spear's reach (engaged): move to engage it first" });
    t.s.run({ type: '36th-way.move', who: 'orc-1', to: 'ann', range: 'engaged' });
    expect(spear(t)).toMatchObject({ allowed: true, reason: null });
    expect(spear(t).target!.options[0]).toMatchObject({ label: 'Ann', note: 'engaged' });
  });

  it("a PC's basic attack with no enemy in reach says to engage first; a basic melee attack on a nearby foe is refused with it", () => {
    const t = unengaged();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, rangedReach: 'nearby' } as unknown as Json });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc-1', range: 'far' });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc-2', range: 'far' });
    // Ann's turn (the orcs' bands come first).
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    const attack = (who: string) => actions(t, who).find((a) => a.id === 'attack')!;
    expect(attack('ann')).toMatchObject({ allowed: false, reason: 'no enemy engaged with Ann — move to engage one first' });
    // Orc 2 comes nearby: still no basic attack in Ann's melee stance (a ranged one needs the ranged stance), and the reason says both ways.
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc-2', range: 'nearby' });
    expect(attack('ann')).toMatchObject({ allowed: false, reason: 'no enemy engaged with Ann — move to engage one first, or switch to the ranged stance (a quick action)' });
    expect(t.s.fail({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc-2'], basic: 'melee' }, GM).message).toBe('Orc 2 is not engaged with Ann (basic melee attacks need an engaged target): move to engage it first');
    expect(t.s.fail({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc-2'], basic: 'ranged' }, GM).code).toBe('WRONG_STANCE');
    // The form offers only the stance's own basic attack; the switch is its own quick action (002 "Basic Attacks").
    expect(attack('ann').choices[0]!.options.map((o) => [o.value, o.refused ?? null])).toEqual([['melee', null]]);
    // Switched: Orc 2 (nearby) is in reach, Orc 1 (far) is not, and says what to do.
    t.s.run({ type: '36th-way.stance', who: 'ann', stance: 'ranged' });
    expect(attack('ann').allowed).toBe(true);
    expect(attack('ann').target!.options.map((o) => [o.label, o.refused ?? null])).toEqual([
      ['Orc 2', null],
      ['Orc 1', "out of a basic ranged attack's reach: move nearer first"],
    ]);
  });
});
