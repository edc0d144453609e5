// The NATS bus (issue 22): commits fan out on one subject per table, commands
// go to the owner by request/reply. Subjects carry server-internal data only
// (unprojected transactions): no socket is ever fed from them without the
// receiving instance's own projection (ADR 54).
import { connect, ErrorCode, type NatsConnection, type Subscription as NatsSubscription } from 'nats';
import { BusError, checkTableId, encodeMessage, OWNER_FAILED, type Bus, type Committed, type PresenceNote, type Revoked, type ForwardedCommand, type ForwardedReply, type ForwardFailure, type Subscription } from './port.js';
import { decodeCommitted, decodeForwarded, decodePresence, decodeReply, decodeRevoked } from './messages.js';

export interface NatsBusOptions {
  /** `nats://host:port` (NATS_URL). */
  readonly url: string;
  /** First subject token, so two clusters (or two test runs) on one NATS server never hear each other. */
  readonly prefix?: string;
  /** A message that could not be read or a handler that threw: logged, never thrown into NATS's loop. */
  readonly onError?: (err: unknown) => void;
  /** A name shown in NATS's monitoring (the instance). */
  readonly name?: string;
}

const PREFIX = /^[A-Za-z0-9_-]{1,32}$/;

export class NatsBus implements Bus {
  readonly kind = 'nats';
  private readonly subs = new Set<NatsSubscription>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  static async connect(opts: NatsBusOptions): Promise<NatsBus> {
    const prefix = opts.prefix ?? 'tk';
    if (!PREFIX.test(prefix)) throw new BusError('BAD_PREFIX', `bus: subject prefix ${JSON.stringify(prefix)} is not 1-32 letters, digits, "-" or "_"`);
    const nc = await connect({ servers: opts.url, name: opts.name ?? 'tablekeeper', maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    return new NatsBus(nc, prefix, opts.onError ?? (() => {}));
  }

  private subject(kind: 'commit' | 'cmd' | 'revoke' | 'presence', tableId: string): string {
    if (this.closed) throw new BusError('CLOSED', 'bus: closed');
    return `${this.prefix}.${kind}.${checkTableId(tableId)}`;
  }

  async publishCommitted(msg: Committed): Promise<void> {
    this.nc.publish(this.subject('commit', msg.tableId), encodeMessage('committed transaction', msg));
  }

  onCommitted(tableId: string, handler: (msg: Committed) => void): Subscription {
    return this.track(
      this.nc.subscribe(this.subject('commit', tableId), {
        callback: (err, m) => {
          if (err) return this.onError(err);
          try {
            handler(decodeCommitted(m.data));
          } catch (e) {
            this.onError(e);
          }
        },
      }),
    );
  }

  async publishRevoked(msg: Revoked): Promise<void> {
    this.nc.publish(this.subject('revoke', msg.tableId), encodeMessage('revocation', msg));
  }

  onRevoked(tableId: string, handler: (msg: Revoked) => void): Subscription {
    return this.track(
      this.nc.subscribe(this.subject('revoke', tableId), {
        callback: (err, m) => {
          if (err) return this.onError(err);
          try {
            handler(decodeRevoked(m.data));
          } catch (e) {
            this.onError(e);
          }
        },
      }),
    );
  }

  async publishPresence(msg: PresenceNote): Promise<void> {
    this.nc.publish(this.subject('presence', msg.tableId), encodeMessage('presence', msg));
  }

  onPresence(tableId: string, handler: (msg: PresenceNote) => void): Subscription {
    return this.track(
      this.nc.subscribe(this.subject('presence', tableId), {
        callback: (err, m) => {
          if (err) return this.onError(err);
          try {
            handler(decodePresence(m.data));
          } catch (e) {
            this.onError(e);
          }
        },
      }),
    );
  }

  serveCommands(tableId: string, handler: (req: ForwardedCommand) => Promise<ForwardedReply>): Subscription {
    return this.track(
      this.nc.subscribe(this.subject('cmd', tableId), {
        callback: (err, m) => {
          if (err) return this.onError(err);
          void (async () => {
            let reply: ForwardedReply;
            try {
              reply = await handler(decodeForwarded(m.data));
            } catch (e) {
              this.onError(e);
              // The sender's client gets what a local failure would give: no detail from this instance.
              reply = OWNER_FAILED;
            }
            m.respond(encodeMessage('owner reply', reply));
          })();
        },
      }),
    );
  }

  async forwardCommand(req: ForwardedCommand, timeoutMs: number): Promise<ForwardedReply | ForwardFailure> {
    const subject = this.subject('cmd', req.tableId);
    try {
      const m = await this.nc.request(subject, encodeMessage('forwarded command', req), { timeout: timeoutMs });
      return decodeReply(m.data);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === ErrorCode.NoResponders) return { ok: false, bus: 'no-owner' };
      if (code === ErrorCode.Timeout) return { ok: false, bus: 'timeout' };
      throw e;
    }
  }

  private track(s: NatsSubscription): Subscription {
    this.subs.add(s);
    return {
      unsubscribe: () => {
        if (!this.subs.delete(s)) return;
        s.unsubscribe();
      },
    };
  }

  async ready(): Promise<void> {
    if (this.closed) throw new BusError('CLOSED', 'bus: closed');
    await this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subs.clear();
    // drain: what we published and what our subscriptions already received are handled first.
    await this.nc.drain();
  }
}
