// Failed token upgrades slow down per address: each failure spends from a
// small bucket that refills over time; while it is empty, that address's
// token checks are refused before the token is even looked up, so guessing
// tokens runs at the refill rate, not at the server's speed.

export interface TokenThrottleOptions {
  /** Failures allowed in a burst (a typo, a stale link or two). */
  readonly burst: number;
  /** Failures regained per second. */
  readonly perSecond: number;
}

export const DEFAULT_TOKEN_THROTTLE: TokenThrottleOptions = { burst: 10, perSecond: 1 };

const MAX_ADDRESSES = 10_000;

export class TokenThrottle {
  private readonly entries = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly o: TokenThrottleOptions = DEFAULT_TOKEN_THROTTLE) {}

  private level(address: string, now: number): { tokens: number; at: number } {
    const e = this.entries.get(address);
    if (e === undefined) return { tokens: this.o.burst, at: now };
    return { tokens: Math.min(this.o.burst, e.tokens + (Math.max(0, now - e.at) / 1000) * this.o.perSecond), at: now };
  }

  /** 0 when this address may try a token now, else the milliseconds until it may. */
  waitMs(address: string, now = Date.now()): number {
    const { tokens } = this.level(address, now);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.o.perSecond) * 1000);
  }

  /** Records a failed token from this address. */
  failed(address: string, now = Date.now()): void {
    const l = this.level(address, now);
    this.entries.delete(address);
    // Bounded memory: the address least recently failing is forgotten first.
    if (this.entries.size >= MAX_ADDRESSES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(address, { tokens: Math.max(0, l.tokens - 1), at: now });
  }
}
