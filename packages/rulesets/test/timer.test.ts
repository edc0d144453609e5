// The turn timer (issue 20, ADR 29): off by default; the GM sets a time per
// turn; each turn start, in every ruleset's turn order, restarts the count from
// the server's clock (recorded in the event, so replay and every screen agree);
// pause and resume; a hidden combatant's turn shows players no running time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getEncounter, timeLeftMs, timerOf, type Table, type Viewer } from '@tablekeeper/engine';
import { rulesetIds } from '../src/registry.js';
import { GM, startThree, turnTable, type TurnTable } from './turn-table.js';

const ANN: Viewer = { role: 'player', seatId: 'nobody' };

const table = (rulesetId: string): TurnTable => turnTable(rulesetId, { name: 'Timer', seed: 9 });

/** Ann, Bo and a Goblin, then the first turn started. */
function start(t: TurnTable, rulesetId: string, hidden = false) {
  startThree(t, rulesetId, { id: 'g', name: 'Goblin', hidden });
  // Orders that ask who goes first: take the first offered.
  for (let i = 0; i < 5 && getEncounter(t.table.world).current === null; i++) {
    const p = getEncounter(t.table.world).pending;
    t.run(p !== null ? { type: 'encounter.choose', id: p.default ?? p.options[0]! } : { type: 'encounter.advance' });
  }
}

describe('turn timer', () => {
  it('is off by default: no time left is shown', () => {
    const t = table('osr');
    start(t, 'osr');
    expect(timeLeftMs(timerOf(t.table.world), t.now)).toBeNull();
  });

  for (const id of rulesetIds) {
    it(`${id}: 60 s per turn; 15 s later 45 s are left; the next turn starts a fresh 60 s from the server clock`, () => {
      const t = table(id);
      start(t, id);
      t.run({ type: 'timer.set', seconds: 60 });
      t.tick(15_000);
      expect(timeLeftMs(timerOf(t.table.world), t.now)).toBe(45_000);
      const serial = getEncounter(t.table.world).turnSerial;
      t.run({ type: 'encounter.endTurn' });
      for (let i = 0; i < 5 && getEncounter(t.table.world).current === null; i++) {
        const p = getEncounter(t.table.world).pending;
        t.run(p !== null ? { type: 'encounter.choose', id: p.default ?? p.options[0]! } : { type: 'encounter.advance' });
      }
      // A new turn (Daggerheart's spotlight may come back to the same hero).
      expect(getEncounter(t.table.world).turnSerial).toBeGreaterThan(serial);
      expect(timeLeftMs(timerOf(t.table.world), t.now)).toBe(60_000);
    });
  }

  it('pause and resume: 10 s used, paused for 30 s, 5 s more: 45 s of 60 left; over time goes negative', () => {
    const t = table('osr');
    start(t, 'osr');
    t.run({ type: 'timer.set', seconds: 60 });
    t.tick(10_000);
    t.run({ type: 'timer.pause' });
    t.tick(30_000);
    expect(timeLeftMs(timerOf(t.table.world), t.now)).toBe(50_000);
    t.run({ type: 'timer.resume' });
    t.tick(5_000);
    expect(timeLeftMs(timerOf(t.table.world), t.now)).toBe(45_000);
    t.tick(50_000);
    expect(timeLeftMs(timerOf(t.table.world), t.now)).toBe(-5_000);
    t.run({ type: 'timer.restart' });
    expect(timeLeftMs(timerOf(t.table.world), t.now)).toBe(60_000);
  });

  it('refusals name what to do: a time of 5 s, pausing when off, a player setting it', () => {
    const t = table('osr');
    start(t, 'osr');
    expect(t.try({ type: 'timer.set', seconds: 5 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'seconds', message: 'seconds: must be 0 (off) or from 10 to 3600' } });
    expect(t.try({ type: 'timer.pause' })).toMatchObject({ ok: false, error: { message: 'the turn timer is not running' } });
    expect(t.try({ type: 'timer.set', seconds: 60 }, ANN)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('the fight ending stops the count; undo of timer.set turns it off again', () => {
    const t = table('osr');
    start(t, 'osr');
    t.run({ type: 'timer.set', seconds: 30 });
    t.run({ type: 'history.undo' });
    expect(timerOf(t.table.world).seconds).toBe(0);
    t.run({ type: 'timer.set', seconds: 30 });
    t.run({ type: 'encounter.end' });
    expect(timeLeftMs(timerOf(t.table.world), t.now)).toBeNull();
  });

  it("a hidden foe's turn shows players no running time (the GM still sees it)", () => {
    const t = table('osr');
    start(t, 'osr', true);
    t.run({ type: 'timer.set', seconds: 30 });
    for (let i = 0; i < 6 && getEncounter(t.table.world).current !== 'g'; i++) t.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.table.world).current).toBe('g');
    expect(timeLeftMs(timerOf(t.engine.view(t.table, GM).world), t.now)).toBe(30_000);
    expect(timeLeftMs(timerOf(t.engine.view(t.table, { role: 'spectator' }).world), t.now)).toBeNull();
  });

  it('property: replay from the stored transactions rebuilds the same timer, whatever the GM did when', () => {
    const op = fc.record({ op: fc.constantFrom('set', 'pause', 'resume', 'restart', 'end', 'undo', 'start'), s: fc.nat({ max: 3600 }), wait: fc.nat({ max: 90_000 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const t = table('osr');
        start(t, 'osr');
        for (const o of ops) {
          t.tick(o.wait);
          if (o.op === 'set') t.try({ type: 'timer.set', seconds: o.s });
          else if (o.op === 'undo') t.try({ type: 'history.undo' });
          else if (o.op === 'end') t.try({ type: 'encounter.endTurn' });
          else if (o.op === 'start') t.try({ type: 'encounter.advance' });
          else t.try({ type: `timer.${o.op}` });
          const left = timeLeftMs(timerOf(t.table.world), t.now);
          const s = timerOf(t.table.world).seconds;
          // Never more than the whole turn time is left.
          if (left !== null) expect(left).toBeLessThanOrEqual(s * 1000);
        }
        const again = t.engine.replay(t.table.genesis, JSON.parse(JSON.stringify(t.table.transactions)) as Table['transactions']);
        expect(again.world.ext['timer'] ?? null).toEqual(t.table.world.ext['timer'] ?? null);
      }),
      { numRuns: 60 * Number(process.env['FC_RUNS_MULTIPLIER'] ?? 1) },
    );
  });
});
