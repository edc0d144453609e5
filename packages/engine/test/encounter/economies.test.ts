// The four action economies as data: every payer names a real pool, and no
// sequence of spends and resets ever overdraws a pool.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applySpend, BANDS_ECONOMY, BEATS_ECONOMY, grant, OSR_ECONOMY, planSpend, remaining, resetEconomy, TEAMS_ACTIONS, TEAMS_ECONOMY, teamsActionRequest } from '../../src/encounter/economies.js';
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

  it('a spent economy says so in plain English: "an action", "an active action", "a standard action"', () => {
    const spentAll = (def: typeof OSR_ECONOMY, kinds: readonly string[]) => kinds.reduce<EconomyState>((st, k) => {
      const p = planSpend(def, st, { kind: k, cost: 1, onTurn: true });
      return p.ok ? applySpend(st, p.value, { cost: 1 }) : st;
    }, EMPTY_ECONOMY);
    const osr = spentAll(OSR_ECONOMY, ['active', 'movement', 'quick', 'active', 'active']);
    expect(planSpend(OSR_ECONOMY, osr, { kind: 'active', cost: 1, onTurn: true })).toMatchObject({ ok: false, error: { code: 'NO_ACTIONS_LEFT', message: 'nothing left to pay for an active action on this turn' } });
    const teams = spentAll(TEAMS_ECONOMY, ['action', 'action', 'action', 'action']);
    expect(planSpend(TEAMS_ECONOMY, teams, { kind: 'action', cost: 1, onTurn: true })).toMatchObject({ ok: false, error: { message: 'nothing left to pay for an action on this turn' } });
  });

  it('rejects unknown kinds and silly costs with typed errors', () => {
    expect(planSpend(TEAMS_ECONOMY, EMPTY_ECONOMY, { kind: 'dance', cost: 1, onTurn: true })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ACTION' } });
    expect(planSpend(TEAMS_ECONOMY, EMPTY_ECONOMY, { kind: 'action', cost: 0, onTurn: true })).toMatchObject({ ok: false, error: { code: 'BAD_COST' } });
    expect(planSpend(TEAMS_ECONOMY, EMPTY_ECONOMY, { kind: 'action', cost: 1e9, onTurn: true })).toMatchObject({ ok: false, error: { code: 'BAD_COST' } });
  });

  // Found by parse-once.test.ts's random payloads: "constructor" read Object's own constructor as a list of payers and threw.
  it('a kind named like an inherited property is an unknown kind, not a crash', () => {
    for (const def of [OSR_ECONOMY, TEAMS_ECONOMY, BEATS_ECONOMY, BANDS_ECONOMY]) {
      for (const kind of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
        expect(planSpend(def, EMPTY_ECONOMY, { kind, cost: 1, onTurn: true }), `${def.id} ${kind}`).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ACTION', path: 'kind' } });
      }
    }
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

describe('003 action tables as data (TEAMS_ACTIONS)', () => {
  const spend = (st: EconomyState, name: string, onTurn = true, target?: string): { ok: boolean; st: EconomyState; code?: string } => {
    const req = teamsActionRequest(name, onTurn, target);
    if (req === null) throw new Error(`no row ${name}`);
    const p = planSpend(TEAMS_ECONOMY, st, req);
    return p.ok ? { ok: true, st: applySpend(st, p.value, req) } : { ok: false, st, code: p.error.code };
  };

  it('has one row per table row: 13 actions, 6 reactions, 3 free actions', () => {
    expect(TEAMS_ACTIONS.filter((r) => r.kind === 'action')).toHaveLength(13);
    expect(TEAMS_ACTIONS.filter((r) => r.kind === 'reaction')).toHaveLength(6);
    expect(TEAMS_ACTIONS.filter((r) => r.kind === 'free')).toHaveLength(3);
    expect(teamsActionRequest('Juggle', true)).toBeNull();
  });

  it('costs: Resuscitate two actions, Short Task three, the rest one', () => {
    for (const row of TEAMS_ACTIONS) {
      const r = spend(EMPTY_ECONOMY, row.name, true);
      expect(r.ok, row.name).toBe(row.name !== 'Sprint'); // Sprint needs a Move first
      if (row.kind === 'action' && r.ok) expect(r.st.spent['actions'], row.name).toBe(row.name === 'Resuscitate' ? 2 : row.name === 'Short Task' ? 3 : 1);
      if (row.kind === 'free' && r.ok) expect(r.st.spent['actions'] ?? 0, row.name).toBe(0);
    }
  });

  it('Move once per turn; Step replaces it; Sprint only after moving; Command once per target', () => {
    let r = spend(EMPTY_ECONOMY, 'Move');
    expect(spend(r.st, 'Move').code).toBe('LIMIT_REACHED');
    expect(spend(r.st, 'Step').code).toBe('LIMIT_REACHED');
    r = spend(r.st, 'Sprint');
    expect(r.ok).toBe(true);
    expect(spend(EMPTY_ECONOMY, 'Sprint').code).toBe('REQUIREMENT');
    let c = spend(EMPTY_ECONOMY, 'Command', true, 'ally1');
    expect(spend(c.st, 'Command', true, 'ally1').code).toBe('LIMIT_REACHED');
    c = spend(c.st, 'Command', true, 'ally2');
    expect(c.ok).toBe(true);
    // A new turn clears the once-per-turn tags.
    expect(spend(resetEconomy(TEAMS_ECONOMY, c.st, 'turnStart'), 'Command', true, 'ally1').ok).toBe(true);
  });

  it('Guard, Ready an Action and Wait end the turn; Wait grants a reaction', () => {
    expect(TEAMS_ACTIONS.filter((r) => r.endsTurn === true).map((r) => r.name)).toEqual(['Guard', 'Ready an Action', 'Wait']);
    expect(TEAMS_ACTIONS.find((r) => r.name === 'Wait')?.grants).toEqual({ pool: 'reaction', n: 1 });
  });
});
