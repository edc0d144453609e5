// 001 exploration procedures as pure functions, with the text's examples recomputed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chaseDc,
  coinLoad,
  coinPounds,
  convertCoins,
  effectiveTerrain,
  hourFromTimeDice,
  lightEffect,
  litLevel,
  overlandMiles,
  overwaterMiles,
  partyMiles,
  purseGp,
  quarterOf,
  resilienceDc,
  returnDc,
  secondsUntilHour,
  timeDiceFor,
  travelTurnRow,
} from '../../src/osr/exploration.js';

describe('travel turn table (001 "Travel Turn Table"), every row', () => {
  it('1 terrible, 2-10 soon, 11-19 worsens, 20 nothing bad', () => {
    const bands = Array.from({ length: 20 }, (_, i) => travelTurnRow(i + 1).band);
    expect(bands).toEqual(['terrible', ...Array(9).fill('soon'), ...Array(9).fill('worsens'), 'nothing']);
  });
});

describe('time dice (001 "Timekeeping")', () => {
  it('(6,1) is 07:00 and (6,6,6,2) is 20:00', () => {
    expect(hourFromTimeDice([6, 1])).toBe(7);
    expect(hourFromTimeDice([6, 6, 6, 2])).toBe(20);
    expect(timeDiceFor(7)).toEqual([6, 1]);
    expect(timeDiceFor(20)).toEqual([6, 6, 6, 2]);
  });
  it('the portal: 2d6 rolling (3,2) is 05:00, pre-dawn, one die set to 5; then 6; then (6,1)', () => {
    const h = hourFromTimeDice([3, 2]);
    expect(h).toBe(5);
    expect(quarterOf(h)).toBe('pre-dawn');
    expect(timeDiceFor(h)).toEqual([5]);
    expect(timeDiceFor(h + 1)).toEqual([6]);
    expect(timeDiceFor(h + 2)).toEqual([6, 1]);
    expect(quarterOf(h + 2)).toBe('morning');
  });
  it('quarters: 1-6 pre-dawn, 7-12 morning, 13-18 afternoon, 19-24 night; midnight is four sixes', () => {
    expect([1, 6, 7, 12, 13, 18, 19, 23, 0].map(quarterOf)).toEqual(['pre-dawn', 'pre-dawn', 'morning', 'morning', 'afternoon', 'afternoon', 'night', 'night', 'night']);
    expect(timeDiceFor(0)).toEqual([6, 6, 6, 6]);
  });
  it('reading the dice for any hour gives the hour back; one die per quarter (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 23 }), (h) => {
      const dice = timeDiceFor(h);
      expect(hourFromTimeDice(dice)).toBe(h);
      expect(dice.length).toBe(['pre-dawn', 'morning', 'afternoon', 'night'].indexOf(quarterOf(h)) + 1);
      expect(dice.every((d) => d >= 1 && d <= 6)).toBe(true);
    }));
  });
  it('seconds until a given hour', () => {
    expect(secondsUntilHour(0, 5)).toBe(5 * 3600);
    expect(secondsUntilHour(6 * 3600, 5)).toBe(23 * 3600);
    expect(secondsUntilHour(5 * 3600, 5)).toBe(0);
  });
});

describe('roll to return DC (001 "Rolling To Return")', () => {
  it('10 + 1 per travel turn, four hours out is DC 14, capped at 20', () => {
    expect(returnDc(4)).toBe(14);
    expect(returnDc(0)).toBe(10);
    expect(returnDc(15)).toBe(20);
  });
});

describe('overland and overwater travel (001)', () => {
  it('the text: +2 STR walks 12 miles open, 6 difficult, 3 harsh', () => {
    expect(overlandMiles({ strMod: 2 })).toBe(12);
    expect(overlandMiles({ strMod: 2, terrain: 'difficult' })).toBe(6);
    expect(overlandMiles({ strMod: 2, terrain: 'harsh' })).toBe(3);
  });
  it('dim light is difficult, darkness harsh; the worse of terrain and light applies', () => {
    expect(effectiveTerrain('open', 'dim')).toBe('difficult');
    expect(effectiveTerrain('open', 'darkness')).toBe('harsh');
    expect(effectiveTerrain('harsh', 'dim')).toBe('harsh');
    expect(overlandMiles({ strMod: 2, light: 'darkness' })).toBe(3);
  });
  it('encumbered halves; tactical is 3/4, stealthy 1/2', () => {
    expect(overlandMiles({ strMod: 2, encumbered: true })).toBe(6);
    expect(overlandMiles({ strMod: 2, pace: 'tactical' })).toBe(9);
    expect(overlandMiles({ strMod: 2, pace: 'stealthy' })).toBe(6);
  });
  it('the party keeps the slowest pace', () => {
    expect(partyMiles([{ strMod: 2 }, { strMod: -1 }, { strMod: 3, encumbered: true }])).toBe(6.5);
  });
  it('boats 30 a day (3 mph), ships 100 a day (5 mph); wind x1/2 or x2', () => {
    expect(overwaterMiles('boat')).toBe(30);
    expect(overwaterMiles('ship')).toBe(100);
    expect(overwaterMiles('boat', 'none', 4)).toBe(12);
    expect(overwaterMiles('ship', 'unfavourable')).toBe(50);
    expect(overwaterMiles('boat', 'favourable')).toBe(60);
  });
});

describe('chases (001 "Chases")', () => {
  it('30\' quarry is DC 11; the 40\' scout is DC 13; 1 per 5\'', () => {
    expect(chaseDc(30)).toBe(11);
    expect(chaseDc(40)).toBe(13);
    expect(chaseDc(20)).toBe(9);
    expect(chaseDc(40, -2)).toBe(11);
  });
});

describe('light (001 "Light")', () => {
  it('darkness: stealth at advantage, attacks at disadvantage, sight impossible', () => {
    expect(lightEffect('darkness', ['stealth'])).toEqual({ advantage: 1, disadvantage: 0, impossible: false });
    expect(lightEffect('darkness', ['attack'])).toEqual({ advantage: 0, disadvantage: 1, impossible: false });
    expect(lightEffect('darkness', ['sight']).impossible).toBe(true);
  });
  it('darksight turns darkness\'s disadvantages into advantages', () => {
    expect(lightEffect('darkness', ['attack'], { darksight: true })).toEqual({ advantage: 1, disadvantage: 0, impossible: false });
    expect(lightEffect('darkness', ['sight'], { darksight: true }).impossible).toBe(false);
  });
  it('morale in darkness hinders surfacers only', () => {
    expect(lightEffect('darkness', ['morale']).disadvantage).toBe(1);
    expect(lightEffect('darkness', ['morale'], { surfacer: false }).disadvantage).toBe(0);
  });
  it('dim: ranged attacks and sight at disadvantage, melee untouched', () => {
    expect(lightEffect('dim', ['ranged-attack']).disadvantage).toBe(1);
    expect(lightEffect('dim', ['attack']).disadvantage).toBe(0);
    expect(lightEffect('dim', ['listening']).advantage).toBe(1);
  });
  it('brilliant: tracking at advantage, stealth and long-range attacks at disadvantage; well lit changes nothing', () => {
    expect(lightEffect('brilliant', ['tracking']).advantage).toBe(1);
    expect(lightEffect('brilliant', ['stealth']).disadvantage).toBe(1);
    expect(lightEffect('brilliant', ['long-range-attack']).disadvantage).toBe(1);
    expect(lightEffect('well-lit', ['attack', 'stealth'])).toEqual({ advantage: 0, disadvantage: 0, impossible: false });
  });
  it('a burning source lifts darkness to dim', () => {
    expect(litLevel('darkness', true)).toBe('dim');
    expect(litLevel('darkness', false)).toBe('darkness');
    expect(litLevel('brilliant', true)).toBe('brilliant');
  });
});

describe('resilience (001 "Resilience & Exhaustion")', () => {
  it('10 CON treks ten hours; the 12th hour needs DC 12', () => {
    expect(resilienceDc(10, 10)).toBeNull();
    expect(resilienceDc(10, 11)).toBe(11);
    expect(resilienceDc(10, 12)).toBe(12);
  });
});

describe('treasure (001 "Treasure")', () => {
  it('100 coins a pound, 500 a load; 10 cp = 1 sp, 10 sp = 1 gp', () => {
    expect(coinPounds(250)).toBe(2.5);
    expect(coinLoad(1000)).toBe(2);
    expect(convertCoins(10, 'cp', 'sp')).toBe(1);
    expect(convertCoins(3, 'gp', 'cp')).toBe(300);
    expect(purseGp({ gp: 2, sp: 5, cp: 20 })).toBe(2.7);
  });
});
