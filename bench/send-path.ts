// Not a test: the main thread's CPU for sending a broadcast's frames (ADR 125), ws's `socket.send` against one
// framed write per socket (framed-send.ts), alternated in one process so the machine's load hits both alike.
// 200 tables x 5 sockets; per broadcast each table sends one unique frame (the sender's, with acks) and one shared
// by its other 4 sockets. The clients live in a child process, so only the server's sending is timed (user + system).
// Run: npx tsx bench/send-path.ts   (SEND_ROUNDS, SEND_BROADCASTS, SEND_BYTES to change the load)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { framedSender } from '../packages/server/src/framed-send.js';

const TABLES = 200;
const PER_TABLE = 5;
const ROUNDS = Number(process.env['SEND_ROUNDS'] ?? 8);
const BROADCASTS = Number(process.env['SEND_BROADCASTS'] ?? 200);
const BYTES = Number(process.env['SEND_BYTES'] ?? 500);

if (process.argv[2] === 'clients') {
  // The child: opens every socket, then reports the frames it received every time a whole broadcast arrived.
  const url = process.argv[3]!;
  const total = TABLES * PER_TABLE;
  let received = 0;
  let open = 0;
  for (let i = 0; i < total; i++) {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      if (++open === total) process.send!({ open });
    });
    ws.on('message', () => {
      if (++received % total === 0) process.send!({ received });
    });
  }
} else {
  const wss = new WebSocketServer({ port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as { port: number }).port;
  const sockets: WebSocket[] = [];
  wss.on('connection', (s) => sockets.push(s));
  const child = fork(fileURLToPath(import.meta.url), ['clients', `ws://127.0.0.1:${port}`], { execArgv: process.execArgv });
  const waitFor = (key: 'open' | 'received') =>
    new Promise<void>((resolve) => {
      const on = (m: Record<string, number>) => {
        if (m[key] !== undefined) {
          child.off('message', on);
          resolve();
        }
      };
      child.on('message', on);
    });
  await waitFor('open');
  while (sockets.length < TABLES * PER_TABLE) await new Promise((r) => setTimeout(r, 10));
  const framed = sockets.map((s) => framedSender(s).send);
  const viaWs = sockets.map((s) => (data: Buffer) => s.send(data, { binary: false }));
  const text = `{"type":"delta","from":1,"version":2,"log":"${'x'.repeat(BYTES - 50)}"}`;

  /** One broadcast per table: the first socket's frame is its own, the others share one Buffer. Returns the CPU us spent. */
  const broadcast = (send: ((data: Buffer) => void)[]): number => {
    const t0 = process.cpuUsage();
    for (let t = 0; t < TABLES; t++) {
      const shared = Buffer.from(text);
      for (let i = 0; i < PER_TABLE; i++) send[t * PER_TABLE + i]!(i === 0 ? Buffer.from(text) : shared);
    }
    const d = process.cpuUsage(t0);
    return d.user + d.system;
  };
  const totals = { ws: [] as number[], framed: [] as number[] };
  for (let r = 0; r < ROUNDS * 2; r++) {
    const mode = r % 2 === 0 ? 'ws' : 'framed';
    let us = 0;
    for (let b = 0; b < BROADCASTS; b++) {
      const got = waitFor('received');
      us += broadcast(mode === 'ws' ? viaWs : framed);
      await got;
    }
    totals[mode].push(us / (BROADCASTS * TABLES));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`send path, ${TABLES} tables x ${PER_TABLE} sockets, ${BYTES} B frames, CPU us per broadcast of one table (5 frames), median of ${ROUNDS} rounds:`);
  console.log(`  ws socket.send: ${median(totals.ws).toFixed(2)} us (rounds ${totals.ws.map((x) => x.toFixed(1)).join(' ')})`);
  console.log(`  framed write:   ${median(totals.framed).toFixed(2)} us (rounds ${totals.framed.map((x) => x.toFixed(1)).join(' ')})`);
  child.kill();
  wss.close();
}
