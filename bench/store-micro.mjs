// Not a test: the log table's schema and append statement compared on raw better-sqlite3 (ADR 113). 200 tables of
// 314 rows (~1 KB each), then group commits of 7 rows on 7 different tables, with the store's pragmas. Prints CPU
// time and WAL frames a commit. CPU time is noisy on a shared machine: compare instruction counts instead, under
// callgrind, COMMITS=0 against COMMITS=300 (the first run of a variant builds its furnished file under CACHE_DIR).
// Run: node bench/store-micro.mjs <A|A7|C|D|D-nofk|D2..D8|E|E2|F|G>   (env: COMMITS, PAGE, CACHE, EXPLICIT=1, TXLEN)
//   A = today's schema and statement; D* = integer table key; D8 = what the store does (with EXPLICIT=1: its BEGIN).
import Database from 'better-sqlite3';
import { mkdtempSync, mkdirSync, statSync, rmSync, existsSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
const variant = process.argv[2] ?? 'A';
const COMMITS = Number(process.env.COMMITS ?? 3000);
const TABLES = 200, FURNISH = 314, TXLEN = Number(process.env.TXLEN ?? 1000);
const pageSize = Number(process.env.PAGE ?? 4096);
const dir = mkdtempSync(join(tmpdir(), 'micro-'));
const path = join(dir, 'db.sqlite');
const cached = join(process.env.CACHE_DIR ?? join(tmpdir(), 'store-micro'), `${variant}-${pageSize}.sqlite`);
const tag = `${variant}${process.env.EXPLICIT ? '-explicit' : ''}${process.env.CACHE ? '-cache' + process.env.CACHE : ''}${process.env.MMAP ? '-mmap' + process.env.MMAP : ''}${process.env.CKPT ? '-' + process.env.CKPT : ''}`;
mkdirSync(dirname(cached), { recursive: true });
const haveCache = existsSync(cached);
if (haveCache) copyFileSync(cached, path);
const db = new Database(path);
db.pragma(`page_size = ${pageSize}`);
db.pragma('journal_mode = WAL'); db.pragma('synchronous = FULL'); db.pragma('foreign_keys = ON');
if (process.env.CACHE) db.pragma(`cache_size = ${process.env.CACHE}`);
if (process.env.MMAP) db.pragma(`mmap_size = ${process.env.MMAP}`);
db.pragma('wal_autocheckpoint = 0');
let rnd = 12345; const rand = () => ((rnd = (rnd * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const ids = []; for (let t = 0; t < TABLES; t++) ids.push('t_' + Buffer.from(Array.from({ length: 9 }, () => Math.floor(rand() * 256))).toString('base64url'));
const txText = (n) => JSON.stringify({ kind: 'command', seq: n, pad: 'x'.repeat(TXLEN - 40) });
const fk = variant.includes('nofk') ? '' : 'REFERENCES tables(table_id)';
const fkn = variant.includes('nofk') ? '' : 'REFERENCES tables(table_no)';
let schema, append, key;
const base = variant.split('-')[0];
if (base === 'A' || base === 'C') {
  schema = `CREATE TABLE tables (table_id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_id TEXT NOT NULL ${fk}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_id, version), UNIQUE (table_id, actor, command_id)) STRICT;`;
  append = base === 'A' ? 'INSERT INTO transactions (table_id, version, command_id, actor, tx) SELECT @k, @v, @c, @a, @x WHERE (SELECT coalesce(max(version), 0) FROM transactions WHERE table_id = @k) = @v - 1 ON CONFLICT DO NOTHING'
    : 'INSERT INTO transactions (table_id, version, command_id, actor, tx) VALUES (@k, @v, @c, @a, @x) ON CONFLICT DO NOTHING';
  key = (t) => ids[t];
} else if (base === 'F') { // WITHOUT ROWID text key
  schema = `CREATE TABLE tables (table_id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_id TEXT NOT NULL ${fk}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_id, version), UNIQUE (table_id, actor, command_id)) STRICT, WITHOUT ROWID;`;
  append = 'INSERT INTO transactions (table_id, version, command_id, actor, tx) SELECT @k, @v, @c, @a, @x WHERE (SELECT coalesce(max(version), 0) FROM transactions WHERE table_id = @k) = @v - 1 ON CONFLICT DO NOTHING';
  key = (t) => ids[t];
} else if (base === 'D') { // integer table key, rowid table, two indexes
  schema = `CREATE TABLE tables (table_no INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_no INTEGER NOT NULL ${fkn}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_no, version), UNIQUE (table_no, actor, command_id)) STRICT;`;
  append = 'INSERT INTO transactions (table_no, version, command_id, actor, tx) SELECT @k, @v, @c, @a, @x WHERE (SELECT coalesce(max(version), 0) FROM transactions WHERE table_no = @k) = @v - 1 ON CONFLICT DO NOTHING';
  key = (t) => t + 1;
} else if (base === 'D2' || base === 'D3') { // D with the head check as a point look-up of the row at expected, or none
  schema = `CREATE TABLE tables (table_no INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_no INTEGER NOT NULL ${fkn}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_no, version), UNIQUE (table_no, actor, command_id)) STRICT;`;
  append = base === 'D2' ? 'INSERT INTO transactions (table_no, version, command_id, actor, tx) SELECT @k, @v, @c, @a, @x WHERE @v = 1 OR EXISTS (SELECT 1 FROM transactions WHERE table_no = @k AND version = @v - 1) ON CONFLICT DO NOTHING'
    : 'INSERT INTO transactions (table_no, version, command_id, actor, tx) VALUES (@k, @v, @c, @a, @x) ON CONFLICT DO NOTHING';
  key = (t) => t + 1;
} else if (base === 'D4' || base === 'D5' || base === 'D6') { // D with VALUES (one row: no statement journal); D5/D6 name the table by its text id
  schema = `CREATE TABLE tables (table_no INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_no INTEGER NOT NULL ${fkn}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_no, version), UNIQUE (table_no, actor, command_id)) STRICT;`;
  const no = base === 'D4' ? '@k' : '(SELECT table_no FROM tables WHERE table_id = @k)';
  append = base === 'D6' ? `INSERT INTO transactions (table_no, version, command_id, actor, tx) SELECT n, @v, @c, @a, @x FROM (SELECT ${no} AS n) WHERE @v = 1 OR EXISTS (SELECT 1 FROM transactions WHERE table_no = n AND version = @v - 1) ON CONFLICT DO NOTHING`
    : `INSERT INTO transactions (table_no, version, command_id, actor, tx) VALUES (${no}, CASE WHEN @v = 1 OR EXISTS (SELECT 1 FROM transactions WHERE table_no = ${no} AND version = @v - 1) THEN @v END, @c, @a, @x) ON CONFLICT DO NOTHING`;
  key = base === 'D4' ? (t) => t + 1 : (t) => ids[t];
} else if (base === 'D7' || base === 'D8') { // D, one-row INSERT OR IGNORE; D8 finds the table's number by its text id
  schema = `CREATE TABLE tables (table_no INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_no INTEGER NOT NULL ${fkn}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_no, version), UNIQUE (table_no, actor, command_id)) STRICT;`;
  const no = base === 'D7' ? '@k' : '(SELECT table_no FROM tables WHERE table_id = @k)';
  append = `INSERT OR IGNORE INTO transactions (table_no, version, command_id, actor, tx) VALUES (${no}, CASE WHEN @v = 1 OR EXISTS (SELECT 1 FROM transactions WHERE table_no = ${no} AND version = @v - 1) THEN @v END, @c, @a, @x)`;
  key = base === 'D7' ? (t) => t + 1 : (t) => ids[t];
} else if (base === 'A7') { // today's schema, one-row INSERT OR IGNORE with the same max() head check
  schema = `CREATE TABLE tables (table_id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_id TEXT NOT NULL ${fk}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_id, version), UNIQUE (table_id, actor, command_id)) STRICT;`;
  append = 'INSERT OR IGNORE INTO transactions (table_id, version, command_id, actor, tx) VALUES (@k, CASE WHEN (SELECT coalesce(max(version), 0) FROM transactions WHERE table_id = @k) = @v - 1 THEN @v END, @c, @a, @x)';
  key = (t) => ids[t];
} else if (base === 'E' || base === 'E2') { // rowid = table_no * 2^32 + version: the row's key is the log position; one index for command ids
  schema = `CREATE TABLE tables (table_no INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (pos INTEGER PRIMARY KEY, table_no INTEGER NOT NULL ${fkn}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, CHECK (pos = table_no * 4294967296 + version), UNIQUE (table_no, actor, command_id)) STRICT;`;
  append = base === 'E' ? 'INSERT INTO transactions (pos, table_no, version, command_id, actor, tx) SELECT @k * 4294967296 + @v, @k, @v, @c, @a, @x WHERE @v = 1 OR EXISTS (SELECT 1 FROM transactions WHERE pos = @k * 4294967296 + @v - 1) ON CONFLICT DO NOTHING'
    : 'INSERT INTO transactions (pos, table_no, version, command_id, actor, tx) VALUES (@k * 4294967296 + @v, @k, @v, @c, @a, @x) ON CONFLICT DO NOTHING';
  key = (t) => t + 1;
} else if (base === 'G') { // D but command-id uniqueness in the same B-tree ordering as... partial: unique only where command_id not null
  schema = `CREATE TABLE tables (table_no INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL) STRICT;
  CREATE TABLE transactions (table_no INTEGER NOT NULL ${fkn}, version INTEGER NOT NULL CHECK (version >= 1), command_id TEXT, actor TEXT NOT NULL, tx TEXT NOT NULL, PRIMARY KEY (table_no, version)) STRICT, WITHOUT ROWID;
  CREATE UNIQUE INDEX tx_commands ON transactions (table_no, actor, command_id);`;
  append = 'INSERT INTO transactions (table_no, version, command_id, actor, tx) SELECT @k, @v, @c, @a, @x WHERE (SELECT coalesce(max(version), 0) FROM transactions WHERE table_no = @k) = @v - 1 ON CONFLICT DO NOTHING';
  key = (t) => t + 1;
}
if (!haveCache) db.exec(schema);
const insT = ['A', 'A7', 'C', 'F'].includes(base) ? db.prepare('INSERT INTO tables (table_id, name) VALUES (?, ?)') : db.prepare('INSERT INTO tables (table_no, table_id, name) VALUES (?, ?, ?)');
const ins = db.prepare(append);
const heads = new Array(TABLES).fill(0);
const textKeyed = base === 'A' || base === 'A7' || base === 'C' || base === 'F';
if (!haveCache) db.transaction(() => { for (let t = 0; t < TABLES; t++) { if (textKeyed) insT.run(ids[t], 'x'); else insT.run(t + 1, ids[t], 'x'); } })();
// Furnish: one commit per table, as the bench does.
for (let t = 0; t < TABLES; t++) if (haveCache) heads[t] = FURNISH; else db.transaction(() => { for (let i = 0; i < FURNISH; i++) { const v = ++heads[t]; if (ins.run({k: key(t), v, c: `f${v}`, a: 'gm', x: txText(v)}).changes !== 1) throw new Error('furnish'); } })();
db.pragma('wal_checkpoint(TRUNCATE)');
if (!haveCache) { db.close(); copyFileSync(path, cached); console.log('built', cached); process.exit(0); }
const begin = db.prepare('BEGIN IMMEDIATE'), commit = db.prepare('COMMIT'), rollback = db.prepare('ROLLBACK');
const normal = db.prepare('PRAGMA synchronous = NORMAL'), full = db.prepare('PRAGMA synchronous = FULL');
const actors = ['gm', 'player:s1', 'player:s2', 'player:s3'];
let cpu = 0, sys = 0, frames = 0, walFrames0 = 0;
const frameBytes = pageSize + 24;
const wal = join(dir, 'db.sqlite-wal');
for (let c = 0; c < COMMITS; c++) {
  // PASSIVE (CKPT=passive) reuses the WAL file in place, as the store's checkpoint thread leaves it; TRUNCATE regrows it.
  if (c % 50 === 0) { db.pragma(process.env.CKPT === 'passive' ? 'wal_checkpoint(PASSIVE)' : 'wal_checkpoint(TRUNCATE)'); walFrames0 = 0; }
  const picked = new Set(); while (picked.size < 7) picked.add(Math.floor(rand() * TABLES));
  const t0 = process.cpuUsage();
  normal.run();
  const body = () => { for (const t of picked) { const v = ++heads[t]; if (ins.run({k: key(t), v, c: `b${c}-${t}`, a: actors[c % 4], x: txText(v)}).changes !== 1) throw new Error('append'); } };
  if (process.env.EXPLICIT) { begin.run(); try { body(); commit.run(); } catch (e) { if (db.inTransaction) rollback.run(); throw e; } }
  else db.transaction(body).immediate();
  full.run();
  const d = process.cpuUsage(t0); cpu += d.user + d.system; sys += d.system;
  const size = existsSync(wal) ? statSync(wal).size : 0;
  const f = size > 32 ? (size - 32) / frameBytes : 0; frames += f - walFrames0; walFrames0 = f;
}
const dbPages = db.pragma('page_count', { simple: true });
console.log(`${tag} page=${pageSize}: ${(cpu / COMMITS).toFixed(1)} us CPU per commit of 7 (system ${(sys / COMMITS).toFixed(1)}; ${(cpu / COMMITS / 7).toFixed(1)} per row), ${(frames / COMMITS).toFixed(1)} WAL frames per commit, db ${dbPages} pages`);
db.close(); rmSync(dir, { recursive: true, force: true });
