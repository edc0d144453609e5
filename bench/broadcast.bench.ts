// Server CPU per command on realistic tables, in process (load distorts CPU
// time far less than wall-clock latency): process.cpuUsage around room.submit
// and around room.broadcast, per command kind, for tables with 5 sessions each
// (GM, three seats, a spectator). The peer, measured in the same run on the same
// tables: building every viewer a fresh engine.view and serialising it (what a
// server without deltas would send).
// Run: npm run bench -- broadcast   (env: BENCH_TABLES, BENCH_COMMANDS, BENCH_NOTES)
import { cpus, loadavg } from 'node:os';
import type { Command } from '../packages/engine/src/index.js';
import { engine, furnish } from './realistic-room.js';

const TABLES = Number(process.env['BENCH_TABLES'] ?? 20);
const COMMANDS = Number(process.env['BENCH_COMMANDS'] ?? 60); // per table

const commandOf = (countdowns: string[], i: number): Command =>
  i % 3 === 0 ? { type: 'log.note', text: `bench ${i}` } : i % 3 === 1 ? { type: 'clock.advance', unit: 'round' } : { type: 'countdown.tick', countdownId: countdowns[i % 2]! };

const cpuMicros = (f: () => void): number => {
  const a = process.cpuUsage();
  f();
  const b = process.cpuUsage(a);
  return b.user + b.system;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function measure(notes: number): void {
  const tables = Array.from({ length: TABLES }, (_, t) => furnish(`b${notes}-${t}`, notes));
  const submit = new Map<string, number[]>();
  const broadcast = new Map<string, number[]>();
  const fresh = new Map<string, number[]>();
  const bytes = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v]);
  // Interleaved by table, so drift in machine load hits ours and the peer alike.
  for (let i = 0; i < COMMANDS; i++) {
    for (const { room, countdowns, sessions } of tables) {
      const command = commandOf(countdowns, i);
      push(submit, command.type, cpuMicros(() => {
        const r = room.submit({ role: 'gm' }, null, room.version, command);
        if (!r.ok) throw new Error(JSON.stringify(r.error));
      }));
      const before = sessions.reduce((n, s) => n + s.bytes, 0);
      push(broadcast, command.type, cpuMicros(() => room.broadcast()));
      push(bytes, command.type, sessions.reduce((n, s) => n + s.bytes, 0) - before);
      const keys = new Map(sessions.map((s) => [JSON.stringify(s.viewer), s.viewer]));
      push(fresh, command.type, cpuMicros(() => {
        for (const v of keys.values()) JSON.stringify({ type: 'snapshot', version: room.version, view: room.view(v) });
      }));
    }
  }
  const all = (m: Map<string, number[]>) => [...m.values()].flat();
  console.log(`tables with ${notes} notes (log limit ${engine.createTable({ tableId: 'x', name: 'x', rulesetId: 'osr' }).world.settings['core.logLimit'] ?? 'default'}), ${TABLES} tables x ${COMMANDS} commands, 5 sessions each:`);
  for (const kind of [...broadcast.keys()].sort()) {
    console.log(`  ${kind.padEnd(15)} broadcast ${f(median(broadcast.get(kind)!))} us, submit ${f(median(submit.get(kind)!))} us, fresh views ${f(median(fresh.get(kind)!))} us, sent ${f(median(bytes.get(kind)!))} B (medians per command)`);
  }
  const b = median(all(broadcast));
  const fv = median(all(fresh));
  console.log(`  all kinds       broadcast ${f(b)} us vs fresh views ${f(fv)} us: ratio ${f(b / fv, 3)}x; submit ${f(median(all(submit)))} us`);
}

console.log(`machine: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const notes of (process.env['BENCH_NOTES'] ?? '300,1100').split(',').map(Number)) measure(notes);
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
