// A table server in a child process on a given SQLite file (fixtures/crash-child.ts), for the tests
// that must kill it for real (crash.test) or cap what it may write (disk-full.test, via prlimit).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

export interface ChildServer {
  readonly proc: ChildProcess;
  readonly url: string;
}

/** Every child started; a file's afterAll passes them to killChildServers so none outlives it. */
export const childServers: ChildProcess[] = [];

/** Starts the child and resolves once it prints READY with its URL; rejects with its stderr if it exits first. */
export function startChildServer(dbPath: string, o: { fsizeBytes?: number; checkpointEveryMs?: number; writer?: 'thread' | 'loop' } = {}): Promise<ChildServer> {
  return new Promise((resolve, reject) => {
    const node = [process.execPath, '--import', 'tsx', child, dbPath, o.checkpointEveryMs === undefined ? '' : String(o.checkpointEveryMs), ...(o.writer === undefined ? [] : [o.writer])];
    const [cmd, ...args] = o.fsizeBytes === undefined ? node : ['prlimit', `--fsize=${o.fsizeBytes}`, '--', ...node];
    const proc = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    childServers.push(proc);
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ proc, url: m[1]! });
    });
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('exit', (code) => reject(new Error(`child exited early (${code}): ${err}`)));
  });
}

/** SIGKILL, resolved once the child has exited. */
export const stopChildServer = (p: ChildProcess): Promise<void> =>
  new Promise<void>((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : (p.once('exit', () => resolve()), p.kill('SIGKILL'))));

export function killChildServers(): void {
  for (const p of childServers) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}
