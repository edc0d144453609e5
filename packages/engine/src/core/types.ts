// The engine's contract. Every feature (core, countdowns, encounters, each
// ruleset) is a Module that adds commands, event reducers, reactions and view
// projections to one World. See docs/adr/0002-engine-core.md.
import type { Rng } from '../dice/rng.js';
import type { Catalog, Declaration } from './catalog.js';
import type { Upcasts } from './upcast.js';
import type { SeqStack, TransactionLog } from './history-log.js';
import type { CommandWords } from './undo-words.js';

/** Plain JSON only: states, commands and events must survive JSON round-trips. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------- results

/** A typed rule error: a stable machine code and a human sentence. Never thrown. */
export interface RuleError {
  readonly code: string;
  readonly message: string;
  /** Where in the command the problem is (e.g. "countdown.start"), when known. */
  readonly path?: string;
  /** For text fields such as dice notation: the 0-based column in that field the problem points at. */
  readonly column?: number;
}

export type Result<T, E = RuleError> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

// ---------------------------------------------------------------- who is asking

/** Who issues a command or receives a view. */
export type Viewer =
  | { readonly role: 'gm' }
  | { readonly role: 'player'; readonly seatId: string }
  | { readonly role: 'spectator' };

/**
 * Visibility tiers (DESIGN.md law 5):
 * - hidden: players and spectators do not learn it exists;
 * - existence: they see that it exists (and its public name) but no values;
 * - visible: everyone sees everything;
 * - reveal-on-trigger: like `existence` until it triggers, then `visible`.
 */
export type Visibility = 'hidden' | 'existence' | 'visible' | 'reveal-on-trigger';

/** Who may read a log entry or an event. */
export type Audience = { readonly kind: 'all' } | { readonly kind: 'gm' } | { readonly kind: 'seat'; readonly seatId: string };

// ---------------------------------------------------------------- commands and events

/** Imperative, plain JSON: `{ type: 'countdown.tick', id: 'c1', by: 1 }`. */
export interface Command {
  readonly type: string;
  readonly [field: string]: Json | undefined;
}

/** Past tense, plain JSON: `{ type: 'countdown.ticked', id: 'c1', from: 3, to: 2 }`.
 * Every die rolled while deciding is inside the event, so replay never rerolls. */
export interface EngineEvent {
  readonly type: string;
  readonly [field: string]: Json | undefined;
}

/** What decide() may use besides the state: injected randomness and the actor. */
export interface Env {
  readonly rng: Rng;
  readonly actor: Viewer;
  /**
   * Decides another module's command on `world` under `env` (the engine fills it
   * in): a player's request, once approved, runs the ruleset's own command in the
   * same transaction, with the same checks as if the GM had sent it.
   */
  readonly decideCommand?: (world: World, command: Command, env: Env) => Result<EngineEvent[]>;
  /** Server wall-clock time (ms since the epoch) for display-only timers; recorded in the events that use it, like dice. */
  readonly now?: number;
}

// ---------------------------------------------------------------- the world

export interface Seat {
  readonly id: string;
  readonly name: string;
  /** Characters this seat's player may act for. */
  readonly characterIds: readonly string[];
}

export interface Character {
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  readonly seatId: string | null;
  readonly visibility: Visibility;
  /** Ruleset-owned numbers and flags (hit points, abilities, resources...). */
  readonly stats: { readonly [key: string]: Json };
}

/** The one in-fiction clock (DESIGN.md law 3): advanced only by events. */
export type ClockUnit = 'actionRoll' | 'beat' | 'turn' | 'round' | 'travelTurn' | 'shortRest' | 'longRest' | 'phase' | 'time';

export interface Clock {
  /** In-fiction seconds since the table's epoch (hour of day = floor(s / 3600) % 24). */
  readonly seconds: number;
  /** How many of each unit have elapsed since the table began. */
  readonly counts: { readonly [unit in ClockUnit]: number };
}

export interface LogEntry {
  /** Transaction that wrote it. */
  readonly tx: number;
  readonly audience: Audience;
  /** Stable kind for the UI (e.g. 'countdown.triggered'). */
  readonly kind: string;
  /** One sentence in our words, already safe for `audience`. */
  readonly text: string;
  /** What non-GM viewers read in place of `text`, when the sentence holds GM-only detail (a foe's HP, ADR 33). Never sent to them itself. */
  readonly shown?: string;
  readonly data?: Json;
}

export interface World {
  readonly tableId: string;
  readonly name: string;
  readonly rulesetId: string;
  /** Named, documented ruleset settings (rules README: "make each one a named setting"). */
  readonly settings: { readonly [key: string]: Json };
  readonly seats: { readonly [id: string]: Seat };
  readonly characters: { readonly [id: string]: Character };
  readonly clock: Clock;
  readonly log: readonly LogEntry[];
  /** Module-owned state, keyed by module id ('countdowns', 'encounter', 'osr', ...). */
  readonly ext: { readonly [moduleId: string]: Json };
  /** Counter for ids the engine mints (deterministic: no random ids in the core). */
  readonly nextId: number;
}

// ---------------------------------------------------------------- modules

export interface CommandHandler {
  /** Human label for undo / redo buttons and history ("advance the clock"); default: the command type. */
  readonly label?: string;
  /** Who may issue it; default: GM only. Return a FORBIDDEN error to refuse. */
  readonly authorize?: (world: World, command: Command, actor: Viewer) => RuleError | null;
  /** False: a player may not undo (or redo) this even when they issued it; only the GM may (a roll cannot be taken back to roll again). */
  readonly issuerMayRevert?: boolean;
  readonly decide: (world: World, command: Command, env: Env) => Result<EngineEvent[]>;
}

/** evolve() for one event type: total and pure, never validates, never rolls. */
export type Reducer = (world: World, event: EngineEvent) => World;

/**
 * A policy: after an event is applied in a transaction, it may emit follow-up
 * events (countdowns ticking on an action roll, a torch going out when the clock
 * passes its hour, conditions expiring at end of turn). Rolls go in the events.
 */
export type Reaction = (world: World, event: EngineEvent, env: Env) => EngineEvent[];

/**
 * Projection hook: remove or redact what `viewer` may not see. `source` is the full world before any module projected it (the engine always
 * passes it): a later module may need what an earlier one already removed
 * (e.g. which turns were hidden).
 */
export type Projector = (world: World, viewer: Viewer, source?: World) => World;

/** A part of the World a projector reads or replaces: a top-level field, or one module's state as `ext.<moduleId>`. */
export type WorldPart = 'tableId' | 'name' | 'rulesetId' | 'settings' | 'seats' | 'characters' | 'clock' | 'log' | 'nextId' | `ext.${string}`;

/**
 * What a projector looks at, so a caller can keep its output while those parts
 * keep their identity (the world is immutable). A projector without one is
 * re-run on every projection (the safe default).
 */
export interface ProjectorReads {
  /** Parts read, in the world it is given or in `source`: for equal (same-object) reads it must return equal written parts. */
  readonly reads: readonly WorldPart[];
  /** Parts it may replace; every other part it returns as the object it was given. */
  readonly writes: readonly WorldPart[];
  /**
   * It writes the log by keeping or dropping each entry as is, judged by the entry and
   * its `reads` alone (no reordering, no rewriting): when only new entries were
   * appended, it may be run on those alone. Leave `log` out of `reads` then.
   */
  readonly logByEntry?: boolean;
  /**
   * With `logByEntry`: what its judgement of a log entry reads in the world besides the entry,
   * as a value compared with ===. When another read changed but this value did not, every
   * entry it judged before keeps its fate, so it is run on the new entries alone. It must read
   * only the declared `reads` (worlds with the same reads are taken to have the same basis).
   */
  readonly logBasis?: (world: World) => string;
  /** Its output depends on which seat a player holds, not only on the role (cached per seat then). */
  readonly bySeat?: boolean;
  /**
   * Written parts that depend on fewer of the reads: those reads, by part. When the projector
   * re-runs for another read, such a part whose own reads are unchanged keeps last time's
   * object (equal, by the contract), so what reads it downstream is not re-run or re-sent.
   */
  readonly writtenFrom?: { readonly [part in WorldPart]?: readonly WorldPart[] };
}

/**
 * Does `id` name a record of this module's (a character, combatant, countdown,
 * sheet...) and may `viewer` see it? Undefined when the module has no record
 * with that id. It must agree with the module's projector: 'shown' exactly
 * when the projected world still has the record (ADR 18). One id at a time, so
 * refusing a player's command costs what the command names, not the table.
 */
export type IdStatus = (world: World, viewer: Viewer, id: string) => 'shown' | 'hidden' | undefined;

/** Per-event audience: who may see this event in history and deltas. Default: all. */
export type EventAudience = (world: World, event: EngineEvent) => Audience;

/**
 * A read-only question about the table ("what are the odds this attack hits?").
 * The engine answers it on the asking viewer's own projected world, so an
 * answer can never use what that viewer may not see. Pure: no dice, no I/O.
 */
export type Query = (world: World, args: { readonly [key: string]: Json }, viewer: Viewer) => Result<Json>;

export interface Module {
  readonly id: string;
  readonly commands?: { readonly [type: string]: CommandHandler };
  readonly reducers?: { readonly [type: string]: Reducer };
  readonly reactions?: readonly Reaction[];
  readonly project?: Projector;
  /** What `project` reads and writes (see ProjectorReads); without it the projector runs on every projection. */
  readonly projectReads?: ProjectorReads;
  /** Answers for the ids its projector may hide; a module without it has its whole state walked instead (slow, but exact). */
  readonly idStatus?: IdStatus;
  readonly audience?: { readonly [type: string]: EventAudience };
  /**
   * An event of this type as players and spectators read it in history, for
   * events that carry values their audience may not all read (a foe's
   * stats, a condition's undeclared params): what is left out stays with the
   * GM (ADR 33). Events of other types are shown whole to their audience.
   */
  readonly eventView?: { readonly [type: string]: (world: World, event: EngineEvent) => EngineEvent };
  /**
   * What of the world its `eventView`s read, as a key (ADR 45): two worlds with equal keys
   * must show every stored event alike (a foe rule's is `foeBasis`). Without it, a module
   * with an eventView counts every new world as a change (held history is re-made each time).
   */
  readonly eventViewBasis?: (world: World) => string;
  /** Named queries, e.g. '36th-way.attackOdds'; names are unique across modules like command types. */
  readonly queries?: { readonly [name: string]: Query };
  /** Declarations of its commands and queries (ADR 13): the engine parses each payload against them first. */
  readonly catalog?: Catalog;
  /** Names it renamed (ADR 28): stored commands, events and old clients are read under today's names. */
  readonly upcasts?: Upcasts;
  /** What undo / redo of each of its commands takes back, in words with names ("Bram's attack on Goblin 2"); see undo-words.ts. */
  readonly words?: { readonly [commandType: string]: CommandWords };
  /** The name of a record it keeps (a combatant), as `world` (a viewer's projection) has it; null when it holds none by that id. */
  readonly nameOf?: (world: World, id: string) => string | null;
}

// ---------------------------------------------------------------- history

/** One user command = one transaction (DESIGN.md law 4). */
export type Transaction =
  | {
      readonly seq: number;
      readonly kind: 'command';
      readonly actor: Viewer;
      readonly command: Command;
      /** The decided events plus every follow-up a reaction produced, in order. */
      readonly events: readonly EngineEvent[];
      /**
       * Who may see each event (parallel to `events`), fixed when the event happened
       * so a later reveal or removal never re-exposes (or re-hides) old history.
       * Absent on transactions stored before it existed: views then ask the modules.
       */
      readonly audiences?: readonly Audience[];
    }
  | { readonly seq: number; readonly kind: 'undo'; readonly actor: Viewer; readonly target: number }
  | { readonly seq: number; readonly kind: 'redo'; readonly actor: Viewer; readonly target: number };

/** The aggregate a room holds: the world plus what undo and redo need. */
export interface Table {
  readonly genesis: World;
  readonly world: World;
  /** Every transaction ever applied (append-only and shared between versions; the event store's rows). JSON: an array. */
  readonly transactions: TransactionLog;
  /** seqs of live command transactions, oldest first (undo pops the last). JSON: an array of seqs. */
  readonly live: SeqStack;
  /** seqs of undone command transactions that redo may re-apply, most recent last. JSON: an array of seqs. */
  readonly redoable: SeqStack;
}

/**
 * Every field of `T`, its optional ones included, each required: a table written out field by field (ADR 109: no
 * spread on the decide path) is checked with `satisfies EveryField<Table>`, so a field added to Table later fails
 * to compile where a table is written out until it is carried there (ADR 116).
 */
export type EveryField<T> = { readonly [K in keyof T]-?: unknown };

/** A Table as JSON gives it back (a snapshot, a test's copy): the engine accepts it wherever it takes a Table. */
export interface PlainTable {
  readonly genesis: World;
  readonly world: World;
  readonly transactions: readonly Transaction[];
  readonly live: readonly number[];
  readonly redoable: readonly number[];
}

// ---------------------------------------------------------------- engine and views

/** A transaction as one viewer may see it: hidden events removed (never replaced by placeholders). */
export interface TransactionView {
  readonly seq: number;
  readonly kind: 'command' | 'undo' | 'redo';
  readonly actor: Viewer;
  /** What it did, safe for the viewer. */
  readonly label: string;
  /** The command, only for the GM and for the viewer's own commands. */
  readonly command?: Command;
  /** For undo / redo: the command transaction it reverted or re-applied. */
  readonly target?: number;
  readonly events: readonly EngineEvent[];
}

export interface TableView {
  readonly world: World;
  readonly history: readonly TransactionView[];
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly undoLabel: string | null;
  readonly redoLabel: string | null;
  /** What undo / redo would take back in words, with the names this viewer may read ("Bram's attack on Goblin 2"); else the label. */
  readonly undoWords?: string | null;
  readonly redoWords?: string | null;
  /** Number of transactions applied (the optimistic-concurrency version). */
  readonly version: number;
}

export interface CreateTableInput {
  readonly tableId: string;
  readonly name: string;
  readonly rulesetId: string;
  readonly settings?: { readonly [key: string]: Json };
}

/** Which part of a viewer's history to build (all of it when empty). */
export interface HistoryOptions {
  /** At most this many entries, the newest. */
  readonly window?: number;
  /** Look at most this many transactions back from the newest. */
  readonly scan?: number;
  /** Only entries with a seq after this one. */
  readonly after?: number;
}

/** What a caller keeps per viewer between projections so unchanged parts stay the same objects (see Engine.project). */
export interface ViewMemo {
  /** A non-GM view's copy of each log entry (immutable: an entry never changes once written; any non-GM viewer may share it). */
  readonly entryCopies: WeakMap<LogEntry, LogEntry>;
  /**
   * The engine's own cache of projected parts, per visibility class (filled in by
   * Engine.project; one memo may serve every viewer of a table). Opaque to callers.
   */
  parts?: unknown;
}

export interface Engine {
  readonly modules: readonly Module[];
  createTable(input: CreateTableInput): Table;
  decide(world: World, command: Command, env: Env): Result<EngineEvent[]>;
  evolve(world: World, event: EngineEvent): World;
  execute(table: Table | PlainTable, command: Command, env: Env): Result<{ readonly table: Table; readonly transaction: Transaction }>;
  /** O(1) in the table's age (a command's or redo's events; an undo restores a kept world or replays at most a checkpoint interval). */
  apply(table: Table | PlainTable, transaction: Transaction): Table;
  replay(genesis: World, transactions: Iterable<Transaction>): Table;
  /** The viewer's view; `opts` cuts its history (built from the newest end, so the cost is bounded by the window, not the table's age). */
  view(table: Table | PlainTable, viewer: Viewer, opts?: HistoryOptions): TableView;
  /** The viewer's history entries, oldest first (see HistoryOptions). */
  history(table: Table | PlainTable, viewer: Viewer, opts?: HistoryOptions): TransactionView[];
  /**
   * What players' and spectators' reading of stored history depends on besides the events (ADR 45):
   * equal for two worlds only when every non-GM view of every history entry is the same in both.
   * A server holding a viewer's history re-makes it when this changes.
   */
  historyBasis(world: World): string;
  /** The view's undo and redo flags and labels for `viewer`. */
  undoState(table: Table | PlainTable, viewer: Viewer): Pick<TableView, 'canUndo' | 'canRedo' | 'undoLabel' | 'redoLabel' | 'undoWords' | 'redoWords'>;
  /**
   * The world as `viewer` may see it (every module's projector, then the log by audience).
   * With a memo (one per viewer), a log entry already copied for this viewer is the same object again.
   */
  project(world: World, viewer: Viewer, memo?: ViewMemo): World;
  /** Answers a module's query on `viewer`'s projected world (never the full one unless the viewer is the GM). */
  query(table: Table | PlainTable, viewer: Viewer, name: string, args?: Json): Result<Json>;
  /** Who may see `event` (every module's audience hook; default everyone). */
  audienceOf(world: World, event: EngineEvent): Audience;
  /** Is `id` a record at the table, and may `viewer` see it? Every module's idStatus, shown by any one winning (ADR 18). */
  idStatus(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined;
  /** Every declared command and query of its modules, in module order (ADR 13). */
  readonly catalog: readonly Declaration[];
  /**
   * A stored world read under today's names (settings keyed by a renamed namespace,
   * ADR 28): the server runs it on a genesis and a snapshot after reading them, never on stored bytes.
   */
  upcastWorld(world: World): World;
}
