// The player's own action roll (issue 20, review 6, ADR 50): the phone picks
// a trait from the sheet ("Agility +2"), the GM sets the difficulty (shown or
// hidden, with an Experience if any), and the roll then waits on the phone
// with its odds; a player never types, nor reads, a GM-only difficulty.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { requestsOf } from '../../src/daggerheart/index.js';
import { DhTable, GM, ofType, player } from './helpers.js';

function table() {
  const t = new DhTable();
  const seat = t.seat('Ana');
  const other = t.seat('Bo');
  const rogue = t.pc('Rogue', seat, { agility: 2, finesse: -1 });
  const bard = t.pc('Bard', other);
  return { t, seat, other, rogue, bard };
}

const askedId = (t: DhTable, command: { [k: string]: Json }, seat: string): string =>
  String((ofType(t.run({ type: 'daggerheart.askRoll', ...command }, player(seat)), 'daggerheart.rollAsked')[0]!['request'] as { id: string }).id);

function odds(t: DhTable, viewer: Parameters<DhTable['view']>[0], requestId: string) {
  const r = t.engine.query(t.table, viewer, 'daggerheart.rollOdds', { requestId });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { hidden: boolean; awaiting?: boolean; success?: number; difficulty?: number };
}

describe("the player's own action roll: the trait from the sheet, the GM's difficulty", () => {
  it('the phone offers the six traits with their sheet values and no difficulty box; the GM still rolls with one', () => {
    const { t, seat, rogue } = table();
    t.run({ type: 'encounter.start', combatants: [{ id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue }] });
    const actions = (v: Parameters<DhTable['view']>[0]) => {
      const r = t.engine.query(t.table, v, 'daggerheart.actions', { combatantId: rogue });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as unknown as ActionsAnswer).actions;
    };
    const mine = actions(player(seat)).find((a) => a.id === 'askRoll')!;
    expect(mine).toMatchObject({ label: 'Action roll', command: 'daggerheart.askRoll', fixed: { characterId: rogue }, odds: null, numbers: [] });
    expect(mine.choices[0]!.options.map((o) => o.label)).toEqual(['Agility +2', 'Strength +0', 'Finesse −1', 'Instinct +0', 'Presence +0', 'Knowledge +0']);
    expect(actions(player(seat)).some((a) => a.id === 'actionRoll')).toBe(false);
    const gm = actions(GM).find((a) => a.id === 'actionRoll')!;
    expect(gm.numbers.map((n) => n.field)).toEqual(['bonus', 'difficulty', 'advantage']);
    expect(gm.odds).toMatchObject({ args: { characterId: rogue }, pass: ['trait', 'bonus', 'difficulty', 'advantage'] });
  });

  it('Agility +2 against a shown 12: success on Hope + Fear >= 10 or matching dice, 112/144 = 77.8%, before the roll; then rolled from the phone', () => {
    const { t, seat, rogue } = table();
    const id = askedId(t, { characterId: rogue, trait: 'agility' }, seat);
    expect(requestsOf(t.world)[id]).toMatchObject({ trait: 'agility', modifier: 2, difficulty: null, awaiting: true });
    expect(odds(t, player(seat), id)).toMatchObject({ hidden: true, awaiting: true });
    expect(t.fail({ type: 'daggerheart.rollRequest', requestId: id }, player(seat))).toMatchObject({ code: 'DH_NO_DIFFICULTY', path: 'requestId' });
    t.run({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 12 });
    let n = 0;
    for (let h = 1; h <= 12; h++) for (let f = 1; f <= 12; f++) if (h === f || h + f + 2 >= 12) n++;
    expect(n).toBe(112);
    expect(odds(t, player(seat), id).success).toBeCloseTo(n / 144, 10);
    expect(t.view(player(seat)).world.log.map((l) => l.text).slice(-2)).toEqual(['Rogue asks to make an Agility roll: the GM sets the difficulty.', "The GM sets the difficulty of Rogue's Agility roll: 12."]);
    t.dice.queue(7, 4);
    const tx = t.run({ type: 'daggerheart.rollRequest', requestId: id }, player(seat));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ hope: 7, fear: 4, modifier: 2, total: 13, difficulty: 12, outcome: 'successWithHope' });
  });

  it('a hidden difficulty: the phone reads that it is set and the dice-only odds; never the number, in state, log or history', () => {
    const { t, seat, other, rogue } = table();
    const id = askedId(t, { characterId: rogue, trait: 'finesse', label: 'Pick the lock' }, seat);
    t.run({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 23, hidden: true, experience: 'Thief', experienceBonus: 3 });
    for (const s of [seat, other]) {
      const v = t.view(player(s));
      expect(v.world.log.at(-1)?.text).toBe("The GM sets the difficulty of Rogue's Finesse roll.");
      expect(JSON.stringify(v)).not.toMatch(/"difficulty":23|: 23|23 \(hidden\)/);
    }
    expect(odds(t, player(seat), id)).toMatchObject({ hidden: true, awaiting: false });
    expect(requestsOf(t.view(player(seat)).world)[id]).toMatchObject({ difficulty: null, hidden: true, modifier: -1, experience: { name: 'Thief', bonus: 3 } });
    expect(t.view(GM).world.log.at(-1)?.text).toBe("The GM sets the difficulty of Rogue's Finesse roll: 23 (hidden).");
  });

  it("the player's own roll reads as theirs (review 7): \"Roll Finesse: cut the rope bridge\" (free, not \"the GM asked\"), and \"Kira's Finesse roll (cut the rope bridge): Hope 8, Fear 9 + 1 = 18 vs 10\"", () => {
    const t = new DhTable();
    const seat = t.seat('Ana');
    const kira = t.pc('Kira', seat, { finesse: 1 });
    t.run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', characterId: kira }] });
    const request = () => {
      const r = t.engine.query(t.table, player(seat), 'daggerheart.actions', { combatantId: kira });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as unknown as ActionsAnswer).actions.find((a) => a.id.startsWith('request:'));
    };
    const id = askedId(t, { characterId: kira, trait: 'finesse', label: 'cut the rope bridge' }, seat);
    expect(t.view(player(seat)).world.log.at(-1)?.text).toBe('Kira asks to make a Finesse roll (cut the rope bridge): the GM sets the difficulty.');
    // Waiting on the GM: the button is there, refused in words.
    expect(request()).toMatchObject({ label: 'Roll Finesse: cut the rope bridge', cost: 'free', allowed: false, reason: 'the GM has not set the difficulty yet' });
    t.run({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 10 });
    expect(request()).toMatchObject({ label: 'Roll Finesse: cut the rope bridge', cost: 'free', allowed: true });
    // Hope 8 + Fear 9 + Finesse 1 = 18 >= 10, the Fear die higher: a success with Fear.
    t.dice.queue(8, 9);
    t.run({ type: 'daggerheart.rollRequest', requestId: id }, player(seat));
    expect(t.view(player(seat)).world.log.find((l) => l.kind === 'daggerheart.actionRolled')?.text).toBe("Kira's Finesse roll (cut the rope bridge): Hope 8 + Fear 9 + 1 (modifier) = 18 vs 10: a success with Fear.");
    // The GM's request still says who asked; a roll with no trait keeps the old words.
    t.run({ type: 'daggerheart.requestRoll', characterId: kira, trait: 'agility', difficulty: 12 });
    expect(request()).toMatchObject({ label: 'Roll Agility', cost: 'free (the GM asked for it)', allowed: true });
    t.dice.queue(3, 3);
    t.run({ type: 'daggerheart.actionRoll', characterId: kira, difficulty: 12 });
    expect(t.view(GM).world.log.filter((l) => l.kind === 'daggerheart.actionRolled').at(-1)?.text).toBe('Kira makes an action roll: Hope 3 + Fear 3 = 6 vs 12: a critical success.');
  });

  it("refusals: another player's PC, a player setting the difficulty, setting it twice, an unknown trait", () => {
    const { t, seat, other, rogue } = table();
    expect(t.fail({ type: 'daggerheart.askRoll', characterId: rogue, trait: 'agility' }, player(other)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.askRoll', characterId: rogue, trait: 'luck' }, player(seat)).path).toBe('trait');
    const id = askedId(t, { characterId: rogue, trait: 'agility' }, seat);
    expect(t.fail({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 12 }, player(seat)).code).toBe('FORBIDDEN');
    t.run({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 12 });
    expect(t.fail({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 14 })).toMatchObject({ code: 'DH_DIFFICULTY_SET', path: 'requestId' });
    expect(t.fail({ type: 'daggerheart.setDifficulty', requestId: id, difficulty: 61 }).path).toBe('difficulty');
  });

  it("property: the GM's actionRoll with a trait adds the sheet's value; its odds query agrees with the roll's modifier", () => {
    fc.assert(
      fc.property(fc.constantFrom('agility', 'finesse', 'strength'), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 5, max: 30 }), (trait, bonus, difficulty) => {
        const { t, rogue } = table();
        const tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, trait, bonus, difficulty });
        const want = ({ agility: 2, finesse: -1, strength: 0 } as const)[trait as 'agility'] + bonus;
        expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ modifier: want });
        const withTrait = t.engine.query(t.table, GM, 'daggerheart.actionRollOdds', { characterId: rogue, trait, bonus, difficulty });
        const plain = t.engine.query(t.table, GM, 'daggerheart.actionRollOdds', { bonus: want, difficulty });
        expect(withTrait).toEqual(plain);
      }),
      { numRuns: 40 },
    );
  });
});

describe('Help an Ally on a roll that has advantage already (review 6, ADR 50)', () => {
  it("the GM gave advantage, the Bard helps: two d6 [2, 5], the highest counts: Hope 9 + Fear 5 + Agility 2 + 5 = 21; the odds rise before the roll", () => {
    const { t, seat, other, rogue, bard } = table();
    const req = String((ofType(t.run({ type: 'daggerheart.requestRoll', characterId: rogue, trait: 'agility', difficulty: 18, advantage: 1 }), 'daggerheart.rollRequested')[0]!['request'] as { id: string }).id);
    const before = odds(t, player(seat), req).success!;
    t.run({ type: 'daggerheart.helpAlly', helperId: bard, targetId: rogue }, player(other));
    const after = odds(t, player(seat), req).success!;
    // Brute force over the 144 pairs and 36 pairs of d6: success on a match or on 2 + Hope + Fear + the higher d6 >= 18.
    let n = 0;
    let one = 0;
    for (let h = 1; h <= 12; h++)
      for (let f = 1; f <= 12; f++) {
        for (let a = 1; a <= 6; a++) {
          if (h === f || 2 + h + f + a >= 18) one++;
          for (let b = 1; b <= 6; b++) if (h === f || 2 + h + f + Math.max(a, b) >= 18) n++;
        }
      }
    expect(before).toBeCloseTo(one / (144 * 6), 10);
    expect(after).toBeCloseTo(n / (144 * 36), 10);
    expect(after).toBeGreaterThan(before);
    t.dice.queue(9, 5, 2, 5);
    const tx = t.run({ type: 'daggerheart.rollRequest', requestId: req }, player(seat));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ advantageDice: [2, 5], total: 21, outcome: 'successWithHope', keptHighest: true });
    expect(t.view(player(seat)).world.log.find((l) => l.kind === 'daggerheart.actionRolled')?.text).toBe("Rogue's Agility roll: Hope 9 + Fear 5 + d6 [2, 5] (the highest, 5) + 2 (modifier) = 21 vs 18: a success with Hope.");
  });

  it('one helper on a plain roll is one d6 as before; with the setting off, help on advantage adds nothing', () => {
    const plain = table();
    plain.t.run({ type: 'daggerheart.helpAlly', helperId: plain.bard, targetId: plain.rogue }, player(plain.other));
    plain.t.dice.queue(6, 5, 4);
    const tx = plain.t.run({ type: 'daggerheart.actionRoll', characterId: plain.rogue, difficulty: 10 }, player(plain.seat));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ advantageDice: [4], total: 15 });
    const off = new DhTable({ 'daggerheart.helpKeepsHighest': false });
    const a = off.seat('Ana');
    const b = off.seat('Bo');
    const rogue = off.pc('Rogue', a);
    const bard = off.pc('Bard', b);
    off.run({ type: 'daggerheart.helpAlly', helperId: bard, targetId: rogue }, player(b));
    off.dice.queue(6, 5, 4);
    const tx2 = off.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, advantage: 1 }, player(a));
    expect(ofType(tx2, 'daggerheart.actionRolled')[0]!['roll']).toMatchObject({ advantageDice: [4], total: 15 });
  });
});
