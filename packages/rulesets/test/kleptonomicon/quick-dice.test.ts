// The builder's "Basic Attack damage" box (review 13 #3) checks dice in the
// browser entry, which may not import the ruleset's parser; the two must take
// and refuse the same texts, or a foe lined up with good-looking dice would
// fail only when it attacks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QUICK_DICE_LIMITS, quickDice } from '../../src/browser.js';
import { DAMAGE_LIMITS, parseDamage } from '../../src/kleptonomicon/attack.js';

describe('quick dice agree with the Kleptonomicon damage parser', () => {
  it('the limits are the same numbers', () => {
    expect(QUICK_DICE_LIMITS).toEqual(DAMAGE_LIMITS);
  });

  it('examples: taken as written, refused past the limits', () => {
    expect(quickDice(' 1D6 + 1 ')).toBe('1d6+1');
    expect(quickDice('d8')).toBe('d8');
    expect(quickDice('3')).toBe('3');
    expect(quickDice('101')).toBe(null);
    expect(quickDice('21d6')).toBe(null);
    expect(quickDice('1d1')).toBe(null);
    expect(quickDice('1d6+101')).toBe(null);
    expect(quickDice('lots')).toBe(null);
    expect(quickDice('')).toBe(null);
  });

  it('for any dice-shaped text, the box takes it exactly when the attack would', () => {
    const part = (max: number) => fc.oneof(fc.constant(''), fc.integer({ min: 0, max }).map(String));
    const text = fc.tuple(part(30), fc.boolean(), fc.integer({ min: 0, max: 130 }), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 130 }), fc.constantFrom('', ' ')).map(([n, d, sides, sign, bonus, sp]) =>
      d ? `${n}${sp}d${sides}${sign === '' ? '' : `${sp}${sign}${sp}${bonus}`}` : String(bonus),
    );
    fc.assert(
      fc.property(text, (t) => {
        const parsed = parseDamage(t);
        const taken = quickDice(t);
        expect(taken !== null).toBe(parsed.ok && parsed.value !== null);
        // What the box keeps parses to the same dice as what was typed.
        if (taken !== null && parsed.ok) expect(parseDamage(taken)).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });
});
