// The turn timer module (issue 20, ADR 29): `timer.set` (0 turns it off),
// `timer.pause`, `timer.resume`, `timer.restart`, by the GM; every turn start
// (the kernel's encounter.turnStarted, in any ruleset) restarts it through a
// reaction stamped with the server's clock. Display time only: nothing else reads it.
import { z } from 'zod';
import { catalogOf, defineCommand, int, type DefinedCommand } from '../core/catalog.js';
import { err, ErrorCode, ok } from '../core/result.js';
import type { EngineEvent, Env, Module, Reaction, World } from '../core/types.js';
import { asJson, reducersOf, type Evolve } from '../core/events.js';
import { getEncounter } from '../encounter/state.js';
import { MAX_TURN_SECONDS, MIN_TURN_SECONDS, TIMER_ID, TIMER_OFF, timerOf, type TimerState } from './model.js';

/** The timer's events: every stamp is the server's clock in ms, null on a table without one. */
type TimerEvent =
  | { readonly type: 'timer.set'; readonly seconds: number; readonly at: number | null }
  | { readonly type: 'timer.started'; readonly at: number | null }
  | { readonly type: 'timer.stopped' }
  | { readonly type: 'timer.paused'; readonly at: number }
  | { readonly type: 'timer.resumed'; readonly at: number };

const put = (w: World, t: TimerState): World => ({ ...w, ext: { ...w.ext, [TIMER_ID]: asJson(t) } });
const at = (env: Env): number | null => (typeof env.now === 'number' && Number.isFinite(env.now) ? Math.floor(env.now) : null);
/** Is somebody taking a turn now (so a fresh turn time can begin)? */
const turnRunning = (w: World): boolean => {
  const enc = getEncounter(w);
  return enc.active && enc.current !== null;
};

const setTimer = defineCommand('timer.set', {
  summary: 'Set the time per turn shown to everyone (0 turns the timer off); display only, no rule reads it',
  who: 'gm',
  label: 'set the turn timer',
  input: z
    .strictObject({ seconds: int(0, MAX_TURN_SECONDS, `seconds per turn: 0 (off) or ${MIN_TURN_SECONDS} to ${MAX_TURN_SECONDS}`) })
    .superRefine((p, ctx) => {
      if (p.seconds > 0 && p.seconds < MIN_TURN_SECONDS) ctx.addIssue({ code: 'custom', path: ['seconds'], message: `must be 0 (off) or from ${MIN_TURN_SECONDS} to ${MAX_TURN_SECONDS}` });
    }),
  decide(world, p, env) {
    return ok([{ type: 'timer.set', seconds: p.seconds, at: turnRunning(world) ? at(env) : null }]);
  },
});

/** The GM's three buttons on a running count: each checks the timer and the clock it needs, then stamps its event. */
const controls: readonly { type: string; summary: string; label: string; decide: (t: TimerState, w: World, now: number | null) => string | EngineEvent }[] = [
  {
    type: 'timer.pause',
    summary: 'Pause the turn timer',
    label: 'pause the turn timer',
    decide(t, _w, now) {
      if (t.seconds === 0 || t.startedAt === null) return 'the turn timer is not running';
      if (t.pausedAt !== null) return 'the turn timer is already paused';
      return now === null ? 'this table has no clock to pause against' : { type: 'timer.paused', at: now };
    },
  },
  {
    type: 'timer.resume',
    summary: 'Resume a paused turn timer',
    label: 'resume the turn timer',
    decide(t, _w, now) {
      if (t.pausedAt === null) return 'the turn timer is not paused';
      return now === null ? 'this table has no clock to resume against' : { type: 'timer.resumed', at: Math.max(now, t.pausedAt) };
    },
  },
  {
    type: 'timer.restart',
    summary: 'Give the acting combatant a fresh turn time',
    label: 'restart the turn timer',
    decide(t, w, now) {
      if (t.seconds === 0) return 'the turn timer is off: set a time per turn first';
      return turnRunning(w) ? { type: 'timer.started', at: now } : 'nobody is taking a turn now';
    },
  },
];
const defined: DefinedCommand<z.ZodType>[] = [
  setTimer,
  ...controls.map((c) =>
    defineCommand(c.type, {
      summary: c.summary,
      who: 'gm',
      label: c.label,
      input: z.strictObject({}),
      decide(world, _p, env) {
        const out = c.decide(timerOf(world), world, at(env));
        return typeof out === 'string' ? err(ErrorCode.INVALID_VALUE, out, 'type') : ok([out]);
      },
    }),
  ),
];

/** A stamp as stored: the server's clock in ms, or null on a table without one. */
const num = (v: number | null | undefined): number | null => (typeof v === 'number' ? v : null);

const evolve: Evolve<TimerEvent> = {
  'timer.set': (w, e) => {
    const seconds = num(e.seconds) ?? 0;
    return put(w, seconds === 0 ? TIMER_OFF : { seconds, startedAt: num(e.at), pausedAt: null, pausedMs: 0 });
  },
  'timer.started': (w, e) => put(w, { ...timerOf(w), startedAt: num(e.at), pausedAt: null, pausedMs: 0 }),
  'timer.stopped': (w) => put(w, { ...timerOf(w), startedAt: null, pausedAt: null, pausedMs: 0 }),
  'timer.paused': (w, e) => put(w, { ...timerOf(w), pausedAt: num(e.at) }),
  'timer.resumed': (w, e) => {
    const t = timerOf(w);
    const now = num(e.at);
    return put(w, { ...t, pausedAt: null, pausedMs: t.pausedMs + (t.pausedAt !== null && now !== null ? now - t.pausedAt : 0) });
  },
};
const reducers = reducersOf(evolve);

/** A turn start restarts the count; a turn's or the fight's end stops it until the next turn. */
const follow: Reaction = (w, e, env) => {
  const t = timerOf(w);
  if (t.seconds === 0) return [];
  if (e.type === 'encounter.turnStarted') return [{ type: 'timer.started', at: at(env) }];
  // Reactions see the world after earlier follow-ups: a turn end that already started the next turn leaves the new count running.
  if ((e.type === 'encounter.turnEnded' || e.type === 'encounter.ended') && t.startedAt !== null && !turnRunning(w)) return [{ type: 'timer.stopped' }];
  return [];
};

/** The turn timer for every table (it follows the kernel's turns, whatever the ruleset's turn order). */
export const timerModule: Module = {
  id: TIMER_ID,
  commands: Object.fromEntries(defined.map((d) => [d.declaration.type, d.handler])),
  catalog: catalogOf(...defined.map((d) => d.declaration)),
  reducers,
  reactions: [follow],
  // A hidden combatant's turn shows no running time to players: when its count began would tell them a turn happened.
  project(world, viewer, source) {
    if (viewer.role === 'gm' || !Object.hasOwn(world.ext, TIMER_ID)) return world;
    const full = getEncounter(source ?? world);
    const cur = full.current === null ? undefined : full.combatants[full.current];
    const t = timerOf(world);
    if (cur !== undefined && cur.visibility === 'hidden') return put(world, { seconds: t.seconds, startedAt: null, pausedAt: null, pausedMs: 0 });
    // Field by field (ADR 33): a key the state gains later stays with the GM.
    return put(world, { seconds: t.seconds, startedAt: t.startedAt, pausedAt: t.pausedAt, pausedMs: t.pausedMs });
  },
  // Judged on the unprojected encounter's current turn (ADR 20).
  projectReads: { reads: [`ext.${TIMER_ID}`, 'ext.encounter'], writes: [`ext.${TIMER_ID}`] },
  idStatus: () => undefined,
};
