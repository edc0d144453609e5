// Issue 19, ADR 20: viewers whose deltas read the same get one serialised
// frame. Players and spectators share projected parts (no projector reads the
// seat), so a public change goes out as one Buffer to all of them; a line for
// one seat splits that seat off, and the GM, who reads everything, has a frame
// of their own. The room runs on a real SQLite file; sessions are in-process
// so the test can see which bytes object each one was handed.
import { afterAll, describe, expect, it } from 'vitest';
import { seededRng, type Command, type Viewer } from '@tablekeeper/engine';
import { applyDelta, type ServerMessage } from '@tablekeeper/protocol';
import { createTableFor, engineFor } from '@tablekeeper/rulesets';
import { openSqliteStore, Room, type Session } from '../../src/index.js';
import { sameJson } from '../../src/deltas.js';
import { tempDir } from '../helpers.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const store = openSqliteStore(`${dir.dir}/frames.sqlite`);
afterAll(() => store.close());

class Phone implements Session {
  static seq = 0;
  readonly id = ++Phone.seq;
  readonly tokenHash = `h${this.id}`;
  held: number | null = null;
  last: string | Buffer | null = null;
  constructor(readonly viewer: Viewer) {}
  sendRaw(data: string | Buffer): void {
    this.last = data;
  }
  close(): void {}
  message(): ServerMessage {
    return JSON.parse(String(this.last)) as ServerMessage;
  }
}

function table() {
  const engine = engineFor('osr')!;
  const made = createTableFor('osr', { tableId: `f${Phone.seq}`, name: 'Frames' });
  if (!made.ok) throw new Error(made.error.message);
  store.createTable({ tableId: made.value.world.tableId, name: 'Frames', rulesetId: 'osr', genesis: made.value.genesis, createdAt: 0 }, []);
  const room = Room.load(store, engine, store.getTable(made.value.world.tableId)!);
  room.useRng(seededRng(20));
  const run = (c: Command) => {
    const r = room.submit({ role: 'gm' }, null, room.version, c);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r;
  };
  run({ type: 'seat.add', name: 'Ann' });
  run({ type: 'seat.add', name: 'Bo' });
  const [ann, bo] = Object.keys(room.table.world.seats) as [string, string];
  run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: ann, stats: { hp: 9 } });
  run({ type: 'countdown.create', name: 'Doom', start: 5, visibility: 'visible' });
  const phones = { gm: new Phone({ role: 'gm' }), ann: new Phone({ role: 'player', seatId: ann }), ann2: new Phone({ role: 'player', seatId: ann }), bo: new Phone({ role: 'player', seatId: bo }), spectator: new Phone({ role: 'spectator' }) };
  for (const p of Object.values(phones)) room.join(p);
  /** One command by the GM, then the broadcast; every phone's frame must fold to a fresh view. */
  const step = (c: Command) => {
    const before = new Map(Object.values(phones).map((p) => [p, room.view(p.viewer)] as const));
    run(c);
    room.broadcast();
    for (const p of Object.values(phones)) {
      const m = p.message();
      if (m.type !== 'delta') throw new Error(`${p.viewer.role} got a ${m.type}`);
      expect(sameJson(applyDelta(before.get(p)!, m), room.view(p.viewer))).toBe(true);
    }
  };
  const countdownId = Object.keys((room.table.world.ext['countdowns'] as { countdowns: object }).countdowns)[0]!;
  return { room, phones, step, ann, countdownId };
}

describe('one frame per visibility class (issue 19)', () => {
  it('a public note, a clock advance and a countdown tick go out as one buffer to every player and the spectator', () => {
    const { phones, step, countdownId } = table();
    for (const c of [{ type: 'log.note', text: 'The door creaks.' }, { type: 'clock.advance', unit: 'turn' }, { type: 'countdown.tick', countdownId }] as Command[]) {
      step(c);
      expect(Buffer.isBuffer(phones.ann.last)).toBe(true);
      expect(phones.bo.last).toBe(phones.ann.last);
      expect(phones.spectator.last).toBe(phones.ann.last);
      expect(phones.ann2.last).toBe(phones.ann.last);
      // The GM's frame is their own: the history shows them their own command in full.
      expect(phones.gm.last).not.toBe(phones.ann.last);
    }
  });

  it('a note for one seat splits that seat off; the others still share one buffer', () => {
    const { phones, step, ann } = table();
    step({ type: 'log.note', text: 'Only Ann hears the whisper.', audience: { kind: 'seat', seatId: ann } });
    expect(phones.ann2.last).toBe(phones.ann.last);
    expect(phones.bo.last).not.toBe(phones.ann.last);
    expect(phones.spectator.last).toBe(phones.bo.last);
    expect(String(phones.ann.last)).toContain('whisper');
    expect(String(phones.bo.last)).not.toContain('whisper');
  });

  // The sender's acks are written into one buffer beside the delta's text (perf21, ADR 114): the bytes must be the
  // shared frame's with the acks spliced in, for text in any script, and a second tab of the sender's viewer gets
  // the frame without them.
  it("the sender's frame is its viewer's delta with its acks, byte for byte, for notes in any script", () => {
    const { room, phones, ann } = table();
    const gm2 = new Phone({ role: 'gm' });
    const ann3 = new Phone({ role: 'player', seatId: ann });
    room.join(gm2);
    room.join(ann3);
    for (const [sender, text] of [[phones.gm, 'Zoë’s torch gutters 🔥 — 火'], [phones.ann, 'Ann: «¿quién va?» ✓']] as const) {
      const before = room.view(sender.viewer);
      const r = room.submit(sender.viewer, `c-${sender.id}`, room.version, { type: 'log.note', text });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const acks = [{ commandId: `c-${sender.id}`, version: r.version }];
      const folded = new Set<Session>();
      expect(room.broadcast(new Map([[sender, acks]]), folded)).toBe(folded);
      expect([...folded]).toEqual([sender]);
      // Another session of the sender's viewer holds the same view: its bytes are the sender's less the acks.
      const other = sender === phones.gm ? gm2 : ann3;
      expect(Buffer.isBuffer(sender.last) && Buffer.isBuffer(other.last)).toBe(true);
      const plain = other.last as Buffer;
      expect((sender.last as Buffer).equals(Buffer.concat([plain.subarray(0, plain.length - 1), Buffer.from(`,"acks":${JSON.stringify(acks)}}`)]))).toBe(true);
      const m = sender.message();
      if (m.type !== 'delta') throw new Error(`the sender got a ${m.type}`);
      expect(m.acks).toEqual(acks);
      expect(sameJson(applyDelta(before, m), room.view(sender.viewer))).toBe(true);
      expect(String(sender.last)).toContain(text);
    }
  });
});
