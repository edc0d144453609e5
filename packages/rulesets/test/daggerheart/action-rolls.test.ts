// Daggerheart action rolls through the engine: duality dice recorded in the
// event, Hope and Fear, Help an Ally, and countdowns ticking after the roll.
import { describe, expect, it } from 'vitest';
import { getCountdowns } from '@tablekeeper/engine';
import { DhTable, GM, SPECTATOR, events, ofType, player } from './helpers.js';

function party(settings = {}) {
  const t = new DhTable(settings);
  const a = t.seat('Ana');
  const b = t.seat('Bo');
  const c = t.seat('Cy');
  const rogue = t.pc('Rogue', a);
  const sorcerer = t.pc('Sorcerer', b);
  const wizard = t.pc('Wizard', c);
  return { t, seats: { a, b, c }, rogue, sorcerer, wizard };
}

describe('the action roll (rules README "Daggerheart action roll (000)")', () => {
  it('Hope 10, Fear 4, +2 vs 15 = 16: a success with Hope; the PC gains Hope; a standard countdown ticks after it resolves', () => {
    const { t, seats, rogue } = party();
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Reinforcements', start: 3 }))[0]!['id']);
    t.dice.queue(10, 4);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, modifier: 2, difficulty: 15 }, player(seats.a));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ hope: 10, fear: 4, modifier: 2, total: 16, outcome: 'successWithHope', advantageDice: [] });
    expect(events(tx).map((e) => e.type)).toEqual(['daggerheart.actionRolled', 'daggerheart.hopeGained', 'clock.advanced', 'actionRoll.resolved', 'countdown.ticked']);
    expect(t.hope(rogue)).toBe(2 + 1); // starting Hope 2 (setting)
    expect(t.fear).toBe(0);
    expect(t.cd(cd).value).toBe(2);
    expect(t.world.clock.counts.actionRoll).toBe(1);
  });
  it('Hope 3, Fear 9, +2 vs 15 = 14: a failure with Fear; the GM gains Fear; a consequence countdown ticks 2', () => {
    const { t, seats, wizard } = party();
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Guards', kind: 'consequence', start: 4 }))[0]!['id']);
    t.dice.queue(3, 9);
    t.run({ type: 'daggerheart.actionRoll', characterId: wizard, modifier: 2, difficulty: 15 }, player(seats.c));
    expect(t.fear).toBe(1);
    expect(t.hope(wizard)).toBe(2);
    expect(t.cd(cd).value).toBe(2);
  });
  it('matching dice are a critical success whatever the total (7 + 7 vs 20); the critical gives Hope by default and ticks progress 3', () => {
    const { t, rogue } = party();
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Wall', kind: 'progress', start: 6 }))[0]!['id']);
    t.dice.queue(7, 7);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 20 });
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ total: 14, critical: true, success: true, outcome: 'critical' });
    expect(t.hope(rogue)).toBe(3);
    expect(t.cd(cd).value).toBe(3);
    const off = party({ 'daggerheart.criticalGivesHope': false });
    off.t.dice.queue(5, 5);
    off.t.run({ type: 'daggerheart.actionRoll', characterId: off.rogue, difficulty: 20 });
    expect(off.t.hope(off.rogue)).toBe(2);
  });
  it('Hope stops at its cap (setting hopeMax 6) and Fear at its cap (fearMax 12)', () => {
    const t = new DhTable();
    const s = t.seat('Ana');
    const pc = t.pc('Full', s, { hope: 6 });
    t.dice.queue(12, 1);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: pc, difficulty: 10 });
    expect(ofType(tx, 'daggerheart.hopeGained')[0]).toMatchObject({ from: 6, to: 6, amount: 0, capped: true });
    expect(t.hope(pc)).toBe(6);
    t.run({ type: 'daggerheart.gainFear', amount: 12 });
    t.dice.queue(1, 12);
    t.run({ type: 'daggerheart.actionRoll', characterId: pc, difficulty: 10 });
    expect(t.fear).toBe(12);
  });
  it('advantage adds one d6 and disadvantage subtracts one; they cancel one for one; sources do not stack unless set', () => {
    const { t, rogue } = party();
    t.dice.queue(6, 5, 4);
    let tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, advantage: 2 });
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ advantageDice: [4], advantageSign: 1, total: 6 + 5 + 4 });
    t.dice.queue(6, 5, 4);
    tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, advantage: -1 });
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ advantageDice: [4], advantageSign: -1, total: 6 + 5 - 4 });
    const stacked = party({ 'daggerheart.advantageDiceStack': true });
    stacked.t.dice.queue(6, 5, 4, 3);
    tx = stacked.t.run({ type: 'daggerheart.actionRoll', characterId: stacked.rogue, difficulty: 10, advantage: 2 });
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ advantageDice: [4, 3], total: 6 + 5 + 4 + 3 });
  });
});

describe('Help an Ally and the market chase (000 "Example Chase")', () => {
  it('the Sorcerer spends a Hope to help the Rogue; success with Hope ticks the PCs 6 -> 4; the Wizard fails with Fear and the thief goes 4 -> 2', () => {
    const { t, seats, rogue, sorcerer, wizard } = party();
    const chaseId = String(events(t.run({ type: 'chase.create', name: 'The stolen spellbook', die: 6, lead: 4 }))[0]!['id']);
    const chase = getCountdowns(t.world).chases[chaseId]!;
    t.run({ type: 'daggerheart.helpAlly', helperId: sorcerer, targetId: rogue }, player(seats.b));
    expect(t.hope(sorcerer)).toBe(1);
    // Agility +1 and Second Story +2 = +3; Hope 9, Fear 5, the help die 3: 9 + 5 + 3 + 3 = 20 vs 15.
    t.dice.queue(9, 5, 3);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, modifier: 3, difficulty: 15, label: 'Agility roll over the tents' }, player(seats.a));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]).toMatchObject({ helpers: [sorcerer], advantageSources: 1, roll: { advantageDice: [3], total: 20, outcome: 'successWithHope' } });
    expect(t.cd(chase.progressId).value).toBe(4);
    expect(t.cd(chase.consequenceId).value).toBe(4);
    expect(getDaggerheart_help(t, rogue)).toEqual([]);
    // Spellcast +1; Hope 2, Fear 8: 11 vs 15, a failure with Fear.
    t.dice.queue(2, 8);
    t.run({ type: 'daggerheart.actionRoll', characterId: wizard, modifier: 1, difficulty: 15, label: 'Spellcast: the runaway horse' }, player(seats.c));
    expect(t.cd(chase.consequenceId).value).toBe(2);
    expect(t.fear).toBe(1);
  });
  it('a helper without enough Hope cannot help, nor help twice, nor help themself', () => {
    const t = new DhTable();
    const s = t.seat('Ana');
    const a = t.pc('A', s, { hope: 0 });
    const b = t.pc('B', s, { hope: 3 });
    expect(t.fail({ type: 'daggerheart.helpAlly', helperId: a, targetId: b }).code).toBe('DH_NOT_ENOUGH_HOPE');
    t.run({ type: 'daggerheart.helpAlly', helperId: b, targetId: a });
    expect(t.fail({ type: 'daggerheart.helpAlly', helperId: b, targetId: a }).code).toBe('DH_ALREADY_HELPING');
    expect(t.fail({ type: 'daggerheart.helpAlly', helperId: b, targetId: b }).code).toBe('DH_HELP_SELF');
  });
});

function getDaggerheart_help(t: DhTable, id: string): readonly string[] {
  return (t.world.ext['daggerheart'] as { help: Record<string, string[]> }).help[id] ?? [];
}

describe('reaction rolls (settings reactionRollsGiveHopeFear, reactionRollsTickCountdowns)', () => {
  it('give no Hope or Fear, tick no countdown, do not move the clock, and leave a help offer waiting', () => {
    const { t, rogue, sorcerer } = party();
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Any roll', start: 3 }))[0]!['id']);
    t.run({ type: 'daggerheart.helpAlly', helperId: sorcerer, targetId: rogue });
    t.dice.queue(10, 2);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, reaction: true });
    expect(events(tx).map((e) => e.type)).toEqual(['daggerheart.actionRolled']);
    expect(t.hope(rogue)).toBe(2);
    expect(t.cd(cd).value).toBe(3);
    expect(t.world.clock.counts.actionRoll).toBe(0);
    expect(getDaggerheart_help(t, rogue)).toEqual([sorcerer]);
  });
  it('with both settings on, a reaction roll feeds Hope and ticks countdowns', () => {
    const { t, rogue } = party({ 'daggerheart.reactionRollsGiveHopeFear': true, 'daggerheart.reactionRollsTickCountdowns': true });
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Any roll', start: 3 }))[0]!['id']);
    t.dice.queue(10, 2);
    t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, reaction: true });
    expect(t.hope(rogue)).toBe(3);
    expect(t.cd(cd).value).toBe(2);
  });
});

describe('spending and permissions', () => {
  it('a player spends their own PC\'s Hope, not another\'s; only the GM spends or gains Fear', () => {
    const { t, seats, rogue, wizard } = party();
    t.run({ type: 'daggerheart.spendHope', characterId: rogue, amount: 2, reason: 'an Experience' }, player(seats.a));
    expect(t.hope(rogue)).toBe(0);
    expect(t.fail({ type: 'daggerheart.spendHope', characterId: rogue }, player(seats.a)).code).toBe('DH_NOT_ENOUGH_HOPE');
    expect(t.fail({ type: 'daggerheart.spendHope', characterId: wizard }, player(seats.a)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: wizard, difficulty: 10 }, player(seats.a)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.actionRoll', difficulty: 10 }, player(seats.a)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.spendFear' }, player(seats.a)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.spendFear' }).code).toBe('DH_NOT_ENOUGH_FEAR');
    t.run({ type: 'daggerheart.gainFear', amount: 3 });
    t.run({ type: 'daggerheart.spendFear', amount: 2, reason: 'spotlight the lich' });
    expect(t.fear).toBe(1);
  });
  it('bad input is a typed error naming the limit', () => {
    const { t, rogue } = party();
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: rogue }).path).toBe('difficulty');
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 61 }).message).toContain('60');
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, modifier: 31 }).message).toContain('30');
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, advantage: 6 }).message).toContain('5');
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: 'nobody', difficulty: 10 }).code).toBe('NOT_FOUND');
    const npc = String(events(t.run({ type: 'character.add', name: 'Thief', kind: 'npc' }))[0]!['id']);
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: npc, difficulty: 10 }).code).toBe('DH_NOT_A_PC');
    expect(t.fail({ type: 'daggerheart.spendHope', characterId: rogue, amount: 13 }).message).toContain('12');
  });
});

describe('undo, replay and views', () => {
  it('undo of a roll reverts Hope, Fear, the clock and every countdown it moved; redo re-applies the same dice', () => {
    const { t, seats, rogue } = party();
    t.run({ type: 'countdown.create', name: 'Standard', start: 1, repeat: 'loop', effect: 'Boom' });
    t.run({ type: 'chase.create', name: 'Chase', die: 4, lead: 2 });
    const before = JSON.stringify(t.world);
    t.dice.queue(4, 9);
    const rolled = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 12 }, player(seats.a));
    const after = JSON.stringify(t.world);
    expect(t.fear).toBe(1);
    t.undo(player(seats.a));
    expect(JSON.stringify(t.world)).toBe(before);
    t.redo(player(seats.a));
    expect(JSON.stringify(t.world)).toBe(after);
    expect(t.dice.left).toBe(0);
    const replayed = t.engine.replay(t.table.genesis, t.table.transactions);
    expect(JSON.stringify(replayed.world)).toBe(after);
    expect(ofType(rolled, 'countdown.triggered')[0]!['effect']).toBe('Boom');
  });
  it('with fearVisible off, players and spectators never see the Fear pool or its changes', () => {
    const { t, seats, rogue } = party({ 'daggerheart.fearVisible': false });
    t.dice.queue(1, 12);
    t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 30 }, player(seats.a));
    t.run({ type: 'daggerheart.spendFear', reason: 'CANARY-FEAR-SPEND' });
    for (const who of [player(seats.a), SPECTATOR]) {
      const v = t.view(who);
      expect((v.world.ext['daggerheart'] as { fear: number | null }).fear).toBeNull();
      const text = JSON.stringify(v);
      expect(text).not.toContain('CANARY-FEAR-SPEND');
      expect(text).not.toMatch(/"(kind|type)":"daggerheart\.fear/);
    }
    expect((t.view(GM).world.ext['daggerheart'] as { fear: number }).fear).toBe(0);
    expect(JSON.stringify(t.view(GM))).toMatch(/"(kind|type)":"daggerheart\.fear/); // the search above can find it
  });
  it("a hidden PC's roll, Hope and the countdowns it ticks stay with the GM", () => {
    const t = new DhTable();
    const pc = t.pc('CANARY-SPY', null, {}, 'hidden');
    t.run({ type: 'countdown.create', name: 'CANARY-PLOT', start: 2, visibility: 'hidden' });
    t.dice.queue(10, 3);
    t.run({ type: 'daggerheart.actionRoll', characterId: pc, difficulty: 10 });
    const text = JSON.stringify(t.view(SPECTATOR));
    expect(text).not.toContain('CANARY');
    expect(text).not.toMatch(/"(kind|type)":"daggerheart\.hope/);
    expect(JSON.stringify(t.view(GM))).toMatch(/"(kind|type)":"daggerheart\.hope/);
  });
});
