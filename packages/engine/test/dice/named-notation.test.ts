// Named rolls as text: parsing (with error columns), rolls that match the
// named-roll API die for die, and odds that are the API's distributions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DiceError,
  d20Distribution,
  dualityOutcomeDistribution,
  dualityTotalDistribution,
  fixedRng,
  isNamedRoll,
  kleptoTestDistribution,
  luckTestProbability,
  namedOdds,
  odds,
  parseNamedRoll,
  rollD20,
  rollDice,
  rollDuality,
  rollKleptoTest,
  rollLuckTest,
  rollNamed,
  rollTeamTest,
  rollThreeD6,
  seededRng,
  teamTestDistribution,
  threeD6NaturalDistribution,
  type Pmf,
} from '../../src/dice/index.js';

const err = (f: () => unknown): DiceError => {
  try {
    f();
  } catch (e) {
    if (e instanceof DiceError) return e;
    throw e;
  }
  throw new Error('expected a DiceError');
};
const entries = (p: Pmf) => p.entries();

describe('parsing named rolls', () => {
  it('reads each roll with its clauses in any order', () => {
    expect(parseNamedRoll('duality+2 vs 15 adv')).toMatchObject({ kind: 'duality', modifier: 2, difficulty: 15, advantage: 1 });
    expect(parseNamedRoll('duality adv vs 15 +2')).toEqual(parseNamedRoll('duality+2 vs 15 adv'));
    expect(parseNamedRoll('DUALITY-1 DIS2')).toMatchObject({ kind: 'duality', modifier: -1, difficulty: null, advantage: -2 });
    expect(parseNamedRoll('way+5 adv2 vs 14')).toMatchObject({ kind: 'way', modifier: 5, advantage: 2, difficulty: 14, critAt: 17 });
    expect(parseNamedRoll('way crit 16')).toMatchObject({ critAt: 16 });
    expect(parseNamedRoll('klepto+1 dis2 vs 7')).toMatchObject({ kind: 'klepto', modifier: 1, advantage: -2, difficulty: 7 });
    expect(parseNamedRoll('team(d8, d6) +1 adv1 vs 12')).toMatchObject({ kind: 'team', attributeDie: 8, skillDie: 6, modifier: 1, advantage: 1, difficulty: 12, luckBonus: true, luckModifier: 0 });
    expect(parseNamedRoll('team(d10) noluck luck-1')).toMatchObject({ attributeDie: 10, skillDie: 0, luckBonus: false, luckModifier: -1 });
    expect(parseNamedRoll('osr+3 adv vs 15')).toMatchObject({ kind: 'osr', modifier: 3, advantage: 1, difficulty: 15 });
    expect(parseNamedRoll('luck+1 vs 18')).toMatchObject({ kind: 'luck', modifier: 1, difficulty: 18 });
  });

  it('advantage and disadvantage cancel one for one; the Kleptonomicon caps the net at 3', () => {
    expect(parseNamedRoll('way adv3 dis1').advantage).toBe(2);
    expect(parseNamedRoll('osr adv dis').advantage).toBe(0);
    expect(parseNamedRoll('klepto adv5').advantage).toBe(3);
    expect(parseNamedRoll('klepto dis9 adv1').advantage).toBe(-3);
    expect(parseNamedRoll('duality vs -3').difficulty).toBe(-3);
  });

  it('tells named rolls from notation', () => {
    expect(isNamedRoll('  duality+2')).toBe(true);
    expect(isNamedRoll('Team(d8)')).toBe(true);
    expect(isNamedRoll('d20+5')).toBe(false);
    expect(isNamedRoll('3d6 >= 13')).toBe(false);
    expect(isNamedRoll('dual')).toBe(false);
  });

  it.each([
    // text, code, 0-based column
    ['duality 2', 'SYNTAX', 8],
    ['duality >= 15', 'SYNTAX', 8],
    ['duality vs', 'SYNTAX', 10],
    ['duality+2 vs 15 foo', 'SYNTAX', 16],
    ['duality+2 +1', 'SYNTAX', 10],
    ['way adv2 adv1', 'SYNTAX', 9],
    ['way vs 10 vs 12', 'SYNTAX', 10],
    ['way crit 2', 'BAD_OPTION', 9],
    ['way luck+1', 'SYNTAX', 4],
    ['osr adv2', 'BAD_OPTION', 7],
    ['team+1', 'SYNTAX', 4],
    ['team(d8, 6)', 'SYNTAX', 9],
    ['team(d8, d6', 'SYNTAX', 11],
    ['team(d101)', 'BAD_OPTION', 6],
    ['team(d8) adv11', 'BAD_OPTION', 9],
    ['team(d8) luck 2', 'SYNTAX', 14],
    ['team(d8) noluck noluck', 'SYNTAX', 16],
    ['klepto(d6)', 'SYNTAX', 6],
    ['luck+1', 'SYNTAX', 6],
    ['luck adv vs 10', 'BAD_OPTION', 5],
    ['duality+5000', 'BAD_OPTION', 7],
    ['duality adv21', 'BAD_OPTION', 11],
    ['duality # 2', 'SYNTAX', 8],
  ])('%s -> %s at column %i', (text, code, column) => {
    const e = err(() => parseNamedRoll(text));
    expect(e.code).toBe(code);
    expect(e.position).toBe(column);
    expect(e.expression).toBe(text);
  });

  it('inside arithmetic, the notation parser names the named roll', () => {
    const e = err(() => rollDice('1 + duality', fixedRng([])));
    expect(e.position).toBe(4);
    expect(e.message).toContain('named roll');
  });

  it('the length limit applies', () => {
    const e = err(() => parseNamedRoll(`duality${' '.repeat(1000)}`));
    expect(e.limit).toBe('maxLength');
  });
});

describe('rolling named rolls', () => {
  it('throws the same dice as the named-roll API, seed for seed', () => {
    for (let s = 0; s < 50; s++) {
      expect(rollNamed('duality+2 adv1 vs 15', seededRng(s)).roll).toEqual(rollDuality(seededRng(s), { modifier: 2, advantage: 1, difficulty: 15 }));
      expect(rollNamed('way dis2', seededRng(s)).roll).toEqual(rollThreeD6(seededRng(s), { advantage: -2 }));
      expect(rollNamed('klepto-1 adv2', seededRng(s)).roll).toEqual(rollKleptoTest(seededRng(s), { modifier: -1, advantage: 2 }));
      expect(rollNamed('team(d8, d6)+1 dis1 luck+2', seededRng(s)).roll).toEqual(rollTeamTest(seededRng(s), { attributeDie: 8, skillDie: 6, bonus: 1, advantage: -1, luckModifier: 2 }));
      expect(rollNamed('osr+4 dis', seededRng(s)).roll).toEqual(rollD20(seededRng(s), { modifier: 4, mode: 'disadvantage' }));
      expect(rollNamed('luck+1 vs 18', seededRng(s)).roll).toEqual(rollLuckTest(seededRng(s), 18, 1));
    }
  });

  it('duality: the outcome against the difficulty; without one, only which die is higher', () => {
    // Hope 9, Fear 4, advantage d6 2: 9 + 4 + 2 + 2 = 17 >= 15.
    const a = rollNamed('duality+2 vs 15 adv', fixedRng([9, 4, 2]));
    expect(a).toMatchObject({ total: 17, success: true, outcome: 'successWithHope' });
    // Hope 3, Fear 5, disadvantage d6 6: 3 + 5 - 6 = 2.
    expect(rollNamed('duality dis vs 10', fixedRng([3, 5, 6]))).toMatchObject({ total: 2, success: false, outcome: 'failureWithFear' });
    // Matching dice: critical, a success whatever the total.
    expect(rollNamed('duality-5 vs 30', fixedRng([2, 2]))).toMatchObject({ total: -1, success: true, outcome: 'critical' });
    const free = rollNamed('duality', fixedRng([7, 11]));
    expect(free).toMatchObject({ total: 18, success: null, outcome: 'withFear' });
    expect(free.roll).not.toHaveProperty('difficulty');
    expect(free.roll).not.toHaveProperty('outcome');
  });

  it('the 36th Way: total = natural + modifier; natural 17+ crits (or crit N), natural 3 crit-fails', () => {
    expect(rollNamed('way+5 adv1 vs 20', fixedRng([6, 5, 6, 1]))).toMatchObject({ natural: 17, total: 22, success: true, outcome: 'crit' });
    expect(rollNamed('way+9 vs 12', fixedRng([1, 1, 1]))).toMatchObject({ natural: 3, total: 12, success: true, outcome: 'critFail' });
    expect(rollNamed('way crit 16', fixedRng([6, 4, 6])).outcome).toBe('crit');
    expect(rollNamed('way', fixedRng([6, 4, 6])).outcome).toBeNull();
  });

  it('Kleptonomicon, team game, OSR and luck outcomes', () => {
    // Face 10, coin called right: a critical success worth 10.
    expect(rollNamed('klepto+1 vs 7', fixedRng([10, 1]))).toMatchObject({ total: 11, success: true, outcome: 'criticalSuccess' });
    expect(rollNamed('klepto+1 vs 7', fixedRng([10, 2]))).toMatchObject({ total: 1, success: false, outcome: 'criticalFailure' });
    // d8 5 + d6 3 + 1, luck die 20: +4.
    expect(rollNamed('team(d8, d6)+1 vs 12', fixedRng([5, 3, 20]))).toMatchObject({ total: 13, success: true, outcome: 'luckBonus' });
    expect(rollNamed('team(d8, d6)+1 vs 12 noluck', fixedRng([5, 3, 20]))).toMatchObject({ total: 9, success: false, outcome: null });
    expect(rollNamed('osr+3 adv vs 15', fixedRng([4, 20]))).toMatchObject({ natural: 20, total: 23, success: true, outcome: 'natural20' });
    expect(rollNamed('osr+3 dis', fixedRng([1, 20]))).toMatchObject({ natural: 1, total: 4, success: null, outcome: 'natural1' });
    expect(rollNamed('luck+1 vs 18', fixedRng([17]))).toMatchObject({ total: 18, success: true });
  });

  it('records are plain JSON values', () => {
    const r = rollNamed('team(d8, d6) adv2 vs 12', seededRng(5));
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});

describe('odds of named rolls are the named-roll distributions', () => {
  it('duality: total distribution, the five outcomes, success = critical + the two successes', () => {
    for (const [text, o] of [
      ['duality+2 adv1 vs 15', { modifier: 2, advantage: 1, difficulty: 15 }],
      ['duality-1 dis3 vs 9', { modifier: -1, advantage: -3, difficulty: 9 }],
      ['duality vs 24', { modifier: 0, advantage: 0, difficulty: 24 }],
    ] as const) {
      const n = namedOdds(text);
      const d = dualityOutcomeDistribution(o);
      expect(n.outcomes).toEqual(d);
      expect(n.probability).toBeCloseTo(d.critical + d.successWithHope + d.successWithFear, 15);
      expect(entries(n.distribution)).toEqual(entries(dualityTotalDistribution({ modifier: o.modifier, advantage: o.advantage })));
      expect(Object.values(n.outcomes).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    const free = namedOdds('duality');
    expect(free.probability).toBeNull();
    expect(free.outcomes.critical).toBeCloseTo(1 / 12, 15);
    expect(free.outcomes.withHope).toBeCloseTo(11 / 24, 14);
    expect(free.outcomes.withFear).toBeCloseTo(11 / 24, 14);
  });

  it('the 36th Way, Kleptonomicon, team game, OSR and luck', () => {
    const way = namedOdds('way+3 adv2 vs 17');
    const nat = threeD6NaturalDistribution(2);
    expect(entries(way.distribution)).toEqual(entries(nat).map(([v, p]) => [v + 3, p]));
    expect(way.probability).toBeCloseTo(nat.atLeast(14), 15);
    expect(way.outcomes).toEqual({ crit: nat.atLeast(17), critFail: nat.atMost(3) });

    const k = namedOdds('klepto+2 dis1 vs 7');
    const kd = kleptoTestDistribution({ modifier: 2, advantage: -1 });
    expect(entries(k.distribution)).toEqual(entries(kd));
    expect(k.probability).toBeCloseTo(kd.atLeast(7), 15);
    expect(k.outcomes.criticalSuccess).toBeCloseTo(kd.probability(12), 15);

    const t = namedOdds('team(d8, d6)+1 adv1 vs 12 luck+1');
    const td = teamTestDistribution({ attributeDie: 8, skillDie: 6, bonus: 1, advantage: 1, luckModifier: 1 });
    expect(entries(t.distribution)).toEqual(entries(td));
    expect(t.probability).toBeCloseTo(td.atLeast(12), 15);
    expect(t.outcomes.luckBonus).toBeCloseTo(2 / 20, 15);

    const o = namedOdds('osr+3 dis vs 15');
    expect(entries(o.distribution)).toEqual(entries(d20Distribution({ modifier: 3, mode: 'disadvantage' })));
    expect(o.outcomes.natural1).toBeCloseTo(39 / 400, 15);
    expect(o.outcomes.natural20).toBeCloseTo(1 / 400, 15);

    expect(namedOdds('luck-2 vs 15').probability).toBeCloseTo(luckTestProbability(15, -2), 15);
  });

  it('exact means, never (min + max) / 2', () => {
    // d20 kept high of two: mean 13.825; + 3.
    expect(namedOdds('osr+3 adv').mean).toBeCloseTo(16.825, 12);
    expect(namedOdds('osr+3 adv').mean).not.toBe((namedOdds('osr+3 adv').min + namedOdds('osr+3 adv').max) / 2);
  });
});

describe('worked examples from the rules texts, recomputed by hand', () => {
  it('Daggerheart action roll +2 against difficulty 15 (rules README, 000)', () => {
    // 144 ordered (Hope, Fear) pairs. 12 match: critical. Sums of 13+ (what a +2 needs):
    // 12 + 11 + ... + 1 = 78 pairs, 6 of them matching (7-7 .. 12-12), so 72, split evenly
    // between Hope and Fear by symmetry: 36 each. The other 132 - 72 = 60 fail: 30 each.
    const n = namedOdds('duality+2 vs 15');
    expect(n.outcomes.critical).toBeCloseTo(12 / 144, 15);
    expect(n.outcomes.successWithHope).toBeCloseTo(36 / 144, 15);
    expect(n.outcomes.successWithFear).toBeCloseTo(36 / 144, 15);
    expect(n.outcomes.failureWithHope).toBeCloseTo(30 / 144, 15);
    expect(n.outcomes.failureWithFear).toBeCloseTo(30 / 144, 15);
    expect(n.probability).toBeCloseTo(7 / 12, 15);
  });

  it('The 36th Way: Weakened and Dazed give 2 Disadvantage on attacks (002, conditions)', () => {
    // 5d6 keep the lowest three. Crit Fail (natural 3) needs three or more 1s among five dice:
    // C(5,3) 5^2 + C(5,4) 5 + 1 = 250 + 25 + 1 = 276 of 6^5 = 7776.
    // Crit (natural 17+): the lowest three are 6,6,6 (all five 6s: 1 way) or 5,6,6 (one 5 and
    // four 6s: 5 ways), so 6 of 7776.
    const n = namedOdds('way dis2');
    expect(n.outcomes.critFail).toBeCloseTo(276 / 7776, 15);
    expect(n.outcomes.crit).toBeCloseTo(6 / 7776, 15);
    // A 13+ save with no modifier and no Disadvantage is 3d6 >= 13: 56 of 216 (= 7/27).
    expect(namedOdds('way vs 13').probability).toBeCloseTo(56 / 216, 15);
    expect(namedOdds('way vs 13').probability).toBeCloseTo(odds('3d6 vs 13').probability!, 15);
  });

  it('Kleptonomicon Edge Save: fails on a Score of 6 or lower (004 via rules README)', () => {
    // One d10ish die: 7, 8, 9 at 2/20 each and 10 at 1/20 -> 7/20. With an Advantage die,
    // it fails only if both dice fail: 1 - (13/20)^2 = 231/400.
    expect(namedOdds('klepto vs 7').probability).toBeCloseTo(7 / 20, 15);
    expect(namedOdds('klepto adv vs 7').probability).toBeCloseTo(231 / 400, 15);
  });

  it('team game: d8 attribute + d6 skill + 1 against 12, a luck die of 20 adds 4 (003)', () => {
    // d8 + d6 >= 11: 1 + 2 + 3 + 4 = 10 of 48 pairs; with the +4, d8 + d6 >= 7: 48 - 15 = 33.
    // 19/20 * 10/48 + 1/20 * 33/48 = 223/960.
    expect(namedOdds('team(d8, d6)+1 vs 12').probability).toBeCloseTo(223 / 960, 15);
  });
});

describe('fuzz', () => {
  it('random clause soup after a keyword throws nothing but DiceError, and what parses rolls and has odds', () => {
    const piece = fc.constantFrom('duality', 'way', 'klepto', 'team', 'osr', 'luck', '(', ')', ',', 'd8', 'd', '6', '+', '-', '+2', '-1', 'adv', 'dis', 'adv2', 'vs', '15', 'crit', '16', 'luck', 'noluck', '>=', ' ', '99999', '1e3', '%', 'x');
    let parsed = 0;
    fc.assert(
      fc.property(fc.constantFrom('duality', 'way', 'klepto', 'team(d8, d6)', 'osr', 'luck'), fc.array(piece, { maxLength: 8 }), fc.integer(), (head, rest, seed) => {
        const text = [head, ...rest].join(' ');
        try {
          const r = rollNamed(text, seededRng(seed));
          const o = namedOdds(text);
          parsed++;
          expect(r.total).toBeGreaterThanOrEqual(o.min);
          expect(r.total).toBeLessThanOrEqual(o.max);
          expect(o.distribution.probability(r.total)).toBeGreaterThan(0);
          expect(o.distribution.entries().reduce((a, [, p]) => a + p, 0)).toBeCloseTo(1, 12);
        } catch (e) {
          if (!(e instanceof DiceError)) throw e;
          expect(e.position).toBeGreaterThanOrEqual(0);
          expect(e.position).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 500 },
    );
    expect(parsed).toBeGreaterThan(20);
  });
});
