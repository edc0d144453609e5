// The countdowns projector's log basis (issue 19): when a tick moves a countdown but no
// countdown's tier, the projection by parts judges only the new log lines. Whatever the
// play, the memo's projection must equal a fresh one for every viewer class.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GM, SPECTATOR, createdId, rollModule, table, type Outcome } from './fixtures.js';
import { scenario } from '../../src/core/testing.js';
import type { Command, LogEntry, Viewer, ViewMemo, World } from '../../src/core/types.js';
import { countdownsModule, getCountdowns, type CountdownsState } from '../../src/countdowns/module.js';
import { publicExistence, publicValues, redactCountdown, shownChase } from '../../src/countdowns/model.js';
import { own } from '../../src/core/own.js';

const OUTCOMES: readonly Outcome[] = ['critical', 'successWithHope', 'successWithFear', 'failureWithHope', 'failureWithFear'];

type Step =
  | { readonly kind: 'tick' | 'untick' | 'remove'; readonly which: number; readonly by: number }
  | { readonly kind: 'reveal'; readonly which: number; readonly to: 'visible' | 'existence' | 'reveal-on-trigger' }
  | { readonly kind: 'hide'; readonly which: number; readonly to: 'hidden' | 'existence' }
  | { readonly kind: 'create'; readonly visibility: 'hidden' | 'visible' | 'existence' }
  | { readonly kind: 'roll'; readonly outcome: Outcome }
  | { readonly kind: 'note' | 'undo' | 'redo' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('tick' as const, 'untick' as const, 'remove' as const), which: fc.nat(5), by: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('reveal' as const), which: fc.nat(5), to: fc.constantFrom('visible' as const, 'existence' as const, 'reveal-on-trigger' as const) }),
  fc.record({ kind: fc.constant('hide' as const), which: fc.nat(5), to: fc.constantFrom('hidden' as const, 'existence' as const) }),
  fc.record({ kind: fc.constant('create' as const), visibility: fc.constantFrom('hidden' as const, 'visible' as const, 'existence' as const) }),
  fc.record({ kind: fc.constant('roll' as const), outcome: fc.constantFrom(...OUTCOMES) }),
  fc.record({ kind: fc.constantFrom('note' as const, 'undo' as const, 'redo' as const) }),
);

/** The step as a command, or null when it does not apply (no countdown to name): such steps are skipped. */
function commandOf(s: Step, ids: readonly string[], n: number): Command | null {
  const id = 'which' in s ? ids[s.which % Math.max(1, ids.length)] : undefined;
  switch (s.kind) {
    case 'tick':
    case 'untick':
      return id === undefined ? null : { type: `countdown.${s.kind}`, countdownId: id, by: s.by };
    case 'remove':
      return id === undefined ? null : { type: 'countdown.remove', countdownId: id };
    case 'reveal':
    case 'hide':
      return id === undefined ? null : { type: `countdown.${s.kind}`, countdownId: id, to: s.to };
    case 'create':
      return { type: 'countdown.create', name: `Doom ${n}`, start: 4, repeat: 'loop', visibility: s.visibility };
    case 'roll':
      return { type: 'test.roll', outcome: s.outcome };
    case 'note':
      return { type: 'log.note', text: `note ${n}` };
    case 'undo':
      return { type: 'history.undo' };
    case 'redo':
      return { type: 'history.redo' };
  }
}

describe('countdowns projection by parts with a log basis', () => {
  it('declares a basis that moves with a tier, not with a tick (a countdown going 4 -> 3 keeps its basis; hiding it does not)', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Doom', start: 4 }));
    const basis = countdownsModule.projectReads!.logBasis!;
    const before = basis(s.world);
    s.run({ type: 'countdown.tick', countdownId: id, by: 1 });
    expect(basis(s.world)).toBe(before);
    s.run({ type: 'countdown.hide', countdownId: id });
    expect(basis(s.world)).not.toBe(before);
  });

  it('property: over random ticks, reveals, hides, removals, rolls, notes, undo and redo, the memo projection equals a fresh one for the GM, two seats and a spectator', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.nat(3), (steps, rotate) => {
        // A 12-line log limit, so the log also loses its oldest lines while the basis holds.
        const s = scenario([countdownsModule, rollModule], { seed: 7, settings: { 'core.logLimit': 12 } });
        s.run({ type: 'seat.add', name: 'Ann' });
        s.run({ type: 'seat.add', name: 'Bo' });
        const seats: Viewer[] = Object.keys(s.world.seats).map((seatId) => ({ role: 'player', seatId }));
        const viewers: readonly Viewer[] = [GM, ...seats, SPECTATOR];
        const ids: string[] = [];
        const memo: ViewMemo = { entryCopies: new WeakMap() };
        steps.forEach((st, n) => {
          const command = commandOf(st, ids, n);
          if (command === null) return;
          const r = s.engine.execute(s.table, command, { rng: s.rng, actor: GM });
          // A step the rules refuse (nothing to undo, a tick on a removed countdown) changes nothing.
          if (!r.ok) return;
          s.table = r.value.table;
          if (st.kind === 'create') ids.push(createdId(r.value.transaction));
          const order = [...viewers.slice(rotate % viewers.length), ...viewers.slice(0, rotate % viewers.length)];
          for (const viewer of order) {
            const cached: World = s.engine.project(s.world, viewer, memo);
            const fresh: World = s.engine.project(s.world, viewer);
            expect(cached).toEqual(fresh);
          }
        });
      }),
      { numRuns: 60 },
    );
  });

  it('a tick that keeps every tier leaves the player the log array it held, and equals a fresh projection', () => {
    const s = table();
    const player: Viewer = { role: 'player', seatId: Object.keys(s.world.seats)[0]! };
    const id = createdId(s.run({ type: 'countdown.create', name: 'Doom', start: 9, visibility: 'hidden' }));
    for (let i = 0; i < 5; i++) s.run({ type: 'log.note', text: `note ${i}` });
    const memo: ViewMemo = { entryCopies: new WeakMap() };
    const before: readonly LogEntry[] = s.engine.project(s.world, player, memo).log;
    // A roll's tick writes a line (ADR 92), the GM's alone for a hidden countdown: the players' log is unchanged.
    s.roll('failureWithFear');
    expect(s.cd(id).value).toBe(8);
    const after = s.engine.project(s.world, player, memo);
    expect(after).toEqual(s.engine.project(s.world, player));
    expect(after.log).toBe(before);
  });

  it('the GM is given the world itself, with its log whole, once every projector passes it through (no copy of a 300-line log per command)', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Doom', start: 9, visibility: 'hidden' }));
    const memo: ViewMemo = { entryCopies: new WeakMap() };
    for (let i = 0; i < 300; i++) s.run({ type: 'log.note', text: `note ${i}` });
    s.engine.project(s.world, GM, memo);
    for (const command of [{ type: 'log.note', text: 'one more' }, { type: 'countdown.tick', countdownId: id, by: 1 }, { type: 'clock.advance', unit: 'round' }] as const) {
      s.run(command);
      const gm = s.engine.project(s.world, GM, memo);
      expect(gm).toBe(s.world);
      expect(gm).toEqual(s.engine.project(s.world, GM));
    }
  });

  it('a tick re-makes only the ticked countdown\'s shown copy: the others, and a note\'s whole part, keep their objects', () => {
    const s = table();
    const player: Viewer = { role: 'player', seatId: Object.keys(s.world.seats)[0]! };
    const a = createdId(s.run({ type: 'countdown.create', name: 'Doom', start: 9 }));
    const b = createdId(s.run({ type: 'countdown.create', name: 'Hope', start: 6 }));
    const shown = () => s.engine.project(s.world, player).ext['countdowns'] as { countdowns: Record<string, { value: number }> };
    const before = shown();
    s.run({ type: 'log.note', text: 'a note moves the log only' });
    expect(shown()).toBe(before);
    s.run({ type: 'countdown.tick', countdownId: a, by: 2 });
    const after = shown();
    expect(after.countdowns[a]!.value).toBe(7);
    expect(after.countdowns[a]).not.toBe(before.countdowns[a]);
    expect(after.countdowns[b]).toBe(before.countdowns[b]);
  });

  it('property: over random play, what a player and a spectator see of the countdowns equals the redaction made from scratch', () => {
    // The projection as it was before the memos (issue 19): every countdown redacted afresh, links to unknown ones cut.
    const fromScratch = (st: CountdownsState) => {
      const countdowns: Record<string, unknown> = {};
      const order: string[] = [];
      for (const id of st.order) {
        const cd = own(st.countdowns, id);
        const seen = cd === undefined ? null : redactCountdown(cd);
        if (seen === null) continue;
        countdowns[id] = seen;
        order.push(id);
      }
      const chases: Record<string, unknown> = {};
      for (const [id, ch] of Object.entries(st.chases)) {
        const p = own(st.countdowns, ch.progressId);
        const c = own(st.countdowns, ch.consequenceId);
        if (p !== undefined && c !== undefined && publicExistence(p) && publicExistence(c)) chases[id] = shownChase(ch, publicValues(p) && publicValues(c));
      }
      for (const id of order) {
        const cd = countdowns[id] as { linkedTo?: string | null; chaseId?: string | null };
        if (cd.linkedTo != null && !Object.hasOwn(countdowns, cd.linkedTo)) countdowns[id] = { ...cd, linkedTo: null };
        if (cd.chaseId != null && !Object.hasOwn(chases, cd.chaseId)) countdowns[id] = { ...(countdowns[id] as object), chaseId: null };
      }
      return { countdowns, order, chases, gone: {} };
    };
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const s = scenario([countdownsModule, rollModule], { seed: 11 });
        s.run({ type: 'seat.add', name: 'Ann' });
        const viewers: readonly Viewer[] = [{ role: 'player', seatId: Object.keys(s.world.seats)[0]! }, SPECTATOR];
        const ids: string[] = [];
        const memo: ViewMemo = { entryCopies: new WeakMap() };
        steps.forEach((st, n) => {
          const command = commandOf(st, ids, n);
          if (command === null) return;
          const r = s.engine.execute(s.table, command, { rng: s.rng, actor: GM });
          if (!r.ok) return;
          s.table = r.value.table;
          if (st.kind === 'create') ids.push(createdId(r.value.transaction));
          const expected = fromScratch(getCountdowns(s.world));
          for (const viewer of viewers) {
            expect(s.engine.project(s.world, viewer, memo).ext['countdowns']).toEqual(expected);
            expect(s.engine.project(s.world, viewer).ext['countdowns']).toEqual(expected);
          }
        });
      }),
      { numRuns: 60 },
    );
  });
});
