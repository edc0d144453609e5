// Issue 19: osrSettings and daggerheartSettings keep their reading per settings
// object (worlds are immutable and share it until a setting changes). The kept
// reading must be the fresh one for any settings, valid or not, read through any
// world that shares them: the GM's, a seat's and a spectator's projection, in
// any order, with other tables' settings read in between.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng, type Json, type Table, type Viewer, type World } from '@tablekeeper/engine';
import { engineFor } from '../src/registry.js';
import { DAGGERHEART_SETTINGS } from '../src/daggerheart/settings.js';
import { daggerheartSettings, readDaggerheartSettings } from '../src/daggerheart/settings.js';
import { OSR_SETTINGS, osrSettings, readOsrSettings } from '../src/osr/settings.js';

const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };

/** A value for a setting: its default's kind in and out of range, another kind, or an allowed word. */
const valueFor = (d: Json): fc.Arbitrary<Json> =>
  fc.oneof(
    fc.constant(d),
    fc.boolean(),
    fc.integer({ min: -5, max: 200 }),
    fc.double({ min: -2, max: 2, noNaN: true }),
    fc.constantFrom('cancel', 'net', 'total', 'dice', 'instead', 'plus', 'dead', 'unconscious', 'junk'),
    fc.constant(null),
  );

/** Settings holding some of the ruleset's keys (any values) and a key no ruleset reads. */
const settingsFor = (defs: readonly { readonly key: string; readonly default: Json }[]): fc.Arbitrary<{ [k: string]: Json }> =>
  fc.tuple(fc.subarray([...defs], { minLength: 0 }).chain((picked) => fc.tuple(...picked.map((p) => valueFor(p.default).map((v) => [p.key, v] as const)))), fc.boolean()).map(([pairs, extra]) => ({
    ...Object.fromEntries(pairs),
    ...(extra ? { 'other.unread': 'x' } : {}),
  }));

const cases = [
  { rulesetId: 'osr', defs: OSR_SETTINGS, kept: osrSettings, fresh: readOsrSettings },
  { rulesetId: 'daggerheart', defs: DAGGERHEART_SETTINGS, kept: daggerheartSettings, fresh: readDaggerheartSettings },
] as const;

describe('settings readers kept per settings object (issue 19)', () => {
  for (const c of cases) {
    it(`${c.rulesetId}: the kept reading equals a fresh one through every viewer's world, whatever the settings and the order`, () => {
      const engine = engineFor(c.rulesetId)!;
      fc.assert(
        fc.property(fc.array(settingsFor(c.defs), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), (all, order) => {
          // Each settings object at a table that moved on (seat, clock): several worlds share it.
          const worlds: { world: World; settings: { [k: string]: Json }; viewers: Viewer[] }[] = [];
          all.forEach((settings, i) => {
            let table: Table = engine.createTable({ tableId: `t${i}`, name: 'T', rulesetId: c.rulesetId, settings });
            const env = { rng: seededRng(i), actor: GM, now: 0 };
            const seat = engine.execute(table, { type: 'seat.add', name: 'Ann' }, env);
            if (!seat.ok) throw new Error(seat.error.message);
            table = seat.value.table;
            const seatId = Object.keys(table.world.seats)[0]!;
            const viewers: Viewer[] = [GM, { role: 'player', seatId }, SPECTATOR];
            worlds.push({ world: table.world, settings, viewers });
            const later = engine.execute(table, { type: 'clock.advance', unit: 'round' }, env);
            if (!later.ok) throw new Error(later.error.message);
            worlds.push({ world: later.value.table.world, settings, viewers });
          });
          for (const n of order) {
            const w = worlds[n % worlds.length]!;
            const viewer = w.viewers[Math.floor(n / worlds.length) % w.viewers.length]!;
            const seen = engine.project(w.world, viewer);
            // A JSON copy: a fresh object the reader has never seen.
            expect(c.kept(seen)).toEqual(c.fresh(JSON.parse(JSON.stringify(w.settings)) as { [k: string]: Json }));
          }
        }),
        { numRuns: 60 },
      );
    });

    it(`${c.rulesetId}: a changed setting is read from the new settings object, not the kept one`, () => {
      const engine = engineFor(c.rulesetId)!;
      const first = engine.createTable({ tableId: 'a', name: 'A', rulesetId: c.rulesetId, settings: {} }).world;
      const before = c.kept(first);
      // A world that differs only in one setting (a new settings object, as any change makes).
      const def = c.defs.find((d) => typeof d.default === 'boolean')!;
      const changed: World = { ...first, settings: { ...first.settings, [def.key]: !(def.default as boolean) } };
      expect(c.kept(changed)).toEqual(c.fresh(changed.settings));
      expect(c.kept(changed)).not.toEqual(before);
      expect(c.kept(first)).toBe(before);
    });
  }
});
