// The table's bestiary and encounter templates (issue 20): saved by events,
// undoable, replayed, and the GM's alone (default-deny projection, GM-only
// audiences). Stat blocks are checked against the ruleset's schema.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bestiaryIn, bestiaryModule, bestiaryOf, MAX_ENTRIES, MAX_IMPORT } from '../../src/bestiary/index.js';
import { int, text } from '../../src/core/catalog.js';
import { scenario } from '../../src/core/testing.js';
import type { Command, Transaction, Viewer } from '../../src/core/types.js';

const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const SPECTATOR: Viewer = { role: 'spectator' };

// A stat block like a ruleset's: hit points and a DEX score with limits.
const block = z.strictObject({ hp: int(1, 10000).optional(), dex: int(1, 30).optional(), damage: text(40).optional() });

function table() {
  const s = scenario([bestiaryModule(block as never)], { seed: 7 });
  s.run({ type: 'seat.add', name: 'Ann' });
  return s;
}

const eventsOf = (tx: Transaction) => (tx.kind === 'command' ? tx.events : []);
const minted = (tx: Transaction, key: 'entry' | 'template'): string => (eventsOf(tx)[0]![key] as { id: string }).id;

describe('bestiary.save', () => {
  it('keeps a stat block under a fresh id and logs it for the GM only', () => {
    const s = table();
    const id = minted(s.run({ type: 'bestiary.save', name: 'Goblin', notes: 'Cowardly.', block: { hp: 7, dex: 14 } }), 'entry');
    expect(bestiaryOf(s.world.ext).entries[id]).toEqual({ id, name: 'Goblin', notes: 'Cowardly.', block: { hp: 7, dex: 14 } });
    expect(s.world.log.at(-1)).toMatchObject({ audience: { kind: 'gm' }, text: 'Goblin is in the bestiary.' });
  });

  it('replaces the entry named by id, and undo brings the old one back', () => {
    const s = table();
    const id = minted(s.run({ type: 'bestiary.save', name: 'Goblin', block: { hp: 7 } }), 'entry');
    s.run({ type: 'bestiary.save', id, name: 'Goblin boss', block: { hp: 15 } });
    expect(Object.keys(bestiaryOf(s.world.ext).entries)).toEqual([id]);
    expect(bestiaryOf(s.world.ext).entries[id]!.block).toEqual({ hp: 15 });
    s.undo();
    expect(bestiaryOf(s.world.ext).entries[id]).toMatchObject({ name: 'Goblin', block: { hp: 7 } });
  });

  it("refuses a field outside the ruleset's stat block, or out of its range, naming the path", () => {
    const s = table();
    expect(s.fail({ type: 'bestiary.save', name: 'Goblin', block: { hp: 0 } })).toMatchObject({ code: 'INVALID_VALUE', path: 'block.hp' });
    expect(s.fail({ type: 'bestiary.save', name: 'Goblin', block: { str: 12 } })).toMatchObject({ code: 'INVALID_VALUE', path: 'block.str' });
    expect(s.fail({ type: 'bestiary.save', name: '   ', block: {} })).toMatchObject({ code: 'INVALID_VALUE', path: 'name' });
    expect(s.fail({ type: 'bestiary.save', id: 'be-nothing', name: 'Goblin', block: {} })).toMatchObject({ code: 'NOT_FOUND', path: 'id' });
  });

  it('refuses players and spectators: the bestiary is the GM’s', () => {
    const s = table();
    expect(s.fail({ type: 'bestiary.save', name: 'Goblin', block: {} }, ANN).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'bestiary.import', entries: [{ name: 'Goblin', block: {} }] }, SPECTATOR).code).toBe('FORBIDDEN');
  });
});

describe('bestiary.import and remove', () => {
  it('adds every entry of a file under new ids in one undo step', () => {
    const s = table();
    const tx = s.run({ type: 'bestiary.import', entries: [{ name: 'Goblin', block: { hp: 7 } }, { name: 'Goblin', notes: 'A second one.', block: { hp: 9 } }] });
    const ids = (eventsOf(tx)[0]!['entries'] as { id: string }[]).map((e) => e.id);
    expect(new Set(ids).size).toBe(2);
    expect(Object.values(bestiaryOf(s.world.ext).entries).map((e) => e.block['hp'])).toEqual([7, 9]);
    expect(s.world.log.at(-1)!.text).toBe('2 stat blocks added to the bestiary.');
    s.undo();
    expect(bestiaryOf(s.world.ext).entries).toEqual({});
  });

  it(`holds at most ${MAX_ENTRIES} entries, and a file of at most ${MAX_IMPORT}`, () => {
    const s = table();
    const many = Array.from({ length: MAX_IMPORT }, (_, i) => ({ name: `Foe ${i}`, block: {} }));
    s.run({ type: 'bestiary.import', entries: many });
    s.run({ type: 'bestiary.import', entries: many });
    expect(s.fail({ type: 'bestiary.import', entries: [{ name: 'One more', block: {} }] })).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'entries' });
    expect(s.fail({ type: 'bestiary.save', name: 'One more', block: {} }).code).toBe('LIMIT_EXCEEDED');
    expect(s.fail({ type: 'bestiary.import', entries: [...many, { name: 'x', block: {} }] })).toMatchObject({ code: 'INVALID_VALUE', path: 'entries' });
  });

  it('removes an entry; an unknown id is NOT_FOUND', () => {
    const s = table();
    const id = minted(s.run({ type: 'bestiary.save', name: 'Goblin', block: {} }), 'entry');
    s.run({ type: 'bestiary.remove', id });
    expect(bestiaryOf(s.world.ext).entries).toEqual({});
    expect(s.fail({ type: 'bestiary.remove', id })).toMatchObject({ code: 'NOT_FOUND', path: 'id' });
  });
});

describe('encounter templates', () => {
  const line = { name: 'Goblin', count: 6, kind: 'npc', hidden: true, hp: 7, init: { dex: 14 } } as const;

  it('saves a line-up, replaces it by id and removes it', () => {
    const s = table();
    const id = minted(s.run({ type: 'bestiary.saveTemplate', name: 'Ambush', lines: [line, { name: 'Ann', count: 1, kind: 'pc', hidden: false }] }), 'template');
    expect(bestiaryOf(s.world.ext).templates[id]!.lines).toHaveLength(2);
    s.run({ type: 'bestiary.saveTemplate', id, name: 'Ambush', lines: [line] });
    expect(bestiaryOf(s.world.ext).templates[id]!.lines).toEqual([line]);
    s.run({ type: 'bestiary.removeTemplate', id });
    expect(bestiaryOf(s.world.ext).templates).toEqual({});
  });

  it('refuses a template of more than 200 combatants and a group of more than 50', () => {
    const s = table();
    const five = Array.from({ length: 5 }, () => ({ ...line, count: 50 }));
    expect(s.fail({ type: 'bestiary.saveTemplate', name: 'Horde', lines: five })).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'lines' });
    expect(s.fail({ type: 'bestiary.saveTemplate', name: 'Horde', lines: [{ ...line, count: 51 }] })).toMatchObject({ code: 'INVALID_VALUE', path: 'lines.0.count' });
  });
});

describe('secrecy', () => {
  it('never reaches a player or a spectator: not in the world, the log or the history', () => {
    const s = table();
    s.run({ type: 'bestiary.save', name: 'Secret dragon', notes: 'Lairs under the inn.', block: { hp: 300 } });
    s.run({ type: 'bestiary.saveTemplate', name: 'Dragon ambush', lines: [{ name: 'Secret dragon', count: 1, kind: 'npc', hidden: true }] });
    for (const v of [ANN, SPECTATOR]) {
      const text = JSON.stringify(s.view(v));
      expect(text).not.toContain('dragon');
      expect(text).not.toContain('bestiary');
      expect(s.view(v).world.ext['bestiary']).toBeUndefined();
    }
    expect(JSON.stringify(s.view(GM))).toContain('Secret dragon');
  });

  it("bestiaryIn (the web's reader, issue 17) gives the GM's view its stat blocks and templates, and a player's or spectator's view nothing", () => {
    const s = table();
    const id = minted(s.run({ type: 'bestiary.save', name: 'Goblin', block: { hp: 7 } }), 'entry');
    s.run({ type: 'bestiary.saveTemplate', name: 'Ambush', lines: [{ name: 'Goblin', count: 3, kind: 'npc', hidden: true }] });
    const gm = bestiaryIn(s.view(GM).world);
    expect(gm.entries[id]).toMatchObject({ id, name: 'Goblin', block: { hp: 7 } });
    expect(Object.values(gm.templates).map((t) => t.name)).toEqual(['Ambush']);
    for (const v of [ANN, SPECTATOR]) expect(bestiaryIn(s.view(v).world)).toEqual({ entries: {}, templates: {} });
  });

  it('property: after any sequence of saves, imports, removals, undo and redo, only the GM holds it, and replay rebuilds it', () => {
    const step = fc.oneof(
      fc.record({ k: fc.constant('save' as const), hp: fc.integer({ min: 1, max: 10000 }) }),
      fc.record({ k: fc.constant('import' as const), n: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ k: fc.constant('remove' as const), i: fc.nat() }),
      fc.record({ k: fc.constant('template' as const), n: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ k: fc.constant('undo' as const) }),
      fc.record({ k: fc.constant('redo' as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const s = table();
        for (const st of steps) {
          const ids = Object.keys(bestiaryOf(s.world.ext).entries);
          const c: Command =
            st.k === 'save'
              ? { type: 'bestiary.save', name: 'Hidden thing', block: { hp: st.hp } }
              : st.k === 'import'
                ? { type: 'bestiary.import', entries: Array.from({ length: st.n }, () => ({ name: 'Hidden thing', block: {} })) }
                : st.k === 'remove'
                  ? { type: 'bestiary.remove', id: ids[st.i % Math.max(1, ids.length)] ?? 'be-none' }
                  : st.k === 'template'
                    ? { type: 'bestiary.saveTemplate', name: 'Hidden plan', lines: [{ name: 'Hidden thing', count: st.n, kind: 'npc', hidden: true }] }
                    : { type: st.k === 'undo' ? 'history.undo' : 'history.redo' };
          const r = s.engine.execute(s.table, c, { rng: s.rng, actor: GM });
          if (r.ok) s.table = r.value.table;
          for (const v of [ANN, SPECTATOR]) expect(JSON.stringify(s.view(v))).not.toMatch(/Hidden|bestiary/);
        }
        const again = s.engine.replay(s.table.genesis, JSON.parse(JSON.stringify(s.table.transactions)) as never);
        expect(again.world).toEqual(s.world);
      }),
      { numRuns: 150 },
    );
  });
});
