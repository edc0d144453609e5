// Free-form values on shown records (ADR 33): a foe's own stats, a
// condition's params and save, and an Edge Save roll's detail reach players
// only as their declared fields, in the state and in history's events alike.
import { describe, expect, it } from 'vitest';
import type { Viewer } from '../../src/core/types.js';
import { seededRng } from '../../src/dice/rng.js';
import { BANDS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { edgeSaveSequencer, shownTestRoll } from '../../src/encounter/sequencers/edge-save.js';
import type { ConditionDef, EncounterRules, EncounterState } from '../../src/encounter/types.js';
import { Table } from './harness.js';

const SECRET = 'zq_secret';
const DEFS: ConditionDef[] = [
  { id: 'ongoing', name: 'Ongoing Damage', stacking: 'separate', effects: {}, ongoing: true, params: { amount: 'number', type: 'string' } },
  { id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: { 'attack.advantage': -1 } },
];
const rules: EncounterRules = { sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: DEFS, saveRoll: (_w, _i, rng) => ({ success: rng.die(20) >= 11, roll: null }) };
const player: Viewer = { role: 'player', seatId: 's1' };
const spectator: Viewer = { role: 'spectator' };

function fight(): Table {
  const t = new Table([encounterModule(rules)]);
  t.ok({
    type: 'encounter.start',
    combatants: [
      { id: 'kira', kind: 'pc', band: 'fast', stats: { hp: 12, edgeSave: 2 } },
      { id: 'orc', name: 'Orc', kind: 'npc', band: 'medium', stats: { hp: 9, ac: 14, tactic: `${SECRET} flank` } },
    ],
  });
  return t;
}

const encOf = (t: Table, v: Viewer): EncounterState => t.engine.view(t.table, v).world.ext['encounter'] as unknown as EncounterState;
const historyText = (t: Table, v: Viewer): string => JSON.stringify(t.engine.view(t.table, v).history);

describe("a foe's own stats are the GM's", () => {
  it("players and spectators see a visible PC's stats as entered and none of a visible foe's", () => {
    const t = fight();
    for (const v of [player, spectator]) {
      const enc = encOf(t, v);
      expect(enc.combatants['kira']!.stats).toEqual({ hp: 12, edgeSave: 2 });
      expect(enc.combatants['orc']!.stats).toEqual({});
      expect(historyText(t, v)).not.toContain(SECRET);
      expect(historyText(t, v)).not.toContain('"ac":14');
    }
    expect(encOf(t, { role: 'gm' }).combatants['orc']!.stats['tactic']).toBe(`${SECRET} flank`);
  });

  it('a defeated foe shows hp 0 and nothing else, so every screen can grey it out', () => {
    const t = fight();
    t.ok({ type: 'encounter.damage', characterId: 'orc', amount: 9 });
    expect(encOf(t, player).combatants['orc']!.stats).toEqual({ hp: 0 });
    // The damage event keeps the amount dealt and the fall, not the foe's hit points before.
    const hp = t.engine.view(t.table, player).history.flatMap((x) => x.events).find((e) => e.type === 'encounter.hpChanged')!;
    expect(hp).toMatchObject({ amount: 9, to: 0 });
    expect(hp).not.toHaveProperty('from');
  });

  it("setStats on a foe reaches players' history without the values; on a PC with them", () => {
    const t = fight();
    t.ok({ type: 'encounter.setStats', characterId: 'orc', stats: { morale: `${SECRET} 7` } });
    t.ok({ type: 'encounter.setStats', characterId: 'kira', stats: { hp: 11 } });
    const events = t.engine.view(t.table, player).history.flatMap((x) => x.events).filter((e) => e.type === 'encounter.statsSet');
    expect(events).toEqual([
      { type: 'encounter.statsSet', id: 'orc', stats: {}, from: {} },
      { type: 'encounter.statsSet', id: 'kira', stats: { hp: 11 }, from: { hp: 12 } },
    ]);
  });
});

describe("a condition's params and save", () => {
  it('players read only the keys its definition declares, of the declared type (36th Way Ongoing Damage: amount and type)', () => {
    const t = fight();
    t.ok({ type: 'condition.apply', targetId: 'kira', condition: 'ongoing', duration: { kind: 'saveEnds', save: 12 }, params: { amount: 5, type: 'fire', note: `${SECRET} cursed` } });
    t.ok({ type: 'condition.apply', targetId: 'kira', condition: 'ongoing', duration: { kind: 'rounds', rounds: 2 }, params: { amount: 'lots', type: 'acid' } });
    const shown = Object.values(encOf(t, player).conditions).map((c) => [c.params, c.duration]);
    expect(shown).toContainEqual([{ amount: 5, type: 'fire' }, { kind: 'saveEnds', save: 12 }]);
    expect(shown).toContainEqual([{ type: 'acid' }, { kind: 'rounds', rounds: 2 }]);
    expect(historyText(t, player)).not.toContain(SECRET);
    const applied = t.engine.view(t.table, player).history.flatMap((x) => x.events).find((e) => e.type === 'condition.applied')!;
    expect(applied['params']).toEqual({ amount: 5, type: 'fire' });
  });

  it('a condition that declares no params shows none; a save that is not a number is dropped', () => {
    const t = fight();
    t.ok({ type: 'condition.apply', targetId: 'orc', condition: 'dazed', duration: { kind: 'saveEnds', save: { dc: `${SECRET}` } }, params: { why: SECRET } });
    const c = Object.values(encOf(t, spectator).conditions)[0]!;
    expect(c.params).toBeNull();
    expect(c.duration).toEqual({ kind: 'saveEnds' });
    expect(JSON.stringify(t.engine.view(t.table, spectator))).not.toContain(SECRET);
    expect(JSON.stringify(t.engine.view(t.table, { role: 'gm' }))).toContain(SECRET);
  });
});

describe("an Edge Save roll's detail", () => {
  it('passes the Kleptonomicon Test field by field: dice, advantage, modifier, chosen, score, critical; other keys are dropped', () => {
    const detail = { dice: [{ face: 10, value: 10, critical: 'success', coin: 1, why: SECRET }], advantage: 0, modifier: 2, chosen: 0, score: 12, critical: 'success', note: SECRET };
    expect(shownTestRoll(detail)).toEqual({ dice: [{ face: 10, value: 10, critical: 'success', coin: 1 }], advantage: 0, modifier: 2, chosen: 0, score: 12, critical: 'success' });
    expect(shownTestRoll('free text')).toBeNull();
    expect(shownTestRoll({ dice: 'x', critical: 'maybe' })).toEqual({ dice: [], advantage: 0, modifier: 0, chosen: 0, score: 0, critical: null });
  });

  it("a PC's rolled Edge Saves reach players as the test's fields, in the state and in the start event", () => {
    const edge: EncounterRules = {
      ...rules,
      sequencer: edgeSaveSequencer({ roll: (rng, o) => ({ score: rng.die(10) + o.modifier, note: SECRET }) as { score: number } }),
    };
    const t = new Table([encounterModule(edge)], seededRng(7));
    t.ok({ type: 'encounter.start', combatants: [{ id: 'kira', kind: 'pc', stats: { edgeSave: 2 } }, { id: 'orc', kind: 'npc', stats: {} }] });
    const gmText = JSON.stringify(t.engine.view(t.table, { role: 'gm' }));
    expect(gmText).toContain(SECRET);
    for (const v of [player, spectator]) expect(JSON.stringify(t.engine.view(t.table, v))).not.toContain(SECRET);
    const placement = encOf(t, player).combatants['kira']!.placement as { rolls: { detail: { score: number } }[] };
    expect(placement.rolls.length).toBeGreaterThan(0);
    expect(typeof placement.rolls[0]!.detail.score).toBe('number');
  });
});
