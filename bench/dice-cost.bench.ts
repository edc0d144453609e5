// What a table roll costs the server against the units its notation is
// charged (ADR 25): each notation is decided as a `dice.roll` on an OSR table
// with the compile cache emptied first (a flooder sends new text each time),
// and the events are serialised as the store and the deltas would. Printed:
// ms per roll, units, and ms per unit against 3d6 (the peer) in the same run.
// Run: npm run bench -- dice-cost   (or: node --import tsx bench/dice-cost.bench.ts)
import os from 'node:os';
import { TABLE_ROLL_LIMITS, clearDiceCache, notationCost, type Table, type Viewer } from '../packages/engine/src/index.js';
import { seededRng } from '../packages/engine/src/testing.js';
import { engineFor } from '../packages/rulesets/src/registry.js';

const engine = engineFor('osr')!;
const GM: Viewer = { role: 'gm' };
const rng = seededRng(25);
const table: Table = engine.createTable({ tableId: 't-bench', name: 'Bench table', rulesetId: 'osr', settings: {} });
const budgetMs = Number(process.env['BENCH_TIME_MS'] ?? 400);

function measure(notation: string): number {
  let n = 0;
  let bytes = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < budgetMs || n < 2) {
    clearDiceCache();
    const r = engine.execute(table, { type: 'dice.roll', notation }, { rng, actor: GM });
    if (!r.ok) throw new Error(`${notation}: ${r.error.message}`);
    bytes += JSON.stringify(r.value.table.transactions.at(-1)).length;
    n++;
  }
  if (bytes < 0) console.log('');
  return (performance.now() - t0) / n;
}

const rows = ['3d6', '1d20+5', '4d6kh3', '8d6!', '100d6', '100d6!', '100d6!!', '100d2!r1', '100d6!r1u', '1d1000000', 'd(1d4)', 'd(1d100)', 'd(1d400)', 'd(1d10+100000)', 'd(1d1000)'];
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown'} x${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const peer = measure('3d6') / notationCost('3d6', TABLE_ROLL_LIMITS).units;
console.log(`${'notation'.padEnd(16)} ${'ms/roll'.padStart(10)} ${'units'.padStart(6)} ${'ms/unit'.padStart(9)} ${'vs 3d6'.padStart(8)}`);
for (const notation of rows) {
  const ms = measure(notation);
  const units = notationCost(notation, TABLE_ROLL_LIMITS).units;
  console.log(`${notation.padEnd(16)} ${ms.toFixed(3).padStart(10)} ${String(units).padStart(6)} ${(ms / units).toFixed(3).padStart(9)} ${(ms / units / peer).toFixed(1).padStart(7)}x`);
}
