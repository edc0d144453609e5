// Not a bench (no peer): engine.execute alone on the realistic tables (realistic-room.ts), CPU per command for each of
// the server bench's three commands, no room, store or broadcast: the submit side's engine share, for A/B of two bundles.
// Run: sh bench/bundle.sh bench/execute-alone.ts exec-<v> && node node_modules/.cache/perf/exec-<v>.mjs
//   (env: EXEC_TABLES, EXEC_COMMANDS a round, EXEC_ROUNDS; EXEC_ALLOC=1 samples the bytes allocated instead)
import type { Command, Table } from '../packages/engine/src/index.js';
import { fairRng } from '../packages/engine/src/index.js';
import { AllocSampler } from './alloc-sampler.js';
import { engine, furnish } from './realistic-room.js';

const TABLES = Number(process.env['EXEC_TABLES'] ?? 50);
// Each round starts again from the furnished tables: its ticks must not run a countdown (from 100) down to its end.
const COMMANDS = Number(process.env['EXEC_COMMANDS'] ?? 150);
const ROUNDS = Number(process.env['EXEC_ROUNDS'] ?? 7);
const sampler = process.env['EXEC_ALLOC'] === '1' ? new AllocSampler() : null;
const KINDS = ['log.note', 'clock.advance', 'countdown.tick'] as const;

const commandOf = (kind: number, countdowns: readonly string[], i: number): Command =>
  kind === 0 ? { type: 'log.note', text: `bench ${i}` } : kind === 1 ? { type: 'clock.advance', unit: 'round' } : { type: 'countdown.tick', id: countdowns[i % 2]! };

const furnished = Array.from({ length: TABLES }, (_, t) => furnish(`e${t}`, 300, 1));
const rng = fairRng();
const perKind: number[][] = KINDS.map(() => []);
await sampler?.start();
for (let r = 0; r < ROUNDS; r++) {
  const tables: Table[] = furnished.map((f) => f.room.table);
  const cpu = KINDS.map(() => 0);
  for (let i = 0; i < COMMANDS; i++) {
    const kind = i % KINDS.length;
    const a = process.cpuUsage();
    for (let t = 0; t < TABLES; t++) {
      const x = engine.execute(tables[t]!, commandOf(kind, furnished[t]!.countdowns, i), { rng, actor: { role: 'gm' }, now: 0 });
      if (!x.ok) throw new Error(`${KINDS[kind]}: ${x.error.message}`);
      tables[t] = x.value.table;
    }
    const b = process.cpuUsage(a);
    cpu[kind]! += b.user + b.system;
  }
  cpu.forEach((us, k) => perKind[k]!.push(us / ((TABLES * COMMANDS) / KINDS.length)));
}
if (sampler !== null) {
  await sampler.stop();
  for (const line of sampler.lines(TABLES * COMMANDS * ROUNDS, 'command')) console.log(line);
}
const median = (xs: readonly number[]): number => [...xs].sort((p, q) => p - q)[xs.length >> 1]!;
const each = KINDS.map((k, i) => ({ k, us: median(perKind[i]!) }));
const mean = each.reduce((s, e) => s + e.us, 0) / each.length;
console.log(`execute alone, CPU per command (medians of ${ROUNDS} rounds): ${each.map((e) => `${e.k} ${e.us.toFixed(1)} us`).join(', ')}; mean of the three ${mean.toFixed(1)} us`);
