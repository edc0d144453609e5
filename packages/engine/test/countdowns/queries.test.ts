// countdown.odds, the module query: the same exact odds as the odds API, on
// the asker's own view (no odds from values the GM keeps secret).
import { describe, expect, it } from 'vitest';
import { getCountdowns } from '../../src/countdowns/module.js';
import { chaseOdds, countdownOdds, triggerWithin } from '../../src/odds/countdown-odds.js';
import { GM, PLAYER, createdId, table } from './fixtures.js';

describe('countdown.odds', () => {
  it('the market chase (000 "Example Chase"): d6s at 6 and 4, an action roll of +2 against 15', () => {
    const s = table();
    const chaseId = createdId(s.run({ type: 'chase.create', name: 'The stolen spellbook', die: 6, lead: 4, pcs: 'pursuing' }));
    const chase = getCountdowns(s.world).chases[chaseId]!;
    const r = s.engine.query(s.table, PLAYER, 'countdown.odds', { id: chase.consequenceId, modifier: 2, difficulty: 15 });
    const exact = chaseOdds({ progress: 6, consequence: 4 }, { modifier: 2, difficulty: 15, advantage: 0 });
    if (!r.ok || !exact.ok) throw new Error('no odds');
    expect(r.value).toMatchObject({ kind: 'chase', progress: 6, consequence: 4 });
    const v = r.value as { progressFirst: number; consequenceFirst: number; sameRoll: number; expectedRolls: number };
    expect(v.progressFirst).toBeCloseTo(exact.value.progressFirst, 12);
    expect(v.consequenceFirst).toBeCloseTo(exact.value.consequenceFirst, 12);
    expect(v.sameRoll).toBeCloseTo(exact.value.sameRoll, 12);
    // The figures docs/countdowns.md quotes (recomputed by worked-examples.test.ts from the 144 die pairs).
    expect(v.progressFirst).toBeCloseTo(0.3298, 4);
    expect(v.consequenceFirst).toBeCloseTo(0.6418, 4);
    expect(v.sameRoll).toBeCloseTo(0.0284, 4);
    expect(v.expectedRolls).toBeCloseTo(3.94, 2);
  });

  it('a lone progress countdown: its chance to trigger within 1..10 rolls', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Break the wall', kind: 'progress', start: 5 }));
    const r = s.engine.query(s.table, GM, 'countdown.odds', { id, modifier: 1, difficulty: 13 });
    const exact = countdownOdds({ value: 5, advance: 'progress' }, { modifier: 1, difficulty: 13, advantage: 0 });
    if (!r.ok || !exact.ok) throw new Error('no odds');
    const v = r.value as { within: number[]; pTrigger: number };
    expect(v.within).toHaveLength(10);
    expect(v.within[2]).toBeCloseTo(triggerWithin(exact.value, 3), 12);
    expect(v.pTrigger).toBe(1);
  });

  it('never answers from values the viewer may not see; typed errors for bad arguments', () => {
    const s = table();
    const shown = createdId(s.run({ type: 'countdown.create', name: 'Rumours', kind: 'consequence', start: 4, visibility: 'existence' }));
    const secret = createdId(s.run({ type: 'countdown.create', name: 'CANARY-plot', kind: 'consequence', start: 3, visibility: 'hidden' }));
    expect(s.engine.query(s.table, PLAYER, 'countdown.odds', { id: shown })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
    const hidden = s.engine.query(s.table, PLAYER, 'countdown.odds', { id: secret });
    expect(hidden).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(s.engine.query(s.table, GM, 'countdown.odds', { id: secret }).ok).toBe(true);
    expect(s.engine.query(s.table, GM, 'countdown.odds', { id: shown, difficulty: 0 })).toMatchObject({ ok: false, error: { path: 'difficulty' } });
    expect(s.engine.query(s.table, GM, 'countdown.odds', {})).toMatchObject({ ok: false, error: { path: 'countdownId', message: 'countdownId: is required' } });
  });
});
