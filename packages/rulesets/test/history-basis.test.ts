// ADR 45: players read stored history through the foe rule (who is a foe, the
// GM's reveal). A server re-makes a phone's held history only when the engine's
// history basis moves, so the basis must move whenever a non-GM reading of an
// old entry changes; and one foe rule serves the sheets, the rulesets and the
// encounter, so a seat's NPC retainer is no foe anywhere.
import { describe, expect, it } from 'vitest';
import { countingIds, scenario, seededRng } from '@tablekeeper/engine/testing';
import type { Command, Json, Module, Table, TransactionView, Viewer } from '@tablekeeper/engine';
import { createTableFor, engineFor } from '../src/index.js';
import { fight, ORC } from './36th-way/setup.js';

const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };

const eventsOf = (history: readonly TransactionView[], type: string) => history.flatMap((h) => h.events).filter((e) => e.type === type);

describe('the history basis moves whenever players would read held history otherwise (ADR 45)', () => {
  it("36th Way: the Orc's damage (20 -> 15 HP) reads without its HP until its sheet is set again as a PC's; the basis moves with it (the room's old foe key did not: no character or combatant changed)", () => {
    const t = fight();
    t.s.run({ type: '36th-way.damage', targetId: 'orc', amount: 5 });
    const before = t.s.table;
    const damaged = (table: Table) => eventsOf(t.s.engine.history(table, SPECTATOR), '36th-way.damaged')[0]!;
    expect(damaged(before)).not.toHaveProperty('hpTo');
    const orc = { ...ORC, kind: 'pc' } as unknown as Json;
    t.s.run({ type: '36th-way.sheet.set', sheet: orc });
    expect(damaged(t.s.table)).toMatchObject({ hpFrom: 20, hpTo: 15 });
    expect(t.s.engine.historyBasis(t.s.table.world)).not.toBe(t.s.engine.historyBasis(before.world));
  });

  it('a note or a clock advance leaves the basis as it was (no held history is re-made for them)', () => {
    const t = fight();
    const was = t.s.engine.historyBasis(t.s.world);
    t.s.run({ type: 'log.note', text: 'The Orc snarls.', audience: { kind: 'all' } });
    t.s.run({ type: 'clock.advance', unit: 'round' });
    expect(t.s.engine.historyBasis(t.s.world)).toBe(was);
  });

  it("the GM's reveal moves it (players then read the Orc's AC in the attack they hold)", () => {
    const t = fight();
    const was = t.s.engine.historyBasis(t.s.world);
    t.s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(t.s.engine.historyBasis(t.s.world)).not.toBe(was);
  });

  it('a module with an eventView and no declared basis counts every new world as a change (the safe default); the shipped ones all declare theirs', () => {
    const plain: Module = { id: 'plain', eventView: { 'log.noted': (_w, e) => e } };
    const s = scenario([plain]);
    const was = s.world;
    expect(s.engine.historyBasis(was)).toBe(s.engine.historyBasis(was));
    s.run({ type: 'log.note', text: 'nothing a view reads', audience: { kind: 'all' } });
    expect(s.engine.historyBasis(s.world)).not.toBe(s.engine.historyBasis(was));
    for (const id of ['osr', 'daggerheart', 'kleptonomicon', 'teams', '36th-way']) {
      for (const m of engineFor(id)!.modules) if (m.eventView !== undefined) expect(typeof m.eventViewBasis, `${id}: ${m.id}`).toBe('function');
    }
  });
});

describe("one foe rule: a seat's NPC retainer (ADR 45)", () => {
  /** An OSR table: Ann's and Bo's seats, a retainer Ann's seat holds (an NPC), in a fight as an NPC combatant linked to it, and an Orc. */
  function retainerFight() {
    const engine = engineFor('osr')!;
    const made = createTableFor('osr', { tableId: 'retainer', name: 'Retainer' });
    if (!made.ok) throw new Error(made.error.message);
    let table = engine.replay(made.value.genesis, []);
    const rng = countingIds(seededRng(7));
    const run = (command: Command): void => {
      const r = engine.execute(table, command, { rng, actor: GM });
      if (!r.ok) throw new Error(`${command.type}: ${r.error.message}`);
      table = r.value.table;
    };
    run({ type: 'seat.add', name: 'Ann' });
    run({ type: 'seat.add', name: 'Bo' });
    const [ann, bo] = Object.keys(table.world.seats) as [string, string];
    run({ type: 'character.add', name: 'Torch-bearer', kind: 'npc', seatId: ann, visibility: 'visible', stats: { hp: 4 } });
    const retainer = Object.keys(table.world.characters)[0]!;
    run({
      type: 'encounter.start',
      combatants: [
        { id: 'tb', name: 'Torch-bearer', kind: 'npc', side: 'party', band: 'fast', score: 10, stats: { hp: 4, morale: 7 }, characterId: retainer },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'slow', score: 9, stats: { hp: 6, morale: 8 } },
      ],
    });
    run({ type: 'encounter.setStats', characterId: 'tb', stats: { morale: 9 } });
    run({ type: 'encounter.setStats', characterId: 'orc', stats: { morale: 6 } });
    return { engine, table: () => table, ann: { role: 'player', seatId: ann } as Viewer, bo: { role: 'player', seatId: bo } as Viewer };
  }

  it("Ann reads her retainer's morale 9 in history and in the fight, as a PC's; the Orc's morale 6 stays with the GM", () => {
    const f = retainerFight();
    const set = eventsOf(f.engine.history(f.table(), f.ann), 'encounter.statsSet');
    expect(set.find((e) => e['id'] === 'tb')).toMatchObject({ stats: { morale: 9 } });
    expect(set.find((e) => e['id'] === 'orc')).toMatchObject({ stats: {}, from: {} });
    const enc = f.engine.project(f.table().world, f.ann).ext['encounter'] as { combatants: { [id: string]: { stats: { [k: string]: Json } } } };
    expect(enc.combatants['tb']!.stats).toEqual({ hp: 4, morale: 9 });
    expect(enc.combatants['orc']!.stats).toEqual({});
  });

  it("Bo and a spectator read it too: a seat's retainer fights on the party's side, like another player's PC (the decision in ADR 45)", () => {
    const f = retainerFight();
    for (const v of [f.bo, SPECTATOR]) {
      expect(eventsOf(f.engine.history(f.table(), v), 'encounter.statsSet').find((e) => e['id'] === 'tb')).toMatchObject({ stats: { morale: 9 } });
      const enc = f.engine.project(f.table().world, v).ext['encounter'] as { combatants: { [id: string]: { stats: { [k: string]: Json } } } };
      expect(enc.combatants['tb']!.stats).toMatchObject({ morale: 9 });
    }
  });
});
