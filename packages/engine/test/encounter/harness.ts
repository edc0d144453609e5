// A small driver for the encounter module until tests can use the core's
// engine: decide, then apply each event and its reactions depth-first, one
// transaction per command; undo replays from genesis.
import type { Command, EngineEvent, Module, RuleError, Viewer, World } from '../../src/core/types.js';
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
    clock: { seconds: 0, counts: { actionRoll: 0, beat: 0, turn: 0, round: 0, travelTurn: 0, shortRest: 0, longRest: 0, phase: 0, time: 0 } },
    log: [],
    ext: {},
    nextId: 1,
  };
}

const MAX_DEPTH = 32;

export class Table {
  world: World;
  readonly history: EngineEvent[][] = [];
  private readonly start: World;
  constructor(private readonly modules: readonly Module[], public rng: Rng = seededRng(1)) {
    this.world = genesis();
    this.start = this.world;
  }
  get enc(): EncounterState {
    return getEncounter(this.world);
  }
  private applyOne(world: World, e: EngineEvent, out: EngineEvent[], depth: number): World {
    if (depth > MAX_DEPTH) throw new Error(`reaction depth exceeded at ${e.type}`);
    let w = world;
    for (const m of this.modules) {
      const r = m.reducers?.[e.type];
      if (r !== undefined) w = r(w, e);
    }
    out.push(e);
    for (const m of this.modules) {
      for (const react of m.reactions ?? []) {
        for (const f of react(w, e, { rng: this.rng, actor: { role: 'gm' } })) w = this.applyOne(w, f, out, depth + 1);
      }
    }
    return w;
  }
  /** Run a command; returns the error, or null and records the transaction. */
  run(command: Command, actor: Viewer = { role: 'gm' }): RuleError | null {
    for (const m of this.modules) {
      const h = m.commands?.[command.type];
      if (h === undefined) continue;
      const denied = h.authorize !== undefined ? h.authorize(this.world, command, actor) : actor.role === 'gm' ? null : { code: 'FORBIDDEN', message: 'GM only' };
      if (denied !== null) return denied;
      const r = h.decide(this.world, command, { rng: this.rng, actor });
      if (!r.ok) return r.error;
      const out: EngineEvent[] = [];
      let w = this.world;
      for (const e of JSON.parse(JSON.stringify(r.value)) as EngineEvent[]) w = this.applyOne(w, e, out, 0);
      this.world = w;
      this.history.push(out);
      return null;
    }
    return { code: 'UNKNOWN_COMMAND', message: command.type };
  }
  /** Run and fail loudly on a rule error (tests that expect success). */
  ok(command: Command, actor?: Viewer): EngineEvent[] {
    const e = this.run(command, actor);
    if (e !== null) throw new Error(`${command.type} failed: ${e.code} ${e.message}`);
    return this.history[this.history.length - 1]!;
  }
  /** Undo the last transaction by replaying the recorded events of the others (no reactions, no dice); returns it for redo. */
  undo(): EngineEvent[] {
    const tx = this.history.pop() ?? [];
    let w = this.start;
    for (const tx of this.history) for (const e of tx) for (const m of this.modules) { const r = m.reducers?.[e.type]; if (r !== undefined) w = r(w, e); }
    this.world = w;
    return tx;
  }
  /** Re-apply an undone transaction's recorded events. */
  redo(tx: EngineEvent[]): void {
    let w = this.world;
    for (const e of tx) for (const m of this.modules) { const r = m.reducers?.[e.type]; if (r !== undefined) w = r(w, e); }
    this.world = w;
    this.history.push(tx);
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
