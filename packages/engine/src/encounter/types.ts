// The encounter kernel's contract (docs/adr/0005-encounter-kernel.md).
// Rulesets plug their turn order, action economy, condition catalogue and
// end-of-turn hooks in through `EncounterRules`, then call
// `encounterModule(rules)` to get the 'encounter' Module. All state lives in
// world.ext.encounter as plain JSON; every change is an event.
import type { Rng } from '../dice/rng.js';
import type { EngineEvent, Json, Result, RuleError, World, WorldPart } from '../core/types.js';
import type { FoeFields } from '../foes/model.js';

// ---------------------------------------------------------------- combatants

export interface Combatant {
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  /** Side / team label ('party', 'guards'...). Turn order and surprise read it. */
  readonly side: string;
  /** The world.characters entry this combatant stands for, if any. */
  readonly characterId: string | null;
  /** Ruleset numbers the sequencer or hooks read (dex, edgeSave, creatureType...). */
  readonly stats: { readonly [key: string]: Json };
  /**
   * 'hidden': removed from non-GM views; 'existence': players see that
   * someone is there (as "Unknown", no stats, no conditions); 'visible'.
   */
  readonly visibility: 'hidden' | 'existence' | 'visible';
  /** Set by the GM or a ruleset (unconscious, stunned out of turns...): cannot take a turn. */
  readonly incapacitated: boolean;
  /** Cannot be surprised (003 danger sense): acts in a surprise round anyway. */
  readonly unsurprisable: boolean;
  /** The sequencer's placement (band, score, team, edge-save slot...), set when added. */
  readonly placement: Json;
  /** Join order, the last-resort tie-break everywhere. */
  readonly joined: number;
  /** A readied action (002): what, trigger text, and the round it was readied in. */
  readonly readied: { readonly action: string; readonly trigger: string; readonly round: number } | null;
}

// ---------------------------------------------------------------- decisions

/** Who must answer a decision. The GM may always answer; players only for their own characters. */
export type Chooser = { readonly kind: 'gm' } | { readonly kind: 'players'; readonly side: string };

/** "Team B: choose who acts", "PCs in band Fast: choose who goes next". */
export interface Decision {
  readonly prompt: string;
  readonly chooser: Chooser;
  /** Combatant ids that may be chosen (already validated as able and not yet acted). */
  readonly options: readonly string[];
  /** Used when the command gives no choice (GM-run NPC order). null = a choice is required. */
  readonly default: string | null;
  /** What choosing does: start that combatant's turn (default), or roll their initiative (004 Edge Saves). */
  readonly act?: 'turn' | 'roll';
}

export type Next =
  | { readonly kind: 'actor'; readonly id: string }
  | { readonly kind: 'decision'; readonly decision: Decision }
  | { readonly kind: 'roundOver' };

// ---------------------------------------------------------------- sequencers

/** What a sequencer may read when choosing the next actor. */
export interface SequencerView {
  readonly enc: EncounterState;
  /** Able to take a turn now (not incapacitated, ruleset's canAct). */
  readonly canAct: (id: string) => boolean;
}

/**
 * A turn-order strategy. Not a sorted list: `next` returns the next actor, a
 * decision for someone to make, or the end of the round. All functions are
 * pure; anything rolled is returned inside the result so it is recorded in
 * the event and replay never rolls.
 */
export interface Sequencer {
  readonly id: string;
  /** Placement for a combatant being added (start or mid-encounter). May roll. */
  place(enc: EncounterState, combatant: Combatant, input: Json | undefined, rng: Rng): Result<Json>;
  /** Sequencer state at encounter start (team order, NPC groups...). May re-place combatants. */
  setup(
    enc: EncounterState,
    params: Json | undefined,
    rng: Rng,
    /** The table's settings, for sequencers whose options are per-table choices. */
    settings?: { readonly [key: string]: Json },
  ): Result<{ readonly state: Json; readonly placements: { readonly [id: string]: Json } }>;
  /** Who acts in a surprise round, given the surprise parameters. */
  surprise(enc: EncounterState, params: SurpriseParams): Result<readonly string[]>;
  next(view: SequencerView): Next;
  /** Sequencer state after `id` started a turn (team alternation remembers the last team). */
  onTurnStarted?(enc: EncounterState, id: string): Json;
  /** Sequencer state at the start of a round. */
  onRoundStarted?(enc: EncounterState): Json;
  /** New placement for a delaying actor; the actor keeps it for the rest of the encounter. */
  delay?(enc: EncounterState, id: string, to: Json | undefined): Result<Json>;
  /**
   * Default-deny (ADR 10): the sequencer state and placements a player may see,
   * given which combatants their view keeps. Without this hook players get a
   * null state (and placements as stored). It must not reveal anything about
   * combatants `shown` rejects: not their ids, names, teams, groups or count.
   * `friend` is the engine's one foe rule turned round (ADR 45): a PC or a
   * seat's retainer, whose numbers are the party's (ADR 33 amendment, ADR 53).
   */
  project?(enc: EncounterState, shown: (id: string) => boolean, friend: (id: string) => boolean): { readonly state: Json; readonly placements: { readonly [id: string]: Json } };
  /**
   * Position of a combatant in the round's order (lower acts earlier) for
   * systems where a turn missed while unable is lost (001, 002, 004). When a
   * turn starts, every unable combatant ranked earlier who has not acted loses
   * this round's turn. Without it (003) they may act later once able.
   */
  rank?(enc: EncounterState, id: string): number;
  /**
   * The GM's manual order (drag or move up / down on the tracker): new
   * placements that put `id` just before `before` (last when null), by id.
   * Without it the turn order has no manual order (teams, spotlight, Edge Save slots: ADR 29).
   */
  reorder?(enc: EncounterState, id: string, before: string | null): Result<{ readonly [id: string]: Json }>;
  /**
   * New placements rolled at the start of a round, for a turn order that is a roll and an encounter that asked
   * for it (ADR 73); null when this encounter keeps its order. Rolled dice go inside the placements (recorded).
   */
  reroll?(enc: EncounterState, rng: Rng): { readonly [id: string]: Json } | null;
  /** Foes may share one initiative per type or per side (params.groupInitiative, ADR 73). */
  readonly groupInitiative?: boolean;
  /** Placement change when a readied action triggers before `before` (002), or null for none. */
  readyTriggered?(enc: EncounterState, id: string, before: string): Json | null;
}

export interface SurpriseParams {
  /** The side that has surprise. */
  readonly side: string;
  /** Chosen actors (002: two characters of the ambushing side). */
  readonly actors?: readonly string[];
}

// ---------------------------------------------------------------- action economy

/** When a pool refills, and when it may be spent. */
export interface PoolDef {
  readonly size: number;
  readonly resetOn: 'turnStart' | 'turnEnd' | 'roundStart';
  /** 'own' = only on your turn; 'off' = only outside your turn; 'any'. */
  readonly when: 'own' | 'off' | 'any';
}

/**
 * An action economy as data. `payers[kind]` lists the pools that can pay for
 * an action of that kind, best fit first (trade-downs / substitutions); an
 * empty list means the kind is free.
 */
export interface EconomyDef {
  readonly id: string;
  readonly pools: { readonly [pool: string]: PoolDef };
  readonly payers: { readonly [kind: string]: readonly string[] };
  /** A readied action taken in a later round before your turn uses up that action type on your turn (002). */
  readonly readiedActionOwed?: boolean;
  /** Pools whose actions may span turns when the cost exceeds what is left (003). */
  readonly extendedPools?: readonly string[];
}

export interface ExtendedAction {
  readonly label: string;
  readonly pool: string;
  readonly remaining: number;
}

/** Per-combatant economy, derived purely from events. */
export interface EconomyState {
  readonly spent: { readonly [pool: string]: number };
  /** Extra capacity until the pool's next reset (003 Wait gives a reaction). */
  readonly granted: { readonly [pool: string]: number };
  /** Spent ahead for the next turn (002 readied action used before your turn). */
  readonly owed: { readonly [pool: string]: number };
  /** Once-per-turn / once-per-round tags used. */
  readonly turnTags: readonly string[];
  readonly roundTags: readonly string[];
  readonly extended: ExtendedAction | null;
}

// ---------------------------------------------------------------- conditions

/** How a second application of the same condition to the same target behaves. */
export type Stacking =
  /** add stacks (up to maxStacks) to the existing instance; 004 */
  | 'stack'
  /** keep one instance; the newer duration replaces the older */
  | 'refresh'
  /** every application is its own instance (ongoing damage from two sources) */
  | 'separate';

export interface ConditionDef {
  readonly id: string;
  readonly name: string;
  readonly stacking: Stacking;
  readonly maxStacks?: number;
  /** Effects as data keyed by resolution code, e.g. { 'attack.advantage': -1, 'attacked.advantage': 1 }. */
  readonly effects: { readonly [code: string]: number };
  /** Multiply effects by stacks (004) instead of counting the condition once (002). */
  readonly effectsScaleWithStacks?: boolean;
  /** Loses a stack at the end of the bearer's turn unless gained that turn (004). */
  readonly fleeting?: boolean;
  /** Ongoing damage: the ruleset's onOngoing hook runs at end of the bearer's turn, before saves. */
  readonly ongoing?: boolean;
  /** Sets the bearer's escalation die to 0 (002 Shaken). */
  readonly zeroesEscalation?: boolean;
  /** The bearer cannot take turns while this is on them. */
  readonly incapacitates?: boolean;
  /** Economy pools the bearer cannot use while this is on them (002 Stunned: the move action). */
  readonly blocksPools?: readonly string[];
  /**
   * The keys of an instance's `params` that players may read, with their
   * types (36th Way Ongoing Damage: amount and type). Undeclared keys, and
   * values of another type, stay with the GM (ADR 33).
   */
  readonly params?: { readonly [key: string]: 'number' | 'string' | 'boolean' };
}

export type Duration =
  | { readonly kind: 'rounds'; readonly rounds: number }
  | { readonly kind: 'turnStart'; readonly of: string }
  | { readonly kind: 'turnEnd'; readonly of: string }
  | { readonly kind: 'saveEnds'; readonly save?: Json }
  | { readonly kind: 'encounterEnd' }
  | { readonly kind: 'rest'; readonly rest: 'short' | 'long' }
  /** Only stack loss (fleeting) or explicit removal ends it. */
  | { readonly kind: 'indefinite' };

export interface ConditionInstance {
  readonly id: string;
  readonly defId: string;
  readonly target: string;
  readonly source: string | null;
  readonly stacks: number;
  readonly duration: Duration;
  /** Ruleset data (ongoing damage amount and type...). */
  readonly params: Json;
  /** Global turn serial and round when applied (anchors 'next turn' durations). */
  readonly appliedTurn: number;
  readonly appliedRound: number;
  /** Stacks gained during turn `freshTurn` (protected from fleeting loss at that turn's end). */
  readonly freshTurn: number;
  readonly freshStacks: number;
}

/** What a condition picker needs: ids and names, and whether the ruleset rolls saves against "save ends". */
export interface ConditionCatalogue {
  /** `fleeting`: a picker offers no duration, stacks fall off at the bearer's turn ends (004). */
  readonly conditions: readonly { readonly id: string; readonly name: string; readonly stacking: Stacking; readonly maxStacks?: number; readonly fleeting?: boolean }[];
  readonly saveEnds: boolean;
  /** The turn order keeps no rounds (a spotlight): conditions last until removed or the fight's end, never N rounds. */
  readonly roundless?: boolean;
}

// ---------------------------------------------------------------- escalation die

export interface EscalationSettings {
  /** Value in round 1 (0); +1 at the start of each later round. */
  readonly start?: number;
  readonly max?: number;
}

export interface EscalationState {
  readonly offset: number;
  readonly suppressed: readonly string[];
}

// ---------------------------------------------------------------- encounter state

export interface EncounterState {
  readonly active: boolean;
  /** Which fight this is at the table: 1 for the first, counted up by each encounter.started (absent before the first). */
  readonly number?: number;
  /** 0 = the surprise round (if any); 1 = first normal round. */
  readonly round: number;
  readonly surpriseActors: readonly string[] | null;
  readonly combatants: { readonly [id: string]: Combatant };
  /** Combatant ids in join order. */
  readonly roster: readonly string[];
  readonly current: string | null;
  /** Who has taken their turn this round. */
  readonly acted: readonly string[];
  readonly pending: Decision | null;
  /** Global count of turns started (anchors durations). */
  readonly turnSerial: number;
  /** Serial of the turn each combatant is in / last had. */
  readonly lastTurn: { readonly [id: string]: number };
  /** Serials of turns taken while the combatant was hidden (the player view renumbers around them). */
  readonly hiddenTurns?: readonly number[];
  /** How many of those turns have ended (the player view's clock does not count them). */
  readonly hiddenTurnsEnded?: number;
  /** Ids of hidden combatants that left (removed, or a new encounter began): views keep hiding them. */
  readonly hiddenGone?: readonly string[];
  readonly seq: Json;
  readonly economy: { readonly [id: string]: EconomyState };
  readonly conditions: { readonly [instanceId: string]: ConditionInstance };
  readonly escalation: EscalationState;
  readonly nextJoin: number;
  /** Only in views, never stored: the kernel's onDeck() for that viewer (null when nobody, a choice, or a new round is next). */
  readonly onDeck?: string | null;
  /** Only in views, never stored: the ruleset's action economy (pools, sizes, payers). */
  readonly economyDef?: EconomyDef;
  /** Only in views, never stored: the ruleset's conditions (for the picker) and whether "save ends" is rolled. */
  readonly catalogue?: ConditionCatalogue;
}

// ---------------------------------------------------------------- hooks

export interface SaveOutcome {
  readonly success: boolean;
  /** The recorded roll (dice, total, target) for the log and replay. */
  readonly roll: Json;
}

/** What a ruleset plugs into the kernel. */
export interface EncounterRules {
  readonly sequencer: Sequencer;
  readonly economy: EconomyDef;
  readonly conditions: readonly ConditionDef[];
  readonly escalation?: EscalationSettings;
  /** Extra able-to-act test (0 HP, dying...); the kernel already checks incapacitated flags and conditions. */
  readonly canAct?: (world: World, combatant: Combatant) => boolean;
  /**
   * The world parts `canAct` reads besides the encounter (the projector asks it who is on deck).
   * Without it, a ruleset with a `canAct` has its encounter re-projected on every change.
   */
  readonly canActReads?: readonly WorldPart[];
  /** Ongoing damage for one instance at the end of its bearer's turn (runs before saves). */
  readonly onOngoing?: (world: World, instance: ConditionInstance, rng: Rng) => EngineEvent[];
  /** A save against a save-ends instance, rolled at the end of its bearer's turn. */
  readonly saveRoll?: (world: World, instance: ConditionInstance, rng: Rng) => SaveOutcome;
  /** Extra events at the start / end of a combatant's turn (death saves...). */
  readonly onTurnStart?: (world: World, combatantId: string, rng: Rng) => EngineEvent[];
  readonly onTurnEnd?: (world: World, combatantId: string, rng: Rng) => EngineEvent[];
  /**
   * Numbers the turn order reads from a linked character's sheet (OSR DEX,
   * Kleptonomicon Edge Save and Sneaky). The sequencer sees them over the
   * combatant's own stats; the stored combatant keeps only its own.
   */
  readonly sheetStats?: (world: World, combatant: Combatant) => { readonly [k: string]: Json };
  /**
   * Seconds of fiction one round takes on the table's clock (default 6): each
   * round's end moves it, and so does the end of the fight for the round in
   * progress (ADR 44). 0 for rounds that are no measure of time.
   */
  readonly secondsPerRound?: number;
  /**
   * The keys of a foe combatant's own stats (a builder's or stat block's) players
   * read once the GM reveals them (ADR 33, ADR 68): none by default, all when the
   * table shows every number. Without it a foe's own stats stay with the GM.
   */
  readonly foeStats?: FoeFields;
  /**
   * Why no encounter may start now, in words (the Kleptonomicon's Opening and
   * Closing Credits); null when one may. Read by encounter.start only, so a
   * stored encounter.started still replays whatever phase it began in.
   */
  readonly mayStart?: (world: World) => RuleError | null;
}

/** Pure helper results for rulesets. */
export type EncounterResult<T> = Result<T>;
