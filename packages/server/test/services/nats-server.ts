// A real nats-server for one test file: started on a random loopback port,
// stopped by its own pid (and killed if the test process dies first).
import { spawn, type ChildProcess } from 'node:child_process';

export interface NatsServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const LISTENING = /Listening for client connections on ([\d.]+):(\d+)/;

export async function startNatsServer(): Promise<NatsServer> {
  const bin = process.env.NATS_SERVER_PATH ?? 'nats-server';
  const child: ChildProcess = spawn(bin, ['-a', '127.0.0.1', '-p', '-1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not say it was listening within 15 s; it said: ${seen.slice(-500)}`)), 15_000);
    child.once('error', (e) => (clearTimeout(timer), reject(new Error(`nats-server could not start (${e.message}): run scripts/ensure-packages.mjs`))));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`nats-server exited with ${code}: ${seen.slice(-500)}`))));
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = LISTENING.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(`nats://${m[1]}:${m[2]}`);
      }
    });
  });
  // Keep reading its log so a full pipe never blocks it.
  child.stderr!.resume();
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
