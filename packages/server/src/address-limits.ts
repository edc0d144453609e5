// Per-address token buckets with bounded memory: the allowance for creating
// (and importing) tables, and the slow-down for failed token upgrades. An
// address not seen for a while starts fresh; the oldest is forgotten when the
// map is full, so a flood of addresses costs a fixed amount of memory.
import { TokenBucket, type RateLimitOptions, type Take } from './ratelimit.js';

export interface AllowanceOptions {
  /** Burst per address. */
  readonly capacity: number;
  /** Regained per second. */
  readonly refillPerSecond: number;
}

/** Table creation and import, per address: a burst of 20, then one every 3 seconds. */
export const DEFAULT_CREATE_ALLOWANCE: AllowanceOptions = { capacity: 20, refillPerSecond: 1 / 3 };

const MAX_ADDRESSES = 10_000;

export class AddressBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly o: RateLimitOptions;

  constructor(o: AllowanceOptions) {
    // A refused request is only refused: there is no connection to close.
    this.o = { ...o, closeAfter: Number.MAX_SAFE_INTEGER };
  }

  private bucket(address: string, now: number): TokenBucket {
    let b = this.buckets.get(address);
    if (b === undefined) {
      if (this.buckets.size >= MAX_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value as string);
      b = new TokenBucket(this.o, now);
      this.buckets.set(address, b);
    }
    return b;
  }

  /** Takes one from this address's bucket: ok, or the wait before the next one. */
  take(address: string, now = Date.now()): { ok: true } | { ok: false; retryAfterMs: number } {
    const t: Take = this.bucket(address, now).take(now);
    return t.verdict === 'ok' ? { ok: true } : { ok: false, retryAfterMs: t.verdict === 'throttle' ? t.retryAfterMs : Math.ceil(1000 / this.o.refillPerSecond) };
  }
}
