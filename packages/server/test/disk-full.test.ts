// A full disk, for real: the server runs in a child process under
// `prlimit --fsize` (every file it writes is capped), on a real SQLite file.
// When the cap is hit, commands are refused as UNAVAILABLE (never a client
// error), HTTP answers 503, /healthz says 503 and why, and after a restart
// without the cap the log holds exactly the acknowledged transactions.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Client, http, tempDir } from './helpers.js';

const child = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));
const t = tempDir();
const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  t.cleanup();
});

function start(dbPath: string, fsizeBytes: number | null): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const node = [process.execPath, '--import', 'tsx', child, dbPath];
    const proc = fsizeBytes === null ? spawn(node[0]!, node.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn('prlimit', [`--fsize=${fsizeBytes}`, '--', ...node], { stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(proc);
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

const stop = (p: ChildProcess) => new Promise<void>((resolve) => (p.exitCode !== null ? resolve() : (p.once('exit', () => resolve()), p.kill('SIGKILL'))));

describe('a full disk', () => {
  it('refuses commands as UNAVAILABLE, answers 503 on HTTP and /healthz with the reason, and keeps exactly the acknowledged transactions', async () => {
    const dbPath = join(t.dir, 'full.sqlite');
    // First run without a cap creates the schema; the capped run may then grow the files by about 600 KB.
    const first = await start(dbPath, null);
    const made = await http<{ tableId: string; gmToken: string }>(first.url, 'POST', '/api/tables', { name: 'Full', rulesetId: 'core-only' });
    expect(made.status).toBe(201);
    await stop(first.proc);
    const cap = Math.max(statSync(dbPath).size, 64 * 1024) + 600 * 1024;
    const { proc, url } = await start(dbPath, cap);
    const gm = await Client.open(url, made.body.gmToken);
    const text = 'x'.repeat(1900);
    let acked = gm.version;
    let refusal: { kind: string; message: string } | null = null;
    for (let i = 0; i < 2000 && refusal === null; i++) {
      const r = await gm.command({ type: 'log.note', text: `${i} ${text}` }, { expectedVersion: acked });
      if (r.type === 'ack') {
        acked = r.version;
        await gm.reach(acked);
      } else refusal = r.error as { kind: string; message: string };
    }
    expect(refusal).not.toBeNull();
    expect(refusal!.kind).toBe('UNAVAILABLE');
    const health = await http<{ ok: boolean; error: string }>(url, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body.ok).toBe(false);
    expect(health.body.error).toMatch(/^the store is not writable: the (disk is full|disk refused a write)/);
    const seat = await http<{ error: { kind: string } }>(url, 'POST', `/api/tables/${made.body.tableId}/seats`, { name: 'Late' }, made.body.gmToken);
    expect(seat.status).toBe(503);
    expect(seat.body.error.kind).toBe('UNAVAILABLE');
    await gm.close();
    await stop(proc);
    // Without the cap: the log holds every acknowledged version and nothing after it.
    const db = new Database(dbPath, { readonly: true });
    const head = db.prepare('SELECT coalesce(max(version), 0) FROM transactions WHERE table_id = ?').pluck().get(made.body.tableId) as number;
    db.close();
    expect(head).toBe(acked);
    const again = await start(dbPath, null);
    expect((await http(again.url, 'GET', '/healthz')).status).toBe(200);
    const back = await Client.open(again.url, made.body.gmToken);
    expect(back.version).toBe(acked);
    await back.close();
    await stop(again.proc);
  }, 120_000);
});
