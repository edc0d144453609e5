// Issue 16 for the OSR ruleset (001): encumbrance reaches every check (the
// corruption stage too), a 0' PC cannot travel overland, and a natural 1 on a
// check whose failure damages a PC doubles that damage wherever it happens.
// Numbers are recomputed from the text, not copied from the code.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { partyPace, travellerPace } from '../../src/osr/exploration.js';
import { eventsOf, osrTable, type OsrTable } from './helpers.js';

const HOUR = 3600;

/** A PC carrying the text's 11 load on STR 10 (001 "Movement Actions"): one load over. */
function overloaded(t: OsrTable, stats: { [k: string]: Json } = {}): string {
  return t.add('Laden', { str: 10, load: 11, maxHp: 20, ...stats });
}

const logTexts = (t: OsrTable): string[] => t.world.log.map((l) => l.text);

describe('001 "Movement Actions": an overloaded PC has disadvantage on all checks, resisting a corruption\'s stage included', () => {
  it('the stage check rolls two d20 and keeps the lower (001 Encumbrance: disadvantage on all checks)', () => {
    const t = osrTable();
    const pc = overloaded(t, { con: 10 });
    t.dice.queue(1); // exposure fails (DC 11): infected
    t.run({ type: 'osr.expose', character: pc, name: 'marsh fever', stages: [{ hours: 2, ability: 'con' }] });
    // Stage end: d20s 18 and 5, the lower (5) kept: 5 + 0 < 11, so 1d6 = 3 CON damage.
    t.dice.queue(18, 5, 3);
    const tx = t.run({ type: 'clock.advance', unit: 'time', seconds: 2 * HOUR });
    const stage = eventsOf(tx, 'osr.stageEnded')[0]!;
    expect(stage['roll']).toMatchObject({ dice: [18, 5], advantage: -1, natural: 5, success: false });
    expect(stage['reasons']).toContain('carrying more load than STR');
    expect(t.stats(pc)['con']).toBe(7);
    expect(logTexts(t).some((l) => l.includes('carrying more load than STR'))).toBe(true);
  });
  it('a PC within their load rolls the stage check on one d20', () => {
    const t = osrTable();
    const pc = t.add('Light', { str: 10, load: 10, con: 10, maxHp: 20 });
    t.dice.queue(1);
    t.run({ type: 'osr.expose', character: pc, name: 'marsh fever', stages: [{ hours: 2, ability: 'con' }] });
    t.dice.queue(18);
    const tx = t.run({ type: 'clock.advance', unit: 'time', seconds: 2 * HOUR });
    expect(eventsOf(tx, 'osr.stageEnded')[0]!['roll']).toMatchObject({ dice: [18], advantage: 0, success: true });
  });
});

describe('001 "Overland Travel" with "Movement Actions": 0\' travels 0, encumbered travels half, the party keeps to the slowest', () => {
  it('a completely encumbered PC (0\' speed) stops the party, with the reason; dropping load lets it go at half pace', () => {
    const t = osrTable();
    t.add('Strong', { str: 14, maxHp: 8 }); // 10 + 2 = 12 miles
    // STR 10 with 16 load: 6 over, 30' - 30' = 0' (completely encumbered).
    const mule = t.add('Mule', { str: 10, load: 16, maxHp: 8 });
    const err = t.s.fail({ type: 'osr.travel', rollTravelTurns: false });
    expect(err).toMatchObject({ code: 'CANNOT_TRAVEL', path: 'characterIds' });
    expect(err.message).toContain('Mule is completely encumbered');
    expect(err.message).toContain('drop load');
    // 11 load: 1 over, 25' speed: encumbered, half of 10 + 0 = 5 miles; the party keeps to 5.
    t.run({ type: 'osr.setLoad', character: mule, load: 11 });
    expect(eventsOf(t.run({ type: 'osr.travel', rollTravelTurns: false, days: 2 }), 'osr.traveled')[0]).toMatchObject({ milesPerDay: 5, miles: 10 });
  });
  it('the calculator\'s helper agrees: 0 for the 0\' PC, half for the encumbered, the slowest for the party', () => {
    const strong = { id: 's', name: 'Strong', str: 14, load: 0, speed: 30, exhausted: false };
    const laden = { id: 'l', name: 'Laden', str: 14, load: 15, speed: 30, exhausted: false };
    const mule = { id: 'm', name: 'Mule', str: 10, load: 16, speed: 30, exhausted: false };
    expect(travellerPace(strong).miles).toBe(12);
    // STR 14 (+2), one load over: (10 + 2) / 2 = 6.
    expect(travellerPace(laden)).toMatchObject({ miles: 6, stuck: null });
    expect(travellerPace(mule)).toMatchObject({ miles: 0 });
    expect(travellerPace(mule).stuck).toContain('completely encumbered');
    expect(partyPace([strong, laden], { terrain: 'difficult' })).toMatchObject({ perDay: 3, slowest: 'l', blocked: null });
    const stopped = partyPace([strong, mule]);
    expect(stopped).toMatchObject({ perDay: 0, slowest: 'm' });
    expect(stopped.blocked).toContain('Mule');
    expect(partyPace([{ ...strong, exhausted: true }]).blocked).toContain('exhausted');
  });
});

describe('001 "Critical Failure": a natural 1 on a check that damages a PC doubles the damage, everywhere', () => {
  it('rolling to return on a dangerous path: natural 1 + 5 = 6 against DC 14 is 8 under, 8d6 doubled; the event and log say so', () => {
    const t = osrTable();
    // Best modifier +3 (STR 16) plus proficiency +2 at level 1 = +5.
    const pc = t.add('Scout', { str: 16, maxHp: 80, level: 1 });
    for (let i = 0; i < 4; i++) t.run({ type: 'osr.travelTurn' });
    t.dice.queue(1, 1, 2, 3, 4, 5, 6, 1, 2); // the check, then 8d6 = 24
    const tx = t.run({ type: 'osr.rollToReturn', characters: [pc], path: 'dangerous' });
    const r = eventsOf(tx, 'osr.returnRolled')[0]!;
    expect(r['dc']).toBe(14);
    expect(r['roll']).toMatchObject({ natural: 1, total: 6, shortfall: 8 });
    expect(r['damage']).toEqual({ faces: [1, 2, 3, 4, 5, 6, 1, 2], total: 48, doubled: true });
    expect(t.stats(pc)['hp']).toBe(32);
    expect(logTexts(t).some((l) => l.includes('took 48 damage on the way (doubled by a natural 1)'))).toBe(true);
  });
  it('rolling to return: a natural 2 is not doubled (2 + 5 = 7, 7 under: 7d6 as rolled)', () => {
    const t = osrTable();
    const pc = t.add('Scout', { str: 16, maxHp: 80 });
    for (let i = 0; i < 4; i++) t.run({ type: 'osr.travelTurn' });
    t.dice.queue(2, 1, 1, 1, 1, 1, 1, 1);
    const r = eventsOf(t.run({ type: 'osr.rollToReturn', characters: [pc] }), 'osr.returnRolled')[0]!;
    expect(r['damage']).toEqual({ faces: [1, 1, 1, 1, 1, 1, 1], total: 7, doubled: false });
  });
  it('a chase through thorns (damageOnFail 1d6): a natural 1 doubles the 4 to 8, logged as doubled by a natural 1', () => {
    const t = osrTable();
    const pc = t.add('Runner', { maxHp: 20 });
    t.dice.queue(1, 4);
    const tx = t.run({ type: 'osr.chase', characters: [pc], ground: 'uneven', damageOnFail: '1d6' });
    expect(eventsOf(tx, 'osr.chased')[0]).toMatchObject({ success: false });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ targetId: pc, faces: [4], doubled: true, doubledBy: 'natural 1', total: 8 });
    expect(t.stats(pc)['hp']).toBe(12);
    expect(logTexts(t)).toContain('Runner takes 8 damage (1d6, doubled by a natural 1) from chase: HP 20 → 12.');
  });
  it('a failed chase on a natural 5 takes the 1d6 as rolled', () => {
    const t = osrTable();
    const pc = t.add('Runner', { maxHp: 20 });
    t.dice.queue(5, 4);
    const tx = t.run({ type: 'osr.chase', characters: [pc], damageOnFail: '1d6' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ doubled: false, total: 4 });
  });
  it('a retreat through the encirclement (DEX DC 13, damageOnFail 2d4): a natural 1 doubles 5 to 10, and the retreat fails', () => {
    const t = osrTable();
    const pc = t.add('Cornered', { dex: 15, maxHp: 20 });
    const orc = t.add('Orc', { dex: 5, maxHp: 8 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'p', kind: 'pc', characterId: pc, stats: { dex: 15 } }, { id: 'o', kind: 'npc', characterId: orc, stats: { dex: 5 } }] });
    t.dice.queue(1, 2, 3);
    const tx = t.run({ type: 'osr.retreat', combatant: 'p', dc: 13, damageOnFail: '2d4' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ faces: [2, 3], doubled: true, total: 10 });
    expect(eventsOf(tx, 'osr.retreatFailed')).toHaveLength(1);
    expect(t.stats(pc)['hp']).toBe(10);
    expect(t.s.fail({ type: 'osr.retreat', combatant: 'p', damageOnFail: '1d4' })).toMatchObject({ path: 'damageOnFail' });
  });
  it('a resilience check past CON hours (damageOnFail 1d4): a natural 1 doubles the 3 to 6, and the PC is exhausted', () => {
    const t = osrTable();
    const pc = t.add('Trekker', { con: 10, maxHp: 20 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 12 * HOUR }); // 2 beyond CON 10: DC 12
    t.dice.queue(1, 3);
    const tx = t.run({ type: 'osr.resilience', character: pc, damageOnFail: '1d4' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ faces: [3], doubled: true, total: 6 });
    expect(t.osr.exhausted).toEqual([pc]);
  });
  it('a trap still doubles (osr.check damageOnFail), and a hazard check does the same for any PC', () => {
    const t = osrTable();
    const pc = t.add('Delver', { maxHp: 20 });
    t.dice.queue(1, 6);
    const tx = t.run({ type: 'osr.check', character: pc, dc: 12, damageOnFail: '1d6', label: 'falling rocks' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ doubled: true, total: 12, source: 'falling rocks' });
  });
  it('a corruption stage\'s ability damage is damage the PC suffers: a natural 1 doubles 1d6 = 4 to 8 CON', () => {
    const t = osrTable();
    const pc = t.add('Bitten', { con: 18, maxHp: 8 });
    t.dice.queue(2);
    t.run({ type: 'osr.expose', character: pc, name: 'venom', stages: [{ hours: 2, ability: 'con' }] });
    t.dice.queue(1, 4);
    const tx = t.run({ type: 'clock.advance', unit: 'time', seconds: 2 * HOUR });
    expect(eventsOf(tx, 'osr.stageEnded')[0]!['damage']).toEqual({ ability: 'con', faces: [4], doubled: true, total: 8 });
    expect(t.stats(pc)['con']).toBe(10);
    expect(logTexts(t).some((l) => l.includes('8 CON damage (doubled by a natural 1)'))).toBe(true);
  });
  it('an NPC\'s natural 1 does not double (the rule protects no one but names PCs)', () => {
    const t = osrTable();
    const npc = t.add('Goblin', { maxHp: 20 }, 'npc');
    t.dice.queue(1, 4);
    const tx = t.run({ type: 'osr.chase', characters: [npc], damageOnFail: '1d6' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ doubled: false, total: 4 });
  });
});

describe('001 "Initiative" and delay: the DEX score comes from the character\'s sheet', () => {
  it('a linked PC with no numbers of its own is placed by its sheet\'s DEX 15, and can delay below the goblin\'s 13', () => {
    const t = osrTable();
    const pc = t.add('Quick', { dex: 15, maxHp: 8 });
    const gob = t.add('Goblin', { dex: 13, maxHp: 4 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'p', kind: 'pc', characterId: pc }, { id: 'g', kind: 'npc', characterId: gob }] });
    const enc = () => t.world.ext['encounter'] as { current: string; combatants: { [id: string]: { placement: { score: number }; stats: object } } };
    expect(enc().combatants['p']!.placement.score).toBe(15);
    expect(enc().combatants['p']!.stats).toEqual({});
    expect(enc().current).toBe('p');
    t.run({ type: 'encounter.delay', to: { score: 12 } });
    expect(enc().current).toBe('g');
  });
  it('an explicit score still wins; with neither a score nor DEX anywhere, the error names both', () => {
    const t = osrTable();
    const pc = t.add('Quick', { dex: 15, maxHp: 8 });
    const blank = t.add('Blank', { maxHp: 8 });
    t.run({ type: 'encounter.start', combatants: [{ id: 'p', kind: 'pc', characterId: pc, score: 3 }] });
    expect((t.world.ext['encounter'] as { combatants: { p: { placement: { score: number } } } }).combatants.p.placement.score).toBe(3);
    t.run({ type: 'encounter.end' });
    const e = t.s.fail({ type: 'encounter.start', combatants: [{ id: 'b', kind: 'pc', characterId: blank }] });
    expect(e).toMatchObject({ code: 'NO_SCORE', path: 'placement.score' });
    expect(e.message).toContain('initiative score');
    expect(e.message).toContain('"dex" score on its character\'s sheet');
  });
});
