// A cost budget for queries: each query has a computed cost (a base, more for
// odds, which walk a state space, and for large arguments), charged up front;
// once answered it costs the time it really took instead (at least the base):
// the desk charges the rest or gives back what it did not use. Each seat
// and each table has a bucket that refills over time; an ask that finds
// either empty is refused with RATE_LIMITED and the wait until it refills.
// Queries spend only this budget, never a socket's message budget (ADR 86).
import type { RateLimitOptions } from './ratelimit.js';

export interface QueryBudgetOptions {
  /** Cost units (about one millisecond of work each) one seat may spend at once, and regains per second. */
  readonly seatCapacity: number;
  readonly seatPerSecond: number;
  /** The same for a whole table (all its viewers together). */
  readonly tableCapacity: number;
  readonly tablePerSecond: number;
}

export const DEFAULT_QUERY_BUDGET: QueryBudgetOptions = { seatCapacity: 400, seatPerSecond: 100, tableCapacity: 1000, tablePerSecond: 250 };

/** The up-front cost of the cheapest query. */
export const MIN_QUERY_COST = 2;

/**
 * Query frames one socket may send (ADR 86): twice what its seat's budget could
 * accept of the cheapest query, so a client meets the budget's own refusal (and
 * its wait) first. It bounds what a flood of refused queries costs the server
 * (parsing, answering), and closes a socket that keeps flooding.
 */
export function queryFrameLimit(b: QueryBudgetOptions): RateLimitOptions {
  const frames = (units: number) => (2 * units) / MIN_QUERY_COST;
  return { capacity: frames(b.seatCapacity), refillPerSecond: frames(b.seatPerSecond), closeAfter: frames(b.seatCapacity) };
}

/** Up-front cost of a query: odds walk a state space (outcomes x rolls), so they start higher. */
export function queryCost(name: string, args: unknown): number {
  const base = /odds/i.test(name) ? 20 : MIN_QUERY_COST;
  const size = JSON.stringify(args ?? {}).length;
  return base + Math.ceil(size / 1000);
}

class Bucket {
  private level: number;
  private at: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.level = capacity;
    this.at = now;
  }

  private refill(now: number): void {
    this.level = Math.min(this.capacity, this.level + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = now;
  }

  /** Milliseconds until the level is positive again (0: may spend now). */
  waitMs(now: number): number {
    this.refill(now);
    return this.level > 0 ? 0 : Math.ceil(((-this.level + 1) / this.perSecond) * 1000);
  }

  /** Milliseconds until `cost` fits whole (0: it fits now). */
  waitFor(cost: number, now: number): number {
    this.refill(now);
    return this.level >= cost ? 0 : Math.ceil(((cost - this.level) / this.perSecond) * 1000);
  }

  /** Units left now (never below zero in what it reports). */
  left(now: number): number {
    this.refill(now);
    return Math.max(0, Math.floor(this.level));
  }

  /** Gives back units charged beyond what the work took (never above the capacity). */
  refund(units: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.capacity, this.level + units);
  }

  /** Spends (the level may go below zero: a long query is paid for afterwards). */
  spend(cost: number, now: number): void {
    this.refill(now);
    this.level -= cost;
  }
}

const MAX_BUCKETS = 20_000;

/** A whole-cost charge: taken, or refused with the bucket that refused, its size, what is left and the wait. */
export type WholeTake =
  | { readonly ok: true }
  | { readonly ok: false; readonly scope: 'seat' | 'table'; readonly tooBig: boolean; readonly capacity: number; readonly perSecond: number; readonly left: number; readonly retryAfterMs: number };

export class QueryBudget {
  private readonly seats = new Map<string, Bucket>();
  private readonly tables = new Map<string, Bucket>();

  constructor(private readonly o: QueryBudgetOptions = DEFAULT_QUERY_BUDGET) {}

  private bucket(map: Map<string, Bucket>, key: string, capacity: number, perSecond: number, now: number): Bucket {
    let b = map.get(key);
    if (b === undefined) {
      if (map.size >= MAX_BUCKETS) map.delete(map.keys().next().value as string);
      b = new Bucket(capacity, perSecond, now);
      map.set(key, b);
    }
    return b;
  }

  /**
   * Charges the up-front cost to the seat and the table, or refuses with the
   * wait (nothing is charged when refused).
   */
  take(tableId: string, seatKey: string, cost: number, now = Date.now()): { ok: true } | { ok: false; retryAfterMs: number; scope: 'seat' | 'table' } {
    const seat = this.bucket(this.seats, `${tableId}\u0000${seatKey}`, this.o.seatCapacity, this.o.seatPerSecond, now);
    const table = this.bucket(this.tables, tableId, this.o.tableCapacity, this.o.tablePerSecond, now);
    const seatWait = seat.waitMs(now);
    if (seatWait > 0) return { ok: false, retryAfterMs: seatWait, scope: 'seat' };
    const tableWait = table.waitMs(now);
    if (tableWait > 0) return { ok: false, retryAfterMs: tableWait, scope: 'table' };
    seat.spend(cost, now);
    table.spend(cost, now);
    return { ok: true };
  }

  /**
   * Charges a cost that must fit whole in what is left of both buckets (a
   * table roll, whose cost is an upper bound known before the work), or
   * refuses with the wait until it fits; a cost over a bucket's capacity can
   * never fit. Nothing is charged when refused.
   */
  takeWhole(tableId: string, seatKey: string, cost: number, now = Date.now()): WholeTake {
    const scopes = [
      { scope: 'seat' as const, capacity: this.o.seatCapacity, perSecond: this.o.seatPerSecond, b: this.bucket(this.seats, `${tableId}\u0000${seatKey}`, this.o.seatCapacity, this.o.seatPerSecond, now) },
      { scope: 'table' as const, capacity: this.o.tableCapacity, perSecond: this.o.tablePerSecond, b: this.bucket(this.tables, tableId, this.o.tableCapacity, this.o.tablePerSecond, now) },
    ];
    for (const { scope, capacity, perSecond, b } of scopes) {
      if (cost > capacity) return { ok: false, scope, tooBig: true, capacity, perSecond, left: b.left(now), retryAfterMs: 0 };
      const wait = b.waitFor(cost, now);
      if (wait > 0) return { ok: false, scope, tooBig: false, capacity, perSecond, left: b.left(now), retryAfterMs: wait };
    }
    for (const { b } of scopes) b.spend(cost, now);
    return { ok: true };
  }

  /** Gives back to the seat and the table what a whole-cost charge took beyond the work done (a roll's unused worst case). */
  refund(tableId: string, seatKey: string, units: number, now = Date.now()): void {
    if (!(units > 0)) return;
    this.seats.get(`${tableId}\u0000${seatKey}`)?.refund(units, now);
    this.tables.get(tableId)?.refund(units, now);
  }

  /** Charges the time a query really took, beyond its up-front cost. */
  charge(tableId: string, seatKey: string, extra: number, now = Date.now()): void {
    if (extra <= 0) return;
    this.seats.get(`${tableId}\u0000${seatKey}`)?.spend(extra, now);
    this.tables.get(tableId)?.spend(extra, now);
  }
}
