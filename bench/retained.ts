// Not a bench: the heap one realistic room keeps after N more commands with every viewer's delta sent
// (countdowns would end, so notes and rounds only; a memory leak shows as growth per command; a room's state is bounded by its log limit and history window).
// Run: node --expose-gc --import tsx bench/retained.ts   (env: RETAINED_COMMANDS, default 3000; RETAINED_MIX)
import type { Command } from '../packages/engine/src/index.js';
import { furnish } from './realistic-room.js';

const COMMANDS = Number(process.env['RETAINED_COMMANDS'] ?? 3000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const { room, sessions } = furnish('r', 300);
// RETAINED_MIX=notes sends public notes only (every command then grows every viewer's log).
const notesOnly = process.env['RETAINED_MIX'] === 'notes';
const commandOf = (i: number): Command =>
  notesOnly || i % 3 === 0 ? { type: 'log.note', text: `note ${i}` } : i % 3 === 1 ? { type: 'clock.advance', unit: 'round' } : { type: 'log.note', text: `secret ${i}`, audience: { kind: 'gm' } };
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const first = heapMb();
for (let i = 1; i <= COMMANDS; i++) {
  const r = room.submit(sessions[0]!.viewer, `c${i}`, room.version, commandOf(i));
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  room.broadcast(new Map([[sessions[0]!, [{ commandId: `c${i}`, version: r.version }]]]));
  if (i % (COMMANDS / 5) === 0) console.log(`after ${i} commands: heap ${heapMb().toFixed(1)} MB (${(((heapMb() - first) * 1000) / i).toFixed(1)} KB per command over the start)`);
}
