// The turn timer (issue 20, ADR 29): display time only, no rule reads it. Its
// state holds server wall-clock times recorded in events (a command's or a
// turn start's `at`, from the server's Env.now), so every screen, a reloaded
// or reconnected one included, counts from the same start. Browser-safe: no
// zod, no engine imports at run time (`@tablekeeper/engine/timer`).
import type { Json, World } from '../core/types.js';
import { fromJson } from '../core/events.js';

export const TIMER_ID = 'timer';
/** Longest turn time a GM may set, in seconds (an hour). */
export const MAX_TURN_SECONDS = 3600;
/** Shortest non-zero turn time (a shorter one cannot be read before it ends). */
export const MIN_TURN_SECONDS = 10;

export interface TimerState {
  /** Seconds per turn; 0 = off (the default). */
  readonly seconds: number;
  /** Server time (ms since the epoch) the acting combatant's turn time began; null between turns or with no clock. */
  readonly startedAt: number | null;
  /** Server time it was paused, or null while it runs. */
  readonly pausedAt: number | null;
  /** Paused time already behind it in this turn (ms). */
  readonly pausedMs: number;
}

export const TIMER_OFF: TimerState = { seconds: 0, startedAt: null, pausedAt: null, pausedMs: 0 };

export function timerOf(world: Pick<World, 'ext'> | undefined): TimerState {
  const raw = world?.ext?.[TIMER_ID];
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return TIMER_OFF;
  const t = raw as { [k: string]: Json };
  return typeof t['seconds'] === 'number' ? fromJson<TimerState>(raw) : TIMER_OFF;
}

/** Milliseconds left of the turn at server time `now` (negative: over time), or null when no turn time runs. */
export function timeLeftMs(t: TimerState, now: number): number | null {
  if (t.seconds <= 0 || t.startedAt === null) return null;
  const used = (t.pausedAt ?? now) - t.startedAt - t.pausedMs;
  return t.seconds * 1000 - Math.max(0, used);
}
