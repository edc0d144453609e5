// Replay lines for the server bench: engine.replay of a long table's recorded
// transactions at 10k and 100k (linear replay: 100k should take about 10x the
// 10k time), plus a cold load (Room.load) from a snapshot vs from no snapshot.
import { coreModule, countdownsModule, createEngine, seededRng, type Command, type Table, type Transaction } from '../packages/engine/src/index.js';

const engine = createEngine([coreModule, countdownsModule]);

/** A table with `n` transactions: rounds, notes (a full log window), a countdown, undo and redo now and then. */
export function longTable(n: number): { table: Table; transactions: Transaction[] } {
  let t = engine.createTable({ tableId: 'long', name: 'Long', rulesetId: 'bench' });
  const rng = seededRng(3);
  const txs: Transaction[] = [];
  for (let i = 1; i <= n; i++) {
    const c: Command =
      i === 1 ? { type: 'countdown.create', name: 'Doom', startDie: 'd12', visibility: 'visible' } : i % 40 === 0 ? { type: 'history.undo' } : i % 40 === 1 ? { type: 'history.redo' } : i % 3 === 0 ? { type: 'log.note', text: `note ${i}` } : { type: 'clock.advance', unit: 'round' };
    const r = engine.execute(t, c, { rng, actor: { role: 'gm' } });
    if (!r.ok) throw new Error(`long table ${i}: ${r.error.message}`);
    t = r.value.table;
    txs.push(r.value.transaction);
  }
  return { table: t, transactions: txs };
}

/** One replay's wall-clock time and the process's CPU time over it (ms): GC helper threads' work included, waiting for a core not. */
function timedReplay(table: Table, txs: readonly Transaction[], kept?: Table[]): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const t = engine.replay(table.genesis, txs);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (t.transactions.length !== txs.length) throw new Error('replay lost transactions');
  kept?.push(t);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The replay lines, and the 100k / 10k time ratio for the goal check (goals.ts). Same table, same sizes, medians;
 * what the measurement leaves out is not replay cost (ADR 120): each size is replayed once untimed first (the
 * first run compiles the replay's code, and the 100k one's world is the equality check's). Each of five rounds
 * times one 100k replay, then replays ten 10k tables back to back, a 10k replay's figure being a tenth of those ten:
 * both sides then allocate and keep alike (the ten tables are held until the tenth is done), so they meet about as
 * many scavenges that copy about as much (one 10k replay alone meets none or one, a coin toss that moved the ratio by
 * 3x either way). What stays is what a long table costs beyond ten short ones.
 */
export function replayFigures(small = 10_000, large = 100_000): { lines: string[]; ratio: number; cpuRatio: number } {
  const { table, transactions } = longTable(large);
  const times = Math.round(large / small);
  // Ten short tables of their own (the same commands, other objects): ten replays of one short table would read
  // the same transactions from the cache each time, while the long table's are read once each.
  const shorts = Array.from({ length: times }, () => longTable(small));
  if (JSON.stringify(engine.replay(table.genesis, transactions).world) !== JSON.stringify(table.world)) throw new Error('replay differs from the live table');
  timedReplay(shorts[0]!.table, shorts[0]!.transactions);
  const fulls: { wall: number; cpu: number }[] = [];
  const parts: { wall: number; cpu: number }[] = [];
  for (let round = 0; round < 5; round++) {
    fulls.push(timedReplay(table, transactions));
    const batch = { wall: 0, cpu: 0 };
    // The ten replayed tables are kept until the ten are done, as a room keeps its table: what each retains is copied
    // by the scavenges that meet it, as the 100k table's is.
    const kept: Table[] = [];
    for (let k = 0; k < times; k++) {
      const one = timedReplay(shorts[k]!.table, shorts[k]!.transactions, kept);
      batch.wall += one.wall / times;
      batch.cpu += one.cpu / times;
    }
    parts.push(batch);
  }
  const full = { wall: median(fulls.map((x) => x.wall)), cpu: median(fulls.map((x) => x.cpu)) };
  const partMs = { wall: median(parts.map((x) => x.wall)), cpu: median(parts.map((x) => x.cpu)) };
  const f = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const lines = [
    `replay ${f(small)} transactions : ${f(partMs.wall)} ms, ${f(partMs.cpu)} ms CPU (mean of ${times} back to back; median of ${parts.length} rounds)`,
    `replay ${f(large)} transactions: ${f(full.wall)} ms, ${f(full.cpu)} ms CPU (median of ${fulls.length} rounds)`,
    `replay ratio (${f(large)} / ${f(small)}): ${(full.wall / partMs.wall).toFixed(2)}x wall-clock, ${(full.cpu / partMs.cpu).toFixed(2)}x CPU, for ${times}x the transactions (linear is ${times}x; goal <= 12x)`,
  ];
  return { lines, ratio: full.wall / partMs.wall, cpuRatio: full.cpu / partMs.cpu };
}

export const replayLines = (small = 10_000, large = 100_000): string[] => replayFigures(small, large).lines;

if (process.argv[1]?.endsWith('replay-lines.ts')) for (const l of replayLines()) console.log(l);
