// The web's side of Daggerheart's review-10 gaps (ADR 79), without a DOM: the
// Hope/Fear card's sum with every term named, the End warning for a hit waiting on an Armor choice, and
// the odds in words against a foe whose Difficulty the GM keeps.
import { describe, expect, it } from 'vitest';
import type { World } from '@tablekeeper/engine';
import { inviteNeedsOf } from '@tablekeeper/rulesets/browser';
import { dualitySum, type ShownRoll } from '../packages/web/src/lib/daggerheart.ts';
import { endWarning } from '../packages/web/src/lib/hitChoices.ts';
import { describeActionOdds } from '../packages/web/src/lib/actions.ts';

const shown = (r: Partial<ShownRoll>): ShownRoll => ({ seq: 1, characterId: 'dorn', label: '', hope: 7, fear: 8, advantageDice: [], advantageSign: 0, modifier: 0, total: 15, difficulty: null, outcome: 'successWithFear', ...r });

describe('the Hope/Fear card adds up (review 10: "HOPE 7 FEAR 8 = 17" for a +2 roll)', () => {
  it('names the modifier, an advantage or disadvantage d6, and the highest of helpers\' d6, each term such that they sum to the total', () => {
    expect(dualitySum(shown({ modifier: 2, total: 17 }))).toBe('7 + 8 + 2 (modifier)');
    expect(dualitySum(shown({}))).toBe('7 + 8');
    expect(dualitySum(shown({ modifier: -1, total: 14 }))).toBe('7 + 8 − 1 (modifier)');
    expect(dualitySum(shown({ advantageDice: [4], advantageSign: 1, modifier: 2, total: 21 }))).toBe('7 + 8 + 4 (advantage) + 2 (modifier)');
    expect(dualitySum(shown({ advantageDice: [3], advantageSign: -1, total: 12 }))).toBe('7 + 8 − 3 (disadvantage)');
    expect(dualitySum(shown({ advantageDice: [2, 5], advantageSign: 1, total: 20 }))).toBe('7 + 8 + 7 (advantage 2 + 5)');
    expect(dualitySum(shown({ advantageDice: [2, 5], advantageSign: 1, keptHighest: true, total: 20 }))).toBe('7 + 8 + 5 (advantage: the highest of 2, 5)');
  });
  it('property: the terms the words name always sum to the total the roll records', () => {
    for (let hope = 1; hope <= 12; hope += 5)
      for (const modifier of [-3, 0, 4])
        for (const dice of [[], [6], [1, 3]]) {
          const total = hope + 9 + dice.reduce((a, b) => a + b, 0) + modifier;
          const words = dualitySum(shown({ hope, fear: 9, modifier, advantageDice: dice, advantageSign: dice.length > 0 ? 1 : 0, total }));
          // "a + b + c (..)": strip the words in brackets and add the signed numbers left.
          const sum = words.replace(/\([^)]*\)/g, '').replace(/−/g, '-').replace(/\s+/g, '').split(/(?=[+-])/).reduce((a, t) => a + Number(t), 0);
          expect(sum).toBe(total);
        }
  });
});

describe('End with a hit waiting on an Armor choice (ADR 79)', () => {
  const dh = (hits: { [id: string]: { id: string; characterId: string; amount: number } }): World =>
    ({ rulesetId: 'daggerheart', characters: { kira: { id: 'kira', name: 'Kira' }, dorn: { id: 'dorn', name: 'Dorn' } }, ext: { daggerheart: { fear: 0, help: {}, requests: {}, hits } } }) as unknown as World;
  it('names who, and says the hit lands with no Armor Slot marked; nothing waiting, no warning', () => {
    expect(endWarning(dh({ h1: { id: 'h1', characterId: 'kira', amount: 9 } }))).toBe('Kira has a hit waiting for an Armor choice: ending the conflict now lands it with no Armor Slot marked.');
    expect(endWarning(dh({ h1: { id: 'h1', characterId: 'kira', amount: 9 }, h2: { id: 'h2', characterId: 'dorn', amount: 3 }, h3: { id: 'h3', characterId: 'kira', amount: 4 } }))).toBe('Kira and Dorn have hits waiting for an Armor choice: ending the conflict now lands them with no Armor Slot marked.');
    expect(endWarning(dh({}))).toBeNull();
  });
});

describe('odds against a foe whose Difficulty the GM keeps', () => {
  it('the dice-only chances and the engine\'s reason, in words', () => {
    const words = describeActionOdds('daggerheart.actionRollOdds', { hidden: true, advantage: 0, critical: 12 / 144, withHope: 66 / 144, withFear: 66 / 144, why: "the GM keeps Imp 2's Difficulty secret" });
    expect(words).toEqual({ headline: '8.3% critical', detail: "with Hope 45.8% · with Fear 45.8% · the GM keeps Imp 2's Difficulty secret" });
  });
});

describe('the four outcomes of an action roll with a known Difficulty (review 12 #9)', () => {
  it('+1 vs 11: 112/144 success, 12 critical; success with Hope 50/144 and with Fear 50/144, failure 16/144 each', () => {
    // Counted over the 144 Hope/Fear pairs: matching dice are criticals; otherwise Hope + Fear + 1 >= 11 succeeds.
    const tally = { critical: 0, successWithHope: 0, successWithFear: 0, failureWithHope: 0, failureWithFear: 0 };
    for (let h = 1; h <= 12; h++)
      for (let f = 1; f <= 12; f++) {
        if (h === f) tally.critical++;
        else tally[`${h + f + 1 >= 11 ? 'success' : 'failure'}With${h > f ? 'Hope' : 'Fear'}`]++;
      }
    expect(tally).toEqual({ critical: 12, successWithHope: 50, successWithFear: 50, failureWithHope: 16, failureWithFear: 16 });
    const outcomes = Object.fromEntries(Object.entries(tally).map(([k, v]) => [k, v / 144]));
    const words = describeActionOdds('daggerheart.actionRollOdds', { success: (12 + 50 + 50) / 144, outcomes, difficulty: 11 });
    expect(words).toEqual({ headline: '77.8% success · 8.3% critical', detail: 'success with Hope 34.7% · with Fear 34.7% · failure with Hope 11.1% · with Fear 11.1%' });
  });
});

describe("the invite's quick character asks for what its ruleset's rules read (the rulesets say, not the web)", () => {
  it("Daggerheart asks for the Evasion (0 to 60, the sheet's limits); teams for Endurance and Stamina (ADR 84); the others ask nothing more", () => {
    // Review 12 #14: the damage thresholds too, in the sheet's limits, Severe not below Major.
    expect(inviteNeedsOf('daggerheart').map((n) => [n.key, n.label, n.min, n.max, n.atLeast ?? null])).toEqual([
      ['evasion', 'Evasion', 0, 60, null],
      ['major', 'Major threshold', 1, 200, null],
      ['severe', 'Severe threshold', 1, 400, 'major'],
    ]);
    expect(inviteNeedsOf('teams').map((n) => n.label)).toEqual(['Endurance', 'Stamina', 'Constitution', 'Evasion']);
    for (const id of ['osr', '36th-way', 'kleptonomicon']) expect(inviteNeedsOf(id)).toEqual([]);
  });
});
