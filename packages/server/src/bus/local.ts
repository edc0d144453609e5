// The in-process bus: one process, many "instances" (tests, and the single
// server, which needs no bus at all). It goes through the same encode/decode as
// NATS, so a message that would not survive the wire fails here too.
import { BusError, checkTableId, encodeMessage, OWNER_FAILED, type Bus, type Committed, type PresenceNote, type Revoked, type ForwardedCommand, type ForwardedReply, type ForwardFailure, type Subscription } from './port.js';
import { decodeCommitted, decodeForwarded, decodePresence, decodeReply, decodeRevoked } from './messages.js';

type Server = (req: ForwardedCommand) => Promise<ForwardedReply>;

/** What every LocalBus attached to one hub shares: the subscriptions (the "broker"). */
export class LocalHub {
  readonly followers = new Map<string, Set<(bytes: Uint8Array) => void>>();
  readonly revocations = new Map<string, Set<(bytes: Uint8Array) => void>>();
  readonly presence = new Map<string, Set<(bytes: Uint8Array) => void>>();
  readonly servers = new Map<string, Server[]>();
}

export class LocalBus implements Bus {
  readonly kind = 'local';
  private closed = false;
  private readonly mine = new Set<Subscription>();

  constructor(
    private readonly hub: LocalHub = new LocalHub(),
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  private live(): void {
    if (this.closed) throw new BusError('CLOSED', 'bus: closed');
  }

  async publishCommitted(msg: Committed): Promise<void> {
    this.live();
    const bytes = encodeMessage('committed transaction', msg);
    for (const deliver of [...(this.hub.followers.get(checkTableId(msg.tableId)) ?? [])]) queueMicrotask(() => deliver(bytes));
  }

  onCommitted(tableId: string, handler: (msg: Committed) => void): Subscription {
    this.live();
    const key = checkTableId(tableId);
    const deliver = (bytes: Uint8Array) => {
      try {
        handler(decodeCommitted(bytes));
      } catch (e) {
        this.onError(e);
      }
    };
    const set = this.hub.followers.get(key) ?? new Set();
    set.add(deliver);
    this.hub.followers.set(key, set);
    return this.track(() => set.delete(deliver));
  }

  async publishRevoked(msg: Revoked): Promise<void> {
    this.live();
    const bytes = encodeMessage('revocation', msg);
    for (const deliver of [...(this.hub.revocations.get(checkTableId(msg.tableId)) ?? [])]) queueMicrotask(() => deliver(bytes));
  }

  onRevoked(tableId: string, handler: (msg: Revoked) => void): Subscription {
    this.live();
    const key = checkTableId(tableId);
    const deliver = (bytes: Uint8Array) => {
      try {
        handler(decodeRevoked(bytes));
      } catch (e) {
        this.onError(e);
      }
    };
    const set = this.hub.revocations.get(key) ?? new Set();
    set.add(deliver);
    this.hub.revocations.set(key, set);
    return this.track(() => set.delete(deliver));
  }

  async publishPresence(msg: PresenceNote): Promise<void> {
    this.live();
    const bytes = encodeMessage('presence', msg);
    for (const deliver of [...(this.hub.presence.get(checkTableId(msg.tableId)) ?? [])]) queueMicrotask(() => deliver(bytes));
  }

  onPresence(tableId: string, handler: (msg: PresenceNote) => void): Subscription {
    this.live();
    const key = checkTableId(tableId);
    const deliver = (bytes: Uint8Array) => {
      try {
        handler(decodePresence(bytes));
      } catch (e) {
        this.onError(e);
      }
    };
    const set = this.hub.presence.get(key) ?? new Set();
    set.add(deliver);
    this.hub.presence.set(key, set);
    return this.track(() => set.delete(deliver));
  }

  serveCommands(tableId: string, handler: Server): Subscription {
    this.live();
    const key = checkTableId(tableId);
    const list = this.hub.servers.get(key) ?? [];
    list.push(handler);
    this.hub.servers.set(key, list);
    return this.track(() => {
      const i = list.indexOf(handler);
      if (i >= 0) list.splice(i, 1);
    });
  }

  async forwardCommand(req: ForwardedCommand, timeoutMs: number): Promise<ForwardedReply | ForwardFailure> {
    this.live();
    const bytes = encodeMessage('forwarded command', req);
    const server = this.hub.servers.get(checkTableId(req.tableId))?.[0];
    if (server === undefined) return { ok: false, bus: 'no-owner' };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ForwardFailure>((resolve) => (timer = setTimeout(() => resolve({ ok: false, bus: 'timeout' }), timeoutMs)));
    try {
      const answer = server(decodeForwarded(bytes)).then(
        (r) => decodeReply(encodeMessage('owner reply', r)),
        (e: unknown) => {
          this.onError(e);
          // As over NATS: the sender learns nothing of the owner's failure but that it failed.
          return OWNER_FAILED;
        },
      );
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private track(stop: () => void): Subscription {
    let done = false;
    const sub: Subscription = {
      unsubscribe: () => {
        if (done) return;
        done = true;
        stop();
        this.mine.delete(sub);
      },
    };
    this.mine.add(sub);
    return sub;
  }

  async ready(): Promise<void> {
    this.live();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const s of [...this.mine]) s.unsubscribe();
    this.closed = true;
  }
}
