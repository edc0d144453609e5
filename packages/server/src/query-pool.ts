// Queries run off the event loop: a small pool of worker threads answers
// them on a copy of the world, each with a time cap (a query past it is cut
// off by terminating its worker, which is then replaced). The event loop only
// posts the job and sends the answer, so one table's expensive odds never
// delay another table's commands.
import { Worker } from 'node:worker_threads';
import type { Json, Result, Viewer, World } from '@tablekeeper/engine';

export interface QueryPoolOptions {
  /** Module specifier (or file URL) exporting engineFor(rulesetId), loaded in each worker. */
  readonly catalogModule: string;
  /** Worker threads (default 1: on a 2-core machine the other core is the event loop's). */
  readonly threads?: number;
  /** Milliseconds a query may run before it is cut off. */
  readonly timeCapMs?: number;
  /** Jobs waiting for a worker at most; more are refused as busy. */
  readonly maxQueued?: number;
}

export const DEFAULT_QUERY_TIME_CAP_MS = 2000;

/** A query's result and the milliseconds the worker spent on it (0 when it never ran). */
export interface Answered {
  readonly result: Result<Json>;
  readonly ms: number;
}

interface Job {
  readonly id: number;
  readonly msg: { id: number; rulesetId: string; world: World; viewer: Viewer; name: string; args: Json };
  readonly resolve: (r: Answered) => void;
}

interface Slot {
  worker: Worker;
  /** Loaded its engines: the time cap starts only once a worker can answer. */
  ready: boolean;
  busy: Job | null;
  timer: NodeJS.Timeout | null;
}

export class QueryPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  readonly timeCapMs: number;
  private readonly maxQueued: number;

  constructor(private readonly o: QueryPoolOptions) {
    this.timeCapMs = o.timeCapMs ?? DEFAULT_QUERY_TIME_CAP_MS;
    this.maxQueued = o.maxQueued ?? 256;
    for (let i = 0; i < Math.max(1, o.threads ?? 1); i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    // The worker runs TypeScript like the server does (tsx), whichever way the server was started.
    const worker = new Worker(new URL('./query-worker-boot.mjs', import.meta.url), { workerData: { catalogModule: this.o.catalogModule } });
    const slot: Slot = { worker, ready: false, busy: null, timer: null };
    worker.on('message', (m: { id?: number; ready?: boolean; result?: Result<Json>; ms?: number }) => {
      if (m.ready === true) {
        slot.ready = true;
        this.pump();
        return;
      }
      if (m.id === undefined || slot.busy === null || slot.busy.id !== m.id) return;
      const job = slot.busy;
      this.release(slot);
      job.resolve({ result: m.result!, ms: m.ms ?? 0 });
    });
    worker.on('error', (e) => this.fail(slot, `the query failed in its worker: ${e.message}`));
    worker.on('exit', () => {
      if (!this.closed && this.slots.includes(slot)) this.fail(slot, 'the query worker stopped');
    });
    worker.unref();
    return slot;
  }

  private release(slot: Slot): void {
    slot.worker.unref();
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    this.pump();
  }

  /** The slot's worker is gone or stuck: answer its job with an error and put a fresh worker in its place. */
  private fail(slot: Slot, message: string, code = 'UNAVAILABLE'): void {
    const job = slot.busy;
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (slot.timer) clearTimeout(slot.timer);
    this.slots.splice(i, 1);
    void slot.worker.terminate();
    if (!this.closed) this.slots.push(this.spawn());
    job?.resolve({ result: { ok: false, error: { code, message } }, ms: code === 'LIMIT_EXCEEDED' ? this.timeCapMs : 0 });
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy !== null || !slot.ready) continue;
      const job = this.queue.shift();
      if (job === undefined) return;
      slot.busy = job;
      // A waiting answer keeps the process alive; an idle pool does not.
      slot.worker.ref();
      slot.timer = setTimeout(() => this.fail(slot, `the query ran longer than ${this.timeCapMs} ms and was stopped`, 'LIMIT_EXCEEDED'), this.timeCapMs);
      slot.worker.postMessage(job.msg);
    }
  }

  /** Answers `name` for `viewer` on `world` in a worker; a typed error when the pool is saturated, the cap is hit or the worker fails. */
  run(rulesetId: string, world: World, viewer: Viewer, name: string, args: Json): Promise<Answered> {
    const refused = (message: string): Promise<Answered> => Promise.resolve({ result: { ok: false, error: { code: 'UNAVAILABLE', message } }, ms: 0 });
    if (this.closed) return refused('the server is shutting down');
    if (this.queue.length >= this.maxQueued) return refused('too many queries are waiting; retry shortly');
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.queue.push({ id, msg: { id, rulesetId, world, viewer, name, args }, resolve });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const gone: Answered = { result: { ok: false, error: { code: 'UNAVAILABLE', message: 'the server is shutting down' } }, ms: 0 };
    for (const job of this.queue.splice(0)) job.resolve(gone);
    await Promise.all(
      this.slots.splice(0).map((s) => {
        if (s.timer) clearTimeout(s.timer);
        s.busy?.resolve(gone);
        return s.worker.terminate();
      }),
    );
  }
}
