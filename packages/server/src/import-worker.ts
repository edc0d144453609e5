// The import worker: parses, checks and replays an export off the event loop
// (the 27 MB text, its lines and the replayed table live in this thread's
// heap, so their garbage never pauses the server), and posts the checked rows
// in batches. At most MAX_UNACKED batches are in flight: the event loop acks
// each one it has written, so a fast check never piles the whole file up in
// the server's memory.
import { parentPort, workerData } from 'node:worker_threads';
import type { Engine, World } from '@tablekeeper/engine';
import { IMPORT_BATCH_ROWS, startImportCheck, type ImportCheckLimits, type ImportHeader, type ImportRefusal, type RowBatch } from './import-check.js';
import { encodeSnapshot } from './snapshot.js';

export interface ImportJob {
  readonly body: Uint8Array | string;
  readonly tableId: string;
  readonly limits: ImportCheckLimits;
}

/** Messages to the event loop, in order: header, rows..., then done or refused. */
export type ImportWorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'header'; readonly header: ImportHeader }
  | { readonly type: 'rows'; readonly batch: RowBatch }
  /** The replayed table as a room snapshot, and the undo stack's newest worlds (so its first undos need no replay). */
  | { readonly type: 'done'; readonly snapshot: string; readonly kept: [number, World][] }
  | { readonly type: 'refused'; readonly refusal: ImportRefusal };

const MAX_UNACKED = 16;
/** Undo worlds sent back: the newest entry's and a few checkpoints below it (each covers 64 undos). */
const KEPT_UNDO_WORLDS = 8;

const { catalogModule } = workerData as { catalogModule: string };
const catalog = (await import(catalogModule)) as { engineFor(id: string): Engine | null };
const port = parentPort!;
const post = (m: ImportWorkerMessage) => port.postMessage(m);

let unacked = 0;
let wake: (() => void) | null = null;
port.on('message', (m: { type: 'job'; job: ImportJob } | { type: 'ack' }) => {
  if (m.type === 'ack') {
    unacked--;
    wake?.();
    wake = null;
    return;
  }
  void run(m.job);
});

async function run(job: ImportJob): Promise<void> {
  const body = typeof job.body === 'string' ? job.body : Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  const check = startImportCheck(body, (id) => catalog.engineFor(id), job.limits, job.tableId);
  if ('error' in check) return post({ type: 'refused', refusal: check });
  post({ type: 'header', header: check.header });
  for (;;) {
    const batch = check.next(IMPORT_BATCH_ROWS);
    if (batch === null) break;
    if ('error' in batch) return post({ type: 'refused', refusal: batch });
    while (unacked >= MAX_UNACKED) await new Promise<void>((resolve) => (wake = resolve));
    unacked++;
    post({ type: 'rows', batch });
  }
  const table = check.finish();
  if ('error' in table) return post({ type: 'refused', refusal: table });
  post({ type: 'done', snapshot: encodeSnapshot(table), kept: table.live.keptWorlds(KEPT_UNDO_WORLDS) });
}

post({ type: 'ready' });
