// The event-store port: both adapters keep the same promises (append-only,
// no gaps, stale versions refused, a commandId applied once, tokens hashed).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Transaction, World } from '@tablekeeper/engine';
import { memoryStore, openSqliteStore, SCHEMA_VERSION, StoreError, type SyncEventStore as EventStore } from '../src/index.js';
import { tempDir } from './helpers.js';

const genesis = { tableId: 't1', name: 'T', rulesetId: 'r', settings: {}, seats: {}, characters: {}, clock: { seconds: 0, counts: {} }, log: [], ext: {}, nextId: 1 } as unknown as World;
const tx = (seq: number): Transaction => ({ seq, kind: 'command', actor: { role: 'gm' }, command: { type: 'log.note', text: `n${seq}` }, events: [] });
const table = { tableId: 't1', name: 'T', rulesetId: 'r', genesis, createdAt: 1 };

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function sqlite(): EventStore {
  const t = tempDir();
  const s = openSqliteStore(join(t.dir, 'x', 'db.sqlite'));
  cleanups.push(() => {
    s.close();
    t.cleanup();
  });
  return s;
}

describe.each([
  ['sqlite', sqlite],
  ['memory', memoryStore],
])('%s store', (_name, make) => {
  it('appends at expectedVersion + 1 and refuses a stale version', () => {
    const s = make();
    s.createTable(table, []);
    expect(s.append('t1', 0, { commandId: 'a', actorKey: 'gm', transaction: tx(1) })).toEqual({ ok: true, version: 1 });
    expect(s.append('t1', 0, { commandId: 'b', actorKey: 'gm', transaction: tx(1) })).toEqual({ ok: false, reason: 'conflict', current: 1 });
    expect(s.append('t1', 1, { commandId: 'b', actorKey: 'gm', transaction: tx(2) })).toEqual({ ok: true, version: 2 });
    expect(s.head('t1')).toBe(2);
    expect(s.readLog('t1').map((r) => r.version)).toEqual([1, 2]);
    expect(s.readLog('t1', 1).map((r) => r.transaction)).toEqual([tx(2)]);
  });

  it('applies a commandId once, reporting the first version on a retry', () => {
    const s = make();
    s.createTable(table, []);
    s.append('t1', 0, { commandId: 'same', actorKey: 'gm', transaction: tx(1) });
    const again = s.append('t1', 1, { commandId: 'same', actorKey: 'gm', transaction: tx(2) });
    expect(again.ok).toBe(false);
    expect(!again.ok && again.reason === 'duplicate' && again.existing.version).toBe(1);
    expect(s.head('t1')).toBe(1);
    expect(s.findCommand('t1', 'gm', 'same')?.version).toBe(1);
    // ids are per sender: a player's 'same' is a different key, and the GM's is not found under the player
    expect(s.findCommand('t1', 'player:s1', 'same')).toBeNull();
    // null commandIds (HTTP-made commands) never collide
    s.append('t1', 1, { commandId: null, actorKey: 'gm', transaction: tx(2) });
    s.append('t1', 2, { commandId: null, actorKey: 'gm', transaction: tx(3) });
    expect(s.head('t1')).toBe(3);
  });

  it('keeps tables, tokens (revocable) and snapshots', () => {
    const s = make();
    s.createTable(table, [{ hash: 'h-gm', tableId: 't1', role: 'gm', seatId: null, createdAt: 1, revokedAt: null }]);
    expect(() => s.createTable(table, [])).toThrow(StoreError);
    expect(s.getTable('t1')?.genesis).toEqual(genesis);
    expect(s.countTables()).toBe(1);
    s.addToken({ hash: 'h-p', tableId: 't1', role: 'player', seatId: 'seat1', createdAt: 2, revokedAt: null });
    expect(s.findToken('h-p')?.seatId).toBe('seat1');
    expect(s.revokeTokens('t1', { role: 'player', seatId: 'seat1' }, 9).map((t) => t.hash)).toEqual(['h-p']);
    expect(s.findToken('h-p')?.revokedAt).toBe(9);
    expect(s.revokeTokens('t1', { role: 'player', seatId: 'seat1' }, 10)).toEqual([]);
    expect(s.findToken('h-gm')?.revokedAt).toBeNull();
    s.putSnapshot('t1', 0, '{"x":1}');
    expect(s.latestSnapshot('t1')).toEqual({ version: 0, state: '{"x":1}' });
    expect(s.probeWritable()).toBe(true);
  });

  it('imports a whole log atomically and refuses gaps', () => {
    const s = make();
    expect(() => s.importTable(table, [{ version: 2, commandId: null, actorKey: 'gm', transaction: tx(2) }], [])).toThrow(StoreError);
    expect(s.getTable('t1')).toBeNull();
    s.importTable(table, [1, 2].map((v) => ({ version: v, commandId: `c${v}`, actorKey: 'gm', transaction: tx(v) })), []);
    expect(s.head('t1')).toBe(2);
  });
});

describe('sqlite adapter', () => {
  it('sets and verifies its pragmas and records the schema version', () => {
    const t = tempDir();
    const path = join(t.dir, 'db.sqlite');
    const s = openSqliteStore(path);
    expect(String(s.db.pragma('journal_mode', { simple: true }))).toBe('wal');
    expect(s.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(s.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(s.db.prepare('SELECT version FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    s.close();
    // migrations are idempotent: reopening keeps the version row
    const again = openSqliteStore(path);
    expect(again.db.prepare('SELECT count(*) FROM schema_version').pluck().get()).toBe(1);
    again.close();
    t.cleanup();
  });

  it('refuses to run in memory, where WAL is impossible', () => {
    expect(() => openSqliteStore(':memory:')).toThrow(/WAL/);
  });

  it('refuses a database from a newer schema', () => {
    const t = tempDir();
    const path = join(t.dir, 'db.sqlite');
    openSqliteStore(path).close();
    const raw = new Database(path);
    raw.prepare('UPDATE schema_version SET version = 99').run();
    raw.close();
    expect(() => openSqliteStore(path)).toThrow(/newer/);
    t.cleanup();
  });

  it('lets one server hold a file: a second writer fails fast', () => {
    const t = tempDir();
    const path = join(t.dir, 'db.sqlite');
    const first = openSqliteStore(path);
    first.createTable(table, []);
    expect(() => openSqliteStore(path)).toThrow(/in use|locked/);
    first.close();
    openSqliteStore(path).close();
    t.cleanup();
  });

  it('writes every row on disk with the transaction JSON, keyed (table_id, version)', () => {
    const t = tempDir();
    const path = join(t.dir, 'db.sqlite');
    const s = openSqliteStore(path);
    s.createTable(table, []);
    s.append('t1', 0, { commandId: 'a', actorKey: 'gm', transaction: tx(1) });
    s.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT table_id, version, command_id, tx FROM transactions JOIN tables USING (table_no)').all()).toEqual([{ table_id: 't1', version: 1, command_id: 'a', tx: JSON.stringify(tx(1)) }]);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    t.cleanup();
  });
});
