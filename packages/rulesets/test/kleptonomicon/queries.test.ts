// kleptonomicon.testOdds through the engine: the exact pass chance (recomputed by
// hand on the d10-ish die), the table's fail mark, typed errors.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Json } from '@tablekeeper/engine';
import { ruleset } from '../../src/kleptonomicon/index.js';

const ask = (args: { [k: string]: Json }, settings: { [k: string]: Json } = {}) => {
  const s = scenario(ruleset.modules, { rng: seededRng(1), rulesetId: 'kleptonomicon', settings });
  return s.engine.query(s.table, { role: 'player', seatId: 'seat-1' }, 'kleptonomicon.testOdds', args);
};

describe('kleptonomicon.testOdds', () => {
  it('a plain Test passes on 7, 8, 9 or a critical 10: 7/20; Sneaky (two dice) fails only when both do: 1 - (13/20)^2', () => {
    expect(ask({})).toMatchObject({ ok: true, value: { pass: expect.closeTo(7 / 20, 12) as unknown as number, failAtOrBelow: 6 } });
    expect(ask({ advantage: 1 })).toMatchObject({ ok: true, value: { pass: expect.closeTo(1 - (13 / 20) ** 2, 12) as unknown as number } });
    expect(ask({ modifier: 7 })).toMatchObject({ ok: true, value: { pass: expect.closeTo(1, 12) as unknown as number } });
  });

  it('uses the table\'s fail mark (kleptonomicon.failAtOrBelow 8: only 9 and the critical 10 pass, 3/20)', () => {
    expect(ask({}, { 'kleptonomicon.failAtOrBelow': 8 })).toMatchObject({ ok: true, value: { pass: expect.closeTo(3 / 20, 12) as unknown as number, failAtOrBelow: 8 } });
  });

  it('refuses bad arguments with typed errors and a path', () => {
    expect(ask({ modifier: 1.5 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'modifier' } });
    expect(ask({ advantage: 11 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'advantage' } });
  });
});
