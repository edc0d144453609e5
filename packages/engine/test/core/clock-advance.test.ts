// advanceClock writes the nine counts out instead of spreading them with a computed key (ADR 116): the clock it
// gives, key order included, must be exactly what the spread gave, for every unit and any counts a world may hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advanceClock, CLOCK_UNITS, emptyClock, type Clock, type ClockUnit } from '../../src/core/index.js';

/** The reducer as it was written before: the reference. */
const bySpread = (clock: Clock, unit: ClockUnit, count: number, seconds: number): Clock => ({ seconds: clock.seconds + seconds, counts: { ...clock.counts, [unit]: clock.counts[unit] + count } });

const unit = fc.constantFrom(...CLOCK_UNITS);
const counts = fc.tuple(...CLOCK_UNITS.map(() => fc.nat({ max: 10_000 })));
const clock = fc.record({ seconds: fc.nat({ max: 1_000_000 }), values: counts, missing: fc.option(unit, { nil: undefined }) }).map(({ seconds, values, missing }): Clock => {
  const c: { [u: string]: number } = {};
  CLOCK_UNITS.forEach((u, i) => {
    if (u !== missing) c[u] = values[i]!;
  });
  return { seconds, counts: c as Clock['counts'] };
});

describe('advanceClock', () => {
  it('gives the clock the spread gave, byte for byte, from whole clocks and from clocks missing a count', () => {
    fc.assert(
      fc.property(clock, unit, fc.nat({ max: 1000 }), fc.nat({ max: 366 * 24 * 3600 }), (c, u, count, seconds) => {
        expect(JSON.stringify(advanceClock(c, u, count, seconds))).toBe(JSON.stringify(bySpread(c, u, count, seconds)));
      }),
    );
  });

  it('moves only the unit advanced, and from a new table keeps emptyClock’s order of counts', () => {
    const after = advanceClock(advanceClock(emptyClock(), 'round', 2, 12), 'travelTurn', 1, 3600);
    expect(after).toEqual({ seconds: 3612, counts: { actionRoll: 0, beat: 0, turn: 0, round: 2, travelTurn: 1, shortRest: 0, longRest: 0, phase: 0, time: 0 } });
    expect(Object.keys(after.counts)).toEqual([...CLOCK_UNITS]);
  });
});
