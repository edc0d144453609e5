// Table rolls pay their dice's cost from the seat's and the table's budget
// (ADR 25), over real WebSockets against a real SQLite file: a player
// flooding heavy rolls is refused with RATE_LIMITED and a retry time, nothing
// refused reaches the table, a roll dearer than a whole budget is refused
// with the limit named, and another table keeps acknowledging meanwhile.
import { describe, expect, it } from 'vitest';
import { TABLE_ROLL_LIMITS, notationCost } from '@tablekeeper/engine';
import { Client, serversClosedAfterEach, setupTable } from './helpers.js';

const server = serversClosedAfterEach();
/** The socket's own message limit stays out of the way: these tests are about the cost budget. */
const OPEN_RATE = { capacity: 1000, refillPerSecond: 1000, closeAfter: 10_000 };
const HEAVY = '100d2!r1';
/** 45 units too, all of it compiling (one roller plan per side count 1-240): a roll of it uses its worst case, so nothing comes back. */
const COMPILED = 'd(1d240)';

type Answer = Awaited<ReturnType<Client['command']>>;
const rejected = (a: Answer) => (a.type === 'rejection' ? a.error : null);

describe('roll budget', () => {
  it('the cost of a heavy roll is what the engine computes: 45 units for 100d2!r1 under the table limits', () => {
    expect(notationCost(HEAVY, TABLE_ROLL_LIMITS).units).toBe(45);
    expect(notationCost(COMPILED, TABLE_ROLL_LIMITS).units).toBe(45);
  });

  it('a roll is charged its worst case first and gets back what it did not use: heavy rolls one after another all fit, three at once do not', async () => {
    // 100 units and one back per second. Without the refund the third 100d2!r1 in a row would find 10 left (45 charged each).
    const s = await server({ rateLimit: OPEN_RATE, queryBudget: { seatCapacity: 100, seatPerSecond: 1, tableCapacity: 10_000, tablePerSecond: 10_000 } });
    const t = await setupTable(s.url, 1);
    const player = await Client.open(s.url, t.seats[0]!.token);
    // Sent together, each is charged its whole worst case on arrival, before any is rolled: two fit in 100, the third is refused.
    const v = player.version;
    const answers = await Promise.all([0, 1, 2].map((i) => player.command({ type: 'dice.roll', notation: HEAVY }, { expectedVersion: v + i })));
    const refusals = answers.map(rejected).filter((r) => r !== null);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.kind).toBe('RATE_LIMITED');
    expect(Number(/^this roll may cost up to 45 units and your seat has (\d+) of 100 left/.exec(refusals[0]!.message)?.[1])).toBeLessThan(45);
    await player.reach(v + 2);
    // Once rolled, each gives back what its dice did not use (a few units used of 45): six more in a row all fit.
    for (let i = 0; i < 6; i++) {
      const a = await player.command({ type: 'dice.roll', notation: HEAVY });
      expect(a.type).toBe('ack');
      if (a.type === 'ack') await player.reach(a.version);
    }
    expect(player.view!.world.log.filter((e) => e.kind === 'dice.rolled')).toHaveLength(8);
    await player.close();
  });

  it('a flood of heavy rolls is refused once the seat budget is spent, nothing refused is applied, the refusal says when to retry, and another table keeps playing', async () => {
    // 100 units and one back per second: two heavy rolls (90) fit, the third finds 10 left.
    const s = await server({ rateLimit: OPEN_RATE, queryBudget: { seatCapacity: 100, seatPerSecond: 1, tableCapacity: 10_000, tablePerSecond: 10_000 } });
    const flooded = await setupTable(s.url, 1);
    const other = await setupTable(s.url, 1);
    const [player, gm, otherPlayer] = await Promise.all([Client.open(s.url, flooded.seats[0]!.token), Client.open(s.url, flooded.gm), Client.open(s.url, other.seats[0]!.token)]);
    const before = gm.version;
    // Each command is decided against the version its sender holds, so each waits for the last one's delta.
    const loop = async (c: Client, notation: string, n: number): Promise<Answer[]> => {
      const out: Answer[] = [];
      for (let i = 0; i < n; i++) {
        const a = await c.command({ type: 'dice.roll', notation });
        if (a.type === 'ack') await c.reach(a.version);
        out.push(a);
      }
      return out;
    };
    // The other table rolls while the flood is being refused.
    const [answers, elsewhere] = await Promise.all([loop(player, COMPILED, 12), loop(otherPlayer, '1d20+5', 4)]);
    expect(answers.slice(0, 2).map((a) => a.type)).toEqual(['ack', 'ack']);
    const refusals = answers.slice(2).map(rejected);
    for (const r of refusals) {
      expect(r).toMatchObject({ kind: 'RATE_LIMITED' });
      expect(r!.kind === 'RATE_LIMITED' && r!.retryAfterMs).toBeGreaterThan(0);
      expect(r!.message).toMatch(/^this roll may cost up to 45 units and your seat has \d+ of 100 left \(1 come back each second\); retry in \d+ ms$/);
    }
    expect(elsewhere.every((a) => a.type === 'ack')).toBe(true);
    // Only the two paid rolls reached the table: two versions, two rolls in the log.
    await gm.reach(before + 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(gm.version).toBe(before + 2);
    expect(gm.view!.world.log.filter((e) => e.kind === 'dice.rolled')).toHaveLength(2);
    // The GM's seat has a budget of its own; a cheap roll is still acknowledged.
    expect((await gm.command({ type: 'dice.roll', notation: '2d6' })).type).toBe('ack');
    await Promise.all([player.close(), gm.close(), otherPlayer.close()]);
  });

  it('after the wait the seat may roll again (the budget refills over time)', async () => {
    const s = await server({ rateLimit: OPEN_RATE, queryBudget: { seatCapacity: 50, seatPerSecond: 50, tableCapacity: 10_000, tablePerSecond: 10_000 } });
    const t = await setupTable(s.url, 1);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const first = await player.command({ type: 'dice.roll', notation: COMPILED });
    expect(first.type).toBe('ack');
    if (first.type === 'ack') await player.reach(first.version);
    const refusal = rejected(await player.command({ type: 'dice.roll', notation: COMPILED }));
    expect(refusal?.kind).toBe('RATE_LIMITED');
    await new Promise((r) => setTimeout(r, (refusal!.kind === 'RATE_LIMITED' ? refusal!.retryAfterMs : 0) + 50));
    expect((await player.command({ type: 'dice.roll', notation: COMPILED })).type).toBe('ack');
    await player.close();
  });

  it('a roll dearer than a whole seat budget is refused with the limit named, at the notation, and changes nothing', async () => {
    const s = await server({ rateLimit: OPEN_RATE });
    const t = await setupTable(s.url, 1);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const before = player.version;
    // One roller plan per side count 1..1000: about half a second of compiling (727 units against 400).
    const answer = await player.command({ type: 'dice.roll', notation: 'd(1d1000)' });
    expect(rejected(answer)).toEqual({
      kind: 'RULE_ERROR',
      code: 'LIMIT_EXCEEDED',
      path: 'notation',
      message: 'this roll may cost up to 727 units of server work, over the rollCost limit (your seat holds at most 400); roll fewer dice, fewer explosions or fewer possible sides',
    });
    // Nothing was spent: an ordinary roll goes through, and only it reached the table.
    expect((await player.command({ type: 'dice.roll', notation: '1d20' })).type).toBe('ack');
    await player.reach(before + 1);
    expect(player.version).toBe(before + 1);
    await player.close();
  });

  it('bad notation costs the base unit and is refused by the engine as before', async () => {
    const s = await server({ rateLimit: OPEN_RATE });
    const t = await setupTable(s.url, 1);
    const player = await Client.open(s.url, t.seats[0]!.token);
    expect(rejected(await player.command({ type: 'dice.roll', notation: '3d6 +' }))).toMatchObject({ kind: 'RULE_ERROR', code: 'BAD_NOTATION', path: 'notation' });
    await player.close();
  });
});
