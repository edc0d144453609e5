// Dice benchmark: our notation roller vs @dice-roller/rpg-dice-roller and vs a
// hand-written loop on the same seeded Rng, then exact-odds timings vs brute
// force. Run: `npm run bench dice` (or `node --import tsx bench/dice.bench.ts`).
import { DiceRoll, NumberGenerator } from '@dice-roller/rpg-dice-roller';
import os from 'node:os';
import { Bench } from 'tinybench';
import { compileDice, compileDiceUncached, oddsUncached, rollDice, seededRng, type Rng } from '../packages/engine/src/dice/index.js';

const BATCH = 200; // rolls per measured call, so timer overhead does not dominate
const TIME = Number(process.env['BENCH_TIME_MS'] ?? 400);

const rng: Rng = seededRng('bench');
// rpg-dice-roller draws through random-js engines: give it the same xoshiro
// generator (one 32-bit draw per call) so the RNG cost is comparable.
NumberGenerator.generator.engine = { next: () => (rng.die(0x1_0000_0000) - 1) | 0 };

const hand: Record<string, (r: Rng) => number> = {
  '1d20+5': (r) => r.die(20) + 5,
  '3d6': (r) => r.die(6) + r.die(6) + r.die(6),
  '4d6kh3': (r) => {
    let s = 0;
    let m = 7;
    for (let i = 0; i < 4; i++) {
      const v = r.die(6);
      s += v;
      if (v < m) m = v;
    }
    return s - m;
  },
  '2d12+3': (r) => r.die(12) + r.die(12) + 3,
  '10d6': (r) => {
    let s = 0;
    for (let i = 0; i < 10; i++) s += r.die(6);
    return s;
  },
  // A dice pool: count the dice showing 8 or more.
  '10d10>=8': (r) => {
    let s = 0;
    for (let i = 0; i < 10; i++) if (r.die(10) >= 8) s++;
    return s;
  },
  // Fate dice: -1, 0, +1 each.
  '4dF': (r) => r.die(3) + r.die(3) + r.die(3) + r.die(3) - 8,
  // A roll group: the better of two 3d6 totals.
  '{3d6, 3d6}kh1': (r) => {
    const a = r.die(6) + r.die(6) + r.die(6);
    const b = r.die(6) + r.die(6) + r.die(6);
    return a >= b ? a : b;
  },
  '8d6!': (r) => {
    let s = 0;
    for (let i = 0; i < 8; i++) {
      let v = r.die(6);
      s += v;
      for (let e = 0; v === 6 && e < 100; e++) s += v = r.die(6);
    }
    return s;
  },
};

type Row = { notation: string; [k: string]: string | number };
const rows: Row[] = [];
let sink = 0;

function opsOf(bench: Bench, name: string): number {
  const t = bench.tasks.find((x) => x.name === name);
  const r = t?.result;
  if (!r || !('throughput' in r)) throw new Error(`task ${name} did not complete`);
  // Median of the samples: steadier than the mean on a shared machine.
  return r.throughput.p50 * BATCH;
}

const ONLY_ODDS = process.env['BENCH_ONLY_ODDS'] === '1';
// The machine may be shared: the load average goes with the figures.
const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(', ');
console.log(`load average at start: ${load()}`);
// BENCH_ROWS=3d6,4dF measures only those rows (profiling one row without the others' JIT feedback).
const ROWS = process.env['BENCH_ROWS']?.split(',');
for (const notation of ONLY_ODDS ? [] : Object.keys(hand).filter((n) => !ROWS || ROWS.includes(n))) {
  const compiled = compileDice(notation);
  const pre = new DiceRoll(notation);
  const loop = hand[notation]!;
  const bench = new Bench({ time: TIME, warmup: true });
  bench
    .add('hand-written loop', () => {
      for (let i = 0; i < BATCH; i++) sink += loop(rng);
    })
    .add('ours compiled total', () => {
      for (let i = 0; i < BATCH; i++) sink += compiled.total(rng);
    })
    .add('ours compiled roll (record)', () => {
      for (let i = 0; i < BATCH; i++) sink += compiled.roll(rng).total;
    })
    .add('ours rollDice (cached)', () => {
      for (let i = 0; i < BATCH; i++) sink += rollDice(notation, rng).total;
    })
    .add('ours parse+roll', () => {
      for (let i = 0; i < BATCH; i++) sink += compileDiceUncached(notation).roll(rng).total;
    })
    .add('rpg-dice-roller pre-parsed', () => {
      for (let i = 0; i < BATCH; i++) {
        pre.roll();
        sink += pre.total;
      }
    })
    .add('rpg-dice-roller parse+roll', () => {
      for (let i = 0; i < BATCH; i++) sink += new DiceRoll(notation).total;
    });
  await bench.run();
  const o = (n: string): number => opsOf(bench, n);
  rows.push({
    notation,
    'ours parse+roll': Math.round(o('ours parse+roll')),
    'ours cached': Math.round(o('ours rollDice (cached)')),
    'ours compiled (record)': Math.round(o('ours compiled roll (record)')),
    'ours compiled total': Math.round(o('ours compiled total')),
    'rdr parse+roll': Math.round(o('rpg-dice-roller parse+roll')),
    'rdr pre-parsed': Math.round(o('rpg-dice-roller pre-parsed')),
    'hand loop': Math.round(o('hand-written loop')),
    'record / rdr pre-parsed': +(o('ours compiled roll (record)') / o('rpg-dice-roller pre-parsed')).toFixed(1),
    'parse+roll / rdr parse+roll': +(o('ours parse+roll') / o('rpg-dice-roller parse+roll')).toFixed(1),
    'total / rdr pre-parsed': +(o('ours compiled total') / o('rpg-dice-roller pre-parsed')).toFixed(1),
    'total / hand': +(o('ours compiled total') / o('hand-written loop')).toFixed(2),
    'record / hand': +(o('ours compiled roll (record)') / o('hand-written loop')).toFixed(2),
  });
}
console.log('Rolls per second, median of samples (seeded xoshiro128** Rng everywhere; rdr = @dice-roller/rpg-dice-roller 5.5.1)');
console.table(rows);

// ---------------------------------------------------------------- exact odds

/** Brute force: every face combination of n dice of s sides, f applied. */
function bruteKeepHighest(n: number, s: number, k: number): Map<number, number> {
  const out = new Map<number, number>();
  const faces = new Array<number>(n).fill(1);
  const p = Math.pow(s, -n);
  const sorted = new Array<number>(n);
  for (;;) {
    for (let i = 0; i < n; i++) sorted[i] = faces[i]!;
    sorted.sort((a, b) => b - a);
    let v = 0;
    for (let i = 0; i < k; i++) v += sorted[i]!;
    out.set(v, (out.get(v) ?? 0) + p);
    let i = n - 1;
    while (i >= 0 && faces[i] === s) faces[i--] = 1;
    if (i < 0) return out;
    faces[i]!++;
  }
}

/** Wall-clock and CPU milliseconds per call (CPU time is steadier on a shared, loaded machine). */
function time(f: () => unknown, minMs = 300): { wall: number; cpu: number } {
  for (let i = 0; i < 5; i++) f();
  let runs = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    f();
    runs++;
    t = performance.now();
  }
  const c = process.cpuUsage(c0);
  return { wall: (t - t0) / runs, cpu: (c.user + c.system) / 1000 / runs };
}

const oddsRows: Record<string, string | number>[] = [];
const cases: [string, (() => unknown) | null, string][] = [
  ['4d6kh3', () => bruteKeepHighest(4, 6, 3), '6^4 = 1,296 outcomes'],
  ['6d6kh3', () => bruteKeepHighest(6, 6, 3), '6^6 = 46,656 outcomes'],
  ['100d6', null, '6^100 outcomes: infeasible'],
  ['10d10!kh5', null, 'unbounded explosions: infeasible'],
  ['10d10>=8', null, 'binomial pool'],
  ['4dF', null, 'Fate'],
  ['{3d6, 3d6}kh1', null, 'group'],
];
// Warm every path first so the first case does not pay for the JIT.
for (let i = 0; i < 20; i++) for (const [notation] of cases) oddsUncached(notation);
for (const [notation, brute, note] of cases) {
  const exact = time(() => oddsUncached(notation));
  const o = oddsUncached(notation);
  const b = brute ? time(brute, 500) : null;
  oddsRows.push({
    notation,
    'exact ms wall': +exact.wall.toFixed(3),
    'exact ms cpu': +exact.cpu.toFixed(3),
    'brute force ms cpu': b === null ? '-' : +b.cpu.toFixed(2),
    speedup: b === null ? '-' : Math.round(b.cpu / exact.cpu),
    mean: +o.mean.toFixed(6),
    truncatedMass: o.truncatedMass,
    note,
  });
}
console.log('\nExact odds per call: parse + compile + distribution, uncached (single-threaded)');
console.table(oddsRows);
console.log(`load average at end: ${load()}`);
if (sink === 0.5) console.log(sink); // keep results alive
