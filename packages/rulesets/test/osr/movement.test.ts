// 001 "Movement Actions" through the engine: speed after load, split movement, half-speed modes, trade-downs.
import { describe, expect, it } from 'vitest';
import { eventsOf, osrTable } from './helpers.js';

const fight = (stats: { [k: string]: number }) => {
  const t = osrTable();
  const pc = t.add('PC', { maxHp: 8, ...stats });
  t.run({ type: 'encounter.start', combatants: [{ id: 'p', kind: 'pc', characterId: pc, stats: { dex: 14 } }, { id: 'o', kind: 'npc', stats: { dex: 8 } }] });
  return { t, pc };
};

describe('movement (001 "Movement Actions")', () => {
  it('the text: 10 STR carrying 11 load moves 25\', split across the turn', () => {
    const { t } = fight({ str: 10, load: 11 });
    const tx = t.run({ type: 'osr.move', combatant: 'p', feet: 10 });
    expect(eventsOf(tx, 'economy.spent')).toHaveLength(1);
    const tx2 = t.run({ type: 'osr.move', combatant: 'p', feet: 15 });
    expect(eventsOf(tx2, 'economy.spent')).toHaveLength(0);
    expect(eventsOf(tx2, 'osr.moved')[0]).toMatchObject({ used: 25, budget: 25 });
    expect(t.s.fail({ type: 'osr.move', combatant: 'p', feet: 5 })).toMatchObject({ code: 'TOO_FAR', path: 'feet' });
  });
  it('climbing is half speed: a 30\' PC climbs 15\'', () => {
    const { t } = fight({ str: 10 });
    t.run({ type: 'osr.move', combatant: 'p', feet: 15, mode: 'climb' });
    expect(t.s.fail({ type: 'osr.move', combatant: 'p', feet: 1, mode: 'climb' }).code).toBe('TOO_FAR');
  });
  it('the active action traded down buys a second movement, only when the mover says so (ADR 44)', () => {
    const { t } = fight({ str: 10 });
    t.run({ type: 'osr.move', combatant: 'p', feet: 30 });
    expect(t.s.fail({ type: 'osr.move', combatant: 'p', feet: 30, another: true })).toMatchObject({ code: 'PAYS_WITH_ACTIVE', path: 'withActive' });
    const tx = t.run({ type: 'osr.move', combatant: 'p', feet: 30, another: true, withActive: true });
    expect(eventsOf(tx, 'economy.spent')[0]).toMatchObject({ paid: [{ pool: 'active', n: 1 }] });
    expect(t.s.fail({ type: 'osr.move', combatant: 'p', feet: 30, another: true, withActive: true }).code).toBe('NO_ACTIONS_LEFT');
  });
  it('0\' speed: completely encumbered, cannot move; exhausted likewise', () => {
    expect(fight({ str: 8, load: 14 }).t.s.fail({ type: 'osr.move', combatant: 'p', feet: 5 }).code).toBe('CANNOT_MOVE');
    const { t, pc } = fight({ str: 10 });
    t.run({ type: 'osr.exhaust', character: pc });
    expect(t.s.fail({ type: 'osr.move', combatant: 'p', feet: 5 }).code).toBe('CANNOT_MOVE');
  });
  it('movement resets on the next turn; only on your own turn', () => {
    const { t } = fight({ str: 10 });
    t.run({ type: 'osr.move', combatant: 'p', feet: 30 });
    t.run({ type: 'encounter.endTurn' });
    expect(t.s.fail({ type: 'osr.move', combatant: 'p', feet: 5 }).code).toBe('NOT_YOUR_TURN');
    t.run({ type: 'encounter.endTurn' });
    expect(eventsOf(t.run({ type: 'osr.move', combatant: 'p', feet: 30 }), 'osr.moved')[0]).toMatchObject({ used: 30, budget: 30 });
  });
});
