// The three-instance cluster test (issue 22, ADR 60): three server processes
// on loopback ports over one real PostgreSQL and one real nats-server (both
// started here, stopped by pid). Clients spread over the three play two tables
// while the owner of the busy one is killed with SIGKILL twenty times in
// mid-stream (each killed instance is started again). Afterwards: every
// acknowledged command is in the log at the version it was acknowledged with,
// the log has no gap, every retried commandId landed exactly once, all views
// agree, and no player or spectator socket ever received a GM-only byte.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresEventStore } from '../src/store/postgres.js';
import { Client, http } from './helpers.js';
import { startNatsServer, type NatsServer } from './services/nats-server.js';
import { bundleClusterChild, CLUSTER_CHILD } from './services/cluster-child.js';
import { startPostgres } from '../../../scripts/postgres.mjs';

// The child, bundled once: a restart then takes Node's start-up only (about 2 s on a loaded machine, not 10 s of tsx).
// Next to the sources, so its one external (the native SQLite binding) resolves from node_modules.
const CHILD = CLUSTER_CHILD;
const KILLS = Number(process.env['TK_KILLS'] ?? 20);
/** The instances' lease length (TK_LEASE_MS to measure another, e.g. the default 3000). */
const LEASE_MS = Number(process.env['TK_LEASE_MS'] ?? 1000);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let postgres: { url: string; stop: () => Promise<void> } | null = null;
let nats: NatsServer | null = null;
let store: PostgresEventStore | null = null;
const schema = `tkf_${process.pid}`;
const procs = new Set<ChildProcess>();

interface Instance {
  readonly id: string;
  readonly proc: ChildProcess;
  readonly url: string;
}

let started = 0;
function spawnInstance(): Promise<Instance> {
  const id = `i${++started}`;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CHILD], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: postgres!.url, NATS_URL: nats!.url, TK_SCHEMA: schema, TK_INSTANCE: id, TK_LEASE_MS: String(LEASE_MS) },
    });
    procs.add(proc);
    proc.once('exit', () => procs.delete(proc));
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ id, proc, url: m[1]! });
    });
    proc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    proc.once('exit', (code, signal) => reject(new Error(`instance ${id} exited before it was ready (${code ?? signal}): ${err}`)));
  });
}

const kill9 = (p: ChildProcess): Promise<void> =>
  new Promise((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : (p.once('exit', () => resolve()), p.kill('SIGKILL'))));

beforeAll(async () => {
  const given = process.env['TEST_DATABASE_URL'];
  const bundled = bundleClusterChild();

  [postgres, nats] = await Promise.all([given ? { url: given, stop: async () => undefined } : startPostgres(), startNatsServer(), bundled]);
  // Migrated once here, so the children start on a ready schema (they would wait on the migration lock otherwise).
  store = await openPostgresStore(postgres.url, { schema });
}, 120_000);
afterAll(async () => {
  await Promise.all([...procs].map(kill9));
  rmSync(CHILD, { force: true });
  await store?.close();
  await nats?.stop();
  await postgres?.stop();
}, 60_000);

/** The live instances (the load balancer's pool): a client whose instance died picks another. */
const live = new Map<string, Instance>();
/** Round robin over the pool (a plain balancer), skipping the instance a client just lost. */
let turn = 0;
const pick = (avoid?: string): Instance => {
  const all = [...live.values()];
  const others = all.filter((i) => i.url !== avoid);
  const from = others.length > 0 ? others : all;
  return from[turn++ % from.length]!;
};

/** A client that reconnects to another instance when its own dies, and resends the same commandId until it is answered. */
class Player {
  client: Client | null = null;
  /** The instance the client is on now. */
  at = '';
  readonly everyFrame: string[] = [];
  readonly acked = new Map<string, number>();
  readonly ackTimes: number[] = [];
  sent = 0;
  stopped = false;
  reconnects = 0;

  constructor(
    readonly name: string,
    private readonly token: string,
  ) {}

  async connect(avoid?: string): Promise<Client> {
    for (;;) {
      const at = pick(avoid);
      try {
        const c = await Client.open(at.url, this.token);
        this.client = c;
        this.at = at.url;
        // Every frame this socket ever received, kept for the secrecy check.
        c.ws.on('message', (d) => this.everyFrame.push((d as Buffer).toString('utf8')));
        this.everyFrame.push(...c.frames);
        this.reconnects++;
        return c;
      } catch {
        await sleep(50);
      }
    }
  }

  private async current(): Promise<Client> {
    const c = this.client;
    if (c !== null && c.closed === null) return c;
    return this.connect(c === null ? undefined : this.at);
  }

  /** Sends one note until it is acknowledged: a socket that closed or an UNAVAILABLE answer means "send it again, same commandId". */
  async deliver(commandId: string): Promise<void> {
    // A budget in time, not tries: 400 quick UNAVAILABLE answers were only 10 s, less than a failover took under CI's load.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const c = await this.current();
      let r;
      try {
        r = await c.command({ type: 'log.note', text: commandId }, { commandId });
      } catch {
        c.ws.terminate();
        continue;
      }
      if (r.type === 'ack') {
        this.acked.set(commandId, r.version);
        this.ackTimes.push(Date.now());
        return;
      }
      if (r.error.kind === 'VERSION_CONFLICT') await c.reach(r.error.current, 5_000).catch(() => undefined);
      else if (r.error.kind === 'UNAVAILABLE') await sleep(25);
      else throw new Error(`${this.name}: ${commandId} refused: ${JSON.stringify(r.error)}`);
    }
    throw new Error(`${this.name}: ${commandId} was not acknowledged within 60 s`);
  }

  /** A watcher: reconnects whenever its instance dies, until stopped. */
  async watch(): Promise<void> {
    while (!this.stopped) {
      const c = await this.current();
      await Promise.race([c.waitClose(60_000).catch(() => undefined), (async () => {
        while (!this.stopped && c.closed === null) await sleep(50);
      })()]);
    }
  }

  async play(): Promise<void> {
    while (!this.stopped) await this.deliver(`${this.name}-${this.sent++}`);
  }
}

describe('three server processes, twenty owner kills', () => {
  it('no acknowledged event lost, no version gap, retries land once, views agree, secrets stay on the GM side; failover times printed', async () => {
    for (const i of await Promise.all([spawnInstance(), spawnInstance(), spawnInstance()])) live.set(i.id, i);
    const [first] = [...live.values()];
    const made = [];
    for (let n = 0; n < 2; n++) {
      const t = await http<{ tableId: string; gmToken: string }>(first!.url, 'POST', '/api/tables', { name: `Busy ${n}`, rulesetId: 'core-only' });
      const seat = await http<{ seatId: string; token: string }>(first!.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ada' }, t.body.gmToken);
      const sp = await http<{ token: string }>(first!.url, 'POST', `/api/tables/${t.body.tableId}/spectators`, undefined, t.body.gmToken);
      made.push({ tableId: t.body.tableId, gm: t.body.gmToken, player: seat.body.token, spectator: sp.body.token });
    }
    const busy = made[0]!;
    // GM-only canaries on the busy table: a hidden countdown, a hidden foe with its HP, a GM-only note.
    const setup = await Client.open(first!.url, busy.gm);
    for (const cmd of [
      { type: 'countdown.create', name: 'CANARY-clock', start: 4, visibility: 'hidden' },
      { type: 'character.add', name: 'CANARY-foe', kind: 'npc', visibility: 'hidden', stats: { hp: 'CANARY-hp-23' } },
      { type: 'log.note', text: 'CANARY gm-only', audience: { kind: 'gm' } },
    ]) expect((await setup.command(cmd)).type).toBe('ack');
    await setup.close();

    // Writers on both tables: each table's GM and its player, on random instances; spectators watch.
    const players = made.flatMap((t, n) => [new Player(`gm${n}`, t.gm), new Player(`p${n}`, t.player)]);
    const spectator = new Player('sp0', busy.spectator);
    await Promise.all([...players, spectator].map((p) => p.connect()));
    const playing = [...players.map((p) => p.play()), spectator.watch()];

    const owner = async (): Promise<string | null> =>
      (await store!.pool.query<{ owner: string }>('SELECT owner FROM table_leases WHERE table_id = $1 AND expires_at > clock_timestamp()', [busy.tableId])).rows[0]?.owner ?? null;
    const failovers: { takeoverMs: number; nextAckMs: number }[] = [];
    // A supervisor's warm spare: each killed instance is replaced by one started beforehand, so the kills do not wait on Node's start-up.
    const spares: Promise<Instance>[] = [spawnInstance(), spawnInstance()];
    const restarts: Promise<void>[] = [];
    const waits = { progress: 0, pool: 0, owner: 0 };
    const since = (t: number) => Date.now() - t;
    for (let k = 0; k < KILLS; k++) {
      // Mid-stream: the busy table has moved since the last kill, and at least two instances are up.
      const ackedBefore = players[0]!.acked.size + players[1]!.acked.size;
      let w = Date.now();
      await expect.poll(() => players[0]!.acked.size + players[1]!.acked.size, { timeout: 30_000, interval: 20 }).toBeGreaterThan(ackedBefore);
      waits.progress += since(w);
      w = Date.now();
      await expect.poll(() => live.size, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(2);
      waits.pool += since(w);
      w = Date.now();
      let held: string | null = null;
      await expect.poll(async () => (held = await owner()) !== null && live.has(held), { timeout: 30_000, interval: 20 }).toBe(true);
      waits.owner += since(w);
      const victim = live.get(held!)!;
      live.delete(victim.id);
      const t0 = Date.now();
      await kill9(victim.proc);
      // Restarted in the background, as a supervisor would; it joins the pool once ready.
      restarts.push(spares.shift()!.then((i) => void live.set(i.id, i)));
      if (k + spares.length < KILLS - 1) spares.push(spawnInstance());
      await expect.poll(async () => ((held = await owner()) !== null && held !== victim.id), { timeout: 30_000, interval: 10 }).toBe(true);
      const takeoverMs = Date.now() - t0;
      await expect.poll(() => [...players[0]!.ackTimes, ...players[1]!.ackTimes].some((at) => at > t0 + takeoverMs), { timeout: 30_000, interval: 10 }).toBe(true);
      const nextAckMs = Math.min(...[...players[0]!.ackTimes, ...players[1]!.ackTimes].filter((at) => at > t0 + takeoverMs)) - t0;
      failovers.push({ takeoverMs, nextAckMs });
    }
    for (const p of [...players, spectator]) p.stopped = true;
    await Promise.all(playing);
    await Promise.all(restarts);
    // Spares never used are stopped by pid in afterAll.

    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const tk = sorted(failovers.map((f) => f.takeoverMs));
    const na = sorted(failovers.map((f) => f.nextAckMs));
    console.log(
      `cluster failover over ${KILLS} SIGKILLs of the busy table's owner (lease ${LEASE_MS} ms): lease taken by another instance after median ${tk[tk.length >> 1]} ms, max ${tk[tk.length - 1]} ms; next acknowledged command after median ${na[na.length >> 1]} ms, max ${na[na.length - 1]} ms; ` +
        `${players.reduce((n, p) => n + p.acked.size, 0)} commands acknowledged, ${players.reduce((n, p) => n + p.reconnects - 1, 0)} reconnects; waited ${waits.progress} ms for progress, ${waits.pool} ms for a restarted instance, ${waits.owner} ms for the owner; takeovers ${failovers.map((f) => f.takeoverMs).join(' ')}`,
    );
    expect(tk[tk.length - 1]).toBeLessThan(LEASE_MS + 9_000);

    for (const [n, t] of made.entries()) {
      const log = await store!.readLog(t.tableId);
      // No gap: versions 1..head, each once.
      expect(log.map((r) => r.version)).toEqual(Array.from({ length: log.length }, (_, i) => i + 1));
      for (const p of [players[2 * n]!, players[2 * n + 1]!]) {
        // Every acknowledged command is in the log at the version it was acknowledged with.
        for (const [id, version] of p.acked) expect({ id, at: log[version - 1]?.commandId }).toEqual({ id, at: id });
        // Exactly once, in the order sent: each of the writer's ids appears once, and nothing it did not send.
        const mine = log.filter((r) => r.commandId?.startsWith(`${p.name}-`)).map((r) => r.commandId);
        expect(mine).toEqual(Array.from({ length: p.acked.size }, (_, i) => `${p.name}-${i}`));
      }
      // Every live instance shows the same table: the GM's view and the player's agree across instances.
      const views = new Set<string>();
      const playerViews = new Set<string>();
      for (const inst of live.values()) {
        const gm = await Client.open(inst.url, t.gm);
        const pl = await Client.open(inst.url, t.player);
        await Promise.all([gm.reach(log.length), pl.reach(log.length)]);
        expect(gm.version).toBe(log.length);
        views.add(JSON.stringify(gm.view!.world));
        playerViews.add(JSON.stringify(pl.view!.world));
        if (n === 0) expect(pl.frames.join('\n')).not.toContain('CANARY');
        await Promise.all([gm.close(), pl.close()]);
      }
      expect(views.size).toBe(1);
      expect(playerViews.size).toBe(1);
    }
    // Secrecy across instances: the busy table's player and spectator, through every reconnect, never got a GM-only byte.
    for (const p of [players[1]!, spectator]) {
      expect(p.everyFrame.length).toBeGreaterThan(0);
      expect(p.everyFrame.join('\n')).not.toContain('CANARY');
    }
  }, 240_000);
});
