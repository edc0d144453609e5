// The 'countdowns' Module: every countdown kind of 000_5382b28a932eafef.txt as
// commands, past-tense events, reactions and a projector. Action rolls tick
// standard, dynamic and chase countdowns through the engine-level event
// `actionRoll.resolved {outcome}`; rests tick long-term ones through
// `clock.advanced`. Any ruleset can use it.
import { own } from '../core/own.js';
import type { DualityOutcome } from '../dice/index.js';
import type { Rng } from '../dice/rng.js';
import { appendLog, claimId, err, ErrorCode, handlerOf, mintId, ok, parsePayload, AUDIENCE_ALL, AUDIENCE_GM, type PayloadOf } from '../core/index.js';
import { asJson, audiencesOf, fromJson, reactionOf, reducersOf, sameAudience, stored as storedEvent, type EventOf, type Evolve } from '../core/events.js';
import type { CoreEvent } from '../core/events-core.js';
import type { ActionRollResolved, CountdownEvent, CountdownTicked, CountdownUnticked, Need } from './events.js';
import type { Audience, Command, CommandHandler, EngineEvent, Json, LogEntry, Module, Reaction, Result, Viewer, World } from '../core/types.js';
import {
  LONG_TERM_MAX,
  LONG_TERM_MIN,
  MAX_COUNTDOWNS,
  MAX_COUNTDOWN_VALUE,
  MAX_NAME,
  MAX_TEXT,
  OUTCOMES,
  afterTrigger,
  beatsReached,
  parseStartDie,
  publicExistence,
  publicValues,
  redactCountdown,
  shownChase,
  rollStart,
  tickValue,
  ticksFor,
  type Beat,
  type Chase,
  type ChaseResult,
  type Countdown,
  type CountdownKind,
  type StartRoll,
} from './model.js';
import { chaseCreateDeclaration, countdownsCatalog, createDeclaration, hideDeclaration, outcomeDeclaration, pauseDeclaration, removeDeclaration, resumeDeclaration, revealDeclaration, setDeclaration, tickDeclaration, untickDeclaration } from './declarations.js';
import { countdownOddsQuery } from './queries.js';

export const COUNTDOWNS_ID = 'countdowns';

/** world.ext.countdowns. `gone` remembers, per removed id, whether it was public, so old log lines stay filtered. */
export type CountdownsState = {
  readonly countdowns: { readonly [id: string]: Countdown };
  readonly order: readonly string[];
  readonly chases: { readonly [id: string]: Chase };
  readonly gone: { readonly [id: string]: 'values' | 'existence' | 'none' };
};

const EMPTY: CountdownsState = { countdowns: {}, order: [], chases: {}, gone: {} };

export function getCountdowns(world: World): CountdownsState {
  const raw = world.ext[COUNTDOWNS_ID];
  return raw === undefined || raw === null ? EMPTY : fromJson<CountdownsState>(raw);
}

function setCountdowns(world: World, s: CountdownsState): World {
  // The key named, not computed (`[COUNTDOWNS_ID]`): V8 copies a spread with a computed key on a slower path (ADR 109, 116).
  return { ...world, ext: { ...world.ext, countdowns: asJson(s) } satisfies { [COUNTDOWNS_ID]: Json } };
}

function updateCountdown(world: World, id: string, f: (c: Countdown) => Countdown): World {
  const s = getCountdowns(world);
  const c = own(s.countdowns, id);
  if (c === undefined) return world;
  return setCountdowns(world, { ...s, countdowns: { ...s.countdowns, [id]: f(c) } });
}

/** Active countdowns in creation order. */
export function countdownList(world: World): Countdown[] {
  const s = getCountdowns(world);
  return s.order.map((id) => own(s.countdowns, id)).filter((c): c is Countdown => c !== undefined);
}

// ---------------------------------------------------------------- audiences

type Tier = 'values' | 'existence' | 'none';
const tierOf = (cd: Countdown): Tier => (publicValues(cd) ? 'values' : publicExistence(cd) ? 'existence' : 'none');

/** What players may read about countdown `id` now (a removed one keeps the tier it had). */
function currentTier(world: World, id: string): Tier | null {
  const s = getCountdowns(world);
  const cd = own(s.countdowns, id);
  if (cd !== undefined) return tierOf(cd);
  return s.gone[id] ?? null;
}

const RANK: Record<Tier, number> = { none: 0, existence: 1, values: 2 };

/**
 * An event's audience is fixed when it is decided: `need` records what a
 * player must be allowed to read to see it ('gm' = nobody but the GM). The
 * engine stores it with the transaction, so a later reveal never exposes old
 * secrets (and the log filter below re-hides lines of countdowns hidden since).
 */
function eventAudience(_world: World, e: { readonly need?: Need }): Audience {
  const need = e.need;
  return need === 'values' || need === 'existence' ? AUDIENCE_ALL : AUDIENCE_GM;
}

/** The `need` an event gets: what a player must be allowed to read to see it. */
const needFor = (cd: Countdown, need: 'values' | 'existence'): 'values' | 'existence' | 'gm' => (RANK[tierOf(cd)] >= RANK[need] ? need : 'gm');

function log(world: World, cd: Countdown, need: 'values' | 'existence', kind: string, text: string): World {
  const audience = RANK[tierOf(cd)] >= RANK[need] ? AUDIENCE_ALL : AUDIENCE_GM;
  return appendLog(world, { audience, kind, text, data: { countdownId: cd.id, need } });
}

/** An event of the union as the engine stores it (the union's records are checked to be JSON). */
const stored = (e: CountdownEvent): EngineEvent => storedEvent(e);

// ---------------------------------------------------------------- events from ticks

type Cause = 'roll' | 'manual' | 'shortRest' | 'longRest';

/**
 * The events for ticking `cd` by `by`: ticked, then (if it hit 0) triggered and
 * a reset or the end. `rng` is used only by a randomized loop that rerolls.
 */
export function tickEvents(cd: Countdown, by: number, cause: Cause, rng: Rng, outcome?: DualityOutcome): EngineEvent[] {
  const step = tickValue(cd.value, by);
  if (step.from === step.to) return [];
  const out: EngineEvent[] = [];
  const beatsAt = beatsReached(cd.beats, step.from, step.to).map((b) => b.at);
  // Every tick says so in the log (`logged`): a roll's too, whose own line never named them (review 12 #14: a chase
  // ticked with nothing in the log; ADR 92). Events stored without `logged` replay without the line, as they were.
  const need = needFor(cd, 'values');
  // Two literals (the same keys in the same order), not spreads in the middle of one: every tick makes one.
  out.push(
    outcome === undefined
      ? { type: 'countdown.ticked', id: cd.id, from: step.from, to: step.to, by, cause, beatsAt, need, logged: true }
      : { type: 'countdown.ticked', id: cd.id, from: step.from, to: step.to, by, cause, outcome, beatsAt, need, logged: true },
  );
  if (!step.triggered) return out;
  const after = { ...cd, value: 0, triggers: cd.triggers + 1 };
  out.push({ type: 'countdown.triggered', id: cd.id, effect: cd.effect, count: after.triggers, need: needFor(after, 'values') });
  if (cd.chaseId !== null) return out; // the chase decides what ends (chaseEvents)
  const next = afterTrigger(cd);
  if (next.kind === 'reset') {
    let start = next.start;
    let startRoll: StartRoll | null = null;
    if (cd.repeat === 'loop' && cd.rerollOnReset && cd.startDie !== null) {
      const f = parseStartDie(cd.startDie);
      if (f.ok) {
        startRoll = rollStart(f.value, rng);
        start = Math.max(1, startRoll.total);
      }
    }
    out.push(stored({ type: 'countdown.reset', id: cd.id, repeat: cd.repeat, fromStart: next.fromStart, start, startRoll, need: needFor(after, 'values') }));
  } else {
    out.push({ type: 'countdown.ended', id: cd.id, reason: next.reason, finalEffect: next.reason === 'finalEvent' ? cd.finalEffect : '', need: needFor(after, 'values') });
  }
  return out;
}

/** After a roll ticked a chase pair: who got to 0 first (or both on this roll). */
function chaseEvents(world: World, chase: Chase, before: { progress: number; consequence: number }, by: { progress: number; consequence: number }): EngineEvent[] {
  if (chase.result !== null) return [];
  const pcsDone = before.progress > 0 && before.progress - by.progress <= 0;
  const otherDone = before.consequence > 0 && before.consequence - by.consequence <= 0;
  if (!pcsDone && !otherDone) return [];
  const result: ChaseResult = pcsDone && otherDone ? 'both' : pcsDone ? 'pcs' : 'other';
  const s = getCountdowns(world);
  const p = own(s.countdowns, chase.progressId);
  const c = own(s.countdowns, chase.consequenceId);
  const need = p !== undefined && c !== undefined && tierOf({ ...p, triggers: p.triggers + (pcsDone ? 1 : 0) }) === 'values' && tierOf({ ...c, triggers: c.triggers + (otherDone ? 1 : 0) }) === 'values' ? 'values' : 'gm';
  return [{ type: 'chase.ended', id: chase.id, ids: [chase.progressId, chase.consequenceId], result, pcs: chase.pcs, need }];
}

// ---------------------------------------------------------------- reading commands

/** The countdown a parsed payload names (own keys only), or NOT_FOUND at `path`. */
function countdownOf(world: World, id: string, path = 'countdownId'): Result<Countdown> {
  const cd = own(getCountdowns(world).countdowns, id);
  return cd === undefined ? err(ErrorCode.NOT_FOUND, `no countdown ${id.slice(0, 40)}`, path) : ok(cd);
}

/** Text a person typed, trimmed (the schema bounds its length); a name must keep at least one character. */
function named(v: string, path: string): Result<string> {
  const t = v.trim();
  return t === '' ? err(ErrorCode.INVALID_VALUE, `${path} must have at least 1 character(s)`, path) : ok(t);
}

/** Story beats, highest value first: each at a value the countdown passes through, once, with words to show. */
function beatsOf(raw: NewCountdown['beats'], start: number, kind: CountdownKind): Result<Beat[]> {
  if (raw === undefined) return ok([]);
  if (kind !== 'longTerm') return err('COUNTDOWN_BEATS_LONG_TERM_ONLY', 'story beats belong to long-term countdowns', 'beats');
  if (raw.length > start + 1) return err(ErrorCode.LIMIT_EXCEEDED, `a countdown from ${start} has at most ${start + 1} beats (one per value, ${start} down to 0)`, 'beats');
  const beats: Beat[] = [];
  const seen = new Set<number>();
  for (const [i, b] of raw.entries()) {
    const path = `beats.${i}`;
    if (b.at > start) return err(ErrorCode.INVALID_VALUE, `a beat's at is a value from 0 to ${start}`, `${path}.at`);
    if (seen.has(b.at)) return err(ErrorCode.INVALID_VALUE, `two beats at ${b.at}`, `${path}.at`);
    seen.add(b.at);
    const text = b.text.trim();
    if (text === '') return err(ErrorCode.INVALID_VALUE, `a beat's text is 1 to ${MAX_TEXT} characters`, `${path}.text`);
    beats.push({ at: b.at, text, partyCanLearn: b.partyCanLearn ?? false });
  }
  return ok(beats.sort((a, b) => b.at - a.at));
}

/** A countdown.create payload as its declaration parsed it. */
type NewCountdown = PayloadOf<typeof createDeclaration>;

type Fresh = Omit<Countdown, 'id' | 'chaseId' | 'linkedTo'>;

/** The rules a countdown.create payload must meet beyond its schema (and the roll of a randomized start). */
function readNew(world: World, p: NewCountdown, rng: Rng): Result<Fresh> {
  const name = named(p.name, 'name');
  if (!name.ok) return name;
  const kind = p.kind ?? 'standard';
  const repeat = p.repeat ?? 'once';
  const reroll = p.rerollOnReset ?? false;
  // 000 "Advancing a Long-Term Countdown": once per short rest, twice per long rest.
  const restTicks = { shortRest: p.restTicks?.shortRest ?? 1, longRest: p.restTicks?.longRest ?? 2 };
  if (p.start !== undefined && p.startDie !== undefined) return err(ErrorCode.INVALID_VALUE, 'give start or startDie, not both', 'startDie');
  if (p.startDie !== undefined && p.beats !== undefined) return err('COUNTDOWN_BEATS_FIXED_START', 'story beats need a fixed start (one beat per value)', 'beats');
  let start: number;
  let startDie: string | null = null;
  let startRoll: StartRoll | null = null;
  if (p.startDie !== undefined) {
    const f = parseStartDie(p.startDie);
    if (!f.ok) return f;
    // A long-term formula must land in range whatever it rolls (checked before rolling, so no roll is thrown away).
    if (kind === 'longTerm' && (f.value.count + f.value.bonus < LONG_TERM_MIN || f.value.count * f.value.sides + f.value.bonus > LONG_TERM_MAX)) {
      return err('COUNTDOWN_LONG_TERM_RANGE', `a long-term countdown runs ${LONG_TERM_MIN} to ${LONG_TERM_MAX} ticks; ${f.value.text} can roll outside that`, 'startDie');
    }
    startDie = f.value.text;
    startRoll = rollStart(f.value, rng);
    start = Math.max(1, startRoll.total);
  } else {
    if (p.start === undefined) return err(ErrorCode.INVALID_VALUE, `start: is required (a value from 1 to ${MAX_COUNTDOWN_VALUE}), or give startDie`, 'start');
    start = p.start;
  }
  if (reroll && (startDie === null || repeat !== 'loop')) return err(ErrorCode.INVALID_VALUE, 'rerollOnReset needs a randomized start (startDie) and repeat: loop', 'rerollOnReset');
  if (kind === 'longTerm') {
    if (start < LONG_TERM_MIN || start > LONG_TERM_MAX) return err('COUNTDOWN_LONG_TERM_RANGE', `a long-term countdown runs ${LONG_TERM_MIN} to ${LONG_TERM_MAX} ticks`, 'start');
  }
  const beats = beatsOf(p.beats, start, kind);
  if (!beats.ok) return beats;
  if (getCountdowns(world).order.length >= MAX_COUNTDOWNS) return err(ErrorCode.LIMIT_EXCEEDED, `a table holds at most ${MAX_COUNTDOWNS} countdowns`);
  return ok({
    name: name.value,
    kind,
    repeat,
    start,
    value: start,
    startDie,
    startRoll,
    rerollOnReset: reroll,
    status: 'active',
    endReason: null,
    visibility: p.visibility ?? 'visible',
    triggers: 0,
    activation: p.activation?.trim() ?? '',
    advancement: p.advancement?.trim() ?? '',
    effect: p.effect?.trim() ?? '',
    finalEffect: p.finalEffect?.trim() ?? '',
    beats: beats.value,
    restTicks,
  });
}

/**
 * For another module's command that brings countdowns with it (an adversary's
 * move): the countdown.created event for a countdown.create payload without
 * linkedTo, with its id minted from `world`. Pass the returned world to the
 * next call when minting several in one decide.
 */
export function newCountdownEvent(world: World, c: Command, rng: Rng): Result<{ readonly event: EngineEvent; readonly world: World }> {
  // Another module's payload has not met the engine's schema gate: it is parsed here, as a command would be.
  const p = parsePayload(createDeclaration, c);
  if (!p.ok) return p;
  const fresh = readNew(world, p.value, rng);
  if (!fresh.ok) return fresh;
  const [id, next] = mintId(world, 'cd', rng);
  const cd: Countdown = { ...fresh.value, id, chaseId: null, linkedTo: null };
  const grown = { ...getCountdowns(next), order: [...getCountdowns(next).order, id] };
  return ok({ event: stored({ type: 'countdown.created', id, countdown: cd, need: cd.beats.length > 0 ? 'gm' : needFor(cd, 'values') }), world: setCountdowns(next, grown) });
}

// ---------------------------------------------------------------- commands

const commands: Record<string, CommandHandler & { label: string }> = {
  'countdown.create': handlerOf(createDeclaration, {
    label: 'start a countdown',
    decide(world, p, env) {
      const fresh = readNew(world, p, env.rng);
      if (!fresh.ok) return fresh;
      const [id, w1] = mintId(world, 'cd', env.rng);
      if (p.linkedCountdownId === undefined) {
        const cd: Countdown = { ...fresh.value, id, chaseId: null, linkedTo: null };
        // Story beats are the GM's plans, so an event carrying them stays with the GM (players read reached beats in the view).
        return ok([stored({ type: 'countdown.created', id, countdown: cd, need: cd.beats.length > 0 ? 'gm' : needFor(cd, 'values') })]);
      }
      // linkedCountdownId: pair the new countdown with an existing one of the other dynamic kind, making a chase (000 "Chase Countdowns").
      const other = countdownOf(world, p.linkedCountdownId, 'linkedCountdownId');
      if (!other.ok) return other;
      const o = other.value;
      const kinds = [fresh.value.kind, o.kind].sort().join('+');
      if (kinds !== 'consequence+progress') return err('CHASE_KINDS', 'a chase pairs one progress countdown (the PCs) with one consequence countdown (the other party)', 'linkedCountdownId');
      if (o.chaseId !== null || o.status === 'ended') return err('CHASE_UNAVAILABLE', `${o.name} is already in a chase or has ended`, 'linkedCountdownId');
      if (fresh.value.repeat !== 'once' || o.repeat !== 'once') return err('CHASE_KINDS', 'chase countdowns do not repeat', 'repeat');
      const [chaseId] = mintId(w1, 'chase', env.rng);
      const cd: Countdown = { ...fresh.value, id, chaseId, linkedTo: o.id };
      const progressId = cd.kind === 'progress' ? id : o.id;
      const consequenceId = cd.kind === 'progress' ? o.id : id;
      const chase: Chase = { id: chaseId, name: cd.name, progressId, consequenceId, pcs: p.pcs ?? 'pursuing', result: null };
      return ok([
        stored({ type: 'countdown.created', id, countdown: cd, need: needFor(cd, 'values') }),
        stored({ type: 'chase.linked', id: chaseId, ids: [progressId, consequenceId], chase, need: needFor(cd, 'values') === 'values' && needFor(o, 'values') === 'values' ? 'values' : 'gm' }),
      ]);
    },
  }),
  'chase.create': handlerOf(chaseCreateDeclaration, {
    label: 'start a chase',
    decide(world, p, env) {
      const name = named(p.name, 'name');
      if (!name.ok) return name;
      // 000 "Chase Countdowns": the pursuers' die starts at its highest value, the escapee's lower (their lead).
      if (p.lead >= p.die) return err(ErrorCode.INVALID_VALUE, `lead: must be below the die, from 1 to ${p.die - 1}`, 'lead');
      const pcs = p.pcs ?? 'pursuing';
      const visibility = p.visibility ?? 'visible';
      // Side names and effects are shown where a name goes: trimmed, and as long as a name at most.
      const texts = {
        progressName: (p.progressName ?? '').trim().slice(0, MAX_NAME),
        consequenceName: (p.consequenceName ?? '').trim().slice(0, MAX_NAME),
        progressEffect: (p.progressEffect ?? '').trim().slice(0, MAX_NAME),
        consequenceEffect: (p.consequenceEffect ?? '').trim().slice(0, MAX_NAME),
      };
      if (getCountdowns(world).order.length + 2 > MAX_COUNTDOWNS) return err(ErrorCode.LIMIT_EXCEEDED, `a table holds at most ${MAX_COUNTDOWNS} countdowns`);
      const [chaseId, w1] = mintId(world, 'chase', env.rng);
      const [pid, w2] = mintId(w1, 'cd', env.rng);
      const [cid] = mintId(w2, 'cd', env.rng);
      const progressStart = pcs === 'pursuing' ? p.die : p.lead;
      const consequenceStart = pcs === 'pursuing' ? p.lead : p.die;
      const common = {
        repeat: 'once' as const,
        startDie: null,
        startRoll: null,
        rerollOnReset: false,
        status: 'active' as const,
        endReason: null,
        visibility: visibility,
        triggers: 0,
        activation: '',
        advancement: '',
        finalEffect: '',
        beats: [],
        restTicks: { shortRest: 0, longRest: 0 },
        chaseId,
      };
      const progress: Countdown = {
        ...common,
        id: pid,
        name: texts.progressName || `${name.value}: the PCs`,
        kind: 'progress',
        start: progressStart,
        value: progressStart,
        effect: texts.progressEffect || (pcs === 'pursuing' ? 'The PCs catch up.' : 'The PCs get away.'),
        linkedTo: cid,
      };
      const consequence: Countdown = {
        ...common,
        id: cid,
        name: texts.consequenceName || `${name.value}: the other party`,
        kind: 'consequence',
        start: consequenceStart,
        value: consequenceStart,
        effect: texts.consequenceEffect || (pcs === 'pursuing' ? 'The quarry escapes.' : 'The pursuers catch the PCs.'),
        linkedTo: pid,
      };
      const chase: Chase = { id: chaseId, name: name.value, progressId: pid, consequenceId: cid, pcs: pcs, result: null };
      return ok([
        stored({ type: 'chase.created', id: chaseId, ids: [pid, cid], chase, progress, consequence, need: needFor(progress, 'values') }),
      ]);
    },
  }),
  // The hand-moved commands take their parsed payloads (ADR 13, STYLE 1): limits and defaults are the declaration's.
  'countdown.tick': handlerOf(tickDeclaration, {
    label: 'tick a countdown',
    decide(world, { countdownId, by = 1 }, env) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      if (cd.value.status === 'ended') return err('COUNTDOWN_ENDED', `${cd.value.name} has ended; set it to start again`, 'countdownId');
      const events = tickEvents(cd.value, by, 'manual', env.rng);
      const chase = cd.value.chaseId === null ? undefined : own(getCountdowns(world).chases, cd.value.chaseId);
      if (chase !== undefined) {
        const s = getCountdowns(world);
        const before = { progress: own(s.countdowns, chase.progressId)?.value ?? 0, consequence: own(s.countdowns, chase.consequenceId)?.value ?? 0 };
        const ticks = chase.progressId === cd.value.id ? { progress: by, consequence: 0 } : { progress: 0, consequence: by };
        events.push(...chaseEvents(world, chase, before, ticks));
      }
      return ok(events);
    },
  }),
  'countdown.outcome': handlerOf(outcomeDeclaration, {
    // A roll made off the engine (real dice, another app): the GM enters its outcome and every
    // standard, dynamic and chase countdown moves by the advancement table in one transaction.
    label: 'tick countdowns from a roll',
    decide(world, { outcome }) {
      if (!isOutcome(outcome)) return err(ErrorCode.INVALID_VALUE, `outcome must be one of ${OUTCOMES.join(', ')}`, 'outcome');
      // Players read the entry only if a countdown they know of moves with rolls; otherwise it would tell them hidden ones did.
      const known = countdownList(world).some((cd) => cd.status === 'active' && publicExistence(cd) && (ticksFor(cd.kind, outcome) > 0 || cd.chaseId !== null));
      const need = known ? 'existence' : 'gm';
      return ok([
        stored({ type: 'countdown.outcomeEntered', outcome, need }),
        storedEvent({ type: 'actionRoll.resolved', outcome, characterId: null, need } satisfies ActionRollResolved),
      ]);
    },
  }),
  'countdown.untick': handlerOf(untickDeclaration, {
    label: 'untick a countdown',
    decide(world, { countdownId, by = 1 }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      if (cd.value.status === 'ended') return err('COUNTDOWN_ENDED', `${cd.value.name} has ended; set it to start again`, 'countdownId');
      const to = cd.value.value + by;
      if (to > MAX_COUNTDOWN_VALUE) return err(ErrorCode.LIMIT_EXCEEDED, `a countdown value is at most ${MAX_COUNTDOWN_VALUE}`, 'by');
      return ok([{ type: 'countdown.unticked', id: cd.value.id, from: cd.value.value, to, need: needFor(cd.value, 'values'), logged: true }]);
    },
  }),
  'countdown.set': handlerOf(setDeclaration, {
    label: 'set a countdown',
    decide(world, { countdownId, value, start }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      const chase = cd.value.chaseId === null ? undefined : own(getCountdowns(world).chases, cd.value.chaseId);
      if (chase !== undefined && chase.result !== null) return err('CHASE_OVER', `the chase ${chase.name} is over`, 'countdownId');
      return ok([{ type: 'countdown.set', id: cd.value.id, from: cd.value.value, to: value, fromStart: cd.value.start, start: start ?? cd.value.start, wasStatus: cd.value.status, need: needFor(cd.value, 'values') }]);
    },
  }),
  'countdown.pause': handlerOf(pauseDeclaration, {
    label: 'pause a countdown',
    decide(world, { countdownId }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      if (cd.value.status !== 'active') return err('COUNTDOWN_NOT_ACTIVE', `${cd.value.name} is ${cd.value.status}`, 'countdownId');
      return ok([{ type: 'countdown.paused', id: cd.value.id, need: needFor(cd.value, 'existence') }]);
    },
  }),
  'countdown.resume': handlerOf(resumeDeclaration, {
    label: 'resume a countdown',
    decide(world, { countdownId }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      if (cd.value.status !== 'paused') return err('COUNTDOWN_NOT_PAUSED', `${cd.value.name} is ${cd.value.status}`, 'countdownId');
      return ok([{ type: 'countdown.resumed', id: cd.value.id, need: needFor(cd.value, 'existence') }]);
    },
  }),
  'countdown.reveal': handlerOf(revealDeclaration, {
    label: 'reveal a countdown',
    decide(world, { countdownId, to = 'visible' }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      if (cd.value.visibility === to) return err('COUNTDOWN_ALREADY', `${cd.value.name} is already ${to}`, 'to');
      const after = { ...cd.value, visibility: to };
      return ok([{ type: 'countdown.revealed', id: cd.value.id, from: cd.value.visibility, to, need: needFor(after, 'existence') }]);
    },
  }),
  'countdown.hide': handlerOf(hideDeclaration, {
    label: 'hide a countdown',
    decide(world, { countdownId, to = 'hidden' }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      if (cd.value.visibility === to) return err('COUNTDOWN_ALREADY', `${cd.value.name} is already ${to}`, 'to');
      const after = { ...cd.value, visibility: to };
      return ok([{ type: 'countdown.hidden', id: cd.value.id, from: cd.value.visibility, to, need: needFor(after, 'existence') }]);
    },
  }),
  'countdown.remove': handlerOf(removeDeclaration, {
    label: 'remove a countdown',
    decide(world, { countdownId }) {
      const cd = countdownOf(world, countdownId);
      if (!cd.ok) return cd;
      const s = getCountdowns(world);
      // Removing one of a chase pair removes the chase and both countdowns.
      const chase = cd.value.chaseId === null ? undefined : own(s.chases, cd.value.chaseId);
      const ids = chase === undefined ? [cd.value.id] : [chase.progressId, chase.consequenceId];
      return ok(
        ids.flatMap((id) => {
          const x = own(s.countdowns, id);
          return x === undefined ? [] : [{ type: 'countdown.removed', id, name: x.name, chaseId: x.chaseId, tier: tierOf(x), need: needFor(x, 'existence') }];
        }),
      );
    },
  }),
};

// ---------------------------------------------------------------- reducers


function addCountdown(world: World, cd: Countdown): World {
  const s = getCountdowns(world);
  const w = setCountdowns(world, { ...s, countdowns: { ...s.countdowns, [cd.id]: cd }, order: [...s.order, cd.id] });
  return claimId(w, cd.id);
}

function describeStart(cd: Countdown): string {
  return cd.startRoll === null ? `${cd.start}` : `${cd.startRoll.total} (rolled ${cd.startRoll.formula}: ${cd.startRoll.dice.join(' + ')}${cd.startRoll.bonus > 0 ? ` + ${cd.startRoll.bonus}` : ''})`;
}

const evolve: Evolve<CountdownEvent> = {
  // Entries stored before `need` existed were public.
  'countdown.outcomeEntered': (w, e) => appendLog(w, { audience: e.need === 'gm' ? AUDIENCE_GM : AUDIENCE_ALL, kind: 'countdown.outcomeEntered', text: `A roll came out ${OUTCOME_WORDS[e.outcome] ?? e.outcome}: the countdowns move.`, data: { outcome: e.outcome } }),
  'countdown.created': (w, e) => {
    const cd = e.countdown;
    let next = addCountdown(w, cd);
    next = log(next, cd, 'existence', 'countdown.created', `A countdown began: ${cd.name}.`);
    next = log(next, cd, 'values', 'countdown.started', `${cd.name} starts at ${describeStart(cd)}.`);
    for (const b of beatsReached(cd.beats, cd.start + 1, cd.start)) next = beatLog(next, cd, b);
    return next;
  },
  'chase.created': (w, e) => {
    const { chase, progress: p, consequence: c } = e;
    let next = addCountdown(addCountdown(w, p), c);
    const s = getCountdowns(next);
    next = claimId(setCountdowns(next, { ...s, chases: { ...s.chases, [chase.id]: chase } }), chase.id);
    return log(next, p, 'values', 'chase.created', `A chase began: ${chase.name} (the PCs at ${p.value}, the other party at ${c.value}).`);
  },
  'chase.linked': (w, e) => {
    const chase = e.chase;
    let next = updateCountdown(w, chase.consequenceId, (c) => (c.chaseId === null ? { ...c, chaseId: chase.id, linkedTo: chase.progressId } : c));
    next = updateCountdown(next, chase.progressId, (c) => (c.chaseId === null ? { ...c, chaseId: chase.id, linkedTo: chase.consequenceId } : c));
    const s = getCountdowns(next);
    next = claimId(setCountdowns(next, { ...s, chases: { ...s.chases, [chase.id]: chase } }), chase.id);
    const p = own(getCountdowns(next).countdowns, chase.progressId);
    const audience = e.need === 'values' ? AUDIENCE_ALL : AUDIENCE_GM;
    return p === undefined ? next : appendLog(next, { audience, kind: 'chase.created', text: `A chase began: ${chase.name}.`, data: { chaseId: chase.id, countdownId: chase.progressId, otherId: chase.consequenceId, need: 'values' } });
  },
  'countdown.ticked': (w, e) => {
    const id = e.id;
    let next = updateCountdown(w, id, (c) => ({ ...c, value: e.to }));
    const cd = own(getCountdowns(next).countdowns, id);
    if (cd === undefined) return next;
    if (e.logged === true) next = tickLog(next, cd, e);
    const at = e.beatsAt ?? [];
    for (const b of cd.beats) if (at.includes(b.at)) next = beatLog(next, cd, b);
    return next;
  },
  'countdown.triggered': (w, e) => {
    const id = e.id;
    const next = updateCountdown(w, id, (c) => ({ ...c, value: 0, triggers: e.count }));
    const cd = own(getCountdowns(next).countdowns, id);
    if (cd === undefined) return next;
    return log(next, cd, 'values', 'countdown.triggered', `${cd.name} triggers${cd.effect === '' ? '' : `: ${cd.effect}`}`);
  },
  'countdown.reset': (w, e) => {
    const { id, start } = e;
    const roll = e.startRoll ?? null;
    const next = updateCountdown(w, id, (c) => ({ ...c, start, value: start, ...(roll === null ? {} : { startRoll: roll }) }));
    const cd = own(getCountdowns(next).countdowns, id);
    if (cd === undefined) return next;
    const how = cd.repeat === 'increasing' ? ` (was ${e.fromStart}, increasing)` : cd.repeat === 'decreasing' ? ` (was ${e.fromStart}, decreasing)` : roll !== null ? ` (rerolled ${roll.formula}: ${roll.dice.join(' + ')})` : '';
    return log(next, cd, 'values', 'countdown.reset', `${cd.name} resets to ${start}${how}.`);
  },
  'countdown.ended': (w, e) => {
    const { id, reason } = e;
    const next = updateCountdown(w, id, (c) => ({ ...c, status: 'ended', endReason: reason }));
    const cd = own(getCountdowns(next).countdowns, id);
    if (cd === undefined || reason !== 'finalEvent') return next;
    return log(next, cd, 'values', 'countdown.finalEvent', `${cd.name} would reset to 0: the major event happens${cd.finalEffect === '' ? '' : `: ${cd.finalEffect}`}`);
  },
  'chase.ended': (w, e) => {
    const { id, result } = e;
    const s = getCountdowns(w);
    const chase = own(s.chases, id);
    if (chase === undefined) return w;
    let next = setCountdowns(w, { ...s, chases: { ...s.chases, [id]: { ...chase, result } } });
    // Both countdowns stop: the one that reached 0 triggered, the other ends with the chase.
    for (const cid of [chase.progressId, chase.consequenceId]) {
      next = updateCountdown(next, cid, (c) => ({ ...c, status: 'ended', endReason: c.value === 0 ? 'triggered' : 'chaseOver' }));
    }
    const p = own(getCountdowns(next).countdowns, chase.progressId);
    if (p === undefined) return next;
    const words = result === 'both' ? 'both countdowns ran out on the same roll' : result === 'pcs' ? (chase.pcs === 'pursuing' ? 'the PCs catch their quarry' : 'the PCs get away') : chase.pcs === 'pursuing' ? 'the quarry gets away' : 'the pursuers catch the PCs';
    const audience = e.need === 'values' ? AUDIENCE_ALL : AUDIENCE_GM;
    return appendLog(next, { audience, kind: 'chase.ended', text: `${chase.name} is over: ${words}.`, data: { chaseId: id, countdownId: chase.progressId, otherId: chase.consequenceId, need: 'values', result } });
  },
  'countdown.unticked': (w, e) => {
    const next = updateCountdown(w, e.id, (c) => ({ ...c, value: e.to }));
    const cd = own(getCountdowns(next).countdowns, e.id);
    return cd === undefined || e.logged !== true ? next : tickLog(next, cd, e);
  },
  'countdown.set': (w, e) =>
    updateCountdown(w, e.id, (c) => ({ ...c, value: e.to, start: e.start, status: c.status === 'ended' ? 'active' : c.status, endReason: c.status === 'ended' ? null : c.endReason })),
  'countdown.paused': (w, e) => updateCountdown(w, e.id, (c) => ({ ...c, status: 'paused' })),
  'countdown.resumed': (w, e) => updateCountdown(w, e.id, (c) => ({ ...c, status: 'active' })),
  'countdown.revealed': (w, e) => {
    const id = e.id;
    const next = updateCountdown(w, id, (c) => ({ ...c, visibility: e.to }));
    const cd = own(getCountdowns(next).countdowns, id);
    return cd === undefined ? next : log(next, cd, 'existence', 'countdown.revealed', `The GM reveals a countdown: ${cd.name}.`);
  },
  'countdown.hidden': (w, e) => updateCountdown(w, e.id, (c) => ({ ...c, visibility: e.to })),
  'countdown.removed': (w, e) => {
    const id = e.id;
    const s = getCountdowns(w);
    const cd = own(s.countdowns, id);
    if (cd === undefined) return w;
    const countdowns = { ...s.countdowns };
    delete countdowns[id];
    const chases = { ...s.chases };
    if (cd.chaseId !== null) delete chases[cd.chaseId];
    const next = setCountdowns(w, { countdowns, order: s.order.filter((x) => x !== id), chases, gone: { ...s.gone, [id]: tierOf(cd) } });
    return appendLog(next, { audience: RANK[tierOf(cd)] >= RANK.existence ? AUDIENCE_ALL : AUDIENCE_GM, kind: 'countdown.removed', text: `${cd.name} is put away.`, data: { countdownId: id, need: 'existence' } });
  },
};

const TICK_CAUSES: { readonly [cause: string]: string } = { manual: 'by hand', shortRest: 'a short rest', longRest: 'a long rest' };
/** "an action roll: a success with Fear", the roll that ticked a countdown. */
const rollCause = (outcome: DualityOutcome | undefined): string => `an action roll${outcome === undefined ? '' : `: ${OUTCOME_WORDS[outcome]}`}`;

/**
 * The line for a tick by hand or on a rest (000 "Advancing a Long-Term
 * Countdown"), and for ticks taken back: with its values for whoever may read
 * them, by name only where players know just that it exists, else the GM's.
 */
function tickLog(world: World, cd: Countdown, e: CountdownTicked | CountdownUnticked): World {
  const back = e.type === 'countdown.unticked';
  const why = e.type === 'countdown.unticked' ? 'ticks taken back by hand' : e.cause === 'roll' ? rollCause(e.outcome) : (own(TICK_CAUSES, e.cause) ?? e.cause);
  const text = `${cd.name}: ${e.from} -> ${e.to} (${why}).`;
  const tier = tierOf(cd);
  const audience = tier === 'none' ? AUDIENCE_GM : AUDIENCE_ALL;
  const need = tier === 'values' ? 'values' : 'existence';
  const shown = tier === 'existence' ? `${cd.name} ${back ? 'moves back' : 'ticks'} (${why}).` : undefined;
  return appendLog(world, { audience, kind: back ? 'countdown.unticked' : 'countdown.ticked', text, shown, data: { countdownId: cd.id, need } });
}

function beatLog(world: World, cd: Countdown, b: Beat): World {
  // A beat "the party can learn of" is news for everyone if the countdown's values are public; otherwise a prompt for the GM.
  const text = `${cd.name}, ${b.at}: ${b.text}${b.partyCanLearn ? ' (the party can learn of this)' : ''}`;
  const audience = b.partyCanLearn && tierOf(cd) === 'values' ? AUDIENCE_ALL : AUDIENCE_GM;
  return appendLog(world, { audience, kind: 'countdown.beat', text, data: { countdownId: cd.id, need: 'values', at: b.at } });
}

// ---------------------------------------------------------------- reactions

const OUTCOME_WORDS: { readonly [o in DualityOutcome]: string } = {
  critical: 'a critical success',
  successWithHope: 'a success with Hope',
  successWithFear: 'a success with Fear',
  failureWithHope: 'a failure with Hope',
  failureWithFear: 'a failure with Fear',
};

const isOutcome = (o: unknown): o is DualityOutcome => typeof o === 'string' && (OUTCOMES as readonly string[]).includes(o);

/** "Standard", "Dynamic" and "Chase" countdowns tick on every action roll once it is resolved. */
const onActionRoll: Reaction = reactionOf<ActionRollResolved>(['actionRoll.resolved'], (world, event, env) => {
  // Stored by hand-written clients before the union: an outcome the table never names moves nothing.
  if (!isOutcome(event.outcome)) return [];
  const outcome = event.outcome;
  const s = getCountdowns(world);
  const out: EngineEvent[] = [];
  const chasesTouched = new Set<string>();
  for (const cd of countdownList(world)) {
    if (cd.status !== 'active') continue;
    const by = ticksFor(cd.kind, outcome);
    if (by > 0) out.push(...tickEvents(cd, by, 'roll', env.rng, outcome));
    if (cd.chaseId !== null) chasesTouched.add(cd.chaseId);
  }
  for (const chaseId of chasesTouched) {
    const chase = own(s.chases, chaseId);
    const p = chase === undefined ? undefined : own(s.countdowns, chase.progressId);
    const c = chase === undefined ? undefined : own(s.countdowns, chase.consequenceId);
    if (chase === undefined || p === undefined || c === undefined) continue;
    // A paused member does not move (the GM paused it on purpose); the other still may end the chase.
    const by = { progress: p.status === 'active' ? ticksFor(p.kind, outcome) : 0, consequence: c.status === 'active' ? ticksFor(c.kind, outcome) : 0 };
    out.push(...chaseEvents(world, chase, { progress: p.value, consequence: c.value }, by));
  }
  return out;
});

/** "Advancing a Long-Term Countdown": a short rest ticks once, a long rest twice (per countdown's restTicks). */
const onRest: Reaction = reactionOf<EventOf<CoreEvent, 'clock.advanced'>>(['clock.advanced'], (world, event, env) => {
  const unit = event.unit;
  if (unit !== 'shortRest' && unit !== 'longRest') return [];
  const count = event.count;
  if (!Number.isInteger(count) || count <= 0) return [];
  const out: EngineEvent[] = [];
  for (const cd of countdownList(world)) {
    if (cd.status !== 'active' || cd.kind !== 'longTerm') continue;
    const by = Math.min(MAX_COUNTDOWN_VALUE, count * cd.restTicks[unit]);
    if (by > 0) out.push(...tickEvents(cd, by, unit, env.rng));
  }
  return out;
});

// ---------------------------------------------------------------- projection

function logAllowed(world: World, e: LogEntry): boolean {
  const d = e.data;
  if (d === undefined || d === null || typeof d !== 'object' || Array.isArray(d)) return true;
  const need = d['need'];
  if (need !== 'values' && need !== 'existence') return true;
  for (const key of ['countdownId', 'otherId']) {
    const id = d[key];
    if (typeof id !== 'string') continue;
    const t = currentTier(world, id);
    if (t !== null && RANK[t] < RANK[need]) return false;
  }
  return true;
}

/** `gone` as text, once per object (it changes only when a countdown is removed). */
const goneTexts = new WeakMap<object, string>();

/** What the log filter reads besides each entry: the tier of every countdown and of every removed one. */
function logBasis(world: World): string {
  const s = getCountdowns(world);
  let out = goneTexts.get(s.gone);
  if (out === undefined) goneTexts.set(s.gone, (out = JSON.stringify(s.gone)));
  // Ids are quoted, so no id can run into the tier after it.
  for (const id in s.countdowns) if (Object.hasOwn(s.countdowns, id)) out += `${JSON.stringify(id)}${tierOf(s.countdowns[id]!)[0]}`;
  return out;
}

/** Players and spectators: hidden countdowns vanish, existence-only ones keep their name, log lines follow suit. */
/**
 * What players see of the countdowns, made once per countdowns state: it reads the state alone, and
 * the state is immutable. Most commands leave it alone, while the log-by-entry step still runs this
 * projector on every new entry; a countdown ticked re-makes only its own shown copy (`shownCountdowns`),
 * so the others keep their objects and the delta skips them by reference.
 */
const shownParts = new WeakMap<CountdownsState, Json>();
const shownCountdowns = new WeakMap<Countdown, Json | null>();

function shownCountdown(cd: Countdown): Json | null {
  let seen = shownCountdowns.get(cd);
  if (seen === undefined) {
    const r = redactCountdown(cd);
    shownCountdowns.set(cd, (seen = r === null ? null : asJson(r)));
  }
  return seen;
}

function shownPart(s: CountdownsState): Json {
  const kept = shownParts.get(s);
  if (kept !== undefined) return kept;
  const countdowns: { [id: string]: Json } = {};
  const order: string[] = [];
  for (const id of s.order) {
    const cd = own(s.countdowns, id);
    if (cd === undefined) continue;
    const seen = shownCountdown(cd);
    if (seen === null) continue;
    countdowns[id] = seen;
    order.push(id);
  }
  const chases: { [id: string]: Json } = {};
  for (const [id, ch] of Object.entries(s.chases)) {
    const p = own(s.countdowns, ch.progressId);
    const c = own(s.countdowns, ch.consequenceId);
    if (p === undefined || c === undefined || !publicExistence(p) || !publicExistence(c)) continue;
    // Who won is read off the values: players learn it only when both sides' values are theirs to read.
    chases[id] = asJson(shownChase(ch, publicValues(p) && publicValues(c)));
  }
  // A link to a countdown or chase players cannot know of would tell them one exists.
  for (const id of order) {
    const cd = countdowns[id] as { linkedTo?: string | null; chaseId?: string | null };
    if (cd.linkedTo !== undefined && cd.linkedTo !== null && !Object.hasOwn(countdowns, cd.linkedTo)) countdowns[id] = { ...(cd as { [k: string]: Json }), linkedTo: null };
    if (cd.chaseId !== undefined && cd.chaseId !== null && !Object.hasOwn(chases, cd.chaseId)) countdowns[id] = { ...(countdowns[id] as { [k: string]: Json }), chaseId: null };
  }
  // `gone` only serves the filters below; players do not need it.
  const part: Json = { countdowns, order, chases, gone: {} };
  shownParts.set(s, part);
  return part;
}

function project(world: World, viewer: Viewer): World {
  if (viewer.role === 'gm') return world;
  const ext = { ...world.ext, [COUNTDOWNS_ID]: shownPart(getCountdowns(world)) };
  // A loop, not a filter with a closure: this runs per command for the entries just written.
  const log: LogEntry[] = [];
  for (const e of world.log) if (logAllowed(world, e)) log.push(e);
  return { ...world, ext, log };
}

/** The projector's rule for one id: a countdown it redacts to nothing, or a chase with a side players cannot know of, is hidden. */
function idStatus(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined {
  const s = getCountdowns(world);
  const cd = own(s.countdowns, id);
  const ch = own(s.chases, id);
  if (cd === undefined && ch === undefined) return undefined;
  if (viewer.role === 'gm') return 'shown';
  if (cd !== undefined && s.order.includes(id) && redactCountdown(cd) !== null) return 'shown';
  if (ch !== undefined) {
    const p = own(s.countdowns, ch.progressId);
    const c = own(s.countdowns, ch.consequenceId);
    if (p !== undefined && c !== undefined && publicExistence(p) && publicExistence(c)) return 'shown';
  }
  return 'hidden';
}

// ---------------------------------------------------------------- the module

const audience = {
  ...sameAudience(evolve, eventAudience),
  // The roll event countdown.outcome emits goes no further than its entry (a ruleset's own action rolls carry no `need`).
  ...audiencesOf<ActionRollResolved>({ 'actionRoll.resolved': (_w, e) => (e.need === 'gm' ? AUDIENCE_GM : AUDIENCE_ALL) }),
};

export const countdownsModule: Module = {
  id: COUNTDOWNS_ID,
  commands,
  reducers: reducersOf(evolve),
  reactions: [onActionRoll, onRest],
  project,
  // Log lines are kept or dropped one by one, by the countdowns they name.
  // A tick changes the countdowns but seldom a tier: the lines already judged then stay as they were.
  projectReads: { reads: [`ext.${COUNTDOWNS_ID}`], writes: [`ext.${COUNTDOWNS_ID}`, 'log'], logByEntry: true, logBasis },
  idStatus,
  audience,
  queries: { 'countdown.odds': countdownOddsQuery },
  catalog: countdownsCatalog,
};
