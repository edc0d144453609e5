// The bus port (issue 22): how server instances that share one store talk.
// The owner of a table (the one instance that decides its commands) announces
// each committed transaction; every other instance keeps a replica of the table
// by applying them in version order and projects views for its own sockets, so
// no viewer's projection ever travels between instances and secrets stay on the
// server side of every socket. A non-owner forwards a client's command to the
// owner and relays the answer. Delivery is at most once and in order per
// publisher: a replica that sees a version gap reads the store (ADR 54).
import type { Viewer } from '@tablekeeper/engine';
import type { RejectionError } from '@tablekeeper/protocol';

/** A transaction the owner committed durably, announced after its commit settled. */
export interface Committed {
  readonly tableId: string;
  readonly version: number;
  readonly commandId: string | null;
  readonly actorKey: string;
  /** The stored transaction as the store keeps it (JSON text), so a replica applies exactly what was written. */
  readonly tx: string;
}

/** A client's command, sent by the instance holding its socket to the table's owner. */
export interface ForwardedCommand {
  readonly tableId: string;
  readonly viewer: Viewer;
  readonly commandId: string | null;
  readonly expectedVersion: number | null;
  /** The command as the client sent it; the owner validates it as if it came from its own socket. */
  readonly command: unknown;
}

/** The owner's answer, relayed to the client unchanged (errors are built from the asker's view on the owner). */
export type ForwardedReply =
  | { readonly ok: true; readonly version: number; readonly duplicate: boolean }
  | { readonly ok: false; readonly error: RejectionError };

/** What a sender hears when the owner's handler failed: nothing of the owner's reason, only that it may retry. */
export const OWNER_FAILED: ForwardedReply = { ok: false, error: { kind: 'UNAVAILABLE', message: 'The table could not take the command; send it again with the same commandId.' } };

/** Why a forward got no owner's answer: nobody serves the table now, or it did not answer in time. */
export type ForwardFailure = { readonly ok: false; readonly bus: 'no-owner' | 'timeout' };

/** Links revoked through one instance: every instance closes its sockets holding them (the store already refuses the tokens). */
export interface Revoked {
  readonly tableId: string;
  /** SHA-256 of the revoked tokens (never the tokens). */
  readonly hashes: readonly string[];
  /** What the closed clients are told. */
  readonly message: string;
}

/** Who is connected to a table through one instance (the shared mode counts presence over every instance). */
export interface PresenceNote {
  readonly tableId: string;
  readonly instanceId: string;
  readonly gm: boolean;
  /** Seats with a socket on that instance. */
  readonly seats: readonly string[];
  readonly spectators: number;
}

export interface Subscription {
  /** Stops delivery; safe to call twice. */
  unsubscribe(): void;
}

export interface Bus {
  readonly kind: 'local' | 'nats';
  /** Announces a committed transaction to every instance that follows the table. */
  publishCommitted(msg: Committed): Promise<void>;
  /** Follows a table's commits (a replica). Messages arrive in the publisher's order. */
  onCommitted(tableId: string, handler: (msg: Committed) => void): Subscription;
  /** Serves a table's forwarded commands (the owner, while it holds the table's lease). */
  serveCommands(tableId: string, handler: (req: ForwardedCommand) => Promise<ForwardedReply>): Subscription;
  /** Sends a command to the table's owner and waits at most `timeoutMs` for its answer. */
  forwardCommand(req: ForwardedCommand, timeoutMs: number): Promise<ForwardedReply | ForwardFailure>;
  /** Tells every instance that links of a table were revoked. */
  publishRevoked(msg: Revoked): Promise<void>;
  /** Hears a table's revocations (an instance with sockets at it). */
  onRevoked(tableId: string, handler: (msg: Revoked) => void): Subscription;
  /** Tells the other instances who is connected to a table here (sent when it changes, and as a heartbeat). */
  publishPresence(msg: PresenceNote): Promise<void>;
  /** Hears other instances' presence at a table. */
  onPresence(tableId: string, handler: (msg: PresenceNote) => void): Subscription;
  /** Resolves once every subscription made so far is in place at the broker (a follower set up before a publish hears it). */
  ready(): Promise<void>;
  /** Delivers what is in flight, then closes. */
  close(): Promise<void>;
}

/** Largest bus message (bytes of JSON): a transaction is bounded by the command limits; this bounds a bug, below NATS's 1 MB default. */
export const MAX_BUS_MESSAGE_BYTES = 512 * 1024;

/** Table ids are minted as `t_` + base64url; anything else cannot name a subject safely. */
const TABLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class BusError extends Error {
  constructor(
    readonly code: 'BAD_TABLE_ID' | 'BAD_PREFIX' | 'TOO_LARGE' | 'CLOSED' | 'BAD_MESSAGE',
    message: string,
  ) {
    super(message);
    this.name = 'BusError';
  }
}

export function checkTableId(tableId: string): string {
  if (!TABLE_ID.test(tableId)) throw new BusError('BAD_TABLE_ID', `bus: table id ${JSON.stringify(tableId.slice(0, 80))} is not 1-64 letters, digits, "-" or "_"`);
  return tableId;
}

/** Serialises a bus message, refusing one larger than the bus carries (with its size and the limit). */
export function encodeMessage(what: string, value: unknown): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  if (bytes.length > MAX_BUS_MESSAGE_BYTES) throw new BusError('TOO_LARGE', `bus: ${what} is ${bytes.length} bytes, over the ${MAX_BUS_MESSAGE_BYTES}-byte limit`);
  return bytes;
}
