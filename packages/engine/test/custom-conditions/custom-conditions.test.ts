// The table's own conditions (issue 20, ADR 71): saved, edited and removed by
// the GM as events (undo, replay), seen by everyone at the table, refused with
// the field named when the input is wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../src/core/testing.js';
import type { Command, Transaction, Viewer } from '../../src/core/types.js';
import { customConditionsModule, customConditionsOf, MAX_SAVED_CONDITIONS, savedConditionId, savedConditions } from '../../src/custom-conditions/index.js';

const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const SPECTATOR: Viewer = { role: 'spectator' };

function table() {
  const s = scenario([customConditionsModule], { seed: 11 });
  s.run({ type: 'seat.add', name: 'Ann' });
  return s;
}
const idOf = (tx: Transaction): string => ((tx.kind === 'command' ? tx.events[0]!['condition'] : null) as { id: string }).id;
const marked = { type: 'customCondition.save', name: 'Marked by the Duke', description: 'The Duke’s hounds find you.', duration: { kind: 'rounds', rounds: 3 } } as const;

describe('customCondition.save', () => {
  it('keeps the name, description and usual duration under a fresh id, logged for everyone', () => {
    const s = table();
    const id = idOf(s.run(marked));
    expect(customConditionsOf(s.world).saved[id]).toEqual({ id, name: 'Marked by the Duke', description: 'The Duke’s hounds find you.', duration: { kind: 'rounds', rounds: 3 } });
    expect(s.world.log.at(-1)).toMatchObject({ audience: { kind: 'all' }, text: '"Marked by the Duke" is now one of this table\'s conditions.' });
  });

  it('edits the one named by id; undo brings the old one back, redo the new', () => {
    const s = table();
    const id = idOf(s.run(marked));
    s.run({ type: 'customCondition.save', id, name: 'Marked by the Duchess', duration: { kind: 'turnEnd' } });
    expect(savedConditions(s.world)).toEqual([{ id, name: 'Marked by the Duchess', description: '', duration: { kind: 'turnEnd' } }]);
    expect(s.world.log.at(-1)!.text).toBe('The table\'s condition "Marked by the Duchess" was changed.');
    s.undo();
    expect(savedConditions(s.world).map((c) => c.name)).toEqual(['Marked by the Duke']);
    s.redo();
    expect(savedConditions(s.world).map((c) => c.name)).toEqual(['Marked by the Duchess']);
  });

  it('refuses a blank or long name, a second condition of the same name, a bad duration and an unknown id, naming the field', () => {
    const s = table();
    s.run(marked);
    expect(s.fail({ ...marked, name: '   ' })).toMatchObject({ code: 'INVALID_VALUE', path: 'name' });
    expect(s.fail({ ...marked, name: 'x'.repeat(41) })).toMatchObject({ code: 'INVALID_VALUE', path: 'name' });
    const twin = s.fail({ ...marked, name: '  marked BY  the duke ' });
    expect(twin).toMatchObject({ code: 'INVALID_VALUE', path: 'name' });
    expect(twin.message).toContain('already has a condition named "Marked by the Duke"');
    expect(s.fail({ ...marked, name: 'Soaked', duration: { kind: 'rounds', rounds: 0 } })).toMatchObject({ code: 'INVALID_VALUE', path: 'duration.rounds' });
    expect(s.fail({ ...marked, name: 'Soaked', duration: { kind: 'forever' } }).path).toBe('duration.kind');
    expect(s.fail({ ...marked, id: 'sc-nothing' })).toMatchObject({ code: 'NOT_FOUND', path: 'id' });
  });

  it('keeps spacing tidy: runs of spaces in a name become one', () => {
    const s = table();
    const id = idOf(s.run({ ...marked, name: ' Soaked   to the  bone ' }));
    expect(customConditionsOf(s.world).saved[id]!.name).toBe('Soaked to the bone');
  });

  it(`holds at most ${MAX_SAVED_CONDITIONS}; replacing one still works when full`, () => {
    const s = table();
    let last = '';
    for (let i = 0; i < MAX_SAVED_CONDITIONS; i++) last = idOf(s.run({ ...marked, name: `Mark ${i}` }));
    expect(s.fail({ ...marked, name: 'One more' })).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'name' });
    s.run({ ...marked, id: last, name: 'Renamed' });
    expect(savedConditions(s.world)).toHaveLength(MAX_SAVED_CONDITIONS);
  });

  it('is the GM’s to save and remove; players and spectators are refused', () => {
    const s = table();
    const id = idOf(s.run(marked));
    expect(s.fail(marked, ANN).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'customCondition.remove', id }, SPECTATOR).code).toBe('FORBIDDEN');
  });
});

describe('customCondition.remove', () => {
  it('takes it off the list, logged; undo puts it back; an unknown id is NOT_FOUND', () => {
    const s = table();
    const id = idOf(s.run(marked));
    s.run({ type: 'customCondition.remove', id });
    expect(savedConditions(s.world)).toEqual([]);
    expect(s.world.log.at(-1)!.text).toBe('"Marked by the Duke" is no longer one of this table\'s conditions.');
    expect(s.fail({ type: 'customCondition.remove', id })).toMatchObject({ code: 'NOT_FOUND', path: 'id' });
    s.undo();
    expect(savedConditions(s.world).map((c) => c.id)).toEqual([id]);
  });
});

describe('who sees it', () => {
  it('players and spectators see the same list as the GM (their pickers offer it), sorted by name', () => {
    const s = table();
    s.run({ ...marked, name: 'Soaked' });
    s.run(marked);
    for (const v of [GM, ANN, SPECTATOR]) expect(savedConditions(s.view(v).world).map((c) => c.name)).toEqual(['Marked by the Duke', 'Soaked']);
  });

  it('names the id an applied saved condition carries: the kernel’s custom prefix', () => {
    expect(savedConditionId('Soaked')).toBe('custom:Soaked');
  });
});

describe('property', () => {
  it('after any saves, edits, removals, undo and redo: names stay unique ignoring case, the list is within its limit, and replay rebuilds the world', () => {
    const names = ['Soaked', 'soaked', 'Marked', 'Hexed', 'Blessed', 'Cursed'];
    const step = fc.oneof(
      fc.record({ k: fc.constant('save' as const), n: fc.nat(names.length - 1), r: fc.integer({ min: 1, max: 10 }) }),
      fc.record({ k: fc.constant('edit' as const), i: fc.nat(), n: fc.nat(names.length - 1) }),
      fc.record({ k: fc.constant('remove' as const), i: fc.nat() }),
      fc.record({ k: fc.constant('undo' as const) }),
      fc.record({ k: fc.constant('redo' as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const s = table();
        for (const st of steps) {
          const ids = Object.keys(customConditionsOf(s.world).saved);
          const pick = (i: number) => ids[i % Math.max(1, ids.length)] ?? 'sc-none';
          const c: Command =
            st.k === 'save'
              ? { type: 'customCondition.save', name: names[st.n]!, duration: { kind: 'rounds', rounds: st.r } }
              : st.k === 'edit'
                ? { type: 'customCondition.save', id: pick(st.i), name: names[st.n]!, duration: { kind: 'indefinite' } }
                : st.k === 'remove'
                  ? { type: 'customCondition.remove', id: pick(st.i) }
                  : { type: st.k === 'undo' ? 'history.undo' : 'history.redo' };
          const r = s.engine.execute(s.table, c, { rng: s.rng, actor: GM });
          if (r.ok) s.table = r.value.table;
          const list = savedConditions(s.world);
          expect(new Set(list.map((x) => x.name.toLowerCase())).size).toBe(list.length);
          expect(list.length).toBeLessThanOrEqual(MAX_SAVED_CONDITIONS);
          expect(savedConditions(s.view(ANN).world)).toEqual(list);
        }
        const again = s.engine.replay(s.table.genesis, JSON.parse(JSON.stringify(s.table.transactions)) as never);
        expect(again.world).toEqual(s.world);
      }),
      { numRuns: 150 },
    );
  });
});
