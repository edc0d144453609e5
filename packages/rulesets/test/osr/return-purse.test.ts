// 001 "Rolling To Return": on an arduous path each point under the DC is a load
// dropped, the least valuable and least secure first. Coins are load too (ADR
// 105: 500 to a load), so the purse pays its part, copper first, and the GM
// chooses whether it goes before the gear or after it (ADR 111).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { carriedLoad, purseDropped, purseLoads, readSheet } from '../../src/osr/index.js';
import { eventsOf, osrTable } from './helpers.js';

describe('a purse lost on an arduous return', () => {
  it('the text\'s example with a purse: +5 rolls 12 against DC 14, drops 2 loads; the purse first (300 gp, 1 load) then 1 load of gear; undo gives both back', () => {
    const t = osrTable();
    // +5: DEX 16 (+3) and proficiency +2; four travel turns out make DC 14.
    const b = t.add('Second', { dex: 16, maxHp: 10, load: 6, gp: 300 });
    for (let i = 0; i < 4; i++) {
      t.dice.queue(15);
      t.run({ type: 'osr.travelTurn' });
    }
    t.dice.queue(7);
    const tx = t.run({ type: 'osr.rollToReturn', path: 'arduous', purse: 'first' });
    // 14 - (7 + 5) = 2 short: ceil(300 / 500) = 1 load from the purse, 2 - 1 = 1 load of gear.
    expect(eventsOf(tx, 'osr.returnRolled')[0]).toMatchObject({ dc: 14, roll: { total: 12, shortfall: 2 }, loadLost: 1, purseLost: { cp: 0, sp: 0, gp: 300, loads: 1 }, purseFirst: true });
    expect(readSheet(t.stats(b))).toMatchObject({ load: 5, gp: 0 });
    expect(t.world.log.at(-2)!.text).toBe(
      'Second rolls to return: d20 7 +5 = 12 vs 14, dropped 300 gp from the purse (1 load) and 1 load of gear (the GM picks the items, least valuable first) on the way, the purse first as the GM chose.',
    );
    t.run({ type: 'history.undo' });
    expect(readSheet(t.stats(b))).toMatchObject({ load: 6, gp: 300 });
  });

  it('by default the gear goes first and the purse pays what the gear cannot, copper first: 3 short with 1 load of gear and 200 cp, 400 sp, 700 gp', () => {
    const t = osrTable();
    const a = t.add('A', { dex: 10, str: 10, maxHp: 10, load: 1, cp: 200, sp: 400, gp: 700 });
    // DC 10 with no travel turns, modifier 0: a natural 7 is 3 short.
    t.dice.queue(7);
    const tx = t.run({ type: 'osr.rollToReturn', path: 'arduous', modifiers: { [a]: 0 } });
    // 1 load of gear, then 2 loads = 1,000 coins of the 1,300: all 200 cp, all 400 sp, 400 of the gp.
    expect(eventsOf(tx, 'osr.returnRolled')[0]).toMatchObject({ roll: { shortfall: 3 }, loadLost: 1, purseLost: { cp: 200, sp: 400, gp: 400, loads: 2 } });
    expect(eventsOf(tx, 'osr.returnRolled')[0]!['purseFirst']).toBeUndefined();
    const s = readSheet(t.stats(a));
    expect(s).toMatchObject({ load: 0, cp: 0, sp: 0, gp: 300 });
    // 1 + ceil(1300 / 500) = 4 carried before, 0 + ceil(300 / 500) = 1 after: 3 fewer.
    expect(carriedLoad(s)).toBe(1);
    expect(t.world.log.at(-2)!.text).toContain('dropped 1 load of gear (the GM picks the items, least valuable first) and 200 cp, 400 sp, 400 gp from the purse (2 loads) on the way.');
  });

  it('a PC with nothing to drop loses nothing, and a gear-only loss reads as before', () => {
    const t = osrTable();
    const a = t.add('A', { dex: 10, maxHp: 10, load: 0 });
    const b = t.add('B', { dex: 10, maxHp: 10, load: 5 });
    t.dice.queue(5, 8);
    const tx = t.run({ type: 'osr.rollToReturn', path: 'arduous', purse: 'first', modifiers: { [a]: 0, [b]: 0 } });
    const [ra, rb] = eventsOf(tx, 'osr.returnRolled');
    expect(ra).toMatchObject({ loadLost: 0 });
    expect(ra!['purseLost']).toBeUndefined();
    expect(rb).toMatchObject({ roll: { shortfall: 2 }, loadLost: 2 });
    expect(readSheet(t.stats(b)).load).toBe(3);
    expect(t.world.log.map((l) => l.text)).toContain('A rolls to return: d20 5 = 5 vs 10, carried nothing to drop.');
    expect(t.world.log.map((l) => l.text)).toContain('B rolls to return: d20 8 = 8 vs 10, dropped 2 load on the way (the GM picks the items, least valuable first).');
  });

  it('purseDropped: k loads are 500k coins, copper then silver then gold, the last part-load whole', () => {
    expect(purseDropped({ cp: 600, sp: 0, gp: 10 }, 1)).toEqual({ cp: 500, sp: 0, gp: 0 });
    expect(purseDropped({ cp: 600, sp: 0, gp: 10 }, 2)).toEqual({ cp: 600, sp: 0, gp: 10 });
    expect(purseDropped({ cp: 0, sp: 0, gp: 0 }, 3)).toEqual({ cp: 0, sp: 0, gp: 0 });
  });

  it('property: whatever the sheet, the shortfall and the choice, the carried loads fall by min(shortfall, carried), and no coin of a dearer kind goes while a cheaper one stays', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.integer({ min: 2, max: 9 }),
        fc.constantFrom('first', 'last'),
        (load, cp, sp, gp, natural, purse) => {
          const t = osrTable();
          // STR 18 against at most 8 + ceil(4500 / 500) = 17 loads: no encumbrance disadvantage, one d20.
          const a = t.add('A', { str: 18, maxHp: 10, load, cp, sp, gp });
          const before = readSheet(t.stats(a));
          t.dice.queue(natural);
          // Modifier 0 against DC 10: a natural 2-9 always fails, 1 to 8 short (never vacuous).
          const tx = t.run({ type: 'osr.rollToReturn', path: 'arduous', purse, modifiers: { [a]: 0 } });
          const short = 10 - natural;
          expect(eventsOf(tx, 'osr.returnRolled')[0]).toMatchObject({ roll: { shortfall: short } });
          const after = readSheet(t.stats(a));
          expect(carriedLoad(after)).toBe(carriedLoad(before) - Math.min(short, carriedLoad(before)));
          if (after.cp > 0) expect([after.sp, after.gp]).toEqual([sp, gp]);
          if (after.sp > 0) expect(after.gp).toBe(gp);
          // The choice: the purse first empties it before any gear goes; last, no coin goes while gear stays.
          if (purse === 'first' && after.load < load) expect(purseLoads(after)).toBe(0);
          if (purse === 'last' && purseLoads(after) < purseLoads(before)) expect(after.load).toBe(0);
          t.run({ type: 'history.undo' });
          expect(readSheet(t.stats(a))).toEqual(before);
        },
      ),
      { numRuns: 150 },
    );
  });
});
