// The conformance check on the four systems' bases (rulesets run it with their own catalogues and hooks).
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/types.js';
import { seededRng } from '../../src/dice/rng.js';
import { encounterConformance } from '../../src/encounter/conformance.js';
import { bandsEncounter, kleptonomiconEncounter, osrEncounter, teamsEncounter } from '../../src/encounter/systems.js';
import type { EncounterRules, Sequencer } from '../../src/encounter/types.js';
import { genesis } from './harness.js';

const roster: Json[] = [
  { id: 'p1', kind: 'pc', side: 'pcs', band: 'fast', stats: { dex: 13, edgeSave: 1 } },
  { id: 'p2', kind: 'pc', side: 'pcs', band: 'medium', stats: { dex: 15, edgeSave: 0, sneaky: true } },
  { id: 'n1', kind: 'npc', side: 'npcs', band: 'medium', stats: { dex: 11, edgeSave: 2, creatureType: 'orc' } },
  { id: 'n2', kind: 'npc', side: 'npcs', band: 'slow', stats: { dex: 8, edgeSave: 0, creatureType: 'rat' } },
  { id: 'n3', kind: 'npc', side: 'npcs', band: 'slow', stats: { dex: 8, edgeSave: 1, creatureType: 'rat' } },
];

const cases: [string, EncounterRules, Json | undefined][] = [
  ['osr', { ...osrEncounter(), conditions: [] }, undefined],
  ['36th-way', { ...bandsEncounter(), conditions: [] }, undefined],
  ['teams', { ...teamsEncounter(), conditions: [] }, { teamOrder: ['pcs', 'npcs'] }],
  ['kleptonomicon', { ...kleptonomiconEncounter({ roll: (rng, o) => ({ score: rng.die(10) + o.modifier }) }), conditions: [] }, undefined],
];

describe('encounter conformance', () => {
  for (const [name, rules, params] of cases) {
    it(`${name}: order, economy, replay, undo and views hold`, () => {
      const problems = encounterConformance({ rules, genesis: genesis(), combatants: roster, rng: seededRng(name), rounds: 4, ...(params !== undefined ? { params } : {}) });
      expect(problems).toEqual([]);
    });
  }

  it('reports a sequencer that lets someone act twice', () => {
    const base = bandsEncounter();
    // A broken order that forgets who acted: always offers the first combatant.
    const broken: Sequencer = { ...base.sequencer, next: (view) => (view.enc.turnSerial >= 3 * view.enc.round ? { kind: 'roundOver' } : { kind: 'actor', id: view.enc.roster[0]! }), rank: undefined };
    const problems = encounterConformance({ rules: { sequencer: broken, economy: base.economy, conditions: [] }, genesis: genesis(), combatants: roster, rng: seededRng(1) });
    expect(problems.some((p) => p.includes('took a second turn'))).toBe(true);
    expect(problems.some((p) => p.includes('was able but never acted'))).toBe(true);
  });
});
