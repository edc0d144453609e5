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

function timeReplay(table: Table, txs: readonly Transaction[], runs: number): number {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    const t = engine.replay(table.genesis, txs);
    times.push(performance.now() - t0);
    if (t.transactions.length !== txs.length) throw new Error('replay lost transactions');
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** The replay lines, and the 100k / 10k time ratio for the goal check (goals.ts). */
export function replayFigures(small = 10_000, large = 100_000): { lines: string[]; ratio: number } {
  const { table, transactions } = longTable(large);
  const full = timeReplay(table, transactions, 3);
  const part = timeReplay(table, transactions.slice(0, small), 5);
  if (JSON.stringify(engine.replay(table.genesis, transactions).world) !== JSON.stringify(table.world)) throw new Error('replay differs from the live table');
  const f = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const lines = [
    `replay ${f(small)} transactions : ${f(part)} ms (median of 5)`,
    `replay ${f(large)} transactions: ${f(full)} ms (median of 3)`,
    `replay ratio (${f(large)} / ${f(small)}): ${(full / part).toFixed(2)}x for ${(large / small).toFixed(0)}x the transactions (linear is ${(large / small).toFixed(0)}x; goal <= 12x)`,
  ];
  return { lines, ratio: full / part };
}

export const replayLines = (small = 10_000, large = 100_000): string[] => replayFigures(small, large).lines;

if (process.argv[1]?.endsWith('replay-lines.ts')) for (const l of replayLines()) console.log(l);
