// Ids are user input: a combatant called "toString" or "constructor" must not find Object.prototype's members in the encounter's maps.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { encounterModule } from '../../src/encounter/module.js';
import { economyOf } from '../../src/encounter/selectors.js';
import { bandsEncounter } from '../../src/encounter/systems.js';
import { Table } from './harness.js';

describe('combatant ids that are Object.prototype member names', () => {
  for (const id of ['toString', 'constructor', 'hasOwnProperty']) {
    it(`"${id}" gets a whole economy at its turn, and players can view the fight`, () => {
      const rules = { ...bandsEncounter(), conditions: [] };
      const t = new Table([encounterModule(rules)], seededRng(7));
      t.ok({ type: 'encounter.start', combatants: [{ id, kind: 'pc', band: 'fast', stats: {} }, { id: 'orc', kind: 'npc', band: 'slow', stats: {} }] });
      t.ok({ type: 'encounter.endTurn' });
      const econ = economyOf(t.world, id);
      expect(econ.turnTags).toEqual([]);
      expect(econ.roundTags).toEqual([]);
      expect(econ.extended).toBeNull();
      expect(() => t.engine.view(t.table, { role: 'spectator' })).not.toThrow();
    });
  }
});
