// Group commit: commands that arrive in the same turn of the event loop (from
// any table) are decided one by one, in order, inside ONE write transaction
// (the store's commit; a networked store first reads the batch's command ids, ADR 49):
// one fsync for the lot, and it runs off the event loop (ADR 24): while the
// disk syncs, the loop reads sockets and serves other work, and commands that
// arrive meanwhile form the next batch. Nothing is broadcast or acknowledged
// before the sync; if the commit fails, every room goes back to its table
// from before the batch. Resyncs, queries and joins ride in the same queue,
// so each is answered after the commands sent before it.
import type { Command, Table, Viewer } from '@tablekeeper/engine';
import type { DeltaAck, RejectionError } from '@tablekeeper/protocol';
import type { Logger } from 'pino';
import { CLOSE } from '@tablekeeper/protocol';
import { viewerKey, type Room, type Session, type SubmitResult } from './room.js';
import type { CommandKey, EventStore, Fence } from './store/port.js';
import type { Tables } from './tables.js';

export type QueueItem =
  /** `barrier`: commands queued after it are decided in a later batch, after it ran (a join, before that session's commands). */
  | { readonly kind: 'other'; readonly run: () => void; readonly barrier?: boolean }
  | {
      readonly kind: 'command';
      readonly room: Room;
      readonly session: Session;
      readonly commandId: string;
      readonly expectedVersion: number;
      readonly command: Command;
      readonly sendJson: (msg: unknown) => void;
      readonly reject: (commandId: string | null, error: RejectionError) => void;
      /** Told how the command ended once its batch is synced, before its answer goes out (a roll's refund, ADR 33). */
      readonly settled?: (res: SubmitResult) => void;
    }
  /** A command the server sends on a viewer's behalf (an HTTP call of the GM's), decided on the version current when its batch runs. */
  | {
      readonly kind: 'system';
      readonly room: Room;
      readonly actor: Viewer;
      readonly command: Command;
      /** Told once the batch is synced and its views are out (or that it failed). */
      readonly settled: (res: SubmitResult) => void;
      /** A client's command forwarded by another instance (ADR 60): its id and version, as from a socket of ours. */
      readonly commandId?: string | null;
      readonly expectedVersion?: number | null;
    };

/** The shared mode's hooks (cluster/cluster.ts): who may write a table, and where its commits are announced. */
export interface QueueCluster {
  /** This instance's lease on the table, or null when another instance decides for it. */
  fenceOf(tableId: string): Fence | null;
  /** Announces the room's transactions after `from`, once durable. */
  announce(room: Room, from: number, commandIds: ReadonlyMap<number, string | null>): void;
}

const NO_LOOKUPS: readonly CommandKey[] = [];

export class CommitQueue {
  private queue: QueueItem[] = [];
  private scheduled = false;
  /** A batch is committed and waiting for its sync: the next one waits too, so no one sees a state that is not on disk. */
  private syncing = false;
  /** Set in the shared mode (app.ts): batches are fenced by lease, commits announced. */
  cluster: QueueCluster | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly tables: Tables,
    private readonly logger: Logger,
  ) {}

  enqueue(item: QueueItem): void {
    this.queue.push(item);
    this.schedule();
  }

  /** Decides `command` as `actor` in the next batch, on the version current then; resolves after the batch is synced and broadcast. */
  submit(room: Room, actor: Viewer, command: Command, forwarded?: { readonly commandId: string | null; readonly expectedVersion: number | null }): Promise<SubmitResult> {
    return new Promise((settled) => this.enqueue({ kind: 'system', room, actor, command, settled, ...forwarded }));
  }

  /** Runs `run` now when no batch is waiting for its sync, else after that batch's acks and broadcasts. */
  whenSettled(run: () => void): void {
    if (!this.syncing && this.queue.length === 0) run();
    else this.enqueue({ kind: 'other', run, barrier: true });
  }

  private schedule(): void {
    if (this.scheduled || this.syncing || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    // Set before the store is called: commands that arrive while this batch decides or syncs form the next one.
    this.syncing = true;
    const cut = this.queue.findIndex((it) => it.kind === 'other' && it.barrier === true);
    const items = cut < 0 ? this.queue : this.queue.slice(0, cut + 1);
    this.queue = cut < 0 ? [] : this.queue.slice(cut + 1);
    void this.run(items).finally(() => {
      this.syncing = false;
      this.schedule();
    });
  }

  private async run(items: QueueItem[]): Promise<void> {
    const before = new Map<Room, { version: number; table: Table }>();
    let results: (SubmitResult | null)[] = [];
    let durable: Promise<void> = Promise.resolve();
    // The shared mode: each table is written under this instance's lease, or not at all (another instance owns it).
    const fences = this.cluster === null ? undefined : new Map<string, Fence>();
    if (fences !== undefined) {
      for (const it of items) {
        if (it.kind === 'other' || fences.has(it.room.tableId)) continue;
        const f = this.cluster!.fenceOf(it.room.tableId);
        if (f !== null) fences.set(it.room.tableId, f);
      }
    }
    const decide = (writer: Parameters<Parameters<EventStore['commit']>[1]>[0] | null) => {
      results = items.map((it) => {
        if (it.kind === 'other') return null;
        if (it.kind === 'command' && !it.room.sessions.has(it.session)) {
          // A seat revoked while its command waited must not act.
          return { ok: false, error: { kind: 'FORBIDDEN', message: 'this connection was closed or revoked' } };
        }
        if (fences !== undefined && !fences.has(it.room.tableId)) {
          return { ok: false, error: { kind: 'UNAVAILABLE', message: 'this server no longer decides for this table; send it again with the same commandId' } };
        }
        if (!before.has(it.room)) before.set(it.room, { version: it.room.version, table: it.room.table });
        if (it.kind === 'system') return it.room.submit(it.actor, it.commandId ?? null, it.expectedVersion ?? it.room.version, it.command, writer);
        return it.room.submit(it.session.viewer, it.commandId, it.expectedVersion, it.command, writer);
      });
    };
    try {
      // Queries, resyncs and joins alone write nothing: no commit, no sync to wait for.
      // An embedded store looks ids up inside its write transaction: the keys are built for a networked one only.
      if (items.some((it) => it.kind !== 'other')) ({ durable } = await this.store.commit(this.store.sync === null ? this.lookups(items) : NO_LOOKUPS, decide, fences));
      else decide(null);
    } catch (e) {
      this.logger.error({ err: e instanceof Error ? e.message : String(e) }, 'group commit failed');
      for (const [room, b] of before) room.table = b.table;
      before.clear();
      results = items.map((it) => (it.kind !== 'other' ? { ok: false, error: { kind: 'UNAVAILABLE', message: 'the change could not be saved; nothing was applied' } } : null));
    }
    await durable.then(
      () => this.publish(items, results, before),
      (e: unknown) => this.syncFailed(items, before, e),
    ).catch((e: unknown) => {
      // A bug while publishing must not take the process (and every other table) down.
      this.logger.error({ err: e instanceof Error ? e.message : String(e) }, 'publishing a group commit failed');
    });
  }

  /** The command ids the batch will look up (a networked store reads them before it decides). */
  private lookups(items: readonly QueueItem[]): CommandKey[] {
    const keys: CommandKey[] = [];
    for (const it of items) {
      if (it.kind === 'command') keys.push({ tableId: it.room.tableId, actorKey: viewerKey(it.session.viewer), commandId: it.commandId });
      else if (it.kind === 'system' && typeof it.commandId === 'string') keys.push({ tableId: it.room.tableId, actorKey: viewerKey(it.actor), commandId: it.commandId });
    }
    return keys;
  }

  /**
   * The WAL sync failed after the commit: what the batch wrote may or may not survive a power cut. Its rooms
   * are dropped (reloaded from the store by the next visitor) and their sessions told to reconnect; a
   * retry with the same commandId is answered from the store, so nothing is applied twice.
   */
  private syncFailed(items: QueueItem[], before: Map<Room, { version: number; table: Table }>, e: unknown): void {
    this.logger.error({ err: e instanceof Error ? e.message : String(e) }, 'group commit sync failed');
    const unconfirmed = { kind: 'UNAVAILABLE', message: 'the server could not confirm this change was saved; reconnect and send it again with the same commandId' } as const;
    for (const it of items) {
      if (it.kind === 'other') it.run();
      else if (it.kind === 'system') it.settled({ ok: false, error: unconfirmed });
      else it.reject(it.commandId, unconfirmed);
    }
    for (const room of before.keys()) this.tables.drop(room, 'the server could not confirm the last changes were saved; reconnect to see the table as stored');
  }

  /** After the sync: views (with each sender's acks folded in), revocations, then the remaining acks and queued work. */
  private publish(items: QueueItem[], results: (SubmitResult | null)[], before: Map<Room, { version: number; table: Table }>): void {
    // Views first, with each sender's acks folded into its own delta; the rest are sent below.
    const acks = new Map<Session, DeltaAck[]>();
    items.forEach((it, i) => {
      const res = results[i];
      if (it.kind !== 'command' || !res?.ok || res.duplicate) return;
      const mine = acks.get(it.session) ?? [];
      mine.push({ commandId: it.commandId, version: res.version });
      acks.set(it.session, mine);
    });
    const folded = new Set<Session>();
    for (const [room, b] of before) if (room.version !== b.version) room.broadcast(acks, folded);
    // Durable now: other instances may learn of it (before any forwarded answer below, so theirs is never ahead of its view).
    if (this.cluster !== null) {
      const ids = new Map<Room, Map<number, string | null>>();
      items.forEach((it, i) => {
        const res = results[i];
        if (it.kind === 'other' || !res?.ok || res.duplicate) return;
        const m = ids.get(it.room) ?? new Map<number, string | null>();
        m.set(res.version, it.kind === 'command' ? it.commandId : (it.commandId ?? null));
        ids.set(it.room, m);
      });
      for (const [room, b] of before) if (room.version !== b.version) this.cluster.announce(room, b.version, ids.get(room) ?? new Map());
    }
    // A seat removed by a command (or by undoing its creation) takes its links with it.
    for (const [room, b] of before) {
      // Unchanged seats (nearly every command) are the same object: nothing to look through, no key list made.
      if (b.table.world.seats === room.table.world.seats) continue;
      for (const seatId of Object.keys(b.table.world.seats)) {
        if (room.table.world.seats[seatId]) continue;
        const message = 'The GM removed this seat; its link no longer works.';
        // The seat's sockets close now; its tokens are revoked in the store meanwhile (a failure leaves live tokens
        // for a seat that no longer exists, which open nothing: the acks below must still go out).
        const hashes = [...room.sessions].filter((x) => x.viewer.role === 'player' && x.viewer.seatId === seatId).map((x) => x.tokenHash);
        room.revoke(new Set(hashes), message, CLOSE.revoked);
        this.tables.revoke(room.tableId, { role: 'player', seatId }, message).catch((e: unknown) => {
          this.logger.error({ err: e instanceof Error ? e.message : String(e), tableId: room.tableId, seatId }, 'could not revoke a removed seat\'s links');
        });
      }
    }
    items.forEach((it, i) => {
      if (it.kind === 'other') return it.run();
      const res = results[i]!;
      if (it.kind === 'system') return it.settled(res);
      it.settled?.(res);
      if (!res.ok) return it.reject(it.commandId, res.error);
      if (!res.duplicate && folded.has(it.session)) return;
      it.sendJson({ type: 'ack', commandId: it.commandId, version: res.version, duplicate: res.duplicate });
    });
  }
}
