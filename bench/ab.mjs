// Not a bench: alternates variants of one bench run (different builds or node flags) so a trend in the
// machine's load does not favour one, and prints each run's key figures and their medians per variant.
// Run: node bench/ab.mjs <pairs> '<label>=<node args...>' '<label>=<node args...>' ...
//   e.g. BENCH_EXTRAS=0 BENCH_ROUNDS=3 node bench/ab.mjs 3 'base=node_modules/.cache/perf/server-base.mjs' \
//        'branch=node_modules/.cache/perf/server-branch.mjs' 'semi64=--max-semi-space-size=64 node_modules/.cache/perf/server-branch.mjs'
// Figures read from server.bench.ts's lines (CPU per command, throughput and p99 ratios, GC ms per round)
// or hot-path.ts's (process CPU per command, submit and broadcast).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const [pairsArg, ...specs] = process.argv.slice(2);
const pairs = Number(pairsArg);
if (!Number.isInteger(pairs) || pairs < 1 || specs.length < 2) {
  console.error("usage: node bench/ab.mjs <pairs> '<label>=<node args...>' '<label>=<node args...>' ...");
  process.exit(2);
}
const variants = specs.map((s) => {
  const at = s.indexOf('=');
  return { label: s.slice(0, at), args: s.slice(at + 1).split(' ').filter(Boolean) };
});

/** Pulls "<mode> <figure>" numbers out of one run's output. */
function figures(out) {
  const got = {};
  for (const line of out.split('\n')) {
    const mode = line.startsWith('realistic ') ? 'realistic' : 'empty';
    let m = /CPU per command \(process.*: ours ([\d,]+) us, bare ws ([\d,]+) us/.exec(line);
    if (m) {
      got[`${mode} cpu us`] = Number(m[1].replace(/,/g, ''));
      got[`${mode} bare cpu us`] = Number(m[2].replace(/,/g, ''));
    }
    m = /main thread CPU per command .*: ours ([\d,]+) us, bare ws ([\d,]+) us/.exec(line);
    if (m) {
      got[`${mode} main cpu us`] = Number(m[1].replace(/,/g, ''));
      got[`${mode} bare main cpu us`] = Number(m[2].replace(/,/g, ''));
    }
    m = /ratio \(ours \/ bare ws\): throughput ([\d.]+)x, p50 latency ([\d.]+)x, p99 latency ([\d.]+)x/.exec(line);
    if (m) {
      got[`${mode} throughput x`] = Number(m[1]);
      got[`${mode} p99 x`] = Number(m[3]);
    }
    // hot-path.ts: "N commands, X ms CPU: submit S us, broadcast B us per command (mean)"
    m = /^(\d+) commands, (\d+) ms CPU: submit ([\d.]+) us, broadcast ([\d.]+) us/.exec(line);
    if (m) {
      got['hot cpu us/command'] = Math.round((1000 * Number(m[2])) / Number(m[1]));
      got['hot submit us'] = Number(m[3]);
      got['hot broadcast us'] = Number(m[4]);
    }
    m = /garbage collection in the rounds: ours ([\d,]+) ms a round, longest pause ([\d.,]+) ms/.exec(line);
    if (m) {
      got[`${mode} gc ms/round`] = Number(m[1].replace(/,/g, ''));
      got[`${mode} longest gc ms`] = Number(m[2].replace(/,/g, ''));
    }
  }
  return got;
}

const results = new Map(variants.map((v) => [v.label, []]));
for (let p = 0; p < pairs; p++) {
  // Alternate the order within each pair too.
  const order = p % 2 === 0 ? variants : [...variants].reverse();
  for (const v of order) {
    const before = loadavg()[0].toFixed(1);
    const r = spawnSync(process.execPath, v.args, { encoding: 'utf8', env: process.env, maxBuffer: 64 << 20 });
    if (r.status !== 0) {
      console.error(`${v.label} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
      process.exit(1);
    }
    const fig = figures(r.stdout);
    results.get(v.label).push(fig);
    console.log(`pair ${p + 1} ${v.label} (load ${before}): ${Object.entries(fig).map(([k, x]) => `${k} ${x}`).join(', ')}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\nmedians over ${pairs} runs each:`);
const keys = Object.keys(results.get(variants[0].label)[0] ?? {});
for (const k of keys) console.log(`${k.padEnd(24)} ${variants.map((v) => `${v.label} ${median(results.get(v.label).map((f) => f[k]))}`).join('  ')}`);
