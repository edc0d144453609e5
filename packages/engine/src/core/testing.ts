// scenario(): a table under test. Runs commands through the real engine with a
// seeded Rng and fails loudly (with the RuleError) when a command that should
// succeed does not.
import { seededRng, type Rng } from '../dice/rng.js';
import { createEngine } from './engine.js';
import { coreModule } from './module.js';
import type { Command, Engine, Json, Module, RuleError, Table, TableView, Transaction, Viewer, World } from './types.js';

export interface ScenarioOptions {
  readonly seed?: number;
  readonly rng?: Rng;
  readonly rulesetId?: string;
  readonly settings?: { readonly [key: string]: Json };
}

export interface Scenario {
  readonly engine: Engine;
  readonly rng: Rng;
  table: Table;
  readonly world: World;
  run(command: Command, actor?: Viewer): Transaction;
  fail(command: Command, actor?: Viewer): RuleError;
  view(viewer: Viewer): TableView;
  undo(actor?: Viewer): Transaction;
  redo(actor?: Viewer): Transaction;
}

const GM: Viewer = { role: 'gm' };

/** A fresh table over `modules` (the core module is added first when missing). */
export function scenario(modules: readonly Module[], opts: ScenarioOptions = {}): Scenario {
  const all = modules.some((m) => m.id === coreModule.id) ? modules : [coreModule, ...modules];
  const engine = createEngine(all);
  const rng = opts.rng ?? seededRng(opts.seed ?? 1);
  const s: Scenario = {
    engine,
    rng,
    table: engine.createTable({ tableId: 't1', name: 'Test table', rulesetId: opts.rulesetId ?? 'test', ...(opts.settings === undefined ? {} : { settings: opts.settings }) }),
    get world() {
      return s.table.world;
    },
    run(command, actor = GM) {
      const r = engine.execute(s.table, command, { rng, actor });
      if (!r.ok) throw new Error(`${command.type} failed: ${r.error.code} ${r.error.message}${r.error.path === undefined ? '' : ` (${r.error.path})`}`);
      s.table = r.value.table;
      return r.value.transaction;
    },
    fail(command, actor = GM) {
      const r = engine.execute(s.table, command, { rng, actor });
      if (r.ok) throw new Error(`${command.type} was expected to fail but succeeded`);
      return r.error;
    },
    view: (viewer) => engine.view(s.table, viewer),
    undo: (actor = GM) => s.run({ type: 'history.undo' }, actor),
    redo: (actor = GM) => s.run({ type: 'history.redo' }, actor),
  };
  return s;
}
