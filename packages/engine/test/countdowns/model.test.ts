// Pure countdown rules from 000_5382b28a932eafef.txt, recomputed by hand.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedRng } from '../../src/dice/rng.js';
import {
  DYNAMIC_ADVANCEMENT,
  afterTrigger,
  beatsReached,
  decreasingTotalTicks,
  parseStartDie,
  redactCountdown,
  rollStart,
  tickValue,
  ticksFor,
  type Countdown,
} from '../../src/countdowns/model.js';

const base: Countdown = {
  id: 'c1',
  name: 'Rubble Falling',
  kind: 'consequence',
  repeat: 'decreasing',
  start: 7,
  value: 7,
  startDie: null,
  startRoll: null,
  rerollOnReset: false,
  status: 'active',
  endReason: null,
  visibility: 'visible',
  triggers: 0,
  activation: '',
  advancement: '',
  effect: 'rubble falls',
  finalEffect: 'the caves collapse',
  beats: [],
  restTicks: { shortRest: 1, longRest: 2 },
  chaseId: null,
  linkedTo: null,
};

describe('Dynamic Countdown Advancement table (000)', () => {
  it('has both columns exactly as the text gives them', () => {
    expect(DYNAMIC_ADVANCEMENT).toEqual({
      failureWithFear: { progress: 0, consequence: 2 },
      failureWithHope: { progress: 0, consequence: 1 },
      successWithFear: { progress: 1, consequence: 1 },
      successWithHope: { progress: 2, consequence: 0 },
      critical: { progress: 3, consequence: 0 },
    });
  });
  it('a standard countdown ticks once whatever the result; long-term and manual never on a roll', () => {
    for (const o of ['critical', 'successWithHope', 'successWithFear', 'failureWithHope', 'failureWithFear'] as const) {
      expect(ticksFor('standard', o)).toBe(1);
      expect(ticksFor('longTerm', o)).toBe(0);
      expect(ticksFor('manual', o)).toBe(0);
      expect(ticksFor('progress', o)).toBe(DYNAMIC_ADVANCEMENT[o].progress);
      expect(ticksFor('consequence', o)).toBe(DYNAMIC_ADVANCEMENT[o].consequence);
    }
  });
});

describe('ticking (000 "Countdown Die")', () => {
  it('triggers going from 1 to 0, not before', () => {
    expect(tickValue(2, 1)).toEqual({ from: 2, to: 1, triggered: false });
    expect(tickValue(1, 1)).toEqual({ from: 1, to: 0, triggered: true });
  });
  it('a big tick stops at 0 and still triggers; ticking at 0 does not retrigger', () => {
    expect(tickValue(2, 3)).toEqual({ from: 2, to: 0, triggered: true });
    expect(tickValue(0, 2)).toEqual({ from: 0, to: 0, triggered: false });
  });
  it('never goes negative (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: -5, max: 200 }), (v, a) => {
        const s = tickValue(v, a);
        expect(s.to).toBeGreaterThanOrEqual(0);
        expect(s.to).toBeLessThanOrEqual(v);
        expect(s.triggered).toBe(v > 0 && s.to === 0);
      }),
    );
  });
});

describe('resets (000 "Loop", "Increasing or Decreasing")', () => {
  it('loop 5 resets to 5', () => {
    expect(afterTrigger({ repeat: 'loop', start: 5 })).toEqual({ kind: 'reset', fromStart: 5, start: 5 });
  });
  it('increasing 8 resets to 9, then 10', () => {
    expect(afterTrigger({ repeat: 'increasing', start: 8 })).toEqual({ kind: 'reset', fromStart: 8, start: 9 });
    expect(afterTrigger({ repeat: 'increasing', start: 9 })).toEqual({ kind: 'reset', fromStart: 9, start: 10 });
  });
  it('decreasing 7 (the Rubble Falling example) resets 6, 5, ... 1, then the caves collapse', () => {
    let start = 7;
    const seen: number[] = [start];
    for (;;) {
      const a = afterTrigger({ repeat: 'decreasing', start });
      if (a.kind === 'end') {
        expect(a.reason).toBe('finalEvent');
        break;
      }
      start = a.start;
      seen.push(start);
    }
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    // 7 + 6 + ... + 1 ticks in all before the collapse.
    expect(decreasingTotalTicks(7)).toBe(28);
  });
  it('once ends it', () => {
    expect(afterTrigger({ repeat: 'once', start: 4 })).toEqual({ kind: 'end', reason: 'triggered' });
  });
});

describe('randomized starting value (000 "Randomized Starting Value")', () => {
  it('parses 1d6, d6 and 2d4+1 and rolls them', () => {
    const f = parseStartDie('1d6');
    expect(f.ok && f.value).toEqual({ count: 1, sides: 6, bonus: 0, text: '1d6' });
    const g = parseStartDie('d6');
    expect(g.ok && g.value.text).toBe('1d6');
    const h = parseStartDie('2d4+1');
    expect(h.ok).toBe(true);
    if (!h.ok) return;
    expect(rollStart(h.value, fixedRng([3, 2]))).toEqual({ formula: '2d4+1', sides: 4, dice: [3, 2], bonus: 1, total: 6 });
  });
  it('rejects bad formulas with a typed error naming the limit', () => {
    for (const bad of ['', 'x', '0d6', '11d6', '1d1', '1d1000', '2d100', 7, null]) {
      const r = parseStartDie(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('COUNTDOWN_BAD_DIE');
    }
  });
});

describe('long-term beats (000 "Example Long-Term Countdown")', () => {
  const beats = [8, 7, 6, 5, 4, 3, 2, 1, 0].map((at) => ({ at, text: `beat ${at}`, partyCanLearn: at === 6 || at === 3 }));
  it('a long rest from 8 reaches the beats at 7 and 6', () => {
    expect(beatsReached(beats, 8, 6).map((b) => b.at)).toEqual([7, 6]);
  });
  it('players see only reached beats the party can learn of', () => {
    const cd: Countdown = { ...base, kind: 'longTerm', repeat: 'once', start: 8, value: 5, beats };
    const seen = redactCountdown(cd);
    expect(seen !== null && 'beats' in seen ? seen.beats.map((b) => b.at) : null).toEqual([6]);
  });
});

describe('visibility', () => {
  it('hidden is gone, existence is the name only, reveal-on-trigger opens after a trigger', () => {
    expect(redactCountdown({ ...base, visibility: 'hidden' })).toBeNull();
    expect(redactCountdown({ ...base, visibility: 'existence' })).toEqual({ id: 'c1', name: 'Rubble Falling', visibility: 'existence', redacted: true });
    expect(redactCountdown({ ...base, visibility: 'reveal-on-trigger' })).toEqual({ id: 'c1', name: 'Rubble Falling', visibility: 'reveal-on-trigger', redacted: true });
    expect(redactCountdown({ ...base, visibility: 'reveal-on-trigger', triggers: 1 })).toMatchObject({ value: 7, effect: 'rubble falls' });
  });
});
