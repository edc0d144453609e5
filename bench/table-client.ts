// A table client for the benches that time a GM's commands on a live server
// (limits, roll-flood): POSTs to the HTTP API, and a socket whose commands and
// queries each resolve with their answer (an ack folded into a delta counts).
import { pino } from 'pino';
import WebSocket from 'ws';
import type { Command } from '../packages/engine/src/index.js';
import { WS_PATH, unfoldAcks, wsProtocols } from '../packages/protocol/src/index.js';
import { registryCatalog, startServer, type RunningServer, type StartOptions } from '../packages/server/src/index.js';

export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
export const f = (x: number, d = 1) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** POSTs JSON (or a JSON Lines text, for imports) and returns the parsed answer; throws on any non-2xx. */
export async function post<T>(serverUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(serverUrl + path, { method: 'POST', headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface TableClient {
  readonly ws: WebSocket;
  command(command: Command): Promise<Record<string, unknown>>;
  query(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Opens a table socket with `token`; resolves once its snapshot is in. */
export async function connect(serverUrl: string, token: string): Promise<TableClient> {
  const ws = new WebSocket(serverUrl.replace(/^http/, 'ws') + WS_PATH, wsProtocols(token));
  const waiting = new Map<string, (m: Record<string, unknown>) => void>();
  let version = 0;
  await new Promise<void>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as Record<string, unknown>;
      if (m['type'] === 'snapshot' || m['type'] === 'delta') version = Math.max(version, m['version'] as number);
      if (m['type'] === 'snapshot') resolve();
      // A sender's acks come folded into its delta: each stands for an ack frame.
      for (const a of [m, ...unfoldAcks(m as { type: string })] as Record<string, unknown>[]) {
        const id = (a['commandId'] ?? a['queryId']) as string | undefined;
        if (id !== undefined) {
          waiting.get(id)?.(a);
          waiting.delete(id);
        }
      }
    });
  });
  let n = 0;
  return {
    ws,
    command(command) {
      const commandId = `c${++n}`;
      return new Promise((resolve) => {
        waiting.set(commandId, (m) => {
          if (m['type'] === 'ack') version = Math.max(version, m['version'] as number);
          resolve(m);
        });
        ws.send(JSON.stringify({ type: 'command', commandId, expectedVersion: version, command }));
      });
    },
    query(name, args) {
      const queryId = `q${++n}`;
      return new Promise((resolve) => {
        waiting.set(queryId, resolve);
        ws.send(JSON.stringify({ type: 'query', queryId, name, args }));
      });
    },
  };
}

/** A GM's commands back to back (`clock.advance`) until `until()` says stop, at least `min` of them; latencies in ms. */
export async function play(gm: TableClient, until: () => boolean, min = 50): Promise<number[]> {
  const lat: number[] = [];
  while (lat.length < min || !until()) {
    const t0 = performance.now();
    const a = await gm.command({ type: 'clock.advance', unit: 'round' });
    if (a['type'] !== 'ack') throw new Error(`command refused: ${JSON.stringify(a)}`);
    lat.push(performance.now() - t0);
  }
  return lat;
}

/** Every per-client limit that would throttle a bench's own load, opened wide. */
export const OPEN = { capacity: 1e9, refillPerSecond: 1e9 } as const;

/** A server on a fresh SQLite file with every ruleset, quiet logs and the benches' own load let through; `extra` adds or overrides options. */
export function startBenchServer(dbPath: string, extra: StartOptions = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    dbPath,
    logger: pino({ level: 'silent' }),
    catalog: registryCatalog(),
    webDist: null,
    httpRateLimit: OPEN,
    rateLimit: { ...OPEN, closeAfter: 1e9 },
    createAllowance: OPEN,
    ...extra,
  });
}
