// The 'countdowns' Module through the real engine: every kind and reset rule
// of 000_5382b28a932eafef.txt, with the text's examples recomputed.
import { describe, expect, it } from 'vitest';
import { fixedRng } from '../../src/dice/rng.js';
import { getCountdowns } from '../../src/countdowns/module.js';
import { PLAYER, createdId, evs, table } from './fixtures.js';
import type { Transaction } from '../../src/core/types.js';

const types = (tx: Transaction): string[] => evs(tx).map((e) => e.type);

describe('standard countdown (000 "Standard Countdown")', () => {
  it('"Countdown 4" ticks once per action roll whatever the result and triggers after the 4th roll resolves', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'The lich casts', start: 4, effect: 'The lich unleashes its spell.' }));
    s.roll('critical');
    s.roll('failureWithFear');
    s.roll('successWithHope');
    expect(s.cd(id).value).toBe(1);
    const tx = s.run({ type: 'test.roll', outcome: 'failureWithHope' }, PLAYER);
    // The trigger comes after the roll resolved (its events follow actionRoll.resolved).
    expect(types(tx)).toEqual(['test.rolled', 'actionRoll.resolved', 'countdown.ticked', 'countdown.triggered', 'countdown.ended']);
    const trig = evs(tx).find((e) => e.type === 'countdown.triggered');
    expect(trig?.['effect']).toBe('The lich unleashes its spell.');
    expect(s.cd(id)).toMatchObject({ value: 0, status: 'ended', endReason: 'triggered', triggers: 1 });
    // An ended countdown no longer ticks.
    s.roll('failureWithFear');
    expect(s.cd(id).value).toBe(0);
    expect(s.world.log.some((l) => l.kind === 'countdown.triggered' && l.text.includes('The lich unleashes its spell.'))).toBe(true);
  });
});

describe('dynamic countdowns (000 "Dynamic Countdown Advancement")', () => {
  it('progress: crit 3, success with Hope 2, success with Fear 1, failures 0', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Break the wall', kind: 'progress', start: 10 }));
    s.roll('critical');
    expect(s.cd(id).value).toBe(7);
    s.roll('successWithHope');
    expect(s.cd(id).value).toBe(5);
    s.roll('successWithFear');
    expect(s.cd(id).value).toBe(4);
    s.roll('failureWithHope');
    s.roll('failureWithFear');
    expect(s.cd(id).value).toBe(4);
  });
  it('consequence: failure with Fear 2, failure with Hope 1, success with Fear 1, success with Hope and crit 0', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Skyship hull', kind: 'consequence', start: 6 }));
    s.roll('failureWithFear');
    expect(s.cd(id).value).toBe(4);
    s.roll('failureWithHope');
    expect(s.cd(id).value).toBe(3);
    s.roll('successWithFear');
    expect(s.cd(id).value).toBe(2);
    s.roll('successWithHope');
    s.roll('critical');
    expect(s.cd(id).value).toBe(2);
    // A 2-tick result from 1 stops at 0 (never negative) and triggers.
    s.run({ type: 'countdown.set', id, value: 1 });
    const tx = s.run({ type: 'test.roll', outcome: 'failureWithFear' }, PLAYER);
    expect(evs(tx).find((e) => e.type === 'countdown.ticked')).toMatchObject({ from: 1, to: 0, by: 2 });
    expect(s.cd(id).value).toBe(0);
  });
});

describe('loops (000 "Loop", "Increasing or Decreasing")', () => {
  it('"Countdown (Loop 5)" resets to 5 after each trigger', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Recharge', start: 5, repeat: 'loop', effect: 'Breath weapon' }));
    for (let i = 0; i < 10; i++) s.roll('successWithHope');
    expect(s.cd(id)).toMatchObject({ value: 5, start: 5, triggers: 2, status: 'active' });
  });
  it('"Countdown (Increasing 8)" begins at 8, then resets to 9, then 10 (logged)', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Tremors', start: 8, repeat: 'increasing' }));
    for (let i = 0; i < 8; i++) s.roll('failureWithHope');
    expect(s.cd(id)).toMatchObject({ value: 9, start: 9, triggers: 1 });
    for (let i = 0; i < 9; i++) s.roll('failureWithHope');
    expect(s.cd(id)).toMatchObject({ value: 10, start: 10, triggers: 2 });
    const resets = s.world.log.filter((l) => l.kind === 'countdown.reset').map((l) => l.text);
    expect(resets).toEqual(['Tremors resets to 9 (was 8, increasing).', 'Tremors resets to 10 (was 9, increasing).']);
    expect(s.view(PLAYER).world.log.filter((l) => l.kind === 'countdown.reset')).toHaveLength(2);
  });
  it('"Rubble Falling", a decreasing 7 consequence countdown: resets 6, 5, ... 1, then the caves collapse after 28 ticks', () => {
    const s = table();
    const id = createdId(
      s.run({ type: 'countdown.create', name: 'Rubble Falling', kind: 'consequence', start: 7, repeat: 'decreasing', effect: 'Rubble falls on the PCs.', finalEffect: 'The caves collapse entirely.' }),
    );
    const starts: number[] = [];
    let rolls = 0;
    while (s.cd(id).status === 'active') {
      s.roll('failureWithHope'); // one consequence tick each
      rolls++;
      if (s.cd(id).status === 'active' && s.cd(id).value === s.cd(id).start && !starts.includes(s.cd(id).start)) starts.push(s.cd(id).start);
      if (rolls > 100) throw new Error('never collapsed');
    }
    expect(starts).toEqual([6, 5, 4, 3, 2, 1]);
    expect(rolls).toBe(7 + 6 + 5 + 4 + 3 + 2 + 1);
    expect(s.cd(id)).toMatchObject({ status: 'ended', endReason: 'finalEvent', triggers: 7 });
    const last = s.table.transactions.at(-1)!;
    expect(last.kind === 'command' && last.events.find((e) => e.type === 'countdown.ended')?.['finalEffect']).toBe('The caves collapse entirely.');
    expect(s.world.log.filter((l) => l.kind === 'countdown.reset').map((l) => l.text)[0]).toBe('Rubble Falling resets to 6 (was 7, decreasing).');
    expect(s.world.log.some((l) => l.kind === 'countdown.finalEvent' && l.text.includes('The caves collapse entirely.'))).toBe(true);
  });
});

describe('randomized starting value (000 "Randomized Starting Value")', () => {
  it('"Countdown 1d6" rolls its start once, records the die in the event, and replay does not reroll', () => {
    const s = table({ rng: fixedRng([4]) });
    const tx = s.run({ type: 'countdown.create', name: 'Ambush', startDie: '1d6' });
    const id = createdId(tx);
    expect(s.cd(id)).toMatchObject({ start: 4, value: 4, startDie: '1d6', startRoll: { formula: '1d6', dice: [4], total: 4 } });
    const replayed = s.engine.replay(s.table.genesis, s.table.transactions);
    expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(s.world));
  });
  it('a randomized loop that rerolls at each reset records the new roll', () => {
    const s = table({ rng: fixedRng([2, 5]) });
    const id = createdId(s.run({ type: 'countdown.create', name: 'Flicker', startDie: 'd6', repeat: 'loop', rerollOnReset: true }));
    s.roll('failureWithFear');
    const tx = s.run({ type: 'test.roll', outcome: 'failureWithFear' }, PLAYER);
    expect(evs(tx).find((e) => e.type === 'countdown.reset')).toMatchObject({ start: 5, startRoll: { dice: [5], total: 5 } });
    expect(s.cd(id)).toMatchObject({ value: 5, start: 5 });
  });
});

describe('chase countdowns (000 "Chase Countdowns", "Example Chase")', () => {
  it('the market chase: d6s at 6 and 4; success with Hope 6 -> 4; failure with Fear ticks the thief 4 -> 2 (not "3 to 1")', () => {
    const s = table();
    const chaseId = createdId(s.run({ type: 'chase.create', name: 'The stolen spellbook', die: 6, lead: 4, pcs: 'pursuing' }));
    const chase = getCountdowns(s.world).chases[chaseId]!;
    const p = chase.progressId;
    const c = chase.consequenceId;
    expect([s.cd(p).value, s.cd(c).value]).toEqual([6, 4]);
    s.roll('successWithHope'); // the Rogue, helped by the Sorcerer
    expect([s.cd(p).value, s.cd(c).value]).toEqual([6 - 2, 4]);
    s.roll('failureWithFear'); // the Wizard's illusion
    expect([s.cd(p).value, s.cd(c).value]).toEqual([4, 4 - 2]);
    s.roll('successWithFear'); // both advance by one
    expect([s.cd(p).value, s.cd(c).value]).toEqual([3, 1]);
    // "if the Consequence Countdown ticks down one more time, the thief will be gone"
    const tx = s.run({ type: 'test.roll', outcome: 'failureWithHope' }, PLAYER);
    expect(evs(tx).find((e) => e.type === 'chase.ended')).toMatchObject({ result: 'other' });
    expect(getCountdowns(s.world).chases[chaseId]?.result).toBe('other');
    expect(s.cd(p)).toMatchObject({ status: 'ended', endReason: 'chaseOver', value: 3 });
    expect(s.cd(c)).toMatchObject({ status: 'ended', endReason: 'triggered', value: 0 });
    expect(s.world.log.some((l) => l.kind === 'chase.ended' && l.text.includes('the quarry gets away'))).toBe(true);
    s.roll('critical');
    expect(s.cd(p).value).toBe(3); // the chase is over: nothing moves
  });
  it('the PCs catch up first, or both run out on one success with Fear', () => {
    const s = table();
    const chaseId = createdId(s.run({ type: 'chase.create', name: 'Bandits', die: 4, lead: 2 }));
    s.roll('critical');
    s.roll('successWithFear');
    expect(getCountdowns(s.world).chases[chaseId]?.result).toBe('pcs');
    const t = table();
    const id2 = createdId(t.run({ type: 'chase.create', name: 'Close call', die: 3, lead: 2 }));
    t.roll('failureWithHope'); // (3, 2) -> (3, 1)
    t.roll('successWithHope'); // (3, 1) -> (1, 1)
    expect(getCountdowns(t.world).chases[id2]?.result).toBeNull();
    const tx = t.run({ type: 'test.roll', outcome: 'successWithFear' }, PLAYER); // both tick to 0 on one roll
    expect(evs(tx).filter((e) => e.type === 'countdown.triggered')).toHaveLength(2);
    expect(getCountdowns(t.world).chases[id2]?.result).toBe('both');
  });
  it('a GM tick that empties one side ends the chase too; a paused side does not move but the other still can end it', () => {
    const s = table();
    const chaseId = createdId(s.run({ type: 'chase.create', name: 'Alley', die: 4, lead: 2 }));
    const ch = getCountdowns(s.world).chases[chaseId]!;
    const tx = s.run({ type: 'countdown.tick', id: ch.consequenceId, by: 2 });
    expect(evs(tx).find((e) => e.type === 'chase.ended')).toMatchObject({ result: 'other' });
    const t = table();
    const id2 = createdId(t.run({ type: 'chase.create', name: 'Roofs', die: 4, lead: 2 }));
    const ch2 = getCountdowns(t.world).chases[id2]!;
    t.run({ type: 'countdown.pause', id: ch2.consequenceId });
    t.roll('failureWithFear');
    expect(t.cd(ch2.consequenceId).value).toBe(2);
    t.roll('critical'); // progress 4 -> 1
    t.roll('successWithFear'); // progress 1 -> 0; the paused side stays at 2
    expect(getCountdowns(t.world).chases[id2]?.result).toBe('pcs');
    expect(t.cd(ch2.consequenceId)).toMatchObject({ value: 2, status: 'ended', endReason: 'chaseOver' });
  });
  it('linkedTo pairs a new countdown with an existing one of the other dynamic kind into a chase', () => {
    const s = table();
    const thief = createdId(s.run({ type: 'countdown.create', name: 'The thief gets away', kind: 'consequence', start: 4 }));
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'consequence', start: 6, linkedTo: thief }).code).toBe('CHASE_KINDS');
    const tx = s.run({ type: 'countdown.create', name: 'Catch the thief', kind: 'progress', start: 6, linkedTo: thief });
    const pcs = createdId(tx);
    const chaseId = String(evs(tx).find((e) => e.type === 'chase.linked')?.['id']);
    expect(getCountdowns(s.world).chases[chaseId]).toMatchObject({ progressId: pcs, consequenceId: thief, result: null });
    expect(s.cd(thief)).toMatchObject({ chaseId, linkedTo: pcs });
    expect(s.fail({ type: 'countdown.create', name: 'y', kind: 'progress', start: 6, linkedTo: thief }).code).toBe('CHASE_UNAVAILABLE');
    s.roll('successWithFear');
    s.roll('failureWithFear');
    s.roll('failureWithHope'); // thief 4 -> 3 -> 1 -> 0
    expect(getCountdowns(s.world).chases[chaseId]?.result).toBe('other');
    expect(s.cd(pcs)).toMatchObject({ value: 5, endReason: 'chaseOver' });
  });
  it('when the PCs escape, their progress die starts at their lead and the pursuers at the top', () => {
    const s = table();
    const chaseId = createdId(s.run({ type: 'chase.create', name: 'Flight', die: 8, lead: 5, pcs: 'escaping' }));
    const ch = getCountdowns(s.world).chases[chaseId]!;
    expect([s.cd(ch.progressId).value, s.cd(ch.consequenceId).value]).toEqual([5, 8]);
  });
});

describe('countdown.outcome: a roll made at the table, entered by the GM', () => {
  it('moves every standard, dynamic and chase countdown by the advancement table in one transaction, and undoes as one', () => {
    const s = table();
    const std = createdId(s.run({ type: 'countdown.create', name: 'The lich casts', start: 4 }));
    const prog = createdId(s.run({ type: 'countdown.create', name: 'Break the wall', kind: 'progress', start: 10 }));
    const cons = createdId(s.run({ type: 'countdown.create', name: 'Skyship hull', kind: 'consequence', start: 6 }));
    s.run({ type: 'chase.create', name: 'Bandits', die: 4, lead: 2 });
    const before = JSON.stringify(s.world.ext);
    const tx = s.run({ type: 'countdown.outcome', outcome: 'successWithFear' });
    // Standard ticks 1 on any roll; progress 1 and consequence 1 on a success with Fear.
    expect([s.cd(std).value, s.cd(prog).value, s.cd(cons).value]).toEqual([3, 9, 5]);
    expect(types(tx).slice(0, 2)).toEqual(['countdown.outcomeEntered', 'actionRoll.resolved']);
    expect(types(tx).filter((t) => t === 'countdown.ticked').length).toBeGreaterThanOrEqual(5);
    expect(s.world.log.some((l) => l.kind === 'countdown.outcomeEntered' && l.text.includes('a success with Fear'))).toBe(true);
    expect(s.view({ role: 'gm' }).undoLabel).toBe('tick countdowns from a roll');
    s.undo();
    expect(JSON.stringify(s.world.ext)).toBe(before);
  });

  it('is the GM\'s, and refuses anything but the five outcomes', () => {
    const s = table();
    expect(s.fail({ type: 'countdown.outcome', outcome: 'successWithFear' }, PLAYER).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'countdown.outcome', outcome: 'success' })).toMatchObject({ code: 'INVALID_VALUE', path: 'outcome' });
  });
});
