// A table of any ruleset driven command by command through the real engine, and a
// three-creature fight that every ruleset's turn order can read: shared by the
// tests that walk turns in all five rulesets (reveal when it acts, the turn timer).
import { seededRng, type Command, type Table, type Viewer } from '@tablekeeper/engine';
import { createTableFor, engineFor } from '../src/registry.js';

export const GM: Viewer = { role: 'gm' };

export type TurnTable = ReturnType<typeof turnTable>;

/** A fresh table of `rulesetId`; the server clock starts at 1,000,000 ms and moves only by `tick`. */
export function turnTable(rulesetId: string, o: { readonly name: string; readonly seed: number }) {
  const engine = engineFor(rulesetId)!;
  const made = createTableFor(rulesetId, { tableId: 't', name: o.name });
  if (!made.ok) throw new Error(made.error.message);
  let t: Table = made.value;
  const rng = seededRng(o.seed);
  let now = 1_000_000;
  const s = {
    engine,
    get table() {
      return t;
    },
    tick: (ms: number) => void (now += ms),
    get now() {
      return now;
    },
    try(c: Command, actor: Viewer = GM) {
      const r = engine.execute(t, c, { rng, actor, now });
      if (r.ok) t = r.value.table;
      return r;
    },
    run(c: Command, actor: Viewer = GM) {
      const r = s.try(c, actor);
      if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
      return r.value.transaction;
    },
    /** What a player's or spectator's screen receives: the view and the history. */
    seen: (v: Viewer) => JSON.stringify(engine.view(t, v)),
  };
  return s;
}

/** Ann and Bo, then a foe last in every order, with what each ruleset's turn order reads (DEX, band, group, Edge Save). */
export function startThree(t: TurnTable, rulesetId: string, foe: { readonly id: string; readonly name: string; readonly hidden: boolean }): void {
  const extra = (i: number) => ({ score: 10 - i, band: 'fast', group: 0, stats: { dex: 14 - i, hp: 5, maxHp: 5, edgeSave: 10 - i, type: 'ordinary' } });
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'a', name: 'Ann', kind: 'pc', side: 'party', ...extra(0) },
      { id: 'b', name: 'Bo', kind: 'pc', side: 'party', ...extra(1) },
      { id: foe.id, name: foe.name, kind: 'npc', side: 'foes', ...(foe.hidden ? { visibility: 'hidden' } : {}), ...extra(2) },
    ],
    ...(rulesetId === 'teams' ? { params: { teamOrder: ['party', 'foes'] } } : {}),
  });
}
