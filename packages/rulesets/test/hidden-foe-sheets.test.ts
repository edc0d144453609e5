// A hidden foe's automatic sheet (issue 20, ADR 30): the web gives a 36th Way
// or teams foe typed in the builder a sheet keyed by its combatant once it is on
// the tracker. For a hidden foe that sheet, its name, numbers and abilities,
// must stay the GM's: in no player's or spectator's view, log or actions answer,
// until the GM reveals it. Property: over any order of steps, a planted name never shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scenario, Viewer } from '@tablekeeper/engine';
import { table as tswTable } from './36th-way/setup.js';
import { sheetFor, table as teamsTable } from './teams/helpers.js';

const CANARY = 'Lurker-Zq-canary';

function seatAndPc(s: Scenario, name: string): { viewer: Viewer; characterId: string } {
  s.run({ type: 'seat.add', name: `${name}'s player` });
  const seatId = Object.keys(s.world.seats).at(-1)!;
  s.run({ type: 'character.add', name, kind: 'pc', seatId });
  const characterId = Object.values(s.world.characters).find((c) => c.name === name)!.id;
  return { viewer: { role: 'player', seatId }, characterId };
}

const seen = (s: Scenario, v: Viewer): string => JSON.stringify(s.view(v));

describe('36th Way: a hidden foe\'s automatic sheet', () => {
  it('never reaches a player or a spectator (view, log, actions targets) until it is revealed', () => {
    const t = tswTable();
    const ann = seatAndPc(t.s, 'Ann');
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: ann.characterId, name: 'Ann', kind: 'pc', characterId: ann.characterId, level: 1, volition: 3, maxHp: 30 } });
    t.s.run({ type: 'encounter.start', combatants: [{ id: ann.characterId, name: 'Ann', kind: 'pc', side: 'pcs', band: 'fast', characterId: ann.characterId }, { id: 'lurk', name: CANARY, kind: 'npc', side: 'npcs', band: 'slow', visibility: 'hidden' }] });
    // What the builder sends for a foe typed with AC/PD/MD, here with an attack ability too.
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'lurk', name: CANARY, kind: 'npc', ac: 17, pd: 15, md: 12, maxHp: 40, abilities: [{ id: 'sting', name: `${CANARY} sting`, attack: { defense: 'pd' } }] } });
    t.s.run({ type: '36th-way.damage', target: 'lurk', amount: 5 });
    for (const v of [ann.viewer, { role: 'spectator' } as const]) expect(seen(t.s, v)).not.toContain(CANARY);
    const actions = t.s.engine.query(t.s.table, ann.viewer, '36th-way.actions', { combatantId: ann.characterId });
    expect(actions.ok).toBe(true);
    expect(JSON.stringify(actions)).not.toContain(CANARY);
    expect(JSON.stringify(actions)).not.toContain('"lurk"');
    // The GM sees it, and once revealed the players do.
    expect(seen(t.s, { role: 'gm' })).toContain(CANARY);
    t.s.run({ type: 'encounter.reveal', characterId: 'lurk' });
    expect(seen(t.s, ann.viewer)).toContain(CANARY);
  });

  it("a player's shown sheet carries its abilities' attacks (field by field), so the phone offers them", () => {
    const t = tswTable();
    const ann = seatAndPc(t.s, 'Ann');
    const id = ann.characterId;
    t.s.run({ type: '36th-way.sheet.set', sheet: { id, name: 'Ann', kind: 'pc', characterId: id, maxHp: 30, abilities: [{ id: 'lance', name: 'Ice Lance', attack: { defense: 'pd', reach: 'nearby', hit: { count: 2, sides: 6, bonus: 3 } } }] } });
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', maxHp: 20 } });
    t.s.run({ type: 'encounter.start', combatants: [{ id, name: 'Ann', kind: 'pc', side: 'pcs', band: 'fast', characterId: id }, { id: 'orc', name: 'Orc', kind: 'npc', side: 'npcs', band: 'slow' }] });
    const view = t.s.view(ann.viewer) as unknown as { world: { ext: { '36th-way': { sheets: { [k: string]: { abilities: { lance: { attack: object } } } } } } } };
    expect(view.world.ext['36th-way'].sheets[id]!.abilities.lance.attack).toEqual({ defense: 'pd', bonus: 0, reach: 'nearby', targets: 1, asBasic: false, hit: { count: 2, sides: 6, bonus: 3 }, miss: 'none', missDice: null, types: ['weapon'], rollAllFirst: false });
    const r = t.s.engine.query(t.s.table, ann.viewer, '36th-way.actions', { combatantId: id });
    expect(JSON.stringify(r)).toContain('"ability:lance"');
  });
});

describe('teams: a hidden foe\'s automatic sheet', () => {
  it('never reaches a player or a spectator until it is revealed', () => {
    const { s } = teamsTable();
    const ann = seatAndPc(s, 'Ann');
    s.run({ type: 'encounter.start', combatants: [{ id: ann.characterId, name: 'Ann', kind: 'pc', side: 'players', team: 'players', characterId: ann.characterId }, { id: 'lurk', name: CANARY, kind: 'npc', side: 'raiders', team: 'raiders', visibility: 'hidden' }], params: { teamOrder: ['players', 'raiders'] } });
    // What the builder sends for a teams foe typed with its evasion.
    sheetFor(s, 'lurk', { name: CANARY, evasion: 7, maxHealth: 10, maxEndurance: 10 });
    for (const v of [ann.viewer, { role: 'spectator' } as const]) expect(seen(s, v)).not.toContain(CANARY);
    expect(seen(s, { role: 'gm' })).toContain(CANARY);
    s.run({ type: 'encounter.reveal', characterId: 'lurk' });
    expect(seen(s, ann.viewer)).toContain(CANARY);
  });
});

describe('property: a hidden foe stays hidden through any sequence of sheet writes, damage, conditions and turns', () => {
  it('36th Way: whatever is done to the hidden foe before the reveal, no player view names it', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('damage'), fc.constant('condition'), fc.constant('resheet'), fc.constant('end-turn')), { maxLength: 8 }), (steps) => {
        const t = tswTable();
        const ann = seatAndPc(t.s, 'Ann');
        t.s.run({ type: '36th-way.sheet.set', sheet: { id: ann.characterId, name: 'Ann', kind: 'pc', characterId: ann.characterId, maxHp: 30 } });
        t.s.run({ type: 'encounter.start', combatants: [{ id: ann.characterId, name: 'Ann', kind: 'pc', side: 'pcs', band: 'fast', characterId: ann.characterId }, { id: 'lurk', name: CANARY, kind: 'npc', side: 'npcs', band: 'slow', visibility: 'hidden' }] });
        t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'lurk', name: CANARY, kind: 'npc', maxHp: 40 } });
        for (const step of steps) {
          if (step === 'damage') t.s.run({ type: '36th-way.damage', target: 'lurk', amount: 3 });
          else if (step === 'condition') t.s.run({ type: 'condition.apply', target: 'lurk', condition: 'dazed', duration: { kind: 'rounds', rounds: 2 } });
          else if (step === 'resheet') t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'lurk', name: CANARY, kind: 'npc', maxHp: 50, ac: 18 } });
          else t.s.run({ type: 'encounter.endTurn' });
          expect(seen(t.s, ann.viewer)).not.toContain(CANARY);
        }
      }),
      { numRuns: 40 },
    );
  });
});
