// Not a bench (no peer): the room's hot path in process, for `node --cpu-prof` and before/after
// comparisons of the same build. Realistic tables as in server.bench.ts, 5 sessions each whose sockets only count bytes.
// Run: node --import tsx bench/hot-path.ts   (env: HOT_TABLES, HOT_COMMANDS)
import { coreModule, countdownsModule, createEngine, fairRng, type Command, type Viewer } from '../packages/engine/src/index.js';
import { osr } from '../packages/rulesets/src/index.js';
import { memoryStore, Room, type Session } from '../packages/server/src/index.js';

const TABLES = Number(process.env['HOT_TABLES'] ?? 100);
const COMMANDS = Number(process.env['HOT_COMMANDS'] ?? 60);
const engine = createEngine([coreModule, countdownsModule, ...osr.ruleset.modules]);

class Counter implements Session {
  static seq = 0;
  readonly id = ++Counter.seq;
  readonly tokenHash = `h${this.id}`;
  held: number | null = null;
  bytes = 0;
  constructor(readonly viewer: Viewer) {}
  sendRaw(data: string | Buffer): void {
    this.bytes += data.length;
  }
  close(): void {}
}

function furnish(tableId: string): { room: Room; countdowns: string[]; sessions: Counter[] } {
  const store = memoryStore();
  const made = engine.createTable({ tableId, name: tableId, rulesetId: 'osr' });
  store.createTable({ tableId, name: tableId, rulesetId: 'osr', genesis: made.genesis, createdAt: 0 }, []);
  const room = Room.load(store, engine, store.getTable(tableId)!);
  room.useRng(fairRng());
  const run = (command: Command) => {
    const r = room.submit({ role: 'gm' }, null, room.version, command);
    if (!r.ok) throw new Error(`${command.type}: ${JSON.stringify(r.error)}`);
    return r.transaction?.kind === 'command' ? r.transaction.events : [];
  };
  const seatIds = [0, 1, 2].map((i) => String(run({ type: 'seat.add', name: `P${i}` })[0]?.['id']));
  const characterIds: string[] = [];
  for (let c = 0; c < 10; c++) {
    const seatId = seatIds[c];
    const events = run({ type: 'character.add', name: `Hero ${c}`, kind: seatId === undefined ? 'npc' : 'pc', ...(seatId === undefined ? {} : { seatId }), stats: { hp: 8 + c, maxHp: 12 + c, ac: 12 } });
    characterIds.push(String(events[0]?.['id']));
  }
  run({ type: 'encounter.start', combatants: characterIds.map((characterId, i) => ({ id: `k${i}`, name: `Fighter ${i}`, kind: i < 3 ? 'pc' : 'npc', characterId, score: 20 - i, stats: { hp: 10 + i, maxHp: 17 } })) });
  const countdowns: string[] = [];
  for (let c = 0; c < 3; c++) countdowns.push(String(run({ type: 'countdown.create', name: `Doom ${c}`, start: 100, visibility: c === 2 ? 'hidden' : 'visible' })[0]?.['id']));
  for (let n = 0; n < 300; n++) run({ type: 'log.note', text: `Note ${n}: the party checks the corridor and the torches flicker in the draught.`, ...(n % 5 === 4 ? { audience: { kind: 'gm' } } : {}) });
  const viewers: Viewer[] = [{ role: 'gm' }, ...seatIds.map((seatId): Viewer => ({ role: 'player', seatId })), { role: 'spectator' }];
  // HOT_VIEWERS=1 keeps the GM only (the per-viewer share of the cost is the difference).
  const sessions = viewers.slice(0, Number(process.env['HOT_VIEWERS'] ?? 5)).map((v) => new Counter(v));
  for (const s of sessions) room.join(s);
  return { room, countdowns, sessions };
}

const commandOf = (countdowns: string[], i: number): Command =>
  i % 3 === 0 ? { type: 'log.note', text: `bench ${i}` } : i % 3 === 1 ? { type: 'clock.advance', unit: 'round' } : { type: 'countdown.tick', id: countdowns[i % 2]! };

const tables = Array.from({ length: TABLES }, (_, t) => furnish(`h${t}`));
let submitUs = 0;
let broadcastUs = 0;
const t0 = process.cpuUsage();
// The monotonic clock of `node --cpu-prof` samples, so a profile can be cut to the loop.
console.log(`mark start: ${process.hrtime.bigint() / 1000n} us`);
for (let i = 0; i < COMMANDS; i++) {
  for (const { room, countdowns, sessions } of tables) {
    // CPU time, not wall-clock: on a loaded machine the process is often off the CPU.
    const a = process.cpuUsage();
    const r = room.submit(sessions[0]!.viewer, `c${i}`, room.version, commandOf(countdowns, i));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const b = process.cpuUsage();
    room.broadcast(new Map([[sessions[0]!, [{ commandId: `c${i}`, version: r.version }]]]));
    const c = process.cpuUsage();
    broadcastUs += c.user + c.system - b.user - b.system;
    submitUs += b.user + b.system - a.user - a.system;
  }
}
console.log(`mark end: ${process.hrtime.bigint() / 1000n} us`);
const n = TABLES * COMMANDS;
console.log(`${n} commands, ${((process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1000).toFixed(0)} ms CPU: submit ${(submitUs / n).toFixed(1)} us, broadcast ${(broadcastUs / n).toFixed(1)} us per command (mean)`);
