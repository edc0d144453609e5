// One authority per table across instances (issue 22): an instance decides a
// table's commands only while it holds the table's lease. A lease has an epoch
// that grows with every change of holder; it is the fencing token: a store
// append made under an older epoch is refused (ADR 54), so an owner that was
// paused past its lease cannot write after another took over.
import type pg from 'pg';

export interface Lease {
  readonly tableId: string;
  /** The holding instance's id. */
  readonly owner: string;
  /** Grows by one each time the lease changes hands (never reused): the fencing token. */
  readonly epoch: number;
  /** When it lapses unless renewed (ms since the epoch, by the lease store's clock). */
  readonly expiresAt: number;
}

export interface LeaseStore {
  /** Takes the table's lease when it is free, lapsed or already ours (then it is renewed, same epoch); null while another holds it. */
  acquire(tableId: string, owner: string, ttlMs: number): Promise<Lease | null>;
  /** Extends our lease; null when it is no longer ours (lapsed and taken, or released). */
  renew(lease: Lease, ttlMs: number): Promise<Lease | null>;
  /**
   * Extends every given lease that is still ours, in one round trip (an owner renews all its tables at once, ADR 64):
   * the answer holds the renewed ones by table id; a table missing from it is no longer ours.
   */
  renewAll(leases: readonly Lease[], ttlMs: number): Promise<Map<string, Lease>>;
  /** Of these tables, the ones whose lease is free or lapsed, in one round trip: a follower tries to take only those. */
  free(tableIds: readonly string[]): Promise<Set<string>>;
  /** Gives it up at once, so another instance need not wait for it to lapse. */
  release(lease: Lease): Promise<void>;
  /** Who holds the table's lease now (a lapsed lease is nobody's). */
  holder(tableId: string): Promise<Lease | null>;
}

/** Longest lease: a holder that stops renewing blocks its tables at most this long. */
export const MAX_LEASE_MS = 60_000;

function checkTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs < 100 || ttlMs > MAX_LEASE_MS) throw new RangeError(`lease: ttlMs must be an integer from 100 to ${MAX_LEASE_MS}, not ${ttlMs}`);
}

/** Leases in one process (tests; a single server needs none). `now` is injectable so lapses are tested without waiting. */
export class MemoryLeaseStore implements LeaseStore {
  private readonly leases = new Map<string, Lease>();
  private readonly epochs = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  async acquire(tableId: string, owner: string, ttlMs: number): Promise<Lease | null> {
    checkTtl(ttlMs);
    const t = this.now();
    const held = this.leases.get(tableId);
    if (held !== undefined && held.expiresAt > t && held.owner !== owner) return null;
    const epoch = held !== undefined && held.owner === owner && held.expiresAt > t ? held.epoch : (this.epochs.get(tableId) ?? 0) + 1;
    this.epochs.set(tableId, epoch);
    const lease = { tableId, owner, epoch, expiresAt: t + ttlMs };
    this.leases.set(tableId, lease);
    return lease;
  }

  async renew(lease: Lease, ttlMs: number): Promise<Lease | null> {
    checkTtl(ttlMs);
    const t = this.now();
    const held = this.leases.get(lease.tableId);
    if (held === undefined || held.owner !== lease.owner || held.epoch !== lease.epoch || held.expiresAt <= t) return null;
    const next = { ...held, expiresAt: t + ttlMs };
    this.leases.set(lease.tableId, next);
    return next;
  }

  async renewAll(leases: readonly Lease[], ttlMs: number): Promise<Map<string, Lease>> {
    checkTtl(ttlMs);
    const out = new Map<string, Lease>();
    for (const l of leases) {
      const r = await this.renew(l, ttlMs);
      if (r !== null) out.set(l.tableId, r);
    }
    return out;
  }

  async free(tableIds: readonly string[]): Promise<Set<string>> {
    const t = this.now();
    return new Set(tableIds.filter((id) => !((this.leases.get(id)?.expiresAt ?? t) > t)));
  }

  async release(lease: Lease): Promise<void> {
    const held = this.leases.get(lease.tableId);
    if (held !== undefined && held.owner === lease.owner && held.epoch === lease.epoch) this.leases.delete(lease.tableId);
  }

  async holder(tableId: string): Promise<Lease | null> {
    const held = this.leases.get(tableId);
    return held !== undefined && held.expiresAt > this.now() ? held : null;
  }
}

/** The lease table, created if missing. Times are PostgreSQL's own (`clock_timestamp()`), so instances' clocks never disagree about a lapse. */
export const LEASE_SCHEMA = `
CREATE TABLE IF NOT EXISTS table_leases (
  table_id   text PRIMARY KEY,
  owner      text NOT NULL,
  epoch      bigint NOT NULL,
  expires_at timestamptz NOT NULL
)`;

type Row = { table_id: string; owner: string; epoch: string; expires_ms: string };
const toLease = (r: Row): Lease => ({ tableId: r.table_id, owner: r.owner, epoch: Number(r.epoch), expiresAt: Number(r.expires_ms) });
const RETURNING = `RETURNING table_id, owner, epoch, (extract(epoch from expires_at) * 1000)::bigint AS expires_ms`;

export class PgLeaseStore implements LeaseStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(pool: pg.Pool): Promise<PgLeaseStore> {
    await pool.query(LEASE_SCHEMA);
    return new PgLeaseStore(pool);
  }

  async acquire(tableId: string, owner: string, ttlMs: number): Promise<Lease | null> {
    checkTtl(ttlMs);
    // One statement: insert when free; take over when lapsed (epoch + 1); renew when ours (same epoch). Another's live lease: no row.
    const r = await this.pool.query<Row>(
      `INSERT INTO table_leases AS l (table_id, owner, epoch, expires_at)
       VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (table_id) DO UPDATE SET
         owner = EXCLUDED.owner,
         epoch = CASE WHEN l.owner = EXCLUDED.owner AND l.expires_at > clock_timestamp() THEN l.epoch ELSE l.epoch + 1 END,
         expires_at = EXCLUDED.expires_at
       WHERE l.expires_at <= clock_timestamp() OR l.owner = EXCLUDED.owner
       ${RETURNING}`,
      [tableId, owner, ttlMs],
    );
    return r.rows[0] === undefined ? null : toLease(r.rows[0]);
  }

  async renew(lease: Lease, ttlMs: number): Promise<Lease | null> {
    checkTtl(ttlMs);
    const r = await this.pool.query<Row>(
      `UPDATE table_leases SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE table_id = $1 AND owner = $2 AND epoch = $3 AND expires_at > clock_timestamp()
       ${RETURNING}`,
      [lease.tableId, lease.owner, lease.epoch, ttlMs],
    );
    return r.rows[0] === undefined ? null : toLease(r.rows[0]);
  }

  async renewAll(leases: readonly Lease[], ttlMs: number): Promise<Map<string, Lease>> {
    checkTtl(ttlMs);
    if (leases.length === 0) return new Map();
    // One statement. Its rows are locked in table order first, as a fenced commit locks them (store/postgres.ts), so a
    // renewal and a commit over the same tables never wait on each other in a cycle.
    const r = await this.pool.query<Row>(
      `WITH mine AS (
         SELECT l.table_id FROM table_leases l
         JOIN unnest($1::text[], $2::text[], $3::bigint[]) AS k(table_id, owner, epoch) ON l.table_id = k.table_id AND l.owner = k.owner AND l.epoch = k.epoch
         ORDER BY l.table_id FOR UPDATE OF l
       )
       UPDATE table_leases l SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       FROM mine WHERE l.table_id = mine.table_id AND l.expires_at > clock_timestamp()
       RETURNING l.table_id, l.owner, l.epoch, (extract(epoch from l.expires_at) * 1000)::bigint AS expires_ms`,
      [leases.map((l) => l.tableId), leases.map((l) => l.owner), leases.map((l) => l.epoch), ttlMs],
    );
    return new Map(r.rows.map((row) => [row.table_id, toLease(row)]));
  }

  async free(tableIds: readonly string[]): Promise<Set<string>> {
    if (tableIds.length === 0) return new Set();
    const r = await this.pool.query<{ table_id: string }>(
      `SELECT k.table_id FROM unnest($1::text[]) AS k(table_id) LEFT JOIN table_leases l ON l.table_id = k.table_id
       WHERE l.table_id IS NULL OR l.expires_at <= clock_timestamp()`,
      [[...tableIds]],
    );
    return new Set(r.rows.map((row) => row.table_id));
  }

  async release(lease: Lease): Promise<void> {
    // Lapsed now rather than deleted: the epoch row stays, so the next holder's epoch is still larger.
    await this.pool.query(`UPDATE table_leases SET expires_at = clock_timestamp() WHERE table_id = $1 AND owner = $2 AND epoch = $3`, [lease.tableId, lease.owner, lease.epoch]);
  }

  async holder(tableId: string): Promise<Lease | null> {
    const r = await this.pool.query<Row>(
      `SELECT table_id, owner, epoch, (extract(epoch from expires_at) * 1000)::bigint AS expires_ms FROM table_leases WHERE table_id = $1 AND expires_at > clock_timestamp()`,
      [tableId],
    );
    return r.rows[0] === undefined ? null : toLease(r.rows[0]);
  }
}
