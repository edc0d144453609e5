// Per-connection token bucket. Over the limit a message is refused with
// RATE_LIMITED (throttle); a client that keeps sending into an empty bucket
// runs up a debt and is closed (4429).
export interface RateLimitOptions {
  /** Burst size. */
  readonly capacity: number;
  /** Tokens regained per second. */
  readonly refillPerSecond: number;
  /** Refused messages tolerated (debt) before the connection is closed. */
  readonly closeAfter: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { capacity: 40, refillPerSecond: 20, closeAfter: 40 };

export type Take = { readonly verdict: 'ok' } | { readonly verdict: 'throttle'; readonly retryAfterMs: number } | { readonly verdict: 'close' };

/** The verdicts that carry nothing else, shared: a bucket is asked once per message. */
const TAKEN: Take = { verdict: 'ok' };
const CLOSE_NOW: Take = { verdict: 'close' };

export class TokenBucket {
  private tokens: number;
  private debt = 0;
  private last: number;

  constructor(
    private readonly o: RateLimitOptions,
    now: number,
  ) {
    this.tokens = o.capacity;
    this.last = now;
  }

  take(now: number): Take {
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(this.o.capacity, this.tokens + elapsed * this.o.refillPerSecond);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.debt = 0;
      return TAKEN;
    }
    this.debt += 1;
    if (this.debt > this.o.closeAfter) return CLOSE_NOW;
    return { verdict: 'throttle', retryAfterMs: Math.ceil(((1 - this.tokens) / this.o.refillPerSecond) * 1000) };
  }
}
