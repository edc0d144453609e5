// @tablekeeper/protocol: every message between the table server and its
// clients, as zod schemas (validated at the wire on the server) and types.
// The server only ever sends a viewer what engine.view() produced for it.
import { z } from 'zod';
import type { Json, TableView } from '@tablekeeper/engine';
import type { Delta } from './wire.js';

export type { TableView, Viewer } from '@tablekeeper/engine';

export {
  PROTOCOL_VERSION,
  WS_SUBPROTOCOL,
  WS_OLD_SUBPROTOCOLS,
  WS_TOKEN_PREFIX,
  WS_PATH,
  wsProtocols,
  CLOSE,
  RELOAD_REASON,
  MAX_PATCH_DEPTH,
  applyDelta,
  unfoldAcks,
  type Delta,
  type DeltaAck,
  type StreamPatch,
  type StreamPiece,
  type WorldPatch,
} from './wire.js';

// ---------------------------------------------------------------- limits

export const LIMITS = {
  /** Largest WebSocket frame the server accepts; a bigger one closes with 1009. */
  maxPayloadBytes: 64 * 1024,
  commandIdMaxLength: 64,
  tokenMaxLength: 128,
  nameMaxLength: 80,
} as const;

// ---------------------------------------------------------------- shared pieces

/** Capability tokens: base64url, 128 bits or more. */
export const tokenSchema = z.string().min(22).max(LIMITS.tokenMaxLength).regex(/^[A-Za-z0-9_-]+$/, 'a token is base64url');

export const jsonSchema: z.ZodType<Json> = z.json() as unknown as z.ZodType<Json>;

export const viewerSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('gm') }),
  z.object({ role: z.literal('player'), seatId: z.string() }),
  z.object({ role: z.literal('spectator') }),
]);

/** An engine command: `{ type: 'countdown.tick', id: 'c1', by: 1 }`, plain JSON. */
export const commandSchema = z
  .object({ type: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, 'a command type is letters, digits, dots, dashes') })
  .catchall(jsonSchema);

// ---------------------------------------------------------------- client -> server

/** Only needed when the token could not be sent as a subprotocol; must be the first message. */
export const helloSchema = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  token: tokenSchema,
});

export const commandMessageSchema = z.object({
  type: z.literal('command'),
  /** Client-chosen, unique per table: a retry with the same id is applied at most once. */
  commandId: z.string().min(1).max(LIMITS.commandIdMaxLength).regex(/^[A-Za-z0-9_.:-]+$/, 'a commandId is letters, digits, _.:-'),
  /** The table version the client decided against (optimistic concurrency). */
  expectedVersion: z.number().int().min(0),
  command: commandSchema,
});

/** "I hold the view at version `since`; bring me up to date." */
export const resyncSchema = z.object({ type: z.literal('resync'), since: z.number().int().min(0) });

export const pingSchema = z.object({ type: z.literal('ping'), nonce: z.string().max(64).optional() });

/** A read-only question ("what are the odds?"), answered on the asker's own view of the table. */
export const queryMessageSchema = z.object({
  type: z.literal('query'),
  /** Client-chosen; echoed on the answer. */
  queryId: z.string().min(1).max(LIMITS.commandIdMaxLength).regex(/^[A-Za-z0-9_.:-]+$/, 'a queryId is letters, digits, _.:-'),
  name: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, 'a query name is letters, digits, dots, dashes'),
  args: z.record(z.string().max(100), jsonSchema).optional(),
});

export const clientMessageSchema = z.discriminatedUnion('type', [helloSchema, commandMessageSchema, resyncSchema, pingSchema, queryMessageSchema]);

const COMMAND_ID = /^[A-Za-z0-9_.:-]+$/;
const COMMAND_TYPE = /^[A-Za-z0-9_.-]+$/;

/**
 * A command envelope checked by hand, as `commandMessageSchema` would accept it, or null for
 * anything else (zod then decides, and names the error). `raw` must come from JSON.parse, so its
 * payload values are JSON already. The envelope is on every command's path; zod's parse of it cost
 * a few percent of a busy server's CPU.
 */
function commandEnvelope(raw: Record<string, unknown>): CommandMessage | null {
  const { commandId, expectedVersion, command } = raw;
  if (typeof commandId !== 'string' || commandId.length < 1 || commandId.length > LIMITS.commandIdMaxLength || !COMMAND_ID.test(commandId)) return null;
  if (typeof expectedVersion !== 'number' || !Number.isSafeInteger(expectedVersion) || expectedVersion < 0) return null;
  if (command === null || typeof command !== 'object' || Array.isArray(command)) return null;
  const type = (command as { type?: unknown }).type;
  if (typeof type !== 'string' || type.length < 1 || type.length > 64 || !COMMAND_TYPE.test(type)) return null;
  // A key zod would not copy as an own property is left to zod.
  if (Object.prototype.hasOwnProperty.call(command, '__proto__')) return null;
  return { type: 'command', commandId, expectedVersion, command: command as CommandMessage['command'] };
}

/** Reads a parsed client message: commands on a hand-checked fast path, everything else (and every error) through `clientMessageSchema`. */
export function parseClientMessage(raw: unknown): ReturnType<typeof clientMessageSchema.safeParse> {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as { type?: unknown }).type === 'command') {
    const data = commandEnvelope(raw as Record<string, unknown>);
    if (data !== null) return { success: true, data } as ReturnType<typeof clientMessageSchema.safeParse>;
  }
  return clientMessageSchema.safeParse(raw);
}

export type Hello = z.infer<typeof helloSchema>;
export type CommandMessage = z.infer<typeof commandMessageSchema>;
export type Resync = z.infer<typeof resyncSchema>;
export type Ping = z.infer<typeof pingSchema>;
export type QueryMessage = z.infer<typeof queryMessageSchema>;
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---------------------------------------------------------------- rejections

export const rejectionErrorSchema = z.discriminatedUnion('kind', [
  /** Someone else's command landed first; re-decide against `current`. */
  z.object({ kind: z.literal('VERSION_CONFLICT'), current: z.number().int(), message: z.string() }),
  z.object({ kind: z.literal('FORBIDDEN'), message: z.string() }),
  /** The message is not valid JSON or breaks the schema; `path` points into it. */
  z.object({ kind: z.literal('INVALID'), message: z.string(), path: z.array(z.union([z.string(), z.number()])) }),
  /** The engine refused the command: its stable code and sentence. */
  z.object({ kind: z.literal('RULE_ERROR'), code: z.string(), message: z.string(), path: z.string().optional(), column: z.number().int().nonnegative().optional() }),
  z.object({ kind: z.literal('RATE_LIMITED'), message: z.string(), retryAfterMs: z.number().int() }),
  z.object({ kind: z.literal('TOO_LARGE'), message: z.string(), limit: z.number().int() }),
  /** A server cap (tables, seats, log size, sessions) is reached; `limit` names it. */
  z.object({ kind: z.literal('LIMIT_REACHED'), message: z.string(), limit: z.string(), max: z.number().int() }),
  /** The store could not make the change durable; nothing was applied. */
  z.object({ kind: z.literal('UNAVAILABLE'), message: z.string() }),
]);
export type RejectionError = z.infer<typeof rejectionErrorSchema>;
export type RejectionKind = RejectionError['kind'];

// ---------------------------------------------------------------- server -> client

/** A TableView is only ever produced by engine.view() for the receiving viewer; the schema checks its frame. */
const tableViewSchema = z
  .object({ world: z.record(z.string(), z.unknown()), history: z.array(z.unknown()), version: z.number().int() })
  .catchall(z.unknown()) as unknown as z.ZodType<TableView>;

export const welcomeSchema = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  tableId: z.string(),
  viewer: viewerSchema,
  version: z.number().int(),
  /** The server's clock (ms since the epoch) when it welcomed: the turn timer counts from server times (ADR 29). */
  serverTime: z.number().int().optional(),
});

export const snapshotSchema = z.object({ type: z.literal('snapshot'), version: z.number().int(), view: tableViewSchema });

const streamSchema = z.array(z.union([z.tuple([z.number().int().min(0), z.number().int().min(1)]), z.object({ add: z.array(z.unknown()) })]));

/**
 * The changes to this viewer's view from version `from` to `version` (see wire.ts):
 * flags replace, world values are set or deleted by path, the log and the
 * history are streams (ranges kept, entries appended). Apply with `applyDelta`.
 */
export const deltaSchema = z.object({
  type: z.literal('delta'),
  from: z.number().int(),
  version: z.number().int(),
  parts: z.record(z.string(), z.unknown()).optional(),
  world: z.array(z.object({ p: z.array(z.string()).min(1), v: z.unknown().optional() })).optional(),
  log: streamSchema.optional(),
  history: streamSchema.optional(),
  acks: z.array(z.object({ commandId: z.string(), version: z.number().int() })).optional(),
});

export const ackSchema = z.object({
  type: z.literal('ack'),
  commandId: z.string(),
  /** The table version the command produced. */
  version: z.number().int(),
  /** True when this commandId had already been applied (a retry); nothing new happened. */
  duplicate: z.boolean(),
});

export const rejectionSchema = z.object({ type: z.literal('rejection'), commandId: z.string().nullable(), error: rejectionErrorSchema });

export const presenceSchema = z.object({
  type: z.literal('presence'),
  gm: z.boolean(),
  /** Only seats this viewer's own view shows. */
  seats: z.array(z.object({ seatId: z.string(), online: z.boolean() })),
  spectators: z.number().int(),
});

export const seatRevokedSchema = z.object({ type: z.literal('seatRevoked'), message: z.string() });
export const pongSchema = z.object({ type: z.literal('pong'), nonce: z.string().optional() });

/** The answer to a query: its result, or why there is none (a rule error such as an unknown query or bad arguments). */
export const queryResultSchema = z.object({
  type: z.literal('queryResult'),
  queryId: z.string(),
  ok: z.boolean(),
  result: jsonSchema.optional(),
  /** retryAfterMs: with RATE_LIMITED, when the asker's query budget allows the next ask. */
  error: z.object({ code: z.string(), message: z.string(), path: z.string().optional(), retryAfterMs: z.number().int().nonnegative().optional() }).optional(),
});
export type QueryResult = z.infer<typeof queryResultSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  welcomeSchema,
  snapshotSchema,
  deltaSchema,
  ackSchema,
  rejectionSchema,
  presenceSchema,
  seatRevokedSchema,
  pongSchema,
  queryResultSchema,
]);

export type Welcome = z.infer<typeof welcomeSchema>;
export type Snapshot = { type: 'snapshot'; version: number; view: TableView };
export type Ack = z.infer<typeof ackSchema>;
export type Rejection = z.infer<typeof rejectionSchema>;
export type Presence = z.infer<typeof presenceSchema>;
export type SeatRevoked = z.infer<typeof seatRevokedSchema>;
export type Pong = z.infer<typeof pongSchema>;
export type ServerMessage = Welcome | Snapshot | Delta | Ack | Rejection | Presence | SeatRevoked | Pong | QueryResult;

// ---------------------------------------------------------------- HTTP

export const createTableRequestSchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.nameMaxLength),
  rulesetId: z.string().min(1).max(64),
  /** Overrides of the ruleset's named settings (GET /api/rulesets lists them). */
  settings: z.record(z.string().max(100), jsonSchema).optional(),
});
export type CreateTableRequest = z.infer<typeof createTableRequestSchema>;

/** Links carry the token in the URL fragment (#gm=, #seat=, #spectator=), which browsers never send. */
export interface TableLinks {
  gm?: string;
  seat?: string;
  spectator?: string;
}
export interface CreateTableResponse {
  tableId: string;
  gmToken: string;
  links: TableLinks;
}

export const createSeatRequestSchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.nameMaxLength),
  characterIds: z.array(z.string().max(64)).max(32).optional(),
});
export type CreateSeatRequest = z.infer<typeof createSeatRequestSchema>;
export interface CreateSeatResponse {
  seatId: string;
  token: string;
  link: string;
  /** A short code for the same seat, to type on the landing page (ADR 44); single use, until `codeExpiresAt`. */
  code?: string;
  codeExpiresAt?: number;
}
/** POST /api/tables/:id/seats/:seatId/code: a new short code for the seat (the old one stops working). */
export interface JoinCodeResponse {
  seatId: string;
  code: string;
  expiresAt: number;
}
/** POST /api/join { code }: the seat's link for a good code. */
export const joinRequestSchema = z.strictObject({ code: z.string().max(40) });
export interface JoinResponse {
  token: string;
  link: string;
}
export interface SpectatorResponse {
  token: string;
  link: string;
}
export interface SeatSummary {
  seatId: string;
  name: string;
  /** Live (unrevoked) tokens for the seat. */
  tokens: number;
  online: boolean;
  /** The seat's latest join code (ADR 57): live until `expiresAt`, used by a phone at `usedAt` (`expiresAt` says which code), or none. */
  code?: { state: 'live'; expiresAt: number } | { state: 'used'; usedAt: number; expiresAt: number } | { state: 'none' };
}
export interface RulesetSummary {
  id: string;
  [key: string]: unknown;
}
/** HTTP error body: the same kinds as WebSocket rejections. */
export interface HttpError {
  error: RejectionError;
}

/** One line of a JSON Lines export: the table header first, then every transaction in version order. */
export const exportHeaderSchema = z.object({
  kind: z.literal('table'),
  format: z.literal('tablekeeper.table'),
  protocolVersion: z.number().int(),
  tableId: z.string().min(1).max(64),
  rulesetId: z.string().min(1).max(64),
  name: z.string().max(LIMITS.nameMaxLength),
  genesis: z.record(z.string(), jsonSchema),
});
export const exportTransactionSchema = z.object({
  kind: z.literal('transaction'),
  version: z.number().int().min(1),
  commandId: z.string().max(LIMITS.commandIdMaxLength).nullable(),
  transaction: z.record(z.string(), jsonSchema),
});
export type ExportHeader = z.infer<typeof exportHeaderSchema>;
export type ExportTransaction = z.infer<typeof exportTransactionSchema>;

/** URL-fragment links the web shell reads. */
export function capabilityLink(base: string, role: 'gm' | 'player' | 'spectator', token: string): string {
  const key = role === 'player' ? 'seat' : role;
  return `${base.replace(/\/+$/, '')}/#${key}=${token}`;
}

export type { Json };
