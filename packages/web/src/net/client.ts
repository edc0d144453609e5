// The WebSocket client: connects with the capability from the URL fragment,
// keeps the latest per-viewer view, resyncs from its last version after a
// reconnect, and sends commands with a commandId (so a retry is applied once)
// and the expectedVersion it saw (so a stale screen gets VERSION_CONFLICT, not
// a surprise). All wire shapes are confined to codec.ts.
import { signal, type Signal } from '@preact/signals';
import { decodeServer, encodeCommand, encodeQuery, encodeResync, wsProtocols, type ServerMsg, type Rejection, type ClientCommand, type QueryAnswer } from './codec.ts';
import type { ViewState } from './view.ts';
import { NAMED_BY, RELATIVE_COMMANDS } from './relative-commands.ts';
import { setServerClock } from '../lib/timer.ts';
import { shareQueries } from '../lib/shareQueries.ts';
import type { Json, Viewer } from '@tablekeeper/engine';

export type ConnStatus = 'idle' | 'connecting' | 'open' | 'closed';
export type Capability = { readonly role: 'gm' | 'player' | 'spectator'; readonly token: string };

export type SendResult = { readonly ok: true; readonly version: number } | { readonly ok: false; readonly rejection: Rejection };

export interface ClientOptions {
  readonly url: string;
  readonly capability: Capability;
  /** Injected for tests; defaults to the browser's WebSocket. */
  readonly WebSocketImpl?: typeof WebSocket;
  /** Reconnect backoff cap in ms. */
  readonly maxBackoffMs?: number;
  readonly newId?: () => string;
}

interface Pending {
  readonly resolve: (r: SendResult) => void;
  readonly command: ClientCommand;
  frame: string;
  /** Times the server refused it only because another command landed first. */
  conflicts: number;
  /** Set while a refused command waits for the view to reach the table's version before it goes again. */
  waitFor: number | null;
  /** Set while it waits for this client's earlier commands (their ids), unsent: see `send`. */
  behind: Set<string> | null;
  /** The newest version those earlier commands landed at: the version it is sent against. */
  basis: number;
}

/** How often one command is sent again after "someone changed the table first". */
export const MAX_CONFLICT_RETRIES = 3;

/**
 * Commands whose meaning is "whatever is current" (undo the last change, end
 * the turn now running), as the catalogue declares them (`relative`, ADR 47):
 * after another command lands first they would act on something the person did
 * not see, so a conflict is shown rather than retried. Every other command
 * names what it acts on, and the rules check it again; so does a relative one
 * that names it in its declared field (an End turn naming its turn, ADR 58).
 * (After this client's own earlier commands they wait instead: see `send`, ADR 46.)
 */
const STATE_RELATIVE = new Set(RELATIVE_COMMANDS);

/** Whether a command may go again, unchanged, on top of a change someone else made first. */
export function rebasable(command: ClientCommand): boolean {
  if (!STATE_RELATIVE.has(command.type)) return true;
  const field = Object.hasOwn(NAMED_BY, command.type) ? NAMED_BY[command.type] : undefined;
  return field !== undefined && command[field] !== undefined;
}

/** Commands waiting for an answer; past this the client refuses new ones (named limit). */
export const MAX_PENDING_COMMANDS = 64;

/** How often a query refused by the budget is asked again, and the longest wait before one. */
const QUERY_RETRIES = 4;
const MAX_QUERY_WAIT_MS = 5_000;

export class TableClient {
  readonly status: Signal<ConnStatus> = signal('idle');
  readonly view: Signal<ViewState | null> = signal(null);
  readonly lastRejection: Signal<Rejection | null> = signal(null);
  readonly closeReason: Signal<string | null> = signal(null);
  /** Why the GM took this link back (a removed seat, revoked spectator links): the page then shows only that, never a frozen table. */
  readonly revoked: Signal<string | null> = signal(null);
  readonly tableId: Signal<string | null> = signal(null);
  /** Who the server says we are (a player learns their seat id here). */
  readonly viewer: Signal<Viewer | null> = signal(null);
  private ws: WebSocket | null = null;
  private readonly pending = new Map<string, Pending>();
  /** Questions waiting for their answer; a closed socket answers them all with OFFLINE. */
  private readonly queries = new Map<string, (a: QueryAnswer) => void>();
  private backoff = 250;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private counter = 0;

  constructor(private readonly opts: ClientOptions) {}

  get version(): number {
    return this.view.value?.version ?? -1;
  }

  connect(): void {
    this.stopped = false;
    const Impl = this.opts.WebSocketImpl ?? WebSocket;
    this.status.value = 'connecting';
    // The token rides in the subprotocol list: authenticated before the upgrade, never in a URL.
    const ws = new Impl(this.opts.url, wsProtocols(this.opts.capability.token));
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 250;
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return;
      const msg = decodeServer(ev.data);
      if (msg) this.handle(msg);
    };
    ws.onclose = (ev: { readonly code: number; readonly reason: string }) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.status.value = 'closed';
      this.closeReason.value = ev.reason || null;
      for (const resolve of this.queries.values()) resolve({ ok: false, error: { code: 'OFFLINE', message: 'the connection closed before the answer came' } });
      this.queries.clear();
      // 4xxx closes are the server refusing us (revoked seat, bad token): retrying will not help.
      if (this.stopped || (ev.code >= 4400 && ev.code < 4500 && ev.code !== 4429)) return;
      this.timer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, this.opts.maxBackoffMs ?? 5000);
    };
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close(1000, 'bye');
    this.ws = null;
    this.status.value = 'closed';
  }

  /** Send one command; resolves when the server accepts or rejects it. */
  send(command: ClientCommand): Promise<SendResult> {
    if (this.pending.size >= MAX_PENDING_COMMANDS) {
      const rejection: Rejection = { code: 'LOCAL', message: `more than ${MAX_PENDING_COMMANDS} commands are waiting for the server` };
      this.lastRejection.value = rejection;
      return Promise.resolve({ ok: false, rejection });
    }
    const commandId = this.opts.newId ? this.opts.newId() : newCommandId(++this.counter);
    const frame = encodeCommand(commandId, this.version, command);
    // A second press of U or N faster than a round trip was made on top of the first, not on a stale
    // screen: a "whatever is current" command waits for this client's own unanswered commands and goes on
    // the version they land at, so the rules judge it (U undoes one more step; N names the turn it saw and
    // is refused as over, ADR 53) instead of "someone changed the table first". Anything else waits only
    // behind such a waiting command, to keep the order given. A change by someone else still refuses it.
    const earlier = [...this.pending].filter(([, p]) => !rebasable(command) || p.behind !== null).map(([id]) => id);
    return new Promise<SendResult>((resolve) => {
      this.pending.set(commandId, { resolve, command, frame, conflicts: 0, waitFor: null, behind: earlier.length > 0 ? new Set(earlier) : null, basis: -1 });
      if (earlier.length === 0 && this.ws && this.ws.readyState === 1 && this.status.value === 'open') this.ws.send(frame);
      // Otherwise it is sent after the next (re)sync or once the commands before it are answered; the commandId makes that retry safe.
    });
  }

  /**
   * Ask a module query (e.g. 'countdown.odds', an attack's odds). The server answers on this
   * viewer's own view; while offline the answer is an OFFLINE error rather than a wait. Each
   * query is asked once per table version, whichever panels ask it (lib/shareQueries.ts).
   */
  readonly query = shareQueries<QueryAnswer>(
    (name, args) => this.askRetrying(name, args as { readonly [k: string]: Json }),
    () => this.version,
    (a) => a.ok || !['OFFLINE', 'LOCAL', 'RATE_LIMITED', 'UNAVAILABLE'].includes(a.error.code),
  ) as (name: string, args?: { readonly [k: string]: Json }) => Promise<QueryAnswer>;

  private async askRetrying(name: string, args: { readonly [k: string]: Json } = {}): Promise<QueryAnswer> {
    // The server's query budget says when the next ask fits: wait that long and ask again (a few
    // times, at most a few seconds each), so a person sees the odds rather than "retry in 83 ms".
    for (let attempt = 0; ; attempt++) {
      const answer = await this.askOnce(name, args);
      const wait = answer.ok || answer.error.code !== 'RATE_LIMITED' ? undefined : answer.error.retryAfterMs;
      if (wait === undefined || attempt >= QUERY_RETRIES) return answer;
      await new Promise((r) => setTimeout(r, Math.min(Math.max(wait, 10), MAX_QUERY_WAIT_MS)));
    }
  }

  private askOnce(name: string, args: { readonly [k: string]: Json }): Promise<QueryAnswer> {
    if (!this.ws || this.ws.readyState !== 1 || this.status.value !== 'open') return Promise.resolve({ ok: false, error: { code: 'OFFLINE', message: 'not connected to the table' } });
    if (this.queries.size >= MAX_PENDING_COMMANDS) return Promise.resolve({ ok: false, error: { code: 'LOCAL', message: `more than ${MAX_PENDING_COMMANDS} questions are waiting for the server` } });
    const queryId = `q${++this.counter}`;
    const ws = this.ws;
    return new Promise<QueryAnswer>((resolve) => {
      this.queries.set(queryId, resolve);
      ws.send(encodeQuery(queryId, name, args));
    });
  }

  private handle(msg: ServerMsg): void {
    switch (msg.kind) {
      case 'answer': {
        const resolve = this.queries.get(msg.queryId);
        this.queries.delete(msg.queryId);
        resolve?.(msg.answer);
        return;
      }
      case 'welcome': {
        // The server follows every welcome with a fresh snapshot of our view, so a
        // reconnect resyncs without asking; resync requests are only for gaps in deltas.
        this.tableId.value = msg.tableId;
        this.viewer.value = msg.viewer;
        if (msg.serverTime !== undefined) setServerClock(msg.serverTime, Date.now());
        return;
      }
      case 'revoked': {
        this.closeReason.value = msg.message;
        this.revoked.value = msg.message;
        this.stopped = true;
        return;
      }
      case 'other':
        return;
      case 'snapshot': {
        this.view.value = msg.view;
        this.markOpen();
        this.resendCaughtUp();
        return;
      }
      case 'delta': {
        const current = this.view.value;
        if (!current || msg.from !== current.version) {
          // A gap: ask for everything since what we hold (the snapshot that answers settles nothing, so settle our acks here).
          this.ws?.send(encodeResync(current ? current.version : 0));
          for (const a of msg.acks) this.settle(a.commandId, { ok: true, version: a.version });
          return;
        }
        this.view.value = msg.apply(current);
        this.markOpen();
        this.resendCaughtUp();
        // Our own commands this delta carries out: their acks ride in it.
        for (const a of msg.acks) this.settle(a.commandId, { ok: true, version: a.version });
        return;
      }
      case 'ack': {
        this.settle(msg.commandId, { ok: true, version: msg.version });
        return;
      }
      case 'rejected': {
        if (msg.commandId && this.rebase(msg.commandId, msg.rejection)) return;
        this.lastRejection.value = msg.rejection;
        if (msg.commandId) this.settle(msg.commandId, { ok: false, rejection: msg.rejection });
        return;
      }
    }
  }

  private markOpen(): void {
    if (this.status.value === 'open') return;
    this.status.value = 'open';
    this.flushPending();
  }

  private settle(commandId: string, r: SendResult): void {
    const p = this.pending.get(commandId);
    if (!p) return;
    this.pending.delete(commandId);
    p.resolve(r);
    this.releaseBehind(commandId, r);
  }

  /**
   * A command of ours was answered: the commands waiting behind it go once nothing else of ours is
   * ahead of them, on the version ours landed at. If it was refused, they are not sent (they were
   * meant to follow it); its own refusal is the one on screen.
   */
  private releaseBehind(commandId: string, r: SendResult): void {
    for (const [id, q] of this.pending) {
      if (q.behind === null || !q.behind.has(commandId)) continue;
      if (!r.ok) {
        const notSent: SendResult = { ok: false, rejection: { code: 'NOT_SENT', message: 'not sent: the change before it was refused' } };
        this.pending.delete(id);
        q.resolve(notSent);
        // And whatever waited behind this one.
        this.releaseBehind(id, notSent);
        continue;
      }
      q.behind.delete(commandId);
      q.basis = Math.max(q.basis, r.version);
      if (q.behind.size > 0) continue;
      q.behind = null;
      q.frame = encodeCommand(id, q.basis, q.command);
      if (this.ws && this.ws.readyState === 1 && this.status.value === 'open') this.ws.send(q.frame);
    }
  }

  /**
   * Another command landed between our read and our send: once our view has
   * that change, send the same command (same commandId, so it applies once)
   * on top of it. True when it will go again; false when the refusal stands.
   */
  private rebase(commandId: string, rejection: Rejection): boolean {
    const p = this.pending.get(commandId);
    if (!p || rejection.code !== 'VERSION_CONFLICT' || !rebasable(p.command) || p.conflicts >= MAX_CONFLICT_RETRIES) return false;
    p.conflicts++;
    p.waitFor = typeof rejection.current === 'number' ? rejection.current : this.version + 1;
    this.resendCaughtUp();
    return true;
  }

  private resendCaughtUp(): void {
    for (const [commandId, p] of this.pending) {
      if (p.waitFor === null || this.version < p.waitFor) continue;
      p.waitFor = null;
      p.frame = encodeCommand(commandId, this.version, p.command);
      if (this.ws && this.ws.readyState === 1 && this.status.value === 'open') this.ws.send(p.frame);
    }
  }

  private flushPending(): void {
    // A reconnect's snapshot is the newest view: a waiting command goes on top of it.
    for (const [commandId, p] of this.pending) {
      // Still behind a command of ours: it goes when that one is answered (releaseBehind).
      if (p.behind !== null) continue;
      if (p.waitFor !== null) {
        p.waitFor = null;
        p.frame = encodeCommand(commandId, this.version, p.command);
      }
      this.ws?.send(p.frame);
    }
  }
}

function newCommandId(n: number): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return `c${n}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** ws:// or wss:// URL of the table socket, on the page's own origin. */
export function socketUrl(loc: { protocol: string; host: string }, path = '/ws'): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${path}`;
}
