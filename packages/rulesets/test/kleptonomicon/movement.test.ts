import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { distanceFor, distances, withinReach } from '../../src/kleptonomicon/distances.js';
import {
  grantStyle,
  interruptEffect,
  movementPool,
  planDropProne,
  planMove,
  planStand,
  poolLeft,
  startTurnMovement,
  styleCapacity,
  styleLeft,
  type MovementStyle,
  type TurnMovement,
} from '../../src/kleptonomicon/movement.js';

const LEVEL_ONE: MovementStyle[] = [
  { style: 'walk', variant: 'normal' },
  { style: 'jump', variant: 'half' },
];

function must(r: { ok: true; value: TurnMovement } | { ok: false; error: { code: string } }): TurnMovement {
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

describe('004 Distance', () => {
  it('each named distance doubles the one before, and the sixth is unbounded by default', () => {
    const d = distances();
    expect(d.map((x) => x.units)).toEqual([1, 2, 4, 8, 16, null]);
    expect(d.map((x) => x.name)).toEqual(['Swinging Distance', 'Spearing Distance', 'Spitting Distance', 'Throwing Distance', 'Shooting Distance', 'Seeing Distance']);
  });
  it('names the shortest distance that covers a gap', () => {
    expect(distanceFor(1).id).toBe('swinging');
    expect(distanceFor(3).id).toBe('spitting');
    expect(distanceFor(16).id).toBe('shooting');
    expect(distanceFor(17).id).toBe('seeing');
    expect(distanceFor(20, { id: 'horizon', name: 'Horizon', units: 32 }).id).toBe('horizon');
  });
  it('melee reaches a Swinging Distance, ranged a Shooting Distance', () => {
    expect(withinReach(1, 'swinging')).toBe(true);
    expect(withinReach(2, 'swinging')).toBe(false);
    expect(withinReach(16, 'shooting')).toBe(true);
    expect(withinReach(500, 'seeing')).toBe(true);
    expect(withinReach(1, 'nowhere')).toBe(false);
  });
});

describe('004 Movement styles and the pool', () => {
  it('a style moves 4u, a Half style 2u, a Double style 8u', () => {
    expect(styleCapacity({ style: 'walk', variant: 'normal' })).toBe(4);
    expect(styleCapacity({ style: 'jump', variant: 'half' })).toBe(2);
    expect(styleCapacity({ style: 'jump', variant: 'double' })).toBe(8);
  });
  it('a level 1 character (Walk 4u, Half Jump 2u) has a 4u pool', () => {
    expect(movementPool(LEVEL_ONE)).toBe(4);
  });
  it('the pool caps the sum across styles; each style its own cap', () => {
    let tm = startTurnMovement(LEVEL_ONE, false);
    tm = must(planMove(tm, 'jump', 2));
    expect(planMove(tm, 'jump', 1)).toMatchObject({ ok: false, error: { code: 'STYLE_EXHAUSTED' } });
    tm = must(planMove(tm, 'walk', 2));
    expect(poolLeft(tm)).toBe(0);
    expect(planMove(tm, 'walk', 1)).toMatchObject({ ok: false, error: { code: 'POOL_EXHAUSTED' } });
  });
  it('movement may be split before, between and after abilities', () => {
    let tm = startTurnMovement(LEVEL_ONE, false);
    for (let i = 0; i < 4; i++) tm = must(planMove(tm, 'walk', 1));
    expect(tm.spent).toBe(4);
    expect(tm.used['walk']).toBe(4);
  });
  it('Bob: Dash doubles every style, so his Half Jump (2u) covers four 1u jumps', () => {
    let tm: TurnMovement = { ...startTurnMovement(LEVEL_ONE, false), multiplier: 2 };
    expect(styleLeft(tm, 'jump')).toBe(4);
    for (let i = 0; i < 4; i++) tm = must(planMove(tm, 'jump', 1));
    expect(styleLeft(tm, 'jump')).toBe(0);
    expect(poolLeft(tm)).toBe(4);
    expect(planMove(tm, 'jump', 1)).toMatchObject({ ok: false, error: { code: 'STYLE_EXHAUSTED' } });
  });
  it('Prone halves Walk movement, standing spends 1u, dropping Prone is free while walking', () => {
    let tm = startTurnMovement(LEVEL_ONE, true);
    expect(planMove(tm, 'jump', 1)).toMatchObject({ ok: false, error: { code: 'PRONE' } });
    tm = must(planMove(tm, 'walk', 1));
    expect(tm.spent).toBe(2);
    tm = must(planStand(tm));
    expect(tm.prone).toBe(false);
    expect(tm.spent).toBe(3);
    tm = must(planDropProne(tm));
    expect(tm.prone).toBe(true);
    expect(planDropProne(tm)).toMatchObject({ ok: false, error: { code: 'ALREADY_PRONE' } });
  });
  it('a granted improvised style is Half by default and draws on the same pool', () => {
    let tm = grantStyle(startTurnMovement(LEVEL_ONE, false), 'climb');
    expect(styleLeft(tm, 'climb')).toBe(2);
    expect(poolLeft(tm)).toBe(4);
    tm = must(planMove(tm, 'climb', 2));
    expect(poolLeft(tm)).toBe(2);
    const ladder = grantStyle(startTurnMovement(LEVEL_ONE, false), 'climb', 'double');
    // A granted Double Climb does not raise the sheet's 4u cap.
    expect(planMove(ladder, 'climb', 5)).toMatchObject({ ok: false, error: { code: 'POOL_EXHAUSTED' } });
  });
  it('interrupted styles: Climb and Fly fall, Swim floats or sinks, Walk and Levitate nothing', () => {
    expect(interruptEffect('climb')).toBe('fall');
    expect(interruptEffect('fly')).toBe('fall');
    expect(interruptEffect('swim')).toBe('float');
    expect(interruptEffect('swim', { heavy: true })).toBe('sink');
    expect(interruptEffect('levitate')).toBe('none');
    expect(interruptEffect('walk')).toBe('none');
  });
  it('bad distances are refused with a code', () => {
    const tm = startTurnMovement(LEVEL_ONE, false);
    for (const u of [0, -1, Number.NaN, 1e9]) expect(planMove(tm, 'walk', u)).toMatchObject({ ok: false, error: { code: 'BAD_DISTANCE' } });
    expect(planMove(tm, 'fly', 1)).toMatchObject({ ok: false, error: { code: 'NO_SUCH_STYLE' } });
  });
  it('property: no sequence of moves spends more than the pool or a style more than its cap', () => {
    const styleArb = fc.record({ style: fc.constantFrom('walk', 'jump', 'climb', 'swim'), variant: fc.constantFrom('half', 'normal', 'double') as fc.Arbitrary<'half' | 'normal' | 'double'> });
    fc.assert(
      fc.property(fc.array(styleArb, { minLength: 1, maxLength: 4 }), fc.constantFrom(1, 2, 3), fc.boolean(), fc.array(fc.tuple(fc.constantFrom('walk', 'jump', 'climb', 'swim'), fc.integer({ min: 1, max: 6 })), { maxLength: 20 }), (styles, multiplier, prone, moves) => {
        const uniq = [...new Map(styles.map((s) => [s.style, s])).values()];
        let tm: TurnMovement = { ...startTurnMovement(uniq, prone), multiplier };
        for (const [style, units] of moves) {
          const r = planMove(tm, style, units);
          if (r.ok) tm = r.value;
        }
        expect(tm.spent).toBeLessThanOrEqual(movementPool(uniq) * multiplier);
        for (const s of uniq) expect(tm.used[s.style] ?? 0).toBeLessThanOrEqual(styleCapacity(s) * multiplier);
      }),
    );
  });
});
