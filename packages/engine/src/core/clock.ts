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
  const c = clock.counts;
  // Every clock has had these nine counts since the first one: written out in emptyClock's order (a spread with a
  // computed key costs several times more, ADR 116), so the stored JSON is what the spread gave.
  if (CLOCK_UNITS.includes(unit) && typeof c.actionRoll === 'number' && typeof c.beat === 'number' && typeof c.turn === 'number' && typeof c.round === 'number' && typeof c.travelTurn === 'number' && typeof c.shortRest === 'number' && typeof c.longRest === 'number' && typeof c.phase === 'number' && typeof c.time === 'number') {
    return {
      seconds: clock.seconds + seconds,
      counts: {
        actionRoll: unit === 'actionRoll' ? c.actionRoll + count : c.actionRoll,
        beat: unit === 'beat' ? c.beat + count : c.beat,
        turn: unit === 'turn' ? c.turn + count : c.turn,
        round: unit === 'round' ? c.round + count : c.round,
        travelTurn: unit === 'travelTurn' ? c.travelTurn + count : c.travelTurn,
        shortRest: unit === 'shortRest' ? c.shortRest + count : c.shortRest,
        longRest: unit === 'longRest' ? c.longRest + count : c.longRest,
        phase: unit === 'phase' ? c.phase + count : c.phase,
        time: unit === 'time' ? c.time + count : c.time,
      },
    };
  }
  // A clock from elsewhere (an imported world missing a count) or a unit not among the nine: as before.
  return { seconds: clock.seconds + seconds, counts: { ...c, [unit]: c[unit] + count } };
}
