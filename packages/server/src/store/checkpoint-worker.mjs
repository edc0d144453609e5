// The WAL checkpointer's thread (ADR 24). The server's connection never
// checkpoints (wal_autocheckpoint = 0): this thread's own connection copies
// the WAL into the database file and syncs it, every few hundred
// milliseconds, so neither the copy nor its fsyncs ever hold the event loop.
// PASSIVE never waits for the writer and never makes it wait. Plain
// JavaScript: it needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, everyMs } = workerData;
const db = new Database(path, { fileMustExist: true });
// A checkpoint syncs the WAL before copying and the database file after, at this level.
db.pragma('synchronous = FULL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let timer = null;
let stopped = false;

function run() {
  timer = null;
  if (stopped) return;
  try {
    const [r] = checkpoint.all();
    parentPort.postMessage({ type: 'checkpointed', walFrames: r.log, copied: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
  timer = setTimeout(run, everyMs);
}

parentPort.on('message', (m) => {
  if (m.type === 'now' && timer !== null) {
    clearTimeout(timer);
    run();
  } else if (m.type === 'stop') {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
timer = setTimeout(run, everyMs);
parentPort.postMessage({ type: 'ready' });
