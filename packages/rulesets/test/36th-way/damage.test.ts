// 002 "Damage", "Damage Types", "Resistance and Weakness", "Recoveries" (averages).
import { fixedRng, seededRng } from '@tablekeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  averagesChart,
  confusedSelfDamage,
  critThreshold,
  damageRange,
  DAMAGE_TYPES,
  expectedDamage,
  finalDamage,
  isWeakTo,
  meanOf,
  parseDice,
  parseMode,
  recoveryAverage,
  resistThreshold,
  rollDamage,
} from '../../src/36th-way/damage.js';

// The chart as printed in 002 "Damage" (rows: dice; columns d4 d6 d8 d10 d12).
const PRINTED: Record<number, number[]> = {
  2: [5, 7, 9, 11, 13],
  4: [10, 14, 18, 22, 26],
  6: [15, 21, 27, 33, 39],
  8: [20, 28, 36, 44, 52],
  10: [25, 35, 45, 55, 65],
  12: [30, 42, 54, 66, 78],
  14: [35, 49, 63, 77, 91],
  16: [40, 56, 72, 88, 104],
  18: [45, 63, 81, 99, 117],
  20: [50, 70, 90, 110, 130],
  22: [55, 77, 99, 121, 143],
  24: [60, 84, 108, 132, 156],
  26: [65, 91, 117, 143, 169],
  28: [70, 98, 126, 154, 182],
  30: [75, 105, 135, 165, 195],
  32: [80, 112, 144, 176, 208],
  34: [85, 119, 153, 187, 221],
  36: [90, 126, 162, 190, 234],
  38: [95, 133, 171, 209, 247],
  40: [100, 140, 180, 220, 260],
};

describe('averages (002 "Damage", computed)', () => {
  it('computes every cell; all match the printed chart except 36d10, whose true mean is 198', () => {
    const rows = averagesChart();
    expect(rows).toHaveLength(20);
    const wrong: string[] = [];
    for (const r of rows) {
      r.averages.forEach((v, i) => {
        if (v !== PRINTED[r.count]![i]) wrong.push(`${r.count}d${[4, 6, 8, 10, 12][i]}: printed ${PRINTED[r.count]![i]}, computed ${v}`);
      });
    }
    expect(wrong).toEqual(['36d10: printed 190, computed 198']);
    expect(meanOf(36, 10)).toBe(198); // 36 x 5.5
  });
  it('the worked example: 4d6 averages 14', () => {
    expect(meanOf(4, 6)).toBe(14);
  });
  it('recovery averages round each die down: 2d8 = 8, not 9', () => {
    expect(recoveryAverage(2, 8)).toBe(8);
    expect(meanOf(2, 8)).toBe(9);
    expect(recoveryAverage(3, 6)).toBe(9);
    expect(recoveryAverage(5, 10)).toBe(25);
  });
});

describe('roll modes (002 "Damage")', () => {
  const d = (count: number, sides: number, bonus = 0) => ({ count, sides, bonus });
  it('rolls them all out', () => {
    const r = rollDamage(d(5, 6, 3), { kind: 'all' }, fixedRng([1, 2, 3, 4, 5]));
    expect(r.dice).toEqual([1, 2, 3, 4, 5]);
    expect(r.total).toBe(18);
  });
  it('averages most dice and rolls the rest (10d6: average 7 = 24, roll 3)', () => {
    const r = rollDamage(d(10, 6), { kind: 'average', averaged: 7 }, fixedRng([6, 1, 2]));
    expect(r.averagedPoints).toBe(24); // floor(7 x 3.5 = 24.5)
    expect(r.dice).toEqual([6, 1, 2]);
    expect(r.total).toBe(33);
  });
  it('averaging an even number of dice uses the exact chart value (8d8 averaged 6 = 27, roll 2)', () => {
    const r = rollDamage(d(8, 8), { kind: 'average', averaged: 6 }, fixedRng([8, 8]));
    expect(r.averagedPoints).toBe(27);
    expect(r.total).toBe(43);
  });
  it('multiplies a die: 10d6 as 10 x 1d6', () => {
    const r = rollDamage(d(10, 6), { kind: 'multiply', multiplier: 10 }, fixedRng([4]));
    expect(r.total).toBe(40);
    expect(r.dice).toEqual([4]);
  });
  it('multiplies and rolls the rest: 6d8 as 5 x 1d8 + 1d8', () => {
    const r = rollDamage(d(6, 8), { kind: 'multiply', multiplier: 5 }, fixedRng([3, 7]));
    expect(r.total).toBe(22);
  });
  it('validates modes: averaging fewer than half the dice is refused, naming the limit', () => {
    const r = parseMode({ kind: 'average', averaged: 4 }, d(10, 6));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('[5, 10]');
    expect(parseMode({ kind: 'multiply', multiplier: 11 }, d(10, 6)).ok).toBe(false);
    expect(parseMode({ kind: 'bogus' }, d(10, 6)).ok).toBe(false);
    expect(parseMode(undefined, d(10, 6))).toEqual({ ok: true, value: { kind: 'all' } });
  });
  it('validates dice with explicit limits', () => {
    expect(parseDice({ count: 101, sides: 6 }).ok).toBe(false);
    expect(parseDice({ count: 2, sides: 0 }).ok).toBe(false);
    expect(parseDice({ count: 2, sides: 8, bonus: 3 })).toEqual({ ok: true, value: { count: 2, sides: 8, bonus: 3 } });
    expect(parseDice('2d8').ok).toBe(false);
  });
  it('every mode stays inside its range and the multiply mode spans the widest range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.constantFrom(4, 6, 8, 10, 12), fc.integer({ min: 0, max: 1000 }), (count, sides, seed) => {
        const dice = d(count, sides);
        const modes = [{ kind: 'all' as const }, { kind: 'average' as const, averaged: Math.ceil(count / 2) }, { kind: 'multiply' as const, multiplier: count }];
        for (const m of modes) {
          const r = rollDamage(dice, m, seededRng(seed));
          const range = damageRange(dice, m);
          expect(r.total).toBeGreaterThanOrEqual(range.min);
          expect(r.total).toBeLessThanOrEqual(range.max);
        }
        expect(damageRange(dice, modes[2]!).max - damageRange(dice, modes[2]!).min).toBeGreaterThanOrEqual(damageRange(dice, modes[0]!).max - damageRange(dice, modes[0]!).min);
      }),
    );
  });
  it('expected damage: rolling and multiplying keep the mean; averaging rounds the averaged part down once', () => {
    expect(expectedDamage(d(10, 6), { kind: 'all' })).toBe(35);
    expect(expectedDamage(d(10, 6), { kind: 'multiply', multiplier: 10 })).toBe(35);
    expect(expectedDamage(d(10, 6), { kind: 'average', averaged: 7 })).toBe(24 + 10.5);
  });
});

describe('damage types, resistance, weakness (002)', () => {
  it('lists the ten damage types, weapon being the default', () => {
    expect(DAMAGE_TYPES).toHaveLength(10);
    expect(DAMAGE_TYPES).toContain('weapon');
  });
  it('Resist X+: which threshold applies', () => {
    expect(resistThreshold({ fire: 13 }, ['fire'], null)).toBe(13);
    expect(resistThreshold({ fire: 13 }, ['cold'], null)).toBeNull();
    // Several types: by default only when every type is resisted, with the weakest resistance.
    expect(resistThreshold({ fire: 13, cold: 15 }, ['fire', 'cold'], null)).toBe(13);
    expect(resistThreshold({ fire: 13 }, ['fire', 'cold'], null)).toBeNull();
    const anyType = { settings: { '36th-way.resistMultiType': 'any-type' } } as never;
    expect(resistThreshold({ fire: 13 }, ['fire', 'cold'], anyType)).toBe(13);
  });
  it('crit threshold: 17+, 16+ when Weak or Vulnerable, 15+ when both', () => {
    expect(critThreshold(null, false, false)).toBe(17);
    expect(critThreshold(null, true, false)).toBe(16);
    expect(critThreshold(null, false, true)).toBe(16);
    expect(critThreshold(null, true, true)).toBe(15);
  });
  it('weak to multi-type damage when any type matches', () => {
    expect(isWeakTo(['fire'], ['fire', 'weapon'])).toBe(true);
    expect(isWeakTo(['fire'], ['weapon'])).toBe(false);
  });
  it('final damage doubles on a crit, then halves (rounded down) when resisted', () => {
    expect(finalDamage(null, { base: 15, crit: false, resisted: false })).toBe(15);
    expect(finalDamage(null, { base: 15, crit: true, resisted: false })).toBe(30);
    expect(finalDamage(null, { base: 15, crit: false, resisted: true })).toBe(7);
    expect(finalDamage(null, { base: 15, crit: true, resisted: true })).toBe(15);
    expect(finalDamage({ settings: { '36th-way.halfRounding': 'up' } } as never, { base: 15, crit: false, resisted: true })).toBe(8);
  });
  it('Confused: half the base damage on an odd natural, nothing on an even one', () => {
    expect(confusedSelfDamage(null, 11, 15)).toBe(7);
    expect(confusedSelfDamage(null, 12, 15)).toBe(0);
  });
});
