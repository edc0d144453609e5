// Queries have a cost budget per seat and per table, and run in a worker
// pool with a time cap, over real WebSockets against a real SQLite file: a
// player looping expensive odds is refused with RATE_LIMITED and a retry
// time while others keep asking, and a query that runs long neither delays
// another table's commands nor outlives its cap.
import { describe, expect, it } from 'vitest';
import type { QueryResult } from '@tablekeeper/protocol';
import { Client, http, serversClosedAfterEach } from './helpers.js';
import { SPIN_RULESET, spinCatalog } from './fixtures/spin-catalog.js';

const server = serversClosedAfterEach();

async function table(url: string, seats: number) {
  const t = await http<{ tableId: string; gmToken: string }>(url, 'POST', '/api/tables', { name: 'Odds night', rulesetId: SPIN_RULESET });
  const out: string[] = [];
  for (let i = 0; i < seats; i++) out.push((await http<{ token: string }>(url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: `P${i + 1}` }, t.body.gmToken)).body.token);
  return { tableId: t.body.tableId, gm: t.body.gmToken, seats: out };
}

let q = 0;
async function ask(c: Client, name: string, args: Record<string, unknown>, waitMs = 20_000): Promise<QueryResult> {
  const queryId = `q${++q}`;
  const answer = c.next((m) => m.type === 'queryResult' && m.queryId === queryId, waitMs);
  c.sendRaw(JSON.stringify({ type: 'query', queryId, name, args }));
  return (await answer) as QueryResult;
}

describe('query budget', () => {
  it('a seat looping odds queries is refused with RATE_LIMITED and a retry time; another seat is still answered; after the wait it is answered again', async () => {
    // A slow refill (5 units a second), and the six asked at once: on a loaded machine a round trip
    // can take a second, and one at a time the budget would refill between them and never refuse.
    const s = await server({ catalog: spinCatalog(false), queryBudget: { seatCapacity: 60, seatPerSecond: 5, tableCapacity: 10_000, tablePerSecond: 10_000 } });
    const t = await table(s.url, 2);
    const [p1, p2] = await Promise.all([Client.open(s.url, t.seats[0]!), Client.open(s.url, t.seats[1]!)]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(p1, 'spin.odds', { ms: 30 })));
    // Each one works at least 30 ms, and once answered costs that (ADR 86): a budget of 60, plus under a unit
    // of refill while six run, is spent by the second and overdrawn by the third at the most; the first always fits.
    const accepted = answers.filter((a) => a.ok).length;
    expect(answers[0]!.ok).toBe(true);
    expect(accepted).toBeLessThanOrEqual(3);
    expect(answers.slice(0, accepted).every((a) => a.ok)).toBe(true);
    const refused = answers.find((a) => !a.ok)!;
    expect(refused.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.error!.retryAfterMs).toBeGreaterThan(0);
    expect(refused.error!.message).toMatch(/^your queries used up their budget; retry in \d+ ms$/);
    expect((await ask(p2, 'spin.odds', { ms: 0 })).ok).toBe(true);
    await new Promise((r) => setTimeout(r, refused.error!.retryAfterMs! + 50));
    expect((await ask(p1, 'spin.odds', { ms: 0 })).ok).toBe(true);
    await Promise.all([p1.close(), p2.close()]);
  });

  it('a quick odds query costs the work it took, not its up-front 20: many in a row fit a budget that holds only three up front (ADR 86)', async () => {
    const s = await server({ catalog: spinCatalog(false), queryBudget: { seatCapacity: 60, seatPerSecond: 0.001, tableCapacity: 10_000, tablePerSecond: 10_000 } });
    const t = await table(s.url, 1);
    const p1 = await Client.open(s.url, t.seats[0]!);
    // One at a time, each answered (about 0 ms of work, so the cheapest query's 2 units) before the next is asked.
    for (let i = 0; i < 10; i++) expect((await ask(p1, 'spin.odds', { ms: 0 })).ok).toBe(true);
    await p1.close();
  });

  it('the time a query really took is charged too, and a table has its own budget across its seats', async () => {
    const s = await server({ catalog: spinCatalog(false), queryBudget: { seatCapacity: 1000, seatPerSecond: 1, tableCapacity: 150, tablePerSecond: 1 } });
    const t = await table(s.url, 2);
    const [p1, p2] = await Promise.all([Client.open(s.url, t.seats[0]!), Client.open(s.url, t.seats[1]!)]);
    // 200 ms of work against a table budget of 150: answered (paid for afterwards), then the table is out.
    expect((await ask(p1, 'spin.odds', { ms: 200 })).ok).toBe(true);
    const other = await ask(p2, 'spin.odds', { ms: 0 });
    expect(other.ok).toBe(false);
    expect(other.error!.message).toMatch(/^this table's queries used up their budget/);
    await Promise.all([p1.close(), p2.close()]);
  });
});

describe('query worker pool', () => {
  it('a long query runs off the event loop: another table acknowledges commands meanwhile, and the query is stopped at its time cap', async () => {
    // The cap leaves the other table time to be answered first even on a loaded machine.
    const s = await server({ catalog: spinCatalog(true), queryTimeCapMs: 4000, queryBudget: { seatCapacity: 1e6, seatPerSecond: 1e6, tableCapacity: 1e6, tablePerSecond: 1e6 } });
    const slow = await table(s.url, 1);
    const busy = await table(s.url, 0);
    const player = await Client.open(s.url, slow.seats[0]!);
    const gm = await Client.open(s.url, busy.gm);
    // Warm the worker up (it loads the catalog once, through tsx: 40 s at load 35 on 2 cores).
    expect((await ask(player, 'spin.odds', { ms: 1 }, 100_000)).ok).toBe(true);
    let answered = false;
    const long = ask(player, 'spin.odds', { ms: 10_000 }).finally(() => (answered = true));
    let ackedWhileRunning = 0;
    for (let i = 0; i < 5; i++) {
      const ack = await gm.command({ type: 'clock.advance', unit: 'round' }, { expectedVersion: gm.version });
      expect(ack.type).toBe('ack');
      await gm.reach((ack as { version: number }).version);
      if (!answered) ackedWhileRunning++;
    }
    expect(ackedWhileRunning).toBeGreaterThan(0);
    const capped = await long;
    expect(capped.ok).toBe(false);
    expect(capped.error).toMatchObject({ code: 'LIMIT_EXCEEDED', message: 'the query ran longer than 4000 ms and was stopped' });
    // A fresh worker took its place (booting again).
    expect((await ask(player, 'spin.odds', { ms: 1 }, 100_000)).ok).toBe(true);
    await Promise.all([player.close(), gm.close()]);
    // Two workers boot here (each loads the catalog through tsx): about 20 s on a loaded 2-core machine, 80 s at load 35.
  }, 300_000);
});
