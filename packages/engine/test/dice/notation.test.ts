import { describe, expect, it } from 'vitest';
import { DiceError, clearDiceCache, compileDice, diceCacheSize, fixedRng, odds, parseDice, printDice, rollDice, seededRng } from '../../src/dice/index.js';
import { bruteForce, maxDiff, sumOf } from './helpers.js';

const value = (e: string): number => rollDice(e, fixedRng([])).total;
const err = (f: () => unknown): DiceError => {
  try {
    f();
  } catch (e) {
    if (e instanceof DiceError) return e;
    throw e;
  }
  throw new Error('expected a DiceError');
};

describe('parsing', () => {
  it('builds a tree with positions on every node', () => {
    const ast = parseDice('4d6kh3 + 2');
    expect(ast).toMatchObject({ kind: 'binary', op: '+', opPos: 7, pos: 0, end: 10 });
    if (ast.kind !== 'binary') throw new Error('binary expected');
    expect(ast.left).toMatchObject({ kind: 'dice', count: 4, sides: 6, keep: { mode: 'kh', count: 3 }, pos: 0, end: 6, sidesPos: 2 });
    expect(ast.right).toMatchObject({ kind: 'number', value: 2, pos: 9, end: 10 });
  });

  it('reads dX, d%, upper case and the canonical form', () => {
    expect(parseDice('d20')).toMatchObject({ count: 1, sides: 20 });
    expect(parseDice('D%')).toMatchObject({ count: 1, sides: 100 });
    expect(printDice(parseDice('4D6!ro<2KH3'))).toBe('4d6!ro<2kh3');
    expect(printDice(parseDice('2d20k'))).toBe('2d20kh1');
    expect(printDice(parseDice('d6r1'))).toBe('1d6r=1');
    expect(printDice(parseDice('(3d6) == 10'))).toBe('(3d6) = 10');
    expect(printDice(parseDice('3d6 vs 10'))).toBe('3d6 vs 10');
    expect(printDice(parseDice('2d10!>=9'))).toBe('2d10!>=9');
  });

  it('precedence, parentheses and unary minus', () => {
    expect(value('1+2*3')).toBe(7);
    expect(value('(1+2)*3')).toBe(9);
    expect(value('-3+5')).toBe(2);
    expect(value('--3')).toBe(3);
    expect(value('10-2-3')).toBe(5);
    expect(value('+4')).toBe(4);
    expect(value('2*-3')).toBe(-6);
  });

  it('division is real (the total rounds to 2 decimals); floor(), ceil() and round() make it whole', () => {
    expect(value('7/2')).toBe(3.5);
    expect(value('-7/2')).toBe(-3.5);
    expect(value('7/-2')).toBe(-3.5);
    expect(value('1/3')).toBe(0.33);
    expect(value('2/3')).toBe(0.67);
    expect(value('(1/3)*3')).toBe(1);
    expect(value('floor(-7/2)')).toBe(-4);
    expect(value('ceil(7/2)')).toBe(4);
    expect(value('ceil(-7/2)')).toBe(-3);
    expect(value('round(5/2)')).toBe(3);
    expect(value('round(-5/2)')).toBe(-2);
    expect(value('round(7/3)')).toBe(2);
    expect(value('floor(3)')).toBe(3);
    // OSR ability modifier = floor((score - 10) / 2): score 7 -> -2, 18 -> +4 (rules README, 001)
    expect(value('floor((7-10)/2)')).toBe(-2);
    expect(value('floor((18-10)/2)')).toBe(4);
    expect(value('(7-10)/2')).toBe(-1.5);
  });

  it('min, max, abs', () => {
    expect(value('min(3, 1, 2)')).toBe(1);
    expect(value('max(3, 1, 2)')).toBe(3);
    expect(value('abs(2-7)')).toBe(5);
  });

  it.each([
    ['', 'SYNTAX', 0],
    ['2d', 'SYNTAX', 2],
    ['2d 6', 'SYNTAX', 2],
    ['3 d6', 'SYNTAX', 2],
    ['1 + ', 'SYNTAX', 4],
    ['(1+2', 'SYNTAX', 4],
    ['1+2)', 'SYNTAX', 3],
    ['3d6 $ 2', 'SYNTAX', 4],
    ['foo(1)', 'SYNTAX', 0],
    ['4d6qq', 'SYNTAX', 3],
    ['4d6kh3kl1', 'SYNTAX', 6],
    ['(3d6) >= (2 > 1)', 'SYNTAX', 12],
    ['1 > 2 > 3', 'SYNTAX', 6],
    ['min()', 'SYNTAX', 4],
    ['abs(1, 2)', 'SYNTAX', 0],
    ['0d6', 'UNSUPPORTED', 0],
    ['2d0', 'UNSUPPORTED', 2],
    ['d1!', 'UNSUPPORTED', 2],
    ['d6r<7', 'UNSUPPORTED', 2],
    ['4d6kh5', 'UNSUPPORTED', 3],
    ['1/0', 'DIVISION_BY_ZERO', 1],
    ['d6/(d3-2)', 'DIVISION_BY_ZERO', 2],
  ])('%j fails with %s at column %i', (expr, code, pos) => {
    const e = err(() => compileDice(expr));
    expect(e.code).toBe(code);
    expect(e.position).toBe(pos);
    expect(e.expression).toBe(expr);
    expect(e.pointer().split('\n')[1] ?? '').toBe(expr === '' ? '' : ' '.repeat(pos) + '^');
  });
});

describe('limits', () => {
  it.each([
    ['10001d6', {}, 'maxDice', 0],
    ['5000d6 + 5001d6', {}, 'maxDice', 9],
    ['d1000001', {}, 'maxSides', 1],
    ['1d20+5', { maxLength: 5 }, 'maxLength', 5],
    ['((((1))))', { maxNesting: 3 }, 'maxNesting', 3],
    ['9007199254740993', {}, 'safeInteger', 0],
    ['9007199254740991 * 2', {}, 'safeInteger', 0],
  ] as const)('%j breaks %j -> %s', (expr, limits, limit, pos) => {
    const e = err(() => compileDice(expr, limits));
    expect(e.code).toBe('LIMIT');
    expect(e.limit).toBe(limit);
    expect(e.position).toBe(pos);
    expect(e.message).toContain(limit);
  });

  it('limits are configurable', () => {
    expect(compileDice('20000d6', { maxDice: 20_000 }).diceCount).toBe(20_000);
    expect(err(() => odds('1000d1000', { maxOddsWork: 1000 })).limit).toBe('maxOddsWork');
    expect(err(() => odds('d1000 * d1000 * 3')).limit).toBe('maxOddsSpan');
  });
});

describe('rolling', () => {
  it('4d6kh3 keeps the three highest and records the dropped die', () => {
    const r = rollDice('4d6kh3', fixedRng([6, 1, 1, 5]));
    expect(r.total).toBe(12);
    expect(r.dice).toHaveLength(1);
    expect(r.dice[0]).toMatchObject({ notation: '4d6kh3', position: 0, sides: 6, total: 12 });
    expect(r.dice[0]!.dice.map((d) => [d.value, d.kept])).toEqual([[6, true], [1, true], [1, false], [5, true]]);
  });

  it('kl, dh, dl', () => {
    expect(rollDice('2d20kl1', fixedRng([8, 14])).total).toBe(8);
    expect(rollDice('4d6dl1', fixedRng([6, 1, 1, 5])).total).toBe(12);
    expect(rollDice('4d6dh1', fixedRng([6, 1, 1, 5])).total).toBe(7);
    expect(rollDice('4d6dh2', fixedRng([6, 1, 2, 5])).total).toBe(3);
  });

  it('explosions add dice of their own (!), or one compounded die (!!), and stop at the cap', () => {
    const r = rollDice('3d6!', fixedRng([6, 6, 2, 3, 4]));
    expect(r.total).toBe(21);
    expect(r.dice[0]!.dice.map((d) => [d.value, d.exploded])).toEqual([[6, true], [6, true], [2, false], [3, false], [4, false]]);
    const c = rollDice('3d6!!', fixedRng([6, 6, 2, 3, 4]));
    expect(c.dice[0]!.dice[0]).toEqual({ value: 14, kept: true, exploded: true, rerolled: false, rolls: [6, 6, 2] });
    expect(c.dice[0]!.dice[1]).toEqual({ value: 3, kept: true, exploded: false, rerolled: false });
    const capped = rollDice('d6!', fixedRng([6, 6, 6]), { maxExplodeDepth: 2 });
    expect(capped.total).toBe(18);
    expect(compileDice('d6!', { maxExplodeDepth: 2 }).max).toBe(18);
    expect(compileDice('4d6!').max).toBe(4 * 6 * 101);
  });

  it('rerolls: r repeats, ro rerolls once, and both are recorded', () => {
    const r = rollDice('d6r<3', fixedRng([1, 2, 5]));
    expect(r.total).toBe(5);
    expect(r.dice[0]!.dice[0]).toEqual({ value: 5, kept: true, exploded: false, rerolled: true, rolls: [1, 2, 5] });
    expect(rollDice('d6ro=1', fixedRng([1, 1])).total).toBe(1);
    // rpg-dice-roller's order: the explosion looks at the first face, the reroll comes after (a rerolled 6 does not explode).
    expect(rollDice('d6r<=2!', fixedRng([2, 6, 1, 4])).dice[0]!.dice[0]).toEqual({ value: 6, kept: true, exploded: false, rerolled: true, rolls: [2, 6] });
  });

  it('comparisons report the target and success', () => {
    const r = rollDice('2d6 vs 7', fixedRng([3, 4]));
    expect(r.comparison).toEqual({ op: '>=', target: 7, success: true });
    expect(rollDice('(1d20) > 1d20', fixedRng([5, 5])).comparison?.success).toBe(false);
    expect(compileDice('3d6 vs 13').test(fixedRng([6, 6, 1]))).toBe(true);
    expect(rollDice('1d20+5 >= 15', fixedRng([10])).comparison).toEqual({ op: '>=', target: 15, success: true });
  });

  it('the fast path and the recorded roll throw the same dice', () => {
    for (const e of ['4d6kh3', '8d6!', '10d6', '2d12+3', 'd6r<3 + 3d8ro=1kl2', 'max(2d6, d12) - min(d4, d4)', '60d6kh30']) {
      const c = compileDice(e);
      expect(c.total(seededRng(e))).toBe(c.roll(seededRng(e)).total);
    }
  });

  it('seeded rolls reproduce', () => {
    const a = rollDice('10d6!kh3 + d20', seededRng(7));
    const b = rollDice('10d6!kh3 + d20', seededRng(7));
    expect(a).toEqual(b);
  });

  it('compiled expressions are cached', () => {
    clearDiceCache();
    const c = compileDice('3d6+1');
    expect(compileDice('3d6+1')).toBe(c);
    expect(diceCacheSize()).toBe(1);
    expect(compileDice('3d6+1', { maxDice: 50 })).not.toBe(c);
  });
});

describe('exact odds', () => {
  it('3d6 vs 13 is 7/27', () => {
    const o = odds('3d6 vs 13');
    expect(o.probability).toBeCloseTo(7 / 27, 15);
    expect(o).toMatchObject({ min: 3, max: 18, truncatedMass: 0 });
    expect(o.mean).toBeCloseTo(10.5, 13);
    expect(o.variance).toBeCloseTo(35 / 4, 12);
  });

  it('comparisons: 1d20+5 >= 15 is 11/20; (2d6) = 7 is 1/6; (d20) < d20 is 19/40', () => {
    expect(odds('1d20+5 >= 15').probability).toBeCloseTo(11 / 20, 15);
    expect(odds('1d20+5 vs 15').probability).toBeCloseTo(11 / 20, 15);
    expect(odds('(2d6) = 7').probability).toBeCloseTo(1 / 6, 15);
    expect(odds('(d20) < d20').probability).toBeCloseTo(19 / 40, 15);
    expect(odds('(2d6) <= 4').probability).toBeCloseTo(6 / 36, 15);
    expect(odds('(2d6) > 10').probability).toBeCloseTo(3 / 36, 15);
    expect(odds('2d6').probability).toBeNull();
  });

  it('4d6kh3 and 6d6kh3 agree with enumeration; the mean is exact', () => {
    const o = odds('4d6kh3');
    expect(o.mean).toBeCloseTo(15869 / 1296, 13);
    expect(maxDiff(o.distribution, bruteForce([6, 6, 6, 6], (f) => f.reduce((a, b) => a + b) - Math.min(...f)))).toBeLessThan(1e-15);
    const six = odds('6d6kh3');
    const brute = bruteForce(Array<number>(6).fill(6), (f) => [...f].sort((a, b) => b - a).slice(0, 3).reduce((a, b) => a + b));
    expect(maxDiff(six.distribution, brute)).toBeLessThan(1e-13);
  });

  it('products, quotients, min, max and abs of independent parts', () => {
    expect(maxDiff(odds('d6*d6').distribution, bruteForce([6, 6], (f) => f[0]! * f[1]!))).toBeLessThan(1e-15);
    expect(maxDiff(odds('d20/d4').distribution, bruteForce([20, 4], (f) => Number.parseFloat((f[0]! / f[1]!).toFixed(2))))).toBeLessThan(1e-15);
    expect(maxDiff(odds('floor(d20/d4)').distribution, bruteForce([20, 4], (f) => Math.floor(f[0]! / f[1]!)))).toBeLessThan(1e-15);
    expect(maxDiff(odds('ceil(d20/d4)').distribution, bruteForce([20, 4], (f) => Math.ceil(f[0]! / f[1]!)))).toBeLessThan(1e-15);
    expect(maxDiff(odds('min(d6, d8)').distribution, bruteForce([6, 8], (f) => Math.min(f[0]!, f[1]!)))).toBeLessThan(1e-15);
    expect(maxDiff(odds('max(d6, d8) - 3').distribution, bruteForce([6, 8], (f) => Math.max(f[0]!, f[1]!) - 3))).toBeLessThan(1e-15);
    expect(maxDiff(odds('abs(d6 - d6)').distribution, bruteForce([6, 6], (f) => Math.abs(f[0]! - f[1]!)))).toBeLessThan(1e-15);
    expect(odds('min(d6,d6)').mean).toBeCloseTo(91 / 36, 14);
  });

  it('rerolls: r<3 is uniform on 3-6; ro=1 leaves 1 at 1/36', () => {
    const r = odds('d6r<3').distribution;
    expect(r.entries()).toEqual([[3, 0.25], [4, 0.25], [5, 0.25], [6, 0.25]]);
    const ro = odds('d6ro=1').distribution;
    expect(ro.probability(1)).toBeCloseTo(1 / 36, 15);
    expect(ro.probability(4)).toBeCloseTo(7 / 36, 15);
  });

  it('explosions: exact at the cap; expanded until negligible otherwise, with the rest reported', () => {
    const capped = odds('d6!', { maxExplodeDepth: 2 });
    expect(capped.truncatedMass).toBe(0);
    expect(capped.distribution.probability(18)).toBeCloseTo(1 / 216, 15);
    expect(capped.distribution.probability(13)).toBeCloseTo(1 / 216, 15);
    expect(capped.distribution.probability(6)).toBe(0);
    expect(capped.mean).toBeCloseTo(3.5 * (1 + 1 / 6 + 1 / 36), 13);
    const open = odds('d6!');
    expect(open.truncatedMass).toBeGreaterThan(0);
    expect(open.truncatedMass).toBeLessThan(1e-15);
    expect(open.mean).toBeCloseTo(4.2, 12); // 3.5 * 6/5: the unbounded exploding d6
    expect(Math.abs(sumOf(open.distribution) + open.truncatedMass - 1)).toBeLessThan(1e-12);
    const kh = odds('3d6!!kh2', { maxExplodeDepth: 1 });
    const brute = bruteForce([6, 6, 6, 6, 6, 6], (f) => {
      const v = [0, 1, 2].map((i) => (f[2 * i] === 6 ? 6 + f[2 * i + 1]! : f[2 * i]!));
      return v.sort((a, b) => b - a)[0]! + v[1]!;
    });
    expect(maxDiff(kh.distribution, brute)).toBeLessThan(1e-13);
  });

  it('100d6 and 10d10!kh5 sum to 1; 36d10 averages 198 (not the 190 in 002\'s table)', () => {
    expect(Math.abs(sumOf(odds('100d6').distribution) - 1)).toBeLessThan(1e-12);
    const big = odds('10d10!kh5');
    expect(Math.abs(sumOf(big.distribution) + big.truncatedMass - 1)).toBeLessThan(1e-12);
    expect(odds('36d10').mean).toBeCloseTo(198, 10);
  });
});

describe('compile cache', () => {
  it('evicts the least recently used expression when full', async () => {
    const { COMPILE_CACHE_SIZE } = await import('../../src/dice/index.js');
    clearDiceCache();
    const first = compileDice('1d4+0');
    const second = compileDice('1d4+1');
    for (let i = 2; i < COMPILE_CACHE_SIZE; i++) compileDice(`1d4+${i}`);
    expect(diceCacheSize()).toBe(COMPILE_CACHE_SIZE);
    expect(compileDice('1d4+0')).toBe(first); // touch: now the most recent
    compileDice('1d4+99999');
    expect(diceCacheSize()).toBe(COMPILE_CACHE_SIZE);
    expect(compileDice('1d4+0')).toBe(first); // survived; 1d4+1 was evicted instead
    expect(compileDice('1d4+1')).not.toBe(second);
  });
});

describe('worst cases inside the default limits', () => {
  it.each([
    ['10000d1000000', 'maxOddsSpan'],
    ['10000d6', 'maxOddsWork'],
    ['10000d3!', 'maxOddsWork'],
    ['2000d1000kh1000', 'maxOddsWork'],
    ['d1000000 * d1000000', 'maxOddsWork'],
  ])('odds(%j) refuses up front with %s', (expr, limit) => {
    expect(err(() => odds(expr)).limit).toBe(limit);
  });

  it('the most explosive legal roll still finishes and records every face', () => {
    // d1000000!>=2 explodes on all but one face: nearly every die runs to the cap of 100 extra rolls.
    const r = rollDice('100d1000000!>=2', seededRng(1));
    expect(r.dice[0]!.dice.length).toBeGreaterThan(100 * 100);
    expect(r.total).toBe(r.dice[0]!.dice.reduce((s, d) => s + d.value, 0));
    // ... and its odds are refused up front by a named limit, not computed for minutes.
    expect(err(() => odds('100d1000000!>=2')).code).toBe('LIMIT');
    // Every die on its top face to the cap: 2d2!!r<2 compounds 101 faces of 2 ... when the cap is reached.
    const capped = rollDice('d2!!', fixedRng(Array<number>(101).fill(2)));
    expect(capped.total).toBe(202);
  });
});

describe('sides from an expression', () => {
  it('d(1d4): P(1) = 1/4 (1 + 1/2 + 1/3 + 1/4) = 25/48, P(4) = 1/16, mean = (1 + 1.5 + 2 + 2.5) / 4 = 1.75', () => {
    const o = odds('d(1d4)');
    expect(o.distribution.probability(1)).toBeCloseTo(25 / 48, 14);
    expect(o.distribution.probability(4)).toBeCloseTo(1 / 16, 14);
    expect(o.mean).toBeCloseTo(1.75, 14);
  });

  it('(1d4)d(1d6): the count, then the sides, then the dice, each recorded; mean = E[count] x E[(sides + 1) / 2] = 2.5 x 2.25 = 5.625', () => {
    // Scripted faces: count 2, sides 3 (of a d6), then two d3 dice: 3 and 1.
    const r = rollDice('(1d4)d(1d6)', fixedRng([2, 3, 3, 1]));
    expect(r.total).toBe(4);
    expect(r.dice.map((g) => [g.notation, g.sides, g.total])).toEqual([['1d4', 4, 2], ['1d6', 6, 3], ['(1d4)d3', 3, 4]]);
    expect(odds('(1d4)d(1d6)').mean).toBeCloseTo(5.625, 12);
    expect(printDice(parseDice('(1d4)d(1d6)kh1'))).toBe('(1d4)d(1d6)kh1');
  });

  it('d(1d4+1)!: each side count explodes on its own top face; mean = 1/4 (3 + 3 + 10/3 + 15/4) = 157/48, as E[d(s)!] = (s + 1)/2 x s/(s - 1)', () => {
    const o = odds('d(1d4+1)!');
    expect(o.mean).toBeCloseTo(157 / 48, 9);
    // P(1) = 1/4 (1/2 + 1/3 + 1/4 + 1/5): a 1 never explodes on any of them.
    expect(o.distribution.probability(1)).toBeCloseTo((1 / 2 + 1 / 3 + 1 / 4 + 1 / 5) / 4, 14);
    // Scripted: sides 1 + 1 = 2, then a d2 shows 2 (explodes), then 1.
    const r = rollDice('d(1d4+1)!', fixedRng([1, 2, 1]));
    expect(r.dice.map((g) => [g.notation, g.sides, g.total])).toEqual([['1d4', 4, 1], ['1d2!', 2, 3]]);
    expect(r.dice[1]!.dice.map((d) => [d.value, d.exploded])).toEqual([[2, true], [1, false]]);
    expect(printDice(parseDice('d(1d4+1)!'))).toBe('1d(1d4 + 1)!');
    expect(printDice(parseDice('d(1d4+1)!>3'))).toBe('1d(1d4 + 1)!>3');
  });

  it('4d(1d6)>=4 counts successes per side count: mean = 4/6 (1/4 + 2/5 + 3/6) = 0.7666...; d(1d6+1)!p: mean = E[s/2 + 1] = 3.25', () => {
    expect(odds('4d(1d6)>=4').mean).toBeCloseTo((4 / 6) * (1 / 4 + 2 / 5 + 3 / 6), 14);
    // A penetrating chain adds 1/2 on average on any die: (s + 1)/2 + 1/2, s = 2..7.
    expect(odds('d(1d6+1)!p').mean).toBeCloseTo(3.25, 9);
    // min / max clamp each side count's faces: 3d(2d4)min3max6 on a d2 is always 3 x 3.
    const clamp = rollDice('3d(2d4)min3max6', fixedRng([1, 1, 2, 1, 2]));
    expect(clamp.total).toBe(9);
    expect(clamp.dice.at(-1)!.dice.every((d) => d.value === 3 && d.clamped === true)).toBe(true);
    // Criticals are display facts of the face rolled.
    expect(rollDice('d(1d20)cs>=19cf1', fixedRng([20, 19])).dice.at(-1)!.dice[0]!.critical).toBe('success');
  });

  it('refuses a side count that would never stop or cannot be met, naming it and pointing at the sides', () => {
    const err = (e: string): DiceError => {
      try {
        compileDice(e);
      } catch (x) {
        return x as DiceError;
      }
      throw new Error(`${e} compiled`);
    };
    expect(err('d(1d4)!').message).toBe('the sides can roll 1, and exploding on =1 would explode every face of a d1 forever; make the sides expression unable to give 1 (e.g. d(1d4+1))');
    expect(err('d(1d4)!').position).toBe(1);
    expect(err('d(1d6)r<3').message).toMatch(/^the sides can roll 1, and rerolling r<3 would reroll every face of a d1 forever/);
    expect(err('3d(1d8)u').message).toMatch(/^the sides can roll 1, and 3 dice cannot all differ on a d1/);
    // A count no side count can vary is the old total comparison typed by habit.
    expect(err('2d(1d4)>9').message).toMatch(/gives the same count whatever the faces, for every side count/);
    // The same modifiers with a range that avoids the bad counts are accepted, and odds come out exact.
    for (const ok of ['d(1d4+1)!', 'd(1d6+2)r<3', '3d(1d8+2)u', '2d(1d4)>3', 'd(1d6)ro', '2d(1d6+1)x', '(1d4)d(1d6+1)!kh2']) expect(odds(ok).truncatedMass).toBeLessThan(1e-12);
    expect(err('d(1d4-1)').message).toMatch(/at least 1/);
    expect(err('d(1d4/2)').message).toMatch(/whole number/);
    expect(err('d(1d2000)').limit).toBe('maxRolledSides');
    expect(err('d(1d4*1000000)').limit).toBe('maxSides');
  });
});

describe('labels on plain numbers', () => {
  it('are carried into the roll as constants (value, label, column), in the order written, and printed back', () => {
    const r = rollDice('1d20 + 5 [STR] + 2[prof] # to hit', fixedRng([13]));
    expect(r.total).toBe(20);
    expect(r.constants).toEqual([{ value: 5, label: 'STR', position: 7 }, { value: 2, label: 'prof', position: 17 }]);
    expect(r.comment).toBe('to hit');
    // Both sides of a total comparison.
    expect(rollDice('(1d20 + 5 [STR]) vs 15 [DC]', fixedRng([10])).constants).toEqual([{ value: 5, label: 'STR', position: 8 }, { value: 15, label: 'DC', position: 20 }]);
    expect(printDice(parseDice('1d20 + 5 [STR]'))).toBe('1d20 + 5 [STR]');
    // No labelled number: no field (the record keeps its shape).
    expect('constants' in rollDice('1d20 + 5', fixedRng([1]))).toBe(false);
    // The odds are those of the numbers (a label changes no value).
    expect(odds('1d20 + 5 [STR] vs 15').probability).toBeCloseTo(odds('1d20 + 5 vs 15').probability!, 15);
  });
});
