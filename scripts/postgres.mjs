// A throwaway PostgreSQL for tests and benches (ADR 49): Debian's binaries,
// a fresh cluster in a temp dir (initdb), the server started directly on a
// free loopback port and stopped by its own pid. PostgreSQL refuses to run as
// root, so as root the cluster belongs to the `postgres` user the Debian
// package creates. `node scripts/postgres.mjs --ensure` installs the package
// when it is missing (scripts/ensure-packages.mjs, which `npm test` runs).
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePackages, NEEDS, postgresBin } from './ensure-packages.mjs';

export { postgresBin };

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs Debian's postgresql when no binaries are found (one apt call, as root or through sudo, scripts/ensure-packages.mjs); throws a clear error otherwise. */
export function ensurePostgres() {
  if (postgresBin()) return postgresBin();
  // The package's own cluster is not used: tests start their own in a temp dir.
  ensurePackages(NEEDS.filter((n) => n.apt === 'postgresql'));
  const bin = postgresBin();
  if (!bin) throw new Error('apt-get installed postgresql, but no /usr/lib/postgresql/<version>/bin/postgres was found');
  return bin;
}

/** The uid and gid of `name` from /etc/passwd; null when there is no such user. */
function userIds(name) {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Every cluster this process started and has not stopped: killed by pid on exit or an interrupt. */
const running = new Set();
let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  // Immediate shutdown (SIGQUIT) by pid: nothing of a throwaway cluster needs saving.
  process.on('exit', () => {
    for (const c of running) c.kill();
  });
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      for (const c of running) c.kill();
      process.kill(process.pid, sig);
    });
  }
}

/**
 * Starts a fresh cluster. `fsync: false` (the default) is for tests, where a crash loses nothing of worth;
 * benches pass `fsync: true` so PostgreSQL syncs its WAL on every commit, as SQLite does.
 * Resolves with its URL, pid and stop(); stop() ends it by pid and removes its directory.
 */
export async function startPostgres({ fsync = false, log = false } = {}) {
  const bin = ensurePostgres();
  const owner = isRoot() ? userIds('postgres') : null;
  if (isRoot() && owner === null) throw new Error('PostgreSQL refuses to run as root and there is no postgres user; install Debian\'s postgresql (it creates one)');
  const as = owner === null ? {} : { uid: owner.uid, gid: owner.gid };
  const dir = mkdtempSync(join(tmpdir(), 'tk-pg-'));
  if (owner !== null) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'tablekeeper', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'], { ...as, stdio: 'ignore' });
  const port = await freePort();
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', `fsync=${fsync ? 'on' : 'off'}`, '-c', 'max_connections=200', '-c', 'shared_buffers=64MB'];
  if (!fsync) args.push('-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const child = spawn(join(bin, 'postgres'), args, { ...as, stdio: ['ignore', 'ignore', log ? 'inherit' : 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const pid = child.pid;
  const handle = {
    kill() {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    },
  };
  running.add(handle);
  hookExit();
  const url = `postgres://tablekeeper@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    running.delete(handle);
    if (child.exitCode === null && child.signalCode === null) {
      // Fast shutdown first; an immediate one (SIGQUIT) and then SIGKILL if it lingers.
      process.kill(pid, 'SIGINT');
      const late = setTimeout(() => handle.kill(), 5000);
      const later = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(late);
      clearTimeout(later);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it accepts a connection (pg_isready), or failed if it exited first.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(handle);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`postgres exited before it was ready: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }
    try {
      execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'tablekeeper', '-d', 'postgres', '-q'], { stdio: 'ignore' });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`postgres did not accept connections within 60 s on port ${port}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, pid, port, dir, stop };
}

// CLI: `--ensure` installs the binaries when missing; `--start` starts a cluster, prints its URL and stops it on Ctrl-C.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const arg = process.argv[2];
  if (arg === '--ensure') {
    try {
      console.log(`PostgreSQL binaries: ${ensurePostgres()}`);
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    }
  } else if (arg === '--start') {
    const pg = await startPostgres({ fsync: process.argv.includes('--fsync') });
    console.log(`DATABASE_URL=${pg.url}  (pid ${pg.pid}; Ctrl-C stops it)`);
    process.once('SIGINT', () => void pg.stop().then(() => process.exit(0)));
  } else {
    console.error('usage: node scripts/postgres.mjs --ensure | --start [--fsync]');
    process.exit(2);
  }
}
