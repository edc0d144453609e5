// Issue 19: a player's view log is a window of a backing array that successive
// logs share (view-cache LogWindow), so a command pushes its new entries instead
// of copying the log. A window must read exactly as the plain array it stands
// for, whatever else grew from the same backing, and the views made of windows
// must equal fresh projections over appends, trims, undo and a new memo.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, logWindowOf, windowGrowth, type Command, type LogEntry, type Table, type Viewer, type ViewMemo } from '../../src/core/index.js';
import { LogWindow, windowAppended, windowOf, windowWithoutFirst } from '../../src/core/view-cache.js';
import { countdownsModule } from '../../src/countdowns/index.js';
import { diceyModule } from './fixtures.js';

let made = 0;
const entry = (): LogEntry => ({ tx: made, audience: { kind: 'all' }, kind: 'note', text: `line ${made++}` });

/** An operation on the live windows: grow one by some entries, or drop some of its oldest. */
const op = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), which: fc.nat(), count: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('drop' as const), which: fc.nat(), count: fc.integer({ min: 0, max: 90 }) }),
);

describe('LogWindow (issue 19)', () => {
  it('property: every window reads as its plain array over random appends and trims, from any window (forks included)', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 200 }), (ops) => {
        const first = [entry()];
        const live: { w: LogWindow; plain: LogEntry[] }[] = [{ w: windowOf([...first]), plain: first }];
        for (const o of ops) {
          const from = live[o.which % live.length]!;
          let next: { w: LogWindow; plain: LogEntry[] };
          if (o.kind === 'append') {
            const added = Array.from({ length: o.count }, entry);
            next = { w: windowAppended(from.w, added), plain: [...from.plain, ...added] };
          } else next = { w: windowWithoutFirst(from.w, o.count), plain: from.plain.slice(o.count) };
          // How the delta reads growth: when it answers, the held entries less the dropped ones, then the fresh, are the next ones.
          const g = windowGrowth(from.w, next.w);
          if (g !== null) {
            expect(g.dropped).toEqual(from.plain.slice(0, g.dropped.length));
            expect([...from.plain.slice(g.dropped.length), ...g.fresh]).toEqual(next.plain);
          }
          live.push(next);
          if (live.length > 12) live.splice(1, 1);
          for (const l of live) {
            expect(l.w.length).toBe(l.plain.length);
            expect(l.w.at(0)).toBe(l.plain[0]);
            expect(l.w.at(l.plain.length - 1)).toBe(l.plain[l.plain.length - 1]);
            expect(l.w.entries()).toEqual(l.plain);
          }
        }
        // Appending to the newest of a lineage shares its backing: a command pays for its own entries.
        const last = live[live.length - 1]!.w;
        const grown = windowAppended(last, [entry()]);
        if (last.end === last.backing.length) expect(grown.backing).toBe(last.backing);
      }),
      { numRuns: 150 },
    );
  });

  it('answers no growth between windows of different backings or a shrunk one', () => {
    const a = windowOf([entry(), entry()]);
    const b = windowAppended(a, [entry()]);
    expect(windowGrowth(b, a)).toBeNull();
    expect(windowGrowth(a, windowOf([...a.entries()]))).toBeNull();
    const fork = windowAppended(a, [entry()]);
    expect(fork.backing).not.toBe(a.backing);
    expect(windowGrowth(a, fork)).toBeNull();
    expect(windowGrowth(a, b)).toEqual({ dropped: [], fresh: [b.at(2)] });
  });

  it('moves the live entries to a new backing once the dropped ones outnumber them, and reads the same', () => {
    const plain = Array.from({ length: 200 }, entry);
    const w = windowOf([...plain]);
    const kept = windowWithoutFirst(w, 50);
    expect(kept.backing).toBe(w.backing);
    const cut = windowWithoutFirst(w, 150);
    expect(cut.backing).not.toBe(w.backing);
    expect(cut.entries()).toEqual(plain.slice(150));
    expect(windowWithoutFirst(w, 500).entries()).toEqual([]);
  });
});

const engine = createEngine([coreModule, countdownsModule, diceyModule]);
const GM: Viewer = { role: 'gm' };
const SPECTATOR: Viewer = { role: 'spectator' };
const newMemo = (): ViewMemo => ({ entryCopies: new WeakMap() });
const command = fc.constantFrom<Command>(
  { type: 'seat.add', name: 'Ann' },
  { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } },
  { type: 'log.note', text: 'for everyone' },
  { type: 'dicey.roll', sides: 6 },
  { type: 'countdown.create', name: 'Doom', start: 3, visibility: 'hidden' },
  { type: 'countdown.create', name: 'Dawn', start: 3, visibility: 'visible' },
  { type: 'history.undo' },
  { type: 'history.redo' },
);

describe("players' view logs as windows (issue 19)", () => {
  it('property: a windowed view log equals a fresh projection, over appends, trims at a small limit, undo, redo and a new memo (reconnect)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(command, fc.constant('reconnect' as const)), { maxLength: 50 }), fc.integer({ min: 1, max: 6 }), (steps, limit) => {
        let t: Table = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'test', settings: { 'core.logLimit': limit } });
        const rng = seededRng(93);
        let memo = newMemo();
        for (const s of steps) {
          if (s === 'reconnect') memo = newMemo();
          else {
            const r = engine.execute(t, s, { rng, actor: GM });
            if (r.ok) t = r.value.table;
          }
          const seatId = Object.keys(t.world.seats)[0];
          const viewers: Viewer[] = [SPECTATOR, ...(seatId === undefined ? [] : [{ role: 'player', seatId } as Viewer])];
          for (const viewer of viewers) {
            const view = engine.project(t.world, viewer, memo);
            // Every non-GM view made with a memo reads its log through a window.
            expect(logWindowOf(view)).toBeDefined();
            expect(logWindowOf(view)!.entries()).toBe(view.log);
            expect(view).toEqual(engine.project(t.world, viewer));
            expect(JSON.parse(JSON.stringify(view))).toEqual(JSON.parse(JSON.stringify(engine.project(t.world, viewer))));
          }
          expect(logWindowOf(engine.project(t.world, GM, memo))).toBeUndefined();
        }
      }),
      { numRuns: 80 },
    );
  });
});

/** The non-GM class's projected log, read from the memo (the countdowns step's stage log: ADR 108; the class memo keeps its output, ADR 115). */
const stageLog = (memo: ViewMemo): unknown => {
  const parts = memo.parts as { classes: Map<string, { output: { log: unknown } }> };
  return parts.classes.get('others')!.output.log;
};
const countdownIds = (t: Table): string[] => (t.world.ext['countdowns'] as { order?: string[] } | undefined)?.order ?? [];

// No projector after the countdowns step, so its output log may be a window (dicey's undeclared projector would forbid it).
const stageEngine = createEngine([coreModule, countdownsModule]);

describe("the non-GM class's stage log as a window (issue 19, ADR 108)", () => {
  it('pushes each new entry onto one backing, and views equal fresh projections', () => {
    let t: Table = stageEngine.createTable({ tableId: 't', name: 'T', rulesetId: 'test' });
    const run = (c: Command) => {
      const r = stageEngine.execute(t, c, { rng: seededRng(1), actor: GM });
      if (!r.ok) throw new Error(r.error.message);
      t = r.value.table;
    };
    const memo = newMemo();
    run({ type: 'countdown.create', name: 'Doom', start: 3, visibility: 'hidden' });
    run({ type: 'countdown.create', name: 'Dawn', start: 3, visibility: 'visible' });
    stageEngine.project(t.world, SPECTATOR, memo);
    const first = stageLog(memo);
    expect(first).toBeInstanceOf(LogWindow);
    // A projector after it that declares nothing may read the log: the stage log stays an array there.
    const undeclared = newMemo();
    engine.project(t.world, SPECTATOR, undeclared);
    expect(Array.isArray(stageLog(undeclared))).toBe(true);
    for (let i = 0; i < 5; i++) {
      run(i % 2 === 0 ? { type: 'log.note', text: `note ${i}` } : { type: 'countdown.tick', countdownId: countdownIds(t)[1]! });
      const view = stageEngine.project(t.world, SPECTATOR, memo);
      expect(view).toEqual(stageEngine.project(t.world, SPECTATOR));
      const stage = stageLog(memo) as LogWindow;
      expect(stage).toBeInstanceOf(LogWindow);
      expect(stage.backing).toBe((first as LogWindow).backing);
      // The engine log's entries in order (the same objects), less any the countdowns step hides.
      const kept = t.world.log.filter((e) => stage.entries().includes(e));
      expect(stage.entries()).toEqual(kept);
      expect(stage.at(stage.length - 1)).toBe(t.world.log.at(-1));
    }
  });

  it('property: with hidden and visible countdowns ticked, notes, trims at a small limit, undo, redo and reconnects, every non-GM view equals a fresh projection', () => {
    const step = fc.oneof(
      fc.constantFrom<Command>(
        { type: 'seat.add', name: 'Ann' },
        { type: 'log.note', text: 'for the GM', audience: { kind: 'gm' } },
        { type: 'log.note', text: 'for everyone' },
        { type: 'countdown.create', name: 'Doom', start: 3, visibility: 'hidden' },
        { type: 'countdown.create', name: 'Dawn', start: 3, visibility: 'visible' },
        { type: 'history.undo' },
        { type: 'history.redo' },
      ),
      fc.constant('reconnect' as const),
      fc.record({ tick: fc.nat(3) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (steps, limit) => {
        let t: Table = stageEngine.createTable({ tableId: 't', name: 'T', rulesetId: 'test', settings: { 'core.logLimit': limit } });
        const rng = seededRng(108);
        let windows = 0;
        let memo = newMemo();
        for (const s of steps) {
          if (s === 'reconnect') memo = newMemo();
          else {
            const ids = countdownIds(t);
            const tick = (s as { tick?: unknown }).tick;
            const c: Command | null = typeof tick === 'number' ? (ids.length === 0 ? null : { type: 'countdown.tick', countdownId: ids[tick % ids.length]! }) : (s as Command);
            const r = c === null ? null : stageEngine.execute(t, c, { rng, actor: GM });
            if (r?.ok === true) t = r.value.table;
          }
          const seatId = Object.keys(t.world.seats)[0];
          for (const viewer of [SPECTATOR, ...(seatId === undefined ? [] : [{ role: 'player', seatId } as Viewer])]) {
            const view = stageEngine.project(t.world, viewer, memo);
            expect(view).toEqual(stageEngine.project(t.world, viewer));
            if (stageLog(memo) instanceof LogWindow) windows++;
          }
          expect(stageEngine.project(t.world, GM, memo)).toEqual(stageEngine.project(t.world, GM));
        }
        // Not vacuous: the countdowns step's first run for a non-GM viewer makes a log of its own, which starts a window.
        if (steps.length > 0) expect(windows).toBeGreaterThan(0);
      }),
      { numRuns: 120 },
    );
  });
});
