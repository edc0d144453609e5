// The builder's line-up kept per table on this device, and its "reveal when it acts" marks, without a DOM (ADR 73).
import { describe, expect, it } from 'vitest';
import { clearLineup, keepLineup, keepStarted, lastEnded, lineupKey, readKept, readLineup, revealMarks, startedKey, takeStarted, type LineupStore } from '../packages/web/src/lib/builderDraft.ts';
import { draftsFrom, initiativeOf, type Draft } from '../packages/web/src/lib/initiative.ts';

function memory(): LineupStore & { readonly data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

let n = 0;
const rows = (name: string, hidden: boolean, reveal: boolean): Draft[] => {
  const d = draftsFrom(initiativeOf('osr'), { name, kind: 'npc', character: null, hp: '7', hidden, revealWhenActs: reveal, init: { dex: '12' } }, (k) => `${k}-${++n}`);
  if (!d.ok) throw new Error(d.message);
  return d.value;
};

describe('the builder line-up kept on this device', () => {
  it('reads back what was kept, per table; another table keeps its own', () => {
    const s = memory();
    const a = [...rows('Goblin x3', false, false), ...rows('Lurker', true, true)];
    keepLineup(s, 't1', a);
    keepLineup(s, 't2', rows('Wolf', false, false));
    expect(readLineup(s, 't1')).toEqual(a);
    expect(readLineup(s, 't2')!.map((d) => d.name)).toEqual(['Wolf']);
    expect(readLineup(s, 't3')).toBeNull();
  });

  it('cleared when the fight starts, and an empty line-up is forgotten', () => {
    const s = memory();
    keepLineup(s, 't1', rows('Goblin', false, false));
    clearLineup(s, 't1');
    expect(readLineup(s, 't1')).toBeNull();
    keepLineup(s, 't1', rows('Goblin', false, false));
    keepLineup(s, 't1', []);
    expect(s.data.has(lineupKey('t1'))).toBe(false);
  });

  it('a started line-up is set aside: an undone start gets it back with its options, once (review 12 #3)', () => {
    const s = memory();
    const a = [...rows('Goblin x2', false, false), ...rows('Lurker', true, true)];
    keepLineup(s, 't1', a);
    // Started after encounter 1 ended: the draft goes, the line-up waits aside.
    keepStarted(s, 't1', a, { grouping: 'type', reroll: true }, 1);
    expect(readKept(s, 't1')).toBeNull();
    // Undo: the last ended encounter is still number 1, so the builder opens on the goblins and the Lurker.
    expect(takeStarted(s, 't1', 1)).toEqual({ rows: a, options: { grouping: 'type', reroll: true } });
    // It is a draft again (a reload keeps it) and read only once.
    expect(readKept(s, 't1')).toEqual({ rows: a, options: { grouping: 'type', reroll: true } });
    expect(s.data.has(startedKey('t1'))).toBe(false);
    expect(takeStarted(s, 't1', 1)).toBeNull();
  });

  it('a fight that ended forgets its started line-up: the next builder starts from the party', () => {
    const s = memory();
    keepStarted(s, 't1', rows('Goblin', false, false), {}, 0);
    expect(takeStarted(s, 't1', 1)).toBeNull();
    expect(s.data.has(startedKey('t1'))).toBe(false);
    expect(readKept(s, 't1')).toBeNull();
    // Garbage aside is no line-up and never throws.
    s.setItem(startedKey('t2'), '{"after":0,"rows":[{"id":1}]}');
    expect(takeStarted(s, 't2', 0)).toBeNull();
    s.setItem(startedKey('t2'), 'not json');
    expect(takeStarted(s, 't2', 0)).toBeNull();
  });

  it('the last ended encounter: 0 before any fight, its number after one (1 when an old state has none)', () => {
    expect(lastEnded(null)).toBe(0);
    expect(lastEnded({ roster: [] })).toBe(0);
    expect(lastEnded({ roster: ['a'] })).toBe(1);
    expect(lastEnded({ roster: ['a'], number: 3 })).toBe(3);
  });

  it('what storage holds is read field by field: broken rows are dropped, garbage is no line-up, nothing throws', () => {
    const s = memory();
    const good = rows('Orc', false, false)[0]!;
    s.setItem(lineupKey('t1'), JSON.stringify([good, { id: 'x' }, null, { ...good, id: 'y', kind: 'dragon' }, { ...good, id: 'z', hp: 'lots' }]));
    expect(readLineup(s, 't1')).toEqual([good]);
    s.setItem(lineupKey('t1'), '{not json');
    expect(readLineup(s, 't1')).toBeNull();
    s.setItem(lineupKey('t1'), JSON.stringify({ rows: [] }));
    expect(readLineup(s, 't1')).toBeNull();
    const broken: LineupStore = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('full'); }, removeItem: () => { throw new Error('denied'); } };
    expect(readLineup(broken, 't1')).toBeNull();
    expect(() => keepLineup(broken, 't1', [good])).not.toThrow();
    expect(readLineup(null, 't1')).toBeNull();
  });

  it('keeps the initiative options chosen with the line-up (ADR 81): only what the GM chose, read field by field', () => {
    const s = memory();
    const a = rows('Goblin x2', false, false);
    keepLineup(s, 't1', a, { reroll: true, grouping: 'type', initiating: 'Wolves' });
    expect(readKept(s, 't1')).toEqual({ rows: a, options: { reroll: true, grouping: 'type', initiating: 'Wolves' } });
    // An unticked re-roll is a choice too (it overrides a table setting that is on).
    keepLineup(s, 't1', a, { reroll: false });
    expect(readKept(s, 't1')!.options).toEqual({ reroll: false });
    // Options alone (every row taken off) are still kept; nothing at all is forgotten.
    keepLineup(s, 't1', [], { grouping: 'side' });
    expect(readKept(s, 't1')).toEqual({ rows: [], options: { grouping: 'side' } });
    expect(readLineup(s, 't1')).toBeNull();
    keepLineup(s, 't1', [], {});
    expect(s.data.has(lineupKey('t1'))).toBe(false);
    // What storage holds that is not an option is dropped; a bare list kept before options has none.
    s.setItem(lineupKey('t1'), JSON.stringify({ rows: a, options: { reroll: 'yes', grouping: 'dragons', initiating: 3, extra: true } }));
    expect(readKept(s, 't1')).toEqual({ rows: a, options: {} });
    s.setItem(lineupKey('t1'), JSON.stringify(a));
    expect(readKept(s, 't1')).toEqual({ rows: a, options: {} });
    // The surprise round's choice keeps who cannot be surprised (003), ids only.
    keepLineup(s, 't1', a, { surprise: { side: 'Goblins', actors: [], unsurprised: ['kira'] } });
    expect(readKept(s, 't1')!.options).toEqual({ surprise: { side: 'Goblins', actors: [], unsurprised: ['kira'] } });
    s.setItem(lineupKey('t1'), JSON.stringify({ rows: a, options: { surprise: { side: 'Goblins', actors: [], unsurprised: ['kira', 7] } } }));
    expect(readKept(s, 't1')!.options).toEqual({ surprise: { side: 'Goblins', actors: [], unsurprised: ['kira'] } });
  });

  it('a visible row never keeps a reveal mark, even if storage says so', () => {
    const s = memory();
    const visible = rows('Orc', false, true)[0]!;
    expect(visible.revealWhenActs).toBeUndefined();
    s.setItem(lineupKey('t1'), JSON.stringify([{ ...visible, revealWhenActs: true }]));
    expect(readLineup(s, 't1')![0]!.revealWhenActs).toBeUndefined();
  });

  it("a foe's Edge Save group picked in the builder (1-4) is kept; anything else is dropped, and a PC keeps none", () => {
    const s = memory();
    const [orc, bat] = rows('Orc x2', false, false) as [Draft, Draft];
    keepLineup(s, 't1', [{ ...orc, edgeGroup: 3 }, bat]);
    expect(readLineup(s, 't1')!.map((d) => d.edgeGroup)).toEqual([3, undefined]);
    s.setItem(lineupKey('t1'), JSON.stringify([{ ...orc, edgeGroup: 5 }, { ...bat, edgeGroup: 1.5 }, { ...orc, id: 'pc-1', kind: 'pc', edgeGroup: 2 }]));
    expect(readLineup(s, 't1')!.map((d) => d.edgeGroup)).toEqual([undefined, undefined, undefined]);
  });
});

describe('reveal when it acts, from the builder line', () => {
  it('one mark per hidden row that asks for it, by the row id the start gives the combatant', () => {
    const lurkers = rows('Lurker x2', true, true);
    const plain = rows('Shade', true, false);
    const seen = rows('Goblin', false, false);
    expect(revealMarks([...lurkers, ...plain, ...seen])).toEqual(lurkers.map((d) => ({ type: 'revealWhenActs.set', characterId: d.id, on: true })));
    expect(revealMarks([...plain, ...seen])).toEqual([]);
  });
});
