// The GM-requested action roll (issue 21): the GM asks, the player rolls from
// the phone; Hope, Fear, a cleared Stress and every linked countdown move in
// one undoable transaction; the exact odds are a query before the roll; a
// hidden difficulty never reaches a player.
import { describe, expect, it } from 'vitest';
import { DUALITY_OUTCOMES, getCountdowns, type DualityOutcome, type Json } from '@tablekeeper/engine';
import { requestsOf } from '../../src/daggerheart/index.js';
import { DhTable, GM, SPECTATOR, events, ofType, player } from './helpers.js';

function market(settings = {}) {
  const t = new DhTable(settings);
  const seats = { a: t.seat('Ana'), b: t.seat('Bo'), c: t.seat('Cy') };
  const rogue = t.pc('Rogue', seats.a, { agility: 2 });
  const sorcerer = t.pc('Sorcerer', seats.b);
  const wizard = t.pc('Wizard', seats.c, { knowledge: 1 });
  return { t, seats, rogue, sorcerer, wizard };
}

const ask = (t: DhTable, command: { [k: string]: Json }): string => String((ofType(t.run({ type: 'daggerheart.requestRoll', ...command }), 'daggerheart.rollRequested')[0]!['request'] as { id: string }).id);

describe('the market chase from the table (000 "Example Chase", recomputed)', () => {
  it('Rogue: Agility 2 + Second Story 2, helped by the Sorcerer; Hope 9, Fear 4, help d6 3 = 20 vs 15, success with Hope: the PCs go 6 -> 4, the thief stays at 4', () => {
    const { t, seats, rogue, sorcerer } = market();
    const chaseId = String(events(t.run({ type: 'chase.create', name: 'The spellbook thief', die: 6, lead: 4 }))[0]!['id']);
    const chase = getCountdowns(t.world).chases[chaseId]!;
    const req = ask(t, { characterId: rogue, trait: 'agility', difficulty: 15, experience: 'Second Story', experienceBonus: 2 });
    t.run({ type: 'daggerheart.helpAlly', helperId: sorcerer, targetId: rogue }, player(seats.b));
    t.dice.queue(9, 4, 3);
    const tx = t.run({ type: 'daggerheart.rollRequest', requestId: req, useExperience: true }, player(seats.a));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ hope: 9, fear: 4, advantageDice: [3], modifier: 4, total: 20, outcome: 'successWithHope' });
    expect(t.cd(chase.progressId).value).toBe(4);
    expect(t.cd(chase.consequenceId).value).toBe(4);
    // Starting Hope 2, minus 1 for the Experience, plus 1 for the roll with Hope.
    expect(t.hope(rogue)).toBe(2);
    expect(t.hope(sorcerer)).toBe(1);
    expect(requestsOf(t.world)[req]).toBeUndefined();
  });

  it('Wizard fails with Fear (Hope 2, Fear 8, Knowledge 1 = 11 vs 15): the thief ticks 2, 4 -> 2 (the text says 3 -> 1 without a roll between: a known fault), and the GM gains a Fear', () => {
    const { t, seats, wizard } = market();
    const chaseId = String(events(t.run({ type: 'chase.create', name: 'The spellbook thief', die: 6, lead: 4 }))[0]!['id']);
    const chase = getCountdowns(t.world).chases[chaseId]!;
    const req = ask(t, { characterId: wizard, trait: 'knowledge', difficulty: 15, label: 'Spellcast: a runaway horse' });
    t.dice.queue(2, 8);
    t.run({ type: 'daggerheart.rollRequest', requestId: req }, player(seats.c));
    expect(t.cd(chase.consequenceId).value).toBe(2);
    expect(t.cd(chase.progressId).value).toBe(6);
    expect(t.fear).toBe(1);
  });

  it('a Consequence Countdown at 3 goes to 1 on a failure with Fear (the row the example names)', () => {
    const { t, seats, wizard } = market();
    const cd = String(events(t.run({ type: 'countdown.create', name: 'The thief gets away', kind: 'consequence', start: 3 }))[0]!['id']);
    const req = ask(t, { characterId: wizard, difficulty: 15 });
    t.dice.queue(2, 8);
    t.run({ type: 'daggerheart.rollRequest', requestId: req }, player(seats.c));
    expect(t.cd(cd).value).toBe(1);
  });
});

describe('each outcome row moves every linked countdown (000 "Dynamic Countdown Advancement")', () => {
  // Dice per outcome against difficulty 12 with no modifier; the expected ticks are the table's rows.
  const rows: [DualityOutcome, [number, number], { standard: number; progress: number; consequence: number }][] = [
    ['critical', [3, 3], { standard: 1, progress: 3, consequence: 0 }],
    ['successWithHope', [8, 5], { standard: 1, progress: 2, consequence: 0 }],
    ['successWithFear', [5, 8], { standard: 1, progress: 1, consequence: 1 }],
    ['failureWithHope', [6, 2], { standard: 1, progress: 0, consequence: 1 }],
    ['failureWithFear', [2, 6], { standard: 1, progress: 0, consequence: 2 }],
  ];
  for (const [outcome, dice, ticks] of rows) {
    it(`${outcome} (Hope ${dice[0]}, Fear ${dice[1]} vs 12): standard -${ticks.standard}, progress -${ticks.progress}, consequence -${ticks.consequence}, and the chase pair the same`, () => {
      const { t, seats, rogue } = market();
      const ids = (['standard', 'progress', 'consequence'] as const).map((kind) => [kind, String(events(t.run({ type: 'countdown.create', name: kind, kind, start: 8 }))[0]!['id'])] as const);
      const chaseId = String(events(t.run({ type: 'chase.create', name: 'Chase', die: 10, lead: 9 }))[0]!['id']);
      const chase = getCountdowns(t.world).chases[chaseId]!;
      const req = ask(t, { characterId: rogue, difficulty: 12 });
      t.dice.queue(...dice);
      const tx = t.run({ type: 'daggerheart.rollRequest', requestId: req }, player(seats.a));
      expect(ofType(tx, 'actionRoll.resolved')[0]!['outcome']).toBe(outcome);
      for (const [kind, id] of ids) expect(t.cd(id).value).toBe(8 - ticks[kind]);
      expect(t.cd(chase.progressId).value).toBe(10 - ticks.progress);
      expect(t.cd(chase.consequenceId).value).toBe(9 - ticks.consequence);
    });
  }
});

describe('one undoable step', () => {
  it('undo of a requested roll takes back the Experience Hope, the roll, Hope and Fear, the cleared Stress, the clock and every tick; the request is open again', () => {
    const { t, seats, rogue } = market();
    t.run({ type: 'character.update', id: rogue, stats: { stressMarked: 2 } });
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Wall', kind: 'progress', start: 5 }))[0]!['id']);
    const req = ask(t, { characterId: rogue, difficulty: 25, experience: 'Climber', experienceBonus: 1 });
    const before = JSON.stringify(t.world);
    t.dice.queue(7, 7);
    const tx = t.run({ type: 'daggerheart.rollRequest', requestId: req, useExperience: true }, player(seats.a));
    expect(events(tx).map((e) => e.type)).toEqual([
      'daggerheart.hopeSpent',
      'daggerheart.actionRolled',
      'daggerheart.hopeGained',
      'daggerheart.trackMarked',
      'clock.advanced',
      'actionRoll.resolved',
      'countdown.ticked',
    ]);
    expect(t.cd(cd).value).toBe(2);
    expect(t.world.characters[rogue]!.stats['stressMarked']).toBe(1);
    // A roll cannot be taken back by the player who made it, only by the GM.
    expect(t.fail({ type: 'history.undo' }, player(seats.a)).code).toBe('FORBIDDEN');
    t.undo();
    expect(JSON.stringify(t.world)).toBe(before);
    expect(requestsOf(t.world)[req]).toBeDefined();
  });

  it('a critical clears one Stress only while the setting says so (criticalClearsStress)', () => {
    const off = market({ 'daggerheart.criticalClearsStress': false });
    off.t.run({ type: 'character.update', id: off.rogue, stats: { stressMarked: 2 } });
    const req = ask(off.t, { characterId: off.rogue, difficulty: 12 });
    off.t.dice.queue(4, 4);
    off.t.run({ type: 'daggerheart.rollRequest', requestId: req }, player(off.seats.a));
    expect(off.t.world.characters[off.rogue]!.stats['stressMarked']).toBe(2);
  });
});

describe('who may roll, and bad input', () => {
  it('only the PC\'s player (or the GM) rolls a request; the Experience costs Hope the PC must have; bad requests are typed errors', () => {
    const { t, seats, rogue, wizard } = market();
    const req = ask(t, { characterId: rogue, difficulty: 12, experience: 'Acrobat' });
    expect(t.fail({ type: 'daggerheart.rollRequest', requestId: req }, player(seats.c)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.requestRoll', characterId: rogue, difficulty: 12 }, player(seats.a)).code).toBe('FORBIDDEN');
    t.run({ type: 'character.update', id: rogue, stats: { hope: 0 } });
    expect(t.fail({ type: 'daggerheart.rollRequest', requestId: req, useExperience: true }, player(seats.a))).toMatchObject({ code: 'DH_NOT_ENOUGH_HOPE', path: 'useExperience' });
    expect(t.fail({ type: 'daggerheart.requestRoll', characterId: wizard, trait: 'luck', difficulty: 12 })).toMatchObject({ code: 'INVALID_VALUE', path: 'trait' });
    expect(t.fail({ type: 'daggerheart.requestRoll', characterId: wizard, difficulty: 61 })).toMatchObject({ path: 'difficulty' });
    expect(t.fail({ type: 'daggerheart.rollRequest', requestId: 'req-999' })).toMatchObject({ code: 'NOT_FOUND', path: 'requestId' });
    t.run({ type: 'daggerheart.cancelRequest', requestId: req });
    expect(requestsOf(t.world)[req]).toBeUndefined();
  });
});

/** An independent count over the 144 Hope/Fear pairs (no advantage): the chance of each outcome. */
function enumerate(modifier: number, difficulty: number): Record<DualityOutcome, number> {
  const out: Record<DualityOutcome, number> = { critical: 0, successWithHope: 0, successWithFear: 0, failureWithHope: 0, failureWithFear: 0 };
  for (let h = 1; h <= 12; h++) {
    for (let f = 1; f <= 12; f++) {
      const ok = h + f + modifier >= difficulty;
      const key: DualityOutcome = h === f ? 'critical' : h > f ? (ok ? 'successWithHope' : 'failureWithHope') : ok ? 'successWithFear' : 'failureWithFear';
      out[key] += 1 / 144;
    }
  }
  return out;
}

describe('the odds before the roll (daggerheart.rollOdds)', () => {
  it('Agility 2 vs 15: each outcome as the 144 dice pairs count it, the countdowns each outcome would move, and the Experience bonus when chosen', () => {
    const { t, seats, rogue } = market();
    const cd = String(events(t.run({ type: 'countdown.create', name: 'Guards', kind: 'consequence', start: 1 }))[0]!['id']);
    const req = ask(t, { characterId: rogue, trait: 'agility', difficulty: 15, experience: 'Second Story', experienceBonus: 2 });
    const r = t.engine.query(t.table, player(seats.a), 'daggerheart.rollOdds', { requestId: req });
    expect(r.ok).toBe(true);
    const v = (r as unknown as { value: { outcomes: Record<DualityOutcome, number>; success: number; countdowns: { id: string; ticks: Record<DualityOutcome, number> }[] } }).value;
    const want = enumerate(2, 15);
    for (const o of DUALITY_OUTCOMES) expect(v.outcomes[o]).toBeCloseTo(want[o], 12);
    expect(v.outcomes.critical).toBeCloseTo(12 / 144, 12);
    expect(v.success).toBeCloseTo(want.critical + want.successWithHope + want.successWithFear, 12);
    // A countdown at 1 ticks at most 1, whatever the row says.
    expect(v.countdowns).toEqual([{ id: cd, name: 'Guards', kind: 'consequence', value: 1, ticks: { critical: 0, successWithHope: 0, successWithFear: 1, failureWithHope: 1, failureWithFear: 1 } }]);
    const withExp = t.engine.query(t.table, player(seats.a), 'daggerheart.rollOdds', { requestId: req, useExperience: true });
    const wantExp = enumerate(4, 15);
    expect((withExp as unknown as { value: { outcomes: Record<DualityOutcome, number> } }).value.outcomes.successWithHope).toBeCloseTo(wantExp.successWithHope, 12);
  });
});

describe('a hidden difficulty never reaches a player', () => {
  it('the request, the roll, the log, the history and the odds a player gets carry no difficulty; the GM sees it all', () => {
    const { t, seats, rogue } = market();
    const req = ask(t, { characterId: rogue, trait: 'agility', difficulty: 17, hidden: true, label: 'Pick the vault lock' });
    t.dice.queue(10, 3);
    t.run({ type: 'daggerheart.rollRequest', requestId: req }, player(seats.a));
    const req2 = ask(t, { characterId: rogue, difficulty: 19, hidden: true });
    for (const viewer of [player(seats.a), player(seats.b), SPECTATOR]) {
      const view = t.view(viewer);
      const text = JSON.stringify(view);
      expect(text).not.toContain('"difficulty":17');
      expect(text).not.toContain('"difficulty":19');
      expect(requestsOf(view.world)[req2]?.difficulty ?? null).toBeNull();
    }
    const shown = t.view(player(seats.a)).history.flatMap((h) => h.events).find((e) => e.type === 'daggerheart.actionRollShown');
    expect(shown?.['roll']).toMatchObject({ hope: 10, fear: 3, total: 15, success: false, outcome: 'failureWithHope' });
    expect(t.view(player(seats.a)).world.log.map((l) => l.text)).toContain("Rogue's Agility roll (Pick the vault lock): Hope 10 + Fear 3 + 2 (modifier) = 15: a failure with Hope.");
    // The GM's line names the difficulty the roll missed (ADR 67); the players' line above does not.
    expect(t.view(GM).world.log.map((l) => l.text)).toContain("Rogue's Agility roll (Pick the vault lock): Hope 10 + Fear 3 + 2 (modifier) = 15 vs 17 (hidden): a failure with Hope.");
    const odds = t.engine.query(t.table, player(seats.a), 'daggerheart.rollOdds', { requestId: req2 });
    const dice = (odds as unknown as { value: { hidden: boolean; critical: number; withHope: number; withFear: number; difficulty?: number } }).value;
    expect(dice.hidden).toBe(true);
    expect(dice.difficulty).toBeUndefined();
    expect(dice.critical).toBeCloseTo(12 / 144, 11);
    expect(dice.withHope).toBeCloseTo(66 / 144, 11);
    expect(dice.withFear).toBeCloseTo(66 / 144, 11);
    expect(JSON.stringify(odds)).not.toContain('19');
    // The GM sees the difficulty in the request and the full record.
    expect(requestsOf(t.view(GM).world)[req2]?.difficulty).toBe(19);
    expect(JSON.stringify(t.view(GM))).toContain('"difficulty":17');
  });
});
