// A table of any ruleset over the registry's real engine (DhTable: Daggerheart,
// core + countdowns + daggerheart), with dice the test queues face by face (a
// seeded Rng after).
import { getCountdowns, seededRng, type Command, type Countdown, type Engine, type EngineEvent, type Json, type Rng, type Table, type TableView, type Transaction, type Viewer, type World } from '@tablekeeper/engine';
import { createTableFor, engineFor } from '../../src/registry.js';
import { getDaggerheart, hopeOf } from '../../src/daggerheart/index.js';

export interface ScriptedRng extends Rng {
  queue(...faces: number[]): void;
  readonly left: number;
}

export function scriptedRng(seed = 11): ScriptedRng {
  const faces: number[] = [];
  const fallback = seededRng(seed);
  return {
    kind: 'seeded',
    die(sides) {
      const f = faces.shift();
      if (f === undefined) return fallback.die(sides);
      if (f < 1 || f > sides) throw new RangeError(`scripted face ${f} is not on a d${sides}`);
      return f;
    },
    snapshot: () => null,
    queue: (...f: number[]) => void faces.push(...f),
    get left() {
      return faces.length;
    },
  };
}

export const GM: Viewer = { role: 'gm' };
export const SPECTATOR: Viewer = { role: 'spectator' };
export const player = (seatId: string): Viewer => ({ role: 'player', seatId });

/** A table of any registered ruleset over its real engine, driven command by command (the requests suite uses it for all five). */
export class RulesetTable {
  readonly engine: Engine;
  readonly dice: ScriptedRng;
  table: Table;
  constructor(
    readonly rulesetId: string,
    o: { settings?: { [k: string]: Json }; tableId?: string; seed?: number } = {},
  ) {
    const engine = engineFor(rulesetId);
    if (!engine) throw new Error(`no ruleset ${rulesetId}`);
    this.engine = engine;
    this.dice = scriptedRng(o.seed);
    const r = createTableFor(rulesetId, { tableId: o.tableId ?? 't', name: `${rulesetId} test`, settings: o.settings ?? {} });
    if (!r.ok) throw new Error(r.error.message);
    this.table = r.value;
  }
  get world(): World {
    return this.table.world;
  }
  try(command: Command, actor: Viewer = GM) {
    const r = this.engine.execute(this.table, command, { rng: this.dice, actor });
    if (r.ok) this.table = r.value.table;
    return r;
  }
  run(command: Command, actor: Viewer = GM): Transaction {
    const r = this.try(command, actor);
    if (!r.ok) throw new Error(`${command.type}: ${r.error.code} ${r.error.message}`);
    return r.value.transaction;
  }
  fail(command: Command, actor: Viewer = GM) {
    const r = this.try(command, actor);
    if (r.ok) throw new Error(`${command.type} should have failed`);
    return r.error;
  }
  view(v: Viewer): TableView {
    return this.engine.view(this.table, v);
  }
  undo(actor: Viewer = GM): Transaction {
    return this.run({ type: 'history.undo' }, actor);
  }
  redo(actor: Viewer = GM): Transaction {
    return this.run({ type: 'history.redo' }, actor);
  }
}

export class DhTable extends RulesetTable {
  constructor(settings: { [k: string]: Json } = {}) {
    super('daggerheart', { settings });
  }
  seat(name: string): string {
    return String(events(this.run({ type: 'seat.add', name }))[0]!['id']);
  }
  pc(name: string, seatId: string | null, stats: { [k: string]: Json } = {}, visibility = 'visible'): string {
    return String(events(this.run({ type: 'character.add', name, kind: 'pc', seatId, stats, visibility }))[0]!['id']);
  }
  hope(id: string): number {
    return hopeOf(this.world, id);
  }
  get fear(): number {
    return getDaggerheart(this.world).fear;
  }
  cd(id: string): Countdown {
    return getCountdowns(this.world).countdowns[id]!;
  }
}

export const events = (tx: Transaction): readonly EngineEvent[] => (tx.kind === 'command' ? tx.events : []);
export const ofType = (tx: Transaction, type: string): EngineEvent[] => events(tx).filter((e) => e.type === type);
