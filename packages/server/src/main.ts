// `npm start` and `tablekeeper serve`: serves the table server on PORT (default
// 7777) with the SQLite file under ./data (DATA_DIR or --db to change). On first
// start (or with --new-table) it creates a table and prints the GM, player and
// spectator links. DATABASE_URL=postgres://... keeps the tables in PostgreSQL
// instead (ADR 49); without it nothing changes.
import { networkInterfaces } from 'node:os';
import { pathToFileURL } from 'node:url';
import { capabilityLink } from '@tablekeeper/protocol';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, DEFAULT_PORT, openSqliteStore, startServer, type Durability, type SqliteWriter } from './index.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { openPostgresStore } from './store/postgres.js';
import { NatsBus } from './bus/nats.js';
import { PgLeaseStore } from './cluster/lease.js';

interface Args {
  db?: string;
  port?: number;
  host?: string;
  newTable: boolean;
  ruleset?: string;
  name?: string;
  backup?: string;
}

const USAGE = `usage: npm start -- (or: npx tablekeeper serve) [--db FILE] [--port N] [--host ADDR] [--new-table] [--ruleset ID] [--name NAME]
env: PORT (default ${DEFAULT_PORT}), HOST (default 0.0.0.0), DATA_DIR (default ./data), LOG_LEVEL (default warn),
     TABLEKEEPER_ADMIN_TOKEN (enables GET /api/backup while serving),
     TABLEKEEPER_DURABILITY (process-crash, the default, or os-crash: what an acknowledged command survives),
     TABLEKEEPER_SQLITE_WRITER (loop, the default: the SQLite file is written on the event loop; thread: on a worker thread),
     DATABASE_URL=postgres://user:password@host:5432/db (PostgreSQL instead of the SQLite file),
     NATS_URL=nats://host:4222 (with DATABASE_URL: several instances serve the same tables; docs/deploy.md),
     TABLEKEEPER_LEASE_MS (shared mode: how long a dead instance's tables wait for another, default 3000),
     NODE_OPTIONS=--max-semi-space-size=32 (npm start passes it: the young generation ADR 126 measured; tablekeeper serve takes it from here)`;

function parseArgs(argv: readonly string[]): Args | string {
  const a: Args = { newTable: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = (): string | undefined => argv[++i];
    if (k === '--db') a.db = v();
    else if (k === '--port') a.port = Number(v());
    else if (k === '--host') a.host = v();
    else if (k === '--new-table') a.newTable = true;
    else if (k === '--ruleset') a.ruleset = v();
    else if (k === '--name') a.name = v();
    else if (k === '--backup') a.backup = v();
    else if (k === '--help' || k === '-h') return USAGE;
    else return `unknown option ${k}\n${USAGE}`;
  }
  if (a.port !== undefined && !(Number.isInteger(a.port) && a.port >= 0 && a.port < 65536)) return `--port must be 0..65535\n${USAGE}`;
  return a;
}

function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const n of list ?? []) if (n.family === 'IPv4' && !n.internal) return n.address;
  }
  return null;
}

/** Runs the server until SIGINT/SIGTERM; `argv` are the options after the command. */
export async function serveMain(argv: readonly string[]): Promise<void> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    console.error(args);
    process.exit(args === USAGE ? 0 : 2);
  }
  if (args.backup) {
    // Offline backup: the server must not be running on this file (it holds its lock, ADR 24); use GET /api/backup then.
    const dbPath = args.db ?? join(process.env['DATA_DIR'] ?? 'data', 'tablekeeper.sqlite');
    if (!existsSync(dbPath)) throw new Error(`no database at ${dbPath}`);
    const store = openSqliteStore(dbPath);
    try {
      await store.backup(args.backup);
    } finally {
      store.close();
    }
    console.log(`backed up ${dbPath} to ${args.backup}`);
    return;
  }
  const port = args.port ?? (process.env['PORT'] ? Number(process.env['PORT']) : DEFAULT_PORT);
  const host = args.host ?? process.env['HOST'] ?? '0.0.0.0';
  const databaseUrl = process.env['DATABASE_URL'];
  if (databaseUrl !== undefined && databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use the SQLite file)');
  if (databaseUrl && args.db) throw new Error('--db names a SQLite file, and DATABASE_URL a PostgreSQL database: give one of them');
  const natsUrl = process.env['NATS_URL'];
  if (natsUrl && !databaseUrl) throw new Error('NATS_URL needs DATABASE_URL too: the instances of the shared mode keep their tables in one PostgreSQL database');
  if (natsUrl && !/^(nats|tls):\/\//.test(natsUrl)) throw new Error('NATS_URL must be a nats:// (or tls://) URL');
  const store = databaseUrl ? await openPostgresStore(databaseUrl) : undefined;
  const leaseMs = process.env['TABLEKEEPER_LEASE_MS'] ? Number(process.env['TABLEKEEPER_LEASE_MS']) : undefined;
  if (leaseMs !== undefined && !(Number.isInteger(leaseMs) && leaseMs >= 300 && leaseMs <= 60_000)) throw new Error('TABLEKEEPER_LEASE_MS must be an integer from 300 to 60000');
  // The shared mode (ADR 60): only with both URLs does any cluster code run.
  const instanceId = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const cluster =
    natsUrl && store
      ? { bus: await NatsBus.connect({ url: natsUrl, name: `tablekeeper ${instanceId}`, onError: (e: unknown) => console.error(`tablekeeper bus: ${e instanceof Error ? e.message : String(e)}`) }), leases: await PgLeaseStore.open(store.pool), instanceId, ...(leaseMs === undefined ? {} : { leaseMs }) }
      : undefined;
  const server = await startServer({
    port,
    host,
    ...(store ? { store } : {}),
    ...(cluster ? { cluster } : {}),
    // Quiet by default so the links stay readable; LOG_LEVEL=info shows every request (tokens redacted).
    logger: createLogger(process.env['LOG_LEVEL'] ?? 'warn'),
    ...(args.db ? { dbPath: args.db } : {}),
    ...(process.env['DATA_DIR'] ? { dataDir: process.env['DATA_DIR'] } : {}),
    ...(process.env['TABLEKEEPER_ADMIN_TOKEN'] ? { adminToken: process.env['TABLEKEEPER_ADMIN_TOKEN'] } : {}),
    // 'os-crash' acknowledges a command only once it is synced to disk (ADR 31); openSqliteStore names a wrong value.
    ...(process.env['TABLEKEEPER_DURABILITY'] ? { durability: process.env['TABLEKEEPER_DURABILITY'] as Durability } : {}),
    // Where the SQLite file's commits run (ADR 107); startServer names a wrong value.
    ...(process.env['TABLEKEEPER_SQLITE_WRITER'] ? { sqliteWriter: process.env['TABLEKEEPER_SQLITE_WRITER'] as SqliteWriter } : {}),
  });
  const lan = host === '0.0.0.0' ? lanAddress() : null;
  const base = lan ? `http://${lan}:${server.port}` : server.url;
  console.log(`Tablekeeper is serving on ${server.url}${lan ? ` (on your network: ${base})` : ''}`);
  console.log(`database: ${server.dbPath ?? `PostgreSQL (${server.store.kind === 'postgres' ? 'DATABASE_URL' : server.store.kind})`}`);
  if (cluster) console.log(`shared mode: instance ${instanceId} on NATS_URL`);

  if (args.newTable || (await server.store.countTables()) === 0) {
    const rulesetId = args.ruleset ?? server.catalog.ids()[0];
    if (!rulesetId) throw new Error('no rulesets are installed');
    const made = await server.createTable(args.name ?? 'My table', rulesetId);
    if ('error' in made) throw new Error(made.error.message);
    const seat = await server.createSeat(made.tableId, 'Player 1');
    const spectator = await server.createSpectatorLink(made.tableId);
    console.log(`\nNew table ${made.tableId} (${rulesetId}). Keep the GM link to yourself:`);
    console.log(`  GM link:        ${capabilityLink(base, 'gm', made.gmToken)}`);
    if (!('error' in seat)) console.log(`  Player link:    ${capabilityLink(base, 'player', seat.token)}   (seat "Player 1"; add more seats from the GM screen)`);
    if (!('error' in spectator)) console.log(`  Spectator link: ${capabilityLink(base, 'spectator', spectator.token)}`);
  } else {
    console.log(`${await server.store.countTables()} table(s) in the database. Links are shown only once; start with --new-table for a new one.`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: closing connections and the database...`);
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** True when this file is the process's entry point (npm start), not imported (tablekeeper serve). */
function isEntry(): boolean {
  const entry = process.argv[1];
  return entry !== undefined && import.meta.url === pathToFileURL(entry).href;
}

if (isEntry()) {
  serveMain(process.argv.slice(2)).catch((e: unknown) => {
    console.error(`tablekeeper: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
