// ADR 73: the turn order rolled again each round (004's Edge Saves, the only rolled order), and
// group initiative (001's DEX order, where each creature has its own number).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRng } from '../../src/dice/rng.js';
import { scoreSequencer, scoreOrder } from '../../src/encounter/sequencers/score.js';
import { edgeSaveSequencer } from '../../src/encounter/sequencers/edge-save.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { BEATS_ECONOMY, OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import type { Json } from '../../src/core/types.js';
import { Table, genesis, playRound } from './harness.js';

const klepto: EncounterRules = { sequencer: edgeSaveSequencer({ ties: 'score', fromSettings: (s) => ({ rerollEachRound: s['reroll'] === true }) }), economy: BEATS_ECONOMY, conditions: [] };
const npcs = [
  { id: 'wolf1', kind: 'npc', stats: { creatureType: 'wolf', edgeSave: 1 } },
  { id: 'bandit1', kind: 'npc', stats: { creatureType: 'bandit', edgeSave: 3 } },
];
const pcs = [
  { id: 'alice', kind: 'pc', stats: { edgeSave: 1 } },
  { id: 'bram', kind: 'pc', stats: { edgeSave: 0 } },
  { id: 'cass', kind: 'pc', stats: { edgeSave: 2 } },
];
const slots = (t: Table): Json[] => pcs.map((p) => t.enc.combatants[p.id]!.placement);
const rerolls = (events: readonly { type: string }[]) => events.filter((e) => e.type === 'encounter.initiativeRerolled');

describe('re-roll initiative each round (004 Edge Saves)', () => {
  it('off by default: the order and the PCs\' rolls stay as the start rolled them', () => {
    const t = new Table([encounterModule(klepto)], seededRng(7));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    const first = slots(t);
    playRound(t);
    expect(t.enc.round).toBe(2);
    expect(slots(t)).toEqual(first);
    expect(t.history.flat().some((e) => e.type === 'encounter.initiativeRerolled')).toBe(false);
  });

  it('asked at the start: every PC rolls again at each round start, recorded, logged, in the same transaction as the last turn end', () => {
    const t = new Table([encounterModule(klepto)], seededRng(11));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { rerollEachRound: true } });
    for (let round = 2; round <= 4; round++) {
      let last: readonly { type: string }[] = [];
      const r = t.enc.round;
      while (t.enc.round === r) {
        if (t.enc.pending !== null) {
          t.ok({ type: 'encounter.choose', id: t.enc.pending.default ?? t.enc.pending.options[0]! });
          continue;
        }
        last = t.ok({ type: 'encounter.endTurn' });
      }
      const again = rerolls(last);
      expect(again).toHaveLength(1);
      const e = again[0] as unknown as { round: number; placements: { [id: string]: { rolls: unknown[]; slot: number } } };
      expect(e.round).toBe(round);
      expect(Object.keys(e.placements).sort()).toEqual(['alice', 'bram', 'cass']);
      // The placements in force are the event's: the new round reads the new rolls.
      for (const id of Object.keys(e.placements)) expect(t.enc.combatants[id]!.placement).toEqual(e.placements[id]);
      for (const p of Object.values(e.placements)) expect(p.rolls.length).toBeGreaterThan(0);
      // Rolled before the round starts, so the round's first turn is the new order's.
      const types = last.map((x) => x.type);
      expect(types.indexOf('encounter.initiativeRerolled')).toBeLessThan(types.indexOf('encounter.roundStarted'));
      expect(t.world.log.some((l) => l.text === `Initiative is rolled again for round ${round}: see the new order.`)).toBe(true);
    }
  });

  it('one undo takes the re-roll back with the turn end that ended the round', () => {
    const t = new Table([encounterModule(klepto)], seededRng(3));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { rerollEachRound: true } });
    while (t.enc.acted.length < t.enc.roster.length - 1) {
      if (t.enc.pending !== null) t.ok({ type: 'encounter.choose', id: t.enc.pending.default ?? t.enc.pending.options[0]! });
      else t.ok({ type: 'encounter.endTurn' });
    }
    const before = slots(t);
    const roundBefore = t.enc.round;
    const ended = t.ok({ type: 'encounter.endTurn' });
    expect(rerolls(ended)).toHaveLength(1);
    t.undo();
    expect(t.enc.round).toBe(roundBefore);
    expect(slots(t)).toEqual(before);
  });

  it('the table setting turns it on; the builder\'s choice for one encounter wins over it', () => {
    const on = new Table([encounterModule(klepto)], seededRng(5));
    on.table = { ...on.table, world: { ...on.world, settings: { reroll: true } } };
    on.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    playRound(on);
    expect(on.history.flat().some((e) => e.type === 'encounter.initiativeRerolled')).toBe(true);
    const off = new Table([encounterModule(klepto)], seededRng(5));
    off.table = { ...off.table, world: { ...off.world, settings: { reroll: true } } };
    off.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { rerollEachRound: false } });
    playRound(off);
    expect(off.history.flat().some((e) => e.type === 'encounter.initiativeRerolled')).toBe(false);
  });

  it('property: replaying the recorded transactions gives the same world, whatever the seed (dice recorded, never rolled again)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 3 }), (seed, rounds) => {
        const t = new Table([encounterModule(klepto)], seededRng(seed));
        t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { rerollEachRound: true } });
        for (let i = 0; i < rounds; i++) playRound(t);
        // Bound by construction: each played round ends with exactly one re-roll.
        expect(t.history.flat().filter((e) => e.type === 'encounter.initiativeRerolled')).toHaveLength(rounds);
        const replayed = t.engine.replay(genesis(), t.table.transactions);
        expect(replayed.world).toEqual(t.world);
      }),
      { numRuns: 25 },
    );
  });

  it('refused where the order is not rolled (001 DEX, 002 bands), in words, at the option', () => {
    for (const sequencer of [scoreSequencer(), bandsSequencer()]) {
      const t = new Table([encounterModule({ sequencer, economy: OSR_ECONOMY, conditions: [] })]);
      const e = t.run({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc', stats: { dex: 10, band: 'fast' } }], params: { rerollEachRound: true } });
      expect([e?.code, e?.path]).toEqual(['NOT_OFFERED', 'params.rerollEachRound']);
      expect(e?.message).toMatch(/not rolled/);
    }
  });
});


describe('group initiative (001 DEX order)', () => {
  const osr: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [] };
  const line = [
    { id: 'ada', kind: 'pc', name: 'Ada', stats: { dex: 13 } },
    { id: 'g1', kind: 'npc', name: 'Goblin 1', stats: { dex: 15 } },
    { id: 'orc', kind: 'npc', name: 'Orc', stats: { dex: 11 } },
    { id: 'g2', kind: 'npc', name: 'Goblin 2', stats: { dex: 11 } },
    { id: 'g3', kind: 'npc', name: 'Goblin 3', stats: { dex: 16 } },
    { id: 'bo', kind: 'pc', name: 'Bo', stats: { dex: 12 } },
  ];

  it('each its own by default', () => {
    const t = new Table([encounterModule(osr)]);
    t.ok({ type: 'encounter.start', combatants: line });
    expect(playRound(t)).toEqual(['g3', 'g1', 'ada', 'bo', 'orc', 'g2']);
  });

  it('per foe type: the goblins share their slowest DEX (11) and act one after another; PCs keep their own', () => {
    const t = new Table([encounterModule(osr)]);
    t.ok({ type: 'encounter.start', combatants: line, params: { groupInitiative: 'type' } });
    // Goblins and the orc both at 11: the goblins' group joined first (Goblin 1), so they go before the orc.
    expect(playRound(t)).toEqual(['ada', 'bo', 'g1', 'g2', 'g3', 'orc']);
    expect(playRound(t)).toEqual(['ada', 'bo', 'g1', 'g2', 'g3', 'orc']);
  });

  it('per side: every foe at the slowest foe\'s DEX, together', () => {
    const t = new Table([encounterModule(osr)]);
    t.ok({ type: 'encounter.start', combatants: line, params: { groupInitiative: 'side' } });
    expect(playRound(t)).toEqual(['ada', 'bo', 'g1', 'orc', 'g2', 'g3']);
  });

  it('a creatureType names the group where the names do not', () => {
    const t = new Table([encounterModule(osr)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'npc', name: 'Snarl', stats: { dex: 14, creatureType: 'wolf' } }, { id: 'p', kind: 'pc', stats: { dex: 12 } }, { id: 'b', kind: 'npc', name: 'Fang', stats: { dex: 9, creatureType: 'wolf' } }], params: { groupInitiative: 'type' } });
    expect(playRound(t)).toEqual(['p', 'a', 'b']);
  });

  it('refused where the order is already by side or group (004 Edge Saves), in words', () => {
    const t = new Table([encounterModule(klepto)]);
    const e = t.run({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { groupInitiative: 'type' } });
    expect([e?.code, e?.path]).toEqual(['NOT_OFFERED', 'params.groupInitiative']);
    expect(e?.message).toMatch(/share one initiative/);
  });

  it('property: members of a group are adjacent in the order and share one score, the lowest of theirs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.constantFrom('Goblin', 'Orc', 'Rat'), dex: fc.integer({ min: 3, max: 18 }) }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.integer({ min: 3, max: 18 }), { minLength: 0, maxLength: 3 }),
        (foes, party) => {
          const t = new Table([encounterModule(osr)]);
          const combatants = [...party.map((dex, i) => ({ id: `p${i}`, kind: 'pc', name: `P${i}`, stats: { dex } })), ...foes.map((f, i) => ({ id: `f${i}`, kind: 'npc', name: `${f.type} ${i + 1}`, stats: { dex: f.dex } }))];
          t.ok({ type: 'encounter.start', combatants, params: { groupInitiative: 'type' } });
          const order = scoreOrder(t.enc);
          for (const type of new Set(foes.map((f) => f.type))) {
            const ids = foes.flatMap((f, i) => (f.type === type ? [`f${i}`] : []));
            const at = ids.map((id) => order.indexOf(id)).sort((a, b) => a - b);
            expect(at[at.length - 1]! - at[0]!).toBe(ids.length - 1);
            const lowest = Math.min(...foes.filter((f) => f.type === type).map((f) => f.dex));
            for (const id of ids) expect((t.enc.combatants[id]!.placement as { score: number }).score).toBe(lowest);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
