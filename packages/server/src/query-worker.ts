// The worker thread's side of the query pool: it loads the catalog's engines
// (by module specifier, since engines hold functions and cannot be posted),
// answers one query at a time on the world it is sent, and posts the result.
import { parentPort, workerData } from 'node:worker_threads';
import type { Engine, Json, PlainTable, Viewer, World } from '@tablekeeper/engine';

interface Job {
  readonly id: number;
  readonly rulesetId: string;
  readonly world: World;
  readonly viewer: Viewer;
  readonly name: string;
  readonly args: Json;
}

const { catalogModule } = workerData as { catalogModule: string };
const catalog = (await import(catalogModule)) as { engineFor(id: string): Engine | null };

parentPort!.on('message', (job: Job) => {
  const engine = catalog.engineFor(job.rulesetId);
  if (engine === null) {
    parentPort!.postMessage({ id: job.id, result: { ok: false, error: { code: 'UNKNOWN_RULESET', message: `the query worker has no ruleset ${job.rulesetId}` } } });
    return;
  }
  // engine.query reads only the world (and projects it for the viewer first).
  const table = { genesis: job.world, world: job.world, transactions: [], live: [], redoable: [] } as PlainTable;
  const started = performance.now();
  const result = engine.query(table, job.viewer, job.name, job.args);
  parentPort!.postMessage({ id: job.id, result, ms: performance.now() - started });
});
parentPort!.postMessage({ ready: true });
