// The web's query sharing (issue 20, ADR 86): each query (name + args) is asked
// once per table version whichever panels ask it; panels asking the same thing
// share one answer; while one is out, a burst of newer versions waits and only
// the newest is asked when it returns. A fake server answers by hand.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KEPT_ANSWERS, shareQueries } from '../packages/web/src/lib/shareQueries.ts';
import { TableClient } from '../packages/web/src/net/client.ts';

type Answer = { readonly ok: boolean; readonly version: number; readonly code?: string };

/** A server the test answers by hand: each ask waits until `answer` is called for it. */
function fakeServer() {
  let version = 1;
  const out: { name: string; args: unknown; version: number; resolve: (a: Answer) => void }[] = [];
  const sent: { name: string; args: unknown; version: number }[] = [];
  const ask = shareQueries<Answer>(
    (name, args) =>
      new Promise<Answer>((resolve) => {
        const asked = { name, args, version };
        sent.push(asked);
        out.push({ ...asked, resolve });
      }),
    () => version,
    (a) => a.ok || a.code !== 'RATE_LIMITED',
  );
  return {
    ask,
    sent,
    out,
    moveTo: (v: number) => (version = v),
    /** Answers the oldest ask still out, as the server would at the version it was asked at. */
    answer: async (a: Partial<Answer> = {}) => {
      const o = out.shift()!;
      o.resolve({ ok: true, version: o.version, ...a });
      // Let the promise callbacks (the shared ones, then the waiting ask) run.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

describe('shareQueries', () => {
  it('panels asking the same query at one version share one ask and one answer', async () => {
    const s = fakeServer();
    const a = s.ask('osr.toolActions', { characterId: 'c1' });
    const b = s.ask('osr.toolActions', { characterId: 'c1' });
    expect(a).toBe(b);
    expect(s.sent).toHaveLength(1);
    await s.answer();
    expect(await a).toEqual({ ok: true, version: 1 });
    // Answered at this version: asked again (a re-render, another panel opening) it is not sent again.
    expect(await s.ask('osr.toolActions', { characterId: 'c1' })).toEqual({ ok: true, version: 1 });
    expect(s.sent).toHaveLength(1);
  });

  it('different arguments or names are different queries', () => {
    const s = fakeServer();
    void s.ask('osr.toolActions', { characterId: 'c1' });
    void s.ask('osr.toolActions', { characterId: 'c2' });
    void s.ask('osr.toolActions', {});
    void s.ask('osr.returnChances', {});
    expect(s.sent.map((q) => [q.name, q.args])).toEqual([
      ['osr.toolActions', { characterId: 'c1' }],
      ['osr.toolActions', { characterId: 'c2' }],
      ['osr.toolActions', {}],
      ['osr.returnChances', {}],
    ]);
  });

  it('a new version asks again once the last answer is in', async () => {
    const s = fakeServer();
    void s.ask('osr.returnChances', {});
    await s.answer();
    s.moveTo(2);
    const again = s.ask('osr.returnChances', {});
    expect(s.sent.map((q) => q.version)).toEqual([1, 2]);
    await s.answer();
    expect(await again).toEqual({ ok: true, version: 2 });
  });

  it('a burst of versions while one ask is out waits, and then only the newest is asked, its answer shared by every waiting asker', async () => {
    const s = fakeServer();
    const first = s.ask('osr.chaseOdds', { ground: 'uneven' });
    const waiting: Promise<Answer>[] = [];
    for (let v = 2; v <= 6; v++) {
      s.moveTo(v);
      waiting.push(s.ask('osr.chaseOdds', { ground: 'uneven' }));
    }
    // Nothing more was sent while the first was out.
    expect(s.sent).toHaveLength(1);
    await s.answer();
    expect(await first).toEqual({ ok: true, version: 1 });
    // Then one ask, at the newest version, for all five.
    expect(s.sent.map((q) => q.version)).toEqual([1, 6]);
    await s.answer();
    for (const w of waiting) expect(await w).toEqual({ ok: true, version: 6 });
  });

  it('an answer refused by the budget is not kept: the next ask at the same version goes to the server again', async () => {
    const s = fakeServer();
    void s.ask('daggerheart.rollOdds', { requestId: 'r1' });
    await s.answer({ ok: false, code: 'RATE_LIMITED' });
    void s.ask('daggerheart.rollOdds', { requestId: 'r1' });
    expect(s.sent).toHaveLength(2);
    // A rule's refusal (not found, invalid) is the answer for this version, and is kept.
    await s.answer({ ok: false, code: 'NOT_FOUND' });
    void s.ask('daggerheart.rollOdds', { requestId: 'r1' });
    expect(s.sent).toHaveLength(2);
  });

  it(`keeps at most ${KEPT_ANSWERS} answers: the oldest is forgotten and asked again`, async () => {
    const s = fakeServer();
    for (let i = 0; i <= KEPT_ANSWERS; i++) void s.ask('q', { i });
    while (s.out.length > 0) await s.answer();
    void s.ask('q', { i: KEPT_ANSWERS });
    expect(s.sent).toHaveLength(KEPT_ANSWERS + 1);
    void s.ask('q', { i: 0 });
    expect(s.sent).toHaveLength(KEPT_ANSWERS + 2);
  });

  it('in any interleaving of asks, new versions and answers: at most one ask per query per version, at most one out at a time, and every asker gets an answer no older than its version', async () => {
    type Step = { readonly kind: 'ask'; readonly q: number } | { readonly kind: 'version' } | { readonly kind: 'answer' };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('ask' as const), q: fc.integer({ min: 0, max: 2 }) }),
      fc.constant({ kind: 'version' as const }),
      fc.constant({ kind: 'answer' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps: Step[]) => {
        const s = fakeServer();
        let version = 1;
        const asked: { q: number; version: number; answer: Promise<Answer> }[] = [];
        for (const st of steps) {
          if (st.kind === 'version') s.moveTo(++version);
          else if (st.kind === 'ask') asked.push({ q: st.q, version, answer: s.ask(`q${st.q}`, {}) });
          else if (s.out.length > 0) await s.answer();
          // Never two asks of one query out at once.
          const outNames = s.out.map((o) => o.name);
          expect(new Set(outNames).size).toBe(outNames.length);
        }
        // Answer whatever is still out (and what the answers release).
        while (s.out.length > 0) await s.answer();
        const seen = s.sent.map((q) => `${q.name}@${q.version}`);
        expect(new Set(seen).size).toBe(seen.length);
        // Never more asks than the asks made (sharing only removes asks).
        expect(s.sent.length).toBeLessThanOrEqual(asked.length);
        for (const a of asked) expect((await a.answer).version).toBeGreaterThanOrEqual(a.version);
      }),
    );
  });

  it('TableClient.query goes through it: two panels at one version send one query frame; a new version sends one more', async () => {
    const frames: { type: string; queryId: string; name: string }[] = [];
    class Socket {
      static last: Socket | null = null;
      readyState = 1;
      onopen: (() => void) | null = null;
      onmessage: ((ev: { data: string }) => void) | null = null;
      onclose: ((ev: { code: number; reason: string }) => void) | null = null;
      constructor() {
        Socket.last = this;
      }
      send(text: string): void {
        const m = JSON.parse(text) as { type: string; queryId: string; name: string };
        if (m.type === 'query') frames.push(m);
      }
      close(): void {}
    }
    const client = new TableClient({ url: 'ws://test/ws', capability: { role: 'gm', token: 't' }, WebSocketImpl: Socket as unknown as typeof WebSocket });
    client.connect();
    const serve = (msg: object) => Socket.last!.onmessage?.({ data: JSON.stringify(msg) });
    serve({ type: 'snapshot', version: 5, view: { world: { log: [] }, history: [] } });
    const a = client.query('osr.returnChances', {});
    const b = client.query('osr.returnChances', {});
    expect(frames).toHaveLength(1);
    serve({ type: 'queryResult', queryId: frames[0]!.queryId, ok: true, result: { pcs: [] } });
    expect(await a).toEqual(await b);
    expect((await a).ok).toBe(true);
    serve({ type: 'delta', from: 5, version: 6, acks: [] });
    void client.query('osr.returnChances', {});
    void client.query('osr.returnChances', {});
    expect(frames.map((f) => f.name)).toEqual(['osr.returnChances', 'osr.returnChances']);
  });
});
