// The shared mode's wiring (issue 22, ADR 60): several instances over one
// PostgreSQL store and one bus. For every table an instance has open, it is
// either the owner (it holds the table's lease, decides commands through its
// commit queue, announces each durable commit and serves forwarded commands)
// or a follower (its room is a replica fed by the announcements, gaps read
// from the store; it projects for its own sockets and forwards their commands
// to the owner). Leases are renewed on a timer; a follower takes a lapsed
// lease, replays what it lacks from the store and serves from then on.
import type { Command, Transaction, Viewer } from '@tablekeeper/engine';
import { parseClientMessage, type RejectionError } from '@tablekeeper/protocol';
import type { Logger } from 'pino';
import type { Bus, Committed, ForwardedCommand, ForwardedReply, Subscription } from '../bus/port.js';
import type { Room, SubmitResult } from '../room.js';
import type { EventStore, Fence } from '../store/port.js';
import type { Lease, LeaseStore } from './lease.js';

export interface ClusterOptions {
  readonly bus: Bus;
  readonly leases: LeaseStore;
  /** This instance's name in the lease table (unique per process). */
  readonly instanceId: string;
  /** How long a lease lasts unless renewed: a dead owner's tables wait at most about this long. Default 3000 ms. */
  readonly leaseMs?: number;
  /** How often leases are renewed and lapsed ones taken. Default a third of leaseMs. */
  readonly tickMs?: number;
  /** How long one forward waits for the owner's answer before it is sent again (same commandId). Default 3000 ms. */
  readonly forwardTimeoutMs?: number;
  /** How long a command keeps looking for an owner (one dying, another taking over) before it is refused. Default 2 * leaseMs + 2000. */
  readonly failoverWaitMs?: number;
}

/** What the cluster needs of the rest of the server (wired by app.ts). */
export interface ClusterHost {
  readonly store: EventStore;
  readonly logger: Logger;
  /** Decides a command on this instance (the owner) through its commit queue. */
  submit(room: Room, actor: Viewer, command: Command, commandId: string | null, expectedVersion: number | null): Promise<SubmitResult>;
  /** Sends the sessions of a room that followed the change from `before` (views, removed seats). */
  followed(room: Room, beforeSeats: readonly string[]): void;
  /** Closes this instance's sessions holding links another instance revoked. */
  revoked(room: Room, hashes: ReadonlySet<string>, message: string): void;
}

type Role = { readonly kind: 'owner'; lease: Lease; readonly serving: Subscription } | { readonly kind: 'follower' } | { readonly kind: 'promoting' };

interface Entry {
  readonly tableId: string;
  room: Room | null;
  role: Role;
  commits: Subscription | null;
  revocations: Subscription | null;
  presence: Subscription | null;
  /** When each other instance last told its presence here (a silent one is dropped after a few rounds). */
  readonly heard: Map<string, number>;
  /** Our presence as last told (JSON). */
  told: string;
  /** Commits, catch-ups and promotions of this table run one after another. */
  chain: Promise<void>;
  /** Forwarded commands waiting for their version to show on this replica. */
  readonly waiters: { version: number; resolve: () => void }[];
  closed: boolean;
}

const NOBODY = { gm: false, seats: [] as string[], spectators: 0 };
const NOBODY_JSON = JSON.stringify(NOBODY);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const UNAVAILABLE = (message: string): RejectionError => ({ kind: 'UNAVAILABLE', message });

export class Cluster {
  readonly instanceId: string;
  private readonly entries = new Map<string, Entry>();
  private readonly leaseMs: number;
  private readonly tickMs: number;
  private readonly forwardTimeoutMs: number;
  private readonly failoverWaitMs: number;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private closed = false;
  /** Takeovers seen by this instance (a lapsed lease taken), for logs and tests. */
  readonly takeovers: { tableId: string; epoch: number; at: number }[] = [];

  constructor(
    private readonly o: ClusterOptions,
    private readonly host: ClusterHost,
  ) {
    this.instanceId = o.instanceId;
    this.leaseMs = o.leaseMs ?? 3000;
    this.tickMs = o.tickMs ?? Math.max(50, Math.floor(this.leaseMs / 3));
    this.forwardTimeoutMs = o.forwardTimeoutMs ?? 3000;
    this.failoverWaitMs = o.failoverWaitMs ?? 2 * this.leaseMs + 2000;
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
  }

  /**
   * Opens a table on this instance: follows its commits first (so none is missed), takes its lease when free,
   * then loads the room from the store (everything a previous owner wrote is there: fencing, ADR 60).
   */
  async open(tableId: string, load: () => Promise<Room | null>): Promise<Room | null> {
    if (this.closed) throw new Error('the cluster is shutting down');
    const old = this.entries.get(tableId);
    if (old !== undefined) this.forget(old);
    let ready!: () => void;
    const entry: Entry = { tableId, room: null, role: { kind: 'follower' }, commits: null, revocations: null, presence: null, heard: new Map(), told: NOBODY_JSON, chain: new Promise<void>((r) => (ready = r)), waiters: [], closed: false };
    this.entries.set(tableId, entry);
    entry.commits = this.o.bus.onCommitted(tableId, (m) => this.onCommit(entry, m));
    entry.revocations = this.o.bus.onRevoked(tableId, (m) => {
      if (entry.room !== null && !entry.closed) this.host.revoked(entry.room, new Set(m.hashes), m.message);
    });
    entry.presence = this.o.bus.onPresence(tableId, (m) => {
      if (m.instanceId === this.instanceId || entry.room === null || entry.closed) return;
      entry.heard.set(m.instanceId, Date.now());
      entry.room.setRemotePresence(m.instanceId, { gm: m.gm, seats: m.seats, spectators: m.spectators });
    });
    try {
      await this.o.bus.ready();
      const lease = await this.o.leases.acquire(tableId, this.instanceId, this.leaseMs);
      const room = await load();
      if (room === null || entry.closed) {
        if (lease !== null) await this.o.leases.release(lease).catch(() => undefined);
        this.forget(entry);
        return room;
      }
      entry.room = room;
      room.onPresence = () => this.tellPresence(entry, false);
      if (lease !== null) this.serve(entry, lease);
      ready();
      return room;
    } catch (e) {
      this.forget(entry);
      ready();
      throw e;
    }
  }

  /** A room this instance no longer keeps (dropped after a failed commit): stop following; its lease lapses or is taken again by the reload. */
  dropped(room: Room): void {
    const entry = this.entries.get(room.tableId);
    if (entry !== undefined && entry.room === room) this.forget(entry);
  }

  /** The lease this instance writes the table under, or null when it does not own it (the queue then refuses to decide for it). */
  fenceOf(tableId: string): Fence | null {
    const e = this.entries.get(tableId);
    return e !== undefined && e.role.kind === 'owner' ? { owner: e.role.lease.owner, epoch: e.role.lease.epoch } : null;
  }

  /** True when a command for this room must go to another instance. */
  forwards(room: Room): boolean {
    const e = this.entries.get(room.tableId);
    return e === undefined || e.room !== room || e.role.kind !== 'owner';
  }

  /** Tells other instances who is connected here: when it changed, and (`heartbeat`) every round while anyone is. */
  private tellPresence(entry: Entry, heartbeat: boolean): void {
    const room = entry.room;
    if (room === null || entry.closed || this.closed) return;
    const p = room.localPresence();
    const json = JSON.stringify(p);
    if (json === entry.told && !(heartbeat && json !== NOBODY_JSON)) return;
    entry.told = json;
    this.o.bus.publishPresence({ tableId: entry.tableId, instanceId: this.instanceId, ...p }).catch(() => undefined);
  }

  /** Links of a table revoked here (already refused by the store): every other instance closes its sockets holding them. */
  revoke(tableId: string, hashes: readonly string[], message: string): void {
    if (hashes.length === 0 || this.closed) return;
    this.o.bus.publishRevoked({ tableId, hashes, message }).catch((err: unknown) => {
      this.host.logger.error({ err: err instanceof Error ? err.message : String(err), tableId }, 'could not tell other instances of a revocation');
    });
  }

  /** Owner: announces the room's transactions after `from` (called once their commit is durable, never before). */
  announce(room: Room, from: number, commandIds: ReadonlyMap<number, string | null>): void {
    const e = this.entries.get(room.tableId);
    if (e === undefined || e.role.kind !== 'owner') return;
    for (let v = from + 1; v <= room.version; v++) {
      const tx = room.table.transactions.at(v - 1)!;
      const actorKey = tx.actor.role === 'player' ? `player:${tx.actor.seatId}` : tx.actor.role;
      this.o.bus.publishCommitted({ tableId: room.tableId, version: v, commandId: commandIds.get(v) ?? null, actorKey, tx: JSON.stringify(tx) }).catch((err: unknown) => {
        // A lost announcement costs followers a read of the store at the next commit (a gap), nothing more.
        this.host.logger.warn({ err: err instanceof Error ? err.message : String(err), tableId: room.tableId, version: v }, 'could not announce a commit');
      });
    }
  }

  /**
   * Sends a command of a follower's client to the owner and waits for the owner's answer, looking for a new owner
   * (or taking the lease itself) while the old one is gone. `local` decides it here when this instance became the owner.
   * Resolves once the answer's version shows on this replica, so the client's ack never runs ahead of its view.
   */
  async forward(room: Room, req: Omit<ForwardedCommand, 'tableId'>, local: () => Promise<SubmitResult>): Promise<SubmitResult> {
    const deadline = Date.now() + this.failoverWaitMs;
    const msg: ForwardedCommand = { tableId: room.tableId, ...req };
    for (;;) {
      const e = this.entries.get(room.tableId);
      if (e === undefined || e.room !== room || this.closed) return { ok: false, error: UNAVAILABLE('this connection\'s table was reloaded; reconnect and send it again with the same commandId') };
      if (e.role.kind === 'owner') return local();
      if (e.role.kind === 'follower') {
        let reply: Awaited<ReturnType<Bus['forwardCommand']>>;
        try {
          reply = await this.o.bus.forwardCommand(msg, this.forwardTimeoutMs);
        } catch (err) {
          this.host.logger.warn({ err: err instanceof Error ? err.message : String(err), tableId: room.tableId }, 'forwarding a command failed');
          reply = { ok: false, bus: 'timeout' };
        }
        if ('bus' in reply) {
          // Nobody serves it: the owner died or let go. Take the lease if it has lapsed, else wait for it to.
          if (reply.bus === 'no-owner') await this.tryTakeover(e);
        } else if (!reply.ok) {
          return { ok: false, error: reply.error };
        } else {
          await this.caughtUp(e, reply.version);
          const tx = room.table.transactions.at(reply.version - 1);
          return { ok: true, version: reply.version, duplicate: reply.duplicate, ...(tx === undefined ? {} : { transaction: tx }) };
        }
      }
      if (Date.now() > deadline) return { ok: false, error: UNAVAILABLE(`no server took this table within ${this.failoverWaitMs} ms; send it again with the same commandId`) };
      await sleep(100);
    }
  }

  /** The owner's side of a forward: validated as if from its own socket, decided through its queue. */
  private async answer(entry: Entry, req: ForwardedCommand): Promise<ForwardedReply> {
    const room = entry.room;
    if (room === null || entry.role.kind !== 'owner') return { ok: false, error: UNAVAILABLE('this server no longer owns the table; send it again with the same commandId') };
    let command: Command;
    if (req.commandId !== null) {
      const parsed = parseClientMessage({ type: 'command', commandId: req.commandId, expectedVersion: req.expectedVersion ?? room.version, command: req.command });
      if (!parsed.success || parsed.data.type !== 'command') {
        const issue = parsed.success ? undefined : parsed.error.issues[0];
        return { ok: false, error: { kind: 'INVALID', message: issue?.message ?? 'invalid command', path: (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p))) } };
      }
      command = parsed.data.command;
    } else {
      // The server's own commands (an HTTP call of the GM's on another instance), built by trusted code.
      if (req.viewer.role !== 'gm') return { ok: false, error: { kind: 'FORBIDDEN', message: 'only the GM\'s server calls are forwarded without a commandId' } };
      command = req.command as Command;
    }
    const res = await this.host.submit(room, req.viewer, command, req.commandId, req.expectedVersion);
    return res.ok ? { ok: true, version: res.version, duplicate: res.duplicate } : { ok: false, error: res.error };
  }

  private serve(entry: Entry, lease: Lease): void {
    const serving = this.o.bus.serveCommands(entry.tableId, (req) => this.answer(entry, req));
    entry.role = { kind: 'owner', lease, serving };
    this.host.logger.info({ tableId: entry.tableId, epoch: lease.epoch, instance: this.instanceId }, 'serving a table');
  }

  private onCommit(entry: Entry, m: Committed): void {
    entry.chain = entry.chain.then(() => this.apply(entry, m.version, JSON.parse(m.tx) as Transaction)).catch((err: unknown) => {
      this.host.logger.error({ err: err instanceof Error ? err.message : String(err), tableId: entry.tableId }, 'following a commit failed');
    });
  }

  /** Applies one announced transaction, reading the missing ones from the store first when there is a gap. */
  private async apply(entry: Entry, version: number, tx: Transaction): Promise<void> {
    const room = entry.room;
    if (room === null || entry.closed) return;
    const seats = Object.keys(room.table.world.seats);
    const before = room.version;
    if (room.follow(version, tx) === 'gap') {
      await this.readStore(entry, room);
      room.follow(version, tx);
    }
    if (room.version !== before) this.host.followed(room, seats);
    this.wake(entry);
  }

  /** Brings a replica up to the store's head (a lost announcement, a promotion). */
  private async readStore(entry: Entry, room: Room): Promise<boolean> {
    const rows = await this.host.store.readLog(entry.tableId, room.version);
    let moved = false;
    for (const r of rows) if (room.follow(r.version, r.transaction) === 'applied') moved = true;
    return moved;
  }

  private async catchUp(entry: Entry): Promise<void> {
    const room = entry.room;
    if (room === null || entry.closed) return;
    const seats = Object.keys(room.table.world.seats);
    if (await this.readStore(entry, room)) this.host.followed(room, seats);
    this.wake(entry);
  }

  private wake(entry: Entry): void {
    const v = entry.room?.version ?? 0;
    for (let i = entry.waiters.length - 1; i >= 0; i--) {
      const w = entry.waiters[i]!;
      if (w.version <= v) {
        entry.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  /** Waits until the replica holds `version`: the announcement normally brings it; if it was lost, the store does. */
  private async caughtUp(entry: Entry, version: number): Promise<void> {
    for (let attempt = 0; attempt < 20 && (entry.room?.version ?? version) < version && !entry.closed; attempt++) {
      await Promise.race([new Promise<void>((resolve) => entry.waiters.push({ version, resolve })), sleep(attempt === 0 ? 500 : 250)]);
      if ((entry.room?.version ?? version) < version) {
        entry.chain = entry.chain.then(() => this.catchUp(entry));
        await entry.chain;
      }
    }
  }

  /** A follower takes a lapsed (or released) lease: it reads what it lacks from the store, then serves. */
  private async tryTakeover(entry: Entry): Promise<void> {
    if (entry.role.kind !== 'follower' || entry.room === null || entry.closed || this.closed) return;
    const lease = await this.o.leases.acquire(entry.tableId, this.instanceId, this.leaseMs);
    if (lease === null) return;
    if (entry.role.kind !== 'follower' || entry.closed) return;
    entry.role = { kind: 'promoting' };
    // Fencing: from this moment no earlier owner can write, so the store's head is the table's.
    entry.chain = entry.chain.then(async () => {
      await this.catchUp(entry);
      if (entry.closed || entry.role.kind !== 'promoting') return;
      this.takeovers.push({ tableId: entry.tableId, epoch: lease.epoch, at: Date.now() });
      this.host.logger.warn({ tableId: entry.tableId, epoch: lease.epoch, instance: this.instanceId }, 'took over a table whose owner stopped renewing');
      this.serve(entry, lease);
    });
    await entry.chain.catch(() => undefined);
    if (entry.role.kind === 'promoting') entry.role = { kind: 'follower' };
  }

  /**
   * Renews this instance's leases and takes lapsed ones of tables it follows: one query renews every table it owns,
   * one more finds which followed tables are free (ADR 64), so a round costs two queries, not one per table.
   */
  private async tick(): Promise<void> {
    if (this.ticking || this.closed) return;
    this.ticking = true;
    try {
      const owned: { entry: Entry; role: Extract<Role, { kind: 'owner' }> }[] = [];
      const followed: Entry[] = [];
      for (const entry of [...this.entries.values()]) {
        if (entry.room === null || entry.closed) continue;
        this.tellPresence(entry, true);
        // An instance that stopped telling (killed) no longer counts anyone as online.
        for (const [instance, at] of entry.heard) {
          if (Date.now() - at <= 3 * this.tickMs + 1000) continue;
          entry.heard.delete(instance);
          entry.room.setRemotePresence(instance, null);
        }
        const role = entry.role;
        if (role.kind === 'owner') owned.push({ entry, role });
        else if (role.kind === 'follower') followed.push(entry);
      }
      if (owned.length > 0) {
        try {
          const renewed = await this.o.leases.renewAll(owned.map((o) => o.role.lease), this.leaseMs);
          for (const { entry, role } of owned) {
            const lease = renewed.get(entry.tableId);
            if (lease !== undefined) role.lease = lease;
            // Not when the lease was given up meanwhile (shutdown, a dropped room).
            else if (entry.role === role && !entry.closed && !this.closed) this.lost(entry);
          }
        } catch (err) {
          this.host.logger.warn({ err: err instanceof Error ? err.message : String(err), tables: owned.length }, 'lease renewal failed');
        }
      }
      if (followed.length > 0) {
        const failed = (err: unknown, tables: number) => this.host.logger.warn({ err: err instanceof Error ? err.message : String(err), tables }, 'lease takeover failed');
        const free = await this.o.leases.free(followed.map((e) => e.tableId)).catch((err: unknown) => (failed(err, followed.length), new Set<string>()));
        for (const entry of followed) if (free.has(entry.tableId)) await this.tryTakeover(entry).catch((err: unknown) => failed(err, 1));
      }
    } finally {
      this.ticking = false;
    }
  }

  /** The lease lapsed and another may hold it: stop deciding; the room stays as a replica (it holds only what was durable). */
  private lost(entry: Entry): void {
    if (entry.role.kind === 'owner') entry.role.serving.unsubscribe();
    entry.role = { kind: 'follower' };
    this.host.logger.warn({ tableId: entry.tableId, instance: this.instanceId }, 'lost a table\'s lease; following it now');
  }

  private forget(entry: Entry): void {
    entry.closed = true;
    if (entry.role.kind === 'owner') entry.role.serving.unsubscribe();
    entry.commits?.unsubscribe();
    entry.revocations?.unsubscribe();
    entry.presence?.unsubscribe();
    if (entry.room !== null) entry.room.onPresence = null;
    for (const w of entry.waiters.splice(0)) w.resolve();
    if (this.entries.get(entry.tableId) === entry) this.entries.delete(entry.tableId);
  }

  /** Shutdown: stops serving, gives every lease up (another instance need not wait for it to lapse), closes the bus. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const leases: Lease[] = [];
    for (const e of [...this.entries.values()]) {
      // Our sockets are gone: the others stop counting them at once.
      if (e.told !== NOBODY_JSON) await this.o.bus.publishPresence({ tableId: e.tableId, instanceId: this.instanceId, ...NOBODY }).catch(() => undefined);
      if (e.role.kind === 'owner') leases.push(e.role.lease);
      this.forget(e);
    }
    await Promise.all(leases.map((l) => this.o.leases.release(l).catch(() => undefined)));
    await this.o.bus.close();
  }
}
