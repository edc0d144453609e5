// A bestiary stat block's abilities (review 12 #13, issue 20): entered as the PC
// sheet's ability list (002 "Ability Entries": frequency, recharge, sustain), kept
// on the block, and on each copy's sheet when the foe joins a fight, after its attack.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { BLOCK_ATTACK_ID, tswFoeSheet } from '../../src/foe-sheets.js';
import { statBlockOf } from '../../src/stat-blocks.js';
import { ANN, events, expectReplayEqualsLive, table, type T } from './setup.js';

const GM: Viewer = { role: 'gm' };

/** A drake's breath: recharge 11+, its whole bonus +6 vs PD, fire 2d6; and a ward kept up on a sustain roll of 11+. */
const BREATH = { name: 'Fire Breath', frequency: 'recharge 11+', action: 'standard', attack: { defense: 'pd', bonus: 6, wholeBonus: true, reach: 'nearby', hit: { count: 2, sides: 6 }, types: ['fire'] } };
const WARD = { name: 'Scale Ward', frequency: 'encounter', action: 'quick', sustain: 11 };
const DRAKE = { hp: 30, level: 3, ac: 17, pd: 15, md: 12, attackName: 'Bite', attackBonus: 8, attackVs: 'ac', damage: '1d10', abilities: [BREATH, WARD] };

/** Ann against two drakes lined up from the block, as the builder sends them (the block rides on the combatants' stats). */
function drakes(): T {
  const t = table();
  t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
  const { hp, ...stats } = DRAKE;
  t.s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
      { id: 'drake-1', name: 'Drake 1', kind: 'npc', side: 'foes', band: 'medium', stats: { ...stats, hp, maxHp: hp } as unknown as Json },
      { id: 'drake-2', name: 'Drake 2', kind: 'npc', side: 'foes', band: 'slow', stats: { ...stats, hp, maxHp: hp } as unknown as Json },
    ],
  });
  t.s.run({ type: '36th-way.position', a: 'ann', b: 'drake-1', range: 'engaged' });
  // On to Drake 1's turn (Ann is fast, Drake 1 medium, Drake 2 slow).
  t.s.run({ type: 'encounter.endTurn' });
  expect(getEncounter(t.world).current).toBe('drake-1');
  return t;
}

function actionsOf(t: T, id: string): ActionsAnswer {
  const r = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: id });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as unknown as ActionsAnswer;
}

describe('the stat block takes abilities as the PC sheet does', () => {
  it('takes a recharge and a sustained ability, and refuses a recharge 12+ or a sustain of 20 by the field', () => {
    const schema = statBlockOf('36th-way')!;
    expect(schema.safeParse(DRAKE).success).toBe(true);
    const badRecharge = schema.safeParse({ abilities: [{ ...BREATH, frequency: 'recharge 12+' }] });
    expect(badRecharge.error?.issues[0]?.path).toEqual(['abilities', 0, 'frequency']);
    const badSustain = schema.safeParse({ abilities: [BREATH, { ...WARD, sustain: 20 }] });
    expect(badSustain.error?.issues[0]?.path).toEqual(['abilities', 1, 'sustain']);
  });
  it('the sheet lists the attack first (the one a Hampered foe keeps), then the block\'s abilities; a block with no attack gives its abilities alone', () => {
    const sheet = tswFoeSheet(DRAKE);
    expect((sheet['abilities'] as { id?: string; name: string }[]).map((a) => a.id ?? a.name)).toEqual([BLOCK_ATTACK_ID, 'Fire Breath', 'Scale Ward']);
    expect(tswFoeSheet({ abilities: [WARD] })).toEqual({ abilities: [WARD] });
  });
});

describe('each copy gets the abilities when the group starts a fight', () => {
  it('both drakes\' sheets hold Fire Breath (recharge 11+) and Scale Ward (sustain 11), each with its own uses', () => {
    const t = drakes();
    for (const id of ['drake-1', 'drake-2']) {
      const a = t.sheet(id).abilities;
      expect(Object.keys(a)).toEqual([BLOCK_ATTACK_ID, 'fire-breath', 'scale-ward']);
      expect(a['fire-breath']).toMatchObject({ frequency: { kind: 'recharge', target: 11 }, attack: { defense: 'pd', bonus: 6, wholeBonus: true, reach: 'nearby', types: ['fire'] } });
      expect(a['scale-ward']).toMatchObject({ frequency: { kind: 'encounter' }, action: 'quick', sustain: 11 });
    }
    expectReplayEqualsLive(t);
  });
  it('Drake 1 offers its breath with the cost in the entry\'s words; the breath hits: natural 4+4+3 = 11, +6 = 17 vs PD 12; fire 2d6 = 5+2 = 7', () => {
    const t = drakes();
    const breath = actionsOf(t, 'drake-1').actions.find((x) => x.id === 'ability:fire-breath')!;
    expect(breath.reason).toBeNull();
    expect(breath).toMatchObject({ label: 'Fire Breath', cost: '1 standard action, recharge 11+', allowed: true });
    expect(actionsOf(t, 'drake-1').actions.find((x) => x.id === 'ability:scale-ward')).toMatchObject({ cost: '1 quick action, encounter', allowed: true });
    t.dice.push(4, 4, 3, 5, 2);
    const tx = t.s.run({ type: '36th-way.attack', attackerId: 'drake-1', targetIds: ['ann'], ability: 'fire-breath' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ defense: 'pd', defenseValue: 12, total: 17, hit: true, parts: { level: 0, volition: 0, bonus: 6 } });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ targetId: 'ann', amount: 7 });
    expect(t.dice.left).toBe(0);
    // Spent until a quick rest's recharge roll, on this drake only.
    const after = actionsOf(t, 'drake-1').actions.find((x) => x.id === 'ability:fire-breath')!;
    expect(after.allowed).toBe(false);
    expect(after.reason).toContain('recharge 11+');
    expect(t.sheet('drake-2').uses['fire-breath']?.expended ?? false).toBe(false);
  });
});
