// A stand-in for a ruleset's action roll: `test.roll {outcome}` emits the
// engine-level `actionRoll.resolved`, so countdown tests need no dice.
import { ok } from '../../src/core/index.js';
import type { EngineEvent, Module, Transaction, Viewer } from '../../src/core/types.js';
import { scenario, type Scenario } from '../../src/core/testing.js';
import type { Rng } from '../../src/dice/rng.js';
import { countdownsModule, getCountdowns } from '../../src/countdowns/module.js';
import type { Countdown } from '../../src/countdowns/model.js';

export const rollModule: Module = {
  id: 'test-roll',
  commands: {
    'test.roll': {
      label: 'make an action roll',
      authorize: () => null,
      decide: (_w, c) => ok([{ type: 'test.rolled', outcome: c['outcome'] ?? null }, { type: 'actionRoll.resolved', outcome: c['outcome'] ?? null }]),
    },
  },
  reducers: { 'test.rolled': (w) => w },
};

export const GM: Viewer = { role: 'gm' };
export const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };
export const SPECTATOR: Viewer = { role: 'spectator' };

export type Outcome = 'critical' | 'successWithHope' | 'successWithFear' | 'failureWithHope' | 'failureWithFear';

export function table(opts: { rng?: Rng; seed?: number } = {}): Scenario & { cd(id: string): Countdown; roll(outcome: Outcome, actor?: Viewer): void } {
  const s = scenario([countdownsModule, rollModule], opts) as Scenario & { cd(id: string): Countdown; roll(outcome: Outcome, actor?: Viewer): void };
  s.run({ type: 'seat.add', name: 'Ann' }); // seat-1
  s.cd = (id) => {
    const c = getCountdowns(s.world).countdowns[id];
    if (c === undefined) throw new Error(`no countdown ${id}`);
    return c;
  };
  s.roll = (outcome, actor = PLAYER) => void s.run({ type: 'test.roll', outcome }, actor);
  return s;
}

/** The id the last transaction created (first countdown.created / chase.created event). */
export function createdId(tx: { kind: string; events?: readonly { type: string; id?: unknown }[] }): string {
  const e = tx.events?.find((x) => x.type === 'countdown.created' || x.type === 'chase.created');
  if (e === undefined || typeof e.id !== 'string') throw new Error('nothing created');
  return e.id;
}

/** A transaction's events (undo / redo transactions have none of their own). */
export const evs = (tx: Transaction): readonly EngineEvent[] => (tx.kind === 'command' ? tx.events : []);
