// The four action economies as data: every payer names a real pool, and no
// sequence of spends and resets ever overdraws a pool.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applySpend, BANDS_ECONOMY, BEATS_ECONOMY, grant, OSR_ECONOMY, planSpend, remaining, resetEconomy, TEAMS_ECONOMY } from '../../src/encounter/economies.js';
import { EMPTY_ECONOMY } from '../../src/encounter/state.js';
import type { EconomyState } from '../../src/encounter/types.js';

const ALL = [OSR_ECONOMY, BANDS_ECONOMY, TEAMS_ECONOMY, BEATS_ECONOMY];

describe('economy definitions', () => {
  it('every payer refers to a pool of the same economy', () => {
    for (const def of ALL) for (const [kind, pools] of Object.entries(def.payers)) for (const p of pools) expect(def.pools[p], `${def.id}.${kind} -> ${p}`).toBeDefined();
  });

  it('trade-downs run one way only: a quick action never pays for an active one (001)', () => {
    let st: EconomyState = EMPTY_ECONOMY;
    const spend = (kind: string) => {
      const p = planSpend(OSR_ECONOMY, st, { kind, cost: 1, onTurn: true });
      if (p.ok) st = applySpend(st, p.value, { cost: 1 });
      return p.ok;
    };
    expect(spend('active')).toBe(true);
    expect(spend('active')).toBe(false);
    expect(spend('movement')).toBe(true);
    expect(spend('movement')).toBe(false);
    expect(spend('quick')).toBe(true);
    expect(spend('quick')).toBe(false);
  });

  it('rejects unknown kinds and silly costs with typed errors', () => {
    expect(planSpend(TEAMS_ECONOMY, EMPTY_ECONOMY, { kind: 'dance', cost: 1, onTurn: true })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ACTION' } });
    expect(planSpend(TEAMS_ECONOMY, EMPTY_ECONOMY, { kind: 'action', cost: 0, onTurn: true })).toMatchObject({ ok: false, error: { code: 'BAD_COST' } });
    expect(planSpend(TEAMS_ECONOMY, EMPTY_ECONOMY, { kind: 'action', cost: 1e9, onTurn: true })).toMatchObject({ ok: false, error: { code: 'BAD_COST' } });
  });

  it('property: no sequence of spends, grants and resets overdraws a pool', () => {
    const arbStep = fc.oneof(
      fc.record({ t: fc.constant('spend' as const), kind: fc.string({ minLength: 1, maxLength: 10 }).map((s) => s), pick: fc.nat(10), cost: fc.integer({ min: 1, max: 4 }), onTurn: fc.boolean(), label: fc.option(fc.constantFrom('reload', 'task'), { nil: undefined }) }),
      fc.record({ t: fc.constant('reset' as const), at: fc.constantFrom('turnStart' as const, 'turnEnd' as const, 'roundStart' as const) }),
      fc.record({ t: fc.constant('grant' as const), pick: fc.nat(10) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...ALL), fc.array(arbStep, { maxLength: 40 }), (def, steps) => {
        let st: EconomyState = EMPTY_ECONOMY;
        const kinds = Object.keys(def.payers);
        const pools = Object.keys(def.pools);
        for (const s of steps) {
          if (s.t === 'reset') st = resetEconomy(def, st, s.at);
          else if (s.t === 'grant') st = grant(st, pools[s.pick % pools.length]!, 1);
          else {
            const kind = kinds[s.pick % kinds.length]!;
            const req = { kind, cost: s.cost, onTurn: s.onTurn, ...(s.label !== undefined ? { label: s.label } : {}) };
            const p = planSpend(def, st, req);
            if (p.ok) st = applySpend(st, p.value, { cost: s.cost });
          }
          for (const pool of pools) expect(remaining(def, st, pool)).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
