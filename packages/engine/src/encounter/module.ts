// The 'encounter' Module: commands, reducers, reactions and the projector
// around the pure kernel (sequencers, economies, conditions, escalation die).
//
// Turn flow, all as events so undo reverses every step:
//   encounter.turnStarted -> (reaction) start-of-turn expiries, ruleset hook
//   encounter.turnEnded   -> (reaction) ongoing damage (ruleset hook), then
//   encounter.savesDue    -> (reaction) saves, fleeting stack loss, end-of-turn expiries, hook, then
//   encounter.turnClosed  -> (reaction) advance: next actor, a decision, or
//   encounter.roundEnded  -> (reaction) round-end expiries, then encounter.roundStarted -> advance
import { encounterCatalog } from './declarations.js';
import { own } from '../core/own.js';
import { ErrorCode } from '../core/result.js';
import type { SpendRequest } from './economies.js';
import type { Command, CommandHandler, EngineEvent, Env, Json, Module, ProjectorReads, Reaction, Reducer, Result, RuleError, Viewer, World } from '../core/types.js';
import { clockAdvanced } from '../core/clock.js';
import { appendLog } from '../core/log.js';
import { claimId, mintId } from '../core/ids.js';
import { AUDIENCE_ALL, AUDIENCE_GM } from '../core/visibility.js';
import { applySpend, grant, planSpend, resetEconomy, type Payment } from './economies.js';
import { escalationValue } from './escalation.js';
import {
  conditionDef,
  expiringAt,
  fleetingLosses,
  netEffectOf,
  parseDuration,
  planApply,
  reduceApplied,
  reduceRemoved,
  reduceStacked,
  reduceStackLost,
  type Moment,
} from './conditions.js';
import { combatantNamed, controlsCombatant, EMPTY_ECONOMY, EMPTY_ENCOUNTER, ENCOUNTER_ID, errR, getEncounter, okR, setEncounter, updateEncounter } from './state.js';
import type { Rng } from '../dice/rng.js';
import type { Combatant, ConditionCatalogue, ConditionInstance, Decision, Duration, EconomyState, EncounterRules, EncounterState, Next, SequencerView, SurpriseParams } from './types.js';

/** What the undo button says for the kernel's commands. */
export const ENCOUNTER_LABELS: { readonly [type: string]: string } = {
  'encounter.start': 'start an encounter',
  'encounter.end': 'end the encounter',
  'encounter.add': 'add a combatant',
  'encounter.remove': 'remove a combatant',
  'encounter.place': 'move a combatant in the order',
  'encounter.reorder': 'reorder the turns',
  'encounter.setStats': 'change a combatant\'s stats',
  'encounter.damage': 'deal damage',
  'encounter.heal': 'heal',
  'encounter.setIncapacitated': 'mark a combatant unable to act',
  'encounter.choose': 'choose who acts',
  'encounter.endTurn': 'end the turn',
  'encounter.advance': 'start the next turn',
  'encounter.delay': 'delay',
  'encounter.ready': 'ready an action',
  'encounter.triggerReady': 'trigger a readied action',
  'encounter.spend': 'spend an action',
  'encounter.cancelExtended': 'cancel an extended action',
  'encounter.grant': 'grant an action',
  'encounter.escalationOffset': 'adjust the escalation die',
  'encounter.escalationSuppress': 'hold the escalation die',
  'encounter.rest': 'rest',
  'encounter.hide': 'hide a combatant',
  'encounter.reveal': 'reveal a combatant',
  'encounter.obscure': 'show a combatant as unknown',
  'condition.apply': 'apply a condition',
  'condition.remove': 'remove a condition',
};

const MAX_COMBATANTS = 200;
/** Why a turn order keeps no manual order (ADR 29), in the GM's words. */
const NO_MANUAL: { readonly [sequencerId: string]: string } = {
  teams: 'teams take turns and each team picks who acts (003 "Initiative and Rounds")',
  spotlight: 'the spotlight moves by the rolls and the GM\'s choices (000)',
  'edge-save': 'each PC slots in by the Edge Saves rolled at the start (004 "Turn Order")',
};
const MAX_NAME = 80;
/** Most keys one combatant's own stats may hold (as for a character's sheet). */
const MAX_COMBATANT_STATS = 200;
/** Most hit points one press of the damage box may take or restore. */
const MAX_HP_CHANGE = 100000;

// ---------------------------------------------------------------- queries

/**
 * A foe is defeated when its own hit points (stats.hp, the tracker's track)
 * reach 0: it is skipped like an incapacitated one. PCs are left to the
 * ruleset (dying PCs still take turns for death saves in 002).
 */
export function isDefeated(c: Combatant): boolean {
  const hp = c.stats['hp'];
  return c.kind === 'npc' && typeof hp === 'number' && hp <= 0;
}

/** Able to take a turn: present, not incapacitated (flag or condition), and the ruleset agrees. */
export function canAct(world: World, rules: EncounterRules, id: string): boolean {
  const enc = getEncounter(world);
  const c = own(enc.combatants, id);
  if (c === undefined || c.incapacitated || isDefeated(c)) return false;
  for (const inst of Object.values(enc.conditions)) {
    if (inst.target !== id || rules.conditions.find((d) => d.id === inst.defId)?.incapacitates !== true) continue;
    // "Until the start of your next turn" ends as that turn begins, so it never costs the bearer the turn itself.
    if (inst.duration.kind === 'turnStart' && inst.duration.of === id) continue;
    return false;
  }
  return rules.canAct === undefined ? true : rules.canAct(world, c);
}

export function sequencerView(world: World, rules: EncounterRules): SequencerView {
  return { enc: getEncounter(world), canAct: (id) => canAct(world, rules, id) };
}

/** What happens next if the current turn ended now (does not change anything). */
export function peekNext(world: World, rules: EncounterRules): Next {
  const enc = getEncounter(world);
  const acted = enc.current !== null && !enc.acted.includes(enc.current) ? [...enc.acted, enc.current] : enc.acted;
  const view: SequencerView = { enc: { ...enc, acted, current: null }, canAct: (id) => canAct(world, rules, id) };
  return rules.sequencer.next(view);
}

/** The combatant on deck (null when the next one is someone's choice or the round ends). */
export function onDeck(world: World, rules: EncounterRules): string | null {
  const n = peekNext(world, rules);
  return n.kind === 'actor' ? n.id : null;
}

export function escalationFor(world: World, rules: EncounterRules, id: string | null = null): number {
  const enc = getEncounter(world);
  if (id !== null) {
    if (enc.escalation.suppressed.includes(id)) return 0;
    for (const inst of Object.values(enc.conditions)) {
      if (inst.target === id && rules.conditions.find((d) => d.id === inst.defId)?.zeroesEscalation === true) return 0;
    }
  }
  return escalationValue(enc, rules.escalation);
}

/** Net effect of conditions on `id` for a resolution code, e.g. 'attack.advantage'. */
export function netEffect(world: World, rules: EncounterRules, id: string, code: string): number {
  return netEffectOf(getEncounter(world), rules.conditions, id, code);
}

/**
 * Net advantage (positive) or disadvantage (negative) for `actor` doing
 * `action`, counting the actor's '<action>.advantage' effects and, with a
 * target, the target's '<action>ed.advantage'-style 'against.<action>.advantage' effects.
 */
export function netAdvantage(world: World, rules: EncounterRules, actor: string, action: string, target: string | null = null): number {
  const own = netEffect(world, rules, actor, `${action}.advantage`);
  return target === null ? own : own + netEffect(world, rules, target, `against.${action}.advantage`);
}

export function economyOf(world: World, id: string): EconomyState {
  return getEncounter(world).economy[id] ?? EMPTY_ECONOMY;
}

// ---------------------------------------------------------------- input parsing

function str(j: Json | undefined, path: string, max = MAX_NAME): Result<string> {
  if (typeof j !== 'string' || j.length === 0 || j.length > max) return errR(ErrorCode.INVALID_VALUE, `${path} must be a string of 1-${max} characters`, path);
  return okR(j);
}

/**
 * A combatant from its input. Without an id it takes its character's id, else
 * `fresh()` (a random id the caller mints and records in the event), so hidden
 * combatants are never guessable from visible ones (ADR 18).
 */
function parseCombatant(world: World, j: Json | undefined, joined: number, path: string, fresh: () => string): Result<Combatant> {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return errR(ErrorCode.INVALID_VALUE, `${path} must be an object`, path);
  const linked = typeof j['characterId'] === 'string' ? own(world.characters, j['characterId']) : undefined;
  const id = j['id'] === undefined ? okR(linked?.id ?? fresh()) : str(j['id'], `${path}.id`);
  if (!id.ok) return id;
  const name = j['name'] === undefined ? okR(j['id'] === undefined && linked !== undefined ? linked.name : id.value) : str(j['name'], `${path}.name`);
  if (!name.ok) return name;
  const kind = j['kind'];
  if (kind !== 'pc' && kind !== 'npc') return errR(ErrorCode.INVALID_VALUE, `${path}.kind must be "pc" or "npc"`, `${path}.kind`);
  const side = j['side'] === undefined ? okR(kind === 'pc' ? 'pcs' : 'npcs') : str(j['side'], `${path}.side`);
  if (!side.ok) return side;
  const stats = j['stats'] ?? {};
  if (stats === null || typeof stats !== 'object' || Array.isArray(stats)) return errR(ErrorCode.INVALID_VALUE, `${path}.stats must be an object`, `${path}.stats`);
  const ch = j['characterId'];
  if (ch !== undefined && ch !== null && typeof ch !== 'string') return errR(ErrorCode.INVALID_VALUE, `${path}.characterId must be a string`, `${path}.characterId`);
  const vis = j['visibility'] ?? 'visible';
  if (vis !== 'hidden' && vis !== 'existence' && vis !== 'visible') return errR(ErrorCode.INVALID_VALUE, `${path}.visibility must be "hidden", "existence" or "visible"`, `${path}.visibility`);
  return okR({
    id: id.value,
    name: name.value,
    kind,
    side: side.value,
    characterId: typeof ch === 'string' ? ch : null,
    stats,
    visibility: vis,
    incapacitated: j['incapacitated'] === true,
    unsurprisable: j['unsurprisable'] === true,
    placement: null,
    joined,
    readied: null,
  });
}

/** A map of numbers as players may read it: only its numbers (a pool's spent count...), nothing else it may hold. */
function numbers(m: { readonly [k: string]: number }): { [k: string]: number } {
  const out: { [k: string]: number } = {};
  for (const [k, v] of Object.entries(m)) if (typeof v === 'number') out[k] = v;
  return out;
}

/** A condition's duration, field by field; anchored to a hidden combatant's turn, players learn the kind, not whose turn. */
function shownDuration(d: Duration, keep: (id: string) => boolean): Duration {
  switch (d.kind) {
    case 'rounds': return { kind: 'rounds', rounds: d.rounds };
    case 'turnStart':
    case 'turnEnd': return { kind: d.kind, of: keep(d.of) ? d.of : '' };
    case 'saveEnds': return d.save === undefined ? { kind: 'saveEnds' } : { kind: 'saveEnds', save: d.save };
    case 'rest': return { kind: 'rest', rest: d.rest };
    case 'encounterEnd': return { kind: 'encounterEnd' };
    case 'indefinite': return { kind: 'indefinite' };
  }
}

function asJson(x: unknown): Json {
  return x as Json;
}

/** A linked combatant as the turn order reads it: the ruleset's sheet numbers over its own stats (rules.sheetStats). */
function withSheet(world: World, rules: EncounterRules, c: Combatant): Combatant {
  if (rules.sheetStats === undefined || c.characterId === null || own(world.characters, c.characterId) === undefined) return c;
  return { ...c, stats: { ...c.stats, ...rules.sheetStats(world, c) } };
}

function withSheets(world: World, rules: EncounterRules, enc: EncounterState): EncounterState {
  if (rules.sheetStats === undefined) return enc;
  return { ...enc, combatants: Object.fromEntries(Object.entries(enc.combatants).map(([id, c]) => [id, withSheet(world, rules, c)])) };
}

/**
 * For rulesets' own commands (an attack spends a standard action): the
 * validated `economy.spent` event for `combatantId`, given { kind, cost?, tag?, limit?, label? }.
 */
export function spendEvent(world: World, rules: EncounterRules, combatantId: string, command: { readonly [k: string]: Json | undefined }): Result<EngineEvent> {
  const enc = getEncounter(world);
  if (!enc.active) return errR('NO_ENCOUNTER', 'no encounter is running');
  if (own(enc.combatants, combatantId) === undefined) return errR(ErrorCode.NOT_FOUND, `no combatant "${combatantId}" in this encounter`, 'characterId');
  const kind = command['kind'];
  if (typeof kind !== 'string') return errR(ErrorCode.INVALID_VALUE, 'kind must name an action kind', 'kind');
  const cost = command['cost'] ?? 1;
  const tag = command['tag'];
  const limit = command['limit'];
  const label = command['label'];
  if (tag !== undefined && typeof tag !== 'string') return errR(ErrorCode.INVALID_VALUE, 'tag must be a string', 'tag');
  if (limit !== undefined && limit !== 'turn' && limit !== 'round') return errR(ErrorCode.INVALID_VALUE, 'limit must be "turn" or "round"', 'limit');
  if (label !== undefined && typeof label !== 'string') return errR(ErrorCode.INVALID_VALUE, 'label must be a string', 'label');
  const requires = command['requires'];
  if (requires !== undefined && typeof requires !== 'string') return errR(ErrorCode.INVALID_VALUE, 'requires must be a string', 'requires');
  const forNextTurn = command['forNextTurn'] === true;
  if (typeof cost !== 'number') return errR('BAD_COST', 'cost must be a number', 'cost');
  const req: SpendRequest = {
    kind,
    cost,
    onTurn: enc.current === combatantId,
    ...(tag !== undefined ? { tag } : {}),
    ...(limit === 'turn' || limit === 'round' ? { limit } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(requires !== undefined ? { requires } : {}),
    ...(forNextTurn ? { forNextTurn } : {}),
    blocked: Object.values(enc.conditions)
      .filter((i) => i.target === combatantId)
      .flatMap((i) => rules.conditions.find((d) => d.id === i.defId)?.blocksPools ?? []),
  };
  const pay = planSpend(rules.economy, enc.economy[combatantId] ?? EMPTY_ECONOMY, req);
  if (!pay.ok) return pay;
  return okR({
    type: 'economy.spent',
    combatant: combatantId,
    kind,
    cost,
    paid: asJson(pay.value.paid),
    extended: asJson(pay.value.extended),
    completed: pay.value.completed,
    tag: tag ?? null,
    limit: limit ?? null,
    // Paid out of the next turn's pool (004: a Beat that ends the Pause on your own turn); absent on ordinary spends.
    ...(forNextTurn ? { forNextTurn } : {}),
  });
}


// ---------------------------------------------------------------- authorization

const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that combatant may do this' };

function byController(field: string | 'current') {
  return (world: World, command: Command, actor: Viewer): RuleError | null => {
    const id = field === 'current' ? getEncounter(world).current : command[field];
    if (typeof id !== 'string') return actor.role === 'gm' ? null : FORBIDDEN;
    return controlsCombatant(world, actor, id) ? null : FORBIDDEN;
  };
}

// ---------------------------------------------------------------- the module

export function encounterModule(rules: EncounterRules): Module {
  const seqr = rules.sequencer;
  const secondsPerRound = 6;

  function needActive(world: World): Result<EncounterState> {
    const enc = getEncounter(world);
    return enc.active ? okR(enc) : errR('NO_ENCOUNTER', 'no encounter is running');
  }

  /** The combatant a creature id names: its combatant id or the character it plays (docs/vocabulary.md). */
  function needCombatant(enc: EncounterState, id: Json | undefined, path: string): Result<Combatant> {
    if (typeof id !== 'string') return errR(ErrorCode.INVALID_VALUE, `${path} must be a character or combatant id`, path);
    const c = combatantNamed(enc, id);
    return c === undefined ? errR(ErrorCode.NOT_FOUND, `no combatant "${id}" in this encounter`, path) : okR(c);
  }

  function needCurrent(enc: EncounterState): Result<string> {
    return enc.current === null ? errR('NO_CURRENT_TURN', enc.pending !== null ? `waiting for a decision: ${enc.pending.prompt}` : 'nobody is taking a turn') : okR(enc.current);
  }

  /** Unable combatants ranked before `id` who have not acted: their turn this round is lost. */
  function skipsBefore(world: World, id: string): EngineEvent[] {
    const enc = getEncounter(world);
    if (seqr.rank === undefined) return [];
    const r = seqr.rank(enc, id);
    return enc.roster
      .filter((x) => x !== id && !enc.acted.includes(x) && (enc.surpriseActors === null || enc.surpriseActors.includes(x)))
      .filter((x) => seqr.rank!(enc, x) < r && !canAct(world, rules, x))
      .map((x) => ({ type: 'encounter.turnSkipped', id: x, round: enc.round }));
  }

  /** A pending decision whose options changed (someone fell, left or was placed) is withdrawn and recomputed. */
  function refreshPending(world: World): EngineEvent[] {
    const enc = getEncounter(world);
    if (!enc.active || enc.current !== null || enc.pending === null) return [];
    const next = seqr.next(sequencerView(world, rules));
    if (next.kind === 'decision' && JSON.stringify(next.decision) === JSON.stringify(enc.pending)) return [];
    return [{ type: 'encounter.decisionWithdrawn' }];
  }

  /** A newcomer whose place in a ranked order has already passed this round waits for the next round. */
  function lateJoiner(world: World, id: string): EngineEvent[] {
    const enc = getEncounter(world);
    if (seqr.rank === undefined || enc.acted.includes(id)) return [];
    const ref = enc.current ?? enc.acted[enc.acted.length - 1];
    if (ref === undefined || ref === id) return [];
    return seqr.rank(enc, id) < seqr.rank(enc, ref) ? [{ type: 'encounter.joinedLate', id, round: enc.round }] : [];
  }

  /** Events for "what happens now": only when nobody is acting and nothing is pending. */
  function advance(world: World): EngineEvent[] {
    const enc = getEncounter(world);
    if (!enc.active || enc.current !== null || enc.pending !== null) return [];
    const next = seqr.next(sequencerView(world, rules));
    switch (next.kind) {
      case 'actor':
        return [...skipsBefore(world, next.id), { type: 'encounter.turnStarted', id: next.id, round: enc.round }];
      case 'decision':
        return [{ type: 'encounter.decisionPending', decision: asJson(next.decision) }];
      case 'roundOver': {
        // Nobody could act at all this round: stop rather than spin (the GM revives someone or ends it).
        if (enc.acted.length === 0) return [];
        // In a ranked order the unable who come last lose their turn too, as they would earlier in the round.
        const lost =
          seqr.rank === undefined
            ? []
            : enc.roster
                .filter((x) => !enc.acted.includes(x) && (enc.surpriseActors === null || enc.surpriseActors.includes(x)) && !canAct(world, rules, x))
                .map((x): EngineEvent => ({ type: 'encounter.turnSkipped', id: x, round: enc.round }));
        return [...lost, { type: 'encounter.roundEnded', round: enc.round }];
      }
    }
  }

  function expire(enc: EncounterState, moment: Moment, reason: string): EngineEvent[] {
    const of = moment.kind === 'turnStart' || moment.kind === 'turnEnd' ? { of: moment.id } : {};
    return expiringAt(enc, moment).map((c) => ({ type: 'condition.expired', id: c.id, target: c.target, condition: c.defId, reason, ...of }));
  }

  const commands: Record<string, CommandHandler> = {
    'encounter.start': {
      decide(world, command, env) {
        const enc0 = getEncounter(world);
        if (enc0.active) return errR('ENCOUNTER_RUNNING', 'an encounter is already running; end it first');
        const list = command['combatants'];
        if (!Array.isArray(list) || list.length === 0 || list.length > MAX_COMBATANTS) return errR(ErrorCode.INVALID_VALUE, `combatants must be a list of 1-${MAX_COMBATANTS}`, 'combatants');
        const combatants: Record<string, Combatant> = {};
        const roster: string[] = [];
        const placementsIn = command['placements'];
        let minting = world;
        const fresh = (): string => {
          const [id, next] = mintId(minting, 'cb', env.rng);
          minting = next;
          return id;
        };
        for (let i = 0; i < list.length; i++) {
          const c = parseCombatant(world, list[i], i, `combatants[${i}]`, fresh);
          if (!c.ok) return c;
          if (combatants[c.value.id] !== undefined) return errR('DUPLICATE_COMBATANT', `combatant "${c.value.id}" is listed twice`, `combatants[${i}].id`);
          combatants[c.value.id] = c.value;
          roster.push(c.value.id);
        }
        let enc: EncounterState = { ...EMPTY_ENCOUNTER, conditions: enc0.conditions, combatants, roster, nextJoin: roster.length };
        for (const id of roster) {
          const c = combatants[id]!;
          const input = placementsIn !== null && typeof placementsIn === 'object' && !Array.isArray(placementsIn) ? placementsIn[id] : undefined;
          const p = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, c), input ?? asJson(list[roster.indexOf(id)] ?? null), env.rng);
          if (!p.ok) return p;
          combatants[id] = { ...c, placement: p.value };
        }
        enc = { ...enc, combatants: { ...combatants } };
        const setup = seqr.setup(withSheets(world, rules, enc), command['params'], env.rng, world.settings);
        if (!setup.ok) return setup;
        for (const [id, p] of Object.entries(setup.value.placements)) {
          const c = combatants[id];
          if (c !== undefined) combatants[id] = { ...c, placement: p };
        }
        enc = { ...enc, combatants: { ...combatants }, seq: setup.value.state };
        let surpriseActors: readonly string[] | null = null;
        const sp = command['surprise'];
        if (sp !== undefined && sp !== null) {
          if (typeof sp !== 'object' || Array.isArray(sp) || typeof sp['side'] !== 'string') return errR(ErrorCode.INVALID_VALUE, 'surprise must be { side, actors? }', 'surprise');
          const actors = sp['actors'];
          if (actors !== undefined && (!Array.isArray(actors) || !actors.every((a) => typeof a === 'string'))) return errR(ErrorCode.INVALID_VALUE, 'surprise.actors must be a list of ids', 'surprise.actors');
          const params: SurpriseParams = actors === undefined ? { side: sp['side'] } : { side: sp['side'], actors: actors as string[] };
          const who = seqr.surprise(enc, params);
          if (!who.ok) return who;
          surpriseActors = who.value;
        }
        return okR([
          {
            type: 'encounter.started',
            combatants: asJson(roster.map((id) => combatants[id])),
            seq: setup.value.state,
            surpriseActors: asJson(surpriseActors),
            round: surpriseActors === null ? 1 : 0,
          },
        ]);
      },
    },
    'encounter.end': {
      decide(world) {
        const a = needActive(world);
        if (!a.ok) return a;
        return okR([{ type: 'encounter.ended', round: a.value.round }]);
      },
    },
    'encounter.add': {
      decide(world, command, env) {
        const a = needActive(world);
        if (!a.ok) return a;
        const enc = a.value;
        if (enc.roster.length >= MAX_COMBATANTS) return errR('TOO_MANY', `at most ${MAX_COMBATANTS} combatants`);
        const c = parseCombatant(world, command['combatant'], enc.nextJoin, 'combatant', () => mintId(world, 'cb', env.rng)[0]);
        if (!c.ok) return c;
        if (own(enc.combatants, c.value.id) !== undefined) return errR('DUPLICATE_COMBATANT', `combatant "${c.value.id}" is already in the encounter`, 'combatant.id');
        const p = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, c.value), command['placement'] ?? command['combatant'], env.rng);
        if (!p.ok) return p;
        return okR([{ type: 'encounter.combatantAdded', combatant: asJson({ ...c.value, placement: p.value }) }]);
      },
    },
    'encounter.remove': {
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        return okR([{ type: 'encounter.combatantRemoved', id: c.value.id }]);
      },
    },
    'encounter.place': {
      // The GM moves someone in the order (a band change from an effect, a new team, re-rolled Edge Saves).
      decide(world, command, env) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        const p = seqr.place(withSheets(world, rules, a.value), withSheet(world, rules, c.value), command['placement'], env.rng);
        if (!p.ok) return p;
        return okR([{ type: 'encounter.placed', id: c.value.id, placement: p.value }]);
      },
    },
    'encounter.reorder': {
      // The GM's manual order (ADR 29): the turn order's own hook says what placements that takes, one placed event each.
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        let before: string | null = null;
        if ((command['beforeId'] ?? null) !== null) {
          const b = needCombatant(a.value, command['beforeId'], 'beforeId');
          if (!b.ok) return b;
          if (b.value.id === c.value.id) return errR(ErrorCode.INVALID_VALUE, 'beforeId: a combatant cannot go before itself', 'beforeId');
          before = b.value.id;
        }
        if (seqr.reorder === undefined) return errR('NO_MANUAL_ORDER', `this turn order (${seqr.id}) has no manual order: ${NO_MANUAL[seqr.id] ?? 'it decides who acts as the round goes'}`, 'characterId');
        const r = seqr.reorder(a.value, c.value.id, before);
        if (!r.ok) return r;
        return okR(Object.entries(r.value).map(([id, placement]) => ({ type: 'encounter.placed', id, placement })));
      },
    },
    'encounter.damage': hpCommand('damage'),
    'encounter.heal': hpCommand('heal'),
    'encounter.setStats': {
      // The GM edits a combatant's own numbers (an unlinked NPC's HP or another track); a linked character's sheet is character.update's.
      decide(world, command) {
        const c = needCombatant(getEncounter(world), command['characterId'], 'characterId');
        if (!c.ok) return c;
        const stats = command['stats'];
        if (stats === null || typeof stats !== 'object' || Array.isArray(stats) || Object.keys(stats).length === 0) return errR(ErrorCode.INVALID_VALUE, 'stats must be an object with at least one key', 'stats');
        for (const [k, v] of Object.entries(stats)) {
          if (v !== null && typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean') return errR(ErrorCode.INVALID_VALUE, `stats.${k} must be a number, text, true/false or null`, `stats.${k}`);
        }
        if (Object.keys({ ...c.value.stats, ...stats }).length > MAX_COMBATANT_STATS) return errR('TOO_MANY', `a combatant may have at most ${MAX_COMBATANT_STATS} stats`, 'stats');
        // Own keys only: a stat named "constructor" must not read Object's member.
        const from = Object.fromEntries(Object.keys(stats).map((k) => [k, Object.hasOwn(c.value.stats, k) ? (c.value.stats[k] ?? null) : null]));
        return okR([{ type: 'encounter.statsSet', id: c.value.id, stats, from }]);
      },
    },
    'encounter.hide': visibilityCommand('hidden'),
    'encounter.reveal': visibilityCommand('visible'),
    'encounter.obscure': visibilityCommand('existence'),
    'encounter.setIncapacitated': {
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        if (typeof command['value'] !== 'boolean') return errR(ErrorCode.INVALID_VALUE, 'value must be true or false', 'value');
        return okR([{ type: 'encounter.incapacitatedSet', id: c.value.id, value: command['value'] }]);
      },
    },
    'encounter.choose': {
      authorize(world, command, actor) {
        if (actor.role === 'gm') return null;
        const pending = getEncounter(world).pending;
        const id = command['id'];
        if (pending === null || pending.chooser.kind !== 'players' || typeof id !== 'string') return FORBIDDEN;
        return controlsCombatant(world, actor, id) ? null : FORBIDDEN;
      },
      decide(world, command, env) {
        const a = needActive(world);
        if (!a.ok) return a;
        const enc = a.value;
        const pending = enc.pending;
        if (pending === null) return errR('NO_DECISION', 'no decision is waiting');
        const choice = command['id'] ?? pending.default;
        if (typeof choice !== 'string') return errR('CHOICE_REQUIRED', `${pending.prompt}: choose one of ${pending.options.join(', ')}`, 'id');
        if (!pending.options.includes(choice)) return errR('INVALID_CHOICE', `"${choice}" cannot act now; choose one of ${pending.options.join(', ')}`, 'id');
        if (pending.act === 'roll') {
          const c = own(enc.combatants, choice);
          if (c === undefined) return errR(ErrorCode.NOT_FOUND, `no combatant "${choice}"`, 'id');
          const p = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, c), undefined, env.rng);
          if (!p.ok) return p;
          return okR([{ type: 'encounter.placed', id: choice, placement: p.value }]);
        }
        if (!canAct(world, rules, choice)) return errR('INVALID_CHOICE', `"${choice}" is no longer able to act`, 'id');
        return okR([...skipsBefore(world, choice), { type: 'encounter.turnStarted', id: choice, round: enc.round }]);
      },
    },
    'encounter.endTurn': {
      authorize: byController('current'),
      decide(world) {
        const a = needActive(world);
        if (!a.ok) return a;
        const cur = needCurrent(a.value);
        if (!cur.ok) return cur;
        return okR([{ type: 'encounter.turnEnded', id: cur.value, round: a.value.round }]);
      },
    },
    'encounter.advance': {
      decide(world) {
        const a = needActive(world);
        if (!a.ok) return a;
        const ev = advance(world);
        return ev.length === 0 ? errR('CANNOT_ADVANCE', a.value.current !== null || a.value.pending !== null ? 'a turn or decision is already under way' : 'nobody is able to act') : okR(ev);
      },
    },
    'encounter.delay': {
      authorize: byController('current'),
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const cur = needCurrent(a.value);
        if (!cur.ok) return cur;
        if (seqr.delay === undefined) return errR('NO_DELAY', `the ${seqr.id} turn order has no delay`);
        const p = seqr.delay(a.value, cur.value, command['to']);
        if (!p.ok) return p;
        return okR([{ type: 'encounter.delayed', id: cur.value, placement: p.value }]);
      },
    },
    'encounter.ready': {
      authorize: byController('current'),
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const cur = needCurrent(a.value);
        if (!cur.ok) return cur;
        const action = str(command['action'], 'action');
        if (!action.ok) return action;
        // Only actions paid on your own turn can be readied (not free actions or interrupts).
        const payer = rules.economy.payers[action.value]?.[0];
        if (payer === undefined || rules.economy.pools[payer]?.when === 'off') {
          return errR('UNKNOWN_ACTION', `cannot ready "${action.value}"; readiable: ${Object.entries(rules.economy.payers).filter(([, p]) => p.length > 0 && rules.economy.pools[p[0]!]?.when !== 'off').map(([k]) => k).join(', ')}`, 'action');
        }
        const trigger = str(command['trigger'], 'trigger', 200);
        if (!trigger.ok) return trigger;
        const enc = a.value;
        return okR([
          { type: 'encounter.readied', id: cur.value, action: action.value, trigger: trigger.value, round: enc.round },
          { type: 'encounter.turnEnded', id: cur.value, round: enc.round },
        ]);
      },
    },
    'encounter.triggerReady': {
      authorize: byController('characterId'),
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const enc = a.value;
        const c = needCombatant(enc, command['characterId'], 'characterId');
        if (!c.ok) return c;
        const before = needCombatant(enc, command['beforeId'], 'beforeId');
        if (!before.ok) return before;
        const r = c.value.readied;
        if (r === null) return errR('NOT_READIED', `"${c.value.id}" has no readied action`, 'characterId');
        const placement = seqr.readyTriggered?.(enc, c.value.id, before.value.id) ?? null;
        // Taken in a later round before your own turn: that action is spent from your coming turn (002).
        const forNextTurn = rules.economy.readiedActionOwed === true && r.round < enc.round && !enc.acted.includes(c.value.id);
        return okR([{ type: 'encounter.readyTaken', id: c.value.id, before: before.value.id, action: r.action, placement, forNextTurn }]);
      },
    },
    'encounter.spend': {
      authorize: byController('characterId'),
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        const e = spendEvent(world, rules, c.value.id, command);
        return e.ok ? okR([e.value]) : e;
      },
    },
    'encounter.cancelExtended': {
      authorize: byController('characterId'),
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        const ext = a.value.economy[c.value.id]?.extended ?? null;
        if (ext === null) return errR('NO_EXTENDED', `"${c.value.id}" has no extended action under way`);
        return okR([{ type: 'economy.extendedCancelled', combatant: c.value.id, label: ext.label }]);
      },
    },
    'encounter.grant': {
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        const pool = command['pool'];
        const n = command['n'] ?? 1;
        if (typeof pool !== 'string' || rules.economy.pools[pool] === undefined) return errR(ErrorCode.INVALID_VALUE, `pool must be one of ${Object.keys(rules.economy.pools).join(', ')}`, 'pool');
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10) return errR(ErrorCode.INVALID_VALUE, 'n must be an integer in [1, 10]', 'n');
        return okR([{ type: 'economy.granted', combatant: c.value.id, pool, n }]);
      },
    },
    'encounter.escalationOffset': {
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const off = command['offset'];
        if (typeof off !== 'number' || !Number.isInteger(off) || off < -6 || off > 6) return errR(ErrorCode.INVALID_VALUE, 'offset must be an integer in [-6, 6]', 'offset');
        return okR([{ type: 'encounter.escalationOffsetSet', offset: off }]);
      },
    },
    'encounter.escalationSuppress': {
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        if (typeof command['suppressed'] !== 'boolean') return errR(ErrorCode.INVALID_VALUE, 'suppressed must be true or false', 'suppressed');
        return okR([{ type: 'encounter.escalationSuppressed', id: c.value.id, suppressed: command['suppressed'] }]);
      },
    },
    'condition.apply': {
      decide(world, command, env) {
        // The kernel's applier (shared with the rulesets' own commands) reads target and source.
        // A character id names its combatant (docs/vocabulary.md: one id for a creature).
        const { targetId, sourceId, ...rest } = command;
        const enc = getEncounter(world);
        const idOf = (id: Json | undefined) => (typeof id === 'string' ? (combatantNamed(enc, id)?.id ?? id) : id);
        const e = applyConditionEvent(world, rules, { ...rest, target: idOf(targetId), source: idOf(sourceId) }, 0, env.rng);
        if (e.ok) return okR([e.value]);
        const path = e.error.path === 'target' ? 'targetId' : e.error.path === 'source' ? 'sourceId' : e.error.path;
        return path === e.error.path ? e : { ok: false, error: { ...e.error, path } };
      },
    },
    'condition.remove': {
      decide(world, command) {
        const id = command['conditionId'];
        const enc = getEncounter(world);
        const inst = typeof id === 'string' ? own(enc.conditions, id) : undefined;
        if (inst === undefined) return errR(ErrorCode.NOT_FOUND, `no condition instance ${JSON.stringify(id ?? null)}`, 'conditionId');
        return okR([{ type: 'condition.removed', id: inst.id, target: inst.target }]);
      },
    },
    'encounter.rest': {
      // A rest is time on the one clock; until-rest conditions end by reacting to it (see the phases reaction).
      decide(world, command) {
        const rest = command['rest'];
        if (rest !== 'short' && rest !== 'long') return errR(ErrorCode.INVALID_VALUE, 'rest must be "short" or "long"', 'rest');
        return okR([clockAdvanced(world, rest === 'long' ? 'longRest' : 'shortRest', 1, 0)]);
      },
    },
  };

  /**
   * The damage box: take or restore hit points on the combatant's own hp, or
   * on its linked character's when the combatant has none. Healing stops at
   * maxHp when there is one; damage stops at 0. Rulesets with damage modes
   * (resistance, armour, endurance) keep their own commands.
   */
  function hpCommand(kind: 'damage' | 'heal'): CommandHandler {
    return {
      decide(world, command) {
        const c = needCombatant(getEncounter(world), command['characterId'], 'characterId');
        if (!c.ok) return c;
        const amount = command['amount'];
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > MAX_HP_CHANGE) {
          return errR(ErrorCode.INVALID_VALUE, `amount must be a whole number from 1 to ${MAX_HP_CHANGE}`, 'amount');
        }
        const ch = c.value.characterId === null ? undefined : world.characters[c.value.characterId];
        const own = typeof c.value.stats['hp'] === 'number';
        const stats = own ? c.value.stats : ch?.stats;
        const hp = stats?.['hp'];
        if (typeof hp !== 'number') return errR('NO_HP', `${c.value.name} has no hit points to change: give them HP first`, 'characterId');
        const max = stats?.['maxHp'];
        const to = kind === 'damage' ? Math.max(0, hp - amount) : typeof max === 'number' ? Math.max(hp, Math.min(max, hp + amount)) : hp + amount;
        return okR([{ type: 'encounter.hpChanged', id: c.value.id, on: own ? 'combatant' : 'character', kind, amount, from: hp, to }]);
      },
    };
  }

  function visibilityCommand(to: 'hidden' | 'existence' | 'visible'): CommandHandler {
    return {
      decide(world, command) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, command['characterId'], 'characterId');
        if (!c.ok) return c;
        return okR([{ type: 'encounter.visibilitySet', id: c.value.id, visibility: to }]);
      },
    };
  }

  // -------------------------------------------------------------- reducers

  const onEnc = (fn: (enc: EncounterState, e: EngineEvent, world: World) => EncounterState): Reducer => (world, e) => setEncounter(world, fn(getEncounter(world), e, world));
  const econ = (enc: EncounterState, id: string, fn: (s: EconomyState) => EconomyState): EncounterState => ({
    ...enc,
    economy: { ...enc.economy, [id]: fn(enc.economy[id] ?? EMPTY_ECONOMY) },
  });
  /** Remember ids of hidden combatants that leave, so views keep hiding whatever still names them. */
  const withGone = (enc: EncounterState, ids: readonly string[]): { hiddenGone?: readonly string[] } => {
    const prev = enc.hiddenGone ?? [];
    const add = ids.filter((id) => !prev.includes(id));
    return add.length === 0 ? (enc.hiddenGone === undefined ? {} : { hiddenGone: prev }) : { hiddenGone: [...prev, ...add] };
  };
  const withCombatant = (enc: EncounterState, id: string, fn: (c: Combatant) => Combatant): EncounterState => {
    const c = own(enc.combatants, id);
    return c === undefined ? enc : { ...enc, combatants: { ...enc.combatants, [id]: fn(c) } };
  };
  /** A log entry about a combatant: GM-only while hidden, nameless while only known to exist. */
  const logAbout = (world: World, c: Combatant | undefined, kind: string, text: (name: string) => string): World => {
    if (c === undefined) return world;
    const audience = c.visibility === 'hidden' ? AUDIENCE_GM : AUDIENCE_ALL;
    return appendLog(world, { audience, kind, text: text(c.visibility === 'existence' ? 'Unknown' : c.name), data: { id: c.id } });
  };

  const reducers: Record<string, Reducer> = {
    'encounter.started': onEnc((enc, e) => {
      const list = e['combatants'] as unknown as Combatant[];
      const combatants: Record<string, Combatant> = {};
      for (const c of list) combatants[c.id] = c;
      return {
        ...EMPTY_ENCOUNTER,
        conditions: enc.conditions,
        active: true,
        // Counted here, not carried in the event, so tables recorded before numbering replay to the same count.
        number: (enc.number ?? 0) + 1,
        round: Number(e['round']),
        combatants,
        roster: list.map((c) => c.id),
        nextJoin: list.length,
        seq: e['seq'] ?? null,
        surpriseActors: (e['surpriseActors'] as unknown as string[] | null) ?? null,
        turnSerial: enc.turnSerial,
        ...(enc.hiddenTurns !== undefined ? { hiddenTurns: enc.hiddenTurns } : {}),
        ...(enc.hiddenTurnsEnded !== undefined ? { hiddenTurnsEnded: enc.hiddenTurnsEnded } : {}),
        // The last encounter's hidden combatants stay secret (lingering conditions may still name them).
        ...withGone(enc, enc.roster.filter((id) => own(enc.combatants, id)?.visibility === 'hidden')),
      };
    }),
    'encounter.ended': onEnc((enc) => ({ ...enc, active: false, current: null, pending: null })),
    'encounter.combatantAdded': onEnc((enc, e) => {
      const c = e['combatant'] as unknown as Combatant;
      // A pending choice is recomputed so the newcomer can be offered.
      return { ...enc, combatants: { ...enc.combatants, [c.id]: c }, roster: [...enc.roster, c.id], nextJoin: Math.max(enc.nextJoin, c.joined + 1), pending: null };
    }),
    'encounter.combatantRemoved': onEnc((enc, e) => {
      const id = String(e['id']);
      const combatants = { ...enc.combatants };
      delete combatants[id];
      const economy = { ...enc.economy };
      delete economy[id];
      const conditions = Object.fromEntries(Object.entries(enc.conditions).filter(([, c]) => c.target !== id));
      const pending = enc.pending === null ? null : enc.pending.options.includes(id) ? null : enc.pending;
      const lastTurn = { ...enc.lastTurn };
      delete lastTurn[id];
      return {
        ...enc,
        ...withGone(enc, own(enc.combatants, id)?.visibility === 'hidden' ? [id] : []),
        lastTurn,
        combatants,
        economy,
        conditions,
        roster: enc.roster.filter((r) => r !== id),
        acted: enc.acted.filter((r) => r !== id),
        current: enc.current === id ? null : enc.current,
        pending,
        surpriseActors: enc.surpriseActors?.filter((r) => r !== id) ?? null,
      };
    }),
    'encounter.hpChanged': (world, e) => {
      const id = String(e['id']);
      const to = Number(e['to']);
      if (e['on'] === 'combatant') return updateEncounter(world, (enc) => withCombatant(enc, id, (c) => ({ ...c, stats: { ...c.stats, hp: to } })));
      const chId = own(getEncounter(world).combatants, id)?.characterId;
      const ch = chId === null || chId === undefined ? undefined : world.characters[chId];
      return ch === undefined ? world : { ...world, characters: { ...world.characters, [ch.id]: { ...ch, stats: { ...ch.stats, hp: to } } } };
    },
    'encounter.statsSet': onEnc((enc, e) => withCombatant(enc, String(e['id']), (c) => ({ ...c, stats: { ...c.stats, ...(e['stats'] as { readonly [k: string]: Json }) } }))),
    'encounter.visibilitySet': onEnc((enc, e) => withCombatant(enc, String(e['id']), (c) => ({ ...c, visibility: e['visibility'] === 'hidden' || e['visibility'] === 'existence' ? e['visibility'] : 'visible' }))),
    'encounter.incapacitatedSet': onEnc((enc, e) => {
      const id = String(e['id']);
      const next = withCombatant(enc, id, (c) => ({ ...c, incapacitated: e['value'] === true }));
      // A pending choice is recomputed after any change in who can act.
      return { ...next, pending: null };
    }),
    'encounter.decisionWithdrawn': onEnc((enc) => ({ ...enc, pending: null })),
    'encounter.decisionPending': onEnc((enc, e) => ({ ...enc, pending: e['decision'] as unknown as Decision })),
    'encounter.turnStarted': (world, e) => {
      const enc = getEncounter(world);
      const id = String(e['id']);
      // The serial is counted here, not carried in the event: a visible turn's event must not reveal how many hidden turns came before.
      const serial = enc.turnSerial + 1;
      const who = own(enc.combatants, id);
      const hidden = who?.visibility === 'hidden';
      let next: EncounterState = {
        ...enc,
        current: id,
        pending: null,
        turnSerial: serial,
        lastTurn: { ...enc.lastTurn, [id]: serial },
        ...(hidden ? { hiddenTurns: [...(enc.hiddenTurns ?? []), serial] } : {}),
      };
      next = withCombatant(next, id, (c) => ({ ...c, readied: null }));
      next = econ(next, id, (s) => resetEconomy(rules.economy, s, 'turnStart'));
      if (seqr.onTurnStarted !== undefined) next = { ...next, seq: seqr.onTurnStarted(next, id) };
      return logAbout(setEncounter(world, next), who, 'encounter.turnStarted', (name) => `${name}: turn ${e['round'] === 0 ? 'in the surprise round' : 'starts'}.`);
    },
    'encounter.turnEnded': (world, e) => {
      const id = String(e['id']);
      return updateEncounter(world, (enc) => {
        const wasHidden = (enc.hiddenTurns ?? []).includes(enc.lastTurn[id] ?? -1);
        const next = { ...enc, current: null, acted: enc.acted.includes(id) ? enc.acted : [...enc.acted, id], ...(wasHidden ? { hiddenTurnsEnded: (enc.hiddenTurnsEnded ?? 0) + 1 } : {}) };
        return econ(next, id, (s) => resetEconomy(rules.economy, s, 'turnEnd'));
      });
    },
    'encounter.joinedLate': onEnc((enc, e) => {
      const id = String(e['id']);
      return enc.acted.includes(id) ? enc : { ...enc, acted: [...enc.acted, id] };
    }),
    'encounter.turnSkipped': onEnc((enc, e) => {
      const id = String(e['id']);
      return enc.acted.includes(id) ? enc : { ...enc, acted: [...enc.acted, id] };
    }),
    'encounter.savesDue': (world) => world,
    'encounter.turnClosed': (world) => world,
    // The table clock moves through the core's clock.advanced events (emitted by the phases reaction), never here.
    'encounter.roundEnded': (world) => world,
    'encounter.roundStarted': onEnc((enc, e) => {
      let next: EncounterState = { ...enc, round: Number(e['round']), acted: [], surpriseActors: null, current: null, pending: null };
      for (const id of next.roster) next = econ(next, id, (s) => resetEconomy(rules.economy, s, 'roundStart'));
      if (seqr.onRoundStarted !== undefined) next = { ...next, seq: seqr.onRoundStarted(next) };
      return next;
    }),
    'encounter.delayed': onEnc((enc, e) => {
      const id = String(e['id']);
      return withCombatant({ ...enc, current: enc.current === id ? null : enc.current }, id, (c) => ({ ...c, placement: e['placement'] ?? null }));
    }),
    'encounter.placed': onEnc((enc, e) => ({ ...withCombatant(enc, String(e['id']), (c) => ({ ...c, placement: e['placement'] ?? null })), pending: null })),
    'encounter.readied': onEnc((enc, e) =>
      withCombatant(enc, String(e['id']), (c) => ({ ...c, readied: { action: String(e['action']), trigger: String(e['trigger']), round: Number(e['round']) } })),
    ),
    'encounter.readyTaken': onEnc((enc, e) => {
      const id = String(e['id']);
      const p = e['placement'];
      let next = withCombatant(enc, id, (c) => ({ ...c, readied: null, placement: p === null || p === undefined ? c.placement : p }));
      if (e['forNextTurn'] === true) {
        const pool = rules.economy.payers[String(e['action'])]?.[0];
        if (pool !== undefined) next = econ(next, id, (s) => ({ ...s, owed: { ...s.owed, [pool]: (s.owed[pool] ?? 0) + 1 } }));
      }
      return next;
    }),
    'economy.spent': onEnc((enc, e) => {
      const pay = { paid: e['paid'] as unknown as Payment['paid'], extended: (e['extended'] ?? null) as unknown as Payment['extended'], completed: (e['completed'] ?? null) as string | null };
      const tag = typeof e['tag'] === 'string' ? e['tag'] : undefined;
      const limit = e['limit'] === 'turn' || e['limit'] === 'round' ? e['limit'] : undefined;
      const ahead = e['forNextTurn'] === true ? { forNextTurn: true } : {};
      return econ(enc, String(e['combatant']), (s) => applySpend(s, pay, { cost: Number(e['cost']), ...(tag !== undefined ? { tag } : {}), ...(limit !== undefined ? { limit } : {}), ...ahead }));
    }),
    'economy.extendedCancelled': onEnc((enc, e) => econ(enc, String(e['combatant']), (s) => ({ ...s, extended: null }))),
    'economy.granted': onEnc((enc, e) => econ(enc, String(e['combatant']), (s) => grant(s, String(e['pool']), Number(e['n'])))),
    'encounter.escalationOffsetSet': onEnc((enc, e) => ({ ...enc, escalation: { ...enc.escalation, offset: Number(e['offset']) } })),
    'encounter.escalationSuppressed': onEnc((enc, e) => {
      const id = String(e['id']);
      const rest = enc.escalation.suppressed.filter((s) => s !== id);
      return { ...enc, escalation: { ...enc.escalation, suppressed: e['suppressed'] === true ? [...rest, id] : rest } };
    }),
    'condition.applied': (world, e) => {
      const w = setEncounter(world, reduceApplied(getEncounter(world), e));
      const id = String(e['id']);
      // Stored sequential ids (cond7) move the counter past them, as they always did; a random one counts one mint.
      if (!/^cond\d+$/.test(id)) return claimId(w, id);
      const n = Number(id.slice(4));
      return n >= w.nextId ? { ...w, nextId: n + 1 } : w;
    },
    'condition.stacked': onEnc((enc, e) => reduceStacked(enc, e)),
    'condition.removed': onEnc((enc, e) => reduceRemoved(enc, String(e['id']))),
    'condition.expired': onEnc((enc, e) => reduceRemoved(enc, String(e['id']))),
    'condition.stackLost': onEnc((enc, e) => reduceStackLost(enc, String(e['id']))),
    'condition.saveRolled': onEnc((enc, e) => (e['success'] === true ? reduceRemoved(enc, String(e['id'])) : enc)),
    'encounter.rested': (world) => world,
  };

  // -------------------------------------------------------------- reactions

  const phases: Reaction = (world: World, e: EngineEvent, env: Env): EngineEvent[] => {
    const enc = getEncounter(world);
    switch (e.type) {
      case 'encounter.started':
      case 'encounter.roundStarted':
      case 'encounter.turnClosed':
      case 'encounter.delayed':
      case 'encounter.joinedLate':
      case 'encounter.decisionWithdrawn':
        return advance(world);
      case 'encounter.combatantRemoved': {
        // A duration timed by someone who left can never run out: it ends with them. The reason names
        // nobody, since the event no longer finds the (possibly hidden) combatant to judge its audience by.
        const gone = String(e['id']);
        // Players must not learn that a hidden combatant left: then the reason says only that time ran out.
        const reason = (enc.hiddenGone ?? []).includes(gone) ? 'its time ran out' : 'the combatant it was timed by left the encounter';
        const orphaned = Object.values(enc.conditions)
          .filter((c) => (c.duration.kind === 'turnStart' || c.duration.kind === 'turnEnd') && c.duration.of === gone)
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map((c): EngineEvent => ({ type: 'condition.expired', id: c.id, target: c.target, condition: c.defId, reason }));
        return [...orphaned, ...advance(world)];
      }
      case 'encounter.turnSkipped': {
        // A lost turn still comes round: "until the start / end of X's next turn" ends at it, or it never would.
        const id = String(e['id']);
        const serial = enc.turnSerial + 1;
        return [...expire(enc, { kind: 'turnStart', id, serial }, `${id}'s lost turn`), ...expire(enc, { kind: 'turnEnd', id, serial }, `${id}'s lost turn`)];
      }
      case 'encounter.combatantAdded': {
        const c = e['combatant'];
        const id = c !== null && typeof c === 'object' && !Array.isArray(c) && typeof c['id'] === 'string' ? c['id'] : '';
        const late = lateJoiner(world, id);
        return late.length > 0 ? late : advance(world);
      }
      case 'condition.applied':
      case 'condition.stacked':
      case 'condition.removed':
      case 'condition.expired':
      case 'condition.saveRolled':
        return refreshPending(world);
      case 'encounter.placed':
      case 'encounter.incapacitatedSet':
        return advance(world);
      case 'encounter.hpChanged':
        // A foe that fell (or got up) changes who may be chosen next.
        return refreshPending(world);
      case 'encounter.turnStarted': {
        const id = String(e['id']);
        const out = expire(enc, { kind: 'turnStart', id, serial: enc.lastTurn[id] ?? enc.turnSerial }, `start of ${id}'s turn`);
        return rules.onTurnStart === undefined ? out : [...out, ...rules.onTurnStart(world, id, env.rng)];
      }
      case 'encounter.turnEnded': {
        // Ongoing damage first (002 "Actions": damage, then saves).
        const id = String(e['id']);
        // The one clock: a turn passed (GM-only when the combatant is hidden, via the audience hook).
        const out: EngineEvent[] = [{ ...clockAdvanced(world, 'turn', 1, 0), combatant: id }];
        for (const inst of Object.values(enc.conditions)) {
          if (inst.target !== id) continue;
          const def = rules.conditions.find((d) => d.id === inst.defId);
          if (def?.ongoing === true && rules.onOngoing !== undefined) out.push(...rules.onOngoing(world, inst, env.rng));
        }
        out.push({ type: 'encounter.savesDue', id });
        return out;
      }
      case 'encounter.savesDue': {
        const id = String(e['id']);
        const serial = enc.lastTurn[id] ?? enc.turnSerial;
        const out: EngineEvent[] = [];
        const saved = new Set<string>();
        for (const inst of Object.values(enc.conditions).sort((a, b) => (a.id < b.id ? -1 : 1))) {
          if (inst.target !== id || inst.duration.kind !== 'saveEnds' || rules.saveRoll === undefined) continue;
          const s = rules.saveRoll(world, inst, env.rng);
          if (s.success) saved.add(inst.id);
          out.push({ type: 'condition.saveRolled', id: inst.id, target: id, condition: inst.defId, success: s.success, roll: s.roll });
        }
        for (const inst of fleetingLosses(enc, rules.conditions, id, serial)) {
          if (!saved.has(inst.id)) out.push({ type: 'condition.stackLost', id: inst.id, target: id, condition: inst.defId, from: inst.stacks, to: inst.stacks - 1 });
        }
        for (const x of expire(enc, { kind: 'turnEnd', id, serial }, `end of ${id}'s turn`)) if (!saved.has(String(x['id']))) out.push(x);
        if (rules.onTurnEnd !== undefined) out.push(...rules.onTurnEnd(world, id, env.rng));
        out.push({ type: 'encounter.turnClosed', id });
        return out;
      }
      case 'encounter.roundEnded': {
        const r = Number(e['round']);
        return [clockAdvanced(world, 'round', 1, secondsPerRound), ...expire(enc, { kind: 'roundEnd', round: r }, `end of round ${r}`), { type: 'encounter.roundStarted', round: r + 1 }];
      }
      case 'encounter.ended':
        return expire(enc, { kind: 'encounterEnd' }, 'end of the encounter');
      case 'encounter.rested': {
        const rest = e['rest'] === 'long' ? 'long' : 'short';
        return expire(enc, { kind: 'rest', rest }, `${rest} rest`);
      }
      case 'clock.advanced': {
        // The one clock: any rest on it (a ruleset's rest command, the GM's clock.advance) ends until-rest conditions.
        if (e['unit'] !== 'shortRest' && e['unit'] !== 'longRest') return [];
        const rest = e['unit'] === 'longRest' ? 'long' : 'short';
        return expire(enc, { kind: 'rest', rest }, `${rest} rest`);
      }
      default:
        return [];
    }
  };

  // -------------------------------------------------------------- views

  /**
   * The encounter as players and spectators may read it, built field by
   * field (ADR 25): a key no line below names (a field a later version adds)
   * stays with the GM. `stats` and a condition's `params` are the GM's and the
   * ruleset's own values on a shown record and pass as entered; a placement
   * passes only as the sequencer's projector rewrote it.
   */
  /** A projected encounter, the canAct reads it was made with, and the hidden turns players' clock leaves out (null: clock as stored). */
  interface ProjectedEncounter {
    readonly reads: readonly unknown[];
    readonly enc: EncounterState;
    readonly hiddenTurnsEnded: number | null;
  }
  const hideFromPlayers = (world: World, viewer: Viewer): World => {
    if (viewer.role === 'gm' || world.ext[ENCOUNTER_ID] === undefined || world.ext[ENCOUNTER_ID] === null) return world;
    const enc = getEncounter(world);
    const shown = (id: string): boolean => enc.roster.includes(id) && own(enc.combatants, id)?.visibility !== 'hidden';
    const hidden = new Set([...enc.roster.filter((id) => own(enc.combatants, id)?.visibility === 'hidden'), ...(enc.hiddenGone ?? []).filter((id) => !shown(id))]);
    const veiled = new Set(enc.roster.filter((id) => own(enc.combatants, id)?.visibility === 'existence'));
    const hiddenSerials = enc.hiddenTurns ?? [];
    // Default-deny for the turn order's own state: only what the sequencer's projector shows.
    const seqView = seqr.project?.(enc, (id) => !hidden.has(id) && Object.hasOwn(enc.combatants, id)) ?? { state: null, placements: {} };
    // Nothing hidden: serials and join order as stored.
    const plain = hidden.size === 0 && veiled.size === 0 && hiddenSerials.length === 0;
    const keep = (id: string): boolean => !hidden.has(id);
    // Turn serials as if hidden turns never happened, so gaps do not reveal them.
    const pub = (serial: number): number => (plain ? serial : serial - hiddenSerials.filter((h) => h <= serial).length);
    // Join order as dense ranks among the kept combatants, so gaps do not count hidden joiners.
    const joinRank = new Map(
      enc.roster
        .filter(keep)
        .map((id) => [id, own(enc.combatants, id)?.joined ?? 0] as const)
        .sort((a, b) => a[1] - b[1])
        .map(([id], i) => [id, i] as const),
    );
    const combatants: { [id: string]: Combatant } = {};
    for (const [id, c] of Object.entries(enc.combatants)) {
      if (!keep(id)) continue;
      const veil = veiled.has(id);
      combatants[id] = {
        id: c.id,
        // Known to exist only: a public placeholder, no name, stats or linked character.
        name: veil ? 'Unknown' : c.name,
        kind: c.kind,
        side: c.side,
        characterId: veil ? null : c.characterId,
        stats: veil ? {} : c.stats,
        visibility: c.visibility,
        incapacitated: c.incapacitated,
        unsurprisable: c.unsurprisable,
        // Only as the sequencer's projector rewrote it; a sequencer without one shows none of it.
        placement: Object.hasOwn(seqView.placements, id) ? seqView.placements[id]! : c.placement === null ? null : {},
        joined: plain ? c.joined : (joinRank.get(id) ?? 0),
        readied: veil || c.readied === null ? null : { action: c.readied.action, trigger: c.readied.trigger, round: c.readied.round },
      };
    }
    const conditions: { [id: string]: ConditionInstance } = {};
    for (const [k, c] of Object.entries(enc.conditions)) {
      if (!keep(c.target) || veiled.has(c.target)) continue;
      conditions[k] = {
        id: c.id,
        defId: c.defId,
        target: c.target,
        source: c.source !== null && !keep(c.source) ? null : c.source,
        stacks: c.stacks,
        duration: shownDuration(c.duration, keep),
        params: c.params,
        appliedTurn: pub(c.appliedTurn),
        appliedRound: c.appliedRound,
        freshTurn: pub(c.freshTurn),
        freshStacks: c.freshStacks,
      };
    }
    const economy: { [id: string]: EconomyState } = {};
    for (const [id, e] of Object.entries(enc.economy)) {
      if (!keep(id) || veiled.has(id)) continue;
      economy[id] = {
        spent: numbers(e.spent),
        granted: numbers(e.granted),
        owed: numbers(e.owed),
        turnTags: e.turnTags.filter((t) => typeof t === 'string'),
        roundTags: e.roundTags.filter((t) => typeof t === 'string'),
        extended: e.extended === null ? null : { label: e.extended.label, pool: e.extended.pool, remaining: e.extended.remaining },
      };
    }
    const lastTurn: { [id: string]: number } = {};
    for (const [id, n] of Object.entries(enc.lastTurn)) if (keep(id) && Object.hasOwn(combatants, id) && typeof n === 'number') lastTurn[id] = pub(n);
    const p = enc.pending;
    const view: EncounterState = {
      active: enc.active,
      ...(enc.number === undefined ? {} : { number: enc.number }),
      round: enc.round,
      surpriseActors: enc.surpriseActors?.filter(keep) ?? null,
      combatants,
      roster: enc.roster.filter(keep),
      current: enc.current !== null && keep(enc.current) ? enc.current : null,
      acted: enc.acted.filter(keep),
      pending:
        p === null
          ? null
          : {
              prompt: p.prompt,
              chooser: p.chooser.kind === 'gm' ? { kind: 'gm' } : { kind: 'players', side: p.chooser.side },
              options: p.options.filter(keep),
              default: p.default !== null && keep(p.default) ? p.default : null,
              ...(p.act === undefined ? {} : { act: p.act }),
            },
      turnSerial: pub(enc.turnSerial),
      lastTurn,
      seq: seqView.state,
      economy,
      conditions,
      escalation: { offset: enc.escalation.offset, suppressed: enc.escalation.suppressed.filter(keep) },
      nextJoin: plain ? enc.nextJoin : joinRank.size,
    };
    if (plain) return setEncounter(world, view);
    // The one clock counts every turn; players' clock does not count the hidden ones.
    const counts = { ...world.clock.counts, turn: world.clock.counts.turn - (enc.hiddenTurnsEnded ?? 0) };
    return setEncounter({ ...world, clock: { ...world.clock, counts } }, view);
  };

  /**
   * hideFromPlayers' rule for one id (ADR 18): a combatant it drops (hidden, or
   * gone while hidden), and a condition or economy entry on someone it drops or
   * veils, is hidden; anything else it keeps is shown.
   */
  const idStatus = (world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined => {
    const enc = getEncounter(world);
    const c = own(enc.combatants, id);
    const cond = own(enc.conditions, id);
    const econ = own(enc.economy, id);
    if (c === undefined && cond === undefined && econ === undefined) return undefined;
    if (viewer.role === 'gm') return 'shown';
    const inRoster = (x: string): boolean => enc.roster.includes(x);
    const keep = (x: string): boolean =>
      inRoster(x) ? own(enc.combatants, x)?.visibility !== 'hidden' : !(enc.hiddenGone ?? []).includes(x);
    const veiled = (x: string): boolean => inRoster(x) && own(enc.combatants, x)?.visibility === 'existence';
    if (c !== undefined && keep(id)) return 'shown';
    if (cond !== undefined && keep(cond.target) && !veiled(cond.target)) return 'shown';
    if (econ !== undefined && keep(id) && !veiled(id)) return 'shown';
    return 'hidden';
  };

  /**
   * Every view carries the kernel's on-deck combatant. Players get it computed
   * on their own projection, as if hidden combatants never existed, so it can
   * never name (or count) one.
   */
  // Built once, so every view shares one object (deltas compare parts by reference).
  const catalogue: ConditionCatalogue = {
    conditions: rules.conditions.map((d) => ({ id: d.id, name: d.name, stacking: d.stacking, ...(d.maxStacks !== undefined ? { maxStacks: d.maxStacks } : {}) })),
    saveEnds: rules.saveRoll !== undefined,
  };
  /**
   * The projected encounter depends only on the stored encounter, the viewer's class and what canAct
   * reads (the projector's own `writtenFrom` declaration below): it is kept per stored encounter object,
   * so a change elsewhere (a clock advance, a note) costs no re-projection and keeps its identity.
   * No memo when canAct reads undeclared parts.
   */
  const memoReads = rules.canAct !== undefined && rules.canActReads === undefined ? null : (rules.canActReads ?? []);
  const memo = new WeakMap<object, { gm?: ProjectedEncounter; others?: ProjectedEncounter }>();
  const readsOf = (world: World, reads: readonly string[]): unknown[] =>
    reads.map((r) => (r.startsWith('ext.') ? (Object.hasOwn(world.ext, r.slice(4)) ? world.ext[r.slice(4)] : undefined) : (world as unknown as Record<string, unknown>)[r]));
  const project = (world: World, viewer: Viewer): World => {
    const stored = world.ext[ENCOUNTER_ID];
    if (memoReads === null || stored === undefined || stored === null || typeof stored !== 'object') return projectFresh(world, viewer);
    const cls = viewer.role === 'gm' ? 'gm' : 'others';
    const reads = readsOf(world, memoReads);
    const kept = memo.get(stored)?.[cls];
    let hit = kept !== undefined && kept.reads.length === reads.length && kept.reads.every((x, i) => x === reads[i]) ? kept : undefined;
    if (hit === undefined) {
      const out = projectFresh(world, viewer);
      hit = { reads, enc: out.ext[ENCOUNTER_ID] as unknown as EncounterState, hiddenTurnsEnded: out.clock === world.clock ? null : (getEncounter(world).hiddenTurnsEnded ?? 0) };
      const entry = memo.get(stored) ?? {};
      entry[cls] = hit;
      memo.set(stored, entry);
      return out;
    }
    // Players' clock leaves hidden turns out, as the fresh projection did for this encounter.
    const seenWorld = hit.hiddenTurnsEnded === null ? world : { ...world, clock: { ...world.clock, counts: { ...world.clock.counts, turn: world.clock.counts.turn - hit.hiddenTurnsEnded } } };
    return setEncounter(seenWorld, hit.enc);
  };
  const projectFresh = (world: World, viewer: Viewer): World => {
    const seen = hideFromPlayers(world, viewer);
    if (seen.ext[ENCOUNTER_ID] === undefined || seen.ext[ENCOUNTER_ID] === null) return seen;
    const enc = getEncounter(seen);
    // The ruleset's own canAct reads state players may not see (a veiled foe's sheet, which a later projector removes):
    // for them, a combatant known only to exist is judged by what they can see (its incapacitated flag), never by that hook.
    const judged: EncounterRules =
      viewer.role === 'gm' || rules.canAct === undefined ? rules : { ...rules, canAct: (w, c) => c.visibility === 'existence' || rules.canAct!(w, c) };
    let next: string | null;
    try {
      next = enc.active ? onDeck(seen, judged) : null;
    } catch {
      // A ruleset hook that cannot cope with a redacted world must not take the view down: nobody on deck.
      next = null;
    }
    // The economy's pools and the condition catalogue travel with every view, so a screen never has to know the ruleset to draw them.
    return setEncounter(seen, { ...enc, onDeck: next, economyDef: rules.economy, catalogue });
  };

  const hiddenAudience = (world: World, e: EngineEvent) => {
    const enc = getEncounter(world);
    // Events about a combatant players may not fully see (hidden, or known to exist only) stay with the GM.
    const secret = (vis: Json | undefined): boolean => vis === 'hidden' || vis === 'existence';
    const isHidden = (v: Json | undefined): boolean => typeof v === 'string' && secret(own(enc.combatants, v)?.visibility);
    const gm = { kind: 'gm' } as const;
    for (const key of ['id', 'target', 'combatant', 'before', 'source', 'of']) if (isHidden(e[key])) return gm;
    // A duration anchored to a hidden combatant's turn ("until the end of the lurker's next turn").
    const dur = e['duration'];
    if (dur !== null && typeof dur === 'object' && !Array.isArray(dur) && isHidden(dur['of'])) return gm;
    // Events that list combatants: the start roster, a newcomer, a decision's options.
    const c = e['combatant'];
    if (c !== null && typeof c === 'object' && !Array.isArray(c) && secret(c['visibility'])) return gm;
    const list = e['combatants'];
    if (Array.isArray(list) && list.some((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && secret(x['visibility']))) return gm;
    const d = e['decision'];
    if (d !== null && typeof d === 'object' && !Array.isArray(d) && Array.isArray(d['options']) && d['options'].some(isHidden)) return gm;
    return { kind: 'all' } as const;
  };
  const audience = Object.fromEntries([...Object.keys(reducers), 'clock.advanced'].map((t) => [t, hiddenAudience]));
  // Hit points on a character players may not fully see (an NPC's sheet starts name-only) stay with the GM.
  audience['encounter.hpChanged'] = (world: World, e: EngineEvent) => {
    const chId = e['on'] === 'character' ? own(getEncounter(world).combatants, String(e['id']))?.characterId : null;
    const ch = typeof chId === 'string' ? world.characters[chId] : undefined;
    return ch !== undefined && ch.visibility !== 'visible' ? ({ kind: 'gm' } as const) : hiddenAudience(world, e);
  };

  // -------------------------------------------------------------- log entries

  const defName = (defId: string): string => conditionDef(rules.conditions, defId)?.name ?? defId;
  /** A condition entry is public only while its bearer is fully visible (players see no conditions on veiled combatants). */
  const logCondition = (world: World, targetId: string, text: (name: string) => string): World => {
    const c = own(getEncounter(world).combatants, targetId);
    if (c === undefined) return world;
    return appendLog(world, { audience: c.visibility === 'visible' ? AUDIENCE_ALL : AUDIENCE_GM, kind: 'encounter.condition', text: text(c.name), data: { target: c.id } });
  };
  const stacksText = (n: number): string => (n === 1 ? '' : ` (${n} stacks)`);
  const logs: Record<string, (before: World, after: World, e: EngineEvent) => World> = {
    'encounter.started': (_b, w, e) =>
      appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.started', text: `${encounterTitle(getEncounter(w))} begins${e['round'] === 0 ? ' with a surprise round' : ''}.`, data: { number: getEncounter(w).number ?? 1 } }),
    'encounter.ended': (_b, w, e) =>
      appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.ended', text: `${encounterTitle(getEncounter(w))} ends after round ${Number(e['round'])}.`, data: { number: getEncounter(w).number ?? 1 } }),
    'encounter.roundStarted': (_b, w, e) => appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.roundStarted', text: `Round ${Number(e['round'])} begins.` }),
    'encounter.combatantAdded': (_b, w, e) => {
      const c = e['combatant'];
      const id = c !== null && typeof c === 'object' && !Array.isArray(c) ? String(c['id']) : '';
      return logAbout(w, own(getEncounter(w).combatants, id), 'encounter.joined', (name) => `${name} joins the encounter.`);
    },
    'encounter.combatantRemoved': (b, w, e) => logAbout(w, own(getEncounter(b).combatants, String(e['id'])), 'encounter.left', (name) => `${name} leaves the encounter.`),
    'encounter.hpChanged': (_b, w, e) => {
      const c = own(getEncounter(w).combatants, String(e['id']));
      const amount = Number(e['amount']);
      const down = e['kind'] === 'damage' && Number(e['to']) <= 0 && c?.kind === 'npc' ? ' and is defeated' : '';
      return logAbout(w, c, 'encounter.hp', (name) => (e['kind'] === 'damage' ? `${name} takes ${amount} damage${down}.` : `${name} is healed by ${amount}.`));
    },
    'encounter.turnSkipped': (_b, w, e) => logAbout(w, own(getEncounter(w).combatants, String(e['id'])), 'encounter.turnSkipped', (name) => `${name} cannot act and loses this turn.`),
    'encounter.visibilitySet': (b, w, e) => {
      const was = own(getEncounter(b).combatants, String(e['id']));
      const now = own(getEncounter(w).combatants, String(e['id']));
      if (was === undefined || now === undefined || was.visibility === now.visibility) return w;
      // A reveal is announced to everyone; hiding or veiling is a note for the GM only.
      if (now.visibility === 'visible') return appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.revealed', text: `${now.name} is revealed.`, data: { id: now.id } });
      return appendLog(w, { audience: AUDIENCE_GM, kind: 'encounter.hidden', text: `${now.name} is now ${now.visibility === 'hidden' ? 'hidden from' : 'only known to'} the players.`, data: { id: now.id } });
    },
    'condition.applied': (_b, w, e) => logCondition(w, String(e['target']), (n) => `${n}: ${defName(String(e['condition']))}${stacksText(Number(e['stacks']))}.`),
    'condition.stacked': (b, w, e) =>
      logCondition(w, String(e['target']), (n) => `${n}: ${defName(getEncounter(b).conditions[String(e['id'])]?.defId ?? '')} ${Number(e['from'])} -> ${Number(e['to'])} stacks.`),
    'condition.stackLost': (_b, w, e) => logCondition(w, String(e['target']), (n) => `${n}: ${defName(String(e['condition']))} loses a stack (${Number(e['to'])} left).`),
    'condition.expired': (_b, w, e) => logCondition(w, String(e['target']), (n) => `${n}: ${defName(String(e['condition']))} ends.`),
    'condition.removed': (b, w, e) => logCondition(w, String(e['target']), (n) => `${n}: ${defName(getEncounter(b).conditions[String(e['id'])]?.defId ?? '')} removed.`),
    'condition.saveRolled': (_b, w, e) =>
      logCondition(w, String(e['target']), (n) => `${n} ${e['success'] === true ? 'saves against' : 'fails a save against'} ${defName(String(e['condition']))}.`),
  };
  const loggedReducers: Record<string, Reducer> = Object.fromEntries(
    Object.entries(reducers).map(([type, r]) => {
      const log = logs[type];
      return [type, log === undefined ? r : (w: World, e: EngineEvent) => log(w, r(w, e), e)];
    }),
  );

  const labelled = Object.fromEntries(Object.entries(commands).map(([type, h]) => [type, h.label === undefined && ENCOUNTER_LABELS[type] !== undefined ? { ...h, label: ENCOUNTER_LABELS[type] } : h]));
  // The projector reads the encounter and the clock (players' turn count leaves hidden turns out),
  // and through canAct (who is on deck) whatever the ruleset's hook reads.
  const projectReads: ProjectorReads | undefined =
    rules.canAct !== undefined && rules.canActReads === undefined
      ? undefined
      : {
          reads: [`ext.${ENCOUNTER_ID}`, 'clock', ...(rules.canActReads ?? [])],
          writes: [`ext.${ENCOUNTER_ID}`, 'clock'],
          // A clock advance changes only the players' clock: the projected encounter keeps its object.
          writtenFrom: { [`ext.${ENCOUNTER_ID}`]: [`ext.${ENCOUNTER_ID}`, ...(rules.canActReads ?? [])] },
        };
  return { id: ENCOUNTER_ID, commands: labelled, reducers: loggedReducers, reactions: [phases], project, ...(projectReads === undefined ? {} : { projectReads }), idStatus, audience, catalog: encounterCatalog(rules) };
}

/** "The encounter" for a table's first fight, "Encounter 2" from the second on (the log keeps each one's start and end). */
export function encounterTitle(enc: EncounterState): string {
  const n = enc.number ?? 1;
  return n <= 1 ? 'The encounter' : `Encounter ${n}`;
}

/**
 * For rulesets' own commands: the event that applies a condition (validated),
 * ready to return from decide. Returning several from one decide? Pass
 * index 0, 1, 2... so each new instance gets its own id. With `rng` (decide's
 * env.rng) the id is random (ADR 18); without, the old sequential `cond<n>`.
 */
export function applyConditionEvent(world: World, rules: EncounterRules, command: { readonly [k: string]: Json | undefined }, index = 0, rng?: Rng): Result<EngineEvent> {
  const enc = getEncounter(world);
  if (!enc.active) return errR('NO_ENCOUNTER', 'no encounter is running');
  const target = command['target'];
  const condition = command['condition'];
  if (typeof target !== 'string') return errR(ErrorCode.INVALID_VALUE, 'target must be a combatant id', 'target');
  if (typeof condition !== 'string') return errR(ErrorCode.INVALID_VALUE, 'condition must be a condition id', 'condition');
  const d = parseDuration(command['duration']);
  if (!d.ok) return d;
  const source = command['source'];
  if (source !== undefined && source !== null && typeof source !== 'string') return errR(ErrorCode.INVALID_VALUE, 'source must be a combatant id or null', 'source');
  const stacks = command['stacks'];
  if (stacks !== undefined && typeof stacks !== 'number') return errR('BAD_STACKS', 'stacks must be a number', 'stacks');
  return planApply(
    enc,
    rules.conditions,
    {
      target,
      condition,
      duration: d.value,
      source: source ?? null,
      ...(stacks !== undefined ? { stacks } : {}),
      ...(command['params'] !== undefined ? { params: command['params'] } : {}),
    },
    rng === undefined ? `cond${world.nextId + Math.max(0, Math.floor(index))}` : mintId({ ...world, nextId: world.nextId + Math.max(0, Math.floor(index)) }, 'cond', rng)[0],
  );
}
