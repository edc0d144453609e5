// The encounter conformance check every ruleset runs from its own tests:
//   expect(encounterConformance({ rules, combatants, ... })).toEqual([]);
// It plays a few rounds through the real engine (core module + kernel + the ruleset's modules),
// and reports each broken invariant as a sentence: order (nobody acts twice,
// every able combatant acts once where the system says so), economy (no pool
// overdrawn), replay (the recorded events rebuild the same world), undo (the
// world before each step is rebuilt from the earlier steps), views (hidden
// combatants never reach a player).
import { createEngine, emptyTable } from '../core/engine.js';
import { coreModule } from '../core/module.js';
import { own } from '../core/own.js';
import type { Command, Env, Json, Module, Table, Viewer, World } from '../core/types.js';
import type { Rng } from '../dice/rng.js';
import { remaining } from './economies.js';
import { canAct, encounterModule } from './module.js';
import { ENCOUNTER_ID, getEncounter } from './state.js';
import type { EncounterRules } from './types.js';

export interface ConformanceOptions {
  readonly rules: EncounterRules;
  /** Modules the rules' hooks emit events for (the ruleset's own module). */
  readonly modules?: readonly Module[];
  readonly genesis: World;
  /** Roster for encounter.start (at least two combatants; one of them may be hidden). */
  readonly combatants: readonly Json[];
  readonly params?: Json;
  readonly rng: Rng;
  /** Rounds to play (default 3, at most 20). */
  readonly rounds?: number;
}

export function encounterConformance(opts: ConformanceOptions): string[] {
  const problems: string[] = [];
  const encounter = encounterModule(opts.rules);
  // The real engine: the core module (the one clock, the log), the kernel, then the ruleset's own modules.
  const extra = (opts.modules ?? []).filter((m) => m.id !== coreModule.id && m.id !== ENCOUNTER_ID);
  const engine = createEngine([coreModule, encounter, ...extra]);
  const env: Env = { rng: opts.rng, actor: { role: 'gm' } };
  const rounds = Math.min(20, Math.max(1, opts.rounds ?? 3));

  let table: Table = emptyTable(opts.genesis);
  const before: string[] = [];
  const run = (command: Command): string | null => {
    const r = engine.execute(table, command, env);
    if (!r.ok) return `${r.error.code}: ${r.error.message}`;
    before.push(JSON.stringify(table.world));
    table = r.value.table;
    return null;
  };
  const worldNow = (): World => table.world;

  try {
    const started = run({ type: 'encounter.start', combatants: [...opts.combatants], ...(opts.params !== undefined ? { params: opts.params } : {}) });
    if (started !== null) return [`encounter.start was refused: ${started}`];
    const pools = Object.keys(opts.rules.economy.pools);
    for (let r = 0; r < rounds; r++) {
      const round = getEncounter(worldNow()).round;
      const acted: string[] = [];
      for (let step = 0; step < 1000 && getEncounter(worldNow()).round === round; step++) {
        const enc = getEncounter(worldNow());
        if (enc.pending !== null) {
          const id = enc.pending.default ?? enc.pending.options[0];
          if (id === undefined) {
            problems.push(`round ${round}: a decision offers no options`);
            break;
          }
          const e = run({ type: 'encounter.choose', id });
          if (e !== null) problems.push(`round ${round}: choosing ${id} was refused: ${e}`);
          continue;
        }
        if (enc.current === null) break;
        const cur = enc.current;
        if (acted.includes(cur)) problems.push(`round ${round}: ${cur} took a second turn`);
        acted.push(cur);
        // Spend every action kind until refused: the economy must never overdraw.
        for (const kind of Object.keys(opts.rules.economy.payers)) for (let k = 0; k < 8 && run({ type: 'encounter.spend', characterId: cur, kind }) === null; k++);
        const econ = own(getEncounter(worldNow()).economy, cur);
        for (const p of pools) if (econ !== undefined && remaining(opts.rules.economy, econ, p) < 0) problems.push(`round ${round}: ${cur} overdrew ${p}`);
        const e = run({ type: 'encounter.endTurn' });
        if (e !== null) problems.push(`round ${round}: ending ${cur}'s turn was refused: ${e}`);
      }
      const enc = getEncounter(worldNow());
      if (enc.round === round) {
        problems.push(`round ${round} never ended`);
        break;
      }
      const mustAct = round === 0 ? [] : enc.roster.filter((id) => canAct(worldNow(), opts.rules, id));
      for (const id of mustAct) if (!acted.includes(id)) problems.push(`round ${round}: ${id} was able but never acted`);
    }

    // Replay: the recorded transactions alone rebuild the table.
    if (JSON.stringify(engine.replay(opts.genesis, table.transactions)) !== JSON.stringify(table)) problems.push('replay: the recorded events do not rebuild the final world');
    if (JSON.stringify(JSON.parse(JSON.stringify(table.world))) !== JSON.stringify(table.world)) problems.push('state is not plain JSON');
    // Undo: stepping back one transaction at a time rebuilds the world before each step.
    let back = table;
    for (let i = before.length - 1; i >= 0; i--) {
      const u = engine.execute(back, { type: 'history.undo' }, env);
      if (!u.ok || JSON.stringify(u.value.table.world) !== before[i]) {
        problems.push(`undo: undoing step ${i} does not rebuild the world before it`);
        break;
      }
      back = u.value.table;
    }

    // Views: a hidden combatant never reaches a player or spectator.
    const secret = 'conformance-hidden-npc';
    const added = run({
      type: 'encounter.add',
      combatant: { id: secret, kind: 'npc', side: 'conformance-hidden', visibility: 'hidden', stats: {} },
      placement: { group: 0, band: 'medium', score: 10 },
    });
    if (added !== null) problems.push(`views: could not add a hidden combatant: ${added}`);
    else {
      // Every road to a client: the projected world, its log, the history and the undo labels.
      const seats = Object.keys(table.world.seats);
      for (const viewer of [...seats.map((seatId): Viewer => ({ role: 'player', seatId })), { role: 'player', seatId: 'any' }, { role: 'spectator' }] as Viewer[]) {
        if (JSON.stringify(engine.view(table, viewer)).includes(secret)) problems.push(`views: a ${viewer.role} can see the hidden combatant`);
      }
      const last = table.transactions.at(-1);
      const aud = last?.kind === 'command' ? (last.audiences?.[0] ?? null) : null;
      if (aud?.kind !== 'gm') problems.push('views: the event adding a hidden combatant is not GM-only');
    }
  } catch (e) {
    problems.push(`crashed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return problems;
}
