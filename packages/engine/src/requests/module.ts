// The request module (issue 20, ADR 29): `request.make` by a player for their
// own character, `request.approve` / `request.decline` by the GM in one tap,
// `request.withdraw` by the asker. Approval asks the ruleset's hook which of
// its own commands the request stands for and decides it in the same
// transaction, so the log, undo and secrecy are those of that command.
import { z } from 'zod';
import { catalogOf, characterId, defineCommand, int, text, type DefinedCommand } from '../core/catalog.js';
import { claimId, mintId } from '../core/ids.js';
import { appendLog } from '../core/log.js';
import { own } from '../core/own.js';
import { err, ErrorCode, ok } from '../core/result.js';
import type { Character, Command, EngineEvent, Env, Json, Module, Result, RuleError, Viewer, World } from '../core/types.js';
import { asJson, reactionOf, reducersOf, sameAudience, stored, type EventOf, type Evolve } from '../core/events.js';
import type { CoreEvent } from '../core/events-core.js';
import type { RequestEvent } from './events.js';
import { seatAudience } from '../core/visibility.js';
import { seededRng } from '../dice/rng.js';
import { getEncounter } from '../encounter/state.js';
import {
  describeRequest,
  MAX_ACTION,
  MAX_ADVANTAGE,
  MAX_AMOUNT,
  MAX_BONUS,
  MAX_DIFFICULTY,
  MAX_KEPT,
  MAX_NOTE,
  MAX_PENDING_PER_SEAT,
  MAX_REASON,
  mayReadRequest,
  NO_CONDITION_OUTSIDE_FIGHT,
  REQUEST_DURATIONS,
  REQUEST_KINDS,
  REQUESTS_ID,
  requestsOf,
  type PlayerRequest,
  type RequestsState,
  type RequestStatus,
} from './model.js';

/**
 * The ruleset's hook: the command an approved request runs (its own damage,
 * healing or condition command), decided as if the GM had sent it. An error
 * here is the player's answer at once ("not in the fight").
 */
export type RequestCommand = (world: World, request: PlayerRequest, answer: RequestAnswer) => Result<Command>;

/** What the GM adds when approving: the difficulty of an action request (the dry run at asking time uses the lowest). */
export interface RequestAnswer {
  readonly difficulty?: number;
}

/** The hooks' answer to an action request in a ruleset that rolls no action against a difficulty. */
export function noActionRequests(world: World, r: PlayerRequest): Result<never> {
  return err(ErrorCode.INVALID_VALUE, `${own(world.characters, r.characterId)?.name ?? 'that character'}'s ruleset has no action roll to ask for: ask for damage, healing or a condition`, 'kind');
}

const GM: Viewer = { role: 'gm' };
const requestId = (description = 'a request id') => z.string().min(1).max(64).meta({ description, 'x-ref': 'request' });

/** The hooks' answer to recoveries asked for in a ruleset that keeps none (only the 36th Way spends them at a quick rest, ADR 110). */
export function noRecoveryRequests(world: World, r: PlayerRequest): Result<Command> {
  return err(ErrorCode.INVALID_VALUE, `${own(world.characters, r.characterId)?.name ?? 'that character'}'s ruleset has no recoveries to spend: ask for healing instead`, 'kind');
}

/**
 * The kernel's mapping, for rulesets whose damage box is the kernel's: the
 * character's combatant in the running fight takes `encounter.damage`,
 * `encounter.heal` or `condition.apply`.
 */
export const kernelRequestCommand: RequestCommand = (world, r) => {
  if (r.kind === 'action') return noActionRequests(world, r);
  if (r.kind === 'recoveries') return noRecoveryRequests(world, r);
  const c = combatantOfRequest(world, r.characterId);
  if (!c.ok) return outsideFightRequest(world, r, (kind, amount) => ({ type: `encounter.${kind}`, characterId: r.characterId, amount })) ?? c;
  return ok(commandForCombatant(r, c.value));
};

/**
 * A request for a character no combatant of a running fight plays (ADR 104): damage and healing land on the
 * character's own hit points by `hpCommand` (healing after a fight is the common case, as in Daggerheart); a
 * condition is refused in words, since conditions live on a fight's combatants and count down by their turns.
 * Null while a combatant plays the character (a hidden one too: asking must not reveal it).
 */
export function outsideFightRequest(world: World, r: PlayerRequest, hpCommand: (kind: 'damage' | 'heal', amount: number) => Command | Result<Command>, hasHp = (ch: Character) => typeof ch.stats['hp'] === 'number'): Result<Command> | null {
  if (playsInRunningFight(world, r.characterId)) return null;
  const ch = own(world.characters, r.characterId);
  const name = ch?.name ?? 'that character';
  if (r.kind === 'condition') return err(ErrorCode.INVALID_VALUE, NO_CONDITION_OUTSIDE_FIGHT(name), 'kind');
  if (r.kind !== 'damage' && r.kind !== 'heal') return null;
  if (ch === undefined || !hasHp(ch)) return err(ErrorCode.INVALID_VALUE, `${name} has no hit points on the sheet yet: the GM sets them first`, 'characterId');
  const cmd = hpCommand(r.kind, r.amount ?? 1);
  return 'type' in cmd ? ok(cmd) : cmd;
}

/** Whether a combatant of the running fight plays `characterId`, hidden or not (asking must not reveal a hidden one). */
export function playsInRunningFight(world: World, characterId: string): boolean {
  const enc = getEncounter(world);
  return enc.active && enc.roster.some((x) => own(enc.combatants, x)?.characterId === characterId);
}

/**
 * The running encounter's combatant that plays `characterId`, or a sentence saying there is none.
 * A combatant the GM hides counts as absent: the player cannot see it, so asking must not reveal it.
 */
export function combatantOfRequest(world: World, characterId: string): Result<string> {
  const enc = getEncounter(world);
  const id = enc.active
    ? enc.roster.find((x) => {
        const c = own(enc.combatants, x);
        return c?.characterId === characterId && c.visibility !== 'hidden';
      })
    : undefined;
  if (id === undefined) return err(ErrorCode.NOT_FOUND, `${own(world.characters, characterId)?.name ?? 'that character'} is not in a running fight: damage, healing and conditions can be asked for during an encounter`, 'characterId');
  return ok(id);
}

/** The kernel command for a request on combatant `id` (rulesets reuse it for what they leave to the kernel). */
export function commandForCombatant(r: PlayerRequest, id: string): Command {
  if (r.kind === 'damage') return { type: 'encounter.damage', id, amount: r.amount ?? 1 };
  if (r.kind === 'heal') return { type: 'encounter.heal', id, amount: r.amount ?? 1 };
  const duration: Json =
    r.duration === 'rounds'
      ? { kind: 'rounds', rounds: r.rounds ?? 1 }
      : r.duration === 'turnEnd'
        ? { kind: 'turnEnd', of: id }
        : { kind: r.duration ?? 'indefinite' };
  return { type: 'condition.apply', targetId: id, condition: r.condition ?? '', duration };
}

function withState(world: World, f: (s: RequestsState) => RequestsState): World {
  return { ...world, ext: { ...world.ext, [REQUESTS_ID]: asJson(f(requestsOf(world))) } };
}

function setStatus(world: World, id: string, status: RequestStatus, reason?: string): World {
  return withState(world, (s) => ({ items: s.items.map((r) => (r.id === id ? { ...r, status, ...(reason === undefined ? {} : { reason }) } : r)) }));
}

/** Keeps every pending request and the newest resolved ones, at most MAX_KEPT in all. */
function trimmed(items: readonly PlayerRequest[]): PlayerRequest[] {
  let drop = items.length - MAX_KEPT;
  if (drop <= 0) return [...items];
  return items.filter((r) => r.status === 'pending' || drop-- <= 0);
}

const nameOf = (w: World, r: PlayerRequest): string => own(w.characters, r.characterId)?.name ?? 'a character';

/** The seat whose player holds `characterId` (its own seat, else the one listing it). */
function seatOf(world: World, characterId: string): string | null {
  const c = own(world.characters, characterId);
  if (c?.seatId !== null && c?.seatId !== undefined && own(world.seats, c.seatId) !== undefined) return c.seatId;
  return Object.values(world.seats).find((s) => s.characterIds.includes(characterId))?.id ?? null;
}

const FORBIDDEN = (what: string): RuleError => ({ code: ErrorCode.FORBIDDEN, message: what });

function pendingOf(world: World, id: string): Result<PlayerRequest> {
  const r = requestsOf(world).items.find((x) => x.id === id);
  if (r === undefined) return err(ErrorCode.NOT_FOUND, `id: no request ${JSON.stringify(id).slice(0, 80)}`, 'id');
  if (r.status !== 'pending') return err(ErrorCode.INVALID_VALUE, `id: that request was already ${r.status}`, 'id');
  return ok(r);
}

/** Decides the hook's command for `r` as the GM, with `rng`; errors come back as the request's own. */
function carryOut(world: World, r: PlayerRequest, hook: RequestCommand, answer: RequestAnswer, env: Env, rng: Env['rng']): Result<EngineEvent[]> {
  const cmd = hook(world, r, answer);
  if (!cmd.ok) return cmd;
  if (cmd.value.type.startsWith(`${REQUESTS_ID}.`)) return err(ErrorCode.INTERNAL, 'a request cannot stand for another request');
  if (env.decideCommand === undefined) return err(ErrorCode.INTERNAL, 'this engine cannot run a request\'s command');
  const decided = env.decideCommand(world, cmd.value, { rng, actor: GM });
  if (!decided.ok) return err(decided.error.code, `the request cannot be carried out: ${decided.error.message}`, 'id');
  return decided;
}

/** A request as its own seat reads it: the fields a request has, each only when set. */
function shownRequest(r: PlayerRequest): PlayerRequest {
  return {
    id: r.id,
    seatId: r.seatId,
    characterId: r.characterId,
    kind: r.kind,
    ...(typeof r.amount === 'number' ? { amount: r.amount } : {}),
    ...(typeof r.condition === 'string' ? { condition: r.condition } : {}),
    ...(typeof r.duration === 'string' ? { duration: r.duration } : {}),
    ...(typeof r.rounds === 'number' ? { rounds: r.rounds } : {}),
    ...(typeof r.action === 'string' ? { action: r.action } : {}),
    ...(typeof r.bonus === 'number' ? { bonus: r.bonus } : {}),
    ...(typeof r.advantage === 'number' ? { advantage: r.advantage } : {}),
    ...(typeof r.note === 'string' ? { note: r.note } : {}),
    status: r.status,
    ...(typeof r.reason === 'string' ? { reason: r.reason } : {}),
  };
}

function commandsFor(hook: RequestCommand): DefinedCommand<z.ZodType>[] {
  return [
    defineCommand('request.make', {
      summary: 'Ask the GM for damage, healing or a condition on your own character, or for an action roll the GM sets a difficulty for',
      who: 'own-character',
      label: 'ask the GM',
      input: z
        .strictObject({
          characterId: characterId('your character'),
          kind: z.enum(REQUEST_KINDS).meta({ description: 'damage, heal, condition, action or recoveries (spent at a quick rest)' }),
          amount: int(1, MAX_AMOUNT, 'damage, healing or recoveries').optional(),
          condition: text(80, "a condition from the ruleset's list, or custom:<name>").min(1).optional(),
          duration: z.enum(REQUEST_DURATIONS).meta({ description: 'how long the condition lasts' }).optional(),
          rounds: int(1, 100, 'rounds, for a duration in rounds').optional(),
          action: text(MAX_ACTION, 'what your character tries, for an action request').min(1).optional(),
          bonus: int(-MAX_BONUS, MAX_BONUS, 'your trait and other modifiers, for an action request').optional(),
          advantage: int(-MAX_ADVANTAGE, MAX_ADVANTAGE, 'net advantage sources (negative: disadvantage), for an action request').optional(),
          note: text(MAX_NOTE, 'a word to the GM').optional(),
        })
        // Each kind takes exactly its own fields, so the GM's queue shows what will happen.
        .superRefine((p, ctx) => {
          const needs = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
          if ((p.kind === 'damage' || p.kind === 'heal' || p.kind === 'recoveries') && p.amount === undefined) needs('amount', `is required for ${p.kind === 'heal' ? 'healing' : p.kind === 'recoveries' ? 'recoveries: say how many to spend' : 'damage'}`);
          if (p.kind === 'action' && (p.action === undefined || p.action.trim() === '')) needs('action', 'is required for an action request: say what your character tries');
          if (p.kind !== 'action' && (p.action !== undefined || p.bonus !== undefined || p.advantage !== undefined)) needs('action', 'only an action request names an action, a bonus or advantage');
          if (p.kind === 'action' && p.amount !== undefined) needs('amount', 'an action request has no amount');
          if (p.kind === 'condition' && p.condition === undefined) needs('condition', 'is required for a condition');
          if (p.kind !== 'condition' && (p.condition !== undefined || p.duration !== undefined || p.rounds !== undefined)) needs('condition', 'only a condition request names a condition or a duration');
          if (p.kind === 'condition' && p.amount !== undefined) needs('amount', 'a condition request has no amount');
          if (p.kind === 'action' && p.condition !== undefined) needs('condition', 'an action request names no condition');
          if (p.duration === 'rounds' && p.rounds === undefined) needs('rounds', 'is required for a duration in rounds');
          if (p.duration !== 'rounds' && p.rounds !== undefined) needs('rounds', 'only a duration in rounds takes rounds');
        }),
      authorize: (world, p, actor) => {
        if (actor.role === 'gm') return null;
        if (actor.role !== 'player' || own(world.seats, actor.seatId)?.characterIds.includes(p.characterId) !== true) return FORBIDDEN('you may ask only for your own character');
        return null;
      },
      decide(world, p, env) {
        if (own(world.characters, p.characterId) === undefined) return err(ErrorCode.NOT_FOUND, `characterId: no character ${JSON.stringify(p.characterId).slice(0, 80)}`, 'characterId');
        const seatId = env.actor.role === 'player' ? env.actor.seatId : seatOf(world, p.characterId);
        if (seatId === null) return err(ErrorCode.NOT_FOUND, 'characterId: no seat plays this character, so no one would see the answer', 'characterId');
        const mine = requestsOf(world).items.filter((r) => r.seatId === seatId && r.status === 'pending').length;
        if (mine >= MAX_PENDING_PER_SEAT) return err(ErrorCode.LIMIT_EXCEEDED, `a seat may have at most ${MAX_PENDING_PER_SEAT} requests waiting; wait for the GM's answer or withdraw one`, 'kind');
        const [id] = mintId(world, 'rq', env.rng);
        const request: PlayerRequest = {
          id,
          seatId,
          characterId: p.characterId,
          kind: p.kind,
          ...(p.amount === undefined ? {} : { amount: p.amount }),
          ...(p.condition === undefined ? {} : { condition: p.condition, duration: p.duration ?? 'indefinite' }),
          ...(p.rounds === undefined ? {} : { rounds: p.rounds }),
          ...(p.action === undefined ? {} : { action: p.action.trim() }),
          ...(p.bonus === undefined || p.bonus === 0 ? {} : { bonus: p.bonus }),
          ...(p.advantage === undefined || p.advantage === 0 ? {} : { advantage: p.advantage }),
          ...(p.note === undefined || p.note.trim() === '' ? {} : { note: p.note.trim() }),
          status: 'pending',
        };
        // Tried now on a throwaway generator, so a request the GM could never approve is refused at once, in the rule's words.
        const dry = carryOut(world, request, hook, request.kind === 'action' ? { difficulty: 1 } : {}, env, seededRng(0));
        if (!dry.ok) return { ok: false, error: { ...dry.error, message: dry.error.message.replace('the request cannot be carried out: ', ''), path: dry.error.path === 'id' ? 'kind' : (dry.error.path ?? 'kind') } };
        return ok([stored<RequestEvent>({ type: 'request.made', request })]);
      },
    }),
    defineCommand('request.approve', {
      summary: "Approve a player's request: the ruleset's own command runs in the same step",
      who: 'gm',
      label: 'approve a request',
      input: z.strictObject({ id: requestId(), difficulty: int(1, MAX_DIFFICULTY, 'the difficulty you set, for an action request').optional() }),
      decide(world, p, env) {
        const r = pendingOf(world, p.id);
        if (!r.ok) return r;
        // The GM's judgement of the declared action is the one thing the player could not give.
        if (r.value.kind === 'action' && p.difficulty === undefined) return err(ErrorCode.INVALID_VALUE, 'difficulty: set the difficulty of the action before approving it', 'difficulty');
        if (r.value.kind !== 'action' && p.difficulty !== undefined) return err(ErrorCode.INVALID_VALUE, 'difficulty: only an action request takes a difficulty', 'difficulty');
        const answer = p.difficulty === undefined ? {} : { difficulty: p.difficulty };
        const events = carryOut(world, r.value, hook, answer, env, env.rng);
        if (!events.ok) return events;
        return ok([...events.value, stored<RequestEvent>({ type: 'request.approved', id: r.value.id, seatId: r.value.seatId, ...answer })]);
      },
    }),
    defineCommand('request.decline', {
      summary: "Decline a player's request (the reason, if any, goes to that player)",
      who: 'gm',
      label: 'decline a request',
      input: z.strictObject({ id: requestId(), reason: text(MAX_REASON, 'why, in a few words, for the player').optional() }),
      decide(world, p) {
        const r = pendingOf(world, p.id);
        if (!r.ok) return r;
        const reason = p.reason?.trim();
        return ok([stored<RequestEvent>({ type: 'request.declined', id: r.value.id, seatId: r.value.seatId, ...(reason === undefined || reason === '' ? {} : { reason }) })]);
      },
    }),
    defineCommand('request.withdraw', {
      summary: 'Withdraw your own request before the GM answers',
      who: 'anyone',
      label: 'withdraw a request',
      input: z.strictObject({ id: requestId() }),
      authorize: (world, p, actor) => {
        if (actor.role === 'gm') return null;
        const r = requestsOf(world).items.find((x) => x.id === p.id);
        // Someone else's request answers as a missing one (the engine's hidden-id check already swapped it out).
        if (r !== undefined && actor.role === 'player' && r.seatId !== actor.seatId) return FORBIDDEN('you may withdraw only your own requests');
        return actor.role === 'player' ? null : FORBIDDEN('only a player or the GM may withdraw a request');
      },
      decide(world, p) {
        const r = pendingOf(world, p.id);
        if (!r.ok) return r;
        return ok([stored<RequestEvent>({ type: 'request.withdrawn', id: r.value.id, seatId: r.value.seatId })]);
      },
    }),
  ];
}

const logFor = (w: World, seatId: string, kind: string, line: string): World => appendLog(w, { audience: seatAudience(seatId), kind, text: line });

type Answered = Exclude<RequestEvent, { readonly type: 'request.made' }>;

const resolved =
  (status: RequestStatus, line: (w: World, r: PlayerRequest, e: Answered) => string) =>
  (w: World, e: Answered): World => {
    const id = e.id;
    const r = requestsOf(w).items.find((x) => x.id === id);
    if (r === undefined) return w;
    const reason = 'reason' in e && typeof e.reason === 'string' ? e.reason : undefined;
    return logFor(setStatus(w, id, status, reason), r.seatId, `request.${status}`, line(w, r, e));
  };

const reasonText = (e: Answered): string => ('reason' in e && typeof e.reason === 'string' ? `: ${e.reason}` : '');

const evolve: Evolve<RequestEvent> = {
  'request.made': (w, e) => {
    const r = e.request;
    const next = withState(claimId(w, r.id), (s) => ({ items: trimmed([...s.items, r]) }));
    return logFor(next, r.seatId, 'request.made', `${nameOf(w, r)} asks the GM for ${describeRequest(r)}${r.note === undefined ? '' : ` ("${r.note}")`}.`);
  },
  'request.approved': resolved('approved', (w, r, e) => `The GM approved ${describeRequest(r)} for ${nameOf(w, r)}${'difficulty' in e && typeof e.difficulty === 'number' ? ` at difficulty ${e.difficulty}` : ''}.`),
  'request.declined': resolved('declined', (w, r, e) => `The GM declined ${describeRequest(r)} for ${nameOf(w, r)}${reasonText(e)}.`),
  'request.withdrawn': resolved('withdrawn', (w, r) => `${nameOf(w, r)}'s request for ${describeRequest(r)} was withdrawn.`),
  'request.expired': resolved('expired', (w, r, e) => `${nameOf(w, r)}'s request for ${describeRequest(r)} expired${reasonText(e)}.`),
};
const reducers = reducersOf(evolve);

/** Why waiting requests lapse: they were about a moment that has passed (the fight began or ended) or a character who left. */
const EXPIRES: { readonly [eventType: string]: string } = {
  'encounter.started': 'a new fight began',
  'encounter.ended': 'the fight ended',
};

type Expiring = { readonly type: 'encounter.started' | 'encounter.ended' } | EventOf<CoreEvent, 'character.removed'>;

const expire = reactionOf<Expiring>([...Object.keys(EXPIRES), 'character.removed'], (w, e) => {
  const why = own(EXPIRES, e.type);
  const gone = e.type === 'character.removed' ? e.id : null;
  if (why === undefined && gone === null) return [];
  const items = requestsOf(w).items.filter((r) => r.status === 'pending' && (gone === null || r.characterId === gone));
  return items.map((r) => stored<RequestEvent>({ type: 'request.expired', id: r.id, seatId: r.seatId, reason: why ?? 'the character left the table' }));
});

/** The request module for a ruleset whose requests become `hook`'s commands. */
export function requestModule(hook: RequestCommand = kernelRequestCommand): Module {
  const defined = commandsFor(hook);
  return {
    id: REQUESTS_ID,
    commands: Object.fromEntries(defined.map((d) => [d.declaration.type, d.handler])),
    catalog: catalogOf(...defined.map((d) => d.declaration)),
    reducers,
    reactions: [expire],
    // Default-deny: a player's view holds their own seat's requests only; spectators none.
    project(world, viewer) {
      if (viewer.role === 'gm' || !Object.hasOwn(world.ext, REQUESTS_ID)) return world;
      const s = requestsOf(world);
      const ext = { ...world.ext };
      // Field by field (ADR 33): a key a later version adds to a request stays with the GM.
      const mine = s.items.filter((r) => mayReadRequest(r, viewer)).map(shownRequest);
      if (mine.length === 0) delete ext[REQUESTS_ID];
      else ext[REQUESTS_ID] = asJson({ items: mine });
      return { ...world, ext };
    },
    // Each seat sees its own requests: projected per seat (ADR 20).
    projectReads: { reads: [`ext.${REQUESTS_ID}`], writes: [`ext.${REQUESTS_ID}`], bySeat: true },
    idStatus(world, viewer, id) {
      const r = requestsOf(world).items.find((x) => x.id === id);
      if (r === undefined) return undefined;
      return mayReadRequest(r, viewer) ? 'shown' : 'hidden';
    },
    audience: sameAudience<RequestEvent>(evolve, (_w, e) => seatAudience(e.type === 'request.made' ? e.request.seatId : e.seatId)),
  };
}
