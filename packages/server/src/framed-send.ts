// One framed Buffer per shared frame (ADR 125). ws sends a frame as a header Buffer and the payload, two
// stream writes under a cork; a frame the room shares between sessions is framed here once (header and
// payload in one Buffer) and written to each socket as one plain write, whenever ws's sender is idle.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** An unmasked, final text frame (RFC 6455 5.2): FIN and opcode 1, then the length in 7, 7+16 or 7+64 bits. */
export function textFrame(payload: Uint8Array): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + n);
  out[0] = 0x81;
  if (head === 2) out[1] = n;
  else if (head === 4) {
    out[1] = 126;
    out.writeUInt16BE(n, 2);
  } else {
    out[1] = 127;
    // A payload is far below 2^48 bytes: the top two bytes of the 64-bit length are zero.
    out.writeUInt16BE(0, 2);
    out.writeUIntBE(n, 4, 6);
  }
  out.set(payload, head);
  return out;
}

/**
 * The last payload framed and its frame: a broadcast sends one shared Buffer to its sessions one after the
 * other, so one slot finds it again without a WeakMap entry per frame (ephemerons are the collector's work).
 */
let lastPayload: Buffer | null = null;
let lastFramed: Buffer | null = null;

function framedOf(payload: Buffer): Buffer {
  if (payload !== lastPayload) {
    lastFramed = textFrame(payload);
    lastPayload = payload;
  }
  return lastFramed as Buffer;
}

/** The fields of ws 8's WebSocket and Sender this path reads; all private, so each is checked before it is trusted. */
interface SenderState {
  readonly _state: unknown;
  readonly _queue: unknown;
  readonly _firstFragment: unknown;
  readonly _socket: unknown;
}
interface WsState {
  readonly _isServer: unknown;
  readonly _extensions: unknown;
  readonly _socket: unknown;
  readonly _sender: unknown;
}

/** ws's sender state when it is writing nothing of its own (not deflating, not reading a Blob). */
const SENDER_IDLE = 0;

export interface FramedSender {
  /** Sends a text payload as one frame; a Buffer may be shared by many sessions. Nothing once the socket is not open. */
  send(data: string | Buffer): void;
}

const TEXT_FRAME = { binary: false } as const;

/**
 * The send of one server socket. A Buffer goes out as one framed write while ws's sender is exactly idle (nothing
 * queued, no message half sent, no extension such as permessage-deflate) and the raw socket writable: ws would
 * write the same bytes at once, in the same place. Anything else goes through `socket.send`, which keeps order.
 */
export function framedSender(socket: WebSocket): FramedSender {
  const ws = socket as unknown as WsState;
  const sender = ws._sender as SenderState | null | undefined;
  const raw = ws._socket as Duplex | null | undefined;
  const ext = ws._extensions;
  // Checked once: a server socket (unmasked frames), no extension negotiated, the sender writing to this socket.
  const plain =
    ws._isServer === true &&
    typeof ext === 'object' &&
    ext !== null &&
    Object.keys(ext).length === 0 &&
    typeof sender === 'object' &&
    sender !== null &&
    raw !== null &&
    raw !== undefined &&
    sender._socket === raw &&
    typeof raw.write === 'function';
  const viaWs = (data: string | Buffer): void => {
    if (socket.readyState === socket.OPEN) socket.send(data, TEXT_FRAME);
  };
  if (!plain) return { send: viaWs };
  return {
    send: (data) => {
      if (socket.readyState !== socket.OPEN) return;
      if (
        typeof data !== 'string' &&
        sender._state === SENDER_IDLE &&
        sender._firstFragment === true &&
        Array.isArray(sender._queue) &&
        sender._queue.length === 0 &&
        raw.writable &&
        !raw.destroyed
      ) {
        raw.write(framedOf(data));
        return;
      }
      socket.send(data, TEXT_FRAME);
    },
  };
}
