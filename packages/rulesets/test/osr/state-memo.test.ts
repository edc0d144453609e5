// Issue 19: getOsr keeps the OSR state with its defaults filled in per stored
// object (module state is immutable). Over random OSR play (any declared
// command, payloads from its own schema, by the GM and by a player, undo and
// redo), the kept state equals one filled in afresh for the GM's world, each
// seat's and the spectator's projection, read in a rotating order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payloadJsonSchema, seededRng, type Command, type Json, type Table, type Viewer, type World } from '@tablekeeper/engine';
import { sameJsonValue } from '@tablekeeper/engine/testing';
import { createTableFor, engineFor } from '../../src/registry.js';
import { EMPTY_OSR, getOsr, OSR_ID } from '../../src/osr/state.js';
import { arbitraryFor, type Refs, type Schema } from '../catalogue/fixtures.js';

const GM: Viewer = { role: 'gm' };

const refsOf = (w: World): Refs => {
  const enc = w.ext['encounter'] as { combatants?: object } | undefined;
  const cds = w.ext['countdowns'] as { countdowns?: object } | undefined;
  return { character: Object.keys(w.characters), seat: Object.keys(w.seats), combatant: Object.keys(enc?.combatants ?? {}), countdown: Object.keys(cds?.countdowns ?? {}) };
};

/** The state filled in afresh from a JSON copy (an object getOsr has never seen). */
const fresh = (w: World): unknown => {
  const raw = w.ext[OSR_ID];
  return raw === undefined || raw === null ? EMPTY_OSR : { ...EMPTY_OSR, ...(JSON.parse(JSON.stringify(raw)) as object) };
};

describe('getOsr kept per stored state (issue 19)', () => {
  it('equals the state filled in afresh for the GM, each seat and a spectator over random OSR play', { timeout: 120_000 }, () => {
    const engine = engineFor('osr')!;
    const commands = engine.catalog.filter((d) => d.kind === 'command');
    const accepted = new Set<string>();
    let compared = 0;
    const viewersPerStep = 4;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 5, maxLength: 25 }), (steps) => {
        const made = createTableFor('osr', { tableId: 'memo', name: 'Memo' });
        if (!made.ok) throw new Error(made.error.message);
        let table: Table = made.value;
        const rng = seededRng(steps.length);
        const exec = (actor: Viewer, c: Command): void => {
          const r = engine.execute(table, c, { rng, actor });
          if (r.ok) {
            table = r.value.table;
            accepted.add(c.type);
          }
        };
        exec(GM, { type: 'seat.add', name: 'Ann' });
        exec(GM, { type: 'seat.add', name: 'Bo' });
        const [ann, bo] = Object.keys(table.world.seats) as [string, string];
        exec(GM, { type: 'character.add', name: 'Ann', kind: 'pc', seatId: ann, visibility: 'visible', stats: { hp: 10 } });
        exec(GM, { type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { hp: 7 } });
        const [pc, lurker] = Object.keys(table.world.characters) as [string, string];
        exec(GM, { type: 'encounter.start', combatants: [{ id: pc, name: 'Ann', kind: 'pc', characterId: pc, score: 12 }, { id: lurker, name: 'Lurker', kind: 'npc', characterId: lurker, visibility: 'hidden', score: 9 }] });
        const viewers: Viewer[] = [GM, { role: 'player', seatId: ann }, { role: 'player', seatId: bo }, { role: 'spectator' }];
        steps.forEach(([kind, pick, seed], n) => {
          const w = table.world;
          const who: Viewer = pick % 4 === 0 ? viewers[1]! : GM;
          if (kind % 6 === 0) exec(GM, { type: pick % 2 ? 'history.undo' : 'history.redo' });
          else {
            const d = commands[pick % commands.length]!;
            const schema = payloadJsonSchema(d) as Schema;
            const [payload] = fc.sample(arbitraryFor(schema, schema, refsOf(w)), { numRuns: 1, seed }) as [{ [k: string]: Json }];
            exec(who, { ...payload, type: d.type });
          }
          for (let i = 0; i < viewers.length; i++) {
            const seen = engine.project(table.world, viewers[(i + n) % viewers.length]!);
            compared++;
            if (!sameJsonValue(getOsr(seen) as unknown as Json, fresh(seen) as Json)) expect.fail(`step ${n}: getOsr differs from a fresh reading for ${JSON.stringify(viewers[(i + n) % viewers.length])}`);
          }
        });
      }),
      { numRuns: 25 },
    );
    // Not vacuous: OSR's own commands changed the state many ways.
    expect([...accepted].filter((t) => t.startsWith('osr.')).length).toBeGreaterThan(8);
    // Every run has at least 5 steps, each read by all 4 viewers (a random total went under 1,000 in CI).
    expect(compared).toBeGreaterThanOrEqual(25 * 5 * viewersPerStep);
  });
});
