// Issue 20 for the 36th Way: the rules the engine knew and no control reached.
// The actions list now offers a non-attack ability's use, Sustain with its odds,
// and Pop free, each with its cost and a reason when not now; the GM's range,
// sheet removal, downtime and escalation-die controls write their result to the
// log in words, a hidden creature's only to the GM.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { ANN, events, expectReplayEqualsLive, fight, ORC, table, tsw } from './setup.js';

const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };

function actions(s: Scenario, id: string): ActionsAnswer {
  const r = s.engine.query(s.table, GM, '36th-way.actions', { combatantId: id });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value as unknown as ActionsAnswer;
}
const find = (a: ActionsAnswer, id: string): TurnAction => {
  const x = a.actions.find((y) => y.id === id);
  if (x === undefined) throw new Error(`no action ${id} in ${a.actions.map((y) => y.id).join(', ')}`);
  return x;
};
const lastLine = (s: Scenario): string => s.world.log.at(-1)?.text ?? '';
const linesFor = (s: Scenario, viewer: Viewer): string[] => s.view(viewer).world.log.map((e) => e.text);

/** Ways three d6 reach `target` or more, counted face by face (216 in all). */
function waysAtLeast(target: number): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (a + b + c >= target) n++;
  return n;
}

const WARD = { id: 'ward', name: 'Ward', frequency: 'at-will', action: 'standard', sustain: 11 };
const SHOUT = { id: 'shout', name: 'Battle Shout', frequency: 'encounter', action: 'quick' };
const FLARE = { id: 'flare', name: 'Flare', types: ['ranged', 'spell'], frequency: 'daily', action: 'standard' };

describe('a non-attack ability in the actions list (36th-way.useAbility)', () => {
  it('is offered with its cost; once used, an encounter ability says until when; Grabbed stops a ranged one', () => {
    const t = fight({}, { ann: { abilities: [SHOUT, FLARE] } });
    const shout = find(actions(t.s, 'ann'), 'ability:shout');
    expect(shout).toMatchObject({ label: 'Battle Shout', cost: '1 quick action, encounter', command: '36th-way.useAbility', fixed: { characterId: 'ann', ability: 'shout' }, target: null, odds: null, allowed: true });
    t.s.run({ type: shout.command, ...shout.fixed });
    expect(lastLine(t.s)).toBe('Ann used Battle Shout.');
    expect(find(actions(t.s, 'ann'), 'ability:shout')).toMatchObject({ allowed: false, reason: 'Battle Shout is expended until a quick or full rest' });
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'grabbed', source: 'orc', duration: { kind: 'encounterEnd' } });
    expect(find(actions(t.s, 'ann'), 'ability:flare')).toMatchObject({ allowed: false, reason: 'Ann is Grabbed and cannot use ranged attacks or spells' });
    expect(t.s.fail({ type: '36th-way.useAbility', characterId: 'ann', ability: 'flare' }).code).toBe('GRABBED');
  });
});

describe('Sustain in the actions list (002 "Ability Entries": Sustain X)', () => {
  it('is not now until the ability is active, nor in the turn it started; on a later turn it rolls with its exact odds', () => {
    const t = fight({}, { ann: { abilities: [WARD] } });
    expect(find(actions(t.s, 'ann'), 'sustain:ward')).toMatchObject({ label: 'Sustain Ward', cost: '1 standard action (11+ on 3d6 keeps it going)', allowed: false, reason: 'Ward is not active: use it first' });
    t.s.run({ type: '36th-way.useAbility', characterId: 'ann', ability: 'ward' });
    expect(find(actions(t.s, 'ann'), 'sustain:ward')).toMatchObject({ allowed: false, reason: 'Ward is already going this turn: sustain it on a later turn' });
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('ann');
    const sustain = find(actions(t.s, 'ann'), 'sustain:ward');
    expect(sustain).toMatchObject({ allowed: true, command: '36th-way.sustain', fixed: { characterId: 'ann', ability: 'ward' }, odds: { query: '36th-way.sustainOdds', args: { characterId: 'ann', ability: 'ward' }, pass: [] } });
    // 11+ on 3d6: 108 of the 216 faces.
    const odds = t.s.engine.query(t.s.table, GM, sustain.odds!.query, sustain.odds!.args);
    expect(odds.ok).toBe(true);
    const v = (odds as unknown as { value: { pass: number; target: number; crit: null; net: number; why: string[] } }).value;
    expect(waysAtLeast(11)).toBe(108);
    expect(v.pass).toBeCloseTo(108 / 216, 12);
    expect(v).toMatchObject({ target: 11, crit: null, net: 0 });
    expect(v.why[0]).toBe('Sustain 11+ on 3d6 with a standard action (as starting it took); otherwise Ward ends with the turn');
    t.dice.push(2, 3, 4); // 9: fails
    const tx = t.s.run({ type: sustain.command, ...sustain.fixed });
    expect(events(tx, '36th-way.sustainRolled')[0]).toMatchObject({ target: 11, success: false });
    expect(lastLine(t.s)).toBe('Ann failed to sustain Ward (3d6 [2, 3, 4] = 9 vs 11+): it ends with the turn.');
    // The standard action is spent: the list says so (the economy's own words).
    expect(find(actions(t.s, 'ann'), 'sustain:ward').allowed).toBe(false);
    t.s.run({ type: 'encounter.endTurn' });
    expect(t.world.log.some((e) => e.text === "Ann's Ward ends.")).toBe(true);
    expectReplayEqualsLive(t);
  });

  it('the odds query refuses an ability with no Sustain, naming it and its creature', () => {
    const t = fight({}, { ann: { abilities: [SHOUT] } });
    const r = t.s.engine.query(t.s.table, GM, '36th-way.sustainOdds', { characterId: 'ann', ability: 'shout' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatchObject({ code: 'NOT_SUSTAINABLE', message: '"shout" is not a sustained ability of Ann', path: 'ability' });
  });
});

describe('Pop free in the actions list (002 "Disengaging and Popping Off")', () => {
  it('not engaged: not now, with why; engaged: the enemies are picked, and popping free is logged by name', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: ORC as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'gob', name: 'Goblin' } as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
        { id: 'gob', name: 'Goblin', kind: 'npc', side: 'foes', band: 'slow' },
      ],
    });
    expect(find(actions(t.s, 'ann'), 'popOff')).toMatchObject({ allowed: false, reason: 'Ann is not engaged with an enemy' });
    t.s.run({ type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'engaged' });
    expect(lastLine(t.s)).toBe('The GM sets the range: Ann is engaged with Orc.');
    t.s.run({ type: '36th-way.position', fromId: 'ann', toId: 'gob', range: 'engaged' });
    const pop = find(actions(t.s, 'ann'), 'popOff');
    expect(pop).toMatchObject({ label: 'Pop free', cost: 'no disengage check: only when an ability or effect says so', allowed: true, command: '36th-way.popOff', fixed: { characterId: 'ann' } });
    expect(pop.target).toMatchObject({ field: 'from', multiple: true, max: 2, picked: ['orc', 'gob'] });
    // No dice: nothing is rolled (the scripted dice would fail loudly).
    t.s.run({ type: pop.command, ...pop.fixed, from: ['orc'] });
    expect(lastLine(t.s)).toBe('Ann popped free of Orc (no disengage check).');
    expect(find(actions(t.s, 'ann'), 'popOff').target).toMatchObject({ max: 1, picked: ['gob'] });
    // Off her turn the list keeps to answers (review 9): Pop free comes with an ability used on her turn.
    t.s.run({ type: 'encounter.endTurn' });
    expect(find(actions(t.s, 'ann'), 'popOff')).toMatchObject({ allowed: false, reason: 'only on your own turn (as the ability that pops you free)' });
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'stuck', duration: { kind: 'encounterEnd' } });
    expect(find(actions(t.s, 'ann'), 'popOff')).toMatchObject({ allowed: false, reason: 'Ann is Stuck and cannot move' });
  });
});

describe("the GM's controls write their result to the log; a hidden creature's stays the GM's", () => {
  /** Ann and a hidden Shade besides the Orc; Ann's turn. */
  function withShade() {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'shade', name: 'Shade' } as unknown as Json });
    t.s.run({ type: 'encounter.add', combatant: { id: 'shade', name: 'Shade', kind: 'npc', side: 'foes', band: 'slow', visibility: 'hidden' } });
    return t;
  }

  it('a range set by the GM: nearby and far said in words; with the hidden Shade, players never read it', () => {
    const t = withShade();
    t.s.run({ type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'far' });
    expect(lastLine(t.s)).toBe('The GM sets the range: Ann and Orc are far from each other.');
    t.s.run({ type: '36th-way.position', fromId: 'shade', toId: 'ann', range: 'engaged' });
    expect(lastLine(t.s)).toBe('The GM sets the range: Shade is engaged with Ann.');
    expect(linesFor(t.s, SPECTATOR).join('\n')).not.toContain('Shade');
    expect(linesFor(t.s, SPECTATOR)).toContain('The GM sets the range: Ann and Orc are far from each other.');
  });

  it('the escalation die moved by hand says what it reads; holding it for the hidden Shade is the GM\'s line only', () => {
    const t = withShade();
    for (let i = 0; i < 3; i++) t.s.run({ type: 'encounter.endTurn' }); // Ann, Orc, Shade: round 2, the die at 1
    expect(getEncounter(t.world).round).toBe(2);
    expect(tsw.kit.escalation(t.world)).toBe(1);
    t.s.run({ type: 'encounter.escalationOffset', offset: 2 });
    expect(lastLine(t.s)).toBe('The GM moves the escalation die up by 2: it reads 3.');
    t.s.run({ type: 'encounter.escalationOffset', offset: 1 });
    expect(lastLine(t.s)).toBe('The GM moves the escalation die down by 1: it reads 2.');
    t.s.run({ type: 'encounter.escalationOffset', offset: 0 });
    expect(lastLine(t.s)).toBe("The GM moves the escalation die back to the round's count: it reads 1.");
    expect(linesFor(t.s, SPECTATOR)).toContain("The GM moves the escalation die back to the round's count: it reads 1.");
    t.s.run({ type: 'encounter.escalationSuppress', characterId: 'ann', suppressed: true });
    expect(lastLine(t.s)).toBe('The GM holds the escalation die for Ann: it counts as 0 for them.');
    expect(tsw.kit.escalation(t.world, 'ann')).toBe(0);
    t.s.run({ type: 'encounter.escalationSuppress', characterId: 'ann', suppressed: false });
    expect(lastLine(t.s)).toBe('Ann counts the escalation die again.');
    expect(tsw.kit.escalation(t.world, 'ann')).toBe(1);
    const before = t.world.log.length;
    t.s.run({ type: 'encounter.escalationSuppress', characterId: 'ann', suppressed: false });
    expect(t.world.log.length).toBe(before); // nothing changed, nothing said
    t.s.run({ type: 'encounter.escalationSuppress', characterId: 'shade', suppressed: true });
    expect(lastLine(t.s)).toBe('The GM holds the escalation die for Shade: it counts as 0 for them.');
    expect(linesFor(t.s, SPECTATOR).join('\n')).not.toContain('Shade');
    expectReplayEqualsLive(t);
  });

  it("downtime gives back recoveries (up to the most) and a daily ability; a sheet's removal is the GM's line", () => {
    const t = fight({}, { ann: { abilities: [FLARE], recoveries: 2, maxRecoveries: 8 } });
    t.s.run({ type: '36th-way.useAbility', characterId: 'ann', ability: 'flare' });
    t.s.run({ type: '36th-way.restore', characterId: 'ann', recoveries: 1, ability: 'flare' });
    const lines = t.world.log.slice(-2).map((e) => e.text);
    expect(lines).toEqual(['Ann regains 1 recovery after some downtime (3 of 8 now).', 'Ann gets Flare back after some downtime.']);
    t.s.run({ type: '36th-way.restore', characterId: 'ann', recoveries: 9 });
    expect(lastLine(t.s)).toBe('Ann regains 5 recoveries after some downtime (8 of 8 now).');
    t.s.run({ type: '36th-way.sheet.remove', characterId: 'orc' });
    expect(lastLine(t.s)).toBe("Orc's 36th Way sheet is removed.");
    expect(t.world.log.at(-1)?.audience).toEqual({ kind: 'gm' });
    expect(linesFor(t.s, SPECTATOR).join('\n')).not.toContain('sheet is removed');
  });
});
