// Crash durability: a server in a child process is killed with SIGKILL in the
// middle of a command stream, 25 times, on the same SQLite file. After each
// kill: integrity_check is ok, versions have no gaps, no acknowledged
// transaction is lost, and replaying the log to the last acknowledged version
// gives exactly the view the client held when it got that ack.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { coreModule, countdownsModule, createEngine, type Transaction, type World } from '@tablekeeper/engine';
import { DEFAULT_ROOM_LIMITS, DEFAULT_SQLITE_WRITER } from '../src/index.js';
import { killChildServers, startChildServer } from './child-server.js';
import { Client, http, tempDir } from './helpers.js';

/** Kills per writer (ADR 107): the default writer gets the full run, the other a shorter one. */
const killsOf = (writer: 'thread' | 'loop') => (writer === DEFAULT_SQLITE_WRITER ? 25 : 10);
const t = tempDir();
afterAll(() => {
  killChildServers();
  t.cleanup();
});

const engine = createEngine([coreModule, countdownsModule]);
let n = 0;
const nextCommand = () => {
  n++;
  switch (n % 4) {
    case 0:
      return { type: 'countdown.create', name: `Doom ${n}`, startDie: 'd6', visibility: n % 8 === 0 ? 'hidden' : 'visible' };
    case 1:
      return { type: 'clock.advance', unit: 'round' };
    case 2:
      return { type: 'log.note', text: `note ${n}` };
    default:
      return { type: 'character.add', name: `Extra ${n}`, kind: 'npc' };
  }
};

describe.each(['thread', 'loop'] as const)('crash durability, the SQLite writer on the %s', (writer) => {
  const KILLS = killsOf(writer);
  it(`keeps every acknowledged transaction through ${KILLS} SIGKILLs`, async () => {
    const dbPath = join(t.dir, `crash-${writer}.sqlite`);
    let { proc, url } = await startChildServer(dbPath, { writer });
    const made = await http<{ tableId: string; gmToken: string }>(url, 'POST', '/api/tables', { name: 'Crash', rulesetId: 'core-only' });
    const { tableId, gmToken } = made.body;
    let maxAcked = 0;
    let killsMidStream = 0;
    for (let k = 0; k < KILLS; k++) {
      if (k > 0) ({ proc, url } = await startChildServer(dbPath, { writer }));
      const gm = await Client.open(url, gmToken);
      expect(gm.version, 'the restarted server has every acknowledged version').toBeGreaterThanOrEqual(maxAcked);
      const acked = new Map<number, string>();
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      // Stream commands back to back; kill after a random delay, wherever the stream is.
      let alive = true;
      const stream = (async () => {
        while (alive) {
          let a;
          try {
            a = await gm.command(nextCommand(), { expectedVersion: gm.version });
          } catch {
            return; // the socket died under us
          }
          if (a.type === 'ack') acked.set(a.version, JSON.stringify(gm.view));
        }
      })();
      // Let a few commands through (1 to 5), then kill at a varying moment of the stream.
      const before = 1 + (k % 5);
      while (acked.size < before) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, (k * 7) % 25));
      if (acked.size > 0) killsMidStream++;
      proc.kill('SIGKILL');
      await exited;
      alive = false;
      await stream;
      gm.ws.terminate();

      const last = Math.max(0, ...acked.keys());
      maxAcked = Math.max(maxAcked, last);
      const db = new Database(dbPath);
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const versions = db.prepare('SELECT version FROM transactions JOIN tables USING (table_no) WHERE table_id = ? ORDER BY version').pluck().all(tableId) as number[];
        expect(versions, 'no gaps').toEqual(versions.map((_, i) => i + 1));
        expect(versions.length, 'no acknowledged transaction lost').toBeGreaterThanOrEqual(maxAcked);
        if (last > 0) {
          const genesis = JSON.parse(db.prepare('SELECT genesis FROM tables WHERE table_id = ?').pluck().get(tableId) as string) as World;
          const txs = (db.prepare('SELECT tx FROM transactions JOIN tables USING (table_no) WHERE table_id = ? AND version <= ? ORDER BY version').pluck().all(tableId, last) as string[]).map((s) => JSON.parse(s) as Transaction);
          const full = engine.view(engine.replay(genesis, txs), { role: 'gm' });
          // the server sends the last historyWindow history entries; compare like with like
          const replayed = { ...full, history: full.history.slice(-DEFAULT_ROOM_LIMITS.historyWindow) };
          expect(JSON.stringify(replayed), `replay to version ${last} equals the acknowledged view`).toBe(acked.get(last));
        }
      } finally {
        db.close();
      }
    }
    expect(maxAcked).toBeGreaterThan(KILLS);
    expect(killsMidStream).toBe(KILLS);
  }, 600_000);
});
