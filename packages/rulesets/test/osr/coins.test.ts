// Review 13 item 6: OSR coins (001 "Treasure": all coins weigh the same, 100 to a pound and 500 to a load;
// 10 cp = 1 sp, 10 sp = 1 gp) in a purse on each sheet, weighed into encumbrance (001 "Movement Actions": each
// load above STR is -5' and disadvantage on every check), changed by the GM or the player, filled by treasure.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Json, type Viewer } from '@tablekeeper/engine';
import { carriedLoad, coinPounds, convertCoins, encumbrance, purseLoads, readSheet } from '../../src/osr/index.js';
import { coinsAction } from '../../src/osr/tool-actions.js';
import { eventsOf, osrTable } from './helpers.js';

const GM: Viewer = { role: 'gm' };

function party() {
  const t = osrTable();
  const ann = t.seat('Ann');
  const bo = t.seat('Bo');
  // STR 10 and 10 loads: exactly at the limit.
  const kira = t.add('Kira', { maxHp: 10, hp: 10, str: 10, load: 10 }, 'pc', ann);
  const dorn = t.add('Dorn', { maxHp: 10, hp: 10, str: 12, load: 0 }, 'pc', bo);
  return { t, kira, dorn, annView: { role: 'player', seatId: ann } as Viewer, boView: { role: 'player', seatId: bo } as Viewer };
}
const status = (t: ReturnType<typeof osrTable>, id: string) => {
  const r = t.s.engine.query(t.s.table, GM, 'osr.characterStatus', { characterId: id });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { speed: number; overloaded: number };
};

describe('the coin purse and its weight', () => {
  it("the text's numbers: 500 coins are 5 pounds and one load; the purse counts each started 500 as a load", () => {
    expect(coinPounds(500)).toBe(5);
    expect(purseLoads({ cp: 0, sp: 0, gp: 0 })).toBe(0);
    expect(purseLoads({ cp: 0, sp: 0, gp: 500 })).toBe(1);
    // Every coin weighs the same, whatever its metal: 200 + 200 + 100 is one load.
    expect(purseLoads({ cp: 200, sp: 200, gp: 100 })).toBe(1);
    expect(purseLoads({ cp: 0, sp: 0, gp: 501 })).toBe(2);
    expect(carriedLoad(readSheet({ load: 3, gp: 1000 }))).toBe(5);
  });

  it('500 gp on STR 10 carrying 10 loads: 11 loads, one above STR, so 25\' and disadvantage (001 "Movement Actions")', () => {
    const { t, kira } = party();
    expect(status(t, kira)).toMatchObject({ speed: 30, overloaded: 0 });
    t.run({ type: 'osr.setSheet', characterId: kira, sheet: { gp: 500 } });
    expect(encumbrance(10, 11, 30)).toEqual({ over: 1, speed: 25, disadvantage: true, fullyEncumbered: false });
    expect(status(t, kira)).toMatchObject({ speed: 25, overloaded: 1 });
    // The disadvantage is on every check, and the check's log says why.
    t.dice.queue(4, 17);
    const [checked] = eventsOf(t.run({ type: 'osr.check', characterId: kira, difficulty: 10 }), 'osr.checked');
    expect(checked).toMatchObject({ roll: { dice: [4, 17], natural: 4, success: false } });
    expect(checked!['reasons']).toContain('carrying more load than STR');
  });

  it('property: coins never lighten a character, and each 500 more adds exactly one load', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(100_000), fc.nat(100_000), fc.nat(100_000), (load, cp, sp, gp) => {
        const s = readSheet({ load, cp, sp, gp });
        expect(carriedLoad(s)).toBeGreaterThanOrEqual(load);
        expect(carriedLoad(readSheet({ load, cp, sp, gp: gp + 500 }))).toBe(carriedLoad(s) + 1);
      }),
    );
  });

  it('a purse below zero or past the limit is refused in words', () => {
    const { t, kira } = party();
    const e = t.s.fail({ type: 'osr.setSheet', characterId: kira, sheet: { gp: -1 } });
    expect(e.path).toContain('gp');
    expect(t.s.fail({ type: 'osr.setSheet', characterId: kira, sheet: { cp: 10_000_001 } }).path).toContain('cp');
  });
});

describe('changing coins (10 cp = 1 sp, 10 sp = 1 gp)', () => {
  it('Ann changes 3 gp into 30 sp and 250 cp into 25 sp for Kira, logged in words; undo gives them back', () => {
    const { t, kira } = party();
    t.run({ type: 'osr.setSheet', characterId: kira, sheet: { gp: 5, cp: 250 } });
    expect(convertCoins(3, 'gp', 'sp')).toBe(30);
    expect(convertCoins(250, 'cp', 'sp')).toBe(25);
    t.run({ type: 'osr.convertCoins', characterId: kira, amount: 3, from: 'gp', to: 'sp' });
    t.run({ type: 'osr.convertCoins', characterId: kira, amount: 250, from: 'cp', to: 'sp' });
    expect(readSheet(t.stats(kira))).toMatchObject({ gp: 2, sp: 55, cp: 0 });
    expect(t.world.log.at(-1)!.text).toBe('Kira changed 250 cp into 25 sp.');
    t.run({ type: 'history.undo' });
    expect(readSheet(t.stats(kira))).toMatchObject({ gp: 2, sp: 30, cp: 250 });
  });

  it('refusals name what is wrong: too few coins held, not a whole coin, the same coin twice, another player\'s PC', () => {
    const { t, kira, annView, boView } = party();
    t.run({ type: 'osr.setSheet', characterId: kira, sheet: { cp: 25 } });
    const refuse = (viewer: Viewer, c: { [k: string]: Json }) => t.s.fail({ type: 'osr.convertCoins', characterId: kira, ...c }, viewer).message;
    expect(refuse(GM, { amount: 30, from: 'cp', to: 'sp' })).toBe("Kira's purse holds 25 cp, not 30");
    expect(refuse(GM, { amount: 25, from: 'cp', to: 'sp' })).toBe('25 cp is not a whole number of sp (10 cp make 1 sp)');
    expect(refuse(GM, { amount: 5, from: 'cp', to: 'cp' })).toBe('pick two different coins to change between');
    expect(t.s.fail({ type: 'osr.convertCoins', characterId: kira, amount: 20, from: 'cp', to: 'sp' }, boView).code).toBe('FORBIDDEN');
    // Kira's own player may change her coins.
    t.s.run({ type: 'osr.convertCoins', characterId: kira, amount: 20, from: 'cp', to: 'sp' }, annView);
    expect(readSheet(t.stats(kira))).toMatchObject({ cp: 5, sp: 2 });
  });

  it("the GM's Change coins tool says what the purse holds and is refused for an empty purse", () => {
    const { t, kira, dorn } = party();
    t.run({ type: 'osr.setSheet', characterId: kira, sheet: { gp: 7, sp: 3 } });
    const a = coinsAction(t.world, kira);
    expect(a).toMatchObject({ command: 'osr.convertCoins', allowed: true, cost: 'the purse holds 7 gp, 3 sp, 0 cp (10 coins: 500 to a load)' });
    expect(coinsAction(t.world, dorn)).toMatchObject({ allowed: false, reason: "Dorn's purse is empty" });
  });
});

describe('treasure into the purses', () => {
  it('1,000 gp shared by two into their purses: 500 gp each, so Kira (STR 10, 10 loads) slows to 25\'; Dorn (STR 12) does not', () => {
    const { t, kira, dorn } = party();
    const tx = t.run({ type: 'osr.treasure', characterIds: [kira, dorn], gp: 1000, intoPurses: true });
    expect(eventsOf(tx, 'osr.treasureShared')[0]).toMatchObject({ each: 500, pursed: true });
    expect(t.world.log.at(-1)!.text).toBe('1000 gp shared by Kira and Dorn, 500 each (+500 XP each), into their purses.');
    expect(readSheet(t.stats(kira)).gp).toBe(500);
    expect(status(t, kira).speed).toBe(25);
    expect(status(t, dorn)).toMatchObject({ speed: 30, overloaded: 0 });
    t.run({ type: 'history.undo' });
    expect(readSheet(t.stats(kira)).gp).toBe(0);
  });

  it('without intoPurses the treasure is XP only, as before', () => {
    const { t, kira, dorn } = party();
    t.run({ type: 'osr.treasure', characterIds: [kira, dorn], gp: 1000 });
    expect(readSheet(t.stats(kira)).gp).toBe(0);
  });
});
