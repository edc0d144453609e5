// An ability's own attack (002 "Attacks", "Basic Attacks", "Ability Entries",
// "Positioning"): the defense it goes against, its bonus, reach, target count,
// Hit and Miss damage; the command, the odds query and the actions query read it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { abilityAsEntered, parseAbility, parseAttack, type AbilityEntry } from '../../src/36th-way/abilities.js';
import { events, expectReplayEqualsLive, fight, type T } from './setup.js';

const GM: Viewer = { role: 'gm' };

/** Ice Lance: vs PD, +1, 2d6 + 3 cold on a hit, Level on a miss (a made-up entry in the text's format). */
const LANCE = { id: 'lance', name: 'Ice Lance', types: ['spell', 'ranged'], frequency: 'at-will', action: 'standard', attack: { defense: 'pd', bonus: 1, reach: 'nearby', hit: { count: 2, sides: 6, bonus: 3 }, miss: 'level', types: ['cold'] } };

function withAbilities(t: T, abilities: readonly object[]): void {
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...(t.sheet('ann') as unknown as object), abilities } as unknown as Json });
}

function actionsOf(t: T, id: string): ActionsAnswer {
  const r = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: id });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value as unknown as ActionsAnswer;
}
const find = (a: ActionsAnswer, id: string): TurnAction => a.actions.find((x) => x.id === id) ?? expect.fail(`no action ${id} among ${a.actions.map((x) => x.id).join(', ')}`);

describe('an ability entry declares its attack', () => {
  it('defaults: vs AC, no bonus, the stance reach, one target, no miss damage, weapon damage', () => {
    const r = parseAttack({}, 'attack');
    expect(r).toEqual({ ok: true, value: { defense: 'ac', bonus: 0, reach: 'stance', targets: 1, asBasic: false, hit: null, miss: 'none', missDice: null, types: ['weapon'], rollAllFirst: false } });
  });
  it('bad input is refused with the field named', () => {
    expect(parseAttack({ defense: 'hp' }, 'abilities[0].attack')).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'abilities[0].attack.defense' } });
    expect(parseAttack({ miss: 'dice' }, 'a')).toMatchObject({ ok: false, error: { path: 'a.missDice' } });
    expect(parseAttack({ targets: 21 }, 'a')).toMatchObject({ ok: false, error: { path: 'a.targets' } });
    expect(parseAttack({ types: ['banana'] }, 'a')).toMatchObject({ ok: false, error: { path: 'a.types' } });
    const t = fight();
    expect(t.s.fail({ type: '36th-way.sheet.set', sheet: { id: 'ann', abilities: [{ id: 'x', attack: { reach: 'adjacent' } }] } }).code).toBe('INVALID_VALUE');
  });
  it('sustain and escalation are plain numbers and fields (not free JSON): Sustain 11+, Escalation 2+ even', () => {
    const t = fight();
    expect(t.s.fail({ type: '36th-way.sheet.set', sheet: { id: 'ann', abilities: [{ id: 'x', sustain: 'eleven' }] } }).code).toBe('INVALID_VALUE');
    expect(t.s.fail({ type: '36th-way.sheet.set', sheet: { id: 'ann', abilities: [{ id: 'x', escalation: { min: 9 } }] } }).code).toBe('INVALID_VALUE');
    withAbilities(t, [{ id: 'x', sustain: 11, escalation: { min: 2, parity: 'even' } }]);
    expect(t.sheet('ann').abilities['x']).toMatchObject({ sustain: 11, escalation: { min: 2, parity: 'even', special: false } });
  });
});

describe('36th-way.attack with an attack ability', () => {
  it('vs PD as the entry says: Ann (Level 1, Volition 3) +1 rolls natural 8 = 13, hitting PD 13 though AC 14 would miss; 2d6+3 cold = 4+5+3 = 12', () => {
    const t = fight();
    withAbilities(t, [LANCE]);
    t.dice.push(3, 3, 2, 4, 5);
    const tx = t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'lance' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ defense: 'pd', defenseValue: 13, total: 13, hit: true, parts: { level: 1, volition: 3, escalation: 0, bonus: 1 } });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ targetId: 'orc', amount: 12, types: ['cold'], reason: 'hit' });
    expect(t.sheet('orc').hp).toBe(8);
    expect(t.dice.left).toBe(0);
    expectReplayEqualsLive(t);
  });
  it('Miss: damage equal to Level (natural 5 + 5 = 10 < PD 13: 1 damage); a natural 3 crit fail has no miss effect', () => {
    const t = fight();
    withAbilities(t, [LANCE]);
    t.dice.push(1, 2, 2);
    const tx = t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'lance' });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 1, reason: 'miss' });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.dice.push(1, 1, 1);
    const tx2 = t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'lance' });
    expect(events(tx2, '36th-way.attackRolled')[0]).toMatchObject({ critFail: true, hit: false });
    expect(events(tx2, '36th-way.damaged')).toEqual([]);
  });
  it('"as a Basic Melee Attack": Hit is Level x the stance die + Volition (1d8 + 3 for Ann: 6 + 3 = 9), Miss none', () => {
    const t = fight();
    withAbilities(t, [{ id: 'cleave', name: 'Cleave', types: ['melee'], frequency: 'encounter', attack: { asBasic: true, reach: 'engaged' } }]);
    t.dice.push(6, 6, 6, 6);
    const tx = t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'cleave' });
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ defense: 'ac', hit: true, crit: true });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ base: 9, amount: 18 }); // a natural 18 crits: double
    expect(t.sheet('ann').uses['cleave']).toMatchObject({ expended: true });
  });
  it('reach: an engaged-only ability cannot reach a nearby Orc; a nearby one reaches engaged and nearby, not far', () => {
    const t = fight();
    withAbilities(t, [LANCE, { id: 'jab', name: 'Jab', attack: { reach: 'engaged' } }]);
    t.s.run({ type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'nearby' });
    expect(t.s.fail({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'jab' })).toMatchObject({ code: 'OUT_OF_REACH', path: 'targetIds' });
    t.s.run({ type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'far' });
    expect(t.s.fail({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'lance' }).message).toContain("Ice Lance's reach (nearby or engaged)");
  });
  it('the entry fixes the defense and the number of targets', () => {
    const t = fight();
    withAbilities(t, [LANCE]);
    expect(t.s.fail({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], ability: 'lance', defense: 'ac' })).toMatchObject({ code: 'INVALID_VALUE', path: 'defense' });
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'gob', name: 'Goblin', kind: 'npc', maxHp: 8 } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'gob', kind: 'npc', side: 'foes', band: 'slow' } });
    expect(t.s.fail({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc', 'gob'], ability: 'lance' })).toMatchObject({ code: 'BAD_TARGET', message: 'Ice Lance attacks at most 1 target' });
  });
});

describe('odds and the actions panel', () => {
  it('36th-way.attackOdds with the ability: +5 vs PD 13 needs a natural 8: 181/216 (216 - 35 ways to roll 3-7)', () => {
    const t = fight();
    withAbilities(t, [LANCE]);
    const r = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attackerId: 'ann', targetIds: ['orc'], ability: 'lance' });
    expect(r.ok).toBe(true);
    const v = (r as unknown as { value: { hit: number; defense: string; needed: number } }).value;
    expect(v).toMatchObject({ defense: 'pd', needed: 8 });
    expect(v.hit).toBeCloseTo(181 / 216, 12);
  });
  it('each attack ability is an action with its cost, fixed ability and odds; an expended one says until when', () => {
    const t = fight();
    withAbilities(t, [LANCE, { id: 'cleave', name: 'Cleave', types: ['melee'], frequency: 'encounter', attack: { asBasic: true, reach: 'engaged' } }, { id: 'shout', name: 'Shout', action: 'quick' }]);
    const a = actionsOf(t, 'ann');
    const lance = find(a, 'ability:lance');
    expect(lance).toMatchObject({ label: 'Ice Lance', cost: '1 standard action, at-will', command: '36th-way.attack', fixed: { attackerId: 'ann', ability: 'lance' }, allowed: true, odds: { query: '36th-way.attackOdds', args: { attackerId: 'ann', ability: 'lance' } } });
    expect(lance.target!.options).toEqual([{ value: 'orc', label: 'Orc', note: 'engaged', side: 'foe' }]);
    // No attack: not an attack action, but the ability's own use (issue 20: it had no control), with no roll.
    expect(find(a, 'ability:shout')).toMatchObject({ command: '36th-way.useAbility', cost: '1 quick action, at-will', fixed: { characterId: 'ann', ability: 'shout' }, target: null, odds: null, allowed: true });
    t.dice.push(6, 6, 6, 6);
    t.s.run({ type: '36th-way.attack', ...find(a, 'ability:cleave').fixed, targetIds: ['orc'] });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(find(actionsOf(t, 'ann'), 'ability:cleave')).toMatchObject({ allowed: false, reason: 'Cleave is expended until a quick or full rest' });
  });
  it('an ability with two targets lets the panel pick two (target.max); the plain Attack takes one', () => {
    const t = fight();
    withAbilities(t, [{ ...LANCE, id: 'fork', name: 'Forked Lance', attack: { ...LANCE.attack, targets: 2 } }]);
    const a = actionsOf(t, 'ann');
    expect(find(a, 'ability:fork').target).toMatchObject({ field: 'targetIds', multiple: true, max: 2 });
    expect(find(a, 'attack').target!.max).toBeUndefined();
  });
  it('an escalation-gated ability waits for the die, and out-of-reach targets are named', () => {
    const t = fight();
    withAbilities(t, [{ id: 'finale', name: 'Finale', escalation: 2, attack: {} }, { id: 'jab', name: 'Jab', attack: { reach: 'engaged' } }]);
    expect(find(actionsOf(t, 'ann'), 'ability:finale')).toMatchObject({ allowed: false, reason: 'Finale needs escalation 2+ (it is 0)' });
    t.s.run({ type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'far' });
    expect(find(actionsOf(t, 'ann'), 'ability:jab')).toMatchObject({ allowed: false, reason: "no enemy within Jab's reach (engaged) — move to engage one first" });
  });
});

describe('abilities read back as entered (the sheet form starts from them)', () => {
  it('property: any parsed entry, written back as entered, parses to itself', () => {
    const dice = fc.record({ count: fc.integer({ min: 0, max: 10 }), sides: fc.integer({ min: 1, max: 20 }), bonus: fc.integer({ min: -5, max: 5 }) });
    const entry = fc.record(
      {
        id: fc.string({ minLength: 1, maxLength: 10 }),
        frequency: fc.constantFrom<Json>('at-will', 'encounter', 'daily', { kind: 'recharge', target: 11 }),
        sustain: fc.integer({ min: 3, max: 18 }),
        power: fc.integer({ min: 1, max: 9 }),
        escalation: fc.record({ min: fc.integer({ min: 0, max: 6 }), parity: fc.constantFrom('even', 'odd'), special: fc.boolean() }, { requiredKeys: ['min'] }),
        attack: fc.record(
          { defense: fc.constantFrom('ac', 'pd', 'md'), bonus: fc.integer({ min: -50, max: 50 }), reach: fc.constantFrom('engaged', 'nearby', 'far', 'stance'), targets: fc.integer({ min: 1, max: 20 }), asBasic: fc.boolean(), hit: dice, miss: fc.constantFrom('none', 'level'), missDice: dice, types: fc.uniqueArray(fc.constantFrom('fire', 'cold', 'weapon'), { minLength: 1 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['id'] },
    );
    fc.assert(
      fc.property(entry, (j) => {
        const a = parseAbility(j as unknown as Json, 'a');
        if (!a.ok) throw new Error(a.error.message);
        const again = parseAbility(abilityAsEntered(a.value), 'a');
        expect(again).toEqual({ ok: true, value: a.value as AbilityEntry });
      }),
    );
  });
});
