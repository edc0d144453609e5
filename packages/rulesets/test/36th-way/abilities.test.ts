// 002 "Ability Entries", "Actions", "Action Types", "Resting and Recharging".
import { getEncounter, type Json } from '@tablekeeper/engine';
import { describe, expect, it } from 'vitest';
import { cannotUse, parseAbility, rechargeTarget, restoredByRest, type AbilityEntry } from '../../src/36th-way/abilities.js';
import { events, expectReplayEqualsLive, fight, table } from './setup.js';

const ab = (j: object): AbilityEntry => {
  const r = parseAbility(j as Json, 'a');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('ability entries as data (pure)', () => {
  it('parses the header: type, frequency, action, provokes, sustain, power, escalation, other', () => {
    const a = ab({ id: 'bolt', name: 'Bolt', types: ['ranged', 'spell'], frequency: { kind: 'recharge', target: 11 }, action: 'standard', provokes: true, sustain: 11, power: { amount: 2, resource: 'momentum' }, escalation: { min: 2, parity: 'even' }, other: ['blaspheme'] });
    expect(a).toMatchObject({ types: ['ranged', 'spell'], frequency: { kind: 'recharge', target: 11 }, provokes: true, sustain: 11, power: { amount: 2, resource: 'momentum' }, escalation: { min: 2, parity: 'even', special: false }, other: ['blaspheme'] });
    expect(ab({ id: 'x', power: 3 }).power).toEqual({ amount: 3, resource: 'power' });
  });
  it('refuses malformed entries, naming the limit', () => {
    expect(parseAbility({ id: 'x', frequency: { kind: 'recharge', target: 10 } }, 'a')).toMatchObject({ ok: false, error: { path: 'a.frequency.target' } });
    expect(parseAbility({ id: 'x', action: 'swift' }, 'a').ok).toBe(false);
    expect(parseAbility({ id: 'x', escalation: { min: 7 } }, 'a').ok).toBe(false);
    expect(parseAbility({ id: 'x', sustain: 2 }, 'a').ok).toBe(false);
  });
  it('when an ability may be used', () => {
    const ctx = { escalation: 0, use: undefined, resources: { power: 1 }, hampered: false };
    expect(cannotUse(ab({ id: 'e', escalation: 2 }), ctx)?.code).toBe('ESCALATION_TOO_LOW');
    expect(cannotUse(ab({ id: 'e', escalation: 2 }), { ...ctx, escalation: 2 })).toBeNull();
    // 0 is neither even nor odd.
    expect(cannotUse(ab({ id: 'e', escalation: { min: 0, parity: 'even' } }), ctx)?.code).toBe('ESCALATION_PARITY');
    expect(cannotUse(ab({ id: 'e', escalation: { min: 0, parity: 'odd' } }), { ...ctx, escalation: 3 })).toBeNull();
    expect(cannotUse(ab({ id: 'e', escalation: { min: 4, special: true } }), ctx)).toBeNull();
    expect(cannotUse(ab({ id: 'p', power: 2 }), ctx)?.code).toBe('NOT_ENOUGH_POWER');
    expect(cannotUse(ab({ id: 'd', frequency: 'daily' }), { ...ctx, use: { expended: true, activeTurn: null } })?.code).toBe('ABILITY_EXPENDED');
    expect(cannotUse(ab({ id: 'w', frequency: 'at-will' }), { ...ctx, use: { expended: true, activeTurn: null } })).toBeNull();
    expect(cannotUse(ab({ id: 's' }), { ...ctx, hampered: true })?.code).toBe('HAMPERED');
    expect(cannotUse(ab({ id: 's', basic: true }), { ...ctx, hampered: true })).toBeNull();
  });
  it('what a rest gives back', () => {
    expect(restoredByRest(ab({ id: 'e', frequency: 'encounter' }), 'quick')).toBe(true);
    expect(restoredByRest(ab({ id: 'd', frequency: 'daily' }), 'quick')).toBe(false);
    expect(restoredByRest(ab({ id: 'd', frequency: 'daily' }), 'full')).toBe(true);
    expect(rechargeTarget(ab({ id: 'r', frequency: { kind: 'recharge', target: 13 } }))).toBe(13);
  });
});

const ABILITIES = [
  { id: 'surge', name: 'Surge', frequency: 'encounter', action: 'quick' },
  { id: 'nova', name: 'Nova', frequency: 'daily', action: 'standard' },
  { id: 'flare', name: 'Flare', frequency: { kind: 'recharge', target: 11 }, action: 'standard' },
  { id: 'finale', name: 'Finale', frequency: 'at-will', action: 'standard', escalation: 2 },
  { id: 'ward', name: 'Ward', frequency: 'at-will', action: 'standard', sustain: 11 },
  { id: 'riposte', name: 'Riposte', frequency: 'at-will', action: 'interrupt' },
  { id: 'step', name: 'Step', frequency: 'at-will', action: 'quick' },
  { id: 'blast', name: 'Blast', frequency: 'at-will', action: 'standard', power: 2 },
];

describe('using abilities in a fight', () => {
  it('escalation X+: refused in round 1, allowed once the die reaches X', () => {
    const t = fight({}, { ann: { abilities: ABILITIES } });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'finale' }).code).toBe('ESCALATION_TOO_LOW');
    for (let i = 0; i < 4; i++) t.s.run({ type: 'encounter.endTurn' }); // two rounds: escalation 2
    expect(getEncounter(t.world).round).toBe(3);
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'finale' });
  });
  it('escalation keyed on odd / even: 0 is neither', () => {
    const t = fight({}, { ann: { abilities: [{ id: 'odd', frequency: 'at-will', action: 'quick', escalation: { min: 0, parity: 'odd' } }] } });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'odd' }).code).toBe('ESCALATION_PARITY'); // 0
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'odd' }); // 1
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'odd' }).code).toBe('ESCALATION_PARITY'); // 2
  });
  it('Spend X Power', () => {
    const t = fight({}, { ann: { abilities: ABILITIES, resources: { power: 3 } } });
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'blast' });
    expect(t.sheet('ann').resources['power']).toBe(1);
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'blast' }).code).toBe('NOT_ENOUGH_POWER');
  });
  it('substitutions: Move for Quick, Standard for Move (quick actions paid by move, then standard)', () => {
    const t = fight({}, { ann: { abilities: ABILITIES } });
    const paid = [1, 2, 3].map(() => events(t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'step' }), 'economy.spent')[0]!['paid']);
    expect(paid).toEqual([[{ pool: 'quick', n: 1 }], [{ pool: 'move', n: 1 }], [{ pool: 'standard', n: 1 }]]);
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'step' }).code).toBe('NO_ACTIONS_LEFT');
  });
  it('one interrupt per round, only outside your turn', () => {
    const t = fight({}, { ann: { abilities: ABILITIES } });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'riposte' }).code).toBe('NO_ACTIONS_LEFT');
    t.s.run({ type: 'encounter.endTurn' }); // the orc's turn
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'riposte' });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'riposte' }).code).toBe('NO_ACTIONS_LEFT');
  });
  it('Stunned loses the move action', () => {
    const t = fight({}, { ann: { abilities: ABILITIES } });
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'stunned', duration: { kind: 'encounterEnd' } });
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'step' }); // quick
    const e = events(t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'step' }), 'economy.spent')[0]!;
    expect(e['paid']).toEqual([{ pool: 'standard', n: 1 }]);
  });
  it('Hampered: only basic attacks and the like', () => {
    const t = fight({}, { ann: { abilities: ABILITIES } });
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'hampered', duration: { kind: 'encounterEnd' } });
    expect(t.s.fail({ type: '36th-way.useAbility', who: 'ann', ability: 'step' }).code).toBe('HAMPERED');
    t.dice.push(1, 1, 1);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' });
  });
  it('Sustain X: without a successful sustain roll the ability ends at the end of your next turn', () => {
    const t = fight({}, { ann: { abilities: ABILITIES } });
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'ward' });
    t.s.run({ type: 'encounter.endTurn' }); // started this turn: still active
    expect(t.sheet('ann').uses['ward']?.activeTurn).not.toBeNull();
    t.s.run({ type: 'encounter.endTurn' });
    t.dice.push(6, 4, 1); // 11: sustained (a standard action, like starting it)
    const tx = t.s.run({ type: '36th-way.sustain', who: 'ann', ability: 'ward' });
    expect(events(tx, '36th-way.sustainRolled')[0]).toMatchObject({ target: 11, success: true });
    expect(events(tx, 'economy.spent')[0]).toMatchObject({ kind: 'standard' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(t.sheet('ann').uses['ward']?.activeTurn).not.toBeNull();
    t.s.run({ type: 'encounter.endTurn' });
    const end = t.s.run({ type: 'encounter.endTurn' }); // Ann does not sustain it
    expect(events(end, '36th-way.abilityLapsed')[0]).toMatchObject({ characterId: 'ann', ability: 'ward' });
    expect(t.sheet('ann').uses['ward']?.activeTurn).toBeNull();
    expectReplayEqualsLive(t);
  });
  it('Confused: a non-attack ability needs an 11+ save or deals the user damage equal to their tier', () => {
    const t = fight({}, { ann: { abilities: ABILITIES, tier: 2 } });
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'confused', duration: { kind: 'encounterEnd' } });
    t.dice.push(1, 2, 3);
    const tx = t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'surge' });
    expect(events(tx, '36th-way.confusedSaveRolled')[0]).toMatchObject({ success: false, target: 11 });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ targetId: 'ann', amount: 2 });
  });
});

describe('rests (002 "Resting and Recharging")', () => {
  const used = () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', level: 2, maxHp: 30, hp: 5, recoveryDice: { count: 2, sides: 8 }, recoveryBonus: 1, abilities: ABILITIES, resources: { power: 4 } } as unknown as Json });
    for (const a of ['surge', 'nova', 'flare', 'blast']) t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: a });
    return t;
  };
  it('quick rest: spend any recoveries, restore encounter abilities, roll recharges (11+)', () => {
    const t = used();
    t.dice.push(3, 5, 8, 8, 5, 5, 1); // two recoveries of 2d8 + 1: 3 + 5 + 1 = 9 and 8 + 8 + 1 = 17; recharge natural 5 + 5 + 1 = 11
    const tx = t.s.run({ type: '36th-way.quickRest', recoveries: { ann: 2 } });
    expect(events(tx, '36th-way.healed').map((e) => e['hpTo'])).toEqual([14, 30]); // 5 + 9; 14 + 17 capped
    expect(events(tx, '36th-way.rechargeRolled')[0]).toMatchObject({ ability: 'flare', target: 11, success: true });
    const s = t.sheet('ann');
    expect(s.recoveries).toBe(6);
    expect(s.uses['surge']?.expended).toBe(false);
    expect(s.uses['flare']?.expended).toBe(false);
    expect(s.uses['nova']?.expended).toBe(true);
    expect(s.resources['power']).toBe(2); // power comes back at a full rest
    expect(t.world.clock.counts.shortRest).toBe(1);
    expectReplayEqualsLive(t);
  });
  it('a failed recharge roll keeps the ability expended', () => {
    const t = used();
    t.dice.push(5, 4, 1);
    t.s.run({ type: '36th-way.quickRest' });
    expect(t.sheet('ann').uses['flare']?.expended).toBe(true);
  });
  it('full rest: HP, recoveries, every ability and resource reset; a new adventuring day', () => {
    const t = used();
    t.s.run({ type: '36th-way.fullRest' });
    const s = t.sheet('ann');
    expect(s).toMatchObject({ hp: 30, recoveries: 8, uses: {}, resources: { power: 4 } });
    expect(t.world.clock.counts.longRest).toBe(1);
    expect(t.world.ext['36th-way']).toMatchObject({ day: 2, campaignLosses: [] });
  });
  it('retreating to a full rest is a campaign loss; so is fleeing', () => {
    const t = fight();
    t.s.run({ type: '36th-way.flee' });
    expect(getEncounter(t.world).active).toBe(false);
    t.s.run({ type: '36th-way.fullRest', retreat: true });
    expect(t.world.ext['36th-way']).toMatchObject({ campaignLosses: [{ reason: 'fled', day: 1 }, { reason: 'retreat to a full rest', day: 1 }] });
  });
  it('downtime during the day: the GM may give back a recovery or a daily ability (capped at the maximum)', () => {
    const t = used();
    t.dice.push(1, 1, 1); // Flare's recharge roll fails
    t.s.run({ type: '36th-way.quickRest', recoveries: { ann: 1 }, average: true });
    expect(t.sheet('ann').recoveries).toBe(7);
    t.s.run({ type: '36th-way.restore', who: 'ann', recoveries: 3, ability: 'nova' });
    expect(t.sheet('ann').recoveries).toBe(8);
    expect(t.sheet('ann').uses['nova']?.expended).toBe(false);
    expect(t.s.fail({ type: '36th-way.restore', who: 'ann' }).code).toBe('INVALID_VALUE');
  });
  it('no resting in the middle of a fight', () => {
    const t = fight();
    expect(t.s.fail({ type: '36th-way.quickRest' }).code).toBe('IN_ENCOUNTER');
  });
  it('until-rest conditions end at the matching rest', () => {
    const t = fight();
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'weakened', duration: { kind: 'rest', rest: 'short' } });
    t.s.run({ type: 'encounter.end' });
    t.s.run({ type: '36th-way.quickRest' });
    expect(Object.values(getEncounter(t.world).conditions)).toEqual([]);
  });
});
