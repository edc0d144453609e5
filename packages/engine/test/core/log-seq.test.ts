// Issue 19 (perf10): a transaction's log entries are written with its seq as the
// reducers run, instead of pending and then stamped in a second copy of the log.
// The reference here is the old way: every live command's events evolved outside a
// transaction (entries pending) and then stamped. Worlds, views (with and without a
// projection memo), replay and undo / redo must be what the old way gave.
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import {
  appendLog,
  coreModule,
  createEngine,
  logExtension,
  PENDING_TX,
  type Command,
  type Json,
  type Viewer,
  type ViewMemo,
  type World,
} from '../../src/core/index.js';
import { countdownsModule } from '../../src/countdowns/index.js';
import { diceyModule, liveReplay } from './fixtures.js';
import { replayProblems } from '../../src/testing.js';

const engine = createEngine([coreModule, countdownsModule, diceyModule]);
const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };
const json = (v: unknown) => JSON.stringify(v);
const newMemo = (): ViewMemo => ({ entryCopies: new WeakMap() });


const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Command>({ type: 'log.note', text: 'for everyone' }, { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }).map((sides): Command => ({ type: 'dicey.roll', sides })) },
  { weight: 2, arbitrary: fc.constant<Command>({ type: 'clock.advance', unit: 'round' }) },
  { weight: 1, arbitrary: fc.constant<Command>({ type: 'seat.add', name: 'Ann' }) },
  { weight: 1, arbitrary: fc.constantFrom<Command>({ type: 'countdown.create', name: 'Doom', start: 3, visibility: 'hidden' }, { type: 'countdown.create', name: 'Dawn', start: 2, visibility: 'visible' }) },
  // Several entries in one transaction: every one of them carries the batch's seq.
  { weight: 1, arbitrary: fc.constant<Command>({ type: 'history.batch', commands: [{ type: 'log.note', text: 'one' }, { type: 'clock.advance', unit: 'round' }, { type: 'log.note', text: 'two', audience: { kind: 'gm' } }] }) },
  { weight: 2, arbitrary: fc.constant<Command>({ type: 'history.undo' }) },
  { weight: 2, arbitrary: fc.constant<Command>({ type: 'history.redo' }) },
);

describe('log entries written with their transaction\'s seq (issue 19)', () => {
  it('gives the worlds, views, replay and undo / redo that stamping afterwards gave, at small and default log limits', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 60 }), fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), fc.integer(), (list, limit, seed) => {
        const settings: { [k: string]: Json } = limit === undefined ? {} : { 'core.logLimit': limit };
        let t = engine.createTable({ tableId: 't', name: 'Seq', rulesetId: 'test', settings });
        const memos = new Map<string, ViewMemo>();
        const memo = (key: string) => memos.get(key) ?? memos.set(key, newMemo()).get(key)!;
        list.forEach((c, i) => {
          const r = engine.execute(t, c, { rng: seededRng(seed + i), actor: GM });
          if (r.ok) t = r.value.table;
          const reference = liveReplay(engine, t);
          expect(json(t.world)).toBe(json(reference));
          // No entry in a table's world is left pending, and each names a transaction the table holds.
          for (const e of t.world.log) {
            expect(e.tx).not.toBe(PENDING_TX);
            expect(t.transactions.bySeq(e.tx)?.kind).toBe('command');
          }
          const seatId = Object.keys(t.world.seats)[0];
          const viewers: [string, Viewer][] = [['gm', GM], ['spectator', SPECTATOR], ...(seatId === undefined ? [] : [[`player:${seatId}`, { role: 'player', seatId } as Viewer] as [string, Viewer]])];
          for (const [key, viewer] of viewers) {
            const fresh = engine.project(reference, viewer);
            // The memo path is the room's: it learns how the log grew from appendLog instead of walking it.
            expect(engine.project(t.world, viewer, memo(key))).toEqual(fresh);
            expect(json(engine.view(t, viewer))).toBe(json(engine.view({ ...t, world: reference }, viewer)));
          }
        });
        expect(json(engine.replay(t.genesis, t.transactions))).toBe(json(t));
        // Its kept worlds too: every undo to the bottom and every redo back lands on the live table's world.
        expect(replayProblems(engine, t)).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it('replays a table past its undo checkpoints to the same worlds, undo by undo down to the first and redo by redo back (ADR 96)', () => {
    // Mostly notes, so the undo stack passes its checkpoints (every 64 entries) whose kept worlds the replay must not change.
    const long = fc.array(fc.oneof({ weight: 12, arbitrary: command }, { weight: 8, arbitrary: fc.constant<Command>({ type: 'log.note', text: 'more' }) }), { minLength: 130, maxLength: 220 });
    let deepest = 0;
    fc.assert(
      fc.property(long, fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }), fc.integer(), (list, limit, seed) => {
        let t = engine.createTable({ tableId: 't', name: 'Long', rulesetId: 'test', settings: limit === undefined ? {} : { 'core.logLimit': limit } });
        list.forEach((c, i) => {
          const r = engine.execute(t, c, { rng: seededRng(seed + i), actor: GM });
          if (r.ok) t = r.value.table;
        });
        deepest = Math.max(deepest, t.live.length);
        expect(replayProblems(engine, t)).toEqual([]);
      }),
      { numRuns: 12 },
    );
    // Not vacuous: some table's undo stack went past a checkpoint.
    expect(deepest).toBeGreaterThan(64);
  });

  it('replays runs of undos and redos (a redo after a redo, notes after a redo, an undo at a checkpoint) to the same worlds (ADR 120)', () => {
    // Bursts: some commands, then up to 4 undos, then up to as many redos. A replay keeps the world before each
    // redo and each checkpoint with an exact copy of its log and appends to its own in place: no kept world may change.
    const burst = fc.record({
      commands: fc.array(fc.oneof(command.filter((c) => c.type !== 'history.undo' && c.type !== 'history.redo'), fc.constant<Command>({ type: 'log.note', text: 'more' })), { minLength: 1, maxLength: 40 }),
      undos: fc.integer({ min: 0, max: 4 }),
      redos: fc.integer({ min: 0, max: 4 }),
    });
    let deepest = 0;
    let redoAfterRedo = 0;
    fc.assert(
      fc.property(fc.array(burst, { minLength: 4, maxLength: 8 }), fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }), fc.integer(), (bursts, limit, seed) => {
        let t = engine.createTable({ tableId: 't', name: 'Bursts', rulesetId: 'test', settings: limit === undefined ? {} : { 'core.logLimit': limit } });
        let i = 0;
        const run = (c: Command) => {
          const r = engine.execute(t, c, { rng: seededRng(seed + i++), actor: GM });
          if (r.ok) t = r.value.table;
          return r.ok;
        };
        // 100 notes first (a note never fails), so the at most 32 undos of the bursts leave the stack past its first checkpoint.
        for (let n = 0; n < 100; n++) run({ type: 'log.note', text: `note ${n}` });
        for (const b of bursts) {
          b.commands.forEach(run);
          for (let u = 0; u < b.undos; u++) run({ type: 'history.undo' });
          for (let r = 0; r < Math.min(b.redos, b.undos); r++) run({ type: 'history.redo' });
        }
        // And always a redo after a redo, then a note on the redone world.
        const tail: Command[] = [{ type: 'log.note', text: 'a' }, { type: 'log.note', text: 'b' }, { type: 'history.undo' }, { type: 'history.undo' }, { type: 'history.redo' }, { type: 'history.redo' }, { type: 'log.note', text: 'c' }];
        if (tail.map(run).every(Boolean)) redoAfterRedo++;
        deepest = Math.max(deepest, t.live.length);
        expect(json(engine.replay(t.genesis, t.transactions))).toBe(json(t));
        expect(replayProblems(engine, t)).toEqual([]);
      }),
      { numRuns: 15 },
    );
    // Not vacuous, by construction: 100 notes less at most 32 undos leave more than 64 entries, and the tail always runs.
    expect(deepest).toBeGreaterThan(64);
    expect(redoAfterRedo).toBe(15);
  });

  it('drops as many of the oldest entries as the limit asks in one copy, and records the growth logExtension would find', () => {
    const base = engine.createTable({ tableId: 't', name: 'Cut', rulesetId: 'test' }).world;
    let w: World = base;
    for (let n = 0; n < 5; n++) w = appendLog(w, { audience: { kind: 'all' }, kind: 'note', text: `note ${n}` });
    // Outside a transaction, entries are pending (engine.evolve's contract) until stampLog.
    expect(w.log.every((e) => e.tx === PENDING_TX)).toBe(true);
    const held = w.log;
    // A limit lowered to 2 drops four of the five held entries with the new one.
    const cut = appendLog({ ...w, settings: { ...w.settings, 'core.logLimit': 2 } }, { audience: { kind: 'all' }, kind: 'note', text: 'note 5' });
    expect(cut.log.map((e) => e.text)).toEqual(['note 4', 'note 5']);
    expect(cut.log[0]).toBe(held[4]);
    expect(held.map((e) => e.text)).toEqual(['note 0', 'note 1', 'note 2', 'note 3', 'note 4']);
    const growth = logExtension(held, cut.log);
    expect(growth).toEqual({ dropped: held.slice(0, 4), fresh: [cut.log[1]] });
    // The same answer as the walk over the entries (a copy of the new log has no growth recorded).
    expect(logExtension(held, [...cut.log])).toEqual(growth);
  });

  it('keeps no older log alive through the growth it records (a table once kept every log it ever had)', async () => {
    // A full collection on demand: the flag exposes gc() to contexts made after it is set.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const note = (w: World, n: number) => appendLog(w, { audience: { kind: 'all' }, kind: 'note', text: `note ${n}` });
    let w = note(engine.createTable({ tableId: 't', name: 'Chain', rulesetId: 'test' }).world, 0);
    const first = new WeakRef(w.log);
    for (let n = 1; n <= 50; n++) {
      const before = w.log;
      w = note(w, n);
      // The projection's question, answered from the record and asked as a viewer would.
      expect(logExtension(before, w.log)?.fresh).toEqual([w.log[w.log.length - 1]]);
    }
    // A WeakRef holds its target until the current job ends: collect in a later one.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(first.deref()).toBeUndefined();
    expect(w.log).toHaveLength(51);
  });

  it("keeps no older log alive through a spectator's projection memo over public notes (its shared final logs once chained them)", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let t = engine.createTable({ tableId: 't', name: 'Chain', rulesetId: 'test' });
    const memo = newMemo();
    const run = (n: number) => {
      const r = engine.execute(t, { type: 'log.note', text: `note ${n}` }, { rng: seededRng(n), actor: GM });
      if (!r.ok) throw new Error(r.error.message);
      t = r.value.table;
      return engine.project(t.world, SPECTATOR, memo);
    };
    const first = new WeakRef(run(0).log);
    for (let n = 1; n <= 50; n++) expect(run(n).log).toHaveLength(n + 1);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(first.deref()).toBeUndefined();
  });

  // A replay writes no growth notes (its worlds are never projected but the last): a room that loads a replayed
  // table and goes on projecting with one memo must still show every viewer what a fresh projection shows.
  it('projects a replayed table, and the commands after it, as a fresh projection does; appends after a failed replay note again', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 40 }), fc.array(command, { minLength: 1, maxLength: 15 }), fc.integer(), (before, after, seed) => {
        let live = engine.createTable({ tableId: 't', name: 'Replayed', rulesetId: 'test', settings: { 'core.logLimit': 6 } });
        before.forEach((c, i) => {
          const r = engine.execute(live, c, { rng: seededRng(seed + i), actor: GM });
          if (r.ok) live = r.value.table;
        });
        let t = engine.replay(live.genesis, live.transactions);
        expect(json(t.world)).toBe(json(live.world));
        const memos = new Map<string, ViewMemo>([['gm', newMemo()], ['spectator', newMemo()]]);
        const check = () => {
          expect(json(engine.project(t.world, GM, memos.get('gm')))).toBe(json(engine.project(t.world, GM)));
          expect(json(engine.project(t.world, SPECTATOR, memos.get('spectator')))).toBe(json(engine.project(t.world, SPECTATOR)));
        };
        check();
        after.forEach((c, i) => {
          const r = engine.execute(t, c, { rng: seededRng(seed - i), actor: GM });
          if (r.ok) t = r.value.table;
          check();
        });
      }),
      { numRuns: 60 },
    );
    // A replay that throws (a transaction out of order) leaves appends noting their growth as before.
    const t0 = engine.createTable({ tableId: 't', name: 'Bad', rulesetId: 'test' });
    const r = engine.execute(t0, { type: 'log.note', text: 'one' }, { rng: seededRng(1), actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    expect(() => engine.replay(t0.genesis, [{ ...r.value.transaction, seq: 2 }])).toThrow(/out of order/);
    const w1 = appendLog(r.value.table.world, { audience: { kind: 'all' }, kind: 'note', text: 'two' });
    const w2 = appendLog(w1, { audience: { kind: 'all' }, kind: 'note', text: 'three' });
    const a = logExtension(r.value.table.world.log, w1.log);
    const b = logExtension(w1.log, w2.log);
    expect(a?.fresh).toEqual([w1.log[1]]);
    expect(b?.fresh).toEqual([w2.log[2]]);
    // Noted growths share the one empty "dropped" list; a walk would have sliced a new one for each.
    expect(a?.dropped).toBe(b?.dropped);
  });
});
