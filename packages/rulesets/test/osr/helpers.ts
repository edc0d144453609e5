// A scripted OSR table: the real engine with the ruleset's modules, and dice
// the test queues face by face (falling back to a seeded Rng when the queue is empty).
import { scenario, seededRng, type Json, type Rng, type Scenario, type Transaction, type World } from '@tablekeeper/engine';
import { ruleset } from '../../src/osr/index.js';
import { getOsr } from '../../src/osr/state.js';

export interface ScriptedRng extends Rng {
  queue(...faces: number[]): void;
  readonly left: number;
}

export function scriptedRng(seed = 7): ScriptedRng {
  const faces: number[] = [];
  const fallback = seededRng(seed);
  return {
    kind: 'seeded',
    die(sides) {
      const f = faces.shift();
      if (f === undefined) return fallback.die(sides);
      if (f < 1 || f > sides) throw new RangeError(`scripted face ${f} is not on a d${sides}`);
      return f;
    },
    snapshot: () => null,
    queue: (...f: number[]) => void faces.push(...f),
    get left() {
      return faces.length;
    },
  };
}

export interface OsrTable {
  readonly s: Scenario;
  readonly dice: ScriptedRng;
  /** Add a character; returns its id. */
  add(name: string, stats: { [k: string]: Json }, kind?: 'pc' | 'npc', seatId?: string | null): string;
  seat(name: string): string;
  run(command: { type: string; [k: string]: Json | undefined }): Transaction;
  readonly world: World;
  stats(id: string): { readonly [k: string]: Json };
  readonly osr: ReturnType<typeof getOsr>;
  events(tx: Transaction): string[];
}

export function osrTable(settings: { [k: string]: Json } = {}): OsrTable {
  const dice = scriptedRng();
  const s = scenario(ruleset.modules, { rng: dice, rulesetId: 'osr', settings });
  const t: OsrTable = {
    s,
    dice,
    add(name, stats, kind = 'pc', seatId = null) {
      const tx = s.run({ type: 'character.add', name, kind, stats, ...(seatId === null ? {} : { seatId }) });
      return String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    },
    seat(name) {
      const tx = s.run({ type: 'seat.add', name });
      return String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    },
    run: (c) => s.run(c),
    get world() {
      return s.world;
    },
    stats: (id) => s.world.characters[id]!.stats,
    get osr() {
      return getOsr(s.world);
    },
    events: (tx) => (tx.kind === 'command' ? tx.events.map((e) => e.type) : []),
  };
  return t;
}

/** The events of a transaction of a given type. */
export function eventsOf(tx: Transaction, type: string): { [k: string]: Json | undefined }[] {
  return tx.kind === 'command' ? tx.events.filter((e) => e.type === type) : [];
}
