// Secrets stay secret: hidden countdowns never reach a player's or spectator's
// view (world, log, history, undo labels); existence-only shows the name only.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GM, PLAYER, SPECTATOR, createdId, table, type Outcome } from './fixtures.js';
import type { Viewer } from '../../src/core/types.js';
import { getCountdowns } from '../../src/countdowns/module.js';

const CANARY = ['CANARY-NAME-7f3', 'CANARY-EFFECT-91a', 'CANARY-FINAL-2bd', 'CANARY-BEAT-c44', 'CANARY-ACTIVATION-e05'];
const noCanary = (s: ReturnType<typeof table>, who: Viewer): void => {
  const text = JSON.stringify(s.view(who));
  for (const c of CANARY) expect(text).not.toContain(c);
};

function secretTable() {
  const s = table();
  const standard = createdId(
    s.run({ type: 'countdown.create', name: CANARY[0]!, start: 2, repeat: 'decreasing', visibility: 'hidden', effect: CANARY[1]!, finalEffect: CANARY[2]!, activation: CANARY[4]! }),
  );
  const lt = createdId(
    s.run({ type: 'countdown.create', name: `${CANARY[0]} long`, kind: 'longTerm', start: 4, visibility: 'hidden', effect: CANARY[1]!, beats: [{ at: 3, text: CANARY[3]!, partyCanLearn: true }] }),
  );
  const chase = createdId(s.run({ type: 'chase.create', name: `${CANARY[0]} chase`, die: 4, lead: 2, visibility: 'hidden', progressEffect: CANARY[1]!, consequenceEffect: CANARY[1]! }));
  return { s, standard, lt, chase };
}

describe('hidden countdowns', () => {
  it('never appear for players or spectators, through ticks, triggers, resets, the final event, rests, undo and redo', () => {
    const { s } = secretTable();
    for (const o of ['failureWithHope', 'failureWithHope', 'successWithFear', 'critical'] as Outcome[]) s.roll(o, PLAYER);
    s.run({ type: 'clock.advance', unit: 'longRest' });
    s.roll('failureWithFear', PLAYER);
    for (const who of [PLAYER, SPECTATOR]) noCanary(s, who);
    s.undo(PLAYER);
    for (const who of [PLAYER, SPECTATOR]) noCanary(s, who);
    s.redo(PLAYER);
    for (const who of [PLAYER, SPECTATOR]) noCanary(s, who);
    s.undo(GM);
    s.undo(GM); // the GM's rest: the undo label of a GM-only step
    for (const who of [PLAYER, SPECTATOR]) noCanary(s, who);
    // The GM sees it all.
    expect(JSON.stringify(s.view(GM))).toContain(CANARY[0]);
  });
  it('a countdown hidden after being visible leaves the players\' world and log (history they already saw stays as it was)', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: CANARY[0]!, start: 1, repeat: 'loop', effect: CANARY[1]! }));
    s.roll('successWithHope');
    expect(JSON.stringify(s.view(PLAYER).world)).toContain(CANARY[0]);
    s.run({ type: 'countdown.hide', id });
    const worldOnly = (who: Viewer): string => JSON.stringify(s.view(who).world);
    for (const who of [PLAYER, SPECTATOR]) for (const c of CANARY) expect(worldOnly(who)).not.toContain(c);
    // The hide itself and everything after it are GM-only.
    s.roll('successWithHope');
    const last = s.view(PLAYER).history[s.view(PLAYER).history.length - 1]!;
    expect(last.events.map((e) => e.type)).toEqual(['test.rolled', 'actionRoll.resolved']);
    s.run({ type: 'countdown.remove', id });
    for (const c of CANARY) expect(worldOnly(PLAYER)).not.toContain(c);
  });
  it('property: any sequence of rolls, rests, GM ticks and undos never leaks a hidden countdown', () => {
    const step = fc.oneof(
      fc.constantFrom<Outcome>('critical', 'successWithHope', 'successWithFear', 'failureWithHope', 'failureWithFear').map((o) => ({ kind: 'roll' as const, o })),
      fc.constantFrom('shortRest', 'longRest').map((u) => ({ kind: 'rest' as const, u })),
      fc.constant({ kind: 'undo' as const }),
      fc.constant({ kind: 'tick' as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const { s, standard } = secretTable();
        for (const st of steps) {
          if (st.kind === 'roll') s.roll(st.o, PLAYER);
          else if (st.kind === 'rest') s.run({ type: 'clock.advance', unit: st.u });
          else if (st.kind === 'tick') {
            if (s.cd(standard).status !== 'ended') s.run({ type: 'countdown.tick', id: standard });
          } else if (s.view(GM).canUndo && s.table.live.length > 4) s.undo(GM);
        }
        noCanary(s, PLAYER);
        noCanary(s, SPECTATOR);
      }),
      { numRuns: 40 },
    );
  });
});

describe('existence-only and reveal-on-trigger', () => {
  it('existence-only: players see the name, never the value, effect or beats', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Something stirs', start: 3, visibility: 'existence', effect: CANARY[1]! }));
    s.roll('successWithHope');
    const v = s.view(PLAYER);
    const seen = (v.world.ext['countdowns'] as { countdowns: Record<string, unknown> }).countdowns[id];
    expect(seen).toEqual({ id, name: 'Something stirs', visibility: 'existence', redacted: true });
    const text = JSON.stringify(v);
    expect(text).toContain('Something stirs');
    expect(text).not.toContain(CANARY[1]);
    expect(text).not.toContain('"value"');
  });
  it('reveal-on-trigger becomes visible once it triggers, with its effect announced', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Trap', start: 2, visibility: 'reveal-on-trigger', effect: 'The floor gives way.' }));
    s.roll('failureWithFear');
    expect(JSON.stringify(s.view(PLAYER))).not.toContain('The floor gives way.');
    s.roll('failureWithFear');
    const v = s.view(PLAYER);
    expect((v.world.ext['countdowns'] as { countdowns: Record<string, { value?: number }> }).countdowns[id]?.value).toBe(0);
    expect(v.world.log.some((l) => l.kind === 'countdown.triggered' && l.text.includes('The floor gives way.'))).toBe(true);
    expect(v.history.some((t) => t.events.some((e) => e.type === 'countdown.triggered'))).toBe(true);
  });
  it('reveal and hide move between tiers', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: CANARY[0]!, start: 3, visibility: 'hidden' }));
    noCanary(s, PLAYER);
    s.run({ type: 'countdown.reveal', id, to: 'existence' });
    expect(JSON.stringify(s.view(PLAYER))).toContain(CANARY[0]);
    s.run({ type: 'countdown.reveal', id });
    expect(s.view(PLAYER).world.log.some((l) => l.kind === 'countdown.revealed')).toBe(true);
    expect(s.fail({ type: 'countdown.reveal', id }).code).toBe('COUNTDOWN_ALREADY');
    s.run({ type: 'countdown.hide', id });
    noCanary(s, PLAYER);
  });
});

describe('chases players may only know exist', () => {
  it('an existence-only chase does not tell players who won; revealed, it does', () => {
    const s = table();
    const chaseId = createdId(s.run({ type: 'chase.create', name: 'Shadowy chase', die: 2, lead: 1, visibility: 'existence' }));
    s.roll('failureWithFear'); // the other party's countdown 1 -> 0: the quarry escapes
    const seen = () => (s.view(PLAYER).world.ext['countdowns'] as { chases: Record<string, { result: string | null }> }).chases[chaseId];
    expect(getCountdowns(s.world).chases[chaseId]?.result).toBe('other');
    expect(seen()).toMatchObject({ name: 'Shadowy chase', result: null });
    expect(JSON.stringify(s.view(SPECTATOR))).not.toContain('"other"');
    const ch = getCountdowns(s.world).chases[chaseId]!;
    s.run({ type: 'countdown.reveal', id: ch.progressId });
    expect(seen()?.result).toBeNull(); // one side is still existence-only
    s.run({ type: 'countdown.reveal', id: ch.consequenceId });
    expect(seen()?.result).toBe('other');
  });
});
