// The event-store port: both adapters keep the same promises (append-only,
// no gaps, stale versions refused, a commandId applied once, tokens hashed).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Transaction, World } from '@tablekeeper/engine';
import { asyncStore, memoryStore, openSqliteStore, openSqliteThreadStore, SCHEMA_VERSION, StoreError, type EventStore as PortStore, type SyncEventStore as EventStore } from '../src/index.js';
import { MIGRATIONS } from '../src/store/sqlite.js';
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

/**
 * A database file as the schema-4 store wrote it (text table ids in the log's keys): two tables created out of id
 * order, log rows from two senders and one without a command id, a snapshot, tokens and a join code.
 */
function schema4File(path: string, dangling = false): void {
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`foreign_keys = ${dangling ? 'OFF' : 'ON'}`);
  raw.exec('CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL) STRICT');
  for (const m of MIGRATIONS.slice(0, 4)) raw.exec(m);
  raw.prepare('INSERT INTO schema_version (id, version) VALUES (1, 4)').run();
  const addTable = raw.prepare('INSERT INTO tables (table_id, name, ruleset_id, genesis, created_at) VALUES (?, ?, ?, ?, ?)');
  addTable.run('t_b', 'Second', 'r', JSON.stringify({ ...genesis, tableId: 't_b' }), 2);
  addTable.run('t_a', 'First', 'r', JSON.stringify({ ...genesis, tableId: 't_a' }), 1);
  const addRow = raw.prepare('INSERT INTO transactions (table_id, version, command_id, actor, tx) VALUES (?, ?, ?, ?, ?)');
  addRow.run('t_b', 1, 'c1', 'gm', JSON.stringify(tx(1)));
  addRow.run('t_b', 2, 'c1', 'player:s1', JSON.stringify(tx(2)));
  addRow.run('t_b', 3, null, 'gm', JSON.stringify(tx(3)));
  addRow.run('t_a', 1, 'c1', 'gm', JSON.stringify(tx(11)));
  if (dangling) addRow.run('t_gone', 1, 'c9', 'gm', JSON.stringify(tx(99)));
  raw.prepare('INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)').run('t_b', 2, '{"snap":2}');
  const addToken = raw.prepare('INSERT INTO tokens (hash, table_id, role, seat_id, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)');
  addToken.run('h-gm', 't_b', 'gm', null, 5, null);
  addToken.run('h-p1', 't_b', 'player', 's1', 6, 7);
  raw.prepare('INSERT INTO join_codes (table_id, seat_id, hash, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)').run('t_b', 's1', 'code-h', 10_000);
  raw.close();
}

describe('sqlite migration to integer table keys (schema 5)', () => {
  const rec = (commandId: string | null, seq: number, actorKey = 'gm') => ({ commandId, actorKey, transaction: tx(seq) });

  it('converts a schema-4 file: log, versions, command ids per sender, snapshot, tokens and join codes intact; appends carry on', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'db.sqlite');
    schema4File(path);
    const s = openSqliteStore(path);
    expect(s.db.prepare('SELECT version FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(5);
    expect(s.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(s.db.pragma('foreign_key_check')).toEqual([]);
    expect(s.db.pragma('integrity_check', { simple: true })).toBe('ok');
    // The log is keyed by the number; numbers follow creation order.
    expect(s.db.prepare('SELECT table_id FROM tables ORDER BY table_no').pluck().all()).toEqual(['t_a', 't_b']);
    expect(s.listTableIds()).toEqual(['t_a', 't_b']);
    expect(s.getTable('t_b')).toEqual({ tableId: 't_b', name: 'Second', rulesetId: 'r', genesis: { ...genesis, tableId: 't_b' }, createdAt: 2 });
    expect(s.head('t_b')).toBe(3);
    expect(s.head('t_a')).toBe(1);
    expect(s.readLog('t_b')).toEqual([
      { version: 1, commandId: 'c1', actorKey: 'gm', transaction: tx(1) },
      { version: 2, commandId: 'c1', actorKey: 'player:s1', transaction: tx(2) },
      { version: 3, commandId: null, actorKey: 'gm', transaction: tx(3) },
    ]);
    expect(s.readLog('t_a').map((r) => r.transaction)).toEqual([tx(11)]);
    expect(s.latestSnapshot('t_b')).toEqual({ version: 2, state: '{"snap":2}' });
    expect(s.listTokens('t_b').map((k) => [k.hash, k.role, k.seatId, k.revokedAt])).toEqual([
      ['h-gm', 'gm', null, null],
      ['h-p1', 'player', 's1', 7],
    ]);
    expect(s.listJoinCodes('t_b')).toEqual([{ tableId: 't_b', seatId: 's1', hash: 'code-h', expiresAt: 10_000, usedAt: null }]);
    // Duplicate detection per sender survived the rebuild of its index; the head check too.
    expect(s.findCommand('t_b', 'player:s1', 'c1')?.version).toBe(2);
    expect(s.findCommand('t_a', 'player:s1', 'c1')).toBeNull();
    expect(s.append('t_b', 3, rec('c1', 4))).toMatchObject({ ok: false, reason: 'duplicate', existing: { version: 1, actorKey: 'gm' } });
    expect(s.append('t_b', 2, rec('c2', 4))).toEqual({ ok: false, reason: 'conflict', current: 3 });
    expect(s.append('t_b', 5, rec('c2', 4))).toEqual({ ok: false, reason: 'conflict', current: 3 });
    expect(s.append('t_b', 3, rec('c1', 4, 'player:s2'))).toEqual({ ok: true, version: 4 });
    expect(s.append('t_a', 1, rec('c1', 12, 'player:s1'))).toEqual({ ok: true, version: 2 });
    // A table made after the migration gets a number of its own; a dropped one's number is not reused.
    s.createTable({ ...table, tableId: 't_c', createdAt: 3 }, []);
    expect(s.append('t_c', 0, rec('c1', 21))).toEqual({ ok: true, version: 1 });
    const noC = s.db.prepare("SELECT table_no FROM tables WHERE table_id = 't_c'").pluck().get() as number;
    s.dropTable('t_c');
    s.createTable({ ...table, tableId: 't_d', createdAt: 4 }, []);
    expect(s.db.prepare("SELECT table_no FROM tables WHERE table_id = 't_d'").pluck().get()).toBeGreaterThan(noC);
    expect(s.head('t_d')).toBe(0);
    expect(s.readLog('t_c')).toEqual([]);
    expect(s.head('t_b')).toBe(4);
    s.close();
  });

  it('the writer thread opens a converted file and answers a retried command id from it', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'db.sqlite');
    schema4File(path);
    const s: PortStore = await openSqliteThreadStore(path);
    try {
      const { value, durable } = await s.commit([], (w) => [w.append('t_b', 3, rec('c1', 4, 'player:s1')), w.append('t_a', 1, rec('n1', 12)), w.append('t_b', 3, rec('n2', 4))]);
      await durable;
      expect(value).toEqual([{ ok: false, reason: 'duplicate', existing: { version: 2, commandId: 'c1', actorKey: 'player:s1', transaction: tx(2) } }, { ok: true, version: 2 }, { ok: true, version: 4 }]);
      expect((await s.readLog('t_b', 3)).map((r) => r.commandId)).toEqual(['n2']);
      expect(await s.head('t_a')).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('stops on a log row whose table is missing, names it, and leaves the file at schema 4 with every row', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'db.sqlite');
    schema4File(path, true);
    expect(() => openSqliteStore(path)).toThrow(/migration to schema version 5 failed \(NOT NULL constraint failed: transactions_keyed\.table_no\); the database was left at version 4/);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT version FROM schema_version').pluck().get()).toBe(4);
    expect(raw.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(5);
    expect(raw.prepare("SELECT count(*) FROM transactions WHERE table_id = 't_gone'").pluck().get()).toBe(1);
    raw.close();
  });

  it('an append to a table that does not exist is refused by name, alone or in a group commit, and the store carries on', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const s = openSqliteStore(join(t.dir, 'db.sqlite'));
    cleanups.push(() => s.close());
    s.createTable(table, []);
    expect(() => s.append('t_none', 0, rec('c1', 1))).toThrow(/table t_none does not exist/);
    await expect(asyncStore(s).commit([], (w) => w.append('t_none', 0, rec('c1', 1)))).rejects.toThrow(/table t_none does not exist/);
    expect(s.append('t1', 0, rec('c1', 1))).toEqual({ ok: true, version: 1 });
    const { value, durable } = await asyncStore(s).commit([], (w) => w.append('t1', 1, rec('c2', 2)));
    await durable;
    expect(value).toEqual({ ok: true, version: 2 });
    expect(s.readLog('t1').map((r) => r.commandId)).toEqual(['c1', 'c2']);
  });
});
