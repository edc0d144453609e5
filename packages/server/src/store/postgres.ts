// PostgreSQL adapter of the event-store port (ADR 49), for several server
// instances on one database. Appends are optimistic: the log's primary key
// (table_id, version) lets exactly one writer take a version, and the unique
// (table_id, actor, command_id) makes a retried command land once, whoever
// sends it. A group commit reads the batch's command ids first, decides on
// that, and writes every row of the batch in one transaction: its COMMIT is
// the batch's `durable` (PostgreSQL syncs its WAL before COMMIT returns, with
// the server's default synchronous_commit). Snapshots are a cache, as in SQLite.
import pg from 'pg';
import type { Transaction, World } from '@tablekeeper/engine';
import { LEASE_SCHEMA } from '../cluster/lease.js';
import { commandKey, StagedBatch } from './staged.js';
import { StoreError, type CommandKey, type EventStore, type Fence, type JoinCodeRecord, type Role, type StoredRow, type TableRecord, type TokenRecord, type TxRecord } from './port.js';

/** Each entry migrates from version index to index + 1; never edit a shipped one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE tables (
     table_id   text PRIMARY KEY,
     name       text NOT NULL,
     ruleset_id text NOT NULL,
     genesis    text NOT NULL,
     created_at bigint NOT NULL
   );
   CREATE TABLE transactions (
     table_id   text NOT NULL REFERENCES tables(table_id),
     version    integer NOT NULL CHECK (version >= 1),
     command_id text,
     actor      text NOT NULL,
     tx         text NOT NULL,
     CONSTRAINT transactions_at_version PRIMARY KEY (table_id, version),
     CONSTRAINT transactions_command_once UNIQUE (table_id, actor, command_id)
   );
   CREATE TABLE snapshots (
     table_id text NOT NULL REFERENCES tables(table_id),
     version  integer NOT NULL,
     state    text NOT NULL,
     PRIMARY KEY (table_id, version)
   );
   CREATE TABLE tokens (
     hash       text PRIMARY KEY,
     table_id   text NOT NULL REFERENCES tables(table_id),
     role       text NOT NULL CHECK (role IN ('gm', 'player', 'spectator')),
     seat_id    text,
     created_at bigint NOT NULL,
     revoked_at bigint
   );
   CREATE INDEX tokens_by_table ON tokens(table_id);
   CREATE TABLE health (id integer PRIMARY KEY CHECK (id = 1), at bigint NOT NULL);`,
  // The leases (cluster/lease.ts) live beside the log, so an append can check its writer's epoch in its own transaction (ADR 60).
  LEASE_SCHEMA,
  // Join codes in the store (ADR 64), so any instance redeems a code another minted: a seat's latest code by its
  // hash, and failed joins per address, shared by the instances.
  `CREATE TABLE join_codes (
     table_id   text NOT NULL REFERENCES tables(table_id),
     seat_id    text NOT NULL,
     hash       text NOT NULL CONSTRAINT join_codes_hash UNIQUE,
     expires_at bigint NOT NULL,
     used_at    bigint,
     PRIMARY KEY (table_id, seat_id)
   );
   CREATE TABLE join_failures (address text PRIMARY KEY, full_at bigint NOT NULL);
   CREATE INDEX join_failures_by_time ON join_failures(full_at);`,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;
/** Every instance migrates under this advisory lock, so two starting at once do not race. */
const MIGRATION_LOCK = 0x7461626c; // 'tabl'
/** Connections per instance: a group commit uses one, token and cold-load reads the others. */
export const DEFAULT_POOL_SIZE = 6;
/** Rows per INSERT of an import or a batch (bounded statement size). */
const ROWS_PER_INSERT = 500;

export interface PostgresOptions {
  /** A schema of its own (created when missing): several stores can share one database (tests). Default: the connection's search_path. */
  readonly schema?: string;
  readonly poolSize?: number;
}

interface TxRow {
  version: number;
  command_id: string | null;
  actor: string;
  tx: string;
}
interface TokenRow {
  hash: string;
  table_id: string;
  role: Role;
  seat_id: string | null;
  created_at: string;
  revoked_at: string | null;
}
const toTx = (r: TxRow): TxRecord => ({ version: r.version, commandId: r.command_id, actorKey: r.actor, transaction: JSON.parse(r.tx) as Transaction });
const toToken = (r: TokenRow): TokenRecord => ({ hash: r.hash, tableId: r.table_id, role: r.role, seatId: r.seat_id, createdAt: Number(r.created_at), revokedAt: r.revoked_at === null ? null : Number(r.revoked_at) });
/**
 * Refuses the write unless every fenced table's lease is still at the writer's owner and epoch. FOR SHARE holds the
 * lease rows until COMMIT: a takeover (an UPDATE of the row) waits for this write, and a write after it sees the new epoch.
 */
async function checkFences(c: pg.PoolClient, fences: ReadonlyMap<string, Fence>, tableIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(tableIds)].filter((t) => fences.has(t));
  if (ids.length === 0) return;
  // In table order, as a bulk renewal locks them (cluster/lease.ts): two multi-row lockers never wait on each other in a cycle.
  const rows = (await c.query<{ table_id: string; owner: string; epoch: string }>('SELECT table_id, owner, epoch FROM table_leases WHERE table_id = ANY($1::text[]) ORDER BY table_id FOR SHARE', [ids])).rows;
  const held = new Map(rows.map((r) => [r.table_id, r]));
  for (const id of ids) {
    const f = fences.get(id)!;
    const r = held.get(id);
    if (r === undefined || r.owner !== f.owner || Number(r.epoch) !== f.epoch) {
      throw new StoreError('FENCED', `table ${id}: this instance's lease (epoch ${f.epoch}) is no longer the table's (${r === undefined ? 'no lease' : `epoch ${r.epoch}`}); nothing was saved`);
    }
  }
}

const uniqueViolation = (e: unknown): string | null =>
  typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505' ? String((e as { constraint?: unknown }).constraint ?? '') : null;

export interface PostgresEventStore extends EventStore {
  readonly kind: 'postgres';
  readonly pool: pg.Pool;
}

/** Opens (and migrates) the store at `url` (postgres://...); rejects with a clear error when the database cannot be reached. */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresEventStore> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new StoreError('SCHEMA', `schema must be a lower-case SQL name of at most 63 characters, not ${JSON.stringify(schema)}`);
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isInteger(poolSize) || poolSize < 2 || poolSize > 100) throw new StoreError('PRAGMA', `poolSize must be an integer from 2 to 100, not ${poolSize}`);
  const pool = new pg.Pool({ connectionString: url, max: poolSize, ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }) });
  // An idle connection that breaks (the server restarted) must not take the process down: the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await migrate(pool, schema);
  } catch (e) {
    await pool.end().catch(() => undefined);
    if (e instanceof StoreError) throw e;
    throw new StoreError('UNAVAILABLE', `cannot open the PostgreSQL store at ${redact(url)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return postgresStore(pool);
}

/** The URL without its password, for messages. */
const redact = (url: string): string => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

async function migrate(pool: pg.Pool, schema: string | undefined): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    if (schema !== undefined) await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await c.query('CREATE TABLE IF NOT EXISTS schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)');
    const row = (await c.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1')).rows[0];
    const from = row?.version ?? 0;
    if (from > MIGRATIONS.length) throw new StoreError('SCHEMA', `database schema version ${from} is newer than this server (${MIGRATIONS.length}); upgrade the server`);
    for (let v = from; v < MIGRATIONS.length; v++) {
      await c.query(MIGRATIONS[v]!);
      await c.query('INSERT INTO schema_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version', [v + 1]);
    }
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

function postgresStore(pool: pg.Pool): PostgresEventStore {
  let closed = false;
  const live = () => {
    if (closed) throw new StoreError('NOT_FOUND', 'the store is closed');
  };
  /** Runs `fn` in one transaction on one connection; rolls back on any throw. */
  const inTx = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    live();
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const value = await fn(c);
      await c.query('COMMIT');
      return value;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  };
  const query = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> => {
    live();
    return (await pool.query<R>(text, values)).rows;
  };

  const insertTable = async (c: pg.PoolClient, t: TableRecord) => {
    const r = await c.query('INSERT INTO tables (table_id, name, ruleset_id, genesis, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_id) DO NOTHING', [t.tableId, t.name, t.rulesetId, JSON.stringify(t.genesis), t.createdAt]);
    if (r.rowCount !== 1) throw new StoreError('EXISTS', `table ${t.tableId} already exists`);
  };
  const insertTokens = async (c: pg.PoolClient, tokens: readonly TokenRecord[]) => {
    if (tokens.length === 0) return;
    await c.query('INSERT INTO tokens (hash, table_id, role, seat_id, created_at, revoked_at) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])', [
      tokens.map((t) => t.hash),
      tokens.map((t) => t.tableId),
      tokens.map((t) => t.role),
      tokens.map((t) => t.seatId),
      tokens.map((t) => t.createdAt),
      tokens.map((t) => t.revokedAt),
    ]);
  };
  /** Inserts stored rows, a bounded number per statement. */
  const insertRows = async (c: pg.PoolClient, tableId: string, rows: readonly StoredRow[]) => {
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      const part = rows.slice(at, at + ROWS_PER_INSERT);
      await c.query('INSERT INTO transactions (table_id, version, command_id, actor, tx) SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[], $5::text[])', [
        tableId,
        part.map((r) => r.version),
        part.map((r) => r.commandId),
        part.map((r) => r.actorKey),
        part.map((r) => r.tx),
      ]);
    }
  };
  const headOf = async (c: pg.PoolClient | pg.Pool, tableId: string): Promise<number> =>
    (await c.query<{ head: number }>('SELECT coalesce(max(version), 0)::integer AS head FROM transactions WHERE table_id = $1', [tableId])).rows[0]!.head;
  const findIn = async (c: pg.PoolClient | pg.Pool, tableId: string, actorKey: string, commandId: string): Promise<TxRecord | null> => {
    const r = (await c.query<TxRow>('SELECT version, command_id, actor, tx FROM transactions WHERE table_id = $1 AND actor = $2 AND command_id = $3', [tableId, actorKey, commandId])).rows[0];
    return r ? toTx(r) : null;
  };
  const putSnapshotIn = async (c: pg.PoolClient, tableId: string, version: number, state: string) => {
    await c.query('INSERT INTO snapshots (table_id, version, state) VALUES ($1, $2, $3) ON CONFLICT (table_id, version) DO UPDATE SET state = excluded.state', [tableId, version, state]);
    await c.query('DELETE FROM snapshots WHERE table_id = $1 AND version < $2', [tableId, version]);
  };

  const store: PostgresEventStore = {
    kind: 'postgres',
    sync: null,
    pool,
    createTable: (table, tokens) =>
      inTx(async (c) => {
        await insertTable(c, table);
        await insertTokens(c, tokens);
      }),
    importTable: (table, log, tokens) =>
      inTx(async (c) => {
        log.forEach((r, i) => {
          if (r.version !== i + 1) throw new StoreError('SCHEMA', `import log has a gap at version ${i + 1}`);
        });
        await insertTable(c, table);
        await insertRows(c, table.tableId, log.map((r) => ({ version: r.version, commandId: r.commandId, actorKey: r.actorKey, tx: JSON.stringify(r.transaction) })));
        await insertTokens(c, tokens);
      }),
    importRows: (tableId, rows) =>
      inTx(async (c) => {
        const head = await headOf(c, tableId);
        rows.forEach((r, i) => {
          if (r.version !== head + i + 1) throw new StoreError('SCHEMA', `import row ${r.version} does not follow version ${head + i}`);
        });
        await insertRows(c, tableId, rows);
      }),
    dropTable: (tableId) =>
      inTx(async (c) => {
        for (const t of ['transactions', 'snapshots', 'tokens', 'join_codes', 'tables']) await c.query(`DELETE FROM ${t} WHERE table_id = $1`, [tableId]);
      }),
    async getTable(tableId) {
      const r = (await query<{ table_id: string; name: string; ruleset_id: string; genesis: string; created_at: string }>('SELECT table_id, name, ruleset_id, genesis, created_at FROM tables WHERE table_id = $1', [tableId]))[0];
      return r ? { tableId: r.table_id, name: r.name, rulesetId: r.ruleset_id, genesis: JSON.parse(r.genesis) as World, createdAt: Number(r.created_at) } : null;
    },
    async countTables() {
      return (await query<{ n: number }>('SELECT count(*)::integer AS n FROM tables'))[0]!.n;
    },
    async listTableIds() {
      return (await query<{ table_id: string }>('SELECT table_id FROM tables ORDER BY created_at, table_id')).map((r) => r.table_id);
    },
    head: (tableId) => {
      live();
      return headOf(pool, tableId);
    },
    async append(tableId, expected, record, fence) {
      live();
      if (record.commandId !== null) {
        const dup = await findIn(pool, tableId, record.actorKey, record.commandId);
        if (dup) return { ok: false, reason: 'duplicate', existing: dup };
      }
      // One statement checks the head and inserts; two racing writers that both saw the head meet at the primary key.
      const insert = async (c: pg.PoolClient | pg.Pool) =>
        (
          await c.query(
            'INSERT INTO transactions (table_id, version, command_id, actor, tx) SELECT $1, $2, $3, $4, $5 WHERE (SELECT coalesce(max(version), 0) FROM transactions WHERE table_id = $1) = $6',
            [tableId, expected + 1, record.commandId, record.actorKey, JSON.stringify(record.transaction), expected],
          )
        ).rowCount === 1;
      try {
        // A fenced append checks the lease in the same transaction as the insert.
        const inserted = fence === undefined ? await insert(pool) : await inTx(async (c) => (await checkFences(c, new Map([[tableId, fence]]), [tableId]), insert(c)));
        if (inserted) return { ok: true, version: expected + 1 };
      } catch (e) {
        const hit = uniqueViolation(e);
        if (hit === 'transactions_command_once' && record.commandId !== null) {
          const dup = await findIn(pool, tableId, record.actorKey, record.commandId);
          if (dup) return { ok: false, reason: 'duplicate', existing: dup };
        }
        if (hit !== 'transactions_at_version') throw e;
      }
      return { ok: false, reason: 'conflict', current: await headOf(pool, tableId) };
    },
    findCommand: (tableId, actorKey, commandId) => {
      live();
      return findIn(pool, tableId, actorKey, commandId);
    },
    async readLog(tableId, after = 0, limit) {
      const rows = await query<TxRow>(`SELECT version, command_id, actor, tx FROM transactions WHERE table_id = $1 AND version > $2 ORDER BY version${limit === undefined || !Number.isFinite(limit) ? '' : ' LIMIT $3'}`, limit === undefined || !Number.isFinite(limit) ? [tableId, after] : [tableId, after, limit]);
      return rows.map(toTx);
    },
    putSnapshot: (tableId, version, state) => inTx((c) => putSnapshotIn(c, tableId, version, state)),
    async latestSnapshot(tableId) {
      const r = (await query<{ version: number; state: string }>('SELECT version, state FROM snapshots WHERE table_id = $1 ORDER BY version DESC LIMIT 1', [tableId]))[0];
      return r ?? null;
    },
    addToken: (t) => inTx((c) => insertTokens(c, [t])),
    async findToken(hash) {
      const r = (await query<TokenRow>('SELECT * FROM tokens WHERE hash = $1', [hash]))[0];
      return r ? toToken(r) : null;
    },
    revokeTokens: (tableId, match, at) =>
      inTx(async (c) => {
        // The seat's join code first: a redeem in flight holds its row, so this waits for it, and the UPDATE below
        // (a new snapshot) then sees the token that redeem stored and revokes it too. Never a live link after.
        if (match.role === 'player') {
          if (match.seatId === undefined) await c.query('DELETE FROM join_codes WHERE table_id = $1', [tableId]);
          else if (match.seatId !== null) await c.query('DELETE FROM join_codes WHERE table_id = $1 AND seat_id = $2', [tableId, match.seatId]);
        }
        const rows = (
          await c.query<TokenRow>(
            `UPDATE tokens SET revoked_at = $1 WHERE table_id = $2 AND revoked_at IS NULL AND role = $3${match.seatId === undefined ? '' : ' AND seat_id IS NOT DISTINCT FROM $4'} RETURNING *`,
            match.seatId === undefined ? [at, tableId, match.role] : [at, tableId, match.role, match.seatId],
          )
        ).rows;
        return rows.map(toToken).sort((a, b) => a.createdAt - b.createdAt || (a.hash < b.hash ? -1 : 1));
      }),
    async listTokens(tableId) {
      return (await query<TokenRow>('SELECT * FROM tokens WHERE table_id = $1 ORDER BY created_at, hash', [tableId])).map(toToken);
    },
    async putJoinCode(code) {
      try {
        await query(
          'INSERT INTO join_codes (table_id, seat_id, hash, expires_at, used_at) VALUES ($1, $2, $3, $4, NULL) ON CONFLICT (table_id, seat_id) DO UPDATE SET hash = excluded.hash, expires_at = excluded.expires_at, used_at = NULL',
          [code.tableId, code.seatId, code.hash, code.expiresAt],
        );
        return true;
      } catch (e) {
        // Another seat's code has this hash: the caller mints another.
        if (uniqueViolation(e) === 'join_codes_hash') return false;
        throw e;
      }
    },
    async redeemJoinCode(hash, now, token) {
      // One statement: the UPDATE takes the code's row lock, so of two instances racing on a code the second waits,
      // re-reads the row as used and matches nothing. The token is stored by the same statement, or not at all.
      const r = (
        await query<{ table_id: string; seat_id: string }>(
          `WITH used AS (UPDATE join_codes SET used_at = $2 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING table_id, seat_id)
           INSERT INTO tokens (hash, table_id, role, seat_id, created_at, revoked_at) SELECT $3, table_id, 'player', seat_id, $4, NULL FROM used
           RETURNING table_id, seat_id`,
          [hash, now, token.hash, token.createdAt],
        )
      )[0];
      return r === undefined ? null : { tableId: r.table_id, seatId: r.seat_id };
    },
    async listJoinCodes(tableId) {
      const rows = await query<{ table_id: string; seat_id: string; hash: string; expires_at: string; used_at: string | null }>('SELECT table_id, seat_id, hash, expires_at, used_at FROM join_codes WHERE table_id = $1 ORDER BY seat_id', [tableId]);
      return rows.map((r): JoinCodeRecord => ({ tableId: r.table_id, seatId: r.seat_id, hash: r.hash, expiresAt: Number(r.expires_at), usedAt: r.used_at === null ? null : Number(r.used_at) }));
    },
    async joinFailuresFullAt(address) {
      const r = (await query<{ full_at: string }>('SELECT full_at FROM join_failures WHERE address = $1', [address]))[0];
      return r === undefined ? null : Number(r.full_at);
    },
    async chargeJoinFailure(address, now, stepMs, capMs) {
      // One upsert: two instances charging one address at once both count (the row lock orders them).
      const r = await query<{ full_at: string }>(
        `WITH gone AS (DELETE FROM join_failures WHERE full_at < $2 AND address <> $1)
         INSERT INTO join_failures AS f (address, full_at) VALUES ($1, LEAST($2::bigint + $3::bigint, $2::bigint + $4::bigint))
         ON CONFLICT (address) DO UPDATE SET full_at = LEAST(GREATEST(f.full_at, $2::bigint) + $3::bigint, $2::bigint + $4::bigint)
         RETURNING full_at`,
        [address, now, stepMs, capMs],
      );
      return Number(r[0]!.full_at);
    },
    async commit(lookups, fn, fences) {
      live();
      // The batch's command ids, read in one query before it decides (the decision itself is synchronous).
      const found = new Map<string, TxRecord>();
      if (lookups.length > 0) {
        const rows = await query<TxRow & { table_id: string }>(
          'SELECT t.table_id, t.version, t.command_id, t.actor, t.tx FROM transactions t JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(table_id, actor, command_id) ON t.table_id = k.table_id AND t.actor = k.actor AND t.command_id = k.command_id',
          [lookups.map((k) => k.tableId), lookups.map((k) => k.actorKey), lookups.map((k) => k.commandId)],
        );
        for (const r of rows) found.set(commandKey(r.table_id, r.actor, r.command_id!), toTx(r));
      }
      const batch = new PgBatch(lookups, found);
      const value = fn(batch);
      return { value, durable: batch.empty() ? Promise.resolve() : inTx((c) => batch.write(c, fences)) };
    },
    async probeWrite() {
      try {
        await query('INSERT INTO health (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at', [Date.now()]);
        return null;
      } catch (e) {
        return e;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
  return store;
}

/** A group commit's rows, staged while the batch decides (store/staged.ts) and written in one transaction after. */
class PgBatch extends StagedBatch {
  constructor(lookups: readonly CommandKey[], found: Map<string, TxRecord>) {
    const looked = new Set(lookups.map((k) => commandKey(k.tableId, k.actorKey, k.commandId)));
    super((tableId, actorKey, commandId) => {
      const key = commandKey(tableId, actorKey, commandId);
      const hit = found.get(key);
      if (hit) return hit;
      // A command id never read before the batch cannot be answered without a round trip: refuse rather than guess.
      if (!looked.has(key)) throw new StoreError('UNAVAILABLE', `command id ${commandId} of table ${tableId} was not read before its group commit`);
      return null;
    });
  }

  /** Inserts the batch; a version another writer took first fails the whole batch (the rooms reload from the store). */
  async write(c: pg.PoolClient, fences: ReadonlyMap<string, Fence> | undefined): Promise<void> {
    // First the leases (held until COMMIT), so no takeover lands between this check and the rows.
    if (fences !== undefined) await checkFences(c, fences, this.rows.map((r) => r.tableId));
    // Each table's first row must follow its stored head: a room ahead of the store would leave a gap (racing writers meet at the key below).
    const first = new Map<string, number>();
    for (const r of this.rows) if (!first.has(r.tableId)) first.set(r.tableId, r.version);
    if (first.size > 0) {
      const ids = [...first.keys()];
      const heads = (await c.query<{ table_id: string; head: number }>('SELECT k.table_id, coalesce((SELECT max(version) FROM transactions t WHERE t.table_id = k.table_id), 0)::integer AS head FROM unnest($1::text[]) AS k(table_id)', [ids])).rows;
      for (const h of heads) {
        if (h.head !== first.get(h.table_id)! - 1) throw new StoreError('CONFLICT', `table ${h.table_id} is at version ${h.head} in the store, not ${first.get(h.table_id)! - 1}; nothing of this batch was saved`);
      }
    }
    try {
      for (let at = 0; at < this.rows.length; at += ROWS_PER_INSERT) {
        const part = this.rows.slice(at, at + ROWS_PER_INSERT);
        await c.query('INSERT INTO transactions (table_id, version, command_id, actor, tx) SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::text[])', [
          part.map((r) => r.tableId),
          part.map((r) => r.version),
          part.map((r) => r.commandId),
          part.map((r) => r.actorKey),
          part.map((r) => r.tx),
        ]);
      }
    } catch (e) {
      const hit = uniqueViolation(e);
      if (hit === 'transactions_at_version') throw new StoreError('CONFLICT', 'another writer took a version of this batch first; nothing of it was saved');
      if (hit === 'transactions_command_once') throw new StoreError('CONFLICT', 'another writer saved a command id of this batch first; nothing of it was saved');
      throw e;
    }
    for (const [tableId, s] of this.snapshots) {
      await c.query('INSERT INTO snapshots (table_id, version, state) VALUES ($1, $2, $3) ON CONFLICT (table_id, version) DO UPDATE SET state = excluded.state', [tableId, s.version, s.state]);
      await c.query('DELETE FROM snapshots WHERE table_id = $1 AND version < $2', [tableId, s.version]);
    }
  }
}
