// Review 9's 36th Way findings, as rules: the basic attack follows the stance
// (002 "Basic Attacks"); a provocation opens an opportunity attack its enemy
// may take with odds or let go (002 "Opportunity Attacks"); disengage and death
// saves show exact odds before the roll (002 "Disengaging and Popping Off",
// "Dying and Death"); saves are logged with their dice and target; a foe from
// the builder gets a sheet it can act with.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { foeSheetCommandOf } from '../../src/foe-sheets.js';
import { ANN, events, expectReplayEqualsLive, fight, ORC, table, type T } from './setup.js';

const GM: Viewer = { role: 'gm' };

function actions(t: T, id: string): readonly TurnAction[] {
  const r = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: id });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return (r.value as unknown as ActionsAnswer).actions;
}
const find = (t: T, who: string, id: string): TurnAction => {
  const a = actions(t, who).find((x) => x.id === id);
  if (a === undefined) throw new Error(`no action ${id}`);
  return a;
};
function query(t: T, name: string, args: { [k: string]: Json }): { [k: string]: Json } {
  const r = t.s.engine.query(t.s.table, GM, name, args);
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value as { [k: string]: Json };
}

/**
 * Exact chance that the kept three of (3 + |net|) d6 (highest with Advantage, lowest with Disadvantage) reach
 * `target`, by walking every face: recomputed here, not copied from the code under test.
 */
function bruteForce(net: number, target: number): number {
  const n = 3 + Math.abs(net);
  let hits = 0;
  let all = 0;
  const faces: number[] = [];
  const walk = (): void => {
    if (faces.length === n) {
      const sorted = [...faces].sort((a, b) => a - b);
      const kept = net >= 0 ? sorted.slice(n - 3) : sorted.slice(0, 3);
      all++;
      if (kept[0]! + kept[1]! + kept[2]! >= target) hits++;
      return;
    }
    for (let f = 1; f <= 6; f++) {
      faces.push(f);
      walk();
      faces.pop();
    }
  };
  walk();
  return hits / all;
}

describe('the basic attack is the stance\'s own (002 "Basic Attacks")', () => {
  it('in the ranged stance only the basic ranged attack is offered, reaching nearby and far; melee needs a switch first', () => {
    const t = fight({}, { ann: { stance: 'ranged' } });
    const attack = find(t, 'ann', 'attack');
    expect(attack.choices.find((c) => c.field === 'basic')!.options.map((o) => o.value)).toEqual(['ranged']);
    expect(attack.choices.find((c) => c.field === 'basic')!.options[0]).toMatchObject({ label: 'Basic ranged attack', note: 'up to far' });
    expect(find(t, 'ann', 'stance')).toMatchObject({ label: 'Switch to melee stance', cost: '1 quick action', allowed: true });
    // The engaged Orc is within a ranged attack's reach (it provokes, below).
    expect(attack.target!.options.map((o) => [o.value, o.refused ?? null])).toEqual([['orc', null]]);
  });

  it('in the melee stance only the basic melee attack; a foe who is not engaged is marked once, without repeating its range', () => {
    const t = fight();
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'nearby' });
    const attack = find(t, 'ann', 'attack');
    expect(attack.choices.find((c) => c.field === 'basic')!.options.map((o) => o.label)).toEqual(['Basic melee attack']);
    // Review 9 read "Dorn (nearby, out of Spear's reach (nearby))": the note says the range, the refusal only the reach.
    expect(attack.target!.options[0]).toMatchObject({ value: 'orc', note: 'nearby', refused: "out of a basic melee attack's reach: move to engage first" });
    expect(attack).toMatchObject({ allowed: false, reason: 'no enemy engaged with Ann — move to engage one first, or switch to the ranged stance (a quick action)' });
  });
});

describe('opportunity attacks are offered to the enemy provoked (002 "Opportunity Attacks")', () => {
  /** Ann, in the ranged stance and engaged with the Orc, shoots it: that provokes the Orc (melee stance). */
  const provoked = () => {
    const t = fight({}, { ann: { stance: 'ranged' } });
    t.dice.push(1, 1, 2); // natural 4: a miss, no damage dice
    t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], basic: 'ranged' });
    expect(t.world.log.map((l) => l.text)).toContain('Ann made a ranged attack while engaged, provoking opportunity attacks from Orc.');
    return t;
  };

  it('the Orc is asked: take it (a free basic melee attack, with its odds) or let Ann go', () => {
    const t = provoked();
    const r = query(t, '36th-way.reactions', { characterId: 'orc' });
    const prompts = r['prompts'] as unknown as { id: string; kind: string; text: string; actions: TurnAction[] }[];
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ kind: 'opportunity', text: 'Ann made a ranged attack while engaged: Orc may make an opportunity attack.' });
    const [take, decline] = prompts[0]!.actions;
    expect(take).toMatchObject({ label: 'Opportunity attack on Ann', cost: 'free action, a basic melee attack', command: '36th-way.attack', fixed: { attackerId: 'orc', targetIds: ['ann'] }, allowed: true });
    expect(decline).toMatchObject({ label: 'Let Ann go', command: '36th-way.declineOpportunity' });
    // Odds: 3d6 + level 2 + Volition 2 against AC 15 needs a natural 11 (no escalation for the Orc).
    const odds = query(t, take!.odds!.query, { ...take!.odds!.args });
    expect(odds).toMatchObject({ needed: 11, defenseValue: 15 });
    expect(odds['hit'] as number).toBeCloseTo(bruteForce(0, 11), 12);
    // Ann asks nothing: she is not entitled.
    expect(query(t, '36th-way.reactions', { characterId: 'ann' })['prompts']).toEqual([]);
  });

  it('taking it rolls the attack and closes the prompt', () => {
    const t = provoked();
    const take = (query(t, '36th-way.reactions', { characterId: 'orc' })['prompts'] as unknown as { actions: TurnAction[] }[])[0]!.actions[0]!;
    t.dice.push(6, 6, 6, 4, 4); // natural 18: a crit; 2d8 (level 2, melee stance d8) = 8, doubled
    const tx = t.s.run({ type: take.command, ...take.fixed });
    expect(events(tx, '36th-way.opportunityTaken')).toHaveLength(1);
    expect(query(t, '36th-way.reactions', { characterId: 'orc' })['prompts']).toEqual([]);
    expectReplayEqualsLive(t);
  });

  it('letting it go says so in the log, closes the prompt, and cannot be done twice', () => {
    const t = provoked();
    const decline = (query(t, '36th-way.reactions', { characterId: 'orc' })['prompts'] as unknown as { actions: TurnAction[] }[])[0]!.actions[1]!;
    t.s.run({ type: decline.command, ...decline.fixed });
    expect(t.world.log.at(-1)?.text).toBe('Orc lets Ann go (no opportunity attack).');
    expect(query(t, '36th-way.reactions', { characterId: 'orc' })['prompts']).toEqual([]);
    expect(t.s.fail({ type: decline.command, ...decline.fixed })).toMatchObject({ code: 'NO_PROVOCATION', message: 'Orc has no opportunity attack waiting there' });
    expectReplayEqualsLive(t);
  });

  it('an Orc in the ranged stance is not entitled: no prompt at all', () => {
    const t = fight({}, { ann: { stance: 'ranged' }, orc: { stance: 'ranged' } });
    t.dice.push(1, 1, 2);
    t.s.run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], basic: 'ranged' });
    expect(query(t, '36th-way.reactions', { characterId: 'orc' })['prompts']).toEqual([]);
  });
});

describe('disengage shows its exact odds before the roll (002 "Disengaging and Popping Off")', () => {
  /** Ann engaged with two orcs. */
  const twoOrcs = () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'orc2', name: 'Orc 2' } as unknown as Json });
    t.s.run({ type: 'encounter.add', combatant: { id: 'orc2', name: 'Orc 2', kind: 'npc', side: 'foes', band: 'medium' } });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc2', range: 'engaged' });
    return t;
  };

  it('the form picks every engaged enemy and asks one odds question for them together', () => {
    const t = twoOrcs();
    const d = find(t, 'ann', 'disengage');
    expect(d.target).toMatchObject({ field: 'from', multiple: true, max: 2, label: 'From', picked: ['orc', 'orc2'] });
    expect(d.odds).toMatchObject({ query: '36th-way.disengageOdds', pass: ['from', 'advantage'], together: true });
  });

  it('from both: 12+ on 3d6; from one: 11+; Advantage keeps the best three', () => {
    const t = twoOrcs();
    const both = query(t, '36th-way.disengageOdds', { characterId: 'ann', from: ['orc', 'orc2'] });
    expect(both).toMatchObject({ target: 12, net: 0, crit: null, why: ['12+ on 3d6 (11, +1 for each of 1 more enemy)'] });
    expect(both['pass'] as number).toBeCloseTo(bruteForce(0, 12), 12);
    const one = query(t, '36th-way.disengageOdds', { characterId: 'ann', from: ['orc2'] });
    expect(one).toMatchObject({ target: 11, why: ['11+ on 3d6'] });
    expect(one['pass'] as number).toBeCloseTo(bruteForce(0, 11), 12);
    const adv = query(t, '36th-way.disengageOdds', { characterId: 'ann', advantage: 1 });
    expect(adv['pass'] as number).toBeCloseTo(bruteForce(1, 12), 12);
    // The command rolls what the odds said: from the second orc only, 11+.
    t.dice.push(5, 5, 1);
    const tx = t.s.run({ type: '36th-way.disengage', characterId: 'ann', from: ['orc2'] });
    expect(events(tx, '36th-way.disengageRolled')[0]).toMatchObject({ target: 11, success: true });
    expect(t.world.log.at(-1)?.text).toBe('Ann tried to disengage (3d6 [5, 5, 1] = 11 vs 11+): popped off.');
  });

  it('an enemy not engaged with her is refused by name', () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'orc2', name: 'Orc 2' } as unknown as Json });
    const r = t.s.engine.query(t.s.table, GM, '36th-way.disengageOdds', { characterId: 'ann', from: ['orc2'] });
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_ENGAGED', message: 'pick enemies engaged with Ann' } });
  });
});

describe('death saves: odds before the roll, with the first save\'s Disadvantage (002 "Dying and Death")', () => {
  it('dropped to -half max HP: 5d6 keep the lowest three against 13, the crit at 17', () => {
    const t = fight();
    t.s.run({ type: '36th-way.damage', target: 'ann', amount: 45 }); // 30 max HP: -15
    t.s.run({ type: 'encounter.endTurn' });
    t.s.run({ type: 'encounter.endTurn' }); // the Orc's turn passes: Ann's
    expect(getEncounter(t.world).current).toBe('ann');
    expect(t.world.log.at(-1)?.text).toBe('Ann is dying: this turn is their death save (13+ on 3d6).');
    const save = find(t, 'ann', 'deathSave');
    expect(save).toMatchObject({ label: 'Roll a death save', allowed: true, fixed: { characterId: 'ann' } });
    const odds = query(t, '36th-way.deathSaveOdds', { characterId: 'ann' });
    expect(odds).toMatchObject({ target: 13, net: -2 });
    expect(odds['pass'] as number).toBeCloseTo(bruteForce(-2, 13), 12);
    expect(odds['crit'] as number).toBeCloseTo(bruteForce(-2, 17), 12);
    expect(odds['why']).toContain('first death save: 2 Disadvantage (dropped by a crit or to -half HP)');
    // Nothing else is hers to do: Rally, stance and delays are not offered.
    expect(actions(t, 'ann').map((a) => a.id)).toEqual(['deathSave', 'attack', 'move', 'disengage']);
  });

  it('a healthy PC is not asked: the odds query says why', () => {
    const t = fight();
    expect(t.s.engine.query(t.s.table, GM, '36th-way.deathSaveOdds', { characterId: 'ann' })).toMatchObject({ ok: false, error: { code: 'NOT_DYING', message: 'Ann is not dying' } });
  });
});

describe('saves against conditions are logged with their dice and target', () => {
  it('"Orc saves against Dazed: 3d6 [...] = 12 vs 11+, saved: Dazed ends" at the end of its turn', () => {
    const t = fight();
    t.s.run({ type: 'condition.apply', target: 'orc', condition: 'dazed', duration: { kind: 'saveEnds' } });
    t.s.run({ type: 'encounter.endTurn' }); // Ann's turn ends: the Orc's begins
    t.dice.push(3, 4, 5);
    t.s.run({ type: 'encounter.endTurn' });
    expect(t.world.log.map((l) => l.text)).toContain('Orc saves against Dazed: 3d6 [3, 4, 5] = 12 vs 11+, saved: Dazed ends.');
  });
});

describe('a foe from the encounter builder acts at once (review 9: "Orc x2" needed a 25-field sheet each)', () => {
  it('with only HP and a band, its sheet takes the defaults: level 1, AC/PD/MD 10, the basic melee attack', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'medium' },
        { id: 'orc-1', name: 'Orc 1', kind: 'npc', side: 'foes', band: 'fast' },
      ],
    });
    const cmd = foeSheetCommandOf('36th-way', { id: 'orc-1', name: 'Orc 1', hp: 20, block: { band: 'fast' } });
    expect(cmd).toMatchObject({ type: '36th-way.sheet.set', sheet: { id: 'orc-1', name: 'Orc 1', kind: 'npc', maxHp: 20 } });
    t.s.run(cmd as never);
    expect(t.sheet('orc-1')).toMatchObject({ level: 1, ac: 10, pd: 10, md: 10, maxHp: 20, hp: 20, stance: 'melee' });
    expect(getEncounter(t.world).current).toBe('orc-1');
    const list = actions(t, 'orc-1');
    expect(list.find((a) => a.id === 'move')).toMatchObject({ allowed: true });
    expect(list.find((a) => a.id === 'attack')!.choices[0]!.options.map((o) => o.value)).toEqual(['melee']);
  });
});
