// The GM's manual turn order (issue 20, ADR 29): `encounter.reorder` moves a
// combatant just before another (or last) where the turn order has a manual
// order (OSR's DEX order, The 36th Way's bands); elsewhere it says why not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getEncounter, scoreOrder, seededRng, type Command, type Table, type Viewer } from '@tablekeeper/engine';
import { createTableFor, engineFor } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };

function table(rulesetId: string) {
  const engine = engineFor(rulesetId)!;
  const made = createTableFor(rulesetId, { tableId: 't', name: 'Order' });
  if (!made.ok) throw new Error(made.error.message);
  let t: Table = made.value;
  const rng = seededRng(4);
  const exec = (c: Command, actor: Viewer = GM) => {
    const r = engine.execute(t, c, { rng, actor });
    if (r.ok) t = r.value.table;
    return r;
  };
  return {
    exec,
    run(c: Command) {
      const r = exec(c);
      if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
      return r.value.transaction;
    },
    get world() {
      return t.world;
    },
    get table() {
      return t;
    },
    engine,
  };
}

/** OSR 001 "Initiative": DEX 16 Ann, DEX 12 Bo, DEX 12 Cy (PC ties before NPCs, then join order), DEX 8 Goblin. */
function osr() {
  const t = table('osr');
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', stats: { dex: 16 } },
      { id: 'bo', name: 'Bo', kind: 'pc', stats: { dex: 12 } },
      { id: 'cy', name: 'Cy', kind: 'npc', stats: { dex: 12 } },
      { id: 'gob', name: 'Goblin', kind: 'npc', stats: { dex: 8 } },
    ],
  });
  return t;
}

/** The kernel's own order of a round (001: score, then tie rank, then join order). */
const order = (t: { world: ReturnType<typeof table>['world'] }) => scoreOrder(getEncounter(t.world));

describe('encounter.reorder', () => {
  it('OSR (001 DEX order Ann 16, Bo 12, Cy 12, Goblin 8): the Goblin moved before Bo acts second; Ann moved last acts last; the turns follow', () => {
    const t = osr();
    expect(order(t)).toEqual(['ann', 'bo', 'cy', 'gob']);
    t.run({ type: 'encounter.reorder', id: 'gob', before: 'bo' });
    expect(order(t)).toEqual(['ann', 'gob', 'bo', 'cy']);
    t.run({ type: 'encounter.reorder', id: 'ann', before: null });
    expect(order(t)).toEqual(['gob', 'bo', 'cy', 'ann']);
    // The kernel plays the new order: Ann (already acting) ends her turn; then the rest of the round in the new order.
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.run({ type: 'encounter.endTurn' });
      seen.push(getEncounter(t.world).current ?? '-');
    }
    expect(seen).toEqual(['gob', 'bo', 'cy']);
  });

  it('one undo step puts the order back', () => {
    const t = osr();
    t.run({ type: 'encounter.reorder', id: 'cy', before: 'ann' });
    expect(order(t)).toEqual(['cy', 'ann', 'bo', 'gob']);
    t.run({ type: 'history.undo' });
    expect(order(t)).toEqual(['ann', 'bo', 'cy', 'gob']);
  });

  it('The 36th Way (002 "Initiative Bands"): the Orc moved before the fast Ann joins the fast band; inside one band the order stays chosen as the round goes', () => {
    const t = table('36th-way');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'ann', name: 'Ann', kind: 'pc', band: 'fast' },
        { id: 'orc', name: 'Orc', kind: 'npc', band: 'slow' },
        { id: 'bat', name: 'Bat', kind: 'npc', band: 'slow' },
      ],
    });
    t.run({ type: 'encounter.reorder', id: 'orc', before: 'ann' });
    expect((getEncounter(t.world).combatants['orc']!.placement as { band: string }).band).toBe('fast');
    const same = t.exec({ type: 'encounter.reorder', id: 'orc', before: 'ann' });
    expect(same).toMatchObject({ ok: false, error: { code: 'SAME_BAND', path: 'before' } });
  });

  it('teams (003), Daggerheart and the Kleptonomicon (004) say why their order is not set by hand; a player may not reorder', () => {
    const teams = table('teams');
    teams.run({ type: 'encounter.start', combatants: [{ id: 'a', name: 'A', kind: 'pc', side: 'x' }, { id: 'b', name: 'B', kind: 'npc', side: 'y' }], params: { teamOrder: ['x', 'y'] } });
    expect(teams.exec({ type: 'encounter.reorder', id: 'b', before: 'a' })).toMatchObject({ ok: false, error: { code: 'NO_MANUAL_ORDER', message: 'this turn order (teams) has no manual order: teams take turns and each team picks who acts (003 "Initiative and Rounds")' } });
    const t = osr();
    expect(t.exec({ type: 'encounter.reorder', id: 'gob', before: 'ann' }, { role: 'player', seatId: 's' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(t.exec({ type: 'encounter.reorder', id: 'gob', before: 'gob' })).toMatchObject({ ok: false, error: { path: 'before' } });
  });

  it('property (OSR): after any moves, the moved combatant sits just before its target (or last), and the others keep their relative order', () => {
    const ids = ['ann', 'bo', 'cy', 'gob'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 4 })), { minLength: 1, maxLength: 10 }), (moves) => {
        const t = osr();
        for (const [m, b] of moves) {
          const id = ids[m]!;
          const before = b === 4 ? null : ids[b]!;
          if (before === id) continue;
          const was = order(t).filter((x) => x !== id);
          t.run({ type: 'encounter.reorder', id, before });
          const now = order(t);
          expect(now.filter((x) => x !== id)).toEqual(was);
          expect(now.indexOf(id)).toBe(before === null ? now.length - 1 : now.indexOf(before) - 1);
        }
      }),
      { numRuns: 100 * Number(process.env['FC_RUNS_MULTIPLIER'] ?? 1) },
    );
  });
});
