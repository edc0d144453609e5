// The builder's "Basic Attack damage" box (review 13 #3) checks dice in the
// browser entry, which may not import the ruleset's parser. It reads them with
// the stat blocks' diceOfText and the attack's limits; a text the attack takes
// must be taken with the same dice, and what the box keeps must parse at the
// attack to the dice it read, or a foe lined up with good-looking dice would
// fail only when it attacks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QUICK_DICE_LIMITS, quickDice } from '../../src/browser.js';
import { DAMAGE_LIMITS, parseDamage } from '../../src/kleptonomicon/attack.js';

const kept = (t: string): string | null => {
  const d = quickDice(t);
  return d.ok ? d.text : null;
};
const why = (t: string): string | null => {
  const d = quickDice(t);
  return d.ok ? null : d.why;
};

describe('quick dice: diceOfText within the Kleptonomicon damage limits', () => {
  it('the limits are the same numbers', () => {
    expect(QUICK_DICE_LIMITS).toEqual(DAMAGE_LIMITS);
  });

  it('examples: taken and written as the attack writes them', () => {
    expect(kept(' 1D6 + 1 ')).toBe('1d6+1');
    expect(kept('d8')).toBe('1d8');
    expect(kept('2d4 - 1')).toBe('2d4-1');
    expect(kept('3')).toBe('3');
    expect(kept('0')).toBe('0');
    expect(kept('20d100+100')).toBe('20d100+100');
  });

  it('edge cases decided on purpose: a leading zero is dropped, "+3" is 3', () => {
    expect(kept('03')).toBe('3');
    expect(kept('02d6')).toBe('2d6');
    expect(kept('1d06+01')).toBe('1d6+1');
    expect(kept('+3')).toBe('3');
    expect(quickDice('+3')).toEqual({ ok: true, text: '3', dice: { count: 0, sides: 1, bonus: 3 } });
  });

  it('each refusal says why in words', () => {
    expect(why('-3')).toBe("can't be negative (-3): type a number from 0 to 100, or dice with a minus such as 1d6-1.");
    expect(why('0d6')).toBe('rolls no dice ("0d6"): type 1 to 20 dice, or 0 for no damage.');
    expect(why('1 0d6')).toBe('has a space inside a number ("1 0d6"): type it without the space.');
    expect(why('101')).toBe('is at most 100 (101 typed).');
    expect(why('21d6')).toBe('rolls at most 20 dice (21 typed).');
    expect(why('1d1')).toBe('needs dice of 2 to 100 sides (d1 typed).');
    expect(why('1d6+101')).toBe('takes a bonus from -100 to 100 (+101 typed).');
    expect(why('1d6-101')).toBe('takes a bonus from -100 to 100 (-101 typed).');
    const unreadable = 'must be dice such as 1d6+1 (at most 20 dice of 2 to 100 sides, a bonus up to 100), or a number up to 100.';
    // Past diceOfText's own limits (100 dice, 100 sides) the general sentence, which names the box's limits.
    for (const t of ['lots', '', '1d', 'd', '2d6+1d4', '1d6+', '3.5', '1d101', '101d6']) expect(why(t)).toBe(unreadable);
  });

  it('for any dice-shaped text: what the attack takes, the box takes with the same dice; what the box keeps, the attack reads as the box did', () => {
    const digits = (max: number) => fc.tuple(fc.constantFrom('', '0', '00'), fc.integer({ min: 0, max })).map(([z, n]) => `${z}${n}`);
    const part = (max: number) => fc.oneof(fc.constant(''), digits(max));
    const text = fc
      .tuple(part(30), fc.boolean(), digits(130), fc.constantFrom('', '+', '-'), digits(130), fc.constantFrom('', ' '), fc.constantFrom('', '+', '-'))
      .map(([n, d, sides, sign, bonus, sp, lead]) => (d ? `${n}${sp}d${sides}${sign === '' ? '' : `${sp}${sign}${sp}${bonus}`}` : `${lead}${bonus}`));
    fc.assert(
      fc.property(text, (t) => {
        const parsed = parseDamage(t);
        const box = quickDice(t);
        if (parsed.ok && parsed.value !== null) {
          expect(box.ok).toBe(true);
          // "d2-0": the attack's parser reads a bonus of -0, the same dice as 0 (and the same in JSON).
          if (box.ok) expect(box.dice).toEqual({ ...parsed.value, bonus: parsed.value.bonus + 0 });
        }
        if (box.ok) expect(parseDamage(box.text)).toEqual({ ok: true, value: box.dice });
      }),
      { numRuns: 500 },
    );
  });

  it('for any dice within the limits, however spaced, cased or zero-padded: both take them, as the same dice', () => {
    const pad = fc.constantFrom('', '0', '00');
    const sp = fc.constantFrom('', ' ');
    const text = fc
      .tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 2, max: 100 }), fc.integer({ min: -100, max: 100 }), pad, sp, fc.constantFrom('d', 'D'))
      .map(([count, sides, bonus, z, s, d]) => {
        // Zero-padded only while the count stays within the three digits both readers take.
        const padded = `${z}${count}`.length <= 3 ? `${z}${count}` : String(count);
        return { count, sides, bonus, t: `${padded}${s}${d}${sides}${bonus === 0 ? '' : `${s}${bonus > 0 ? '+' : '-'}${s}${Math.abs(bonus)}`}` };
      });
    fc.assert(
      fc.property(text, ({ count, sides, bonus, t }) => {
        const box = quickDice(t);
        expect(box).toMatchObject({ ok: true, dice: { count, sides, bonus } });
        expect(parseDamage(t)).toEqual({ ok: true, value: { count, sides, bonus } });
        if (box.ok) expect(parseDamage(box.text)).toEqual({ ok: true, value: { count, sides, bonus } });
      }),
      { numRuns: 300 },
    );
  });
});
