// The one in-fiction clock. It moves only through the core's `clock.advanced`
// event; anything timed (conditions, torches, countdowns) reacts to that event.
import type { ClockUnit, Clock, EngineEvent, World } from './types.js';

export const CLOCK_UNITS: readonly ClockUnit[] = ['actionRoll', 'beat', 'turn', 'round', 'travelTurn', 'shortRest', 'longRest', 'phase', 'time'];
/** Limits on one advance (a user controls them through clock.advance). */
export const MAX_CLOCK_COUNT = 1000;
export const MAX_CLOCK_SECONDS = 366 * 24 * 3600;

export const emptyClock = (): Clock => ({
  seconds: 0,
  counts: { actionRoll: 0, beat: 0, turn: 0, round: 0, travelTurn: 0, shortRest: 0, longRest: 0, phase: 0, time: 0 },
});

export const isClockUnit = (u: unknown): u is ClockUnit => typeof u === 'string' && (CLOCK_UNITS as readonly string[]).includes(u);

/** The event any module emits to move time: `count` units and `seconds` of fiction. */
export function clockAdvanced(world: World, unit: ClockUnit, count = 1, seconds = 0): EngineEvent {
  const from = world.clock.seconds;
  return { type: 'clock.advanced', unit, count, seconds, from, to: from + seconds };
}

/** The reducer for clock.advanced (total: trusts the recorded event). */
export function advanceClock(clock: Clock, unit: ClockUnit, count: number, seconds: number): Clock {
  return { seconds: clock.seconds + seconds, counts: { ...clock.counts, [unit]: clock.counts[unit] + count } };
}
