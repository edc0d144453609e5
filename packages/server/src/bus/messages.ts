// What a bus message must look like when it arrives: another instance is
// trusted, but a message from an older or broken instance is refused with a
// reason, never applied half-read.
import { z } from 'zod';
import { rejectionErrorSchema } from '@tablekeeper/protocol';
import { BusError, MAX_BUS_MESSAGE_BYTES, type Committed, type ForwardedCommand, type ForwardedReply, type PresenceNote, type Revoked } from './port.js';

const tableId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const commandId = z.string().min(1).max(200).nullable();
const viewer = z.union([z.strictObject({ role: z.literal('gm') }), z.strictObject({ role: z.literal('spectator') }), z.strictObject({ role: z.literal('player'), seatId: z.string().min(1).max(200) })]);

const committed = z.strictObject({
  tableId,
  version: z.int().min(1),
  commandId,
  actorKey: z.string().min(1).max(300),
  tx: z.string().min(2),
});

const forwarded = z.strictObject({
  tableId,
  viewer,
  commandId,
  expectedVersion: z.int().min(0).nullable(),
  command: z.unknown(),
});

const reply = z.union([
  z.strictObject({ ok: z.literal(true), version: z.int().min(0), duplicate: z.boolean() }),
  z.strictObject({ ok: z.literal(false), error: rejectionErrorSchema }),
]);

const revoked = z.strictObject({
  tableId,
  hashes: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(1000),
  message: z.string().max(500),
});

const presence = z.strictObject({
  tableId,
  instanceId: z.string().min(1).max(200),
  gm: z.boolean(),
  seats: z.array(z.string().min(1).max(200)).max(1000),
  spectators: z.int().min(0).max(1_000_000),
});

function decode<T>(what: string, schema: z.ZodType<T>, bytes: Uint8Array): T {
  if (bytes.length > MAX_BUS_MESSAGE_BYTES) throw new BusError('TOO_LARGE', `bus: ${what} is ${bytes.length} bytes, over the ${MAX_BUS_MESSAGE_BYTES}-byte limit`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw new BusError('BAD_MESSAGE', `bus: ${what} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new BusError('BAD_MESSAGE', `bus: ${what} at ${first?.path.join('.') || '(root)'}: ${first?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export const decodeCommitted = (bytes: Uint8Array): Committed => decode('committed transaction', committed, bytes);
export const decodeForwarded = (bytes: Uint8Array): ForwardedCommand => decode('forwarded command', forwarded, bytes) as ForwardedCommand;
export const decodeReply = (bytes: Uint8Array): ForwardedReply => decode('owner reply', reply, bytes) as ForwardedReply;
export const decodeRevoked = (bytes: Uint8Array): Revoked => decode('revocation', revoked, bytes);
export const decodePresence = (bytes: Uint8Array): PresenceNote => decode('presence', presence, bytes);
