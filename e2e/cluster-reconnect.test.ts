// The shared mode in a real browser (issue 22, ADR 60): a phone reaches two
// instances (one PostgreSQL, one nats-server, both real, on loopback) through
// a plain TCP balancer. The instance serving it goes away and the balancer
// sends the phone to the other: the phone reconnects and shows the table at
// its new version without a reload, and never receives a GM-only byte. A join
// code the GM's screen got from one instance is typed on a phone served by the
// other; the GM's Invite panel marks it used without a reload (ADR 64).
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { Browser, BrowserContext, Locator } from 'playwright-core';
import { coreModule, countdownsModule } from '@tablekeeper/engine';
import { moduleCatalog, startServer, type RunningServer } from '@tablekeeper/server';
import { openPostgresStore } from '../packages/server/src/store/postgres.ts';
import { NatsBus } from '../packages/server/src/bus/nats.ts';
import { PgLeaseStore } from '../packages/server/src/cluster/lease.ts';
import { Client, http } from '../packages/server/test/helpers.ts';
import { startNatsServer, type NatsServer } from '../packages/server/test/services/nats-server.ts';
import { startPostgres } from '../scripts/postgres.mjs';
import { launchChromium } from './browser.ts';
import { ensureWebBuilt, recordFrames, watchErrors, webDist } from './web.ts';

const CANARY = 'CANARY-p4Rt-hidden-clock';
const coreSchema = `tke_${process.pid}`;

let postgres: { url: string; stop: () => Promise<void> } | null = null;
let nats: NatsServer | null = null;
let browser: Browser;
const servers: RunningServer[] = [];
const contexts: BrowserContext[] = [];
const sockets: Client[] = [];

/** A plain TCP balancer: every new connection goes to the current backend; `send` moves it and cuts what it carried. */
function balancer(): Promise<{ url: string; send: (port: number) => void; close: () => Promise<void> }> {
  let target = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(target, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        send: (p) => {
          target = p;
          for (const s of open) s.destroy();
        },
        close: () =>
          new Promise<void>((r) => {
            for (const s of open) s.destroy();
            server.close(() => r());
          }),
      });
    }),
  );
}

/** An instance of the cluster; `rulesets: 'all'` serves the real rulesets (the GM screen), else a core-only catalogue. */
async function instance(id: string, rulesets: 'core' | 'all' = 'core', schema = coreSchema): Promise<RunningServer> {
  const store = await openPostgresStore(postgres!.url, { schema });
  const bus = await NatsBus.connect({ url: nats!.url, prefix: schema });
  const s = await startServer({
    port: 0,
    host: '127.0.0.1',
    store,
    logger: pino({ level: 'silent' }),
    ...(rulesets === 'core' ? { catalog: moduleCatalog([{ id: 'core-only', modules: [coreModule, countdownsModule] }]) } : {}),
    webDist,
    cluster: { bus, leases: await PgLeaseStore.open(store.pool), instanceId: id, leaseMs: 1000 },
  });
  servers.push(s);
  return s;
}

beforeAll(async () => {
  ensureWebBuilt();
  const given = process.env['TEST_DATABASE_URL'];
  [postgres, nats, browser] = await Promise.all([given ? { url: given, stop: async () => undefined } : startPostgres(), startNatsServer(), launchChromium()]);
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await Promise.all(sockets.map((s) => s.close()));
  await browser?.close();
  for (const s of servers) await s.close().catch(() => undefined);
  await nats?.stop();
  await postgres?.stop();
}, 60_000);

describe('a phone behind a balancer of two instances', () => {
  it('reconnects to the other instance when its own goes away and shows the table at its new version, without a reload or a GM-only byte', async () => {
    const a = await instance('inst-a');
    const b = await instance('inst-b');
    const lb = await balancer();
    lb.send(a.port);
    const made = await http<{ tableId: string; gmToken: string }>(a.url, 'POST', '/api/tables', { name: 'Across instances', rulesetId: 'core-only' });
    const seat = await http<{ token: string }>(a.url, 'POST', `/api/tables/${made.body.tableId}/seats`, { name: 'Ada' }, made.body.gmToken);
    expect(seat.status).toBe(201);
    // The GM plays from the other instance: a owns the table (it opened it first), b forwards the GM's commands.
    const gm = await Client.open(b.url, made.body.gmToken);
    sockets.push(gm);
    expect(a.cluster!.fenceOf(made.body.tableId)).not.toBeNull();

    const ctx = await browser.newContext({ viewport: { width: 420, height: 860 } });
    ctx.setDefaultTimeout(25_000);
    contexts.push(ctx);
    const phone = await ctx.newPage();
    const errors = watchErrors(phone);
    const frames = recordFrames(phone);
    await phone.goto(`${lb.url}/#seat=${seat.body.token}`);
    await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();
    // A mark that a reload would wipe.
    await phone.evaluate(() => ((globalThis as unknown as { tkMark: number }).tkMark = 7));

    expect(await gm.command({ type: 'countdown.create', name: 'The bridge falls', start: 4 })).toMatchObject({ type: 'ack' });
    expect(await gm.command({ type: 'countdown.create', name: CANARY, start: 3, visibility: 'hidden' })).toMatchObject({ type: 'ack' });
    await phone.getByText('The bridge falls', { exact: true }).waitFor();

    // The phone's instance goes away; the balancer sends new connections to b.
    lb.send(b.port);
    await a.close();
    servers.splice(servers.indexOf(a), 1);
    // The GM carries on through b, which finds no owner, takes the lease and replays from the store.
    expect(await gm.command({ type: 'countdown.create', name: 'The gate holds', start: 2 })).toMatchObject({ type: 'ack' });
    expect(b.cluster!.fenceOf(made.body.tableId)).toMatchObject({ owner: 'inst-b' });
    await phone.getByText('The gate holds', { exact: true }).waitFor();
    await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();
    expect(await phone.evaluate(() => (globalThis as unknown as { tkMark?: number }).tkMark)).toBe(7);
    await phone.getByText('The bridge falls', { exact: true }).waitFor();

    expect(frames.length).toBeGreaterThan(2);
    expect(frames.filter((f) => f.includes(CANARY))).toEqual([]);
    expect(await phone.content()).not.toContain(CANARY);
    // The cut connection shows up as a failed socket or a reset while the phone reconnects; nothing else may fail.
    expect(errors.filter((e) => !/ERR_CONNECTION_(RESET|REFUSED|CLOSED)|WebSocket/.test(e))).toEqual([]);
    await lb.close();
  }, 180_000);

  it("a join code shown on the GM's screen of one instance is typed on a phone served by the other; the GM's panel marks it used without a reload, and the code is refused in words after", async () => {
    const schema = `tkj_${process.pid}`;
    const a = await instance('join-a', 'all', schema);
    const b = await instance('join-b', 'all', schema);
    const made = await http<{ tableId: string; gmToken: string }>(a.url, 'POST', '/api/tables', { name: 'Codes across instances', rulesetId: 'teams' });
    expect(made.status).toBe(201);
    const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

    const gmCtx = await browser.newContext({ viewport: { width: 1440, height: 960 } });
    gmCtx.setDefaultTimeout(25_000);
    contexts.push(gmCtx);
    const gm = await gmCtx.newPage();
    const gmErrors = watchErrors(gm);
    await gm.goto(`${a.url}/#gm=${made.body.gmToken}`);
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await gm.evaluate(() => ((globalThis as unknown as { tkMark: number }).tkMark = 9));
    const invite = gm.locator('.area-invite');
    await invite.getByPlaceholder('Player name').fill('Bo');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    const shown = invite.getByTestId('join-code');
    await expect.poll(() => text(shown)).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const code = await text(shown);

    const phoneCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    phoneCtx.setDefaultTimeout(25_000);
    contexts.push(phoneCtx);
    const phone = await phoneCtx.newPage();
    await phone.goto(`${b.url}/`);
    await phone.getByLabel('Join code').fill(code);
    await phone.getByRole('button', { name: 'Join', exact: true }).click();
    await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();

    // The GM's screen asks its own instance, which reads the store: the code another instance used reads used.
    await expect.poll(() => text(invite.getByTestId('join-code-used')), { timeout: 20_000 }).toMatch(new RegExp(`^Join code ${code} used by a phone at \\d`));
    expect(await shown.count()).toBe(0);
    expect(await gm.evaluate(() => (globalThis as unknown as { tkMark?: number }).tkMark)).toBe(9);

    // Typed again on the GM's instance: refused in words.
    const late = await (await browser.newContext()).newPage();
    contexts.push(late.context());
    await late.goto(`${a.url}/`);
    await late.getByLabel('Join code').fill(code);
    await late.getByRole('button', { name: 'Join', exact: true }).click();
    await expect.poll(() => text(late.getByTestId('join-error'))).toBe('No seat has this code: it may be mistyped, used already or expired; ask the GM for a new one.');
    expect(gmErrors).toEqual([]);
  }, 180_000);
});
