// The encounter conformance suite (issue 4, "the ruleset plugin contract")
// run on the Kleptonomicon's own rules and module: Edge Save turn order, two
// Beats, fleeting Slowed, with the Episode module listening in.
import { describe, expect, it } from 'vitest';
import { encounterConformance, fixedRng, genesisWorld, seededRng, type Json } from '@tablekeeper/engine';
import { checkSecrecy, type StepMaker } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '../../src/registry.js';
import { kleptonomiconKit, kleptonomiconModule } from '../../src/kleptonomicon/index.js';
import { KLEPTO_SETTINGS } from '../../src/kleptonomicon/settings.js';

const genesis = () => genesisWorld({ tableId: 't', name: 'n', rulesetId: 'kleptonomicon', settings: Object.fromEntries(KLEPTO_SETTINGS.map((s) => [s.key, s.default])) });

// Two creature types make the two NPC groups 004 "Turn Order" asks for at least.
const roster: Json[] = [
  { id: 'alice', kind: 'pc', stats: { edgeSave: 1 } },
  { id: 'bob', kind: 'pc', stats: { edgeSave: 0, sneaky: true } },
  { id: 'guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 2 } },
  { id: 'hound', kind: 'npc', stats: { creatureType: 'hound', edgeSave: 0 } },
  { id: 'lurker', kind: 'npc', visibility: 'hidden', stats: { creatureType: 'hound', edgeSave: 0 } },
];

describe('encounter conformance (order, economy, replay, undo, views)', () => {
  for (const seed of [1, 7, 42]) {
    it(`passes with the Kleptonomicon rules and module (Edge Saves rolled with seed ${seed})`, () => {
      const problems = encounterConformance({
        rules: kleptonomiconKit.rules,
        modules: [kleptonomiconKit.module, kleptonomiconModule(kleptonomiconKit)],
        genesis: genesis(),
        combatants: roster,
        rng: seededRng(seed),
        rounds: 3,
      });
      expect(problems).toEqual([]);
    });
  }
  it('also with the GM merging the NPCs into explicit groups', () => {
    const problems = encounterConformance({
      rules: kleptonomiconKit.rules,
      modules: [kleptonomiconKit.module, kleptonomiconModule(kleptonomiconKit)],
      genesis: genesis(),
      combatants: roster,
      params: { groups: [['guard'], ['hound', 'lurker']] },
      rng: seededRng(3),
    });
    expect(problems).toEqual([]);
  });
});

// Secrecy conformance (issue 15, ADR 10): hidden NPCs in their own Edge Save
// groups, hidden characters with canary names and improvised actions; no
// canary, and not the number of hidden groups, may reach a player.
describe('secrecy conformance (ADR 10)', () => {
  const engine = engineFor('kleptonomicon')!;
  const settings = resolveSettings('kleptonomicon');
  if (!settings.ok) throw new Error(settings.error.message);
  const steps: StepMaker[] = [
    () => ({ actor: { role: 'gm' }, command: { type: 'kleptonomicon.startEpisode' } }),
    () => ({ actor: { role: 'gm' }, command: { type: 'kleptonomicon.freeplay' } }),
    (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'kleptonomicon.improvise', characterId: ctx.pick(ctx.hiddenIds(), d.a, 'nobody'), description: ctx.canary() } }),
    (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'kleptonomicon.setResource', characterId: ctx.pick(ctx.hiddenIds(), d.a, 'nobody'), key: 'health', value: 3, max: 5 } }),
  ];
  it('no canary reaches a player or spectator (1,000 random sequences, seed 20261125)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({
      engine,
      rulesetId: 'kleptonomicon',
      settings: settings.value,
      steps,
      // Hidden NPCs form their own creature type, so a whole Edge Save group can be hidden.
      combatantExtra: (_ctx, visibility, d) => ({ stats: { creatureType: visibility === 'hidden' ? 'lurker' : d.a % 2 === 0 ? 'guard' : 'hound', edgeSave: d.b % 3 } }),
      sequences: 1000,
    });
    expect(report.sequences).toBe(1000);
    expect(report.compared).toBeGreaterThan(0);
    expect(Object.keys(report.accepted)).toContain('kleptonomicon.improvise');
    expect(Object.keys(report.accepted)).toContain('encounter.start');
    expect(Object.keys(report.accepted)).toContain('encounter.remove');
  });

  it('a GM-only key planted in any record of the kleptonomicon, encounter, countdowns, bestiary or timer state or in a character (free-form stats, params, save and detail too) reaches no player or spectator (default deny, ADR 25 and 33; 400 sequences)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({
      engine,
      rulesetId: 'kleptonomicon',
      settings: settings.value,
      steps,
      combatantExtra: (_ctx, visibility, d) => ({ stats: { creatureType: visibility === 'hidden' ? 'lurker' : d.a % 2 === 0 ? 'guard' : 'hound', edgeSave: d.b % 3 } }),
      sequences: 400,
      seed: 20261126,
      compareWithWalk: false,
      plant: ['kleptonomicon', 'encounter', 'countdowns', 'characters', 'bestiary', 'request', 'timer'],
    });
    expect(report.planted).toBeGreaterThan(100);
    for (const m of ['encounter', 'countdowns']) expect(report.plantedIn[m]).toBeGreaterThan(10);
    expect(report.plantedIn['characters']).toBeGreaterThan(10);
    expect(report.plantedIn['bestiary']).toBeGreaterThan(0);
    expect(report.plantedIn['timer']).toBeGreaterThan(10);
  });

  it('a hidden Edge Save group is not counted in a player view: the same as a table without it (004 "Turn Order")', () => {
    const roster = (withLurker: boolean): Json[] => [
      { id: 'alice', kind: 'pc', stats: { edgeSave: 1 } },
      { id: 'guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 2 } },
      { id: 'hound', kind: 'npc', stats: { creatureType: 'hound', edgeSave: 0 } },
      ...(withLurker ? [{ id: 'lurker', kind: 'npc', visibility: 'hidden', stats: { creatureType: 'lurker', edgeSave: 5 } }] : []),
    ];
    const playerEncounter = (withLurker: boolean) => {
      const t = engine.createTable({ tableId: 't', name: 'n', rulesetId: 'kleptonomicon', settings: settings.value });
      // Alice passes every Edge Save (a 9 on each die), so her slot does not depend on the groups.
      const r = engine.execute(t, { type: 'encounter.start', combatants: roster(withLurker) }, { rng: fixedRng(Array(8).fill(9)), actor: { role: 'gm' } });
      if (!r.ok) throw new Error(r.error.message);
      const enc = engine.view(r.value.table, { role: 'spectator' }).world.ext['encounter'] as { seq: Json; combatants: { [id: string]: { placement: Json } } };
      return { seq: enc.seq, placements: Object.fromEntries(Object.entries(enc.combatants).map(([id, c]) => [id, c.placement])) };
    };
    const hidden = playerEncounter(true);
    const without = playerEncounter(false);
    expect((hidden.seq as { groups: Json[] }).groups).toHaveLength(2);
    expect(hidden.seq).toEqual(without.seq);
    expect(hidden.placements['guard']).toEqual(without.placements['guard']);
    expect(hidden.placements['hound']).toEqual(without.placements['hound']);
  });
});
