// The Daggerheart panels' helpers (a Node test of the web lib): the last roll
// as a viewer may see it (never an undone one, never a hidden difficulty), a
// request in words, and the odds lines a phone shows before rolling.
import { describe, expect, it } from 'vitest';
import type { TransactionView } from '@tablekeeper/engine';
import type { RollRequest } from '@tablekeeper/rulesets/browser';
import { adversaryMoves, againstWords, conflictLineUp, lastRoll, oddsLines, requestWords, rollFoes } from '../packages/web/src/lib/daggerheart.ts';

const roll = (seq: number, characterId: string, hope: number, fear: number, hidden = false): TransactionView => ({
  seq,
  kind: 'command',
  actor: { role: 'gm' },
  label: 'make the requested roll',
  events: [
    hidden
      ? { type: 'daggerheart.actionRollShown', characterId, label: 'an Agility roll', roll: { hope, fear, advantageDice: [], advantageSign: 0, modifier: 2, total: hope + fear + 2, outcome: 'failureWithHope' } }
      : { type: 'daggerheart.actionRolled', characterId, label: '', hidden: false, roll: { hope, fear, advantageDice: [4], advantageSign: 1, modifier: 0, total: hope + fear + 4, difficulty: 13, outcome: 'successWithFear' } },
  ],
});

describe('lastRoll', () => {
  it('is the newest roll still live: an undone one is skipped, a redone one counts again', () => {
    const h: TransactionView[] = [roll(1, 'a', 3, 9), roll(2, 'b', 10, 2, true)];
    expect(lastRoll(h)).toMatchObject({ seq: 2, characterId: 'b', hope: 10, fear: 2, difficulty: null, outcome: 'failureWithHope' });
    const undone = [...h, { seq: 3, kind: 'undo', actor: { role: 'gm' }, label: 'undo', target: 2, events: [] } as TransactionView];
    expect(lastRoll(undone)).toMatchObject({ seq: 1, hope: 3, fear: 9, difficulty: 13, advantageDice: [4] });
    const redone = [...undone, { seq: 4, kind: 'redo', actor: { role: 'gm' }, label: 'redo', target: 2, events: [] } as TransactionView];
    expect(lastRoll(redone)?.seq).toBe(2);
    expect(lastRoll(h, 'a')?.seq).toBe(1);
    expect(lastRoll([])).toBeNull();
  });
});

describe('requestWords and oddsLines', () => {
  const base: RollRequest = { id: 'req-3', characterId: 'c', trait: 'agility', modifier: 2, difficulty: 15, hidden: false, advantage: 1, experience: null, label: '' };
  it('says the trait, modifier, difficulty (or that it is hidden) and advantage', () => {
    expect(requestWords(base)).toBe('Agility roll +2 vs 15 · advantage');
    expect(requestWords({ ...base, difficulty: null, hidden: true, advantage: 0, modifier: -1 })).toBe('Agility roll −1 · difficulty hidden');
    expect(requestWords({ ...base, label: 'Climb', advantage: -1 })).toBe('Agility roll (Climb) +2 vs 15 · disadvantage');
    // The player's own ask keeps its trait beside their words (review 7).
    expect(requestWords({ ...base, trait: 'finesse', label: 'cut the rope bridge', modifier: 1, difficulty: null, advantage: 0, awaiting: true })).toBe('Finesse roll (cut the rope bridge) +1 · the GM sets the difficulty');
    expect(requestWords({ ...base, trait: '', label: 'Climb', advantage: 0 })).toBe('Climb +2 vs 15');
  });
  it('lists every outcome as a percentage, or only the dice-only odds when the difficulty is hidden', () => {
    const lines = oddsLines({ hidden: false, success: 0.5, outcomes: { critical: 1 / 12, successWithHope: 0.25, successWithFear: 1 / 6, failureWithHope: 0.2, failureWithFear: 0.3 } });
    expect(lines).toEqual(['Success 50.0%', 'Critical success 8.3%', 'Success with Hope 25.0%', 'Success with Fear 16.7%', 'Failure with Hope 20.0%', 'Failure with Fear 30.0%']);
    expect(oddsLines({ hidden: true, critical: 12 / 144, withHope: 66 / 144, withFear: 66 / 144 })).toEqual(['With Hope 45.8%', 'With Fear 45.8%', 'Critical 8.3%', 'Success: the GM keeps the difficulty secret']);
  });
});

describe('adversaryMoves', () => {
  it("reads an adversary's moves with its countdown's value; a countdown this view cannot read, or none, shows no value", () => {
    const world = {
      ext: { countdowns: { order: ['cd-1', 'cd-2'], countdowns: { 'cd-1': { id: 'cd-1', name: 'Wolf: Pounce', value: 2, start: 3 }, 'cd-2': { id: 'cd-2', name: 'Wolf: Howl', visibility: 'existence', redacted: true } } } },
    };
    const wolf = { id: 'ch-1', name: 'Wolf 1', kind: 'npc', stats: { adversary: true, moves: [{ name: 'Pounce', text: 'leaps', countdownId: 'cd-1' }, { name: 'Howl', text: '', countdownId: 'cd-2' }, { name: 'Bite', text: '', countdownId: null }, 'junk'] } };
    expect(adversaryMoves(world as never, wolf as never)).toEqual([
      { name: 'Pounce', text: 'leaps', countdown: { name: 'Wolf: Pounce', value: 2, start: 3 } },
      { name: 'Howl', text: '', countdown: null },
      { name: 'Bite', text: '', countdown: null },
    ]);
    expect(adversaryMoves(world as never, { ...wolf, stats: {} } as never)).toEqual([]);
  });
});

describe('conflictLineUp', () => {
  it('the next conflict leaves out adversaries with every HP slot marked, and names them', () => {
    const ch = (id: string, kind: string, stats: object) => ({ id, name: id, kind, stats });
    const world = {
      rulesetId: 'daggerheart',
      settings: {},
      ext: {},
      characters: { kira: ch('kira', 'pc', {}), imp1: ch('imp1', 'npc', { adversary: true, hpMax: 1, hpMarked: 1 }), imp2: ch('imp2', 'npc', { adversary: true, hpMax: 3, hpMarked: 2 }), npc: ch('npc', 'npc', {}) },
    };
    const l = conflictLineUp(world as never);
    expect(l.everyone.map((c) => c.id)).toEqual(['kira', 'imp2']);
    expect(l.leftOut).toEqual(['imp1']);
    expect(l.carried).toEqual([]);
  });

  it("after a conflict, its standing adversaries are carried (offered unticked), the ones added since are not, the fallen are left out", () => {
    const ch = (id: string, kind: string, stats: object) => ({ id, name: id, kind, stats });
    const cb = (id: string) => ({ id: `c-${id}`, name: id, kind: 'npc', characterId: id });
    const characters = {
      kira: ch('kira', 'pc', {}),
      imp1: ch('imp1', 'npc', { adversary: true, hpMax: 1, hpMarked: 1 }),
      imp2: ch('imp2', 'npc', { adversary: true, hpMax: 3, hpMarked: 2 }),
      shade: ch('shade', 'npc', { adversary: true, hpMax: 3, hpMarked: 0 }),
      wolf: ch('wolf', 'npc', { adversary: true, hpMax: 2, hpMarked: 0 }),
    };
    const fought = ['kira', 'imp1', 'imp2', 'shade'];
    const encounter = (active: boolean) => ({ active, roster: fought.map((id) => `c-${id}`), combatants: Object.fromEntries(fought.map((id) => [`c-${id}`, cb(id)])) });
    const world = (active: boolean) => ({ rulesetId: 'daggerheart', settings: {}, characters, ext: { encounter: encounter(active) } });
    const ended = conflictLineUp(world(false) as never);
    expect(ended.everyone.map((c) => c.id)).toEqual(['kira', 'imp2', 'shade', 'wolf']);
    expect(ended.carried).toEqual(['imp2', 'shade']);
    expect(ended.leftOut).toEqual(['imp1']);
    // While a conflict runs nothing is carried yet (the board shows no line-up then).
    expect(conflictLineUp(world(true) as never).carried).toEqual([]);
  });
});


describe('rollFoes and againstWords', () => {
  const ch = (id: string, kind: string, stats: object) => ({ id, name: id, kind, stats });
  const cb = (id: string, kind: string, visibility: string) => ({ id, name: id === 'shade' ? 'Shade' : id, kind, characterId: id, visibility });
  const world = (active: boolean) => ({
    rulesetId: 'daggerheart',
    settings: {},
    characters: {
      kira: ch('kira', 'pc', { difficulty: 9 }),
      imp1: ch('imp1', 'npc', { adversary: true, difficulty: 11, hpMax: 2, hpMarked: 2 }),
      imp2: ch('imp2', 'npc', { adversary: true, difficulty: 11, hpMax: 2, hpMarked: 1 }),
      shade: ch('shade', 'npc', { adversary: true, difficulty: 13, hpMax: 3 }),
      odd: ch('odd', 'npc', { adversary: true, difficulty: 'hard' }),
    },
    ext: { encounter: { active, roster: ['kira', 'imp1', 'imp2', 'shade', 'odd'], combatants: { kira: cb('kira', 'pc', 'visible'), imp1: cb('imp1', 'npc', 'visible'), imp2: cb('imp2', 'npc', 'visible'), shade: cb('shade', 'npc', 'hidden'), odd: cb('odd', 'npc', 'visible') } } },
  });
  it("offers the conflict's standing adversaries with a Difficulty, in its order: not a PC, not one with every HP slot marked", () => {
    expect(rollFoes(world(true) as never)).toEqual([
      { id: 'imp2', name: 'imp2', difficulty: 11, named: true },
      { id: 'shade', name: 'Shade', difficulty: 13, named: false },
    ]);
    expect(rollFoes(world(false) as never)).toEqual([]);
  });
  it("names the foe in the request only when players see it by name (a hidden foe's name never reaches a phone)", () => {
    const [imp2, shade] = rollFoes(world(true) as never);
    expect(againstWords(imp2!)).toBe('against imp2');
    expect(againstWords(shade!)).toBe('');
  });
});
