// The table service: rooms (loaded on first use), capability tokens, and the
// few table operations both the HTTP routes and the sockets need. No HTTP or
// WebSocket here: callers turn the results into replies.
import type { Json, Table, Viewer } from '@tablekeeper/engine';
import { CLOSE, LIMITS, type RejectionError } from '@tablekeeper/protocol';
import { loadTableInSlices } from './cold-load.js';
import type { CommitQueue } from './commit-queue.js';
import type { Cluster } from './cluster/cluster.js';
import { DEFAULT_ROOM_LIMITS, Room, type RoomLimits } from './room.js';
import type { RulesetCatalog } from './rulesets.js';
import type { EventStore, Role, TableRecord, TokenRecord } from './store/port.js';
import { JoinCodes, readJoinCode } from './join-codes.js';
import { TokenThrottle } from './token-throttle.js';
import { hashToken, mintTableId, mintToken } from './tokens.js';

export interface ServerLimits extends RoomLimits {
  readonly maxTables: number;
  readonly maxSeatsPerTable: number;
  readonly maxSpectatorLinks: number;
  readonly maxImportBytes: number;
  /** Milliseconds a socket without a subprotocol token has to send its hello. */
  readonly authTimeoutMs: number;
  /** Sockets still waiting for their hello, server-wide; past it the longest-waiting one is closed (1013) to make room. */
  readonly maxPendingAuth: number;
  /** Of those, from one address; more from it are closed at once (1013). */
  readonly maxPendingAuthPerAddress: number;
  /** Failed token checks (unknown tokens) one address may make in a burst, and regains per second. */
  readonly tokenFailureBurst: number;
  readonly tokenFailuresPerSecond: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  ...DEFAULT_ROOM_LIMITS,
  maxTables: 1000,
  maxSeatsPerTable: 32,
  maxSpectatorLinks: 8,
  maxImportBytes: 32 * 1024 * 1024,
  authTimeoutMs: 3000,
  maxPendingAuth: 100,
  maxPendingAuthPerAddress: 8,
  tokenFailureBurst: 20,
  tokenFailuresPerSecond: 2,
};

export type TokenCheck = { readonly ok: true; readonly token: TokenRecord } | { readonly ok: false; readonly retryAfterMs: number };

export function viewerOf(t: TokenRecord): Viewer {
  return t.role === 'player' ? { role: 'player', seatId: t.seatId ?? '' } : { role: t.role };
}

export class Tables {
  readonly rooms = new Map<string, Room>();
  /** Cold loads under way: a second visitor waits for the same one. */
  private readonly loading = new Map<string, Promise<Room | null>>();
  private readonly tokenThrottle: TokenThrottle;
  /** Short codes standing for a seat's link (join-codes.ts, ADR 44), kept in the store (ADR 64). */
  readonly joinCodes: JoinCodes;
  /** The group-commit queue the server's own commands go through (set by app.ts once the queue exists). */
  queue: CommitQueue | null = null;
  /** The shared mode (ADR 60): rooms open through it (lease or replica); null on a single server. */
  cluster: Cluster | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly catalog: RulesetCatalog,
    private readonly limits: ServerLimits,
  ) {
    this.tokenThrottle = new TokenThrottle({ burst: limits.tokenFailureBurst, perSecond: limits.tokenFailuresPerSecond });
    this.joinCodes = new JoinCodes(store);
  }

  /**
   * The room of a table when it is in memory; on an embedded store a table not in memory is loaded in one go
   * (tests and tools; the server's own paths use `load`). Null when there is no such table, or on a networked store.
   */
  room(tableId: string): Room | null {
    const existing = this.rooms.get(tableId);
    if (existing) return existing;
    const sync = this.store.sync;
    const record = sync?.getTable(tableId) ?? null;
    if (sync === null || record === null) return null;
    const engine = this.catalog.engineFor(record.rulesetId);
    if (!engine) throw new Error(`table ${tableId} uses ruleset ${record.rulesetId}, which this server does not have`);
    const r = Room.load(sync, engine, record, this.limits);
    this.rooms.set(tableId, r);
    return r;
  }

  /**
   * The room of a table, loaded in slices when it is not in memory (cold-load.ts): other tables keep
   * answering while a big one loads; a second visitor waits for the same load. Null when there is no such table.
   */
  load(tableId: string): Promise<Room | null> {
    const existing = this.rooms.get(tableId);
    if (existing) return Promise.resolve(existing);
    let loading = this.loading.get(tableId);
    if (loading === undefined) {
      const cluster = this.cluster;
      loading = (cluster === null ? this.loadInSlices(tableId) : cluster.open(tableId, () => this.loadInSlices(tableId))).finally(() => this.loading.delete(tableId));
      this.loading.set(tableId, loading);
    }
    return loading;
  }

  private async loadInSlices(tableId: string): Promise<Room | null> {
    const record = await this.store.getTable(tableId);
    if (!record) return null;
    const engine = this.catalog.engineFor(record.rulesetId);
    if (!engine) throw new Error(`table ${tableId} uses ruleset ${record.rulesetId}, which this server does not have`);
    const table = await loadTableInSlices(this.store, engine, record);
    // A caller loaded it in one go meanwhile (and may have written since), or an import adopted it: that room stands.
    const head = await this.store.head(tableId);
    const raced = this.rooms.get(tableId);
    if (raced) return raced;
    if (table.transactions.length !== head) return this.loadInSlices(tableId);
    const r = Room.fromTable(this.store.sync, engine, record, table, this.limits);
    this.rooms.set(tableId, r);
    return r;
  }

  /** A room on a table already built in memory (an import that just replayed it): no cold load. */
  adopt(record: TableRecord, table: Table): Room | null {
    // The shared mode opens every room through its lease: the first visitor loads it.
    if (this.cluster !== null) return null;
    const r = Room.fromTable(this.store.sync, this.catalog.engineFor(record.rulesetId)!, record, table, this.limits);
    this.rooms.set(record.tableId, r);
    return r;
  }

  /** A token check from `address`: throttled addresses are refused before the lookup; unknown tokens count as failures. */
  async checkToken(address: string, token: string | null): Promise<TokenCheck> {
    const wait = this.tokenThrottle.waitMs(address);
    if (wait > 0) return { ok: false, retryAfterMs: wait };
    const t = await this.liveToken(token);
    if (t) return { ok: true, token: t };
    this.tokenThrottle.failed(address);
    return { ok: false, retryAfterMs: 0 };
  }

  /**
   * A typed join code from `address`: throttled like unknown tokens (an unknown
   * code counts as a failed token), one answer for every code that does not
   * work, whatever table it may once have been for. A good code is used up and
   * its seat's fresh token stored in one step of the store.
   */
  async redeemJoinCode(address: string, typed: string): Promise<{ ok: true; token: string; tableId: string; seatId: string } | { ok: false; retryAfterMs: number; message: string; malformed: boolean }> {
    const wait = Math.max(this.tokenThrottle.waitMs(address), await this.sharedJoinWait(address));
    if (wait > 0) return { ok: false, retryAfterMs: wait, message: `too many codes that did not work from this address; retry in ${wait} ms`, malformed: false };
    const read = readJoinCode(typed);
    if (!read.ok) return { ok: false, retryAfterMs: 0, message: read.message, malformed: true };
    // The table and seat are the code's: the store fills them in.
    const t = this.newToken('', 'player', null);
    const seat = await this.joinCodes.redeem(read.code, t.record);
    const room = seat === null ? null : await this.load(seat.tableId);
    if (seat === null || room === null || room.table.world.seats[seat.seatId] === undefined) {
      // A seat gone from the table keeps no link made for it.
      if (seat !== null) await this.store.revokeTokens(seat.tableId, { role: 'player', seatId: seat.seatId }, Date.now());
      this.tokenThrottle.failed(address);
      await this.chargeSharedJoinFailure(address);
      return { ok: false, retryAfterMs: 0, message: 'no seat has this code: it may be mistyped, used already or expired; ask the GM for a new one', malformed: false };
    }
    return { ok: true, token: t.token, tableId: seat.tableId, seatId: seat.seatId };
  }

  /** Milliseconds between two failures an address regains, for the shared bucket (whole, as the store keeps times). */
  private get joinStepMs(): number {
    const step = Math.ceil(1000 / this.limits.tokenFailuresPerSecond);
    return Number.isFinite(step) && step > 0 ? Math.min(step, 86_400_000) : 86_400_000;
  }

  /**
   * The shared mode (ADR 64): failed joins per address also count in the store, so guessing codes through every
   * instance in turn runs at one bucket's rate, not one per instance. The same burst and refill as the local bucket,
   * which counts these failures too: on one server it alone decides, as before.
   */
  private async sharedJoinWait(address: string, now = Date.now()): Promise<number> {
    if (this.cluster === null) return 0;
    const fullAt = await this.store.joinFailuresFullAt(address);
    return fullAt === null ? 0 : Math.max(0, Math.ceil(fullAt - now - (this.limits.tokenFailureBurst - 1) * this.joinStepMs));
  }

  private async chargeSharedJoinFailure(address: string, now = Date.now()): Promise<void> {
    if (this.cluster === null) return;
    await this.store.chargeJoinFailure(address, now, this.joinStepMs, this.limits.tokenFailureBurst * this.joinStepMs);
  }

  private async liveToken(token: string | null): Promise<TokenRecord | null> {
    if (!token || token.length > LIMITS.tokenMaxLength) return null;
    const t = await this.store.findToken(hashToken(token));
    return t && t.revokedAt === null ? t : null;
  }

  newToken(tableId: string, role: Role, seatId: string | null): { token: string; record: TokenRecord } {
    const token = mintToken();
    return { token, record: { hash: hashToken(token), tableId, role, seatId, createdAt: Date.now(), revokedAt: null } };
  }

  /** Creates a table with its GM token (the only time the token exists in clear). */
  async createTable(name: string, rulesetId: string, settings?: { [key: string]: Json }): Promise<{ tableId: string; gmToken: string } | { error: RejectionError }> {
    if (!this.catalog.engineFor(rulesetId)) return { error: { kind: 'INVALID', message: `unknown ruleset ${rulesetId}; GET /api/rulesets lists them`, path: ['rulesetId'] } };
    if ((await this.store.countTables()) >= this.limits.maxTables) return { error: { kind: 'LIMIT_REACHED', limit: 'maxTables', max: this.limits.maxTables, message: `this server holds at most ${this.limits.maxTables} tables` } };
    const tableId = mintTableId();
    const made = this.catalog.createTable(rulesetId, settings ? { tableId, name, settings } : { tableId, name });
    if (!made.ok) return { error: { kind: 'INVALID', message: made.error.message, path: (made.error.path ?? 'settings').split('.') } };
    const table = made.value;
    const gm = this.newToken(tableId, 'gm', null);
    await this.store.createTable({ tableId, name, rulesetId, genesis: table.genesis, createdAt: Date.now() }, [gm.record]);
    return { tableId, gmToken: gm.token };
  }

  /** Runs a command as the GM on behalf of an HTTP call: through the commit queue (so it never interleaves with a batch), broadcast there. */
  private gmCommand(r: Room, command: { type: string; [k: string]: string }) {
    const queue = this.queue;
    if (queue === null) throw new Error('the table service has no commit queue');
    const local = () => queue.submit(r, { role: 'gm' }, command);
    // Another instance owns the table: it decides, and this replica shows the result (its transaction) once it arrives.
    if (this.cluster?.forwards(r)) return this.cluster.forward(r, { viewer: { role: 'gm' }, commandId: null, expectedVersion: null, command }, local);
    return local();
  }

  /** Adds a player seat (an engine command, so it is in the log) and mints its token. */
  async createSeat(tableId: string, name: string): Promise<{ seatId: string; token: string } | { error: RejectionError }> {
    const r = await this.load(tableId);
    if (!r) return { error: { kind: 'INVALID', message: `no table ${tableId}`, path: ['tableId'] } };
    if (Object.keys(r.table.world.seats).length >= this.limits.maxSeatsPerTable) {
      return { error: { kind: 'LIMIT_REACHED', limit: 'maxSeatsPerTable', max: this.limits.maxSeatsPerTable, message: `a table has at most ${this.limits.maxSeatsPerTable} seats` } };
    }
    const res = await this.gmCommand(r, { type: 'seat.add', name });
    if (!res.ok) return { error: res.error };
    const added = res.transaction?.kind === 'command' ? res.transaction.events.find((e) => e.type === 'seat.added') : undefined;
    const seatId = typeof added?.['id'] === 'string' ? added['id'] : null;
    if (!seatId) return { error: { kind: 'RULE_ERROR', code: 'INTERNAL', message: 'seat.add did not report the new seat' } };
    const t = this.newToken(tableId, 'player', seatId);
    await this.store.addToken(t.record);
    return { seatId, token: t.token };
  }

  async createSpectatorLink(tableId: string): Promise<{ token: string } | { error: RejectionError }> {
    const live = (await this.store.listTokens(tableId)).filter((t) => t.role === 'spectator' && t.revokedAt === null).length;
    if (live >= this.limits.maxSpectatorLinks) {
      return { error: { kind: 'LIMIT_REACHED', limit: 'maxSpectatorLinks', max: this.limits.maxSpectatorLinks, message: `a table has at most ${this.limits.maxSpectatorLinks} live spectator links; revoke them first` } };
    }
    const t = this.newToken(tableId, 'spectator', null);
    await this.store.addToken(t.record);
    return { token: t.token };
  }

  /** Revokes matching tokens and closes their sockets; the number revoked. */
  async revoke(tableId: string, match: { role: Role; seatId?: string }, message: string): Promise<number> {
    // A seat's join code goes with its links, in the store's same transaction (ADR 64).
    const revoked = await this.store.revokeTokens(tableId, match, Date.now());
    this.rooms.get(tableId)?.revoke(new Set(revoked.map((t) => t.hash)), message, CLOSE.revoked);
    // Sockets on other instances of the shared mode close too.
    this.cluster?.revoke(tableId, revoked.map((t) => t.hash), message);
    return revoked.length;
  }

  /** Forgets a room whose memory may be ahead of the store: its sessions are closed, and the next visitor loads it afresh. */
  drop(room: Room, message: string): void {
    if (this.rooms.get(room.tableId) === room) this.rooms.delete(room.tableId);
    this.cluster?.dropped(room);
    room.closeAll(CLOSE.goingAway, message);
  }

  closeAll(): void {
    for (const r of this.rooms.values()) r.closeAll(CLOSE.goingAway, 'the server is shutting down');
  }
}
