// createEngine: decide / evolve / execute (one command = one transaction with
// every reaction's follow-up), undo and redo as appended transactions, replay,
// and per-viewer views. See docs/adr/0002-engine-core.md and 0003-undo-and-views.md.
import { holdsOldNames, markParsed, mayAsk, namedAsSent, parsePayload, parseUpcast, readsEngineParse, upcastPayload, type Declaration } from './catalog.js';
import { own } from './own.js';
import { emptyClock } from './clock.js';
import { keepsCheckpoint, SeqStack, TransactionLog } from './history-log.js';
import { enterLogSeq, keepReplayWorld, leaveLogSeq, stampLog, withoutGrowthNotes, withoutReplayLog, withReplayLog } from './log.js';
import { err, ErrorCode, ok, ruleError } from './result.js';
import type {
  Audience,
  Command,
  CommandHandler,
  CreateTableInput,
  Engine,
  EngineEvent,
  Env,
  EveryField,
  Module,
  PlainTable,
  Query,
  Json,
  Result,
  RuleError,
  Table,
  TableView,
  Transaction,
  HistoryOptions,
  TransactionView,
  ViewMemo,
  Viewer,
  World,
} from './types.js';
import { collectKeys, collectStrings } from './walk.js';
import { createUpcaster } from './upcast.js';
import { checkCommand, copyJson, isJson } from './validate.js';
import { historyBatch, historyRedo, historyUndo } from './declarations.js';
import { seededRng } from '../dice/rng.js';
import { AUDIENCE_ALL, AUDIENCE_GM, audienceAllows } from './visibility.js';
import { copyEntry, LogWindow, partsProjector, windowedWorld, type FinalLog } from './view-cache.js';
import { sayCommand } from './undo-words.js';
import { resolveMade } from './batch-refs.js';

/** How deep reactions may chain (an event's follow-up's follow-up...) before we call it a loop. */
export const MAX_REACTION_DEPTH = 32;
/** How many events one transaction may hold in all. */
export const MAX_TRANSACTION_EVENTS = 10_000;
export const UNDO = 'history.undo';
export const REDO = 'history.redo';
export const BATCH = 'history.batch';

class Abort extends Error {
  constructor(readonly error: RuleError) {
    super(error.message);
  }
}

/** The smaller of two audiences: GM-only beats a seat beats everyone; two different seats leave only the GM. */
function narrowest(a: Audience, b: Audience): Audience {
  if (a.kind === 'gm' || b.kind === 'all') return a;
  if (b.kind === 'gm' || a.kind === 'all') return b;
  return a.seatId === b.seatId ? a : AUDIENCE_GM;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const sameViewer = (a: Viewer, b: Viewer): boolean =>
  a.role === b.role && (a.role !== 'player' || (b.role === 'player' && a.seatId === b.seatId));

export function genesisWorld(input: CreateTableInput): World {
  return {
    tableId: input.tableId,
    name: input.name,
    rulesetId: input.rulesetId,
    settings: clone(input.settings ?? {}),
    seats: {},
    characters: {},
    clock: emptyClock(),
    log: [],
    ext: {},
    nextId: 1,
  };
}

/** A table whose log and stacks are the persistent kinds; a JSON copy (snapshot) is rebuilt once, in O(n). */
export function ownTable(table: Table | PlainTable): Table {
  if (table.transactions instanceof TransactionLog && table.live instanceof SeqStack && table.redoable instanceof SeqStack) return table as Table;
  const p = table as PlainTable;
  // The bottom of the undo stack always starts from the genesis: the world with nothing live.
  return { genesis: p.genesis, world: p.world, transactions: TransactionLog.from(p.transactions), live: SeqStack.from(p.live, p.genesis), redoable: SeqStack.from(p.redoable) } satisfies EveryField<Table>;
}

/** An empty table on this genesis. */
export function emptyTable(genesis: World): Table {
  return { genesis, world: genesis, transactions: TransactionLog.empty(), live: SeqStack.empty(), redoable: SeqStack.empty() } satisfies EveryField<Table>;
}

export function createEngine(modules: readonly Module[]): Engine {
  const handlers = new Map<string, { module: Module; handler: CommandHandler }>();
  const reducers = new Map<string, ((w: World, e: EngineEvent) => World)[]>();
  const queries = new Map<string, { module: Module; query: Query }>();
  const ids = new Set<string>();
  for (const m of modules) {
    if (ids.has(m.id)) throw new Error(`module ${m.id} is registered twice`);
    ids.add(m.id);
    for (const [type, handler] of Object.entries(m.commands ?? {})) {
      if (handlers.has(type)) throw new Error(`command ${type} is handled by both ${handlers.get(type)!.module.id} and ${m.id}`);
      if (type === UNDO || type === REDO || type === BATCH) throw new Error(`${type} is the engine's own command`);
      handlers.set(type, { module: m, handler });
    }
    for (const [name, query] of Object.entries(m.queries ?? {})) {
      if (queries.has(name)) throw new Error(`query ${name} is answered by both ${queries.get(name)!.module.id} and ${m.id}`);
      queries.set(name, { module: m, query });
    }
    for (const [type, r] of Object.entries(m.reducers ?? {})) {
      const list = reducers.get(type) ?? [];
      list.push(r);
      reducers.set(type, list);
    }
  }
  const reactions = modules.flatMap((m) => m.reactions ?? []);
  const declarations = new Map<string, Declaration>([
    [UNDO, historyUndo],
    [REDO, historyRedo],
    [BATCH, historyBatch],
  ]);
  for (const m of modules) {
    for (const [type, d] of Object.entries(m.catalog ?? {})) {
      if (declarations.has(type)) throw new Error(`${type} is declared by two modules (${m.id} and another)`);
      declarations.set(type, d);
    }
  }

  /** The payload parsed against its declaration (defaults filled in), or INVALID_VALUE naming the field; undeclared types pass as they are. */
  function parsed<T extends { readonly [k: string]: Json | undefined }>(type: string, kind: Declaration['kind'], raw: T): Result<T> {
    const d = declarations.get(type);
    if (d === undefined || d.kind !== kind) return ok(raw);
    const p = parsePayload(d, raw);
    if (!p.ok) return p;
    return ok((kind === 'command' ? { ...(p.value as object), type } : p.value) as T);
  }
  // Stored names from before a rename read as today's (ADR 28): replay, import, undo and old clients.
  const up = createUpcaster(modules);
  // Module state a non-GM view may carry: only modules with a projector answer for what their state shows.
  const projectedModules = modules.filter((m) => m.project !== undefined).map((m) => m.id);

  function evolve(world: World, stored: EngineEvent): World {
    const event = up.event(stored);
    let w = world;
    for (const r of reducers.get(event.type) ?? []) w = r(w, event);
    return w;
  }

  function decide(world: World, command: Command, env: Env): Result<EngineEvent[]> {
    const bad = checkCommand(command);
    if (bad !== null) return { ok: false, error: bad };
    const r = decideChecked(world, up.command(command), env);
    return r.ok ? ok(clone(r.value)) : r;
  }

  /** decide() for a command already checked; events are checked but not copied (the applier copies them). */
  function decideChecked(world: World, raw: Command, env: Env): Result<EngineEvent[]> {
    const found = handlers.get(raw.type);
    if (found === undefined) return err(ErrorCode.UNKNOWN_COMMAND, `no module handles ${raw.type}`, 'type');
    const { handler } = found;
    // Who may act is judged first, on the command as sent (authorizers read it defensively), so a refused
    // actor learns nothing about the payload; then the schema gates, and decide only sees a well-formed payload.
    // Renamed fields take their new names first (ADR 27), so an authorizer reads one name; a clash is reported by the gate.
    const d = declarations.get(raw.type);
    // Without an old name sent the upcast would be a copy of what was sent: the command itself is read instead (parseUpcast only reads it).
    const up = d?.kind === 'command' ? (holdsOldNames(d.renamed, raw) ? upcastPayload(d.renamed, raw, d.merged) : ok(raw)) : undefined;
    const asSent = up?.ok === true && up.value !== raw ? ({ ...up.value, type: raw.type } as Command) : raw;
    // Parsed once here, on that upcast: the authorizer and decide of a declared handler read this parse (markParsed), not their own.
    const p = d?.kind === 'command' && up !== undefined ? (up.ok ? parseUpcast(d, raw, up.value) : up) : ok(raw);
    // A handlerOf decide reads only the mark, so the one on `asSent` serves it; any other decide reads the parsed fields (defaults filled in).
    const command = p.ok && d?.kind === 'command' && !readsEngineParse(handler.decide) ? ({ ...(p.value as object), type: raw.type } as Command) : asSent;
    if (p.ok && d?.kind === 'command') {
      markParsed(asSent, d.input, p.value);
      if (command !== asSent) markParsed(command, d.input, p.value);
    }
    const denied = handler.authorize !== undefined ? handler.authorize(world, asSent, env.actor) : env.actor.role === 'gm' ? null : ruleError(ErrorCode.FORBIDDEN, `only the GM may ${handler.label ?? raw.type}`);
    if (denied !== null) return { ok: false, error: denied };
    if (!p.ok) return p;
    const r = handler.decide(world, command, env.decideCommand === undefined ? withNested(env) : env);
    if (!r.ok) return d === undefined ? r : { ok: false, error: namedAsSent(d, raw, r.error) };
    for (const e of r.value) {
      if (typeof e.type !== 'string' || !isJson(e)) return err(ErrorCode.INTERNAL, `${found.module.id} decided an event that is not plain JSON`);
    }
    return r;
  }

  /** `env` with `nested` as its decideCommand, written out (a spread of an env costs more than the decide it serves, measured). */
  function withNested(env: Env): Env {
    return env.now === undefined ? { rng: env.rng, actor: env.actor, decideCommand: nested } : { rng: env.rng, actor: env.actor, decideCommand: nested, now: env.now };
  }

  /** A module deciding another's command (an approved request): checked as a sent command is, never the engine's undo or redo. */
  function nested(world: World, command: Command, env: Env): Result<EngineEvent[]> {
    const bad = checkCommand(command);
    if (bad !== null) return { ok: false, error: bad };
    if (command.type === UNDO || command.type === REDO || command.type === BATCH) return err(ErrorCode.FORBIDDEN, `${command.type} cannot be run from inside another command`, 'type');
    return decideChecked(world, command, env);
  }

  /** Apply one event, then every reaction's follow-ups depth-first; `out` collects the transaction's events. */
  function applyWithReactions(world: World, event: EngineEvent, env: Env, out: EngineEvent[], audiences: Audience[], depth: number): World {
    if (depth > MAX_REACTION_DEPTH) throw new Abort(ruleError(ErrorCode.REACTION_LOOP, `reactions chained deeper than ${MAX_REACTION_DEPTH} at ${event.type}: a reaction loop`));
    if (out.length >= MAX_TRANSACTION_EVENTS) throw new Abort(ruleError(ErrorCode.REACTION_LOOP, `one command produced more than ${MAX_TRANSACTION_EVENTS} events`));
    // A decided event (depth 0) was checked by decideChecked just before; a reaction's is checked here.
    if (depth > 0 && (typeof event.type !== 'string' || !isJson(event))) throw new Abort(ruleError(ErrorCode.INTERNAL, 'a reaction produced an event that is not plain JSON'));
    // isJson just held, so the allocation-light copy gives what a JSON round trip would.
    const e = copyJson(event);
    out.push(e);
    let w = evolve(world, e);
    // Judged on the world before and after the event (narrowest wins): a removal is judged while the thing exists.
    const after = audienceOf(w, e);
    audiences.push(after.kind === 'gm' ? after : narrowest(audienceOf(world, e), after));
    for (const react of reactions) {
      for (const f of react(w, e, env)) w = applyWithReactions(w, f, env, out, audiences, depth + 1);
    }
    return w;
  }

  /** Re-applies a stored command's events onto `w` (undo's replay from a kept world). */
  function applyStored(table: Table, w: World, seq: number): World {
    const tx = table.transactions.bySeq(seq);
    if (tx === undefined || tx.kind !== 'command') throw new Error(`transaction ${seq} is not a stored command`);
    // Redone or replayed entries keep the seq of the transaction that first wrote them.
    return stampLog(evolveAll(w, tx.events, seq), seq);
  }

  /**
   * A recorded transaction's events evolved onto `w` with their log entries written under `seq`: a loop
   * between enterLogSeq and leaveLogSeq, not withLogSeq's callback and a reduce (two closures per apply).
   */
  function evolveAll(w: World, events: readonly EngineEvent[], seq: number): World {
    const outer = enterLogSeq(seq);
    try {
      for (let i = 0; i < events.length; i++) w = evolve(w, events[i]!);
      return w;
    } finally {
      leaveLogSeq(outer);
    }
  }

  function commandTx(table: Table, seq: number): Extract<Transaction, { kind: 'command' }> | undefined {
    const tx = table.transactions.bySeq(seq);
    // A log rebuilt from stored rows (a snapshot's) may hold old names: read them as today's.
    return tx !== undefined && tx.kind === 'command' ? (up.transaction(tx) as Extract<Transaction, { kind: 'command' }>) : undefined;
  }

  /** Apply a recorded transaction (no decide, no reactions, no dice). */
  function apply(given: Table | PlainTable, recorded: Transaction): Table {
    const table = ownTable(given);
    const tx = up.transaction(recorded);
    const seq = table.transactions.length + 1;
    if (tx.seq !== seq) throw new Error(`transaction ${tx.seq} out of order: the table expects ${seq}`);
    // Tables written out, not `{ ...table, ... }` (as execute does, ADR 116): a replay makes one per transaction.
    if (tx.kind === 'command') {
      const w = evolveAll(table.world, tx.events, seq);
      return { genesis: table.genesis, world: stampLog(w, seq), transactions: table.transactions.append(tx), live: table.live.push(seq, table.world), redoable: SeqStack.empty() } satisfies EveryField<Table>;
    }
    if (tx.kind === 'undo') {
      if (table.live.top !== tx.target) throw new Error(`undo ${seq} targets ${tx.target}, not the last live transaction`);
      const popped = table.live.popWorld((w, s) => applyStored(table, w, s))!;
      return { genesis: table.genesis, world: popped.world, transactions: table.transactions.append(tx), live: popped.rest, redoable: table.redoable.push(tx.target) } satisfies EveryField<Table>;
    }
    if (table.redoable.top !== tx.target) throw new Error(`redo ${seq} targets ${tx.target}, not the last undone transaction`);
    if (commandTx(table, tx.target) === undefined) throw new Error(`redo ${seq} targets ${tx.target}, which is not a command`);
    // The redone entries keep the seq of the transaction that first wrote them, so undo + redo is the identity.
    return { genesis: table.genesis, world: applyStored(table, table.world, tx.target), transactions: table.transactions.append(tx), live: table.live.push(tx.target, table.world), redoable: table.redoable.pop() } satisfies EveryField<Table>;
  }

  function mayRevert(table: Table, seq: number | undefined, actor: Viewer): boolean {
    if (seq === undefined) return false;
    if (actor.role === 'gm') return true;
    if (actor.role !== 'player' || own(table.world.seats, actor.seatId) === undefined) return false;
    const tx = commandTx(table, seq);
    return tx !== undefined && sameViewer(tx.actor, actor) && handlers.get(tx.command.type)?.handler.issuerMayRevert !== false;
  }

  function history(table: Table, kind: 'undo' | 'redo', actor: Viewer): Result<{ table: Table; transaction: Transaction }> {
    const target = (kind === 'undo' ? table.live : table.redoable).top;
    if (target === undefined) return kind === 'undo' ? err(ErrorCode.NOTHING_TO_UNDO, 'there is nothing to undo') : err(ErrorCode.NOTHING_TO_REDO, 'there is nothing to redo');
    if (!mayRevert(table, target, actor)) return err(ErrorCode.FORBIDDEN, `only the GM, or the player who issued it, may ${kind} the last action`);
    const transaction: Transaction = { seq: table.transactions.length + 1, kind, actor: clone(actor), target };
    return ok({ table: apply(table, transaction), transaction });
  }

  /**
   * Decides and applies a command's parts in turn (one, or a batch's): each on the world its predecessors left; the
   * first refusal refuses them all. `events` and `audiences` collect the transaction's.
   */
  function decideParts(world: World, parts: readonly Command[], batch: boolean, env: Env, decideEnv: Env, events: EngineEvent[], audiences: Audience[]): Result<World> {
    let w = world;
    // What each command of the batch decided, for a later one's reference to an id it minted (ADR 73).
    const made: EngineEvent[][] = [];
    for (let i = 0; i < parts.length; i++) {
      const sent = parts[i]!;
      // A table roll is charged by the server's roll budget one command at a time (ADR 25), so it is sent alone.
      if (batch && (sent.type === UNDO || sent.type === REDO || sent.type === BATCH || sent.type === 'dice.roll')) return err(ErrorCode.FORBIDDEN, `${sent.type} cannot be part of a batch`, `commands.${i}.type`);
      let part = sent;
      if (batch) {
        const resolved = resolveMade(sent, i, made);
        if (!resolved.ok) return resolved;
        part = resolved.value;
      }
      const refused = env.actor.role === 'gm' ? null : refuseHidden(w, part, env);
      if (refused !== null) return { ok: false, error: refused };
      const chosen = decideChecked(w, part, decideEnv);
      if (!chosen.ok) return chosen;
      if (batch) made.push(chosen.value);
      for (const e of chosen.value) w = applyWithReactions(w, e, env, events, audiences, 0);
    }
    return ok(w);
  }

  function execute(given: Table | PlainTable, command: Command, env: Env): Result<{ table: Table; transaction: Transaction }> {
    const table = ownTable(given);
    const bad = checkCommand(command);
    if (bad !== null) return { ok: false, error: bad };
    if (command.type === UNDO || command.type === REDO) {
      const p = parsed(command.type, 'command', command);
      return p.ok ? history(table, command.type === UNDO ? 'undo' : 'redo', env.actor) : p;
    }
    // An old client's command type (a renamed namespace) runs, and is stored, under today's name (ADR 28).
    // checkCommand found plain JSON: copied without a string round trip.
    const batch = command.type === BATCH;
    if (batch) {
      const p = parsed(BATCH, 'command', command);
      if (!p.ok) return p;
    }
    const cmd = batch ? ({ type: BATCH, commands: (command['commands'] as Command[]).map((c) => up.command(copyJson(c))) } as Command) : up.command(copyJson(command));
    const parts = batch ? (cmd['commands'] as Command[]) : [cmd];
    try {
      const events: EngineEvent[] = [];
      const audiences: Audience[] = [];
      const seq = table.transactions.length + 1;
      // The env a decide may call another command through, made once for the batch's commands (decideChecked would copy it per command).
      const decideEnv: Env = env.decideCommand === undefined ? withNested(env) : env;
      // The seq is named before the reducers run, so their log entries are written stamped (no second copy of the log).
      // Entered and left here rather than through withLogSeq's callback: a closure per command costs (under tsx, a defineProperty too).
      const outer = enterLogSeq(seq);
      let applied: Result<World>;
      try {
        applied = decideParts(table.world, parts, batch, env, decideEnv, events, audiences);
      } finally {
        leaveLogSeq(outer);
      }
      if (!applied.ok) return applied;
      const w = applied.value;
      const transaction: Transaction = { seq, kind: 'command', actor: copyJson(env.actor), command: cmd, events, audiences };
      // Written out, not `{ ...table, ... }`: tables come from several sites, and the spread of one (measured) took longer than the rest of this.
      // EveryField: a field added to Table does not compile here until it is carried over (ADR 116).
      const next = { genesis: table.genesis, world: stampLog(w, seq), transactions: table.transactions.append(transaction), live: table.live.push(seq, table.world), redoable: SeqStack.empty() } satisfies EveryField<Table>;
      return ok({ table: next, transaction });
    } catch (e) {
      if (e instanceof Abort) return { ok: false, error: e.error };
      // A module bug must not take the room down: report it as a typed error.
      return err(ErrorCode.INTERNAL, `internal error while running ${command.type}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Errors from the asker's own view (ADR 10). A player's command that names an
   * id they cannot see is decided once more with that id swapped for one that
   * exists nowhere: if that fails, the player gets exactly the refusal a missing
   * id gets (our stand-in mapped back to their own text), and nothing changes.
   * If it succeeds the string was plain data, not a reference, and the command
   * runs as sent. Which strings are hidden ids is asked of each module, one
   * string at a time (ADR 18): the cost follows the command, not the table.
   */
  function refuseHidden(world: World, command: Command, env: Env): RuleError | null {
    const named = new Set<string>();
    collectStrings(command, named);
    const hidden = [...named].filter((x) => idStatusOf(world, env.actor, x) === 'hidden');
    if (hidden.length === 0) return null;
    const taken = (c: string): boolean => named.has(c) || idStatusOf(world, env.actor, c) !== undefined;
    const standIn = new Map<string, string>();
    const used = new Set<string>();
    for (const h of hidden) {
      const n = unusedLike(h, (c) => used.has(c) || taken(c));
      used.add(n);
      standIn.set(h, n);
    }
    const swap = (v: Json): Json => {
      if (typeof v === 'string') return standIn.get(v) ?? v;
      if (Array.isArray(v)) return v.map(swap);
      if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [standIn.get(k) ?? k, swap(x)]));
      return v;
    };
    // A throwaway generator: the probe's dice must not move the table's.
    const probe = decideChecked(world, swap(command as unknown as Json) as unknown as Command, { ...env, rng: seededRng(0) });
    if (probe.ok) return null;
    const back = (text: string): string => {
      let out = text;
      for (const [h, n] of standIn) out = out.split(n).join(h);
      return out;
    };
    const e = probe.error;
    return { code: e.code, message: back(e.message), ...(e.path === undefined ? {} : { path: back(e.path) }), ...(e.column === undefined ? {} : { column: e.column }) };
  }

  /**
   * Is `id` a record somewhere at the table, and may `viewer` see it? Shown by
   * any module wins (a character's id is also its combatant's). A module with
   * state but no idStatus hook has its own state walked, keys of the GM's
   * against keys of the viewer's projection: slow but exact, so a new module
   * is never a hole while it lacks the hook.
   */
  function idStatusOf(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined {
    let found: 'hidden' | undefined;
    for (const m of modules) {
      const s = m.idStatus !== undefined ? m.idStatus(world, viewer, id) : walkedStatus(world, viewer, m, id);
      if (s === 'shown') return s;
      if (s === 'hidden') found = s;
    }
    return found;
  }

  function walkedStatus(world: World, viewer: Viewer, m: Module, id: string): 'shown' | 'hidden' | undefined {
    if (!Object.hasOwn(world.ext, m.id) || !collectKeys(world.ext[m.id], new Set()).has(id)) return undefined;
    const seen = projectWorld(world, viewer).ext;
    return Object.hasOwn(seen, m.id) && collectKeys(seen[m.id], new Set()).has(id) ? 'shown' : 'hidden';
  }

  /**
   * Linear in the number of transactions: apply copies neither the stacks nor, mostly, the log (ADR 96). The
   * replay appends to its own log in place, and takes it back before a command whose world before the undo
   * stack keeps for a later read: a checkpoint, the target of the next undo, the last command, and before every
   * redo. An undo (which keeps the worlds it rebuilds) appends by copies.
   */
  function replay(genesis: World, transactions: Iterable<Transaction>): Table {
    let t = emptyTable(up.world(genesis));
    withoutGrowthNotes(() =>
      withReplayLog(() => {
        // An index walk: an iterator's results, held across iterations, were an object per transaction.
        const list: readonly Transaction[] = Array.isArray(transactions) ? transactions : Array.from(transactions);
        for (let i = 0; i < list.length; i++) {
          const tx = list[i]!;
          const next = list[i + 1];
          if (tx.kind === 'undo') {
            t = withoutReplayLog(() => apply(t, tx));
            continue;
          }
          // The world before a redo is kept (on the undo stack, as the undo it reverts may come back); so is the world
          // before a command when it is a checkpoint, the target of the next undo, or the last. Nobody else holds this
          // table's world yet, so it may be swapped for one whose log the replay no longer changes.
          if (tx.kind === 'redo' || next === undefined || next.kind === 'undo' || keepsCheckpoint(t.live.length + 1)) {
            t = { genesis: t.genesis, world: keepReplayWorld(t.world), transactions: t.transactions, live: t.live, redoable: t.redoable } satisfies EveryField<Table>;
          }
          t = apply(t, tx);
        }
      }),
    );
    return t;
  }

  function createTable(input: CreateTableInput): Table {
    return emptyTable(genesisWorld(input));
  }

  function audienceOf(world: World, stored: EngineEvent): Audience {
    const event = up.event(stored);
    // The narrowest audience any module names wins: a module can only hide, never widen.
    let result: Audience = AUDIENCE_ALL;
    for (const m of modules) {
      const f = m.audience?.[event.type];
      if (f !== undefined) result = narrowest(result, f(world, event));
    }
    return result;
  }

  /** An event as a non-GM viewer reads it: each module that rewrites its type leaves out what stays with the GM (ADR 33). */
  function eventView(world: World, stored: EngineEvent): EngineEvent {
    const type = up.event(stored).type;
    let shown = stored;
    for (const m of modules) {
      const f = m.eventView?.[type];
      if (f !== undefined) shown = f(world, shown);
    }
    return shown;
  }

  // A module with eventViews and no declared basis gets a fresh key per world, kept per world (worlds are immutable).
  // When every such module declares its basis, the basis is theirs worked out again (they keep their own memos):
  // a weak map insert per world, once per command, cost more than that (issue 19, ADR 123).
  const basisModules = modules.filter((m) => m.eventView !== undefined);
  const bases = basisModules.every((m) => m.eventViewBasis !== undefined) ? null : new WeakMap<World, string>();
  let undeclared = 0;
  // The distinct keys in module order, joined by newlines: the one key as it is when there is one (most rulesets'
  // modules share one foes basis), no Set or array per world (a room asks once per command, issue 19).
  function basisOf(world: World): string {
    let first: string | null = null;
    let rest: string[] | null = null;
    for (const m of basisModules) {
      const k = m.eventViewBasis?.(world) ?? `world ${++undeclared}`;
      if (first === null) first = k;
      else if (k !== first && !(rest?.includes(k) ?? false)) (rest ??= []).push(k);
    }
    return first === null ? '' : rest === null ? first : [first, ...rest].join('\n');
  }
  function historyBasis(world: World): string {
    if (bases === null) return basisOf(world);
    let b = bases.get(world);
    if (b === undefined) bases.set(world, (b = basisOf(world)));
    return b;
  }

  function labelOf(tx: Extract<Transaction, { kind: 'command' }>): string {
    // A batch reads as its first command ("start an encounter"): the click that sent it.
    const first = tx.command.type === BATCH && Array.isArray(tx.command['commands']) ? tx.command['commands'][0] : undefined;
    const type = first !== null && typeof first === 'object' && !Array.isArray(first) && typeof first['type'] === 'string' ? first['type'] : tx.command.type;
    return handlers.get(type)?.handler.label ?? commandWords(type);
  }

  /** A command transaction as `viewer` sees it, or null when they may not learn it happened. */
  function commandView(world: World, tx: Extract<Transaction, { kind: 'command' }>, viewer: Viewer): TransactionView | null {
    if (viewer.role === 'gm') return { seq: tx.seq, kind: 'command', actor: tx.actor, label: labelOf(tx), command: tx.command, events: tx.events };
    const own = sameViewer(tx.actor, viewer);
    // Loops, not filter/map closures: this runs per viewer per command (under tsx each closure costs a defineProperty).
    // Which events the viewer may read, as bits while they fit a number: no array per viewer per command (issue 19).
    const n = tx.events.length;
    const flags = n > MASK_BITS ? new Array<boolean>(n) : null;
    let mask = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const ok = audienceAllows(tx.audiences?.[i] ?? audienceOf(world, tx.events[i]!), viewer);
      if (ok) count++;
      if (flags !== null) flags[i] = ok;
      else if (ok) mask |= 1 << i;
    }
    const allowed = flags ?? mask;
    // Another viewer who did not issue it and may read the same events was just shown this very view.
    const last = lastOthers;
    if (!own && last.world === world && last.tx === tx && sameAllowed(last.allowed, allowed)) return last.view;
    // Every event readable and none rewritten (most commands): the transaction's own array, as the GM's view has it.
    let events: EngineEvent[] | null = null;
    for (let i = 0; i < n; i++) {
      if (flags !== null ? !flags[i] : (mask & (1 << i)) === 0) {
        events ??= tx.events.slice(0, i);
        continue;
      }
      const stored = tx.events[i]!;
      const shown = eventView(world, stored);
      if (events !== null) events.push(shown);
      else if (shown !== stored) (events = tx.events.slice(0, i)).push(shown);
    }
    const seen: readonly EngineEvent[] = events ?? tx.events;
    let view: TransactionView | null;
    if (!own && count === 0) view = null;
    else {
      const label = own || count === n ? labelOf(tx) : tx.actor.role === 'gm' ? 'an action by the GM' : 'an action';
      view = own ? { seq: tx.seq, kind: 'command', actor: tx.actor, label, command: tx.command, events: seen } : { seq: tx.seq, kind: 'command', actor: tx.actor, label, events: seen };
    }
    if (!own) {
      // One slot written in place: a new record per viewer per command was garbage.
      last.world = world;
      last.tx = tx;
      last.allowed = allowed;
      last.view = view;
    }
    return view;
  }

  /**
   * The last view of a command made for a non-GM viewer who did not issue it. What such a viewer is shown
   * depends on the world, the transaction and which events they may read, nothing else; a broadcast asks for
   * every viewer in turn over one world, so the players after the first share one object (and the history
   * windows built of it compare by reference). One slot: it keeps one world alive per engine, no more.
   */
  const lastOthers: { world: World | null; tx: Transaction | null; allowed: number | readonly boolean[]; view: TransactionView | null } = { world: null, tx: null, allowed: 0, view: null };

  /**
   * The world as `viewer` may see it: every module's projector in order, then
   * default-deny (ADR 10): a non-GM view is rebuilt from the known World fields
   * only, and module state no projector vouched for is dropped, so a new field
   * or module stays the GM's until a projector positively shows it.
   */
  function projectWorld(world: World, viewer: Viewer, memo?: ViewMemo): World {
    if (memo !== undefined) return projectByParts(world, viewer, memo);
    let projected = world;
    for (const m of modules) if (m.project !== undefined) projected = m.project(projected, viewer, world);
    const log = projected.log.filter((e) => audienceAllows(e.audience, viewer));
    return finish(projected, viewer.role === 'gm' ? log : log.map(copyEntry), viewer);
  }

  /** The projected world with the viewer's log; a non-GM view is rebuilt from the known fields, its module state only what a projector vouched for. */
  function finish(projected: World, given: FinalLog, viewer: Viewer): World {
    const log = given instanceof LogWindow ? null : given;
    // Every projector passed the GM's world through and the log is whole: the world itself is the GM's view.
    if (viewer.role === 'gm' && log !== null) return log === projected.log ? projected : { ...projected, log };
    const ext: { [moduleId: string]: Json } = {};
    for (const id of projectedModules) if (Object.hasOwn(projected.ext, id)) ext[id] = projected.ext[id]!;
    if (given instanceof LogWindow) {
      // The log is read whole only by a snapshot or a query: made then, once; the delta reads the window (logWindowOf).
      const head = { tableId: projected.tableId, name: projected.name, rulesetId: projected.rulesetId, settings: projected.settings, seats: projected.seats, characters: projected.characters, clock: projected.clock };
      return windowedWorld(head, given, ext);
    }
    return {
      tableId: projected.tableId,
      name: projected.name,
      rulesetId: projected.rulesetId,
      settings: projected.settings,
      seats: projected.seats,
      characters: projected.characters,
      clock: projected.clock,
      log: given,
      ext,
      nextId: 0,
    };
  }
  // With a memo, projectors that declare their reads are re-run only when those parts changed (view-cache.ts).
  const projectByParts = partsProjector(modules, finish);

  function query(given: Table | PlainTable, viewer: Viewer, asked: string, args: Json = {}): Result<Json> {
    const name = up.type(asked);
    const q = queries.get(name);
    if (q === undefined) return err(ErrorCode.UNKNOWN_COMMAND, `no module answers the query ${name}`, 'name');
    // Who may ask comes before the arguments are read, so a refusal says nothing about the world (ADR 39).
    const who = declarations.get(name)?.who ?? 'anyone';
    if (!mayAsk(who, viewer)) {
      return err(ErrorCode.FORBIDDEN, who === 'gm' ? `only the GM may ask ${name}` : `spectators may ask only what the whole table sees (the status queries); ${name} is for the GM and seated players`, 'name');
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return err(ErrorCode.INVALID_VALUE, 'query arguments must be an object', 'args');
    const p = parsed(name, 'query', args);
    if (!p.ok) return p;
    try {
      // The viewer's own projection: an answer cannot use what they may not see.
      const r = q.query(projectWorld(given.world, viewer), p.value, viewer);
      const d = declarations.get(name);
      return r.ok || d === undefined ? r : { ok: false, error: namedAsSent(d, args, r.error) };
    } catch (e) {
      return err(ErrorCode.INVALID_VALUE, `the query ${name} could not be answered: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * The viewer's history, walked back from the newest transaction: at most `window`
   * entries, from at most `scan` transactions back, none at or before seq `after`.
   * Oldest first. Its cost is bounded by window and scan, not by the table's age.
   */
  function historyOf(given: Table | PlainTable, viewer: Viewer, opts: HistoryOptions = {}): TransactionView[] {
    const table = ownTable(given);
    const world = table.world;
    const window = opts.window ?? Number.POSITIVE_INFINITY;
    const n = table.transactions.length;
    const stop = Math.max(opts.after ?? 0, opts.scan === undefined ? 0 : n - opts.scan);
    // No closure here: views are built per viewer per command, and under tsx each closure costs a defineProperty (kept names).
    // Only a walk of more than one transaction can meet a seq twice (an undo and its target): a Map only then.
    // The walk a broadcast makes for each viewer (the one transaction after their view): an array of the exact size, not a pushed one (issue 19).
    if (n - stop === 1 && window >= 1) {
      const v = historyEntry(table, world, table.transactions.bySeq(n)!, viewer, null);
      return v === null ? [] : [v];
    }
    const commandViews = n - stop > 1 ? new Map<number, TransactionView | null>() : null;
    const out: TransactionView[] = [];
    for (let seq = n; seq > stop && out.length < window; seq--) {
      const v = historyEntry(table, world, table.transactions.bySeq(seq)!, viewer, commandViews);
      if (v !== null) out.push(v);
    }
    return out.reverse();
  }

  /** One transaction's history entry for `viewer`, or null when they may not learn it happened. */
  function historyEntry(table: Table, world: World, tx: Transaction, viewer: Viewer, commandViews: Map<number, TransactionView | null> | null): TransactionView | null {
    if (tx.kind === 'command') return cachedCommandView(table, world, tx.seq, viewer, commandViews);
    const target = cachedCommandView(table, world, tx.target, viewer, commandViews);
    return target === null ? null : { seq: tx.seq, kind: tx.kind, actor: tx.actor, label: `${tx.kind}: ${target.label}`, target: tx.target, events: [] };
  }

  /** The command transaction `seq` as `viewer` sees it, each seq made once per walk (`seen`). */
  function cachedCommandView(table: Table, world: World, seq: number, viewer: Viewer, seen: Map<number, TransactionView | null> | null): TransactionView | null {
    let v = seen?.get(seq);
    if (v === undefined) {
      const tx = commandTx(table, seq);
      v = tx === undefined ? null : commandView(world, tx, viewer);
      seen?.set(seq, v);
    }
    return v;
  }

  function labelFor(table: Table, seq: number, viewer: Viewer): string | null {
    const tx = commandTx(table, seq);
    return tx === undefined ? null : (commandView(table.world, tx, viewer)?.label ?? null);
  }

  /** The world as a viewer sees it, projected on first use by whichever of the undo and redo sentences needs it. */
  interface SeenWorld {
    readonly table: Table;
    readonly viewer: Viewer;
    world: World | null;
  }
  function seenWorld(s: SeenWorld): World {
    return (s.world ??= s.viewer.role === 'gm' ? s.table.world : projectWorld(s.table.world, s.viewer));
  }

  /**
   * What undoing or redoing `seq` takes back, in words with names, for `viewer`: the module's words for its
   * command, names read from the world as the viewer sees it (a creature hidden from them has none, and the
   * plain label stands); null when they may not learn it happened.
   */
  function wordsFor(table: Table, seq: number, viewer: Viewer, seen: SeenWorld): string | null {
    const tx = commandTx(table, seq);
    if (tx === undefined) return null;
    const shown = commandView(table.world, tx, viewer);
    const label = shown?.label ?? null;
    // A batch reads as its first command (labelOf), so it is worded as that command with the batch's events.
    const first = tx.command.type === BATCH && Array.isArray(tx.command['commands']) ? tx.command['commands'][0] : undefined;
    const command = first !== null && typeof first === 'object' && !Array.isArray(first) && typeof first['type'] === 'string' ? (first as unknown as Command) : tx.command;
    const entry = handlers.get(command.type);
    const words = entry?.module.words?.[command.type];
    if (shown === null || label === null || words === undefined) return label;
    // Another's command shown only in part reads as its redacted label, never as names.
    if (viewer.role !== 'gm' && !sameViewer(tx.actor, viewer)) return label;
    const world = seenWorld(seen);
    const nameOf = (id: string): string | null => {
      if (viewer.role !== 'gm' && idStatusOf(table.world, viewer, id) === 'hidden') return null;
      for (const m of modules) {
        const n = m.nameOf?.(world, id);
        if (n !== undefined && n !== null) return n;
      }
      return own(world.characters, id)?.name ?? null;
    };
    // Values are read from the events this viewer may read, as they read them (a GM-only event gives nothing).
    return sayCommand(words, command, shown.events, nameOf) ?? label;
  }

  /** canUndo / canRedo and their labels and words for `viewer`. */
  function undoState(given: Table | PlainTable, viewer: Viewer): Pick<TableView, 'canUndo' | 'canRedo' | 'undoLabel' | 'redoLabel' | 'undoWords' | 'redoWords'> {
    const table = ownTable(given);
    const lastLive = table.live.top;
    const lastUndone = table.redoable.top;
    const canUndo = mayRevert(table, lastLive, viewer);
    const canRedo = mayRevert(table, lastUndone, viewer);
    // Most viewers of most commands (players who did not issue the last one): one shared answer, nothing made.
    if (!canUndo && !canRedo) return NOTHING_TO_REVERT;
    // The viewer's own projection, made once and only when a sentence needs a name (a slot, not a closure: under tsx
    // every closure made per call also pays a defineProperty for its name, and this runs per viewer per command).
    const seen: SeenWorld = { table, viewer, world: null };
    return {
      canUndo,
      canRedo,
      undoLabel: canUndo && lastLive !== undefined ? labelFor(table, lastLive, viewer) : null,
      redoLabel: canRedo && lastUndone !== undefined ? labelFor(table, lastUndone, viewer) : null,
      undoWords: canUndo && lastLive !== undefined ? wordsFor(table, lastLive, viewer, seen) : null,
      redoWords: canRedo && lastUndone !== undefined ? wordsFor(table, lastUndone, viewer, seen) : null,
    };
  }

  function view(given: Table | PlainTable, viewer: Viewer, opts: HistoryOptions = {}): TableView {
    const table = ownTable(given);
    return { world: projectWorld(table.world, viewer), history: historyOf(table, viewer, opts), ...undoState(table, viewer), version: table.transactions.length };
  }

  return { modules, createTable, decide, evolve, execute, apply, replay, view, history: historyOf, historyBasis, undoState, project: projectWorld, query, audienceOf, idStatus: idStatusOf, catalog: [...declarations.values()], upcastWorld: up.world };
}

/** undoState when the viewer may neither undo nor redo (frozen: every such viewer is handed this one object). */
const NOTHING_TO_REVERT: Pick<TableView, 'canUndo' | 'canRedo' | 'undoLabel' | 'redoLabel' | 'undoWords' | 'redoWords'> = Object.freeze({
  canUndo: false,
  canRedo: false,
  undoLabel: null,
  redoLabel: null,
  undoWords: null,
  redoWords: null,
});

/** Events a transaction may have for commandView's readable ones to be kept as the bits of one number. */
const MASK_BITS = 30;

/** Two sets of readable events (commandView): bits of one number, or flags for a longer transaction. */
function sameAllowed(a: number | readonly boolean[], b: number | readonly boolean[]): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A string of the same length as `s` (same prefix) that is not `taken`: a stand-in for a missing id. */
function unusedLike(s: string, taken: (c: string) => boolean): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (let cut = 1; cut <= Math.min(s.length, 4); cut++) {
    const head = s.slice(0, s.length - cut);
    for (let i = 0; i < alphabet.length ** cut && i < 5000; i++) {
      let tail = '';
      for (let k = 0, n = i; k < cut; k++, n = Math.floor(n / alphabet.length)) tail += alphabet[n % alphabet.length];
      const c = head + tail;
      if (c !== s && !taken(c)) return c;
    }
  }
  let c = `${s}~`;
  while (taken(c)) c += '~';
  return c;
}

/**
 * A readable fallback label for a command without one: the type without its
 * module prefix, in words ("kleptonomicon.closingCredits" -> "closing credits").
 */
export function commandWords(type: string): string {
  const rest = type.includes('.') ? type.slice(type.indexOf('.') + 1) : type;
  const words = rest.replace(/\./g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words === '' ? type : words;
}
