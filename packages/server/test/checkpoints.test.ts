// WAL checkpoints off the event loop (ADR 24): the server's connection never
// checkpoints inside a commit (wal_autocheckpoint = 0); a thread with its own
// connection copies the WAL into the database file. Nothing may be lost on
// the way: a copy of the files taken at any moment (what a crash leaves)
// opens with every committed row, before and after a checkpoint.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Transaction } from '@tablekeeper/engine';
import { openSqliteStore, type SqliteEventStore } from '../src/index.js';
import { tempDir } from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((c) => c()));

function open(everyMs: number): { store: SqliteEventStore; dir: string; path: string } {
  const t = tempDir();
  const path = join(t.dir, 'db.sqlite');
  const store = openSqliteStore(path, { checkpointEveryMs: everyMs });
  cleanups.push(t.cleanup, () => store.close());
  store.createTable({ tableId: 't1', name: 'T', rulesetId: 'r', genesis: { tableId: 't1' } as never, createdAt: 1 }, []);
  return { store, dir: t.dir, path };
}

const tx = (seq: number): Transaction => ({ seq, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: `note ${seq} ${'x'.repeat(2000)}` }, events: [] });

/** Appends `n` rows after the head in group commits of 50, waiting for each to be durable (as the commit queue does; by default written, its sync within a window, ADR 31). */
async function write(store: SqliteEventStore, n: number): Promise<void> {
  for (let done = 0; done < n; done += 50) {
    const head = store.head('t1');
    const { durable } = store.commit(() => {
      for (let k = 0; k < 50; k++) store.append('t1', head + k, { commandId: `c${head + k + 1}`, actorKey: 'gm', transaction: tx(head + k + 1) });
    });
    await durable;
  }
}

/** What a crash at this moment leaves: a copy of the database file, with or without its WAL. */
function crashCopy(dir: string, path: string, name: string, withWal: boolean): number {
  const to = join(dir, `${name}.sqlite`);
  copyFileSync(path, to);
  if (withWal && existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${to}-wal`);
  const raw = new Database(to);
  try {
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    // A database file that never got a checkpoint may not even hold the schema yet.
    const hasLog = raw.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'transactions'").pluck().get() === 1;
    return hasLog ? (raw.prepare("SELECT count(*) FROM transactions JOIN tables USING (table_no) WHERE table_id = 't1'").pluck().get() as number) : 0;
  } finally {
    raw.close();
  }
}

describe('WAL checkpoints on their own thread', () => {
  it('never checkpoint inside a commit: the WAL holds every row until the thread copies it, and a crash copy keeps them all', async () => {
    const { store, dir, path } = open(1e9);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // 2,000 rows of about 2 KB: past SQLite's own checkpoint point (1,000 pages) had it been on.
    await write(store, 2000);
    expect(crashCopy(dir, path, 'before-db-only', false)).toBe(0);
    expect(crashCopy(dir, path, 'before', true)).toBe(2000);
    const r = await store.checkpointNow();
    expect(r.walFrames).toBeGreaterThan(1000);
    expect(r.copied).toBe(r.walFrames);
    // Copied and synced into the database file: it holds every row on its own.
    expect(crashCopy(dir, path, 'after-db-only', false)).toBe(2000);
    // Writing goes on after a checkpoint (the WAL restarts from its start) and still loses nothing.
    await write(store, 500);
    expect(crashCopy(dir, path, 'later', true)).toBe(2500);
    expect(store.head('t1')).toBe(2500);
  });

  it('checkpoints by itself every few milliseconds while writes go on, and a reopen reads every row', async () => {
    const { store, dir, path } = open(20);
    for (let round = 0; round < 5; round++) {
      await write(store, 400);
      await new Promise((r) => setTimeout(r, 60));
    }
    // The thread has been copying all along: the database file alone is nearly up to date.
    await new Promise((r) => setTimeout(r, 200));
    expect(crashCopy(dir, path, 'db-only', false)).toBe(2000);
    store.close();
    const again = openSqliteStore(path);
    cleanups.push(() => again.close());
    expect(again.head('t1')).toBe(2000);
    expect(again.readLog('t1', 1999).map((x) => x.transaction)).toEqual([tx(2000)]);
  });

  it('lets one server hold a file: a second fails fast while the first runs, and opens once it closed', () => {
    const { store, path } = open(1e9);
    expect(() => openSqliteStore(path)).toThrow(/in use by another server/);
    // A reader that says so still opens it (tools), without the lock or a checkpoint thread.
    const reader = openSqliteStore(path, { shared: true });
    expect(reader.head('t1')).toBe(0);
    reader.close();
    store.close();
    const next = openSqliteStore(path);
    next.close();
  });
});
