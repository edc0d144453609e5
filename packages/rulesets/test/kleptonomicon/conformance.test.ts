// The encounter conformance suite (issue 4, "the ruleset plugin contract")
// run on the Kleptonomicon's own rules and module: Edge Save turn order, two
// Beats, fleeting Slowed, with the Episode module listening in.
import { describe, expect, it } from 'vitest';
import { encounterConformance, genesisWorld, seededRng, type Json } from '@tablekeeper/engine';
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
