// Trackers at the table (issue 21): damage against thresholds with an Armor
// Slot, Stress and its overflow, Fear caps and visibility, adversary groups
// with a loop countdown, and rests with downtime moves and long-term ticks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getCountdowns, type Json } from '@tablekeeper/engine';
import { armored, severityOf } from '../../src/daggerheart/index.js';
import { groupNumberAfter } from '../../src/daggerheart/trackers.js';
import { DhTable, GM, SPECTATOR, events, ofType, player } from './helpers.js';

function hero(stats: { [k: string]: Json } = {}, settings = {}) {
  // Hits land at once here; the player's Armor choice when hit is hit-choice.test.ts's (ADR 50).
  const t = new DhTable({ 'daggerheart.armorChoice': false, ...settings });
  const seat = t.seat('Ana');
  const other = t.seat('Bo');
  const pc = t.pc('Guardian', seat, { major: 7, severe: 14, hpMax: 6, armorMax: 2, stressMax: 6, ...stats });
  return { t, seat, other, pc };
}

const stat = (t: DhTable, id: string, key: string) => t.world.characters[id]!.stats[key];

describe('damage against the thresholds (published rule, setting-free; Major 7, Severe 14)', () => {
  it('6 marks 1 HP, 7 marks 2, 13 marks 2, 14 marks 3, 0 marks none', () => {
    expect([0, 6, 7, 13, 14, 40].map((n) => severityOf(n, { major: 7, severe: 14 }))).toEqual([0, 1, 2, 2, 3, 3]);
    const { t, pc } = hero();
    const marks: number[] = [];
    for (const amount of [6, 7, 13]) {
      const tx = t.run({ type: 'daggerheart.takeDamage', characterId: pc, amount });
      marks.push(Number(ofType(tx, 'daggerheart.damageTaken')[0]!['marks']));
    }
    expect(marks).toEqual([1, 2, 2]);
    expect(stat(t, pc, 'hpMarked')).toBe(5);
    // The last slot: a severe hit marks only what is left.
    t.run({ type: 'daggerheart.takeDamage', characterId: pc, amount: 14 });
    expect(stat(t, pc, 'hpMarked')).toBe(6);
  });

  it('an Armor Slot lowers the severity one step: 14 marks 2 HP, 3 marks none; with both slots marked, no armour is left', () => {
    expect([3, 2, 1, 0].map((s) => armored(s as 3 | 2 | 1 | 0))).toEqual([2, 1, 0, 0]);
    const { t, seat, pc } = hero();
    // The player chooses to mark Armor against a hit on their own PC.
    const tx = t.run({ type: 'daggerheart.takeDamage', characterId: pc, amount: 14, useArmor: true }, player(seat));
    expect(ofType(tx, 'daggerheart.damageTaken')[0]).toMatchObject({ severity: 3, marks: 2, armorUsed: true, armorFrom: 0, armorTo: 1, hpFrom: 0, hpTo: 2 });
    t.run({ type: 'daggerheart.takeDamage', characterId: pc, amount: 3, useArmor: true }, player(seat));
    expect([stat(t, pc, 'hpMarked'), stat(t, pc, 'armorMarked')]).toEqual([2, 2]);
    expect(t.fail({ type: 'daggerheart.takeDamage', characterId: pc, amount: 9, useArmor: true }, player(seat))).toMatchObject({ code: 'DH_NO_ARMOR', path: 'useArmor' });
  });

  it('massive damage (optional setting): twice Severe (28) marks 4 HP; off by default it marks 3', () => {
    expect(severityOf(28, { major: 7, severe: 14 }, true)).toBe(4);
    const on = hero({}, { 'daggerheart.massiveDamage': true });
    on.t.run({ type: 'daggerheart.takeDamage', characterId: on.pc, amount: 28 });
    expect(stat(on.t, on.pc, 'hpMarked')).toBe(4);
    const off = hero();
    off.t.run({ type: 'daggerheart.takeDamage', characterId: off.pc, amount: 28 });
    expect(stat(off.t, off.pc, 'hpMarked')).toBe(3);
  });

  it('a sheet without thresholds, a negative amount or another player\'s PC is refused with a typed error', () => {
    const { t, other, pc } = hero();
    const bare = t.pc('Bare', null, {});
    expect(t.fail({ type: 'daggerheart.takeDamage', characterId: bare, amount: 5 })).toMatchObject({ code: 'DH_NO_THRESHOLDS' });
    expect(t.fail({ type: 'daggerheart.takeDamage', characterId: pc, amount: -1 })).toMatchObject({ path: 'amount' });
    expect(t.fail({ type: 'daggerheart.takeDamage', characterId: pc, amount: 5 }, player(other)).code).toBe('FORBIDDEN');
  });
});

describe('Stress and Armor: players mark their own; HP is the GM\'s', () => {
  it('a player marks their own Stress but clears none (the GM does, review 13 #1); not HP, not someone else\'s; Stress past the last slot marks HP (stressOverflowMarksHp)', () => {
    const { t, seat, other, pc } = hero({ stressMarked: 5 });
    const clear = t.fail({ type: 'daggerheart.markTrack', characterId: pc, track: 'stress', amount: -2 }, player(seat));
    expect(clear).toMatchObject({ code: 'FORBIDDEN', path: 'amount' });
    expect(clear.message).toContain("clearing Stress is the GM's");
    expect(t.fail({ type: 'daggerheart.markTrack', characterId: pc, track: 'armor', amount: -1 }, player(seat)).code).toBe('FORBIDDEN');
    t.run({ type: 'daggerheart.markTrack', characterId: pc, track: 'stress', amount: -2 });
    expect(stat(t, pc, 'stressMarked')).toBe(3);
    t.run({ type: 'daggerheart.markTrack', characterId: pc, track: 'stress', amount: 1 }, player(seat));
    expect(stat(t, pc, 'stressMarked')).toBe(4);
    t.run({ type: 'daggerheart.markTrack', characterId: pc, track: 'stress', amount: -1 });
    expect(t.fail({ type: 'daggerheart.markTrack', characterId: pc, track: 'hp', amount: -1 }, player(seat)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.markTrack', characterId: pc, track: 'stress', amount: 1 }, player(other)).code).toBe('FORBIDDEN');
    const tx = t.run({ type: 'daggerheart.markTrack', characterId: pc, track: 'stress', amount: 5 });
    expect(ofType(tx, 'daggerheart.trackMarked').map((e) => [e['track'], e['from'], e['to']])).toEqual([
      ['stress', 3, 6],
      ['hp', 0, 2],
    ]);
    expect(t.fail({ type: 'daggerheart.markTrack', characterId: pc, track: 'armor', amount: -1 })).toMatchObject({ code: 'DH_TRACK_UNCHANGED' });
  });
});

describe('the GM\'s Fear (0-12 by default, a setting)', () => {
  it('gains stop at fearMax 12 and at a table\'s own cap of 5; spending more than there is is refused; reasons reach the log', () => {
    const t = new DhTable();
    t.run({ type: 'daggerheart.gainFear', amount: 11 });
    const tx = t.run({ type: 'daggerheart.gainFear', amount: 3, reason: 'the villain arrives' });
    expect(ofType(tx, 'daggerheart.fearGained')[0]).toMatchObject({ from: 11, to: 12, amount: 1, capped: true });
    expect(t.world.log.at(-1)!.text).toBe('The GM gains Fear (the villain arrives) (11 -> 12).');
    expect(t.fail({ type: 'daggerheart.spendFear', amount: 13 }).code).toBe('INVALID_VALUE');
    t.run({ type: 'daggerheart.spendFear', amount: 12, reason: 'a big move' });
    expect(t.fail({ type: 'daggerheart.spendFear', amount: 1 }).code).toBe('DH_NOT_ENOUGH_FEAR');
    const small = new DhTable({ 'daggerheart.fearMax': 5 });
    small.run({ type: 'daggerheart.gainFear', amount: 9 });
    expect(small.fear).toBe(5);
  });

  it('with fearVisible off, a player\'s and the spectator\'s views hold no Fear, though the GM\'s does', () => {
    const t = new DhTable({ 'daggerheart.fearVisible': false });
    const s = t.seat('Ana');
    t.run({ type: 'daggerheart.gainFear', amount: 4, reason: 'CANARY-fear' });
    for (const v of [player(s), SPECTATOR]) {
      const text = JSON.stringify(t.view(v));
      expect(text).not.toContain('CANARY-fear');
      expect((t.view(v).world.ext['daggerheart'] as { fear: unknown }).fear).toBeNull();
    }
    expect((t.view(GM).world.ext['daggerheart'] as { fear: unknown }).fear).toBe(4);
  });
});

describe('adversaries from a stat block', () => {
  it('a group of three Bandits with a Loop 2 move: three NPCs with the block\'s numbers, one hidden countdown for the group that loops on action rolls', () => {
    const t = new DhTable();
    const s = t.seat('Ana');
    const pc = t.pc('Rogue', s);
    const tx = t.run({
      type: 'daggerheart.addAdversaries',
      name: 'Bandit',
      count: 3,
      difficulty: 12,
      major: 6,
      severe: 11,
      hp: 4,
      stress: 2,
      attack: 1,
      damage: '1d8+1',
      moves: [{ name: 'CANARY-ambush', text: 'Everyone attacks at once', countdown: { start: 2, repeat: 'loop' } }],
    });
    const added = ofType(tx, 'character.added');
    expect(added.map((e) => e['name'])).toEqual(['Bandit 1', 'Bandit 2', 'Bandit 3']);
    expect(added[0]!['stats']).toMatchObject({ difficulty: 12, major: 6, severe: 11, hpMax: 4, hpMarked: 0, stressMax: 2, attack: 1, damage: '1d8+1' });
    const cdId = String(ofType(tx, 'countdown.created')[0]!['id']);
    expect(t.cd(cdId)).toMatchObject({ name: 'Bandit: CANARY-ambush', kind: 'standard', repeat: 'loop', value: 2, visibility: 'hidden' });
    // Their stats and the move's countdown stay with the GM.
    expect(JSON.stringify(t.view(player(s)))).not.toContain('CANARY-ambush');
    expect(t.view(player(s)).world.characters[String(added[0]!['id'])]!.stats).toEqual({});
    // Two action rolls: the loop triggers and resets to 2.
    t.dice.queue(5, 6, 9, 2);
    t.run({ type: 'daggerheart.actionRoll', characterId: pc, difficulty: 10 });
    const second = t.run({ type: 'daggerheart.actionRoll', characterId: pc, difficulty: 10 });
    expect(ofType(second, 'countdown.triggered')).toHaveLength(1);
    expect(t.cd(cdId)).toMatchObject({ value: 2, triggers: 1 });
    // Damage to one bandit uses its own thresholds; the GM marks its Stress.
    t.run({ type: 'daggerheart.takeDamage', characterId: String(added[1]!['id']), amount: 11 });
    t.run({ type: 'daggerheart.markTrack', characterId: String(added[1]!['id']), track: 'stress', amount: 1 });
    expect([stat(t, String(added[1]!['id']), 'hpMarked'), stat(t, String(added[1]!['id']), 'stressMarked')]).toEqual([3, 1]);
  });

  it('a second group of the same stat block goes on counting: Bandit x3 then x2 are Bandit 1-3 and Bandit 4-5; a lone Wolf, then another, are Wolf and Wolf 2', () => {
    const t = new DhTable();
    const block = { difficulty: 12, major: 6, severe: 11, hp: 4 };
    const names = (tx: ReturnType<DhTable['run']>) => ofType(tx, 'character.added').map((e) => e['name']);
    expect(names(t.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 3, ...block }))).toEqual(['Bandit 1', 'Bandit 2', 'Bandit 3']);
    expect(names(t.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 2, ...block }))).toEqual(['Bandit 4', 'Bandit 5']);
    expect(names(t.run({ type: 'daggerheart.addAdversaries', name: 'Wolf', ...block }))).toEqual(['Wolf']);
    expect(names(t.run({ type: 'daggerheart.addAdversaries', name: 'Wolf', ...block }))).toEqual(['Wolf 2']);
    // "Bandit Chief" is another name, not Bandit number "Chief".
    expect(names(t.run({ type: 'daggerheart.addAdversaries', name: 'Bandit Chief', ...block }))).toEqual(['Bandit Chief']);
    expect(groupNumberAfter('Bandit', ['Bandit Chief', 'Bandit 5', 'Bandits 9'])).toBe(5);
  });

  it('property: groups of one stat block, of any sizes, never repeat a name', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }), (counts) => {
        const t = new DhTable();
        for (const count of counts) t.run({ type: 'daggerheart.addAdversaries', name: 'Imp', count, difficulty: 10, major: 4, severe: 8, hp: 2 });
        const imps = Object.values(t.world.characters).map((c) => c.name);
        expect(new Set(imps).size).toBe(imps.length);
        expect(imps).toHaveLength(counts.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 40 },
    );
  });

  it('bad stat blocks are refused with the field named', () => {
    const t = new DhTable();
    expect(t.fail({ type: 'daggerheart.addAdversaries', name: 'X', difficulty: 12, major: 9, severe: 5, hp: 3 })).toMatchObject({ path: 'severe' });
    expect(t.fail({ type: 'daggerheart.addAdversaries', name: 'X', difficulty: 12, major: 5, severe: 9, hp: 3, count: 21 })).toMatchObject({ path: 'count' });
    expect(t.fail({ type: 'daggerheart.addAdversaries', name: 'X', difficulty: 12, major: 5, severe: 9, hp: 3, moves: [{ name: 'm', countdown: { start: 0 } }] })).toMatchObject({ path: 'moves.0.countdown.start' });
    expect(t.fail({ type: 'daggerheart.addAdversaries', name: 'X', difficulty: 12, major: 5, severe: 9, hp: 3, moves: [{ name: 'm', countdown: { start: 3, repeat: 'forever' } }] })).toMatchObject({ path: 'moves.0.countdown.repeat' });
  });
});

describe('rests (published downtime moves) and long-term countdowns (000 "Advancing a Long-Term Countdown")', () => {
  it('short rest: Tend to Wounds clears 1d4 + tier HP (3 + 1), Prepare gains a Hope, the GM gains 1d4 Fear (2), a long-term countdown ticks once; undo takes it all back', () => {
    const { t, seat, pc } = hero({ hpMarked: 5, tier: 1 });
    const lt = String(events(t.run({ type: 'countdown.create', name: 'The invasion', kind: 'longTerm', start: 8 }))[0]!['id']);
    const before = JSON.stringify(t.world);
    t.dice.queue(3, 2);
    const tx = t.run({ type: 'daggerheart.rest', rest: 'short', moves: [{ characterId: pc, move: 'tendWounds' }, { characterId: pc, move: 'prepare' }] });
    expect(stat(t, pc, 'hpMarked')).toBe(1);
    expect(t.hope(pc)).toBe(3);
    expect(t.fear).toBe(2);
    expect(t.cd(lt).value).toBe(7);
    expect(ofType(tx, 'daggerheart.trackMarked')[0]).toMatchObject({ dice: [3], tier: 1, from: 5, to: 1 });
    expect(t.view(player(seat)).world.log.map((l) => l.text)).toContain('The party takes a short rest.');
    // The Fear's 1d4 is shown as the slot clears' dice are (review 6).
    expect(t.view(player(seat)).world.log.map((l) => l.text)).toContain('The GM gains Fear (short rest: 1d4 [2]) (0 -> 2).');
    t.undo();
    expect(JSON.stringify(t.world)).toBe(before);
  });

  it('long rest: Clear All Stress and Repair All Armor clear every slot, the GM gains 1d4 + PCs Fear (1 + 1), a long-term countdown ticks twice', () => {
    const { t, pc } = hero({ stressMarked: 4, armorMarked: 2 });
    const lt = String(events(t.run({ type: 'countdown.create', name: 'The invasion', kind: 'longTerm', start: 8 }))[0]!['id']);
    t.dice.queue(1);
    t.run({ type: 'daggerheart.rest', rest: 'long', moves: [{ characterId: pc, move: 'clearStress' }, { characterId: pc, move: 'repairArmor' }] });
    expect([stat(t, pc, 'stressMarked'), stat(t, pc, 'armorMarked')]).toEqual([0, 0]);
    expect(t.fear).toBe(2);
    expect(t.view(GM).world.log.map((l) => l.text)).toContain('The GM gains Fear (long rest: 1d4 [1] + 1 PC) (0 -> 2).');
    expect(t.cd(lt).value).toBe(6);
    expect(getCountdowns(t.world).countdowns[lt]!.value).toBe(6);
  });

  it('a third move, a long-rest move on a short rest, or an NPC taking a move are refused where they are', () => {
    const { t, pc } = hero();
    const three = [{ characterId: pc, move: 'prepare' }, { characterId: pc, move: 'prepare' }, { characterId: pc, move: 'prepare' }];
    expect(t.fail({ type: 'daggerheart.rest', rest: 'short', moves: three })).toMatchObject({ code: 'DH_TOO_MANY_MOVES', path: 'moves.2' });
    expect(t.fail({ type: 'daggerheart.rest', rest: 'short', moves: [{ characterId: pc, move: 'workOnProject' }] })).toMatchObject({ code: 'DH_LONG_REST_ONLY', path: 'moves.0.move' });
    expect(t.fail({ type: 'daggerheart.rest', rest: 'nap' })).toMatchObject({ path: 'rest' });
  });
});
