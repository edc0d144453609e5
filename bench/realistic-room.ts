// The realistic table the in-process room benches share (broadcast.bench.ts, hot-path.ts; server.bench.ts
// builds the same over HTTP): 10 characters (3 seated), a 10-combatant OSR encounter, 3 countdowns
// (one hidden) and `notes` notes (1 in 5 GM-only), with sessions whose sockets only count what they are sent.
import { coreModule, countdownsModule, createEngine, fairRng, type Command, type Viewer } from '../packages/engine/src/index.js';
import { engineFor, osr } from '../packages/rulesets/src/index.js';
import { memoryStore, Room, type Session } from '../packages/server/src/index.js';

// The server bench's modules; HOT_ENGINE=registry takes the running server's OSR engine instead (its requests
// projector reads the seat, so each seat has a lane of its own from there on).
export const engine = process.env['HOT_ENGINE'] === 'registry' ? engineFor('osr')! : createEngine([coreModule, countdownsModule, ...osr.ruleset.modules]);

/** A socket that only counts what it is sent. */
export class Counter implements Session {
  static seq = 0;
  readonly id = ++Counter.seq;
  readonly tokenHash = `h${this.id}`;
  held: number | null = null;
  bytes = 0;
  frames = 0;
  constructor(readonly viewer: Viewer) {}
  sendRaw(data: string | Buffer): void {
    this.bytes += data.length;
    this.frames++;
  }
  close(): void {}
}

/** A room on a fresh in-memory store, furnished as above; `viewers` sessions join (GM, three seats, a spectator: 5 at most). */
export function furnish(tableId: string, notes: number, viewers = 5): { room: Room; countdowns: string[]; sessions: Counter[] } {
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
  for (let n = 0; n < notes; n++) run({ type: 'log.note', text: `Note ${n}: the party checks the corridor and the torches flicker in the draught.`, ...(n % 5 === 4 ? { audience: { kind: 'gm' } } : {}) });
  const all: Viewer[] = [{ role: 'gm' }, ...seatIds.map((seatId): Viewer => ({ role: 'player', seatId })), { role: 'spectator' }];
  const sessions = all.slice(0, viewers).map((v) => new Counter(v));
  for (const s of sessions) room.join(s);
  return { room, countdowns, sessions };
}
