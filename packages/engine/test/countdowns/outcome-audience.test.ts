// countdown.outcome on a table whose roll-ticked countdowns are all hidden:
// players must not learn from the log or the history that hidden countdowns
// moved (nor the outcome the GM entered for them).
import { describe, expect, it } from 'vitest';
import { createdId, PLAYER, SPECTATOR, table } from './fixtures.js';

describe('countdown.outcome and hidden countdowns', () => {
  it('with only hidden countdowns moving, the entry and its events stay with the GM', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'The guards arrive', start: 4, visibility: 'hidden' }));
    s.run({ type: 'countdown.outcome', outcome: 'failureWithFear' });
    expect(s.cd(id).value).toBe(3);
    for (const v of [PLAYER, SPECTATOR]) {
      const view = s.view(v);
      expect(view.world.log.some((l) => l.kind === 'countdown.outcomeEntered')).toBe(false);
      expect(JSON.stringify(view.history)).not.toContain('failureWithFear');
    }
    expect(s.view({ role: 'gm' }).world.log.some((l) => l.kind === 'countdown.outcomeEntered')).toBe(true);
  });

  it('with a countdown the players know of moving, they read the entry', () => {
    const s = table();
    createdId(s.run({ type: 'countdown.create', name: 'The guards arrive', start: 4, visibility: 'hidden' }));
    createdId(s.run({ type: 'countdown.create', name: 'The ritual', start: 6, visibility: 'existence' }));
    s.run({ type: 'countdown.outcome', outcome: 'successWithHope' });
    const log = s.view(PLAYER).world.log.filter((l) => l.kind === 'countdown.outcomeEntered');
    expect(log.map((l) => l.text)).toEqual(['A roll came out a success with Hope: the countdowns move.']);
  });
});
