// 002 "Fight in Spirit" on the actions list (issue 20, GM review: a downed PC's
// turn offered nothing): a PC out of the fight for good gives one ally a boon
// on its own turn, with a reason; the GM marks a PC out (or back in) from the
// same list. A dying PC is not out for good (it rolls death saves).
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { ANN, ORC, table } from './setup.js';

const GM: Viewer = { role: 'gm' };

function actions(s: Scenario, viewer: Viewer, id: string): ActionsAnswer {
  const r = s.engine.query(s.table, viewer, '36th-way.actions', { combatantId: id });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value as unknown as ActionsAnswer;
}
const find = (a: ActionsAnswer, id: string): TurnAction | undefined => a.actions.find((x) => x.id === id);

/** Ann and Bea (PCs, Fast) against an Orc (Medium); Ann's turn. */
function party() {
  const t = table();
  t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, id: 'bea', name: 'Bea' } as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: ORC as unknown as Json });
  t.s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
      { id: 'bea', name: 'Bea', kind: 'pc', side: 'party', band: 'fast' },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
    ],
  });
  const e = getEncounter(t.world);
  if (e.pending !== null) t.s.run({ type: 'encounter.choose', id: 'ann' });
  expect(getEncounter(t.world).current).toBe('ann');
  return t;
}

describe('Fight in Spirit as an action (002 "Fight in Spirit")', () => {
  it('a PC still in the fight sees why not; an NPC is never offered it', () => {
    const t = party();
    expect(find(actions(t.s, GM, 'ann'), 'fightInSpirit')).toMatchObject({ allowed: false, reason: 'only for a PC out of the fight for good (petrified, separated): the GM marks Ann so' });
    expect(find(actions(t.s, GM, 'orc'), 'fightInSpirit')).toBeUndefined();
    expect(find(actions(t.s, GM, 'orc'), 'outOfFight')).toBeUndefined();
  });

  it('the GM is offered "out for good" only for a PC something holds out: Helpless, or the GM\'s own condition', () => {
    // A healthy Ann, and a merely Stunned one, are fit to fight: no such action (GM review, issue 20).
    const t = party();
    expect(find(actions(t.s, GM, 'ann'), 'outOfFight')).toBeUndefined();
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'stunned', duration: { kind: 'encounterEnd' } });
    expect(find(actions(t.s, GM, 'ann'), 'outOfFight')).toBeUndefined();
    // Helpless (a petrified Ann) opens it.
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'helpless', duration: { kind: 'encounterEnd' } });
    expect(find(actions(t.s, GM, 'ann'), 'outOfFight')).toMatchObject({ label: 'Ann is out of the fight for good', allowed: true });
    // So does a condition the GM names (Bea separated from the party); the player's own list never has it.
    t.s.run({ type: 'condition.apply', target: 'bea', condition: 'custom:Separated', duration: { kind: 'encounterEnd' } });
    expect(find(actions(t.s, GM, 'bea'), 'outOfFight')).toMatchObject({ label: 'Bea is out of the fight for good', fixed: { characterId: 'bea', value: true } });
  });

  it('a dying PC is not out for good: Fight in Spirit stays closed while Ann rolls death saves', () => {
    const t = party();
    t.s.run({ type: '36th-way.damage', targetId: 'ann', amount: 31 });
    expect(t.s.world.ext['36th-way']).toMatchObject({ sheets: { ann: { dying: expect.anything() as unknown } } });
    // A dying PC is offered its death save and nothing else (review 9): no Fight in Spirit, Rally or stance switch.
    const list = actions(t.s, GM, 'ann').actions;
    expect(list.map((a) => a.id)).toEqual(['deathSave', 'attack', 'move', 'disengage']);
    expect(list.filter((a) => a.id !== 'deathSave').every((a) => !a.allowed && a.reason === 'Ann is dying: a death save is all they may do')).toBe(true);
    // Dropped on her own turn: the first save comes with her next turn.
    expect(list[0]).toMatchObject({ allowed: false, reason: 'Ann rolls their first death save when their next turn starts', odds: { query: '36th-way.deathSaveOdds' } });
  });

  it('the GM marks Ann out for good; on her turn she gives Bea Advantage on attacks for a round', () => {
    const t = party();
    t.s.run({ type: 'condition.apply', target: 'ann', condition: 'custom:Petrified', duration: { kind: 'encounterEnd' } });
    const mark = find(actions(t.s, GM, 'ann'), 'outOfFight')!;
    expect(mark).toMatchObject({ label: 'Ann is out of the fight for good', command: '36th-way.outOfFight', fixed: { characterId: 'ann', value: true }, allowed: true });
    t.s.run({ type: mark.command, ...mark.fixed });
    const spirit = find(actions(t.s, GM, 'ann'), 'fightInSpirit')!;
    expect(spirit).toMatchObject({ allowed: true, command: '36th-way.fightInSpirit', fixed: { characterId: 'ann' }, target: { field: 'allyId' } });
    // Allies only: Bea, not the Orc.
    expect(spirit.target!.options.map((o) => o.value)).toEqual(['bea']);
    expect(spirit.choices[0]!.options.map((o) => o.value)).toEqual(['attack', 'save', 'defense']);
    t.s.run({ type: spirit.command, ...spirit.fixed, allyId: 'bea', boon: 'attack', reason: 'her battle cry echoes from the stone' });
    const boon = Object.values(getEncounter(t.world).conditions).find((c) => c.target === 'bea');
    expect(boon).toMatchObject({ defId: 'spirit-attack', source: 'ann', duration: { kind: 'turnStart', of: 'ann' } });
    // Her other actions stay closed, and the GM can bring her back in.
    expect(find(actions(t.s, GM, 'ann'), 'rally')?.allowed).toBe(false);
    expect(find(actions(t.s, GM, 'ann'), 'outOfFight')).toMatchObject({ label: 'Ann is back in the fight', fixed: { characterId: 'ann', value: false } });
    // Back in stays on offer once she is out, whatever holds her.
    const petrified = Object.values(getEncounter(t.world).conditions).find((c) => c.target === 'ann')!;
    t.s.run({ type: 'condition.remove', conditionId: petrified.id });
    expect(find(actions(t.s, GM, 'ann'), 'outOfFight')).toMatchObject({ label: 'Ann is back in the fight' });
  });
});
