// ADR 125: a frame the room hands a session goes out as one framed write when ws's sender is idle.
// Over real WebSockets against SQLite: the bytes a client gets are the room's JSON in every length
// class, a busy sender falls back to ws in order, and a session closed mid-broadcast gets nothing after its close frame.
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { framedSender, textFrame } from '../src/framed-send.js';
import type { Session } from '../src/room.js';
import { Client, serversClosedAfterEach, setupTable } from './helpers.js';

const serverWithCleanup = serversClosedAfterEach();

/** ws's own framing of an unmasked final text frame, joined: the reference our one-Buffer frame must equal. */
function wsFrame(payload: Buffer): Buffer {
  // ws exports its Sender at run time; its types leave it out.
  const { Sender } = WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } };
  return Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));
}

/** Every write the server makes on a socket, in order, each copied as it was handed over. */
function recordWrites(raw: Duplex): Buffer[] {
  const writes: Buffer[] = [];
  const write = raw.write.bind(raw) as (chunk: unknown, ...rest: unknown[]) => boolean;
  (raw as unknown as { write: typeof write }).write = (chunk: unknown, ...rest: unknown[]) => {
    writes.push(Buffer.from(chunk as Uint8Array));
    return write(chunk, ...rest);
  };
  return writes;
}

/** The opcodes of the unmasked frames in a server's byte stream, in order (RFC 6455 5.2 lengths). */
function frameOpcodes(stream: Buffer): number[] {
  const out: number[] = [];
  let at = 0;
  while (at < stream.length) {
    const short = stream[at + 1]! & 0x7f;
    const [head, length] = short === 126 ? [4, stream.readUInt16BE(at + 2)] : short === 127 ? [10, stream.readUIntBE(at + 4, 6)] : [2, short];
    out.push(stream[at]! & 0x0f);
    at += head + length;
  }
  expect(at).toBe(stream.length);
  return out;
}

/** What the room hands a session, in order (wrapping its send, which still sends); `shared` for a Buffer, which is framed here. */
function recordSends(session: Session): { text: string; buffer: boolean }[] {
  const sent: { text: string; buffer: boolean }[] = [];
  const send = session.sendRaw;
  session.sendRaw = (data) => {
    sent.push({ text: typeof data === 'string' ? data : data.toString('utf8'), buffer: typeof data !== 'string' });
    send(data);
  };
  return sent;
}

/** The server side of each connected client, in the order they joined the room. */
function serverSide(s: Awaited<ReturnType<typeof serverWithCleanup>>, tableId: string): { session: Session; socket: WebSocket; raw: Duplex }[] {
  const room = s.room(tableId);
  if (!room) throw new Error('the room is not loaded');
  const sockets = [...s.app.websocketServer.clients] as WebSocket[];
  const sessions = [...room.sessions];
  expect(sockets.length).toBe(sessions.length);
  // Joined one at a time, each after the last one's snapshot: the server's client set keeps the same order.
  return sessions.map((session, i) => ({ session, socket: sockets[i]!, raw: (sockets[i] as unknown as { _socket: Duplex })._socket }));
}

describe('one framed Buffer per frame (ADR 125)', () => {
  it('frames a payload exactly as ws does in each length class, at every boundary', () => {
    for (const n of [0, 1, 125, 126, 127, 300, 65535, 65536, 70_000]) {
      const payload = Buffer.alloc(n, 0x61);
      const framed = textFrame(payload);
      expect(framed.equals(wsFrame(payload)), `a ${n}-byte payload`).toBe(true);
      // The header is 2, 4 or 10 bytes: 7-bit, 16-bit or 64-bit length.
      expect(framed.length - n).toBe(n < 126 ? 2 : n < 65536 ? 4 : 10);
    }
  });

  it('delivers the room\'s JSON byte for byte in every length class, each frame in one write', async () => {
    // 42 commands in a burst: more than the default message bucket holds.
    const s = await serverWithCleanup({ rateLimit: { capacity: 1e6, refillPerSecond: 1e6 } });
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    const seat = await Client.open(s.url, t.seats[0]!.token);
    const [gmSide, seatSide] = serverSide(s, t.tableId);
    const handed = recordSends(seatSide!.session);
    const writes = recordWrites(seatSide!.raw);
    const before = seat.frames.length;
    // A small change, one the seat sees only as a version step (under 126 bytes), then notes long enough that the history makes the next snapshot exceed 64 KiB.
    expect((await gm.command({ type: 'clock.advance', unit: 'round' })).type).toBe('ack');
    expect((await gm.command({ type: 'character.add', name: 'Brom', kind: 'npc', visibility: 'hidden' })).type).toBe('ack');
    for (let i = 0; i < 40; i++) {
      const r = await gm.command({ type: 'log.note', text: `note ${i} ${'x'.repeat(1900)}` });
      expect(r.type, JSON.stringify(r)).toBe('ack');
    }
    await seat.reach(gm.version);
    // The seat reconnects: its snapshot is the big frame. The room joins its session once the queue settles: caught there.
    seat.ws.close();
    await seat.waitClose();
    const room = s.room(t.tableId)!;
    const join = room.join.bind(room);
    let joined: { sent: { text: string; buffer: boolean }[]; writes: Buffer[] } | null = null;
    room.join = (session: Session) => {
      const socket = ([...s.app.websocketServer.clients] as WebSocket[]).find((c) => c !== gmSide!.socket)!;
      joined = { sent: recordSends(session), writes: recordWrites((socket as unknown as { _socket: Duplex })._socket) };
      join(session);
    };
    const again = await Client.open(s.url, t.seats[0]!.token);
    room.join = join;
    if (joined === null) throw new Error('the room never joined the new session');
    const snap = (joined as { sent: { text: string; buffer: boolean }[]; writes: Buffer[] }).sent.find((h) => h.text.startsWith('{"type":"snapshot"'))!;
    const snapWrites = (joined as { sent: { text: string; buffer: boolean }[]; writes: Buffer[] }).writes;

    // Compared as booleans: a failing diff of 100 KiB frames would drown the report.
    const received = seat.frames.slice(before);
    expect(received.length).toBe(handed.length);
    for (const [i, h] of handed.entries()) expect(received[i] === h.text, `frame ${i} arrived as the room made it`).toBe(true);
    expect(again.frames.find((f) => f.startsWith('{"type":"snapshot"')) === snap.text, 'the snapshot arrived as the room made it').toBe(true);
    const buffers = [...handed, snap].filter((h) => h.buffer);
    const sizes = buffers.map((h) => Buffer.byteLength(h.text));
    expect(sizes.some((n) => n < 126)).toBe(true);
    expect(sizes.some((n) => n >= 126 && n < 65536)).toBe(true);
    expect(sizes.some((n) => n >= 65536)).toBe(true);
    // Each Buffer the room made went out as exactly one write of header and payload together.
    for (const h of handed.filter((x) => x.buffer)) {
      const framed = textFrame(Buffer.from(h.text));
      expect(writes.some((w) => w.equals(framed)), `a ${framed.length}-byte frame in one write`).toBe(true);
    }
    expect(snapWrites.some((w) => w.equals(textFrame(Buffer.from(snap.text))))).toBe(true);
    again.ws.close();
    gm.ws.close();
  });

  it('falls back to ws while its sender is busy, and the frames keep their order', async () => {
    const s = await serverWithCleanup();
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    const seat = await Client.open(s.url, t.seats[0]!.token);
    const [, seatSide] = serverSide(s, t.tableId);
    const writes = recordWrites(seatSide!.raw);
    const order: string[] = [];
    seat.ws.on('ping', (data: Buffer) => order.push(`ping ${data.toString('utf8')}`));
    seat.ws.on('message', (data: Buffer) => order.push((JSON.parse(data.toString('utf8')) as { nonce: string }).nonce));
    const frame = (nonce: string) => Buffer.from(JSON.stringify({ type: 'pong', nonce }));
    const [a, b, c] = [frame('a'), frame('b'), frame('c')];
    seatSide!.session.sendRaw(a);
    // A Blob ping keeps ws's sender busy until the Blob is read: what is sent meanwhile waits in ws's queue.
    seatSide!.socket.ping(new Blob(['busy']));
    seatSide!.session.sendRaw(b);
    seatSide!.session.sendRaw(c);
    await seat.next((m) => m.type === 'pong' && (m as { nonce?: string }).nonce === 'c');
    expect(order).toEqual(['a', 'ping busy', 'b', 'c']);
    // The idle send went out framed in one write; the busy ones through ws (header and payload apart).
    expect(writes.some((w) => w.equals(textFrame(a)))).toBe(true);
    expect(writes.some((w) => w.equals(textFrame(b)))).toBe(false);
    expect(writes.some((w) => w.equals(textFrame(c)))).toBe(false);
    // Once the sender is idle again, the fast path is back.
    const d = frame('d');
    seatSide!.session.sendRaw(d);
    await seat.next((m) => m.type === 'pong' && (m as { nonce?: string }).nonce === 'd');
    expect(writes.some((w) => w.equals(textFrame(d)))).toBe(true);
    gm.ws.close();
    seat.ws.close();
  });

  it('sends nothing after a close frame to a session closed mid-broadcast; the others get theirs', async () => {
    const s = await serverWithCleanup();
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    const seat = await Client.open(s.url, t.seats[0]!.token);
    const watcher = await Client.open(s.url, t.spectator);
    const [, seatSide, watcherSide] = serverSide(s, t.tableId);
    expect(watcherSide!.session.viewer.role).toBe('spectator');
    const writes = recordWrites(watcherSide!.raw);
    // The seat comes before the spectator in the room: sending to it closes the spectator, mid-broadcast.
    const send = seatSide!.session.sendRaw;
    seatSide!.session.sendRaw = (data) => {
      send(data);
      if (typeof data !== 'string') watcherSide!.session.close(4001, 'closed mid-broadcast');
    };
    const ack = await gm.command({ type: 'clock.advance', unit: 'round' });
    expect(ack.type).toBe('ack');
    await seat.reach(gm.version);
    expect(await watcher.waitClose()).toEqual({ code: 4001, reason: 'closed mid-broadcast' });
    expect(watcher.messages.some((m) => m.type === 'delta')).toBe(false);
    // On the wire: the close frame (opcode 8) is the last frame the spectator's socket was given.
    const opcodes = frameOpcodes(Buffer.concat(writes));
    expect(opcodes.at(-1)).toBe(8);
    expect(opcodes.filter((o) => o === 8)).toHaveLength(1);
    gm.ws.close();
    seat.ws.close();
  });

  it('leaves a socket with permessage-deflate to ws: its frames arrive compressed and whole', async () => {
    // Our server never offers the extension; a ws server that does shows the check made once per socket.
    const wss = new WebSocketServer({ port: 0, perMessageDeflate: { threshold: 0 } });
    try {
      await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
      const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', (s) => resolve(s)));
      const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`, { perMessageDeflate: true });
      const server = await accepted;
      expect(Object.keys((server as unknown as { _extensions: object })._extensions)).toEqual(['permessage-deflate']);
      const writes = recordWrites((server as unknown as { _socket: Duplex })._socket);
      const payload = Buffer.from(JSON.stringify({ type: 'pong', nonce: 'z'.repeat(300) }));
      const got = new Promise<Buffer>((resolve) => client.once('message', (d: Buffer) => resolve(d)));
      framedSender(server).send(payload);
      expect((await got).equals(payload)).toBe(true);
      // Compressed by ws (RSV1 set), never our uncompressed frame.
      expect(writes.some((w) => w.equals(textFrame(payload)))).toBe(false);
      expect(writes.some((w) => (w[0]! & 0x40) !== 0)).toBe(true);
      client.close();
    } finally {
      wss.close();
    }
  });
});
