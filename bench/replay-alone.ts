// Not a bench (no peer): engine.replay alone on replay-lines.ts's long table, for A/B of two bundles (ADR 120).
// Prints, per size, the median replay time and the collector's time and count in those runs; REPLAY_ALLOC=1 samples
// the bytes allocated a transaction instead; REPLAY_COUNT=n only replays the whole table n times (for callgrind).
// Run: sh bench/bundle.sh bench/replay-alone.ts replay-<v> && node node_modules/.cache/perf/replay-<v>.mjs
//   (env: REPLAY_SMALL, REPLAY_LARGE, REPLAY_RUNS a size after one untimed run)
import { PerformanceObserver } from 'node:perf_hooks';
import { coreModule, countdownsModule, createEngine } from '../packages/engine/src/index.js';
import { AllocSampler } from './alloc-sampler.js';
import { longTable } from './replay-lines.js';

const engine = createEngine([coreModule, countdownsModule]);
const SMALL = Number(process.env['REPLAY_SMALL'] ?? 10_000);
const LARGE = Number(process.env['REPLAY_LARGE'] ?? 100_000);
const RUNS = Number(process.env['REPLAY_RUNS'] ?? 5);
const { table, transactions } = longTable(LARGE);

const count = process.env['REPLAY_COUNT'];
if (count !== undefined) {
  for (let k = 0; k < Number(count); k++) engine.replay(table.genesis, transactions);
} else if (process.env['REPLAY_ALLOC'] === '1') {
  engine.replay(table.genesis, transactions);
  const sampler = new AllocSampler();
  await sampler.start();
  for (let k = 0; k < 3; k++) engine.replay(table.genesis, transactions);
  await sampler.stop();
  for (const l of sampler.lines(3 * LARGE, 'transaction', 8)) console.log(l);
} else {
  const gcs: number[] = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push(e.duration);
  }).observe({ entryTypes: ['gc'] });
  // GC entries arrive on a later turn: each run is timed, then the loop yields before reading them.
  const turn = () => new Promise((resolve) => setTimeout(resolve, 5));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const size of [SMALL, LARGE]) {
    const txs = transactions.slice(0, size);
    engine.replay(table.genesis, txs);
    const ms: number[] = [];
    const gcMs: number[] = [];
    const gcCount: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      await turn();
      gcs.length = 0;
      const t0 = performance.now();
      engine.replay(table.genesis, txs);
      ms.push(performance.now() - t0);
      await turn();
      gcMs.push(gcs.reduce((a, b) => a + b, 0));
      gcCount.push(gcs.length);
    }
    console.log(`replay ${size}: ${median(ms).toFixed(1)} ms, GC ${median(gcMs).toFixed(1)} ms in ${median(gcCount)} collections (medians of ${RUNS})`);
  }
}
