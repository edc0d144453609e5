// One suite, two buses (issue 22, ADR 54): the in-process bus and NATS (a real
// nats-server on loopback) must behave the same for what the shared mode needs:
// commits in order to every follower, commands to the one owner and back, and
// clear refusals for what cannot travel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { LocalBus, LocalHub } from '../src/bus/local.js';
import { NatsBus } from '../src/bus/nats.js';
import { BusError, MAX_BUS_MESSAGE_BYTES, type Bus, type Committed, type ForwardedCommand } from '../src/bus/port.js';
import { startNatsServer, type NatsServer } from './services/nats-server.js';

interface Pair {
  readonly a: Bus;
  readonly b: Bus;
  readonly errors: unknown[];
}

const tableId = () => 't_' + randomBytes(9).toString('base64url');
const committed = (t: string, version: number, tx: unknown = { events: [{ type: 'log.noted', text: `v${version}` }] }): Committed => ({
  tableId: t,
  version,
  commandId: `c${version}`,
  actorKey: 'gm',
  tx: JSON.stringify(tx),
});
const command = (t: string, extra: Partial<ForwardedCommand> = {}): ForwardedCommand => ({
  tableId: t,
  viewer: { role: 'player', seatId: 's1' },
  commandId: 'cmd-1',
  expectedVersion: 3,
  command: { type: 'log.note', text: 'hello' },
  ...extra,
});

/** Collects a follower's messages and resolves when `n` arrived. */
function collect(bus: Bus, t: string, n: number): { got: Committed[]; done: Promise<void>; stop: () => void } {
  const got: Committed[] = [];
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const sub = bus.onCommitted(t, (m) => {
    got.push(m);
    if (got.length === n) finish();
  });
  if (n === 0) finish();
  return { got, done, stop: () => sub.unsubscribe() };
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms))]);

function busSuite(name: string, makePair: () => Promise<Pair>): void {
  describe(`bus conformance: ${name}`, () => {
    it("carries an instance's presence at a table to the others", async () => {
      const { a, b } = await makePair();
      const t = tableId();
      const heard = new Promise<unknown>((resolve) => b.onPresence(t, resolve));
      await b.ready();
      await a.publishPresence({ tableId: t, instanceId: 'inst-a', gm: true, seats: ['s1', 's2'], spectators: 2 });
      expect(await within(heard, 5_000, 'presence')).toEqual({ tableId: t, instanceId: 'inst-a', gm: true, seats: ['s1', 's2'], spectators: 2 });
      await a.close();
      await b.close();
    });

    it('tells every instance following a table of its revoked links (hashes only), and refuses a malformed one', async () => {
      const { a, b, errors } = await makePair();
      const t = tableId();
      const heard: unknown[] = [];
      const done = new Promise<void>((resolve) =>
        b.onRevoked(t, (m) => {
          heard.push(m);
          resolve();
        }),
      );
      const other = tableId();
      b.onRevoked(other, (m) => heard.push(m));
      await b.ready();
      const hash = 'ab'.repeat(32);
      await a.publishRevoked({ tableId: t, hashes: [hash], message: 'The GM revoked this link.' });
      await within(done, 5_000, 'revocation');
      expect(heard).toEqual([{ tableId: t, hashes: [hash], message: 'The GM revoked this link.' }]);
      // A token in clear (not a hash) never travels: the message is refused where it arrives and reported.
      const bad = new Promise<void>((resolve) => {
        const at = setInterval(() => errors.length > 0 && (clearInterval(at), resolve()), 10);
      });
      await a.publishRevoked({ tableId: t, hashes: ['not-a-hash'], message: 'x' });
      await within(bad, 5_000, 'the malformed revocation');
      expect(String(errors[0])).toMatch(/revocation at hashes\.0/);
      expect(heard).toHaveLength(1);
      await a.close();
      await b.close();
    });

    it('announces commits to every follower, in the order they were published', async () => {
      const { a, b } = await makePair();
      const t = tableId();
      const onB = collect(b, t, 50);
      const onA = collect(a, t, 50);
      await b.ready();
      await a.ready();
      for (let v = 1; v <= 50; v++) await a.publishCommitted(committed(t, v));
      await within(Promise.all([onB.done, onA.done]), 10_000, 'followers');
      expect(onB.got.map((m) => m.version)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(onA.got).toEqual(onB.got);
      expect(onB.got[6]).toEqual(committed(t, 7));
      await a.close();
      await b.close();
    });

    it("keeps tables apart: a follower of one table never hears another's commits", async () => {
      const { a, b } = await makePair();
      const [t1, t2] = [tableId(), tableId()];
      const on1 = collect(b, t1, 1);
      const on2 = collect(b, t2, 1);
      await b.ready();
      await a.publishCommitted(committed(t2, 1));
      await within(on2.done, 10_000, 'table 2 follower');
      // A round trip through the broker after the publish: anything for table 1 would have arrived by now.
      await b.ready();
      await a.ready();
      expect(on1.got).toEqual([]);
      await a.close();
      await b.close();
    });

    it('stops delivering after unsubscribe', async () => {
      const { a, b } = await makePair();
      const t = tableId();
      const first = collect(b, t, 1);
      const later = collect(b, t, 2);
      await b.ready();
      await a.publishCommitted(committed(t, 1));
      await within(first.done, 10_000, 'first');
      first.stop();
      first.stop();
      await b.ready();
      await a.publishCommitted(committed(t, 2));
      await within(later.done, 10_000, 'second follower');
      expect(first.got.map((m) => m.version)).toEqual([1]);
      expect(later.got.map((m) => m.version)).toEqual([1, 2]);
      await a.close();
      await b.close();
    });

    it("forwards a command to the table's owner and brings back its answer", async () => {
      const { a, b } = await makePair();
      const t = tableId();
      const seen: ForwardedCommand[] = [];
      a.serveCommands(t, async (req) => {
        seen.push(req);
        return { ok: true, version: 4, duplicate: false };
      });
      await a.ready();
      const reply = await b.forwardCommand(command(t), 5_000);
      expect(reply).toEqual({ ok: true, version: 4, duplicate: false });
      expect(seen).toEqual([command(t)]);
      await a.close();
      await b.close();
    });

    it('relays a refusal unchanged, with its code, message and path', async () => {
      const { a, b } = await makePair();
      const t = tableId();
      a.serveCommands(t, async () => ({ ok: false, error: { kind: 'VERSION_CONFLICT', current: 5, message: 'The table moved on to version 5.' } }));
      await a.ready();
      expect(await b.forwardCommand(command(t), 5_000)).toEqual({ ok: false, error: { kind: 'VERSION_CONFLICT', current: 5, message: 'The table moved on to version 5.' } });
      await a.close();
      await b.close();
    });

    it('says "no-owner" at once when nobody serves the table, and after the owner stops serving', async () => {
      const { a, b } = await makePair();
      const t = tableId();
      // A timeout longer than the test's own: "no-owner" (not "timeout") shows the broker said at once that nobody listens.
      expect(await b.forwardCommand(command(t), 60_000)).toEqual({ ok: false, bus: 'no-owner' });
      const serving = a.serveCommands(t, async () => ({ ok: true, version: 1, duplicate: false }));
      await a.ready();
      expect(await b.forwardCommand(command(t), 5_000)).toMatchObject({ ok: true });
      serving.unsubscribe();
      await a.ready();
      expect(await b.forwardCommand(command(t), 60_000)).toEqual({ ok: false, bus: 'no-owner' });
      await a.close();
      await b.close();
    });

    it('says "timeout" when the owner does not answer in time', async () => {
      const { a, b } = await makePair();
      const t = tableId();
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      a.serveCommands(t, async () => {
        await held;
        return { ok: true, version: 1, duplicate: false };
      });
      await a.ready();
      expect(await b.forwardCommand(command(t), 200)).toEqual({ ok: false, bus: 'timeout' });
      release();
      await a.close();
      await b.close();
    });

    it("answers a generic UNAVAILABLE (send again) when the owner's handler throws, without its message", async () => {
      const { a, b, errors } = await makePair();
      const t = tableId();
      a.serveCommands(t, async () => {
        throw new Error('secret GM note: the duke is the traitor');
      });
      await a.ready();
      const reply = await b.forwardCommand(command(t), 5_000);
      expect(reply).toMatchObject({ ok: false, error: { kind: 'UNAVAILABLE' } });
      expect(JSON.stringify(reply)).not.toContain('duke');
      // The owner's own log keeps the reason.
      expect(errors.map(String).join(' ')).toContain('duke');
      await a.close();
      await b.close();
    });

    it('refuses a table id that cannot name a subject, and a message over the size limit, saying which and why', async () => {
      const { a, b } = await makePair();
      for (const bad of ['t.1', 't*', 'a>b', '', 'x'.repeat(65), 'with space']) {
        expect(() => a.onCommitted(bad, () => {})).toThrow(BusError);
        await expect(a.publishCommitted(committed(bad, 1))).rejects.toThrow(/table id/);
      }
      const huge = committed(tableId(), 1, { blob: 'x'.repeat(MAX_BUS_MESSAGE_BYTES) });
      await expect(a.publishCommitted(huge)).rejects.toThrow(new RegExp(`over the ${MAX_BUS_MESSAGE_BYTES}-byte limit`));
      await expect(b.forwardCommand(command(tableId(), { command: { text: 'y'.repeat(MAX_BUS_MESSAGE_BYTES) } }), 1_000)).rejects.toThrow(/forwarded command is \d+ bytes/);
      await a.close();
      await b.close();
    });

    it('refuses every call once closed, and closes twice without harm', async () => {
      const { a, b } = await makePair();
      await a.close();
      await a.close();
      expect(() => a.onCommitted(tableId(), () => {})).toThrow(/closed/);
      await expect(a.publishCommitted(committed(tableId(), 1))).rejects.toThrow(/closed/);
      await expect(a.ready()).rejects.toThrow(/closed/);
      await b.close();
    });

    it('carries any transaction text and command unchanged (property)', async () => {
      const { a, b } = await makePair();
      let next = 1;
      await fc.assert(
        // A transaction is an object (the store writes one); a bare "5" is refused by the decoder (tx is at least "{}"),
        // and a property run that drew one used to wait out its follower (a CI timeout).
        fc.asyncProperty(fc.array(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }), { minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), async (txs, cmd) => {
          // A table per run: a run that failed half-way leaves nothing for the next to hear.
          const t = tableId();
          const base = next;
          next += txs.length;
          const msgs = txs.map((tx, i) => committed(t, base + i, tx));
          const follower = collect(b, t, msgs.length);
          await b.ready();
          for (const m of msgs) await a.publishCommitted(m);
          await within(follower.done, 10_000, 'property follower');
          follower.stop();
          expect(follower.got).toEqual(msgs);
          const served = a.serveCommands(t, async (req) => ({ ok: false, error: { kind: 'RULE_ERROR', code: 'ECHO', message: JSON.stringify(req.command) ?? 'undefined' } }));
          await a.ready();
          const reply = await b.forwardCommand(command(t, { command: cmd }), 5_000);
          served.unsubscribe();
          await a.ready();
          // JSON is what travels: -0 becomes 0 and undefined is left out, as on a client's socket.
          expect(reply).toEqual({ ok: false, error: { kind: 'RULE_ERROR', code: 'ECHO', message: JSON.stringify(JSON.parse(JSON.stringify(cmd))) } });
        }),
        { numRuns: 25 },
      );
      await a.close();
      await b.close();
    });
  });
}

busSuite('in-process', async () => {
  const hub = new LocalHub();
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  return { a: new LocalBus(hub, onError), b: new LocalBus(hub, onError), errors };
});

describe('nats', () => {
  let server: NatsServer | undefined;
  beforeAll(async () => {
    server = await startNatsServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  busSuite('NATS (a real nats-server on loopback)', async () => {
    const prefix = 'test' + randomBytes(4).toString('hex');
    const errors: unknown[] = [];
    const onError = (e: unknown) => errors.push(e);
    const a = await NatsBus.connect({ url: server!.url, prefix, onError, name: 'a' });
    const b = await NatsBus.connect({ url: server!.url, prefix, onError, name: 'b' });
    return { a, b, errors };
  });

  it('skips a message a broken instance put on a commit subject, reports it, and keeps delivering', async () => {
    const prefix = 'test' + randomBytes(4).toString('hex');
    const errors: unknown[] = [];
    const b = await NatsBus.connect({ url: server!.url, prefix, onError: (e) => errors.push(e) });
    const a = await NatsBus.connect({ url: server!.url, prefix });
    const t = tableId();
    const follower = collect(b, t, 1);
    await b.ready();
    const nc = await connect({ servers: server!.url });
    nc.publish(`${prefix}.commit.${t}`, Buffer.from('not json'));
    nc.publish(`${prefix}.commit.${t}`, Buffer.from(JSON.stringify({ tableId: t, version: 0, commandId: null, actorKey: 'gm', tx: '{}' })));
    await nc.drain();
    await a.publishCommitted(committed(t, 1));
    await within(follower.done, 10_000, 'good message after bad ones');
    expect(follower.got.map((m) => m.version)).toEqual([1]);
    expect(errors.map(String)).toEqual([expect.stringContaining('is not JSON'), expect.stringContaining('at version')]);
    await a.close();
    await b.close();
  });

  it('refuses a subject prefix that could widen or break a subscription with BAD_PREFIX, naming the prefix, before connecting', async () => {
    for (const prefix of ['', 'tk.all', 'tk*', '>', 'a b', 'x'.repeat(33)]) {
      await expect(NatsBus.connect({ url: server!.url, prefix }), JSON.stringify(prefix)).rejects.toMatchObject({ name: 'BusError', code: 'BAD_PREFIX', message: expect.stringContaining(`subject prefix ${JSON.stringify(prefix)}`) });
    }
    // The longest allowed prefix connects.
    const ok = await NatsBus.connect({ url: server!.url, prefix: 'x'.repeat(32) });
    await ok.close();
  });

  it('stops the nats-server it started by its own pid, and a bus on it then fails to connect with the address', async () => {
    const own = await startNatsServer();
    expect(() => process.kill(own.pid, 0)).not.toThrow();
    await own.stop();
    expect(() => process.kill(own.pid, 0)).toThrow();
    await expect(NatsBus.connect({ url: own.url })).rejects.toThrow();
    // The suite's own server is untouched.
    expect(() => process.kill(server!.pid, 0)).not.toThrow();
  });
});
