// Countdown odds: the exact absorbing-chain solve against its peer, a seeded
// Monte Carlo of 100,000 duality rolls, measured in the same run.
// Run: npm run bench -- countdowns   (or: node --import tsx bench/countdowns.bench.ts)
import { Bench } from 'tinybench';
import { dualityOutcomeDistribution, rollDuality } from '../packages/engine/src/dice/index.js';
import { seededRng } from '../packages/engine/src/dice/rng.js';
import { DYNAMIC_ADVANCEMENT } from '../packages/engine/src/countdowns/index.js';
import { chaseOdds, countdownOdds } from '../packages/engine/src/odds/index.js';

const ROLL = { modifier: 2, difficulty: 15 };
const PMF = dualityOutcomeDistribution(ROLL);
const MC_ROLLS = 100_000;

/** The peer: estimate a d12-vs-d12 chase by simulating 100k action rolls (as many chases as fit). */
function monteCarloChase(seed: number): { pcs: number; chases: number } {
  const rng = seededRng(seed);
  let rolls = 0;
  let chases = 0;
  let pcs = 0;
  while (rolls < MC_ROLLS) {
    let p = 12;
    let c = 12;
    while (p > 0 && c > 0) {
      const row = DYNAMIC_ADVANCEMENT[rollDuality(rng, ROLL).outcome];
      p -= row.progress;
      c -= row.consequence;
      rolls++;
    }
    chases++;
    if (p <= 0 && c > 0) pcs++;
  }
  return { pcs, chases };
}

/** The peer for a single countdown: 100k rolls through a progress countdown 8. */
function monteCarloCountdown(seed: number): { mean: number } {
  const rng = seededRng(seed);
  let rolls = 0;
  let runs = 0;
  while (rolls < MC_ROLLS) {
    let v = 8;
    while (v > 0) {
      v -= DYNAMIC_ADVANCEMENT[rollDuality(rng, ROLL).outcome].progress;
      rolls++;
    }
    runs++;
  }
  return { mean: rolls / runs };
}

let sink = 0;
let seed = 1;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench
  .add('chaseOdds d12 vs d12 (from a PMF)', () => {
    const r = chaseOdds({ progress: 12, consequence: 12 }, { pmf: PMF });
    if (r.ok) sink += r.value.progressFirst;
  })
  .add('chaseOdds d12 vs d12 (from modifier/difficulty, incl. the duality distribution)', () => {
    const r = chaseOdds({ progress: 12, consequence: 12 }, ROLL);
    if (r.ok) sink += r.value.progressFirst;
  })
  .add('countdownOdds progress 8', () => {
    const r = countdownOdds({ value: 8, advance: 'progress' }, { pmf: PMF });
    if (r.ok) sink += r.value.expectedRolls;
  })
  .add('Monte Carlo chase d12 vs d12, 100k rolls (peer)', () => {
    sink += monteCarloChase(seed++).pcs;
  })
  .add('Monte Carlo progress 8, 100k rolls (peer)', () => {
    sink += monteCarloCountdown(seed++).mean;
  });

await bench.run();

const mean = (name: string): number => {
  const t = bench.getTask(name);
  const r = t?.result;
  if (r === undefined || !('latency' in r)) throw new Error(`no result for ${name}`);
  return r.latency.mean;
};
for (const t of bench.tasks) console.log(`${t.name.padEnd(84)} ${(mean(t.name) * 1000).toFixed(1).padStart(10)} µs/op`);
const chaseExact = mean('chaseOdds d12 vs d12 (from a PMF)');
const chaseMc = mean('Monte Carlo chase d12 vs d12, 100k rolls (peer)');
const cdExact = mean('countdownOdds progress 8');
const cdMc = mean('Monte Carlo progress 8, 100k rolls (peer)');
console.log(`\nchase d12 vs d12: exact ${(chaseExact * 1000).toFixed(1)} µs vs Monte Carlo (100k rolls) ${chaseMc.toFixed(1)} ms -> exact is ${(chaseMc / chaseExact).toFixed(0)}x faster`);
console.log(`countdown progress 8: exact ${(cdExact * 1000).toFixed(1)} µs vs Monte Carlo (100k rolls) ${cdMc.toFixed(1)} ms -> exact is ${(cdMc / cdExact).toFixed(0)}x faster`);

// Accuracy, for the record: the Monte Carlo estimate's error against the exact answer.
const exact = chaseOdds({ progress: 12, consequence: 12 }, { pmf: PMF });
const mc = monteCarloChase(12345);
if (exact.ok) {
  const q = exact.value.progressFirst;
  const est = mc.pcs / mc.chases;
  console.log(`P(PCs catch first), d12 vs d12, +2 vs 15: exact ${q.toFixed(6)}; Monte Carlo ${est.toFixed(6)} over ${mc.chases} chases (sd ${Math.sqrt((q * (1 - q)) / mc.chases).toFixed(6)})`);
}
if (sink === 42) console.log('');
