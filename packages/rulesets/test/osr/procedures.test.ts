// 001 exploration procedures on the engine's one clock: travel turns, light
// burning down, time dice, rolling to return, overland and overwater travel.
import { describe, expect, it } from 'vitest';
import { timeOfDay } from '../../src/osr/queries.js';
import { eventsOf, osrTable } from './helpers.js';

const HOUR = 3600;

describe('travel turns (001 "Travel Turns")', () => {
  it('each turn moves the clock an hour and rolls the table; the band is the GM\'s alone', () => {
    const t = osrTable();
    t.dice.queue(14);
    const tx = t.run({ type: 'osr.travelTurn' });
    expect(t.world.clock.seconds).toBe(HOUR);
    expect(t.world.clock.counts.travelTurn).toBe(1);
    expect(eventsOf(tx, 'osr.travelTurnRolled')[0]).toMatchObject({ natural: 14, band: 'worsens', turnsOut: 1 });
    expect(t.osr.turnsOut).toBe(1);
    const player = t.s.view({ role: 'spectator' });
    expect(JSON.stringify(player.world.log)).not.toContain('worsens');
    expect(JSON.stringify(t.s.view({ role: 'gm' }).world.log)).toContain('worsens');
    expect(JSON.stringify(player.world.ext['osr'])).not.toContain('worsens');
  });
  it('cautious rolls with advantage (better for the party), careless with disadvantage', () => {
    const t = osrTable();
    t.dice.queue(1, 20);
    expect(eventsOf(t.run({ type: 'osr.travelTurn', approach: 'cautious' }), 'osr.travelTurnRolled')[0]).toMatchObject({ natural: 20, band: 'nothing' });
    t.dice.queue(1, 20);
    expect(eventsOf(t.run({ type: 'osr.travelTurn', approach: 'careless' }), 'osr.travelTurnRolled')[0]).toMatchObject({ natural: 1, band: 'terrible' });
  });
  it('every face lands in its band', () => {
    const t = osrTable();
    const bands: string[] = [];
    for (let f = 1; f <= 20; f++) {
      t.dice.queue(f);
      bands.push(String(eventsOf(t.run({ type: 'osr.travelTurn' }), 'osr.travelTurnRolled')[0]!['band']));
    }
    expect(bands).toEqual(['terrible', ...Array(9).fill('soon'), ...Array(9).fill('worsens'), 'nothing']);
  });
});

describe('light sources on the clock (001 "Light")', () => {
  it('a torch goes out by itself after one hour; a lantern after three', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 5 });
    t.run({ type: 'osr.lightSource', kind: 'torch', owner: pc });
    t.run({ type: 'osr.lightSource', kind: 'lantern', owner: pc });
    t.run({ type: 'clock.advance', unit: 'time', seconds: HOUR - 1 });
    expect(Object.keys(t.osr.sources)).toHaveLength(2);
    const tx = t.run({ type: 'clock.advance', unit: 'time', seconds: 1 });
    expect(eventsOf(tx, 'osr.sourceBurnedOut')).toHaveLength(1);
    expect(Object.values(t.osr.sources).map((s) => s.kind)).toEqual(['lantern']);
    t.dice.queue(10, 10);
    t.run({ type: 'osr.travelTurn' });
    t.run({ type: 'osr.travelTurn' });
    expect(Object.keys(t.osr.sources)).toHaveLength(0);
  });
  it('the light level: a burning torch makes darkness dim (ranged attacks still hindered, melee not)', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 5 });
    t.run({ type: 'osr.setLight', level: 'darkness' });
    t.run({ type: 'osr.lightSource', kind: 'torch', owner: pc });
    t.dice.queue(10);
    expect(eventsOf(t.run({ type: 'osr.check', character: pc, dc: 5, tags: ['attack'] }), 'osr.checked')[0]!['roll']).toMatchObject({ advantage: 0 });
    t.dice.queue(10, 4);
    expect(eventsOf(t.run({ type: 'osr.check', character: pc, dc: 5, tags: ['sight'] }), 'osr.checked')[0]!['roll']).toMatchObject({ advantage: -1 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: HOUR });
    // The torch is out: sight in darkness is impossible.
    t.dice.queue(20, 20);
    const e = eventsOf(t.run({ type: 'osr.check', character: pc, dc: 5, tags: ['sight'] }), 'osr.checked')[0]!;
    expect(e).toMatchObject({ impossible: true, roll: { success: false } });
  });
  it('a doused torch keeps its remaining time and burns it when relit', () => {
    const t = osrTable();
    const tx = t.run({ type: 'osr.lightSource', kind: 'torch' });
    const id = String(eventsOf(tx, 'osr.sourceLit')[0]!['sourceId']);
    t.run({ type: 'clock.advance', unit: 'time', seconds: 1800 });
    t.run({ type: 'osr.douse', sourceId: id });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 5 * HOUR });
    expect(t.osr.sources[id]).toMatchObject({ burnsOutAt: null, remaining: 1800 });
    t.run({ type: 'osr.relight', sourceId: id });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 1800 });
    expect(t.osr.sources[id]).toBeUndefined();
  });
  it('a night of rest burns a torch out; undo brings it back', () => {
    const t = osrTable();
    t.run({ type: 'osr.lightSource', kind: 'torch' });
    t.run({ type: 'osr.rest', kind: 'unsafe' });
    expect(Object.keys(t.osr.sources)).toHaveLength(0);
    t.s.undo();
    expect(Object.keys(t.osr.sources)).toHaveLength(1);
  });
});

describe('time dice (001 "Timekeeping")', () => {
  it('the portal: 2d6 showing 3 and 2 make it 05:00, pre-dawn; the clock moves there', () => {
    const t = osrTable();
    t.dice.queue(3, 2);
    const tx = t.run({ type: 'osr.rollTime', dice: 2, use: 'clock' });
    expect(eventsOf(tx, 'osr.timeRolled')[0]).toMatchObject({ faces: [3, 2], hour: 5, quarter: 'pre-dawn' });
    expect(t.world.clock.seconds).toBe(5 * HOUR);
    // An hour passes with a travel turn: 06:00; another: 07:00, the morning's first hour.
    t.dice.queue(10, 10);
    t.run({ type: 'osr.travelTurn' });
    t.run({ type: 'osr.travelTurn' });
    expect(Math.floor(t.world.clock.seconds / HOUR) % 24).toBe(7);
  });
  it('the clock\'s hour reads as time dice: 20:00 is 6, 6, 6, 2 at night', () => {
    const t = osrTable();
    t.run({ type: 'clock.advance', unit: 'time', seconds: 20 * HOUR + 59 * 60 });
    expect(timeOfDay(t.world)).toEqual({ hour: 20, dice: [6, 6, 6, 2], quarter: 'night', day: 1 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 10 * HOUR });
    expect(timeOfDay(t.world)).toEqual({ hour: 6, dice: [6], quarter: 'pre-dawn', day: 2 });
  });
  it('a starting hour plus one die; or the dice as a duration', () => {
    const t = osrTable();
    t.dice.queue(4);
    expect(eventsOf(t.run({ type: 'osr.rollTime', dice: 1, from: 12 }), 'osr.timeRolled')[0]).toMatchObject({ hour: 16, quarter: 'afternoon' });
    expect(t.world.clock.seconds).toBe(0);
    t.dice.queue(6, 1);
    t.run({ type: 'osr.rollTime', dice: 2, use: 'duration' });
    expect(t.world.clock.seconds).toBe(7 * HOUR);
    expect(t.s.fail({ type: 'osr.rollTime', dice: 5 }).path).toBe('dice');
  });
});

describe('rolling to return (001 "Rolling To Return")', () => {
  it('the text: two PCs four hours out (DC 14), +6 rolls 17 and is safe, +5 rolls 12 on an arduous path and drops 2 load', () => {
    const t = osrTable();
    // +6: DEX 18 (+4) and proficiency +2; +5: DEX 16 (+3) and +2.
    const a = t.add('First', { dex: 18, maxHp: 10 });
    const b = t.add('Second', { dex: 16, maxHp: 10, load: 6 });
    for (let i = 0; i < 4; i++) {
      t.dice.queue(15);
      t.run({ type: 'osr.travelTurn' });
    }
    t.dice.queue(11, 7);
    const tx = t.run({ type: 'osr.rollToReturn', path: 'arduous' });
    const [ra, rb] = eventsOf(tx, 'osr.returnRolled');
    expect(ra).toMatchObject({ characterId: a, dc: 14, roll: { modifier: 6, total: 17, success: true } });
    expect(rb).toMatchObject({ characterId: b, dc: 14, roll: { natural: 7, modifier: 5, total: 12, success: false }, loadLost: 2 });
    expect(t.stats(b)['load']).toBe(4);
    expect(t.osr.turnsOut).toBe(0);
  });
  it('dangerous: 1d6 per point under the DC; at 0 HP dead (or unconscious if the GM says so)', () => {
    const t = osrTable();
    const a = t.add('A', { maxHp: 5, dex: 10 });
    const b = t.add('B', { maxHp: 20, dex: 10 });
    // DC 10 with no travel turns; A rolls 7 (+0 best mod +2 prof = 9): 1 under, 1d6 = 6 -> dead.
    t.dice.queue(7, 6, 5, 3, 2, 1, 4);
    const tx = t.run({ type: 'osr.rollToReturn', path: 'dangerous' });
    expect(eventsOf(tx, 'osr.returnRolled')[0]).toMatchObject({ damage: { faces: [6], total: 6 } });
    expect(t.osr.dead).toEqual([a]);
    // B rolled 5 + 2 = 7: 3 under, 3d6 = 3 + 2 + 1.
    expect(eventsOf(tx, 'osr.returnRolled')[1]).toMatchObject({ damage: { faces: [3, 2, 1], total: 6 } });
    expect(t.stats(b)['hp']).toBe(14);
    const t2 = osrTable();
    const c = t2.add('C', { maxHp: 2 });
    t2.dice.queue(1, 6);
    t2.run({ type: 'osr.rollToReturn', path: 'dangerous', onZero: 'unconscious' });
    expect(t2.osr.dead).toEqual([]);
    expect(t2.osr.stable).toEqual([c]);
  });
  it('DC caps at 20', () => {
    const t = osrTable();
    t.add('A', { maxHp: 5 });
    for (let i = 0; i < 12; i++) t.run({ type: 'osr.travelTurn' });
    t.dice.queue(20);
    expect(eventsOf(t.run({ type: 'osr.rollToReturn' }), 'osr.returnRolled')[0]).toMatchObject({ dc: 20 });
  });
});

describe('overland and overwater travel (001)', () => {
  it('the text\'s +2 STR PC: 12 miles a day in open terrain; two days move the clock 48 hours and roll two daily travel turns', () => {
    const t = osrTable();
    t.add('Strong', { str: 14, maxHp: 8 });
    t.dice.queue(10, 10);
    const tx = t.run({ type: 'osr.travel', mode: 'overland', days: 2 });
    expect(eventsOf(tx, 'osr.traveled')[0]).toMatchObject({ milesPerDay: 12, miles: 24 });
    expect(eventsOf(tx, 'osr.travelTurnRolled')).toHaveLength(2);
    expect(t.world.clock.seconds).toBe(48 * HOUR);
    expect(t.osr.turnsOut).toBe(2);
  });
  it('difficult 6, harsh 3; the party moves at its slowest; an encumbered PC halves', () => {
    const t = osrTable();
    const s = t.add('Strong', { str: 14, maxHp: 8 });
    expect(eventsOf(t.run({ type: 'osr.travel', terrain: 'difficult', characters: [s] }), 'osr.traveled')[0]).toMatchObject({ milesPerDay: 6 });
    expect(eventsOf(t.run({ type: 'osr.travel', terrain: 'harsh', characters: [s] }), 'osr.traveled')[0]).toMatchObject({ milesPerDay: 3 });
    t.add('Laden', { str: 14, load: 15, maxHp: 8 });
    expect(eventsOf(t.run({ type: 'osr.travel' }), 'osr.traveled')[0]).toMatchObject({ milesPerDay: 6 });
  });
  it('an exhausted PC (0\' speed) cannot travel, so the party cannot go together; left out of the list, the rest go', () => {
    const t = osrTable();
    const a = t.add('A', { str: 14, maxHp: 8 });
    const b = t.add('B', { maxHp: 8 });
    t.run({ type: 'osr.exhaust', character: b });
    expect(t.s.fail({ type: 'osr.travel', rollTravelTurns: false })).toMatchObject({ code: 'CANNOT_TRAVEL', path: 'characterIds' });
    expect(eventsOf(t.run({ type: 'osr.travel', characters: [a], rollTravelTurns: false }), 'osr.traveled')[0]).toMatchObject({ milesPerDay: 12 });
  });
  it('a torch lit before a day of travel is long out by evening (torches still burn hourly)', () => {
    const t = osrTable();
    t.add('A', { maxHp: 8 });
    t.run({ type: 'osr.lightSource', kind: 'torch' });
    t.run({ type: 'osr.travel', days: 1 });
    expect(Object.keys(t.osr.sources)).toHaveLength(0);
  });
  it('a ship makes 100 miles a day, halved against the wind; at sea travel turns are weekly', () => {
    const t = osrTable();
    const tx = t.run({ type: 'osr.travel', mode: 'sea', days: 7, current: 'unfavourable' });
    expect(eventsOf(tx, 'osr.traveled')[0]).toMatchObject({ milesPerDay: 50, miles: 350 });
    expect(eventsOf(tx, 'osr.travelTurnRolled')).toHaveLength(1);
    expect(eventsOf(t.run({ type: 'osr.travel', mode: 'river', current: 'favourable' }), 'osr.traveled')[0]).toMatchObject({ milesPerDay: 60 });
  });
});

describe('scenes as travel turns (001 "Travel Turns": every 3-4 scenes in a dungeon)', () => {
  it('the third scene is an hour and a travel turn (setting scenesPerTravelTurn)', () => {
    const t = osrTable();
    t.run({ type: 'osr.scene' });
    t.run({ type: 'osr.scene' });
    expect(t.world.clock.seconds).toBe(0);
    t.dice.queue(9);
    const tx = t.run({ type: 'osr.scene' });
    expect(eventsOf(tx, 'osr.travelTurnRolled')[0]).toMatchObject({ natural: 9, band: 'soon' });
    expect(t.world.clock.seconds).toBe(HOUR);
    expect(t.osr.scenes).toBe(0);
    const t4 = osrTable({ 'osr.scenesPerTravelTurn': 4 });
    for (let i = 0; i < 3; i++) t4.run({ type: 'osr.scene' });
    expect(t4.world.clock.seconds).toBe(0);
  });
});
