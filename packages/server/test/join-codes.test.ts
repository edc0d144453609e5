// Short join codes (issue 20, ADR 44) over real HTTP against a real SQLite
// file: a seat's code, typed on a phone, gives back that seat's link once;
// codes die with the seat's links, are replaced by a new one, slow down a
// guessing address like unknown tokens, and answer alike for every code that
// does not work (no oracle on other tables). The code book's own rules
// (alphabet, reading what was typed, expiry, capacity) are unit-tested below.
import { describe, expect, it } from 'vitest';
import { hashJoinCode, JOIN_CODE_ALPHABET, JoinCodes, mintJoinCode, readJoinCode, showJoinCode } from '../src/join-codes.js';
import { asyncStore, memoryStore } from '../src/index.js';
import { Client, http, joinFrom, serversClosedAfterEach, setupTable } from './helpers.js';

const server = serversClosedAfterEach();
type Seat = { seatId: string; token: string; link: string; code: string; codeExpiresAt: number };
type Err = { error: { kind: string; message: string; retryAfterMs?: number } };

async function tableWithSeat(base: string, name = 'Kira'): Promise<{ tableId: string; gm: string; seat: Seat }> {
  const t = await setupTable(base, 0);
  const s = await http<Seat>(base, 'POST', `/api/tables/${t.tableId}/seats`, { name }, t.gm);
  expect(s.status).toBe(201);
  return { tableId: t.tableId, gm: t.gm, seat: s.body };
}

describe('join codes over HTTP', () => {
  it('a new seat comes with an 8-character code; typed (any case, with a dash) it gives that seat a working link, once', async () => {
    const s = await server();
    const { seat } = await tableWithSeat(s.url);
    expect(seat.code).toMatch(new RegExp(`^[${JOIN_CODE_ALPHABET}]{8}$`));
    expect(seat.codeExpiresAt).toBeGreaterThan(Date.now());
    const typed = showJoinCode(seat.code).toLowerCase();
    const j = await http<{ token: string; link: string }>(s.url, 'POST', '/api/join', { code: ` ${typed} ` });
    expect(j.status).toBe(200);
    expect(j.body.link).toBe(`${s.url}/#seat=${j.body.token}`);
    expect(j.body.token).not.toBe(seat.token);
    // The token is the seat's: its socket sees the table as that player.
    const c = await Client.open(s.url, j.body.token);
    expect(c.messages.find((m) => m.type === 'welcome')).toMatchObject({ viewer: { role: 'player', seatId: seat.seatId } });
    c.ws.close();
    // Single use.
    const again = await http<Err>(s.url, 'POST', '/api/join', { code: seat.code });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('no seat has this code: it may be mistyped, used already or expired; ask the GM for a new one');
  });

  it('what cannot be a code is refused with what is wrong, before any lookup', async () => {
    const s = await server();
    const bad = await http<Err>(s.url, 'POST', '/api/join', { code: 'AB0D-EFGH' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('a join code has no "0": it uses capital letters and the digits 2-9 (never 0, O, 1 or I)');
    const short = await http<Err>(s.url, 'POST', '/api/join', { code: 'ABC' });
    expect(short.body.error.message).toBe('a join code has 8 letters and digits (you typed 3)');
    expect((await http<Err>(s.url, 'POST', '/api/join', { code: 'x'.repeat(41) })).status).toBe(400);
    expect((await http<Err>(s.url, 'POST', '/api/join', { token: 'ABCDEFGH' })).status).toBe(400);
  });

  it('a code dies with its seat\'s links (revoked, or a new link), and a new code replaces the old one', async () => {
    const s = await server();
    const { tableId, gm, seat } = await tableWithSeat(s.url);
    // Only the table's GM hands out codes.
    expect((await http(s.url, 'POST', `/api/tables/${tableId}/seats/${seat.seatId}/code`, undefined, seat.token)).status).toBe(403);
    expect((await http(s.url, 'POST', `/api/tables/${tableId}/seats/no-such-seat/code`, undefined, gm)).status).toBe(404);
    const fresh = await http<{ code: string; seatId: string; expiresAt: number }>(s.url, 'POST', `/api/tables/${tableId}/seats/${seat.seatId}/code`, undefined, gm);
    expect(fresh.status).toBe(201);
    expect(fresh.body.code).not.toBe(seat.code);
    expect((await http(s.url, 'POST', '/api/join', { code: seat.code })).status).toBe(404);
    // A new link for the seat (a lost phone): the code handed out with the old link stops working, the new one works.
    const rotated = await http<Seat>(s.url, 'POST', `/api/tables/${tableId}/seats/${seat.seatId}/token`, undefined, gm);
    expect((await http(s.url, 'POST', '/api/join', { code: fresh.body.code })).status).toBe(404);
    const again = await http<Seat>(s.url, 'POST', `/api/tables/${tableId}/seats/${seat.seatId}/code`, undefined, gm);
    expect((await http(s.url, 'DELETE', `/api/tables/${tableId}/seats/${seat.seatId}`, undefined, gm)).status).toBe(200);
    expect((await http(s.url, 'POST', '/api/join', { code: again.body.code })).status).toBe(404);
    expect(rotated.body.code).toMatch(/^[A-Z2-9]{8}$/);
  });

  it("the GM's seat list says when a seat's code was used by a phone (ADR 57), and a new code is live again", async () => {
    const s = await server();
    const { tableId, gm, seat } = await tableWithSeat(s.url);
    type Seats = { seats: { seatId: string; online: boolean; code?: { state: string; expiresAt?: number; usedAt?: number } }[] };
    const codeOf = async () => (await http<Seats>(s.url, 'GET', `/api/tables/${tableId}/seats`, undefined, gm)).body.seats.find((x) => x.seatId === seat.seatId)!;
    expect((await codeOf()).code).toEqual({ state: 'live', expiresAt: seat.codeExpiresAt });
    // Only the GM reads it.
    expect((await http(s.url, 'GET', `/api/tables/${tableId}/seats`, undefined, seat.token)).status).toBe(403);
    const before = Date.now();
    const j = await http<{ token: string }>(s.url, 'POST', '/api/join', { code: seat.code });
    expect(j.status).toBe(200);
    const used = (await codeOf()).code!;
    expect(used.state).toBe('used');
    expect(used.usedAt).toBeGreaterThanOrEqual(before);
    expect(used.usedAt).toBeLessThanOrEqual(Date.now());
    // Which code: the one the panel holds (its expiry), so an answer racing "New code" is not taken for the new one.
    expect(used.expiresAt).toBe(seat.codeExpiresAt);
    // The phone that joined with it is online on its socket; the code stays "used".
    const c = await Client.open(s.url, j.body.token);
    await expect.poll(async () => (await codeOf()).online).toBe(true);
    expect((await codeOf()).code?.state).toBe('used');
    c.ws.close();
    const fresh = await http<{ code: string; expiresAt: number }>(s.url, 'POST', `/api/tables/${tableId}/seats/${seat.seatId}/code`, undefined, gm);
    expect((await codeOf()).code).toEqual({ state: 'live', expiresAt: fresh.body.expiresAt });
    // Revoking the seat leaves no code to speak of.
    await http(s.url, 'DELETE', `/api/tables/${tableId}/seats/${seat.seatId}`, undefined, gm);
    expect((await codeOf()).code).toEqual({ state: 'none' });
  });

  it('guessing slows down per address like unknown tokens, even for a good code; another address is unaffected; every dead code reads alike', async () => {
    const s = await server({ limits: { tokenFailureBurst: 3, tokenFailuresPerSecond: 0.2 } });
    const a = await tableWithSeat(s.url, 'Ann');
    const b = await tableWithSeat(s.url, 'Bo');
    // Another table's revoked code and a code nobody was given answer the same words.
    await http(s.url, 'DELETE', `/api/tables/${b.tableId}/seats/${b.seat.seatId}`, undefined, b.gm);
    let guess = mintJoinCode();
    while (guess === a.seat.code) guess = mintJoinCode();
    const answers = [];
    for (const code of [b.seat.code, guess, guess]) answers.push(await joinFrom(s.url, '127.0.0.8', code));
    expect(answers.map((x) => x.status)).toEqual([404, 404, 404]);
    expect(new Set(answers.map((x) => JSON.stringify(x.body))).size).toBe(1);
    const slowed = await joinFrom(s.url, '127.0.0.8', a.seat.code);
    expect(slowed.status).toBe(429);
    expect((slowed.body as Err).error.kind).toBe('RATE_LIMITED');
    expect(Number(slowed.retryAfter)).toBeGreaterThan(0);
    // The good code was not used up by the refused try: another address joins with it.
    const ok = await joinFrom(s.url, '127.0.0.9', a.seat.code);
    expect(ok.status).toBe(200);
  });
});

describe('the code book (join-codes.ts)', () => {
  it('codes use 32 symbols without 0, O, 1 or I, eight of them', () => {
    expect(JOIN_CODE_ALPHABET).toHaveLength(32);
    for (const c of '0O1I') expect(JOIN_CODE_ALPHABET).not.toContain(c);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const c = mintJoinCode();
      expect(readJoinCode(c)).toEqual({ ok: true, code: c });
      seen.add(c);
    }
    expect(seen.size).toBe(200);
  });

  it('reads what people type: case, spaces and dashes do not matter; the wrong length or symbol is named', () => {
    expect(readJoinCode('abcd efgh')).toEqual({ ok: true, code: 'ABCDEFGH' });
    expect(readJoinCode('ABCD-EFG')).toEqual({ ok: false, message: 'a join code has 8 letters and digits (you typed 7)' });
    expect(readJoinCode('ABCD-EFGI')).toEqual({ ok: false, message: 'a join code has no "I": it uses capital letters and the digits 2-9 (never 0, O, 1 or I)' });
    expect(showJoinCode('ABCDEFGH')).toBe('ABCD-EFGH');
  });

  // The book over a store (memory here; every adapter in store-conformance.test.ts). Times are given, never waited for.
  const book = async () => {
    const store = asyncStore(memoryStore());
    for (const t of ['t1', 't2', 't']) await store.createTable({ tableId: t, name: t, rulesetId: 'r', genesis: {} as never, createdAt: 0 }, []);
    let n = 0;
    const token = () => ({ hash: `h${++n}`, tableId: '', role: 'player' as const, seatId: null, createdAt: 0, revokedAt: null });
    return { store, codes: new JoinCodes(store, 1000), token };
  };

  it("a code expires, is used once, and is replaced by the seat's next one; revoking a table's player links takes all its codes", async () => {
    const { store, codes, token } = await book();
    const one = await codes.issue('t1', 's1', 0);
    expect(one.expiresAt).toBe(1000);
    expect(await codes.redeem(one.code, token(), 999)).toEqual({ tableId: 't1', seatId: 's1' });
    expect(await codes.redeem(one.code, token(), 999)).toBeNull();
    const late = await codes.issue('t1', 's1', 0);
    expect(await codes.redeem(late.code, token(), 1000)).toBeNull();
    const a = await codes.issue('t1', 's1', 0);
    const b = await codes.issue('t1', 's1', 0);
    expect(await codes.redeem(a.code, token(), 1)).toBeNull();
    await codes.issue('t1', 's2', 0);
    const other = await codes.issue('t2', 's1', 0);
    await store.revokeTokens('t1', { role: 'player' }, 1);
    expect(await codes.redeem(b.code, token(), 1)).toBeNull();
    expect(await store.listJoinCodes('t1')).toEqual([]);
    expect(await codes.redeem(other.code, token(), 1)).toEqual({ tableId: 't2', seatId: 's1' });
  });

  it("a seat's latest code reads live, then used once redeemed (an older, replaced code never marks it), then none once expired or revoked", async () => {
    const { store, codes, token } = await book();
    const stateOf = async (seat: string, now: number) => (await codes.states('t', now)).get(seat) ?? { state: 'none' };
    expect(await stateOf('s', 0)).toEqual({ state: 'none' });
    const old = await codes.issue('t', 's', 0);
    const now = await codes.issue('t', 's', 0);
    expect(await stateOf('s', 10)).toEqual({ state: 'live', expiresAt: 1000 });
    expect(await codes.redeem(old.code, token(), 10)).toBeNull();
    expect((await stateOf('s', 10)).state).toBe('live');
    expect(await codes.redeem(now.code, token(), 20)).toEqual({ tableId: 't', seatId: 's' });
    expect(await stateOf('s', 30)).toEqual({ state: 'used', usedAt: 20, expiresAt: 1000 });
    // Used stays used after the code's time (the panel says when), until the seat gets a new one.
    expect(await stateOf('s', 5000)).toEqual({ state: 'used', usedAt: 20, expiresAt: 1000 });
    // A late try at an expired code marks nothing.
    const late = await codes.issue('t', 'late', 0);
    expect(await codes.redeem(late.code, token(), 1000)).toBeNull();
    expect(await stateOf('late', 1000)).toEqual({ state: 'none' });
    await codes.issue('t', 's', 40);
    expect(await stateOf('s', 50)).toEqual({ state: 'live', expiresAt: 1040 });
    expect(await stateOf('s', 1040)).toEqual({ state: 'none' });
    const again = await codes.issue('t', 's', 100);
    await codes.redeem(again.code, token(), 110);
    await store.revokeTokens('t', { role: 'player', seatId: 's' }, 120);
    expect(await stateOf('s', 120)).toEqual({ state: 'none' });
  });

  it('keeps one code per seat (a new one replaces it), only its hash, and the redeemed seat gets the given token as its link', async () => {
    const { store, codes, token } = await book();
    for (let i = 0; i < 5; i++) await codes.issue('t', 's', i);
    const last = await codes.issue('t', 's', 9);
    const rows = await store.listJoinCodes('t');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).toBe(hashJoinCode(last.code));
    expect(JSON.stringify(rows)).not.toContain(last.code);
    const t = token();
    await codes.redeem(last.code, t, 10);
    expect(await store.findToken(t.hash)).toEqual({ ...t, tableId: 't', seatId: 's' });
  });
});
