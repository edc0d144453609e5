// 001 combat through the engine: checks, traps, attacks and crits, HP bounds,
// the death timer on the clock, stabilizing and the injury table, healing, rest.
import { describe, expect, it } from 'vitest';
import { eventsOf, osrTable } from './helpers.js';

describe('checks through the engine (001 "Saves & Checks", "Movement Actions")', () => {
  it('a PC over their load rolls with disadvantage: the lower of two d20 is kept', () => {
    const t = osrTable();
    // The text's PC: 10 STR carrying 11 load.
    const pc = t.add('Ada', { str: 10, dex: 14, load: 11, maxHp: 8 });
    t.dice.queue(17, 6);
    const tx = t.run({ type: 'osr.check', character: pc, ability: 'dex', dc: 10 });
    const [e] = eventsOf(tx, 'osr.checked');
    expect(e!['roll']).toMatchObject({ dice: [17, 6], advantage: -1, natural: 6, modifier: 2, total: 8, success: false });
    expect(e!['reasons']).toContain('carrying more load than STR');
  });
  it('GM advantage and load disadvantage cancel (setting advantageCombine "cancel")', () => {
    const t = osrTable();
    const pc = t.add('Ada', { str: 10, load: 11, maxHp: 8 });
    t.dice.queue(12);
    const tx = t.run({ type: 'osr.check', character: pc, dc: 12, advantage: 1 });
    expect(eventsOf(tx, 'osr.checked')[0]!['roll']).toMatchObject({ dice: [12], advantage: 0, success: true });
  });
  it('proficiency adds the level bonus (+2 at level 1, +3 at 5)', () => {
    const t = osrTable();
    const pc = t.add('Bo', { int: 16, level: 5, maxHp: 20 });
    t.dice.queue(10);
    const tx = t.run({ type: 'osr.check', character: pc, ability: 'int', proficient: true, dc: 16 });
    expect(eventsOf(tx, 'osr.checked')[0]!['roll']).toMatchObject({ modifier: 3 + 3, total: 16, success: true });
  });
  it('a trap: failure deals its damage; a natural 1 doubles it for a PC (001 "Traps", "Critical Failure")', () => {
    const t = osrTable();
    const pc = t.add('Cy', { dex: 10, maxHp: 12 });
    t.dice.queue(5, 4); // fails DC 12, 1d6 = 4
    t.run({ type: 'osr.check', character: pc, ability: 'dex', dc: 12, damageOnFail: '1d6', label: 'dart trap' });
    expect(t.stats(pc)['hp']).toBe(8);
    t.dice.queue(1, 3); // natural 1: 3 doubled = 6
    const tx = t.run({ type: 'osr.check', character: pc, ability: 'dex', dc: 12, damageOnFail: '1d6', label: 'dart trap' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ faces: [3], doubled: true, total: 6 });
    expect(t.stats(pc)['hp']).toBe(2);
  });
  it('a natural 1 does not double damage to an NPC', () => {
    const t = osrTable();
    const npc = t.add('Goblin', { maxHp: 12 }, 'npc');
    t.dice.queue(1, 3);
    const tx = t.run({ type: 'osr.check', character: npc, dc: 12, damageOnFail: '1d6' });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ doubled: false, total: 3 });
  });
  it('bad input gives typed errors naming the field', () => {
    const t = osrTable();
    const pc = t.add('Cy', { maxHp: 5 });
    expect(t.s.fail({ type: 'osr.check', character: pc, dc: 99 })).toMatchObject({ code: 'INVALID_VALUE', path: 'dc' });
    expect(t.s.fail({ type: 'osr.check', character: 'nobody', dc: 10 })).toMatchObject({ code: 'NOT_FOUND', path: 'character' });
    expect(t.s.fail({ type: 'osr.check', character: pc, dc: 10, ability: 'luck' })).toMatchObject({ path: 'ability' });
    expect(t.s.fail({ type: 'osr.check', character: pc, dc: 10, damageOnFail: '999d6' })).toMatchObject({ path: 'damageOnFail' });
    expect(t.s.fail({ type: 'osr.setSheet', character: pc, stats: { str: 40 } })).toMatchObject({ code: 'INVALID_VALUE', path: 'stats.str' });
  });
  it('players roll for their own character only', () => {
    const t = osrTable();
    const seat = t.seat('Ann');
    const mine = t.add('Mine', { maxHp: 5 }, 'pc', seat);
    const other = t.add('Other', { maxHp: 5 });
    t.dice.queue(10);
    t.s.run({ type: 'osr.check', character: mine, dc: 10 }, { role: 'player', seatId: seat });
    expect(t.s.fail({ type: 'osr.check', character: other, dc: 10 }, { role: 'player', seatId: seat }).code).toBe('FORBIDDEN');
  });
});

describe('attacks (001 "PC Attacks", "Critical Hits", "Range & Attacks")', () => {
  const setup = () => {
    const t = osrTable();
    const pc = t.add('Fighter', { str: 14, dex: 16, maxHp: 10 });
    const orc = t.add('Orc', { ac: 13, maxHp: 15 }, 'npc');
    return { t, pc, orc };
  };
  it('melee uses STR mod (+ proficiency) vs AC; damage dice + STR mod', () => {
    const { t, pc, orc } = setup();
    t.dice.queue(9, 5); // 9 + 2 + 2 = 13 hits AC 13; 1d8 = 5, +2
    const tx = t.run({ type: 'osr.attack', attacker: pc, target: orc, kind: 'melee', proficient: true, damage: '1d8' });
    expect(eventsOf(tx, 'osr.attacked')[0]).toMatchObject({ hit: true, crit: false, roll: { modifier: 4, total: 13 }, damage: { total: 7 } });
    expect(t.stats(orc)['hp']).toBe(8);
  });
  it('a natural 20 doubles the damage', () => {
    const { t, pc, orc } = setup();
    t.dice.queue(20, 5);
    const tx = t.run({ type: 'osr.attack', attacker: pc, target: orc, damage: '1d8' });
    expect(eventsOf(tx, 'osr.attacked')[0]).toMatchObject({ crit: true, damage: { faces: [5], bonus: 2, doubled: true, total: 14 } });
    expect(t.stats(orc)['hp']).toBe(1);
  });
  it('an NPC crit against a PC doubles too; "dice" mode doubles dice only', () => {
    const t = osrTable({ 'osr.critDoubles': 'dice' });
    const pc = t.add('PC', { ac: 15, maxHp: 20 });
    const ogre = t.add('Ogre', { str: 18 }, 'npc');
    t.dice.queue(20, 6, 4);
    const tx = t.run({ type: 'osr.attack', attacker: ogre, target: pc, damage: '2d6' });
    // (6 + 4) x 2 + 4 (STR 18) = 24
    expect(eventsOf(tx, 'osr.attacked')[0]).toMatchObject({ crit: true, damage: { total: 24 } });
    expect(t.stats(pc)['hp']).toBe(0);
  });
  it('a natural 20 hits even when the total misses (setting natural20AlwaysHits)', () => {
    const { t, pc } = setup();
    const dragon = t.add('Dragon', { ac: 30, maxHp: 100 }, 'npc');
    t.dice.queue(20, 1);
    expect(eventsOf(t.run({ type: 'osr.attack', attacker: pc, target: dragon, damage: '1d4' }), 'osr.attacked')[0]).toMatchObject({ hit: true, crit: true });
  });
  it('ranged uses DEX; a ranged attack in melee is at disadvantage', () => {
    const { t, pc, orc } = setup();
    t.dice.queue(18, 8);
    const tx = t.run({ type: 'osr.attack', attacker: pc, target: orc, kind: 'ranged', range: 'close', damage: '1d6' });
    expect(eventsOf(tx, 'osr.attacked')[0]).toMatchObject({ roll: { dice: [18, 8], advantage: -1, natural: 8, modifier: 3 }, hit: false });
    expect(eventsOf(tx, 'osr.attacked')[0]!['reasons']).toContain('ranged attack in melee');
  });
  it('arcane spells use INT, divine WIS; spell damage adds that modifier too (001 "Dealing Damage": dice and ability modifier) unless turned off', () => {
    const t = osrTable();
    const mage = t.add('Mage', { int: 18, wis: 8, maxHp: 6 });
    const orc = t.add('Orc', { ac: 12, maxHp: 15 }, 'npc');
    // d20 8 + INT 4 = 12 vs AC 12: a hit; d10 3 + INT 4 = 7.
    t.dice.queue(8, 3);
    const tx = t.run({ type: 'osr.attack', attacker: mage, target: orc, kind: 'arcane', damage: '1d10' });
    expect(eventsOf(tx, 'osr.attacked')[0]).toMatchObject({ roll: { modifier: 4, total: 12 }, hit: true, damage: { total: 7, ability: 'int', abilityMod: 4 } });
    t.dice.queue(13);
    expect(eventsOf(t.run({ type: 'osr.attack', attacker: mage, target: orc, kind: 'divine', damage: '1d10' }), 'osr.attacked')[0]).toMatchObject({ roll: { modifier: -1, total: 12 } });
    // addModifierToDamage: false leaves the dice alone (a feature whose damage names no ability).
    t.dice.queue(10, 3);
    const bare = eventsOf(t.run({ type: 'osr.attack', attacker: mage, target: orc, kind: 'arcane', damage: '1d10', addModifierToDamage: false }), 'osr.attacked')[0]!;
    expect(bare['damage']).toEqual({ dice: '1d10', faces: [3], bonus: 0, doubled: false, total: 3 });
  });
  it('melee needs close range; far is out of reach', () => {
    const { t, pc, orc } = setup();
    expect(t.s.fail({ type: 'osr.attack', attacker: pc, target: orc, range: 'ranged' }).code).toBe('OUT_OF_RANGE');
    expect(t.s.fail({ type: 'osr.attack', attacker: pc, target: orc, kind: 'ranged', range: 'far' }).code).toBe('OUT_OF_RANGE');
  });
  it('darkness puts attacks at disadvantage; darksight turns it to advantage (001 "Light")', () => {
    const { t, pc, orc } = setup();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    t.dice.queue(15, 3);
    expect(eventsOf(t.run({ type: 'osr.attack', attacker: pc, target: orc }), 'osr.attacked')[0]).toMatchObject({ roll: { advantage: -1, natural: 3 } });
    const gob = t.add('Goblin', { darksight: true }, 'npc');
    t.dice.queue(3, 15, 2);
    expect(eventsOf(t.run({ type: 'osr.attack', attacker: gob, target: pc }), 'osr.attacked')[0]).toMatchObject({ roll: { advantage: 1, natural: 15 } });
  });
  it('stealth: a hidden character cannot be targeted; attacking ends their stealth (001 "Positioning")', () => {
    const { t, pc, orc } = setup();
    t.dice.queue(15);
    t.run({ type: 'osr.hide', character: pc, dc: 12 });
    expect(t.osr.hidden).toEqual([pc]);
    expect(t.s.fail({ type: 'osr.attack', attacker: orc, target: pc }).code).toBe('TARGET_HIDDEN');
    t.dice.queue(2);
    t.run({ type: 'osr.attack', attacker: pc, target: orc });
    expect(t.osr.hidden).toEqual([]);
  });
});

describe('HP, 0 HP and the death timer (001 "Death & Injury", "Healing & HP")', () => {
  it('HP never below 0 nor above max', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 10, hp: 6 });
    t.run({ type: 'osr.heal', target: pc, amount: 50 });
    expect(t.stats(pc)['hp']).toBe(10);
    t.run({ type: 'osr.damage', target: pc, amount: 50 });
    expect(t.stats(pc)['hp']).toBe(0);
    expect(t.osr.dying[pc]).toEqual({ downAt: 0, fight: false });
  });
  it('outside a fight: dead when the minute runs out on the clock', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 4 });
    t.run({ type: 'osr.damage', target: pc, amount: 9 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 59 });
    expect(t.osr.dead).toEqual([]);
    const tx = t.run({ type: 'clock.advance', unit: 'time', seconds: 1 });
    expect(t.events(tx)).toContain('osr.died');
    expect(t.osr.dead).toEqual([pc]);
  });
  it('in a fight longer than a minute: dead when the fight ends, not before', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 4, dex: 12 });
    const orc = t.add('Orc', { maxHp: 4, dex: 10 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc', characterId: pc, stats: { dex: 12 } }, { id: 'b', kind: 'npc', characterId: orc, stats: { dex: 10 } }] });
    t.run({ type: 'osr.damage', target: pc, amount: 9 });
    expect(t.osr.dying[pc]).toMatchObject({ fight: true });
    // Eleven rounds (66 seconds) go by: the orc acts, the downed PC loses its turns.
    for (let i = 0; i < 11; i++) t.run({ type: 'encounter.endTurn' });
    expect(t.world.clock.seconds).toBeGreaterThanOrEqual(60);
    expect(t.osr.dead).toEqual([]);
    const tx = t.run({ type: 'encounter.end' });
    expect(t.events(tx)).toContain('osr.died');
  });
  it('a fight shorter than a minute: the minute still runs after it ends', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 4 });
    t.run({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc', characterId: pc, stats: { dex: 12 } }, { id: 'b', kind: 'npc', stats: { dex: 10 } }] });
    t.run({ type: 'osr.damage', target: pc, amount: 9 });
    t.run({ type: 'encounter.end' });
    expect(t.osr.dead).toEqual([]);
    t.run({ type: 'clock.advance', unit: 'time', seconds: 60 });
    expect(t.osr.dead).toEqual([pc]);
  });
  it('a 0 HP combatant cannot take turns', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 4 });
    t.run({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc', characterId: pc, stats: { dex: 12 } }, { id: 'b', kind: 'npc', stats: { dex: 10 } }] });
    expect(t.world.ext['encounter']).toMatchObject({ current: 'a' });
    t.run({ type: 'encounter.endTurn' });
    t.run({ type: 'osr.damage', target: pc, amount: 9 });
    t.run({ type: 'encounter.endTurn' });
    expect(t.world.ext['encounter']).toMatchObject({ current: 'b', round: 2 });
  });
});

describe('stabilizing and the injury table (001 "Stabilizing & Injuries")', () => {
  const downed = () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 9, str: 12, cha: 4 });
    const medic = t.add('Medic', { wis: 14, maxHp: 9 });
    t.run({ type: 'osr.damage', target: pc, amount: 20 });
    return { t, pc, medic };
  };
  it('a failed check leaves them dying; a passed one stabilizes and rolls the table', () => {
    const { t, pc, medic } = downed();
    t.dice.queue(3);
    t.run({ type: 'osr.stabilize', target: pc, by: medic, ability: 'wis', dc: 10 });
    expect(t.osr.dying[pc]).toBeDefined();
    // The log names who is being stabilized, never their id (a GM review finding).
    expect(t.world.log.at(-1)!.text).toMatch(/^Medic failed stabilizing PC: /);
    t.dice.queue(12, 2, 4); // check 12+2; injury d20 2 (Feeble), lose 4 STR
    const tx = t.run({ type: 'osr.stabilize', target: pc, by: medic, ability: 'wis', dc: 10 });
    expect(eventsOf(tx, 'osr.injuryRolled')[0]).toMatchObject({ d20: 2, extra: 4, row: 'abilityLoss', hp: 1 });
    expect(t.stats(pc)).toMatchObject({ str: 8, hp: 1 });
    expect(t.osr.dying[pc]).toBeUndefined();
    // Stable now: the minute passing does not kill.
    t.run({ type: 'clock.advance', unit: 'time', seconds: 600 });
    expect(t.osr.dead).toEqual([]);
  });
  it('row 1: a false hope, dead', () => {
    const { t, pc } = downed();
    t.dice.queue(1);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    expect(t.osr.dead).toEqual([pc]);
  });
  it('row 7 on CHA 4 losing 4: the ability reaches 0 and kills', () => {
    const { t, pc } = downed();
    t.dice.queue(7, 4);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    expect(t.stats(pc)['cha']).toBe(0);
    expect(t.osr.dead).toEqual([pc]);
  });
  it('rows 8-13: a body part the GM names', () => {
    const { t, pc } = downed();
    t.dice.queue(10);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    t.run({ type: 'osr.noteBodyPart', character: pc, part: 'left ear' });
    expect(t.osr.bodyParts[pc]).toEqual(['left ear']);
    expect(t.stats(pc)['hp']).toBe(1);
  });
  it('rows 14-19: disadvantage on every check until a rest', () => {
    const { t, pc } = downed();
    t.dice.queue(16);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    t.dice.queue(15, 9);
    expect(eventsOf(t.run({ type: 'osr.check', character: pc, dc: 10 }), 'osr.checked')[0]!['roll']).toMatchObject({ advantage: -1, natural: 9 });
    t.run({ type: 'osr.rest', kind: 'unsafe' });
    t.dice.queue(15);
    expect(eventsOf(t.run({ type: 'osr.check', character: pc, dc: 10 }), 'osr.checked')[0]!['roll']).toMatchObject({ advantage: 0 });
  });
  it('row 20: standing, heals 1d8 at once', () => {
    const { t, pc } = downed();
    t.dice.queue(20, 6);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    expect(t.stats(pc)['hp']).toBe(6);
  });
  it('healing an incapacitated character stabilizes them first', () => {
    const { t, pc } = downed();
    t.dice.queue(3, 15); // 1d6 heal = 3, injury 15
    const tx = t.run({ type: 'osr.heal', target: pc, amount: '1d6', source: 'medicine' });
    expect(t.events(tx)).toEqual(expect.arrayContaining(['osr.stabilized', 'osr.injuryRolled']));
    expect(t.stats(pc)['hp']).toBe(1);
  });
  it('only the dying can be stabilized', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 9 });
    expect(t.s.fail({ type: 'osr.stabilize', target: pc, method: 'spell' }).code).toBe('NOT_DYING');
  });
});

describe('healing (001 "Healing From Rest", "Healing From Magic & Medicine")', () => {
  it('the text: a level 4 PC heals 4 in a night of safe rest, 1 in a dungeon; the clock moves a night', () => {
    const t = osrTable();
    const pc = t.add('PC', { level: 4, maxHp: 30, hp: 10 });
    t.run({ type: 'osr.rest', kind: 'safe' });
    expect(t.stats(pc)['hp']).toBe(14);
    expect(t.world.clock.seconds).toBe(8 * 3600);
    t.run({ type: 'osr.rest', kind: 'unsafe', nights: 2 });
    expect(t.stats(pc)['hp']).toBe(16);
  });
  it('magic heals dice, capped at max', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 12, hp: 2 });
    t.dice.queue(6, 6, 5);
    t.run({ type: 'osr.heal', target: pc, amount: '3d6' });
    expect(t.stats(pc)['hp']).toBe(12);
    // One heal, one line: the roll and the HP it left (review 12 #15: two lines before).
    expect(t.world.log.slice(-1).map((l) => l.text)).toEqual(['PC heals 17 (3d6) by magic: HP 2 → 12.']);
    expect(t.world.log.filter((l) => /heal|→ 12/.test(l.text)).length).toBe(1);
  });
  it('the dead cannot be healed', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 4 });
    t.run({ type: 'osr.damage', target: pc, amount: 9 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 60 });
    expect(t.s.fail({ type: 'osr.heal', target: pc, amount: 3 }).code).toBe('DEAD');
  });
});

describe('undo and replay', () => {
  it('undo of a stabilize reverts the injury, ability loss and HP; replay equals live', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 9, str: 12 });
    t.run({ type: 'osr.damage', target: pc, amount: 20 });
    const before = JSON.stringify(t.world);
    t.dice.queue(2, 5);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    expect(t.stats(pc)['str']).toBe(7);
    t.s.undo();
    expect(JSON.stringify(t.world)).toBe(before);
    t.s.redo();
    expect(t.stats(pc)['str']).toBe(7);
    const replayed = t.s.engine.replay(t.s.table.genesis, t.s.table.transactions);
    expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(t.world));
  });
});
