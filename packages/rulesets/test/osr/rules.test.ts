// Pure rules of 001, each test recomputing the text's worked examples.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { abilityModifier, combineAdvantage, proficiencyForLevel, resolveCheck } from '../../src/osr/checks.js';
import { encumbrance, movementAllowance, readSheet, validateSheet, bestModifier } from '../../src/osr/sheet.js';
import { clampHp, damageTotal, deathDue, injuryExtraDie, injuryRow, resolveInjury, restHealing } from '../../src/osr/combat.js';

const scores = { str: 10, dex: 10, con: 10, int: 10, wis: 10, cha: 10 };

describe('checks (001 "Saves & Checks", rules README)', () => {
  it('modifier = floor((score - 10) / 2)', () => {
    expect([3, 8, 9, 10, 11, 12, 18, 20].map(abilityModifier)).toEqual([-4, -1, -1, 0, 0, 1, 4, 5]);
    // 001 "Corruptions" example: CON 10 is +0, CON 6 is -2.
    expect(abilityModifier(10)).toBe(0);
    expect(abilityModifier(6)).toBe(-2);
  });
  it('proficiency by level follows the 5e progression (setting proficiencyByLevel)', () => {
    expect([1, 4, 5, 8, 9, 13, 17, 20].map(proficiencyForLevel)).toEqual([2, 2, 3, 3, 4, 5, 6, 6]);
  });
  it('advantage keeps the higher d20, disadvantage the lower', () => {
    expect(resolveCheck([4, 17], 1, 2, 15).natural).toBe(17);
    expect(resolveCheck([4, 17], -1, 2, 15)).toMatchObject({ natural: 4, total: 6, success: false, shortfall: 9 });
    expect(resolveCheck([11], 0, 0, 11).success).toBe(true);
  });
  it('any advantage and any disadvantage cancel (5e); "net" counts them off', () => {
    expect(combineAdvantage(2, 1)).toBe(0);
    expect(combineAdvantage(2, 1, 'net')).toBe(1);
    expect(combineAdvantage(0, 3)).toBe(-1);
    expect(combineAdvantage(0, 0)).toBe(0);
  });
  it('natural 20 / natural 1 override the total only when the setting says so', () => {
    expect(resolveCheck([20], 0, -5, 30).success).toBe(false);
    expect(resolveCheck([20], 0, -5, 30, { natural20Succeeds: true }).success).toBe(true);
    expect(resolveCheck([1], 0, 30, 10, { natural1Fails: true }).success).toBe(false);
  });
  it('success iff total >= DC (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: 1, max: 30 }), fc.constantFrom(-1 as const, 0 as const, 1 as const), (a, b, m, dc, adv) => {
        const r = resolveCheck([a, b], adv, m, dc);
        expect(r.success).toBe(r.total >= dc);
        expect(r.shortfall).toBe(r.success ? 0 : dc - r.total);
      }),
    );
  });
});

describe('encumbrance (001 "Movement Actions")', () => {
  it('the text: 10 STR, 30\' speed, 11 load moves 25\'', () => {
    expect(encumbrance(10, 11, 30)).toEqual({ over: 1, speed: 25, disadvantage: true, fullyEncumbered: false });
  });
  it('at or under STR: full speed, no disadvantage', () => {
    expect(encumbrance(10, 10, 30)).toEqual({ over: 0, speed: 30, disadvantage: false, fullyEncumbered: false });
  });
  it('six loads over a 30\' speed: 0\', completely encumbered; never negative', () => {
    expect(encumbrance(10, 16).fullyEncumbered).toBe(true);
    expect(encumbrance(10, 40).speed).toBe(0);
  });
  it('half speed for swimming, crawling, climbing, difficult terrain (30\' climbs 15\')', () => {
    expect(movementAllowance(30, 'climb')).toBe(15);
    expect(movementAllowance(30, 'swim')).toBe(15);
    expect(movementAllowance(25, 'difficult')).toBe(12);
    expect(movementAllowance(30, 'walk')).toBe(30);
  });
  it('speed never rises with load (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 60 }), (str, load) => {
      expect(encumbrance(str, load + 1).speed).toBeLessThanOrEqual(encumbrance(str, load).speed);
      expect(encumbrance(str, load).speed).toBeGreaterThanOrEqual(0);
    }));
  });
});

describe('sheets', () => {
  it('defaults: 10s, 30\' speed, hp = maxHp', () => {
    const s = readSheet({ maxHp: 8 });
    expect(s).toMatchObject({ str: 10, speed: 30, hp: 8, maxHp: 8, level: 1, proficiency: null });
  });
  it('limits name the broken field', () => {
    expect(validateSheet({ str: 31 })).toMatchObject({ code: 'BAD_SHEET', path: 'str' });
    expect(validateSheet({ hp: 9, maxHp: 8 })).toMatchObject({ path: 'hp' });
    expect(validateSheet({ level: 2.5 })).toMatchObject({ path: 'level' });
    expect(validateSheet({ str: 12, hp: 4, maxHp: 8 })).toBeNull();
  });
  it('best modifier includes proficiency', () => {
    expect(bestModifier(readSheet({ dex: 16, level: 1 }))).toBe(3 + 2);
    expect(bestModifier(readSheet({ int: 18, proficiency: 2 }))).toBe(4 + 2);
  });
});

describe('damage (001 "Critical Hits", "Critical Failure")', () => {
  it('doubles the whole damage by default; "dice" doubles only the dice', () => {
    // 1d8 + 2 rolling 5: 7, crit 14; dice-only 12.
    expect(damageTotal([5], 2, false)).toBe(7);
    expect(damageTotal([5], 2, true)).toBe(14);
    expect(damageTotal([5], 2, true, 'dice')).toBe(12);
  });
  it('never negative', () => {
    expect(damageTotal([1], -3, true)).toBe(0);
  });
  it('HP stays within 0..max', () => {
    expect(clampHp(-4, 10)).toBe(0);
    expect(clampHp(14, 10)).toBe(10);
    fc.assert(fc.property(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 50 }), (hp, max) => {
      const c = clampHp(hp, max);
      expect(c >= 0 && c <= max).toBe(true);
    }));
  });
});

describe('injury table (001 "Injury Table"), every row', () => {
  it('maps all twenty faces', () => {
    const kinds = Array.from({ length: 20 }, (_, i) => injuryRow(i + 1).kind);
    expect(kinds).toEqual([
      'dead',
      'abilityLoss', 'abilityLoss', 'abilityLoss', 'abilityLoss', 'abilityLoss', 'abilityLoss',
      'bodyPart', 'bodyPart', 'bodyPart', 'bodyPart', 'bodyPart', 'bodyPart',
      'disadvantageUntilRest', 'disadvantageUntilRest', 'disadvantageUntilRest', 'disadvantageUntilRest', 'disadvantageUntilRest', 'disadvantageUntilRest',
      'standing',
    ]);
    const abilities = [2, 3, 4, 5, 6, 7].map((f) => { const r = injuryRow(f); return r.kind === 'abilityLoss' ? r.ability : null; });
    expect(abilities).toEqual(['str', 'dex', 'con', 'int', 'wis', 'cha']);
  });
  it('extra dice: d6 for ability rows, d8 for 20, none otherwise', () => {
    expect([1, 2, 7, 8, 13, 14, 19, 20].map(injuryExtraDie)).toEqual([null, 6, 6, null, null, null, null, 8]);
  });
  it('1 kills; 2-19 return at 1 HP; ability loss applied; 20 heals 1d8', () => {
    expect(resolveInjury(1, null, scores, 10)).toMatchObject({ dead: true, hp: 0 });
    expect(resolveInjury(2, 4, scores, 10)).toMatchObject({ dead: false, hp: 1, abilityLoss: { ability: 'str', amount: 4, from: 10, to: 6 } });
    expect(resolveInjury(9, null, scores, 10)).toMatchObject({ dead: false, hp: 1, abilityLoss: null });
    expect(resolveInjury(15, null, scores, 10)).toMatchObject({ hp: 1 });
    expect(resolveInjury(20, 6, scores, 10).hp).toBe(6);
    expect(resolveInjury(20, 6, scores, 10, { standingHeal: 'plus' }).hp).toBe(7);
    expect(resolveInjury(20, 8, scores, 5).hp).toBe(5);
  });
  it('an ability brought to 0 kills (setting deathAtZeroAbility)', () => {
    const frail = { ...scores, cha: 3 };
    expect(resolveInjury(7, 5, frail, 10)).toMatchObject({ dead: true, abilityLoss: { to: 0 } });
    expect(resolveInjury(7, 5, frail, 10, { deathAtZeroAbility: false })).toMatchObject({ dead: false, hp: 1 });
  });
});

describe('healing from rest (001 "Healing From Rest")', () => {
  it('the text: a level 4 PC heals 4 in a safe night, 1 in a dungeon', () => {
    expect(restHealing('safe', 4, 1, 2, 20)).toBe(4);
    expect(restHealing('unsafe', 4, 1, 2, 20)).toBe(1);
  });
  it('never above max; several nights add up', () => {
    expect(restHealing('safe', 4, 1, 18, 20)).toBe(2);
    expect(restHealing('safe', 3, 3, 0, 20)).toBe(9);
  });
});

describe('death timer (001 "Death & Injury")', () => {
  it('dead after one minute, or at the end of the fight if that is later', () => {
    expect(deathDue(0, 59, false)).toBe(false);
    expect(deathDue(0, 60, false)).toBe(true);
    expect(deathDue(0, 120, true)).toBe(false);
  });
});
