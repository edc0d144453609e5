// Sockets that have not said hello yet (no token in the subprotocol): each
// address may hold only a few, each has a short timeout, and when the
// server-wide room is full the one that has waited longest makes way. One
// visitor's idle sockets can therefore never lock prompt clients out.

export interface HelloGuardOptions {
  /** Sockets waiting for their hello, server-wide. */
  readonly maxPending: number;
  /** Of those, from one address. */
  readonly maxPendingPerAddress: number;
  /** Milliseconds a socket has to send its hello. */
  readonly timeoutMs: number;
}

export interface Waiting {
  readonly address: string;
  /** Closes the socket (timeout or eviction). */
  readonly close: (code: number, reason: string) => void;
}

/** Close codes the guard uses (1013: try again later). */
export const TRY_AGAIN_LATER = 1013;

export class HelloGuard {
  /** Oldest first (Map keeps insertion order). */
  private readonly waiting = new Map<Waiting, NodeJS.Timeout>();
  private readonly perAddress = new Map<string, number>();

  constructor(
    private readonly o: HelloGuardOptions,
    private readonly timeoutCode: number,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Admits a socket to wait for its hello, or says why not (the caller closes it with 1013). */
  admit(w: Waiting): { ok: true } | { ok: false; reason: string } {
    const mine = this.perAddress.get(w.address) ?? 0;
    if (mine >= this.o.maxPendingPerAddress) return { ok: false, reason: `more than ${this.o.maxPendingPerAddress} connections from this address are waiting to authenticate; send a hello first` };
    if (this.waiting.size >= this.o.maxPending) {
      // Room for the newcomer: the socket that has waited longest has had the most time to say hello.
      const oldest = this.waiting.keys().next().value as Waiting;
      this.settle(oldest);
      oldest.close(TRY_AGAIN_LATER, 'too many connections are waiting to authenticate; send a hello promptly');
    }
    this.perAddress.set(w.address, mine + 1);
    this.waiting.set(
      w,
      setTimeout(() => {
        this.settle(w);
        w.close(this.timeoutCode, 'send a hello with your token first');
      }, this.o.timeoutMs),
    );
    return { ok: true };
  }

  /** The socket said hello, or closed: it no longer waits. Idempotent. */
  settle(w: Waiting): void {
    const timer = this.waiting.get(w);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.waiting.delete(w);
    const n = (this.perAddress.get(w.address) ?? 1) - 1;
    if (n <= 0) this.perAddress.delete(w.address);
    else this.perAddress.set(w.address, n);
  }
}
