// The turn's actions (issue 20, ADR 23): one shape every ruleset's
// `<ns>.actions` query answers with, and the shared reading of the asker's
// view it starts from. The engine answers a query on the asker's own
// projection, so the targets listed here are only creatures the asker can
// see: a hidden foe is simply absent, as a made-up id would be.
import { asJson } from '@tablekeeper/engine/events';
import { combatantId, declareQuery, err, getEncounter, ok, own, planSpend, EMPTY_ECONOMY, type Combatant, type EconomyDef, type Json, type Module, type Query, type Result, type Viewer, type World } from '@tablekeeper/engine';
import { z } from 'zod';

/** A choice in a select: what is sent and what is shown. */
export interface ActionOption {
  readonly value: string;
  readonly label: string;
  /** A short note shown with it ("engaged", "out of reach"). */
  readonly note?: string;
  /** Numbers the form takes from this choice when it is picked (a target's defence), where this viewer may know them. */
  readonly sets?: { readonly [field: string]: number };
  /** A target's side as the one acting sees it: the picker lists foes before allies (ADR 52). */
  readonly side?: 'foe' | 'ally';
  /** A target that is down or dead is listed last and never the form's default (ADR 52); absent: standing. */
  readonly standing?: 'up' | 'down' | 'dead';
  /** Why the command would refuse this target now ("out of reach"), in words; such a target is never the default. */
  readonly refused?: string;
}

/** A number the person types, within the command's own limits. */
export interface ActionNumber {
  readonly field: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly value: number;
}

export interface TurnAction {
  /** Stable within a ruleset: 'attack', 'move', 'dash'... */
  readonly id: string;
  readonly label: string;
  /** What it costs, in the rule text's words ("1 standard action", "1 Beat", "free"). */
  readonly cost: string;
  /** The command the form sends. */
  readonly command: string;
  /** Fields the form sends as they are (who acts). */
  readonly fixed: { readonly [field: string]: Json };
  /**
   * The target picker: creatures this viewer can see. `multiple`: the field
   * takes a list; `max`: how many may be picked (default 1), each rolled and
   * given odds on its own; `label` names the picker where it picks no creature (Brandish: items to hold);
   * `aim`: 'allies' for a helping action (stabilize, help), whose picker lists allies first.
   */
  readonly target: {
    readonly field: string;
    readonly multiple: boolean;
    readonly max?: number;
    readonly label?: string;
    readonly aim?: 'foes' | 'allies';
    readonly options: readonly ActionOption[];
    /** Options ticked when the form opens (a morale check's whole side), the first of them the main target. */
    readonly picked?: readonly string[];
  } | null;
  /**
   * Other pickers (weapon, attack kind, range, movement style); `numeric`: the picked value is sent as a whole number
   * (advantage in words); `list`: several may be picked, sent as a list (an OSR check's light tags); an option
   * with the value '' is then the opening "none", not a pick.
   */
  readonly choices: readonly { readonly field: string; readonly label: string; readonly options: readonly ActionOption[]; readonly numeric?: boolean; readonly list?: boolean }[];
  readonly numbers: readonly ActionNumber[];
  /** Yes/no fields (proficient, sneak attack). */
  readonly flags: readonly { readonly field: string; readonly label: string; readonly value: boolean }[];
  /** Short text fields (damage dice as "1d8+1"), with the command's own length limit. */
  readonly texts: readonly { readonly field: string; readonly label: string; readonly value: string; readonly max: number; readonly suggestions?: readonly string[]; readonly readOnly?: boolean }[];
  /**
   * The query that gives exact odds before the roll: it is asked with `args`
   * plus the form's fields named in `pass`, each number moved by `shift` (where
   * the command adds a die of its own, as a maneuver's extra Disadvantage).
   */
  readonly odds: {
    readonly query: string;
    readonly args: { readonly [k: string]: Json };
    readonly pass: readonly string[];
    readonly shift?: { readonly [field: string]: number };
    /** Says where a shift comes from, shown with the odds (no die is added silently). */
    readonly note?: string;
    /** One roll for every pick together (a disengage from several enemies): one odds question with the whole list. */
    readonly together?: boolean;
    /** The same, only while this flag of the form is ticked (an OSR chase "as one group"). */
    readonly togetherWhen?: string;
  } | null;
  /** A one-tap action with a heavy cost asks once first, in these words (002's Flee: a Campaign Loss). */
  readonly confirm?: string;
  /** False when the rules forbid it now (no action left, nobody in reach); `reason` says why. */
  readonly allowed: boolean;
  readonly reason: string | null;
}

export interface ActionsAnswer {
  readonly combatantId: string;
  readonly name: string;
  /** Whether it is this combatant's turn now (some actions are only for one's own turn). */
  readonly onTurn: boolean;
  readonly actions: readonly TurnAction[];
}

// ---------------------------------------------------------------- the declaration

const option = z.strictObject({
  value: z.string(),
  label: z.string(),
  note: z.string().optional(),
  sets: z.record(z.string(), z.int()).optional(),
  side: z.enum(['foe', 'ally']).optional(),
  standing: z.enum(['up', 'down', 'dead']).optional(),
  refused: z.string().optional(),
});
export const actionSchema = z.strictObject({
  id: z.string(),
  label: z.string(),
  cost: z.string(),
  command: z.string(),
  fixed: z.record(z.string(), z.json()),
  target: z.strictObject({ field: z.string(), multiple: z.boolean(), max: z.int().min(1).optional(), label: z.string().optional(), aim: z.enum(['foes', 'allies']).optional(), options: z.array(option), picked: z.array(z.string()).optional() }).nullable(),
  choices: z.array(z.strictObject({ field: z.string(), label: z.string(), options: z.array(option), numeric: z.boolean().optional(), list: z.boolean().optional() })),
  numbers: z.array(z.strictObject({ field: z.string(), label: z.string(), min: z.int(), max: z.int(), value: z.int() })),
  flags: z.array(z.strictObject({ field: z.string(), label: z.string(), value: z.boolean() })),
  // `suggestions`: words the field offers (a datalist), any other text still allowed. `readOnly`: shown, never sent
  // (a player's damage on a hit comes from the sheet, ADR 56).
  texts: z.array(z.strictObject({ field: z.string(), label: z.string(), value: z.string(), max: z.int(), suggestions: z.array(z.string()).optional(), readOnly: z.boolean().optional() })),
  odds: z.strictObject({ query: z.string(), args: z.record(z.string(), z.json()), pass: z.array(z.string()), shift: z.record(z.string(), z.int()).optional(), note: z.string().optional(), together: z.boolean().optional(), togetherWhen: z.string().optional() }).nullable(),
  confirm: z.string().optional(),
  allowed: z.boolean(),
  reason: z.string().nullable(),
});
export const actionsResult = z.strictObject({ combatantId: z.string(), name: z.string(), onTurn: z.boolean(), actions: z.array(actionSchema) });

/** `<ns>.actions`: the same input and answer in every ruleset. */
export function declareActions(ns: string, summary: string) {
  return declareQuery(`${ns}.actions`, {
    summary,
    who: 'own-character',
    input: z.strictObject({ combatantId: combatantId('who acts (usually whose turn it is)') }),
    result: actionsResult,
  });
}

// ---------------------------------------------------------------- reading the asker's view

/** Who acts, as the asker's view holds them, and the economy they pay from. */
export interface Actor {
  readonly world: World;
  readonly viewer: Viewer;
  readonly combatant: Combatant;
  readonly onTurn: boolean;
  readonly def: EconomyDef;
}

/**
 * The acting combatant, or the error a made-up id gets. A player may ask
 * only about their own combatants (who: own-character); one they can see but
 * do not play is refused as FORBIDDEN, one they cannot see is NOT_FOUND.
 */
export function actorOf(world: World, viewer: Viewer, combatantId: string, fallback: EconomyDef): Result<Actor> {
  const enc = getEncounter(world);
  const c = enc.active ? own(enc.combatants, combatantId) : undefined;
  if (c === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(combatantId).slice(0, 70)} in a running encounter`, 'combatantId');
  if (viewer.role === 'spectator') return err('FORBIDDEN', 'a spectator takes no actions', 'combatantId');
  if (viewer.role === 'player') {
    const seat = own(world.seats, viewer.seatId);
    if (seat === undefined || c.characterId === null || !seat.characterIds.includes(c.characterId)) return err('FORBIDDEN', `${c.name} is not one of your characters`, 'combatantId');
  }
  return ok({ world, viewer, combatant: c, onTurn: enc.current === c.id, def: enc.economyDef ?? fallback });
}

/** Can the economy pay for this now? The kernel's own planner decides (as encounter.spend would). */
export function affordable(a: Actor, kind: string, cost = 1, extra: { tag?: string; limit?: 'turn' | 'round'; requires?: string; label?: string } = {}): { allowed: boolean; reason: string | null } {
  const econ = own(getEncounter(a.world).economy, a.combatant.id) ?? EMPTY_ECONOMY;
  const r = planSpend(a.def, econ, { kind, cost, onTurn: a.onTurn, ...extra });
  return r.ok ? { allowed: true, reason: null } : { allowed: false, reason: r.error.message };
}

/** The first of these checks that fails decides; none failing means allowed. */
export function judge(...checks: readonly { allowed: boolean; reason: string | null }[]): { allowed: boolean; reason: string | null } {
  return checks.find((c) => !c.allowed) ?? { allowed: true, reason: null };
}

export const forbid = (reason: string) => ({ allowed: false, reason });

/** Combatants of the running encounter this view holds, other than the actor, enemies first, in turn order. */
export function othersInView(a: Actor): Combatant[] {
  const enc = getEncounter(a.world);
  const all = Object.values(enc.combatants).filter((c) => c.id !== a.combatant.id);
  const rank = (c: Combatant) => (c.side === a.combatant.side ? 1 : 0);
  return all.sort((x, y) => rank(x) - rank(y) || x.joined - y.joined);
}

/** A target's side as the actor sees it (ADR 52): the web's picker orders by it. */
export const sideOf = (a: Actor, c: Combatant): 'foe' | 'ally' => (c.side === a.combatant.side ? 'ally' : 'foe');

/**
 * A target's standing by what every ruleset's tracker knows (ADR 52): out of
 * turns (incapacitated) or at 0 HP on its row is down. A ruleset that knows
 * more (dead, dying) says so itself.
 */
export const standingIn = (c: Combatant): 'up' | 'down' => (c.incapacitated || (typeof c.stats['hp'] === 'number' && c.stats['hp'] <= 0) ? 'down' : 'up');

/** The answer's wrapper, typed as the catalogue declares it. */
export function answer(a: Actor, actions: readonly TurnAction[]): Result<Json> {
  const out: ActionsAnswer = { combatantId: a.combatant.id, name: a.combatant.name, onTurn: a.onTurn, actions };
  return ok(asJson(out));
}

/** An action with the parts most leave empty filled in. */
export function action(a: Pick<TurnAction, 'id' | 'label' | 'cost' | 'command' | 'fixed'> & Partial<TurnAction>): TurnAction {
  return { target: null, choices: [], numbers: [], flags: [], texts: [], odds: null, allowed: true, reason: null, ...a };
}

/** A query answering `<ns>.actions` from a builder over the actor. */
export function actionsQuery(fallback: EconomyDef, build: (a: Actor) => Result<readonly TurnAction[]>): Query {
  return (world, args, viewer) => {
    const id = args['combatantId'];
    if (typeof id !== 'string') return err('INVALID_VALUE', 'combatantId must be a combatant id', 'combatantId');
    const a = actorOf(world, viewer, id, fallback);
    if (!a.ok) return a;
    const list = build(a.value);
    return list.ok ? answer(a.value, list.value) : list;
  };
}

/** The module with more queries answered (the actions query sits beside a module's own). */
export function withQueries<M extends Module>(module: M, queries: { readonly [name: string]: Query }): M {
  return { ...module, queries: { ...(module.queries ?? {}), ...queries } };
}
