// A real PostgreSQL for one test file (issue 22): a fresh cluster in a temp
// dir on a free loopback port, stopped by its own pid and removed afterwards.
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` user
// that Debian's package creates (setpriv execs in place: the pid is the server's).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface Postgres {
  /** `postgres://tablekeeper@127.0.0.1:PORT/tablekeeper` */
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error("PostgreSQL's server binaries were not found under /usr/lib/postgresql: run scripts/ensure-postgres.mjs (npm test does) or set PG_BIN");
  return join(root, newest, 'bin');
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const asServerUser = (cmd: string): [string, string[]] => (root ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', cmd]] : [cmd, []]);
  const dir = mkdtempSync(join(tmpdir(), 'tk-pg-'));
  const data = join(dir, 'data');
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const [initCmd, initPre] = asServerUser(join(bin, 'initdb'));
  execFileSync(initCmd, [...initPre, '-D', data, '-U', 'tablekeeper', '-A', 'trust', '--no-sync', '-E', 'UTF8'], { stdio: 'ignore' });
  const port = await freePort();
  const [cmd, pre] = asServerUser(join(bin, 'postgres'));
  // Loopback only, the socket in our temp dir; fsync off: these tests check behaviour, not crash durability.
  const child: ChildProcess = spawn(cmd, [...pre, '-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-F', '-c', 'max_connections=200'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (c: Buffer) => (log = (log + c.toString('utf8')).slice(-4000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `postgres://tablekeeper@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${log.slice(-800)}`);
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.query('CREATE DATABASE tablekeeper');
      await c.end();
      break;
    } catch (e) {
      await c.end().catch(() => {});
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`postgres did not accept connections within 30 s (${e instanceof Error ? e.message : String(e)}): ${log.slice(-800)}`, { cause: e });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url: `postgres://tablekeeper@127.0.0.1:${port}/tablekeeper`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        // SIGINT: PostgreSQL's fast shutdown (ends sessions, no waiting for clients).
        child.kill('SIGINT');
      }),
  };
}
