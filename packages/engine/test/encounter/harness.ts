// The encounter tests' driver, on the core engine (createEngine with the core
// module first): one command = one transaction with its reactions, undo and
// redo as the engine's own history.undo / history.redo transactions.
import { coreModule } from '../../src/core/module.js';
import { createEngine, emptyTable } from '../../src/core/engine.js';
import { emptyClock } from '../../src/core/clock.js';
import type { Command, Engine, EngineEvent, Module, RuleError, Table as CoreTable, Viewer, World } from '../../src/core/types.js';
import type { Rng } from '../../src/dice/rng.js';
import { seededRng } from '../../src/dice/rng.js';
import { getEncounter } from '../../src/encounter/state.js';
import type { EncounterState } from '../../src/encounter/types.js';

export function genesis(): World {
  return {
    tableId: 't1',
    name: 'test table',
    rulesetId: 'test',
    settings: {},
    seats: { s1: { id: 's1', name: 'Ann', characterIds: ['ch-roland'] } },
    characters: {},
    clock: emptyClock(),
    log: [],
    ext: {},
    nextId: 1,
  };
}

export class Table {
  readonly engine: Engine;
  table: CoreTable;
  constructor(modules: readonly Module[], public rng: Rng = seededRng(1)) {
    this.engine = createEngine(modules.some((m) => m.id === coreModule.id) ? modules : [coreModule, ...modules]);
    const g = genesis();
    this.table = emptyTable(g);
  }
  get world(): World {
    return this.table.world;
  }
  get enc(): EncounterState {
    return getEncounter(this.world);
  }
  /** The events of every live command transaction, oldest first. */
  get history(): EngineEvent[][] {
    return this.table.live.toArray().map((seq) => {
      const tx = this.table.transactions.bySeq(seq);
      return tx !== undefined && tx.kind === 'command' ? [...tx.events] : [];
    });
  }
  /** Run a command; returns the error, or null and records the transaction. */
  run(command: Command, actor: Viewer = { role: 'gm' }): RuleError | null {
    const r = this.engine.execute(this.table, command, { rng: this.rng, actor });
    if (!r.ok) return r.error;
    this.table = r.value.table;
    return null;
  }
  /** Run and fail loudly on a rule error (tests that expect success). */
  ok(command: Command, actor?: Viewer): EngineEvent[] {
    const e = this.run(command, actor);
    if (e !== null) throw new Error(`${command.type} failed: ${e.code} ${e.message}`);
    const tx = this.table.transactions.at(-1);
    return tx !== undefined && tx.kind === 'command' ? [...tx.events] : [];
  }
  /** Undo the last transaction (the engine replays the others' recorded events); returns its events. */
  undo(): EngineEvent[] {
    const seq = this.table.live.top;
    const tx = seq === undefined ? undefined : this.table.transactions.bySeq(seq);
    const last = tx !== undefined && tx.kind === 'command' ? [...tx.events] : [];
    const e = this.run({ type: 'history.undo' });
    if (e !== null && e.code !== 'NOTHING_TO_UNDO') throw new Error(`undo failed: ${e.code} ${e.message}`);
    return last;
  }
  /** Re-apply the most recently undone transaction's recorded events (the argument is what undo() returned). */
  redo(_tx: EngineEvent[]): void {
    const e = this.run({ type: 'history.redo' });
    if (e !== null) throw new Error(`redo failed: ${e.code} ${e.message}`);
  }
}

/** Who acts, in order, when every turn is ended and every decision takes `pick` (default: the default, else first option). */
export function playRound(t: Table, pick: (options: readonly string[]) => string = (o) => o[0]!): string[] {
  const round = t.enc.round;
  const seen: string[] = [];
  for (let guard = 0; guard < 500 && t.enc.round === round && t.enc.active; guard++) {
    if (t.enc.pending !== null) {
      t.ok({ type: 'encounter.choose', id: t.enc.pending.default ?? pick(t.enc.pending.options) });
      continue;
    }
    const cur = t.enc.current;
    if (cur === null) break;
    seen.push(cur);
    t.ok({ type: 'encounter.endTurn' });
  }
  return seen;
}

/** End turns (taking defaults / first options, or `id` when offered) until `id` is the current actor. */
export function playRoundUntil(t: Table, id: string): void {
  for (let guard = 0; guard < 500; guard++) {
    if (t.enc.current === id) return;
    if (t.enc.pending !== null) {
      const o = t.enc.pending.options;
      t.ok({ type: 'encounter.choose', id: o.includes(id) ? id : (t.enc.pending.default ?? o[0]!) });
      continue;
    }
    if (t.enc.current === null) throw new Error(`stalled before ${id}`);
    t.ok({ type: 'encounter.endTurn' });
  }
  throw new Error(`${id} never came up`);
}
