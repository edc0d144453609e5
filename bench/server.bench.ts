// Table server load, measured against named peers in the same run:
//  1. loopback WebSocket load: N clients over M tables, one GM per table sending
//     commands back to back; commands/s and command-to-broadcast latency
//     (p50/p99) vs a bare `ws` broadcast server with the same clients;
//  2. durable commits/s: the event store's append (and a whole room.submit:
//     decide + append) vs raw better-sqlite3 inserts with the same pragmas.
//  3. the same load on realistic tables (per table: 10 characters, a 10-combatant
//     OSR encounter, 3 countdowns, 300 log notes of which 1 in 5 GM-only), with
//     the median delta size per command kind as the GM and a player receive it.
// Both servers stay up for a mode and run an untimed warm-up round, then BENCH_ROUNDS rounds in turn (ours first in odd
// rounds, the peer first in even ones), each round on the same sockets; every round's ratios
// are printed, and the ratio line is their median, so one noisy round on a shared machine
// does not decide the figure.
// Run: npm run bench -- server   (env: BENCH_CLIENTS, BENCH_TABLES, BENCH_COMMANDS, BENCH_MODES=empty,realistic,
// BENCH_ROUNDS=5, BENCH_DURABILITY=process-crash|os-crash, BENCH_EXTRAS=0 for the load modes only, BENCH_MARKS=1,
// BENCH_ALLOC=1 for bytes allocated per command in our rounds)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import Database from 'better-sqlite3';
import WebSocket, { WebSocketServer } from 'ws';
import { pino } from 'pino';
import { loadavg } from 'node:os';
import { coreModule, countdownsModule, createEngine, type Command, type Transaction } from '../packages/engine/src/index.js';
import { engineFor, osr } from '../packages/rulesets/src/index.js';
import { wsProtocols, WS_PATH } from '../packages/protocol/src/index.js';
import { applyPragmas, asyncStore, DEFAULT_DURABILITY, DEFAULT_SQLITE_WRITER, moduleCatalog, openSqliteStore, openSqliteThreadStore, Room, startServer, type BatchWriter, type Durability, type SqliteWriter } from '../packages/server/src/index.js';
import { AllocSampler } from './alloc-sampler.js';
import { goalLines, goalsOf, type ModeFigures } from './goals.js';
import { replayFigures } from './replay-lines.js';

const CLIENTS = Number(process.env['BENCH_CLIENTS'] ?? 1000);
const TABLES = Number(process.env['BENCH_TABLES'] ?? 200);
const COMMANDS = Number(process.env['BENCH_COMMANDS'] ?? 10); // per table (bounded)
const PER_TABLE = Math.max(2, Math.floor(CLIENTS / TABLES));
const MODES = (process.env['BENCH_MODES'] ?? 'empty,realistic').split(',');
// BENCH_ENGINE=registry serves the realistic (OSR) tables with the running server's engine (engineFor: its
// requests, timer, foes and conditions projectors too), as hot-path.ts's HOT_ENGINE=registry does.
const REGISTRY_ENGINE = process.env['BENCH_ENGINE'] === 'registry';
const ROUNDS = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 5));
/** The store's durability contract (ADR 31); unset: the server's default. */
const DURABILITY = process.env['BENCH_DURABILITY'] as Durability | undefined;
/** Where the store's commits run (ADR 107); unset: the server's default. */
const WRITER = process.env['BENCH_SQLITE_WRITER'] as SqliteWriter | undefined;

/** With BENCH_ALLOC=1, our rounds sample the bytes they allocate (sampling slows them: the timings of such a run mean nothing). */
const sampler = process.env['BENCH_ALLOC'] === '1' ? new AllocSampler() : null;

/** With BENCH_MARKS=1, prints the monotonic clock (µs, the clock of `node --cpu-prof` samples) so a profile can be cut to the timed run. */
const mark = (what: string) => {
  if (process.env['BENCH_MARKS'] === '1') console.log(`mark ${what}: ${process.hrtime.bigint() / 1000n} us`);
};

const dir = mkdtempSync(join(tmpdir(), 'tk-bench-'));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface LoadResult {
  commandsPerSecond: number;
  p50: number;
  p99: number;
  deliveries: number;
  /** Bytes of each frame carrying a new version, by command kind and receiver ('gm' is the sender, 'player' a watcher). */
  sizes: Map<string, number[]>;
  /** Process CPU time (user + system, all threads) per command over the round, µs: unlike wall-clock rates, barely moved by other jobs on the machine. */
  cpuPerCommand: number;
  /** The main thread's own CPU per command, µs (Linux, 10 ms ticks; NaN elsewhere): a writer thread's work is not in it (ADR 107). */
  loopPerCommand: number;
  /** The round's wall-clock window, to sum the garbage collections that fell in it. */
  window: readonly [number, number];
}

/** Every garbage collection of the process (start, duration in ms), to charge each round its pauses. */
const collections: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) collections.push({ start: e.startTime, duration: e.duration });
}).observe({ entryTypes: ['gc'] });
/** Milliseconds of collection pauses that started inside a round, and the longest one. */
const gcIn = ([from, to]: readonly [number, number]) => {
  const inside = collections.filter((c) => c.start >= from && c.start <= to);
  return { total: inside.reduce((n, c) => n + c.duration, 0), longest: Math.max(0, ...inside.map((c) => c.duration)) };
};

/** The command a table's sender issues i-th: empty tables alternate note / clock; realistic ones also tick a countdown. */
type CommandOf = (t: number, i: number) => Command;
const emptyCommand: CommandOf = (_t, i) => (i % 2 ? { type: 'clock.advance', unit: 'round' } : { type: 'log.note', text: `bench ${i}` });

/**
 * A frame's `type` and a number field, read off its bytes without JSON.parse. Clients share
 * the server's process, so parsing whole frames would be timed as server work (and ours are
 * larger than the bare peer's). Both servers write `type` first and the version before any content.
 */
const typeIs = (frame: Buffer, type: string): boolean => frame.indexOf(`{"type":"${type}"`) === 0;
function numberAt(frame: Buffer, field: string): number | null {
  const at = frame.indexOf(`"${field}":`);
  if (at < 0) return null;
  let n = 0;
  let digits = 0;
  for (let i = at + field.length + 3; i < frame.length; i++, digits++) {
    const c = frame[i]!;
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return digits === 0 ? null : n;
}

/** Drives one table: the first socket sends COMMANDS commands one after another; the others time each broadcast. */
async function drive(
  sockets: WebSocket[],
  send: (ws: WebSocket, i: number) => string,
  versionOf: (frame: Buffer) => number | null,
  isAck: (frame: Buffer) => boolean,
  latencies: number[],
  sizes: Map<string, number[]>,
): Promise<number> {
  // keyed by the version a command produces, counted from the table's version when the round starts
  const sentAt = new Map<number, number>();
  const kindAt = new Map<number, string>();
  const record = (who: string, v: number | null, bytes: number) => {
    const kind = v === null ? undefined : kindAt.get(v);
    if (kind === undefined) return;
    const key = `${kind} ${who}`;
    const list = sizes.get(key) ?? [];
    list.push(bytes);
    sizes.set(key, list);
  };
  let waitingAck: (() => void) | null = null;
  let delivered = 0;
  const [sender, ...watchers] = sockets as [WebSocket, ...WebSocket[]];
  const listeners = watchers.map((w, n) => {
    const listener = (d: WebSocket.RawData) => {
      const v = versionOf(d as Buffer);
      const t0 = v === null ? undefined : sentAt.get(v);
      if (t0 === undefined) return;
      latencies.push(performance.now() - t0);
      delivered++;
      if (n === 0) record('player', v, (d as Buffer).length);
    };
    w.on('message', listener);
    return listener;
  });
  const onSender = (d: WebSocket.RawData) => {
    const frame = d as Buffer;
    record('gm', versionOf(frame), frame.length);
    if (isAck(frame) && waitingAck) waitingAck();
  };
  sender.on('message', onSender);
  for (let i = 0; i < COMMANDS; i++) {
    const acked = new Promise<void>((r) => (waitingAck = r));
    sentAt.set(i + 1, performance.now());
    kindAt.set(i + 1, send(sender, i));
    await acked;
  }
  const lastAck = performance.now();
  // The last broadcast may still be on its way to the watchers (bounded wait), then the round's listeners go.
  const until = performance.now() + 2000;
  while (delivered < COMMANDS * watchers.length && performance.now() < until) await new Promise((r) => setTimeout(r, 2));
  watchers.forEach((w, n) => w.off('message', listeners[n]!));
  sender.off('message', onSender);
  return lastAck;
}

/** Opens a table socket and resolves once its snapshot is in (so the timed run does not include joining). */
function openSynced(url: string, protocols: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const onMessage = (d: WebSocket.RawData) => {
      if (!d.toString().startsWith('{"type":"snapshot"')) return;
      ws.off('message', onMessage);
      resolve(ws);
    };
    ws.on('message', onMessage);
    ws.once('error', reject);
  });
}

function open(url: string, protocols: string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** One side of the comparison, set up once per mode: `round(r)` runs one timed round on its sockets. */
interface Contender {
  round(r: number): Promise<LoadResult>;
  close(): Promise<void>;
}

/** CPU time of the process's main thread (ms), from /proc (the thread's id is the process's); NaN where there is no /proc. */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of the file, in clock ticks of 10 ms (CLK_TCK 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Times one round over all tables at once: from the first command to the last table's last ack. */
async function timed(run: (latencies: number[], sizes: Map<string, number[]>) => Promise<number[]>): Promise<LoadResult> {
  const latencies: number[] = [];
  const sizes = new Map<string, number[]>();
  const cpu = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  const start = performance.now();
  const lastAcks = await run(latencies, sizes);
  const end = performance.now();
  const used = process.cpuUsage(cpu);
  const loopPerCommand = (1000 * (mainThreadCpuMs() - main0)) / (TABLES * COMMANDS);
  const seconds = (Math.max(...lastAcks) - start) / 1000;
  const cpuPerCommand = (used.user + used.system) / (TABLES * COMMANDS);
  return { commandsPerSecond: (TABLES * COMMANDS) / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), deliveries: latencies.length, sizes, cpuPerCommand, loopPerCommand, window: [start, end] };
}

/** The bench's rulesets: its own module lists, or (BENCH_ENGINE=registry) the server's OSR engine for the realistic tables. */
function benchCatalog() {
  const own = moduleCatalog([
    { id: 'bench', modules: [coreModule, countdownsModule] },
    { id: 'osr', modules: [coreModule, countdownsModule, ...osr.ruleset.modules] },
  ]);
  if (!REGISTRY_ENGINE) return own;
  const served = engineFor('osr')!;
  return {
    ...own,
    engineFor: (id: string) => (id === 'osr' ? served : own.engineFor(id)),
    createTable: (id: string, input: { tableId: string; name: string }) => (id === 'osr' ? { ok: true as const, value: served.createTable({ ...input, rulesetId: id }) } : own.createTable(id, input)),
  };
}

/** Our server: real SQLite file, fair dice, per-viewer views and deltas. */
async function tablekeeper(mode: 'empty' | 'realistic'): Promise<Contender> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(dir, `load-${mode}.sqlite`),
    logger: pino({ level: 'silent' }),
    catalog: benchCatalog(),
    webDist: null,
    rateLimit: { capacity: 1e6, refillPerSecond: 1e6 },
    httpRateLimit: { capacity: 1e6, refillPerSecond: 1e6 },
    limits: { maxTables: TABLES + 10 },
    ...(DURABILITY === undefined ? {} : { durability: DURABILITY }),
    ...(WRITER === undefined ? {} : { sqliteWriter: WRITER }),
  });
  const wsUrl = server.url.replace('http', 'ws') + WS_PATH;
  const tables: WebSocket[][] = [];
  const tableIds: string[] = [];
  const countdownIds: string[][] = [];
  for (let t = 0; t < TABLES; t++) {
    const made = await server.createTable(`Bench ${t}`, mode === 'empty' ? 'bench' : 'osr');
    if ('error' in made) throw new Error(made.error.message);
    tableIds.push(made.tableId);
    const tokens = [made.gmToken];
    const seatIds: string[] = [];
    for (let p = 1; p < PER_TABLE; p++) {
      const seat = p < PER_TABLE - 1 ? await server.createSeat(made.tableId, `P${p}`) : await server.createSpectatorLink(made.tableId);
      if ('error' in seat) throw new Error(seat.error.message);
      const seatId = (seat as { seatId?: string }).seatId;
      if (seatId !== undefined) seatIds.push(seatId);
      tokens.push(seat.token);
    }
    if (mode === 'realistic') countdownIds.push(await furnish(server, made.tableId, seatIds));
    tables.push(await Promise.all(tokens.map((tok) => openSynced(wsUrl, wsProtocols(tok)))));
  }
  const commandOf: CommandOf = mode === 'empty' ? emptyCommand : (t, i) => (i % 3 === 0 ? { type: 'log.note', text: `bench ${i}` } : i % 3 === 1 ? { type: 'clock.advance', unit: 'round' } : { type: 'countdown.tick', id: countdownIds[t]![i % 2]! });
  await new Promise((r) => setTimeout(r, 300)); // let presence updates settle
  return {
    async round(r) {
      let rejected = 0;
      mark(`${mode} tablekeeper round ${r} start`);
      if (r >= 0) await sampler?.start();
      const result = await timed((latencies, sizes) =>
        Promise.all(
          tables.map((sockets, t) => {
            const startVersion = server.room(tableIds[t]!)!.version;
            return drive(
              sockets,
              (ws, i) => {
                const command = commandOf(t, i);
                ws.send(JSON.stringify({ type: 'command', commandId: `b${r}-${t}-${i}`, expectedVersion: startVersion + i, command }));
                return command.type;
              },
              (f) => (typeIs(f, 'delta') ? (numberAt(f, 'version') ?? NaN) - startVersion : null),
              (f) => {
                if (typeIs(f, 'rejection')) rejected++;
                // The ack is its own frame, or folded into the sender's delta (its last field).
                return typeIs(f, 'ack') || typeIs(f, 'rejection') || (typeIs(f, 'delta') && f.indexOf('"acks":[') >= 0);
              },
              latencies,
              sizes,
            );
          }),
        ),
      );
      mark(`${mode} tablekeeper round ${r} end`);
      if (r >= 0) await sampler?.stop();
      if (rejected) throw new Error(`${rejected} bench commands were rejected`);
      return result;
    },
    async close() {
      for (const s of tables.flat()) s.terminate();
      await server.close();
    },
  };
}

/** A realistic table: 10 characters (3 held by seats), a 10-combatant encounter, 3 countdowns, 300 notes (1 in 5 GM-only). Returns two countdown ids to tick. */
async function furnish(server: Awaited<ReturnType<typeof startServer>>, tableId: string, seatIds: string[]): Promise<string[]> {
  const room = (await server.load(tableId))!;
  let writer: BatchWriter | null = null;
  const run = (command: Command) => {
    const r = room.submit({ role: 'gm' }, null, room.version, command, writer);
    if (!r.ok) throw new Error(`${command.type}: ${JSON.stringify(r.error)}`);
    return r.transaction?.kind === 'command' ? r.transaction.events : [];
  };
  const countdowns: string[] = [];
  // One group commit through the port, whichever writer the store has (the queue is idle while the bench sets up).
  const { durable } = await server.store.commit([], (w) => {
    writer = w;
    const characterIds: string[] = [];
    for (let c = 0; c < 10; c++) {
      const seatId = seatIds[c];
      const events = run({ type: 'character.add', name: `Hero ${c}`, kind: seatId === undefined ? 'npc' : 'pc', ...(seatId === undefined ? {} : { seatId }), stats: { hp: 8 + c, maxHp: 12 + c, ac: 12 } });
      characterIds.push(String(events[0]?.['id']));
    }
    run({ type: 'encounter.start', combatants: characterIds.map((characterId, i) => ({ id: `k${i}`, name: `Fighter ${i}`, kind: i < seatIds.length ? 'pc' : 'npc', characterId, score: 20 - i, stats: { hp: 10 + i, maxHp: 17 } })) });
    for (let c = 0; c < 3; c++) {
      const events = run({ type: 'countdown.create', name: `Doom ${c}`, start: 100, visibility: c === 2 ? 'hidden' : 'visible' });
      countdowns.push(String(events[0]?.['id']));
    }
    for (let n = 0; n < 300; n++) run({ type: 'log.note', text: `Note ${n}: the party checks the corridor and the torches flicker in the draught.`, ...(n % 5 === 4 ? { audience: { kind: 'gm' } } : {}) });
  });
  await durable;
  return countdowns;
}

/** The peer: a bare `ws` server that relays each message to the room and acks the sender. No store, no engine. */
async function bareWs(): Promise<Contender> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 64 * 1024 });
  await new Promise((r) => wss.once('listening', r));
  const rooms = new Map<string, Set<WebSocket>>();
  const versions = new Map<string, number>();
  wss.on('connection', (ws, req) => {
    const room = req.url ?? '/';
    if (!rooms.has(room)) rooms.set(room, new Set());
    rooms.get(room)!.add(ws);
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { commandId: string; command: unknown };
      const v = (versions.get(room) ?? 0) + 1;
      versions.set(room, v);
      const out = JSON.stringify({ type: 'delta', version: v, command: m.command });
      for (const peer of rooms.get(room)!) if (peer !== ws) peer.send(out);
      ws.send(JSON.stringify({ type: 'ack', commandId: m.commandId, version: v }));
    });
  });
  const port = (wss.address() as { port: number }).port;
  const tables: WebSocket[][] = [];
  for (let t = 0; t < TABLES; t++) tables.push(await Promise.all(Array.from({ length: PER_TABLE }, () => open(`ws://127.0.0.1:${port}/t${t}`))));
  return {
    round(r) {
      // The same client workload as ours: the empty tables' commands, one after another per table.
      const startVersion = (r + 1) * COMMANDS; // round -1 is the warm-up
      return timed((latencies, sizes) =>
        Promise.all(
          tables.map((sockets, t) =>
            drive(
              sockets,
              (ws, i) => {
                const command = emptyCommand(t, i);
                ws.send(JSON.stringify({ type: 'command', commandId: `b${r}-${t}-${i}`, expectedVersion: startVersion + i, command }));
                return command.type;
              },
              (f) => (typeIs(f, 'delta') ? (numberAt(f, 'version') ?? NaN) - startVersion : null),
              (f) => typeIs(f, 'ack'),
              latencies,
              sizes,
            ),
          ),
        ),
      );
    },
    async close() {
      for (const s of tables.flat()) s.terminate();
      await new Promise((r) => wss.close(r));
    },
  };
}

/** Durable commits: raw better-sqlite3 vs the store's append vs a whole room.submit, same pragmas, same payload. */
async function commits() {
  const engine = createEngine([coreModule, countdownsModule]);
  const payload: Transaction = { seq: 1, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: 'bench note' }, events: [{ type: 'log.noted', text: 'bench note', audience: { kind: 'all' }, by: 'gm' }] };
  const json = JSON.stringify(payload);

  const raw = new Database(join(dir, 'raw.sqlite'));
  applyPragmas(raw);
  raw.exec('CREATE TABLE transactions (table_id TEXT NOT NULL, version INTEGER NOT NULL, command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_id, version), UNIQUE (table_id, command_id)) STRICT');
  const insert = raw.prepare('INSERT INTO transactions (table_id, version, command_id, actor, tx) VALUES (?, ?, ?, ?, ?)');
  let rawV = 0;
  const rawCommit = raw.transaction(() => {
    rawV++;
    insert.run('t', rawV, `c${rawV}`, 'gm', json);
  });

  const store = openSqliteStore(join(dir, 'store.sqlite'));
  const genesis = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'bench' }).genesis;
  store.createTable({ tableId: 't', name: 'T', rulesetId: 'bench', genesis, createdAt: 0 }, []);
  store.createTable({ tableId: 'r', name: 'R', rulesetId: 'bench', genesis: { ...genesis, tableId: 'r' }, createdAt: 0 }, []);
  let storeV = 0;
  const room = Room.load(store, engine, store.getTable('r')!, { maxTransactions: 1e9, maxSessions: 10, snapshotEvery: 1e9, historyWindow: 100, historyScan: 2000 });
  let roomN = 0;

  const bench = new Bench({ time: 2000, warmupTime: 200 });
  bench
    .add('raw better-sqlite3 insert (WAL, synchronous=FULL, BEGIN IMMEDIATE)', () => {
      rawCommit.immediate();
    })
    .add('event store append (same pragmas)', () => {
      const r = store.append('t', storeV, { commandId: `c${storeV + 1}`, actorKey: 'gm', transaction: { ...payload, seq: storeV + 1 } });
      if (!r.ok) throw new Error('append failed');
      storeV++;
    })
    .add('room.submit: decide + evolve + durable append', () => {
      const r = room.submit({ role: 'gm' }, `r${++roomN}`, room.version, { type: 'log.note', text: 'bench note' });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    });
  await bench.run();
  const hz = (i: number) => {
    const res = bench.tasks[i]!.result as unknown as { throughput?: { mean: number } };
    return res.throughput?.mean ?? NaN;
  };
  raw.close();
  store.close();
  return { raw: hz(0), append: hz(1), submit: hz(2) };
}

/**
 * Group commits of 7 appends (the realistic mode's mean batch) through the port, awaited one after another as the
 * commit queue does, on each writer (ADR 107): the main thread's CPU and the wall time until durable, per command.
 */
async function groupCommits(): Promise<{ [writer in SqliteWriter]: { mainUs: number; wallUs: number } }> {
  const payload: Transaction = { seq: 1, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: 'bench note' }, events: [{ type: 'log.noted', text: 'bench note', audience: { kind: 'all' }, by: 'gm' }] };
  const genesis = createEngine([coreModule]).createTable({ tableId: 't', name: 'T', rulesetId: 'bench' }).genesis;
  const out = {} as { [writer in SqliteWriter]: { mainUs: number; wallUs: number } };
  for (const writer of ['loop', 'thread'] as const) {
    const path = join(dir, `group-${writer}.sqlite`);
    const store = writer === 'thread' ? await openSqliteThreadStore(path) : asyncStore(openSqliteStore(path));
    await store.createTable({ tableId: 't', name: 'T', rulesetId: 'bench', genesis, createdAt: 0 }, []);
    let v = 0;
    const batch = async () => {
      const { durable } = await store.commit([], (w) => {
        for (let i = 0; i < 7; i++, v++) if (!w.append('t', v, { commandId: `c${v + 1}`, actorKey: 'gm', transaction: { ...payload, seq: v + 1 } }).ok) throw new Error('append failed');
      });
      await durable;
    };
    for (let i = 0; i < 50; i++) await batch();
    const batches = 3000;
    const main0 = mainThreadCpuMs();
    const t0 = performance.now();
    for (let i = 0; i < batches; i++) await batch();
    out[writer] = { mainUs: (1000 * (mainThreadCpuMs() - main0)) / (batches * 7), wallUs: (1000 * (performance.now() - t0)) / (batches * 7) };
    await store.close();
  }
  return out;
}

const loadBefore = loadavg();
const machine = `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, Node ${process.version}`;
const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; loopback; clients and servers share one process`);
console.log(`load: ${TABLES} tables x ${PER_TABLE} clients = ${TABLES * PER_TABLE} WebSocket clients, ${COMMANDS} commands per table`);
console.log(`store durability: ${DURABILITY ?? DEFAULT_DURABILITY} (BENCH_DURABILITY=process-crash|os-crash; ADR 31)`);
console.log(`store writer: ${WRITER ?? DEFAULT_SQLITE_WRITER} (BENCH_SQLITE_WRITER=thread|loop; ADR 107)`);
console.log(`load average at start (shared machine): ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
const medianSizes = (sizes: Map<string, number[]>) =>
  [...sizes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, xs]) => `${k} ${f(pct(xs, 50))}`)
    .join(', ');
const median = (xs: number[]) => pct(xs, 50);
const modeFigures: { [mode: string]: ModeFigures } = {};
const logNoteBytes: { [modeAndReceiver: string]: number } = {};
try {
  for (const mode of MODES) {
    if (mode !== 'empty' && mode !== 'realistic') throw new Error(`BENCH_MODES: unknown mode ${mode} (empty, realistic)`);
    const prefix = mode === 'realistic' ? 'realistic ' : '';
    const ours = await tablekeeper(mode);
    const peer = await bareWs();
    // One untimed round each first: the JIT warms up on both sides before anything is counted.
    await ours.round(-1);
    await peer.round(-1);
    const rounds: { ours: LoadResult; peer: LoadResult }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate who goes first, so a trend in the machine's load does not favour one side.
      let o: LoadResult;
      let p: LoadResult;
      if (r % 2 === 0) {
        o = await ours.round(r);
        p = await peer.round(r);
      } else {
        p = await peer.round(r);
        o = await ours.round(r);
      }
      rounds.push({ ours: o, peer: p });
      console.log(`${prefix}round ${r + 1}/${ROUNDS}: ours ${f(o.commandsPerSecond)}/s p50 ${f(o.p50, 1)} p99 ${f(o.p99, 1)} ms ${f(o.cpuPerCommand)} us CPU/command; bare ws ${f(p.commandsPerSecond)}/s p50 ${f(p.p50, 1)} p99 ${f(p.p99, 1)} ms ${f(p.cpuPerCommand)} us CPU/command; ratio throughput ${f(o.commandsPerSecond / p.commandsPerSecond, 2)}x, p50 ${f(o.p50 / p.p50, 2)}x, p99 ${f(o.p99 / p.p99, 2)}x; load ${f(loadavg()[0]!, 2)}`);
    }
    await ours.close();
    await peer.close();
    const mid = (side: 'ours' | 'peer', k: 'commandsPerSecond' | 'p50' | 'p99') => median(rounds.map((x) => x[side][k]));
    const ratio = (k: 'commandsPerSecond' | 'p50' | 'p99') => median(rounds.map((x) => x.ours[k] / x.peer[k]));
    const sizes = new Map<string, number[]>();
    for (const x of rounds) for (const [k, v] of x.ours.sizes) sizes.set(k, [...(sizes.get(k) ?? []), ...v]);
    if (mode === 'realistic') console.log('realistic tables: 10 characters, a 10-combatant OSR encounter, 3 countdowns, 300 notes (1 in 5 GM-only); commands cycle log.note, clock.advance, countdown.tick');
    console.log(`${prefix}tablekeeper server : ${f(mid('ours', 'commandsPerSecond'))} commands/s, command-to-broadcast p50 ${f(mid('ours', 'p50'), 1)} ms, p99 ${f(mid('ours', 'p99'), 1)} ms (medians of ${ROUNDS} rounds, ${rounds.reduce((n, x) => n + x.ours.deliveries, 0)} deliveries)`);
    console.log(`${prefix}bare ws broadcast  : ${f(mid('peer', 'commandsPerSecond'))} commands/s, p50 ${f(mid('peer', 'p50'), 1)} ms, p99 ${f(mid('peer', 'p99'), 1)} ms (medians of ${ROUNDS} rounds, ${rounds.reduce((n, x) => n + x.peer.deliveries, 0)} deliveries)`);
    console.log(`${prefix}ratio (ours / bare ws): throughput ${f(ratio('commandsPerSecond'), 2)}x, p50 latency ${f(ratio('p50'), 2)}x, p99 latency ${f(ratio('p99'), 2)}x (median of ${ROUNDS} rounds' ratios)`);
    console.log(`${prefix}median delta bytes (kind receiver): ${medianSizes(sizes)}`);
    const cpuOf = (side: 'ours' | 'peer') => median(rounds.map((x) => x[side].cpuPerCommand));
    // CPU per command counts the clients' work too (they share the process); it moves little with the machine's load.
    console.log(`${prefix}CPU per command (process, clients included): ours ${f(cpuOf('ours'))} us, bare ws ${f(cpuOf('peer'))} us, ratio ${f(median(rounds.map((x) => x.ours.cpuPerCommand / x.peer.cpuPerCommand)), 2)}x (medians of ${ROUNDS} rounds)`);
    const loopOf = (side: 'ours' | 'peer') => median(rounds.map((x) => x[side].loopPerCommand));
    console.log(`${prefix}main thread CPU per command (clients included): ours ${f(loopOf('ours'))} us, bare ws ${f(loopOf('peer'))} us (medians of ${ROUNDS} rounds)`);
    const gcOf = (side: 'ours' | 'peer') => rounds.map((x) => gcIn(x[side].window));
    const gcLine = (side: 'ours' | 'peer') => `${f(median(gcOf(side).map((g) => g.total)))} ms a round, longest pause ${f(Math.max(...gcOf(side).map((g) => g.longest)), 1)} ms`;
    console.log(`${prefix}garbage collection in the rounds: ours ${gcLine('ours')}; bare ws ${gcLine('peer')}`);
    modeFigures[mode] = { throughput: ratio('commandsPerSecond'), p99: ratio('p99') };
    for (const who of ['gm', 'player']) {
      const xs = sizes.get(`log.note ${who}`);
      if (xs !== undefined) logNoteBytes[`${mode}, ${who}`] = pct(xs, 50);
    }
    if (sampler) {
      for (const line of sampler.lines(TABLES * COMMANDS * ROUNDS, 'command', 20)) console.log(`${prefix}${line}`);
      sampler.byFunction.clear();
      sampler.total = 0;
    }
    console.log(`load average after ${mode}: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  }
  // The load goals' machine state: measured as the WebSocket modes end (the commit and replay lines below add their own load).
  const loadAfter = loadavg();
  // BENCH_EXTRAS=0 leaves out the commit and replay lines (A/B runs of the load modes only).
  const extras = process.env['BENCH_EXTRAS'] !== '0';
  if (extras) {
    const c = await commits();
    console.log(`raw better-sqlite3 durable inserts : ${f(c.raw)} commits/s`);
    console.log(`event store append                 : ${f(c.append)} commits/s (ratio ${f(c.append / c.raw, 2)}x raw)`);
    console.log(`room.submit (engine + append)      : ${f(c.submit)} commands/s (ratio ${f(c.submit / c.raw, 2)}x raw)`);
    const g = await groupCommits();
    for (const w of ['loop', 'thread'] as const) console.log(`group commit of 7, writer on the ${w.padEnd(6)}: main thread ${f(g[w].mainUs, 1)} us CPU, ${f(g[w].wallUs, 1)} us until durable, per command`);
  }
  const replay = extras ? replayFigures() : { lines: [], ratio: null };
  for (const line of replay.lines) console.log(line);
  console.log('');
  for (const line of goalLines(goalsOf({ modes: modeFigures, logNoteBytes, replayRatio: replay.ratio }), machine, loadBefore, loadAfter)) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
