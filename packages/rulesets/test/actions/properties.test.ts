// Property: the actions query never disagrees with the engine. For any run of
// the team game's one-tap actions (003's tables, paid through the kernel's
// economy), an action the query marks allowed is accepted when sent, and one
// it marks not allowed is refused, turn after turn.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { boudica, enemy, fight, sheetFor, table } from '../teams/helpers.js';

const GM: Viewer = { role: 'gm' };

describe('teams.actions agrees with the engine', () => {
  it('allowed one-tap actions are accepted and the others refused, over random runs of picks and turn ends', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(30), fc.constant(-1)), { minLength: 1, maxLength: 25 }), (picks) => {
        const { s } = table();
        sheetFor(s, 'b', boudica);
        sheetFor(s, 'e', enemy());
        fight(s, ['b'], ['e']);
        for (const pick of picks) {
          const enc = s.world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
          if (enc.pending !== null) {
            s.run({ type: 'encounter.choose', id: enc.pending.options[0]! });
            continue;
          }
          if (pick < 0 || enc.current === null) {
            s.run({ type: 'encounter.endTurn' });
            continue;
          }
          const r = s.engine.query(s.table, GM, 'teams.actions', { combatantId: enc.current });
          expect(r.ok).toBe(true);
          // One-tap actions: a plain spend, or teams.act with nothing to pick (Guard, Move...).
          const spends = ((r as { value: Json }).value as unknown as ActionsAnswer).actions.filter((a) => a.command === 'encounter.spend' || (a.command === 'teams.act' && a.target === null && a.choices.length === 0));
          const a = spends[pick % spends.length]!;
          let accepted = true;
          try {
            s.run({ type: a.command, ...a.fixed });
          } catch {
            accepted = false;
          }
          expect(accepted, `${a.label}: allowed ${a.allowed} (${a.reason ?? ''})`).toBe(a.allowed);
        }
      }),
      { numRuns: 60 },
    );
  });
});
