// Not a bench (no peer): the room's hot path in process, for `node --cpu-prof` and before/after
// comparisons of the same build. Realistic tables as in server.bench.ts, 5 sessions each whose sockets only count bytes.
// Run: node --import tsx bench/hot-path.ts   (env: HOT_TABLES, HOT_COMMANDS, HOT_NOTES, HOT_VIEWERS)
import type { Command } from '../packages/engine/src/index.js';
import { AllocSampler } from './alloc-sampler.js';
import { furnish } from './realistic-room.js';

const TABLES = Number(process.env['HOT_TABLES'] ?? 100);
const COMMANDS = Number(process.env['HOT_COMMANDS'] ?? 60);
// HOT_VIEWERS=1 keeps the GM only (the per-viewer share of the cost is the difference).
const VIEWERS = Number(process.env['HOT_VIEWERS'] ?? 5);

const commandOf = (countdowns: string[], i: number): Command =>
  i % 3 === 0 ? { type: 'log.note', text: `bench ${i}` } : i % 3 === 1 ? { type: 'clock.advance', unit: 'round' } : { type: 'countdown.tick', id: countdowns[i % 2]! };

// HOT_ALLOC=1 samples the bytes the loop allocates instead (timings then mean nothing); HOT_ALLOC=live only
// what is still alive after the loop (what the rooms keep: their growth and each table's last command's leftovers).
const sampler = process.env['HOT_ALLOC'] === '1' ? new AllocSampler() : process.env['HOT_ALLOC'] === 'live' ? new AllocSampler(true) : null;

// HOT_NOTES: the notes each table starts with (300 as in server.bench.ts's realistic mode).
const NOTES = Number(process.env['HOT_NOTES'] ?? 300);
const tables = Array.from({ length: TABLES }, (_, t) => furnish(`h${t}`, NOTES, VIEWERS));
let submitUs = 0;
let broadcastUs = 0;
const t0 = process.cpuUsage();
// The monotonic clock of `node --cpu-prof` samples, so a profile can be cut to the loop.
console.log(`mark start: ${process.hrtime.bigint() / 1000n} us`);
await sampler?.start();
for (let i = 0; i < COMMANDS; i++) {
  // Every table's command, then every table's broadcast: CPU time read per phase, not per command
  // (process.cpuUsage is a system call; read three times per command it was a quarter of the profile).
  const a = process.cpuUsage();
  const versions = tables.map(({ room, countdowns, sessions }) => {
    const r = room.submit(sessions[0]!.viewer, `c${i}`, room.version, commandOf(countdowns, i));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.version;
  });
  const b = process.cpuUsage();
  tables.forEach(({ room, sessions }, t) => room.broadcast(new Map([[sessions[0]!, [{ commandId: `c${i}`, version: versions[t]! }]]])));
  const c = process.cpuUsage();
  // CPU time, not wall-clock: on a loaded machine the process is often off the CPU.
  broadcastUs += c.user + c.system - b.user - b.system;
  submitUs += b.user + b.system - a.user - a.system;
}
console.log(`mark end: ${process.hrtime.bigint() / 1000n} us`);
const n = TABLES * COMMANDS;
if (sampler) {
  await sampler.stop();
  for (const line of sampler.lines(n, 'command', Number(process.env['HOT_ALLOC_TOP'] ?? 15))) console.log(line);
}
console.log(`${n} commands, ${((process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1000).toFixed(0)} ms CPU: submit ${(submitUs / n).toFixed(1)} us, broadcast ${(broadcastUs / n).toFixed(1)} us per command (mean)`);
