// Dice benchmark: our notation roller vs @dice-roller/rpg-dice-roller and vs a
// hand-written loop on the same seeded Rng, then exact-odds timings vs brute
// force. Run: `npm run bench dice` (or `node --import tsx bench/dice.bench.ts`).
import { DiceRoll, NumberGenerator } from '@dice-roller/rpg-dice-roller';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

/** What a hand-written recorder keeps of a die: its value, and whether it counted. */
interface HandDie {
  value: number;
  kept: boolean;
  exploded: boolean;
}
interface HandRoll {
  total: number;
  dice: HandDie[];
}
const die = (value: number, kept = true, exploded = false): HandDie => ({ value, kept, exploded });
/** `n` dice of `sides` as records, and their sum. */
function handDice(r: Rng, n: number, sides: number): HandRoll {
  const dice: HandDie[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = r.die(sides);
    total += v;
    dice.push(die(v));
  }
  return { total, dice };
}

/**
 * The second peer: the same loops written to keep the same facts as our
 * record (every die's value, kept or dropped, exploded), the way a user would
 * write them: one object per die in an array, and the total.
 */
const handRecord: Record<string, (r: Rng) => HandRoll> = {
  '1d20+5': (r) => {
    const v = r.die(20);
    return { total: v + 5, dice: [die(v)] };
  },
  '3d6': (r) => handDice(r, 3, 6),
  '4d6kh3': (r) => {
    const x = handDice(r, 4, 6);
    let low = 0;
    for (let i = 1; i < 4; i++) if (x.dice[i]!.value <= x.dice[low]!.value) low = i;
    x.dice[low]!.kept = false;
    x.total -= x.dice[low]!.value;
    return x;
  },
  '2d12+3': (r) => {
    const x = handDice(r, 2, 12);
    x.total += 3;
    return x;
  },
  '10d6': (r) => handDice(r, 10, 6),
  '10d10>=8': (r) => {
    const x = handDice(r, 10, 10);
    x.total = 0;
    for (const d of x.dice) if (d.value >= 8) x.total++;
    return x;
  },
  '4dF': (r) => {
    const x = handDice(r, 4, 3);
    for (const d of x.dice) d.value -= 2;
    x.total -= 8;
    return x;
  },
  '{3d6, 3d6}kh1': (r) => {
    const a = handDice(r, 3, 6);
    const b = handDice(r, 3, 6);
    const best = a.total >= b.total ? a : b;
    return { total: best.total, dice: [die(a.total, a === best), die(b.total, b === best), ...a.dice, ...b.dice] };
  },
  '8d6!': (r) => {
    const dice: HandDie[] = [];
    let total = 0;
    for (let i = 0; i < 8; i++) {
      let v = r.die(6);
      total += v;
      dice.push(die(v, true, v === 6));
      for (let e = 0; v === 6 && e < 100; e++) {
        total += v = r.die(6);
        dice.push(die(v, true, v === 6 && e + 1 < 100));
      }
    }
    return { total, dice };
  },
};

type Row = { notation: string; [k: string]: string | number };
const rows: Row[] = [];
let sink = 0;

// Rows are measured in rounds: each round runs every contender for a short
// slice, in a rotating order, and the ratios are taken within a round. On a
// machine shared with other jobs the load moves between slices of one round
// far less than between whole tasks run one after the other, so the median
// of the per-round ratios is steadier than a ratio of two separate runs.
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const SLICE = Math.max(5, TIME / ROUNDS);
// Each row runs in a process of its own (BENCH_SHARED=1: all in this one), so
// no row inherits another row's JIT feedback; rpg-dice-roller gets the same.
const SHARED = process.env['BENCH_SHARED'] === '1';
const CHILD = process.env['BENCH_CHILD_ROW'];
// BENCH_REPEAT=3: every row is measured in three processes; the table shows
// the medians, with the range of the per-process ratios.
const REPEAT = Math.max(1, Number(process.env['BENCH_REPEAT'] ?? 1));

type Task = readonly [name: string, run: () => void];

/** Ops per second of each task in each round, measured round-robin. */
function rounds(tasks: readonly Task[]): number[][] {
  // Warm-up: every task until it has run a few slices' worth.
  for (const [, run] of tasks) {
    const t0 = performance.now();
    while (performance.now() - t0 < SLICE * 2) run();
  }
  const ops: number[][] = tasks.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let j = 0; j < tasks.length; j++) {
      const k = (j + r) % tasks.length;
      const run = tasks[k]![1];
      let calls = 0;
      const t0 = performance.now();
      let t = t0;
      while (t - t0 < SLICE) {
        run();
        calls++;
        t = performance.now();
      }
      ops[k]!.push((calls * BATCH * 1000) / (t - t0));
    }
  }
  return ops;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median over rounds of a / b, both measured in the same round. */
function ratio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]!));
}

const NAMES = ['hand loop', 'ours total', 'ours record', 'ours cached', 'ours parse+roll', 'rdr pre-parsed', 'rdr parse+roll', 'ours record kept', 'hand record'] as const;
/**
 * The last record of the "kept" task: stored where the optimiser cannot see
 * it die, so the whole record is built (as rpg-dice-roller's roll() keeps its
 * results in the DiceRoll), not only the parts `.total` reads.
 */
export const held: unknown[] = [null];

function measureRow(notation: string): Row {
  const compiled = compileDice(notation);
  const pre = new DiceRoll(notation);
  const loop = hand[notation]!;
  const loopRecord = handRecord[notation]!;
  const tasks: Task[] = [
    ['hand loop', () => { for (let i = 0; i < BATCH; i++) sink += loop(rng); }],
    ['ours total', () => { for (let i = 0; i < BATCH; i++) sink += compiled.total(rng); }],
    ['ours record', () => { for (let i = 0; i < BATCH; i++) sink += compiled.roll(rng).total; }],
    ['ours cached', () => { for (let i = 0; i < BATCH; i++) sink += rollDice(notation, rng).total; }],
    ['ours parse+roll', () => { for (let i = 0; i < BATCH / 10; i++) sink += compileDiceUncached(notation).roll(rng).total; }],
    ['rdr pre-parsed', () => { for (let i = 0; i < BATCH; i++) { pre.roll(); sink += pre.total; } }],
    ['rdr parse+roll', () => { for (let i = 0; i < BATCH / 10; i++) sink += new DiceRoll(notation).total; }],
    ['ours record kept', () => {
      for (let i = 0; i < BATCH; i++) {
        const r = compiled.roll(rng);
        held[0] = r;
        sink += r.total;
      }
    }],
    ['hand record', () => { for (let i = 0; i < BATCH; i++) sink += loopRecord(rng).total; }],
  ];
  const ops = rounds(tasks);
  // The parse tasks run a tenth of a batch per call.
  for (const k of [4, 6]) ops[k] = ops[k]!.map((x) => x / 10);
  const o = (n: (typeof NAMES)[number]): number[] => ops[NAMES.indexOf(n)]!;
  return {
    notation,
    'ours parse+roll': Math.round(median(o('ours parse+roll'))),
    'ours cached': Math.round(median(o('ours cached'))),
    'ours compiled (record)': Math.round(median(o('ours record'))),
    'ours compiled total': Math.round(median(o('ours total'))),
    'rdr parse+roll': Math.round(median(o('rdr parse+roll'))),
    'rdr pre-parsed': Math.round(median(o('rdr pre-parsed'))),
    'hand loop': Math.round(median(o('hand loop'))),
    'record / rdr pre-parsed': ratio(o('ours record'), o('rdr pre-parsed')),
    'parse+roll / rdr parse+roll': ratio(o('ours parse+roll'), o('rdr parse+roll')),
    'total / rdr pre-parsed': ratio(o('ours total'), o('rdr pre-parsed')),
    'total / hand': ratio(o('ours total'), o('hand loop')),
    'record / hand': ratio(o('ours record'), o('hand loop')),
    'record / hand record': ratio(o('ours record'), o('hand record')),
    'kept / rdr pre-parsed': ratio(o('ours record kept'), o('rdr pre-parsed')),
    'kept / hand': ratio(o('ours record kept'), o('hand loop')),
  };
}

/** Rounds a row's figures for the table: ratios to 2 digits (1 above 10). */
function shown(r: Row): Row {
  const out: Row = { notation: r.notation };
  for (const [k, v] of Object.entries(r)) if (k !== 'notation') out[k] = typeof v === 'number' && k.includes('/') ? +v.toFixed(v >= 10 ? 1 : 2) : v;
  return out;
}

if (CHILD !== undefined) {
  // One row in this process: the figures go back to the parent as JSON.
  console.log(JSON.stringify(measureRow(CHILD)));
  process.exit(0);
}

const ONLY_ODDS = process.env['BENCH_ONLY_ODDS'] === '1';
// The machine may be shared: the load average goes with the figures.
const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(', ');
console.log(`load average at start: ${load()}`);
// BENCH_ROWS='3d6;4dF' measures only those rows (';' since a group has commas).
const ROWS = process.env['BENCH_ROWS']?.split(';');
const ranges: string[] = [];
for (const notation of ONLY_ODDS ? [] : Object.keys(hand).filter((n) => !ROWS || ROWS.includes(n))) {
  const runs: Row[] = [];
  for (let k = 0; k < REPEAT; k++) {
    if (SHARED) {
      runs.push(measureRow(notation));
      continue;
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_CHILD_ROW: notation },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`row ${notation} failed: ${r.stderr}`);
    runs.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as Row);
  }
  const row: Row = { notation };
  for (const k of Object.keys(runs[0]!)) if (k !== 'notation') row[k] = median(runs.map((x) => x[k] as number));
  rows.push(shown(row));
  if (REPEAT > 1) {
    const span = (k: string): string => {
      const xs = runs.map((x) => x[k] as number);
      return `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
    };
    ranges.push(`${notation}: record / rdr ${span('record / rdr pre-parsed')}, record / hand ${span('record / hand')}`);
  }
}
console.log(`Rolls per second, medians over ${ROUNDS} interleaved rounds of ${SLICE.toFixed(0)} ms slices${REPEAT > 1 ? `, then the median of ${REPEAT} processes` : ''}; ratios are medians of per-round ratios.`);
console.log(`Each row in ${SHARED ? 'this one process (BENCH_SHARED=1)' : 'a fresh process'}; seeded xoshiro128** Rng everywhere; rdr = @dice-roller/rpg-dice-roller 5.5.1.`);
console.log('Two hand-written peers draw every die through rng.die: "hand" records nothing (total only), "hand record" keeps the same facts as ours');
console.log('(an object per die: value, kept, exploded; and the total). "record" is our full record; "kept" stores each record where the optimiser cannot drop it.');
console.table(rows);
for (const r of ranges) console.log(`  range over processes: ${r}`);

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
// BENCH_SKIP_ODDS=1: the roll table only.
const SKIP_ODDS = process.env['BENCH_SKIP_ODDS'] === '1';
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
for (let i = 0; i < (SKIP_ODDS ? 0 : 20); i++) for (const [notation] of cases) oddsUncached(notation);
for (const [notation, brute, note] of SKIP_ODDS ? [] : cases) {
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
if (!SKIP_ODDS) {
  console.log('\nExact odds per call: parse + compile + distribution, uncached (single-threaded)');
  console.table(oddsRows);
}
console.log(`load average at end: ${load()}`);
if (sink === 0.5) console.log(sink); // keep results alive
