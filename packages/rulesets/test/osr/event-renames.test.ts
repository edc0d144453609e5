// The OSR's event fields took the command vocabulary (issue 17, ADR 28):
// `id`/`character` -> `characterId`, `attacker`/`target` -> `attackerId`/
// `targetId`, `by` -> `helperId`, `owner` -> `characterId`, a light source's
// `id` -> `sourceId`, a corruption's `id` -> `corruptionId`, `combatant` ->
// `combatantId`, `characters` -> `characterIds`. A table written under the old
// names replays, shows and undoes exactly as the same table written under
// today's; every event the commands write carries the new names the union declares.
import type { Command, EngineEvent, Json, Table, Transaction, Viewer, World } from '@tablekeeper/engine';
import { oldNameProblems, oldNamesOf, renamedReplayProblems, scenario, seededRng, type Renames } from '@tablekeeper/engine/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { osrEventFields } from '../../src/osr/events.js';
import { ruleset } from '../../src/osr/index.js';
import { getOsr } from '../../src/osr/state.js';
import { engineFor } from '../../src/registry.js';

const GM: Viewer = { role: 'gm' };

/** Records inside events under their old names (ADR 39): a rest's heals named the rester `id`; an infection carried the state's corruption record (`id`, `target`). */
const OLD_RECORDS: { readonly [type: string]: (e: EngineEvent) => EngineEvent } = {
  'osr.rested': (e) => ({ ...e, heals: (e['heals'] as { characterId: string; from: number; to: number }[]).map(({ characterId, ...h }) => ({ id: characterId, ...h })) }),
  'osr.infected': (e) => {
    const { corruptionId, characterId, ...rest } = e['corruption'] as { corruptionId: string; characterId: string; [k: string]: Json };
    return { ...e, corruption: { id: corruptionId, target: characterId, ...rest } };
  },
};

const RENAMES: Renames = { old: oldNamesOf(osrEventFields), oldRecords: OLD_RECORDS };
const OLD = RENAMES.old;

interface Cast {
  readonly pc: string;
  readonly friend: string;
  readonly orc: string;
  /** A foe the players cannot see: its events are the GM's. */
  readonly lurker: string;
  readonly seat: string;
}

const firstKey = (m: { readonly [id: string]: unknown }): string => Object.keys(m)[0] ?? 'none';
const current = (w: World): string => ((w.ext['encounter'] as { current?: string | null } | undefined)?.current ?? 'none') as string;

// Commands that between them write every renamed event type (checked below); `pick` chooses among the cast.
const OPS: readonly ((c: Cast, w: World, pick: string) => Command)[] = [
  (c, _w, x) => ({ type: 'osr.check', characterId: x, difficulty: 14, damageOnFail: '1d6', label: 'a falling stone' }),
  (c, _w, x) => ({ type: 'osr.attack', attackerId: c.pc, targetId: x === c.pc ? c.orc : x, damage: '1d8' }),
  (c, _w, x) => ({ type: 'osr.attack', attackerId: x === c.pc ? c.orc : x, targetId: c.pc, damage: '1d6' }),
  (_c, _w, x) => ({ type: 'osr.damage', targetId: x, amount: 5 }),
  (_c, _w, x) => ({ type: 'osr.heal', targetId: x, amount: '1d4' }),
  (c, _w, x) => ({ type: 'osr.stabilize', targetId: x, helperId: c.friend, difficulty: 5 }),
  (_c, _w, x) => ({ type: 'osr.stabilize', targetId: x, method: 'spell' }),
  (c) => ({ type: 'osr.rest', kind: 'safe', nights: 1, characterIds: [c.pc, c.orc, c.lurker] }),
  (_c, _w, x) => ({ type: 'osr.hide', characterId: x, difficulty: 5 }),
  (_c, w, x) => ({ type: 'osr.reveal', characterId: getOsr(w).hidden[0] ?? x }),
  (_c, w, x) => ({ type: 'osr.treat', characterId: getOsr(w).shaken[0] ?? x }),
  (_c, _w, x) => ({ type: 'osr.noteBodyPart', characterId: x, part: 'left ear' }),
  (_c, _w, x) => ({ type: 'osr.lightSource', characterId: x, kind: 'torch' }),
  (_c, w) => ({ type: 'osr.douse', sourceId: firstKey(getOsr(w).sources) }),
  (_c, w) => ({ type: 'osr.relight', sourceId: firstKey(getOsr(w).sources) }),
  (c) => ({ type: 'osr.rollToReturn', characterIds: [c.pc, c.friend], path: 'dangerous' }),
  (c) => ({ type: 'osr.rollToReturn', characterIds: [c.pc], path: 'arduous' }),
  (_c, _w, x) => ({ type: 'osr.rollToReturn', characterIds: [x], path: 'dangerous', onZero: 'unconscious' }),
  (_c, w) => ({ type: 'osr.move', characterId: current(w), feet: 10 }),
  (_c, _w, x) => ({ type: 'osr.strain', characterId: x, hours: 2 }),
  (c) => ({ type: 'osr.morale', characterIds: [c.orc, c.lurker], as: 'group' }),
  (_c, _w, x) => ({ type: 'osr.chase', characterIds: [x], damageOnFail: '1d4' }),
  (_c, _w, x) => ({ type: 'osr.exhaust', characterId: x }),
  (_c, _w, x) => ({ type: 'osr.expose', characterId: x, name: 'marsh fever', difficulty: 25, stages: [{ hours: 1, ability: 'str', dice: 2 }, { hours: 1, ability: null, exhaustion: true }] }),
  (_c, w) => ({ type: 'osr.cure', corruptionId: firstKey(getOsr(w).corruptions) }),
  (_c, w) => ({ type: 'osr.retreat', characterId: current(w), difficulty: 15, damageOnFail: '1d4' }),
  (_c, w) => ({ type: 'osr.retreat', characterId: current(w) }),
  (_c, w) => ({ type: 'osr.escape', characterId: firstKey(getOsr(w).retreating) }),
  (c) => ({ type: 'osr.treasure', characterIds: [c.pc, c.friend], gp: 90 }),
  (c) => ({ type: 'osr.magicItem', characterIds: [c.pc], item: 'a bone wand', value: 40 }),
  (c, _w, x) => ({ type: 'osr.loot', characterId: x === c.pc ? c.orc : x }),
  (_c, _w, x) => ({ type: 'osr.setLoad', characterId: x, load: 4 }),
  (_c, _w, x) => ({ type: 'osr.restoreAbility', characterId: x, ability: 'str', amount: 1 }),
  () => ({ type: 'clock.advance', unit: 'time', count: 0, seconds: 3600 }),
  () => ({ type: 'encounter.endTurn' }),
  () => ({ type: 'encounter.end' }),
];

function setup(seed: number): { s: ReturnType<typeof scenario>; cast: Cast } {
  const s = scenario(ruleset.modules, { rng: seededRng(seed), rulesetId: 'osr' });
  const idOf = (tx: Transaction): string => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
  const seat = idOf(s.run({ type: 'seat.add', name: 'Ann' }));
  const pc = idOf(s.run({ type: 'character.add', name: 'Brannoc', kind: 'pc', seatId: seat, stats: { str: 12, dex: 13, con: 9, hp: 6, maxHp: 6, ac: 12, level: 1 } }));
  const friend = idOf(s.run({ type: 'character.add', name: 'Ivy', kind: 'pc', stats: { wis: 14, dex: 10, hp: 5, maxHp: 5, ac: 11, level: 1 } }));
  const orc = idOf(s.run({ type: 'character.add', name: 'Orc', kind: 'npc', visibility: 'visible', stats: { str: 14, dex: 11, hp: 7, maxHp: 7, ac: 13, hd: 1 } }));
  const lurker = idOf(s.run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { dex: 16, hp: 4, maxHp: 4, ac: 14, hd: 2 } }));
  s.run({ type: 'encounter.start', combatants: [pc, friend, orc, lurker].map((id, i) => ({ characterId: id, kind: i < 2 ? 'pc' : 'npc', ...(id === lurker ? { visibility: 'hidden' } : {}) })) as unknown as Json });
  return { s, cast: { pc, friend, orc, lurker, seat } };
}

function play(seed: number, plan: readonly (readonly [number, number])[]): { table: Table; seat: string } {
  const { s, cast } = setup(seed);
  const pool = [cast.pc, cast.friend, cast.orc, cast.lurker];
  for (const [i, who] of plan) {
    const r = s.engine.execute(s.table, OPS[i]!(cast, s.world, pool[who]!), { rng: s.rng, actor: GM });
    if (!r.ok) {
      expect(r.error.code, `${OPS[i]!(cast, s.world, pool[who]!).type}: ${r.error.message}`).not.toBe('INTERNAL');
      continue;
    }
    s.table = r.value.table;
  }
  return { table: s.table, seat: cast.seat };
}

const plans = fc.array(fc.tuple(fc.integer({ min: 0, max: OPS.length - 1 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 30 });

describe('OSR event fields renamed to the command vocabulary (ADR 28)', () => {
  const engine = engineFor('osr')!;

  it('a table stored under the old names replays, shows the GM and a player the same, and undoes like the same table stored under today’s', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), plans, (seed, plan) => {
        const { table: now, seat } = play(seed, plan);
        expect(renamedReplayProblems(engine, now, RENAMES, [GM, { role: 'player', seatId: seat }])).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('every event the commands write carries the new field names and none of the old; the commands above write every renamed type', () => {
    const seen = new Set<string>();
    const check = (table: Table): void => {
      expect(oldNameProblems(table, RENAMES, seen)).toEqual([]);
      // The records inside (ADR 39): a heal names its rester, an infection its corruption and character.
      for (const tx of table.transactions) {
        if (tx.kind !== 'command') continue;
        for (const e of tx.events) {
          if (e.type === 'osr.infected') {
            seen.add(e.type);
            const c = e['corruption'] as { [k: string]: Json };
            expect(Object.hasOwn(c, 'corruptionId') && Object.hasOwn(c, 'characterId'), 'osr.infected names its corruption and character').toBe(true);
            expect(Object.hasOwn(c, 'id') || Object.hasOwn(c, 'target'), 'osr.infected still writes id or target').toBe(false);
          }
          if (e.type === 'osr.rested') for (const h of e['heals'] as { [k: string]: Json }[]) expect(Object.keys(h).sort()).toEqual(['characterId', 'from', 'to']);
        }
      }
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), plans, (seed, plan) => check(play(seed, plan).table)),
      { numRuns: 50, seed: 17 },
    );
    // Paths a random plan seldom walks, played on fixed seeds: a corruption that cannot be resisted (DC 25
    // against at most 20 + 1), then cured or its first stage ending; the PC at 1 HP rolling to return
    // (left unconscious); hiding then being spotted; the orc downed, stabilized by a spell (the injury
    // roll) and treated; a torch burning out; a retreat with no check, then the escape.
    const w0 = setup(1).s.world;
    const at = (type: string): number => OPS.findIndex((op) => op({ pc: 'a', friend: 'b', orc: 'c', lurker: 'd', seat: 's' }, w0, 'a').type === type);
    const ORC = 2;
    const scripted: (readonly [number, number])[][] = [
      [[at('osr.expose'), 0], [at('osr.cure'), 0]],
      [[at('osr.expose'), 0], [at('clock.advance'), 0]],
      [[at('osr.damage'), 0], [at('osr.rollToReturn') + 2, 0]],
      [[at('osr.hide'), 0], [at('osr.reveal'), 0]],
      [[at('osr.damage'), ORC], [at('osr.damage'), ORC], [at('osr.stabilize') + 1, ORC], [at('osr.treat'), ORC]],
      [[at('osr.lightSource'), 0], [at('clock.advance'), 0]],
      [[OPS.length - 2, 0], [at('osr.retreat') + 1, 0], [at('osr.escape'), 0]],
    ];
    for (const plan of scripted) for (let seed = 1; seed <= 10; seed++) check(play(seed, plan).table);
    expect([...Object.keys(OLD), ...Object.keys(OLD_RECORDS)].filter((t) => !seen.has(t))).toEqual([]);
  });
});
