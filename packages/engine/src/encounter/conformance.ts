// The encounter conformance check every ruleset runs from its own tests:
//   expect(encounterConformance({ rules, combatants, ... })).toEqual([]);
// It plays a few rounds through the module (decide, reducers, reactions),
// and reports each broken invariant as a sentence: order (nobody acts twice,
// every able combatant acts once where the system says so), economy (no pool
// overdrawn), replay (the recorded events rebuild the same world), undo (the
// world before each step is rebuilt from the earlier steps), views (hidden
// combatants never reach a player).
import type { Command, EngineEvent, Env, Json, Module, Viewer, World } from '../core/types.js';
import type { Rng } from '../dice/rng.js';
import { remaining } from './economies.js';
import { canAct, encounterModule } from './module.js';
import { getEncounter } from './state.js';
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

const MAX_DEPTH = 64;

export function encounterConformance(opts: ConformanceOptions): string[] {
  const problems: string[] = [];
  const encounter = encounterModule(opts.rules);
  const modules = [encounter, ...(opts.modules ?? [])];
  const env: Env = { rng: opts.rng, actor: { role: 'gm' } };
  const rounds = Math.min(20, Math.max(1, opts.rounds ?? 3));

  const reduce = (w: World, e: EngineEvent): World => {
    let out = w;
    for (const m of modules) {
      const r = m.reducers?.[e.type];
      if (r !== undefined) out = r(out, e);
    }
    return out;
  };
  const apply = (w: World, e: EngineEvent, log: EngineEvent[], depth: number): World => {
    if (depth > MAX_DEPTH) throw new RangeError(`reactions nest deeper than ${MAX_DEPTH} at ${e.type}`);
    let out = reduce(w, e);
    log.push(e);
    for (const m of modules) for (const react of m.reactions ?? []) for (const f of react(out, e, env)) out = apply(out, f, log, depth + 1);
    return out;
  };

  let world = opts.genesis;
  const txs: EngineEvent[][] = [];
  const before: string[] = [];
  const run = (command: Command): string | null => {
    for (const m of modules) {
      const h = m.commands?.[command.type];
      if (h === undefined) continue;
      const r = h.decide(world, command, env);
      if (!r.ok) return `${r.error.code}: ${r.error.message}`;
      const log: EngineEvent[] = [];
      before.push(JSON.stringify(world));
      let w = world;
      for (const e of r.value) w = apply(w, e, log, 0);
      world = w;
      txs.push(log);
      return null;
    }
    return `no module handles ${command.type}`;
  };

  try {
    const started = run({ type: 'encounter.start', combatants: [...opts.combatants], ...(opts.params !== undefined ? { params: opts.params } : {}) });
    if (started !== null) return [`encounter.start was refused: ${started}`];
    const pools = Object.keys(opts.rules.economy.pools);
    for (let r = 0; r < rounds; r++) {
      const round = getEncounter(world).round;
      const acted: string[] = [];
      for (let step = 0; step < 1000 && getEncounter(world).round === round; step++) {
        const enc = getEncounter(world);
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
        for (const kind of Object.keys(opts.rules.economy.payers)) for (let k = 0; k < 8 && run({ type: 'encounter.spend', combatant: cur, kind }) === null; k++);
        const econ = getEncounter(world).economy[cur];
        for (const p of pools) if (econ !== undefined && remaining(opts.rules.economy, econ, p) < 0) problems.push(`round ${round}: ${cur} overdrew ${p}`);
        const e = run({ type: 'encounter.endTurn' });
        if (e !== null) problems.push(`round ${round}: ending ${cur}'s turn was refused: ${e}`);
      }
      const enc = getEncounter(world);
      if (enc.round === round) {
        problems.push(`round ${round} never ended`);
        break;
      }
      const mustAct = round === 0 ? [] : enc.roster.filter((id) => canAct(world, opts.rules, id));
      for (const id of mustAct) if (!acted.includes(id)) problems.push(`round ${round}: ${id} was able but never acted`);
    }

    // Replay: the recorded events alone rebuild the world.
    let replay = opts.genesis;
    for (let i = 0; i < txs.length; i++) {
      if (JSON.stringify(replay) !== before[i]) {
        problems.push(`undo: replaying the first ${i} steps does not rebuild the world before step ${i}`);
        break;
      }
      for (const e of txs[i]!) replay = reduce(replay, e);
    }
    if (JSON.stringify(replay) !== JSON.stringify(world)) problems.push('replay: the recorded events do not rebuild the final world');
    if (JSON.stringify(JSON.parse(JSON.stringify(world))) !== JSON.stringify(world)) problems.push('state is not plain JSON');

    // Views: a hidden combatant never reaches a player or spectator.
    const secret = 'conformance-hidden-npc';
    const added = run({
      type: 'encounter.add',
      combatant: { id: secret, kind: 'npc', side: 'conformance-hidden', visibility: 'hidden', stats: {} },
      placement: { group: 0, band: 'medium', score: 10 },
    });
    if (added !== null) problems.push(`views: could not add a hidden combatant: ${added}`);
    else {
      for (const viewer of [{ role: 'player', seatId: 'any' }, { role: 'spectator' }] as Viewer[]) {
        let v = world;
        for (const m of modules) if (m.project !== undefined) v = m.project(v, viewer);
        if (JSON.stringify(v.ext).includes(secret)) problems.push(`views: a ${viewer.role} can see the hidden combatant`);
      }
      const aud = encounter.audience?.['encounter.combatantAdded']?.(world, txs[txs.length - 1]![0]!);
      if (aud?.kind !== 'gm') problems.push('views: the event adding a hidden combatant is not GM-only');
    }
  } catch (e) {
    problems.push(`crashed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return problems;
}
