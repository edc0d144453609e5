// Pure rules of 003 recomputed from the text's worked examples.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { attackOutcome, blockOutcome, damageTaken, misdirects, multipleAttackPenalty, parryBonus, rawDamage, sizeShift } from '../../src/teams/attack.js';
import { consciousnessDifficulty, damageCategory, isBloodied, isHarmed, reducedDamage, splitDamage } from '../../src/teams/damage.js';
import { gridDistance } from '../../src/teams/grid.js';
import { parseSheet } from '../../src/teams/sheet.js';

const dur = { metal: 10, other: 4 };

describe('003 "Attacks"', () => {
  it('Boudica: strength d6 + combat d6 + martial 1 = 6 just hits evasion 6', () => {
    // 2d6 faces 2 and 3, plus 1: 6.
    const result = 2 + 3 + 1;
    expect(result).toBe(6);
    expect(attackOutcome({ result, luck: 10, evasion: 6, criticalThreshold: 19 })).toEqual({ hit: true, critical: false });
    expect(attackOutcome({ result: 5, luck: 10, evasion: 6, criticalThreshold: 19 })).toEqual({ hit: false, critical: false });
  });

  it('Boudica: 6 + spear 4 piercing = 10, minus physical reduction 8 = 2 taken', () => {
    const raw = rawDamage(6, 4);
    expect(raw).toBe(10);
    expect(damageCategory('piercing')).toBe('physical');
    expect(damageTaken(raw, 'physical', 8)).toBe(2);
  });

  it('Boudica: luck 19 meets the spear\'s 19+ threshold: critical damage 8, 6 + 8 - 8 = 6', () => {
    expect(attackOutcome({ result: 6, luck: 19, evasion: 6, criticalThreshold: 19 })).toEqual({ hit: true, critical: true });
    expect(damageTaken(rawDamage(6, 8), 'physical', 8)).toBe(6);
  });

  it('a critical cannot miss, whatever the evasion', () => {
    expect(attackOutcome({ result: 1, luck: 20, evasion: 30, criticalThreshold: 20 })).toEqual({ hit: true, critical: true });
  });

  it('Agnessa: the second attack this round is at -2, so 5 becomes 3', () => {
    expect(multipleAttackPenalty(0, 2)).toBe(-0);
    expect(5 + multipleAttackPenalty(1, 2)).toBe(3);
    expect(multipleAttackPenalty(3, 2)).toBe(-6);
  });

  it('Agnessa: a luck 1 with her shortbow next to an ally goes astray; melee never does; nobody nearby, nothing happens', () => {
    expect(misdirects('projectile', 1, 1, 1)).toBe(true);
    expect(misdirects('thrown', 0, 1, 2)).toBe(true);
    expect(misdirects('projectile', 2, 1, 1)).toBe(false);
    expect(misdirects('melee', 1, 1, 1)).toBe(false);
    expect(misdirects('projectile', 1, 1, 0)).toBe(false);
  });

  it('Fabian (medium 4) against a goblin (small 3): evasion +1, deflection -1; the goblin against Fabian the reverse', () => {
    expect(sizeShift(4, 3)).toEqual({ evasion: 1, deflection: -1 });
    expect(sizeShift(3, 4)).toEqual({ evasion: -1, deflection: 1 });
    expect(sizeShift(4, 4)).toEqual({ evasion: 0, deflection: -0 });
  });

  it('damage is at least 1 after reduction; typeless damage is not reduced', () => {
    expect(reducedDamage(3, 'physical', 10)).toBe(1);
    expect(reducedDamage(3, 'elemental', 1)).toBe(2);
    expect(reducedDamage(3, 'typeless', 10)).toBe(3);
    expect(damageCategory('psychic')).toBe('typeless');
    expect(damageCategory('fire')).toBe('elemental');
    expect(damageCategory(undefined)).toBe('typeless');
    expect(damageCategory('sonic')).toBeNull();
  });

  it('property: reduced physical or elemental damage is at least 1 and never more than the raw damage (when raw >= 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 500 }), fc.constantFrom('physical' as const, 'elemental' as const), (raw, red, cat) => {
        const d = reducedDamage(raw, cat, red);
        return d >= 1 && d <= raw;
      }),
    );
  });
});

describe('003 "Block" and "Parry"', () => {
  it('the item takes the damage less its block value, at least 1', () => {
    expect(blockOutcome(10, 3, 10)).toEqual({ toItem: 7, durabilityAfter: 3, excess: 0 });
    expect(blockOutcome(2, 5, 4)).toEqual({ toItem: 1, durabilityAfter: 3, excess: 0 });
  });

  it('damage beyond the item\'s durability reaches the bearer and the item breaks', () => {
    expect(blockOutcome(10, 3, 4)).toEqual({ toItem: 7, durabilityAfter: 0, excess: 3 });
    expect(blockOutcome(5, 1, 4)).toEqual({ toItem: 4, durabilityAfter: 0, excess: 0 });
  });

  it('parry adds the parry value, or 1 without one', () => {
    expect(parryBonus(3)).toBe(3);
    expect(parryBonus(null)).toBe(1);
  });

  it('items with no listed durability: metal 10, otherwise 4', () => {
    const s = parseSheet({ items: { sword: { metal: true }, club: {} } }, dur, 10);
    expect(s.ok && s.value.items['sword']?.durability).toBe(10);
    expect(s.ok && s.value.items['club']?.durability).toBe(4);
  });

  it('property: block conserves damage (item damage taken + overflow = damage to the item)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), (raw, b, d) => {
        const o = blockOutcome(raw, b, d);
        return d - o.durabilityAfter + o.excess === o.toItem && o.toItem >= 1;
      }),
    );
  });
});

describe('003 "Damage": endurance, health, harmed, bloodied, staying conscious', () => {
  it('Boudica takes 7 of her 12 endurance: 5 left, harmed', () => {
    const a = splitDamage({ endurance: 12, health: 12 }, 7);
    expect(a).toMatchObject({ endurance: 5, health: 12 });
    expect(isHarmed(5, 12)).toBe(true);
    expect(isHarmed(7, 12)).toBe(false);
    expect(isHarmed(6, 12)).toBe(true); // exactly half
  });

  it('then 10 more: endurance 0, the excess 5 to health (12 -> 7); missing 5 > constitution 4 calls for a fortify at difficulty 5', () => {
    const b = splitDamage({ endurance: 5, health: 12 }, 10);
    expect(b).toMatchObject({ endurance: 0, health: 7, toEndurance: 5, toHealth: 5, overflow: 0 });
    expect(isBloodied(7, 12)).toBe(true);
    expect(consciousnessDifficulty(7, 12, 4)).toBe(5);
    expect(consciousnessDifficulty(8, 12, 4)).toBeNull(); // missing 4 is not greater than 4
  });

  it('then 8 more with 7 health left: health 0 and 1 past it (so death is risked)', () => {
    expect(splitDamage({ endurance: 0, health: 7 }, 8)).toMatchObject({ health: 0, toHealth: 7, overflow: 1 });
    expect(splitDamage({ endurance: 0, health: 7 }, 7)).toMatchObject({ health: 0, overflow: 0 });
  });

  it('property: endurance and health never go negative and damage is accounted for', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.nat(100), fc.nat(300), (e, h, n) => {
        const s = splitDamage({ endurance: e, health: h }, n);
        return s.endurance >= 0 && s.health >= 0 && s.toEndurance + s.toHealth + s.overflow === n;
      }),
    );
  });
});

describe('003 "Movement and Distances"', () => {
  it('straight lines count 1 m a square; every second diagonal counts 2 m', () => {
    expect(gridDistance({ x: 0, y: 0 }, { x: 5, y: 0 })).toBe(5);
    expect(gridDistance({ x: 0, y: 0 }, { x: 1, y: 1 })).toBe(1);
    expect(gridDistance({ x: 0, y: 0 }, { x: 2, y: 2 })).toBe(3);
    expect(gridDistance({ x: 0, y: 0 }, { x: 3, y: 3 })).toBe(4);
    expect(gridDistance({ x: 0, y: 0 }, { x: 4, y: 4 })).toBe(6);
    expect(gridDistance({ x: 2, y: 1 }, { x: -2, y: -2 })).toBe(5); // 3 diagonals (1+2+1) and 1 straight
  });

  it('rejects squares beyond the limit with an error naming it', () => {
    const e = gridDistance({ x: 0, y: 0 }, { x: 1e9, y: 0 });
    expect(typeof e === 'object' && e.code).toBe('INVALID_VALUE');
    expect(typeof e === 'object' && e.message).toContain('100000');
  });

  it('property: symmetric, and between the Chebyshev and Manhattan distances', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 }), (a, b, c, d) => {
        const x = gridDistance({ x: a, y: b }, { x: c, y: d }) as number;
        const y = gridDistance({ x: c, y: d }, { x: a, y: b }) as number;
        const dx = Math.abs(a - c);
        const dy = Math.abs(b - d);
        return x === y && x >= Math.max(dx, dy) && x <= dx + dy;
      }),
    );
  });
});

describe('sheets', () => {
  it('validates input with errors naming the limit', () => {
    const r = parseSheet({ attributes: { strength: 7 } }, dur, 10);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('BAD_SHEET');
      expect(r.error.path).toBe('sheet.attributes.strength');
    }
    const many = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`i${i}`, {}]));
    const r2 = parseSheet({ items: many }, dur, 10);
    expect(!r2.ok && r2.error.message).toContain('40');
    expect(parseSheet({ maxHealth: 5, health: 6 }, dur, 10).ok).toBe(false);
    expect(parseSheet({ items: { s: { weapon: { attributes: ['strength'], damage: 3, damageType: 'sonic' } } } }, dur, 10).ok).toBe(false);
  });

  it('fills tracks to their maximum and splits a single deflection over both categories', () => {
    const r = parseSheet({ maxEndurance: 12, maxHealth: 12, deflection: 8 }, dur, 10);
    expect(r.ok && r.value).toMatchObject({ endurance: 12, health: 12, deflection: { physical: 8, elemental: 8 }, deathDifficulty: 10, conscious: true, dead: false });
  });
});
