// Queries spend only their own budgets (ADR 86), over a real WebSocket against a
// real SQLite file: a burst of queries past the query budget is refused in the
// query budget's words, and a command sent right after is accepted even when
// the socket's message budget is tiny; a flood of query frames past the
// socket's query frame limit is refused in its own words and then closed.
import { describe, expect, it } from 'vitest';
import { CLOSE, type QueryResult } from '@tablekeeper/protocol';
import { coreModule, countdownsModule } from '@tablekeeper/engine';
import { DEFAULT_QUERY_BUDGET, MIN_QUERY_COST, queryFrameLimit } from '../src/query-budget.js';
import { DEFAULT_RATE_LIMIT } from '../src/ratelimit.js';
import { Client, http, serversClosedAfterEach, setupTable, testCatalog } from './helpers.js';
import { SPIN_RULESET, spinCatalog } from './fixtures/spin-catalog.js';

const server = serversClosedAfterEach();

/** Sends `n` chase-odds queries at once (no waiting between them) and resolves with their answers, in order. */
async function burst(c: Client, prefix: string, n: number, countdownId: string): Promise<QueryResult[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const answers = ids.map((queryId) => c.next((m) => m.type === 'queryResult' && m.queryId === queryId));
  for (const queryId of ids) c.sendRaw(JSON.stringify({ type: 'query', queryId, name: 'countdown.odds', args: { countdownId, modifier: 2, difficulty: 15 } }));
  return (await Promise.all(answers)) as QueryResult[];
}

async function chaseTable(url: string) {
  const t = await setupTable(url, 0);
  const gm = await Client.open(url, t.gm);
  expect((await gm.command({ type: 'chase.create', name: 'Market', die: 6, lead: 4 })).type).toBe('ack');
  const chases = (gm.view!.world.ext['countdowns'] as { chases: { [k: string]: { progressId: string } } }).chases;
  return { gm, progressId: Object.values(chases)[0]!.progressId };
}

describe('queries have their own budget (ADR 86)', () => {
  it('a burst of queries past the query budget is refused in its own words, and a command sent right after is accepted though the message budget is 3', async () => {
    // 3 messages at once and no refill: before ADR 86 the queries spent them and the command came back RATE_LIMITED.
    const s = await server({
      catalog: spinCatalog(false),
      rateLimit: { capacity: 3, refillPerSecond: 0.001, closeAfter: 100 },
      queryBudget: { seatCapacity: 60, seatPerSecond: 0.001, tableCapacity: 10_000, tablePerSecond: 10_000 },
    });
    const made = await http<{ gmToken: string }>(s.url, 'POST', '/api/tables', { name: 'Odds night', rulesetId: SPIN_RULESET });
    const gm = await Client.open(s.url, made.body.gmToken);
    const n = 12;
    const ids = Array.from({ length: n }, (_, i) => `b${i}`);
    const asked = ids.map((queryId) => gm.next((m) => m.type === 'queryResult' && m.queryId === queryId));
    // Each works 30 ms, so costs at least 30 once answered: a budget of 60 holds at most three (the third overdraws it).
    for (const queryId of ids) gm.sendRaw(JSON.stringify({ type: 'query', queryId, name: 'spin.odds', args: { ms: 30 } }));
    const answers = (await Promise.all(asked)) as QueryResult[];
    expect(answers[0]!.ok).toBe(true);
    const refused = answers.filter((a) => !a.ok);
    expect(refused.length).toBeGreaterThanOrEqual(n - 3);
    for (const a of refused) {
      expect(a.error).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: expect.any(Number) });
      expect(a.error!.message).toMatch(/^your queries used up their budget; retry in \d+ ms$/);
    }
    const ack = await gm.command({ type: 'clock.advance', unit: 'round' });
    expect(ack).toMatchObject({ type: 'ack' });
    // Nothing this socket received was the message budget's refusal.
    expect(gm.frames.some((f) => f.includes('messages per second'))).toBe(false);
    await gm.close();
  });

  it("a flood of query frames past the socket's query frame limit is refused in the query's words, commands still pass, and a socket that keeps flooding is closed (4429)", async () => {
    const s = await server({
      catalog: testCatalog([coreModule, countdownsModule]),
      queryRate: { capacity: 5, refillPerSecond: 0.001, closeAfter: 10 },
      queryBudget: { seatCapacity: 1e6, seatPerSecond: 1e6, tableCapacity: 1e6, tablePerSecond: 1e6 },
    });
    const { gm, progressId } = await chaseTable(s.url);
    const first = await burst(gm, 'f', 8, progressId);
    expect(first.slice(0, 5).every((a) => a.ok)).toBe(true);
    for (const a of first.slice(5)) expect(a.error).toMatchObject({ code: 'RATE_LIMITED', message: 'more than 0.001 queries per second; this one was not asked' });
    expect(await gm.command({ type: 'clock.advance', unit: 'round' })).toMatchObject({ type: 'ack' });
    // Three refused so far; eight more refusals in a row pass the debt of ten.
    for (let i = 0; i < 8; i++) gm.sendRaw(JSON.stringify({ type: 'query', queryId: `g${i}`, name: 'countdown.odds', args: { countdownId: progressId } }));
    expect(await gm.waitClose()).toEqual({ code: CLOSE.rateLimited, reason: 'too many queries; slow down and reconnect' });
  });

  it("by default a seat's query budget refuses before the socket's query frame limit does", () => {
    const frames = queryFrameLimit(DEFAULT_QUERY_BUDGET);
    // The most queries the budget ever accepts at once, and per second, are those of the cheapest one.
    expect(frames.capacity).toBeGreaterThan(DEFAULT_QUERY_BUDGET.seatCapacity / MIN_QUERY_COST);
    expect(frames.refillPerSecond).toBeGreaterThan(DEFAULT_QUERY_BUDGET.seatPerSecond / MIN_QUERY_COST);
    // And the frame limit is its own: the message budget commands spend is untouched by it.
    expect(frames).not.toEqual(DEFAULT_RATE_LIMIT);
  });
});
