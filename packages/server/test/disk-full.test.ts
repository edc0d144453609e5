// A full disk, for real: the server runs in a child process under
// `prlimit --fsize` (every file it writes is capped), on a real SQLite file.
// When the cap is hit, commands are refused as UNAVAILABLE (never a client
// error), HTTP answers 503, /healthz says 503 and why, and after a restart
// without the cap the log holds exactly the acknowledged transactions.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { killChildServers, startChildServer, stopChildServer } from './child-server.js';
import { Client, http, tempDir } from './helpers.js';

const t = tempDir();
afterAll(() => {
  killChildServers();
  t.cleanup();
});

describe.each(['thread', 'loop'] as const)('a full disk, the SQLite writer on the %s', (writer) => {
  it('refuses commands as UNAVAILABLE, answers 503 on HTTP and /healthz with the reason, and keeps exactly the acknowledged transactions', async () => {
    const dbPath = join(t.dir, `full-${writer}.sqlite`);
    // First run without a cap creates the schema; the capped run may then grow the files by about 600 KB.
    const first = await startChildServer(dbPath, { writer });
    const made = await http<{ tableId: string; gmToken: string }>(first.url, 'POST', '/api/tables', { name: 'Full', rulesetId: 'core-only' });
    expect(made.status).toBe(201);
    await stopChildServer(first.proc);
    const cap = Math.max(statSync(dbPath).size, 64 * 1024) + 600 * 1024;
    // Checkpoints held off (ADR 24): one would copy the capped WAL into the database file, free the WAL and end the "full disk".
    const { proc, url } = await startChildServer(dbPath, { fsizeBytes: cap, checkpointEveryMs: 1e9, writer });
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
    await stopChildServer(proc);
    // Without the cap: the log holds every acknowledged version and nothing after it.
    const db = new Database(dbPath, { readonly: true });
    const head = db.prepare('SELECT coalesce(max(version), 0) FROM transactions JOIN tables USING (table_no) WHERE table_id = ?').pluck().get(made.body.tableId) as number;
    db.close();
    expect(head).toBe(acked);
    const again = await startChildServer(dbPath, { writer });
    expect((await http(again.url, 'GET', '/healthz')).status).toBe(200);
    const back = await Client.open(again.url, made.body.gmToken);
    expect(back.version).toBe(acked);
    await back.close();
    await stopChildServer(again.proc);
  }, 120_000);
});
