// 000's "every action roll" rules, command by command: a standard countdown
// ticks every time a player makes an action roll (000 "Standard
// Countdowns"), a roll with Hope gives the PC 1 Hope and one with Fear gives
// the GM 1 Fear (rules README), and Help an Ally counts as advantage on the
// helped PC's action roll. The list of rolling commands is checked against
// the ruleset's own list, so a new one must be added here.
import { describe, expect, it } from 'vitest';
import { ruleset } from '../../src/daggerheart/index.js';
import { DhTable, events, ofType, player } from './helpers.js';

/** Every command that rolls the duality dice for a PC, and how. */
const ACTION_ROLLS: { readonly [command: string]: (t: DhTable, pc: string, seat: string) => void } = {
  'daggerheart.actionRoll': (t, pc, seat) => void t.run({ type: 'daggerheart.actionRoll', characterId: pc, modifier: 0, difficulty: 10 }, player(seat)),
  // Issue 21: the GM asks, the player rolls the request from the phone.
  'daggerheart.rollRequest': (t, pc, seat) => {
    const asked = ofType(t.run({ type: 'daggerheart.requestRoll', characterId: pc, difficulty: 10 }), 'daggerheart.rollRequested')[0]!;
    t.run({ type: 'daggerheart.rollRequest', requestId: (asked['request'] as { id: string }).id }, player(seat));
  },
};

/** Every other command of the daggerheart module, and why it rolls nothing. */
const NO_ROLL: { readonly [command: string]: string } = {
  'daggerheart.helpAlly': 'offers advantage to the ally\'s next action roll; the helper rolls nothing',
  'daggerheart.spendHope': 'no roll',
  'daggerheart.gainHope': 'no roll',
  'daggerheart.spendFear': 'no roll',
  'daggerheart.gainFear': 'no roll',
  'daggerheart.requestRoll': 'asks for a roll; daggerheart.rollRequest makes it',
  'daggerheart.cancelRequest': 'withdraws a request unrolled',
  'daggerheart.askRoll': 'the player asks to roll; daggerheart.rollRequest makes it once the GM sets the difficulty',
  'daggerheart.setDifficulty': 'the GM sets the difficulty of an asked roll; no roll',
  'daggerheart.markTrack': 'no roll',
  'daggerheart.takeDamage': 'damage is rolled (or told) before; thresholds need no dice',
  'daggerheart.answerHit': 'the PC chooses whether to mark an Armor Slot against a hit already rolled (ADR 50)',
  'daggerheart.addAdversaries': 'no roll (fixed countdown starts)',
  'daggerheart.rest': 'rolls 1d4s for downtime moves and the GM\'s Fear, not the duality dice',
  'daggerheart.passSpotlight': 'no roll',
  'daggerheart.takeSpotlight': 'no roll',
  'daggerheart.adversaryAttack': "an adversary's d20 attack (ADR 40), not the duality dice: no Hope, no Fear, no countdown ticks",
};

function table() {
  const t = new DhTable();
  const a = t.seat('Ana');
  const b = t.seat('Bo');
  return { t, a, b, rogue: t.pc('Rogue', a), bard: t.pc('Bard', b) };
}

describe('000: every command that rolls an action roll is listed (or excluded with its reason)', () => {
  it('the lists cover the daggerheart module\'s commands exactly', () => {
    const mine = ruleset.modules.flatMap((m) => Object.keys(m.commands ?? {})).filter((k) => k.startsWith('daggerheart.'));
    expect([...Object.keys(ACTION_ROLLS), ...Object.keys(NO_ROLL)].sort()).toEqual(mine.sort());
  });
});

describe('000: every action roll feeds Hope or Fear, ticks the standard countdowns and takes the help offered', () => {
  for (const [command, roll] of Object.entries(ACTION_ROLLS)) {
    it(`${command}: Hope 9, Fear 2 gives the PC 1 Hope and ticks a standard countdown 3 -> 2 (000 Standard Countdowns: every action roll)`, () => {
      const { t, a, rogue } = table();
      const cd = String(events(t.run({ type: 'countdown.create', name: 'Patrol', start: 3 }))[0]!['id']);
      t.dice.queue(9, 2);
      roll(t, rogue, a);
      expect(t.hope(rogue)).toBe(3);
      expect(t.cd(cd).value).toBe(2);
    });
    it(`${command}: Hope 2, Fear 9 gives the GM 1 Fear (rules README: a roll with Fear gives the GM 1 Fear)`, () => {
      const { t, a, rogue } = table();
      t.dice.queue(2, 9);
      roll(t, rogue, a);
      expect(t.fear).toBe(1);
      expect(t.hope(rogue)).toBe(2);
    });
    it(`${command}: the Bard's Help an Ally is one advantage d6 on the Rogue's roll (000/README: advantage adds a d6)`, () => {
      const { t, a, b, rogue, bard } = table();
      t.run({ type: 'daggerheart.helpAlly', helperId: bard, targetId: rogue }, player(b));
      t.dice.queue(5, 4, 6);
      roll(t, rogue, a);
      const rolled = ofType(t.table.transactions.at(-1)!, 'daggerheart.actionRolled')[0]!;
      expect(rolled).toMatchObject({ advantageSources: 1, helpers: [bard], roll: { advantageDice: [6], total: 15 } });
    });
  }
});
