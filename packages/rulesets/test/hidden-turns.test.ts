// Hidden combatants' turns stay secret in every ruleset's own state and events:
// players see turn numbers as the kernel shows them (hidden turns not counted),
// and no event a player receives carries a raw turn number.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { osrTable } from './osr/helpers.js';
import { table as tswTable, ANN, ORC } from './36th-way/setup.js';
import { getOsr } from '../src/osr/index.js';
import { getTsw } from '../src/36th-way/state.js';

const SPECTATOR: Viewer = { role: 'spectator' };

function turnTo(s: Scenario, id: string): void {
  for (let i = 0; i < 20 && getEncounter(s.world).current !== id; i++) {
    s.run(getEncounter(s.world).current === null ? { type: 'encounter.advance' } : { type: 'encounter.endTurn' });
  }
  expect(getEncounter(s.world).current).toBe(id);
}

function noRawTurnNumbers(s: Scenario): void {
  const v = s.view(SPECTATOR);
  for (const tx of v.history) for (const e of tx.events) expect(Object.keys(e).filter((k) => k === 'serial' || k === 'turn')).toEqual([]);
  // The table really had a hidden turn: the players' count is behind the GM's.
  expect(getEncounter(s.world).turnSerial).toBeGreaterThan((v.world.ext['encounter'] as { turnSerial: number }).turnSerial);
}

describe('hidden turns stay hidden', () => {
  it('OSR: a move after a hidden NPC\'s turn is numbered as the players count turns', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 8, str: 10 });
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'h', kind: 'npc', visibility: 'hidden', stats: { dex: 18 } },
        { id: 'p', kind: 'pc', characterId: pc, stats: { dex: 14 } },
        { id: 'o', kind: 'npc', stats: { dex: 8 } },
      ],
    });
    turnTo(t.s, 'h');
    turnTo(t.s, 'p');
    t.run({ type: 'osr.move', combatant: 'p', feet: 10 });
    noRawTurnNumbers(t.s);
    const v = t.s.view(SPECTATOR);
    const seen = v.world.ext['osr'] as { moved: { [k: string]: { serial: number; used: number } } };
    const enc = v.world.ext['encounter'] as { lastTurn: { [k: string]: number } };
    expect(seen.moved['p']).toMatchObject({ serial: enc.lastTurn['p'], used: 10 });
    // The GM's own state keeps the real number, and movement still adds up within the turn.
    expect(getOsr(t.world).moved['p']?.serial).toBe(getEncounter(t.world).lastTurn['p']);
    t.run({ type: 'osr.move', combatant: 'p', feet: 10 });
    expect(getOsr(t.world).moved['p']?.used).toBe(20);
  });

  it('36th Way: engaging after a hidden NPC\'s turn, and a sustained ability, are numbered as the players count turns', () => {
    const t = tswTable();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, abilities: [{ id: 'ward', name: 'Ward', frequency: 'at-will', action: 'standard', sustain: 11 }] } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'shade', name: 'Shade' } as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'shade', name: 'Shade', kind: 'npc', side: 'foes', band: 'very-fast', visibility: 'hidden' },
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    });
    turnTo(t.s, 'shade');
    turnTo(t.s, 'ann');
    t.s.run({ type: '36th-way.move', who: 'ann', to: 'orc', range: 'engaged' });
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'ward' });
    noRawTurnNumbers(t.s);
    const v = t.s.view(SPECTATOR);
    const seen = v.world.ext['36th-way'] as { lastEngage: { mover: string; serial: number } | null };
    const enc = v.world.ext['encounter'] as { turnSerial: number };
    expect(seen.lastEngage).toMatchObject({ mover: 'ann', serial: enc.turnSerial });
    expect(getTsw(t.world).lastEngage?.serial).toBe(getEncounter(t.world).turnSerial);
    const sheets = (v.world.ext['36th-way'] as { sheets: { [k: string]: { uses: { [k: string]: { activeTurn: number | null } } } } }).sheets;
    expect(sheets['ann']?.uses['ward']?.activeTurn).toBe(enc.turnSerial);
    expect(getTsw(t.world).sheets['ann']?.uses['ward']?.activeTurn).toBe(getEncounter(t.world).turnSerial);
  });

  it('36th Way: a Sustain roll on a later turn carries no raw turn number and keeps the ability active', () => {
    const t = tswTable();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, abilities: [{ id: 'ward', name: 'Ward', frequency: 'at-will', action: 'standard', sustain: 3 }] } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'shade', name: 'Shade' } as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'shade', name: 'Shade', kind: 'npc', side: 'foes', band: 'very-fast', visibility: 'hidden' },
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    });
    turnTo(t.s, 'ann');
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'ward' });
    t.s.run({ type: 'encounter.endTurn' });
    // Round two: the hidden Shade goes first again, then Ann sustains (a 12 beats Sustain 3).
    turnTo(t.s, 'shade');
    turnTo(t.s, 'ann');
    t.dice.push(4, 4, 4);
    t.s.run({ type: '36th-way.sustain', who: 'ann', ability: 'ward' });
    noRawTurnNumbers(t.s);
    const v = t.s.view(SPECTATOR);
    const enc = v.world.ext['encounter'] as { turnSerial: number };
    const sheets = (v.world.ext['36th-way'] as { sheets: { [k: string]: { uses: { [k: string]: { activeTurn: number | null } } } } }).sheets;
    expect(sheets['ann']?.uses['ward']?.activeTurn).toBe(enc.turnSerial);
    expect(getTsw(t.world).sheets['ann']?.uses['ward']?.activeTurn).toBe(getEncounter(t.world).turnSerial);
  });
});
