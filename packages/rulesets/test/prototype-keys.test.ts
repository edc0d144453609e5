// Own keys only (issue 15, ADR 10): for every command type of every ruleset,
// `__proto__`, `constructor`, `toString`, `valueOf` and `hasOwnProperty` as
// ids, names and object keys are ordinary data or a clear refusal: never an
// INTERNAL error, never a phantom entry in the world, never a world that
// fails to survive a JSON round trip or a replay.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRng, type Command, type Json, type Viewer } from '@tablekeeper/engine';
import { engineFor, resolveSettings, rulesetIds } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];
const FIELDS = ['id', 'target', 'attacker', 'character', 'characterId', 'combatant', 'owner', 'by', 'name', 'key', 'stat', 'ability', 'condition', 'weapon', 'item', 'who', 'kind', 'label'];

/** A JSON value holding `key` as an own property name (JSON.parse, as a socket delivers it), or as a string. */
const holding = (key: string, asObject: boolean): Json => (asObject ? (JSON.parse(`{${JSON.stringify(key)}: 1}`) as Json) : key);

describe('prototype keys are ordinary data or a clear error in every command (ADR 10)', () => {
  for (const rulesetId of rulesetIds) {
    it(`${rulesetId}: fuzzed over every command type (fixed seed 15)`, () => {
      const engine = engineFor(rulesetId)!;
      const settings = resolveSettings(rulesetId);
      if (!settings.ok) throw new Error(settings.error.message);
      let table = engine.createTable({ tableId: 't', name: 'Prototype keys', rulesetId, settings: settings.value });
      const setup = (c: Command): void => {
        const r = engine.execute(table, c, { rng: seededRng(1), actor: GM });
        if (!r.ok) throw new Error(r.error.message);
        table = r.value.table;
      };
      setup({ type: 'seat.add', name: 'Ann' });
      setup({ type: 'character.add', name: 'Hero', kind: 'pc', seatId: 'seat-1', stats: { hp: 10, dex: 12 } });
      const start = table;
      const types = engine.modules.flatMap((m) => Object.keys(m.commands ?? {}));
      const command = fc.record({
        type: fc.constantFrom(...types),
        fields: fc.uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 4 }),
        key: fc.constantFrom(...KEYS),
        asObject: fc.boolean(),
        player: fc.boolean(),
      });
      fc.assert(
        fc.property(command, ({ type, fields, key, asObject, player }) => {
          const c: { [k: string]: Json } = { type };
          for (const f of fields) c[f] = holding(key, asObject);
          // Also as keys of the records commands carry (stats, sheets, params).
          c['stats'] = holding(key, true);
          const r = engine.execute(start, c as Command, { rng: seededRng(2), actor: player ? ANN : GM });
          if (!r.ok) {
            expect(r.error.code, `${type} ${JSON.stringify(c)}: ${r.error.message}`).not.toBe('INTERNAL');
            return;
          }
          const w = r.value.table.world;
          // No phantom: every entry of the core's maps is a real, own record.
          for (const [id, ch] of Object.entries(w.characters)) expect(ch.id, `${type}: character ${id}`).toBe(id);
          for (const [id, s] of Object.entries(w.seats)) expect(s.id, `${type}: seat ${id}`).toBe(id);
          const text = JSON.stringify(w);
          expect(JSON.stringify(JSON.parse(text))).toBe(text);
          expect(JSON.stringify(engine.replay(start.genesis, JSON.parse(JSON.stringify(r.value.table.transactions)) as typeof r.value.table.transactions).world)).toBe(text);
          expect(() => JSON.stringify(engine.view(r.value.table, ANN))).not.toThrow();
        }),
        { numRuns: 400, seed: 15 },
      );
    });
  }
});
