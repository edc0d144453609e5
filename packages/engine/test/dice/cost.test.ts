// The cost of a dice expression (ADR 25): worked examples recomputed by hand,
// and properties that the cost bounds what a roll really throws and stores,
// and that the value ranges it reads rolled sides from hold the compiler's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiceError, type Rng, compileDice, diceCost, notationCost, parseDice, seededRng, withLimits } from '../../src/dice/index.js';
import { valueRange } from '../../src/dice/cost.js';
import { TABLE_ROLL_LIMITS, coreModule, createEngine, rolledCost, tableRollCost } from '../../src/core/index.js';
import { costUnits } from '../../src/dice/cost.js';

const runs = (n: number): number => n * Number(process.env['FC_RUNS_MULTIPLIER'] ?? 1);
const seed = process.env['FC_SEED'] === undefined ? {} : { seed: Number(process.env['FC_SEED']) };

describe('dice cost: worked examples (table roll limits: 20 extra rolls per die)', () => {
  const cost = (e: string) => notationCost(e, TABLE_ROLL_LIMITS);

  it('3d6: three draws, three records, one group, one unit', () => {
    expect(cost('3d6')).toMatchObject({ draws: 3, records: 3, groups: 1, plans: 0, units: 1 });
  });

  it('100d6!: each die may explode 20 times, so 100 x 21 = 2,100 draws and records; 2100/2000 + 2100/100 + 1/200 + 6/10000 rounds up to 23 units', () => {
    expect(cost('100d6!')).toMatchObject({ draws: 2100, records: 2100, groups: 1, units: 23 });
  });

  it('100d6!!: a compounding chain is one record, so 100 records for 2,100 draws: 1.05 + 1 + 0.005 + 0.0006 rounds up to 3 units', () => {
    expect(cost('100d6!!')).toMatchObject({ draws: 2100, records: 100, units: 3 });
  });

  it('100d2!r1: each of the 21 records of a chain may reroll 21 times, so 100 x (21 + 21 x 21) = 46,200 draws: 23.1 + 21 + 0.005 + 0.0002 rounds up to 45 units', () => {
    expect(cost('100d2!r1')).toMatchObject({ draws: 46_200, records: 2100, units: 45 });
  });

  it('4d6ro1: a reroll once adds one draw per die (8 draws, 4 records)', () => {
    expect(cost('4d6ro1')).toMatchObject({ draws: 8, records: 4 });
  });

  it('(1d10)d6: a rolled count is charged at its top, 10 dice, plus the count die', () => {
    expect(cost('(1d10)d6')).toMatchObject({ draws: 11, records: 11, groups: 2 });
  });

  it('d(1d1000): one plan per side count 1..1000, each tabulating its faces (500,500) plus the inner d1000: 727 units, over a seat budget of 400', () => {
    const c = cost('d(1d1000)');
    expect(c).toMatchObject({ plans: 1000, tableFaces: 500_500 + 1000, draws: 2 });
    expect(c.units).toBe(Math.ceil(2 / 2000 + 2 / 100 + 2 / 200 + 1000 / 100 + 501_500 / 700));
    expect(c.units).toBe(727);
  });

  it('d(1d4+996): the plans follow the rolled sides, 996..1000 (the bound takes 0..4 for 1d4), so five plans', () => {
    expect(cost('d(1d4+996)').plans).toBe(5);
  });

  it('d(2^3) and d(floor(1d8/2)+1): powers of a non-negative base and division by a positive number are bounded (one plan; five plans for 1..5)', () => {
    expect(cost('d(2^3)').plans).toBe(1);
    expect(cost('d(floor(1d8/2)+1)').plans).toBe(5);
  });

  it('1d1000000: a face list of a million values, 101 units', () => {
    expect(cost('1d1000000')).toMatchObject({ faces: 1_000_000, units: 101 });
  });

  it('named rolls cost their dice: duality+2 adv vs 15 throws 3 + 1 dice at most, one unit', () => {
    expect(cost('duality+2 adv vs 15')).toMatchObject({ draws: 4, units: 1 });
  });

  it('a comparison charges both sides: 2d6 vs 1d20 is three draws', () => {
    expect(cost('2d6 vs 1d20').draws).toBe(3);
  });

  it('tableRollCost reads a dice.roll command; bad or missing notation is null (the engine refuses it without rolling)', () => {
    expect(tableRollCost({ type: 'dice.roll', notation: '100d6!' })?.units).toBe(23);
    expect(tableRollCost({ type: 'dice.roll', notation: '2d' })).toBeNull();
    expect(tableRollCost({ type: 'dice.roll' })).toBeNull();
    expect(tableRollCost({ type: 'dice.roll', notation: `${'1+'.repeat(150)}1` })).toBeNull();
  });

  it('bad notation throws the same DiceError a roll would', () => {
    expect(() => notationCost('3d6 +', TABLE_ROLL_LIMITS)).toThrow(DiceError);
  });
});

const CMP = ['<', '<=', '>', '>=', '=', '!='] as const;
const rarely = <T,>(arb: fc.Arbitrary<T>, k: number): fc.Arbitrary<T | null> => fc.oneof({ arbitrary: fc.constant(null), weight: k - 1 }, { arbitrary: arb, weight: 1 });
const cmpArb = (lo: number, hi: number) => fc.tuple(fc.constantFrom(...CMP), fc.integer({ min: lo, max: hi })).map(([op, v]) => `${op}${v}`);

/** A dice term with any modifier, a rolled count or rolled sides now and then; invalid mixes are refused by the parser and skipped. */
const term: fc.Arbitrary<string> = fc
  .record({
    count: fc.oneof(fc.integer({ min: 1, max: 4 }).map(String), fc.constantFrom('(1d3)', '(1d4-1)')),
    sides: fc.oneof(fc.constantFrom('1', '2', '3', '6', 'F'), fc.constantFrom('(1d4)', '(1d3+2)', '(2^2)', '(floor(1d6/2)+1)', '(max(1d3, 2))')),
    explode: rarely(fc.tuple(fc.constantFrom('!', '!!', '!p'), rarely(cmpArb(1, 3), 2)), 3),
    reroll: rarely(fc.tuple(fc.constantFrom('r', 'ro'), cmpArb(1, 3)), 3),
    unique: rarely(fc.constantFrom('u', 'uo'), 6),
    keep: rarely(fc.constantFrom('kh1', 'dl1'), 3),
    target: rarely(cmpArb(1, 4), 4),
  })
  .map(({ count, sides, explode, reroll, unique, keep, target }) => `${count}d${sides}${explode ? explode[0] + (explode[1] ?? '') : ''}${reroll ? reroll.join('') : ''}${unique ?? ''}${keep ?? ''}${target ?? ''}`);

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -3, max: 6 }).map(String),
    term,
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(fc.constantFrom('min', 'max'), tie('e'), tie('e')).map(([f, a, b]) => `${f}(${a}, ${b})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `{${a}, ${b}}kh1`),
    tie('e').map((a) => `abs(-(${a}))`),
    tie('e').map((a) => `floor(${a} / 2)`),
  ),
})).e;

/** Counts every die thrown (no batched fill, so each throw is one call). */
function countingRng(seedValue: number): Rng & { draws: number } {
  const inner = seededRng(seedValue);
  const r = {
    kind: 'seeded' as const,
    draws: 0,
    die(sides: number): number {
      r.draws++;
      return inner.die(sides);
    },
    snapshot: () => inner.snapshot(),
  };
  return r;
}

/** Small caps so chains and rerolls reach them. */
const LIMITS = { maxExplodeDepth: 3, maxDice: 100 } as const;

function compiled(e: string) {
  try {
    return compileDice(e, LIMITS);
  } catch (x) {
    if (x instanceof DiceError) return null;
    throw x;
  }
}

describe('dice cost: properties', () => {
  it('a roll never throws more dice, stores more die records or more groups than its cost says', () => {
    fc.assert(
      fc.property(expr, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (e, s) => {
        const c = compiled(e);
        fc.pre(c !== null);
        const cost = diceCost(c.ast, c.limits);
        for (let i = 0; i < 5; i++) {
          const rng = countingRng(s + i);
          const roll = c.roll(rng);
          expect(rng.draws).toBeLessThanOrEqual(cost.draws);
          expect(roll.dice.reduce((n, g) => n + g.dice.length, 0)).toBeLessThanOrEqual(cost.records);
          expect(roll.dice.length).toBeLessThanOrEqual(cost.groups);
          expect(cost.units).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: runs(400), ...seed },
    );
  }, 120_000);

  it('the value range the cost reads rolled sides from holds the compiler bounds (so every plan built is charged)', () => {
    fc.assert(
      fc.property(expr, (e) => {
        const c = compiled(e);
        fc.pre(c !== null && c.ast.kind !== 'compare');
        const r = valueRange(parseDice(e, LIMITS) as Parameters<typeof valueRange>[0], withLimits(LIMITS));
        if (r === null) return;
        expect(r.lo).toBeLessThanOrEqual(c.min);
        expect(r.hi).toBeGreaterThanOrEqual(c.max);
      }),
      { numRuns: runs(400), ...seed },
    );
  }, 120_000);

  it('adding a term never makes an expression cheaper', () => {
    fc.assert(
      fc.property(expr, term, (a, b) => {
        const ca = compiled(a);
        const cab = compiled(`${a} + ${b}`);
        fc.pre(ca !== null && cab !== null);
        const x = diceCost(ca.ast, ca.limits);
        const y = diceCost(cab.ast, cab.limits);
        for (const k of ['draws', 'records', 'groups', 'plans', 'faces', 'tableFaces', 'units'] as const) expect(y[k]).toBeGreaterThanOrEqual(x[k]);
      }),
      { numRuns: runs(300), ...seed },
    );
  }, 120_000);
});

describe('what a table roll really cost, once rolled (ADR 33)', () => {
  const engine = createEngine([coreModule]);
  const rolled = (notation: string, seed: number) => {
    const t = engine.createTable({ tableId: 't', name: 'Cost', rulesetId: 'core' });
    const r = engine.execute(t, { type: 'dice.roll', notation }, { rng: seededRng(seed), actor: { role: 'gm' } });
    if (!r.ok || r.value.transaction.kind !== 'command') throw new Error(`${notation} did not roll`);
    return r.value.transaction.events;
  };

  it("100d2!r1 is charged 45 units up front and really uses the throws and records its event holds (a few units)", () => {
    const worst = tableRollCost({ type: 'dice.roll', notation: '100d2!r1' })!;
    const events = rolled('100d2!r1', 3);
    const roll = events[0]!['roll'] as unknown as { dice: { dice: { rolls?: number[] }[] }[] };
    const records = roll.dice.reduce((n, g) => n + g.dice.length, 0);
    const draws = roll.dice.reduce((n, g) => n + g.dice.reduce((m, d) => m + (d.rolls?.length ?? 1), 0), 0);
    expect(records).toBeGreaterThanOrEqual(100);
    expect(rolledCost(worst, events)).toBe(costUnits({ ...worst, draws, records }));
    expect(rolledCost(worst, events)).toBeLessThan(10);
    expect(worst.units).toBe(45);
  });

  it('rolled sides keep their compiling cost (d(1d240): 45 units, nothing back); a named roll and a roll without events cost their worst case', () => {
    const compiled = tableRollCost({ type: 'dice.roll', notation: 'd(1d240)' })!;
    expect(rolledCost(compiled, rolled('d(1d240)', 1))).toBe(compiled.units);
    const named = tableRollCost({ type: 'dice.roll', notation: 'duality+2' })!;
    expect(rolledCost(named, rolled('duality+2', 1))).toBe(named.units);
    expect(rolledCost(compiled, [])).toBe(compiled.units);
  });

  it('property: what a roll really used is at least 1 unit and never more than its worst case', () => {
    const notations = ['100d2!r1', '20d6!!', '4d6kh3', '10d10>=8', '3d6r<2', '2d20kh1+5', 'd(1d20)', '8d4!p'];
    fc.assert(
      fc.property(fc.constantFrom(...notations), fc.integer(), (notation, seed) => {
        const worst = tableRollCost({ type: 'dice.roll', notation })!;
        const used = rolledCost(worst, rolled(notation, seed));
        expect(used).toBeGreaterThanOrEqual(1);
        expect(used).toBeLessThanOrEqual(worst.units);
      }),
      { numRuns: 200 },
    );
  });
});
