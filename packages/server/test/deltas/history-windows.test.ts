// Issue 19: a held view's history is a window of a backing array that the
// successive windows of one viewer lineage share, so a command pushes its entry
// instead of copying the window. Over hundreds of commands (the window slides,
// its backing is compacted and moved many times, seat-only and GM-only lines
// split the lineages, undo and redo take entries back), every phone that folds
// the frames it was sent holds exactly a fresh view, and a delta carries only
// the new history entries. Real SQLite file; in-process sessions.
import { afterAll, describe, expect, it } from 'vitest';
import { seededRng, type Command, type TableView, type Viewer } from '@tablekeeper/engine';
import { applyDelta, type ServerMessage } from '@tablekeeper/protocol';
import { createTableFor, engineFor } from '@tablekeeper/rulesets';
import { openSqliteStore, Room, type RoomLimits, type Session } from '../../src/index.js';
import { sameJson } from '../../src/deltas.js';
import { tempDir } from '../helpers.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const store = openSqliteStore(`${dir.dir}/windows.sqlite`);
afterAll(() => store.close());

const LIMITS: RoomLimits = { maxTransactions: 10_000, maxSessions: 50, snapshotEvery: 500, historyWindow: 6, historyScan: 40 };

/** A phone that folds every frame it is sent onto the view it holds, as a client does. */
class Phone implements Session {
  static seq = 0;
  readonly id = ++Phone.seq;
  readonly tokenHash = `h${this.id}`;
  held: number | null = null;
  view: TableView | null = null;
  historyAdded = 0;
  constructor(readonly viewer: Viewer) {}
  sendRaw(data: string | Buffer): void {
    const m = JSON.parse(String(data)) as ServerMessage;
    if (m.type === 'snapshot') this.view = m.view;
    if (m.type !== 'delta') return;
    for (const p of m.history ?? []) if ('add' in p) this.historyAdded += p.add.length;
    this.view = applyDelta(this.view!, m);
  }
  close(): void {}
}

describe('history windows of a shared backing (issue 19)', () => {
  it('phones folding 300 frames hold fresh views; each delta adds at most the new entries', () => {
    const engine = engineFor('osr')!;
    const made = createTableFor('osr', { tableId: 'windows', name: 'Windows' });
    if (!made.ok) throw new Error(made.error.message);
    store.createTable({ tableId: 'windows', name: 'Windows', rulesetId: 'osr', genesis: made.value.genesis, createdAt: 0 }, []);
    const room = Room.load(store, engine, store.getTable('windows')!, LIMITS);
    room.useRng(seededRng(7));
    const run = (actor: Viewer, c: Command) => {
      const r = room.submit(actor, null, room.version, c);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    };
    const gm: Viewer = { role: 'gm' };
    run(gm, { type: 'seat.add', name: 'Ann' });
    run(gm, { type: 'seat.add', name: 'Bo' });
    const [ann, bo] = Object.keys(room.table.world.seats) as [string, string];
    run(gm, { type: 'character.add', name: 'Ann', kind: 'pc', seatId: ann, stats: { hp: 9 } });
    const annView: Viewer = { role: 'player', seatId: ann };
    const phones = [new Phone(gm), new Phone(annView), new Phone({ role: 'player', seatId: bo }), new Phone({ role: 'spectator' })];
    for (const p of phones) room.join(p);
    let undone = 0;
    for (let i = 0; i < 300; i++) {
      const before = phones.map((p) => p.historyAdded);
      const kind = i % 7;
      if (kind === 3) run(gm, { type: 'log.note', text: `aside ${i}`, audience: { kind: 'seat', seatId: i % 2 ? ann : bo } });
      else if (kind === 5) run(gm, { type: 'log.note', text: `gm ${i}`, audience: { kind: 'gm' } });
      else if (kind === 6 && i % 3 === 0) {
        run(gm, { type: 'history.undo' });
        undone++;
      } else if (kind === 6) run(annView, { type: 'log.note', text: `ann ${i}` });
      else run(gm, { type: i % 2 ? 'clock.advance' : 'log.note', ...(i % 2 ? { unit: 'round' } : { text: `note ${i}` }) } as Command);
      room.broadcast();
      for (const [n, p] of phones.entries()) {
        expect(p.held, `step ${i}`).toBe(room.version);
        expect(sameJson(p.view, room.view(p.viewer)), `step ${i}: ${JSON.stringify(p.viewer)}`).toBe(true);
        // One command adds at most one entry to anyone's history; an undo adds its own line.
        expect(p.historyAdded - before[n]!, `step ${i}`).toBeLessThanOrEqual(1);
      }
    }
    // Not vacuous: the windows slid far past the backing's compaction point (64 dead entries) and undo ran.
    expect(room.version).toBeGreaterThan(300);
    expect(undone).toBeGreaterThan(10);
    for (const p of phones) expect(p.view!.history).toHaveLength(LIMITS.historyWindow);
  });
});
