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

/** One timed replay (ms); throws when the replay lost transactions. */
function timedReplay(table: Table, txs: readonly Transaction[]): number {
  const t0 = performance.now();
  const t = engine.replay(table.genesis, txs);
  const ms = performance.now() - t0;
  if (t.transactions.length !== txs.length) throw new Error('replay lost transactions');
  return ms;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The replay lines, and the 100k / 10k time ratio for the goal check (goals.ts). Same table, same sizes, medians;
 * what the measurement leaves out is not replay cost (ADR 120): each size is replayed once untimed first (the
 * first run compiles the replay's code, and the 100k one's world is the equality check's), and the timed runs
 * interleave the sizes (one 100k, then three 10k, five times), so both see the machine's load of the same moments.
 */
export function replayFigures(small = 10_000, large = 100_000): { lines: string[]; ratio: number } {
  const { table, transactions } = longTable(large);
  const part = transactions.slice(0, small);
  if (JSON.stringify(engine.replay(table.genesis, transactions).world) !== JSON.stringify(table.world)) throw new Error('replay differs from the live table');
  timedReplay(table, part);
  const fulls: number[] = [];
  const parts: number[] = [];
  for (let round = 0; round < 5; round++) {
    fulls.push(timedReplay(table, transactions));
    for (let k = 0; k < 3; k++) parts.push(timedReplay(table, part));
  }
  const full = median(fulls);
  const partMs = median(parts);
  const f = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const lines = [
    `replay ${f(small)} transactions : ${f(partMs)} ms (median of ${parts.length})`,
    `replay ${f(large)} transactions: ${f(full)} ms (median of ${fulls.length})`,
    `replay ratio (${f(large)} / ${f(small)}): ${(full / partMs).toFixed(2)}x for ${(large / small).toFixed(0)}x the transactions (linear is ${(large / small).toFixed(0)}x; goal <= 12x)`,
  ];
  return { lines, ratio: full / partMs };
}

export const replayLines = (small = 10_000, large = 100_000): string[] => replayFigures(small, large).lines;

if (process.argv[1]?.endsWith('replay-lines.ts')) for (const l of replayLines()) console.log(l);
