// The dice tray's helpers with a system's named roll (a Node test of the web helpers).
import { describe, expect, it } from 'vitest';
import { oddsOf, rollOf, tableRollError } from '../packages/web/src/lib/dice.ts';

describe('the dice tray and named rolls', () => {
  it('shows exact odds: duality+2 vs 15 succeeds 7/12 of the time, with each outcome', () => {
    const o = oddsOf('duality+2 vs 15');
    if (!o.ok) throw new Error(o.error.message);
    expect(o.value.probability).toBeCloseTo(7 / 12, 12);
    expect(o.value.comparisonText).toContain('chance of 15 or more');
    expect(o.value.comparisonText).toContain('critical success 8.3%');
    expect(o.value.points.reduce((a, p) => a + p.p, 0)).toBeCloseTo(1, 12);
  });

  it('checks a named roll before sending it, with the column of a mistake', () => {
    expect(tableRollError('way+5 adv2 vs 14')).toBeNull();
    const bad = tableRollError('way+5 adv2 vs');
    expect(bad).not.toBeNull();
    expect(bad!.position).toBeGreaterThan(5);
  });

  it('rolls one off a table: the 36th Way keeps three of five d6 with 2 Advantage', () => {
    const r = rollOf('way+5 adv2 vs 14');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.dice).toHaveLength(5);
    expect(r.value.dice.filter((d) => d.kept)).toHaveLength(3);
    expect(r.value.total).toBe(r.value.dice.filter((d) => d.kept).reduce((a, d) => a + d.value, 0) + 5);
    expect(typeof r.value.success).toBe('boolean');
  });
});
