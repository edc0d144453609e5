// 001 morale, chases, resilience and exhaustion, corruption, retreat, treasure and XP through the engine.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

const HOUR = 3600;

describe('morale (001 "Morale")', () => {
  it('DC 11: d20 + WIS mod + proficiency if fitting + the monster\'s morale bonus', () => {
    const t = osrTable();
    const orc = t.add('Orc chief', { wis: 12, moraleBonus: 2, level: 1 }, 'npc');
    t.dice.queue(6); // 6 + 1 + 2 + 2 = 11: holds
    const tx = t.run({ type: 'osr.morale', characters: [orc], proficient: true });
    expect(eventsOf(tx, 'osr.moraleRolled')[0]).toMatchObject({ roll: { modifier: 5, total: 11, dc: 11 }, held: true });
  });
  it('a side rolls once; PCs always roll individually', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 5 });
    const a = t.add('Goblin A', {}, 'npc');
    const b = t.add('Goblin B', {}, 'npc');
    t.dice.queue(12, 3);
    const tx = t.run({ type: 'osr.morale', characters: [pc, a, b], as: 'side' });
    const rolls = eventsOf(tx, 'osr.moraleRolled');
    expect(rolls.map((r) => r['group'])).toEqual([[pc], [a, b]]);
    expect(rolls[1]).toMatchObject({ held: false });
  });
  it('morale in darkness is at disadvantage for surfacers, not for darksighted delvers who are not', () => {
    const t = osrTable();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    const man = t.add('Man-at-arms', {}, 'npc');
    const dwarf = t.add('Deep dwarf', { surfacer: false, darksight: true }, 'npc');
    t.dice.queue(15, 4, 9);
    const tx = t.run({ type: 'osr.morale', characters: [man, dwarf] });
    const [m, d] = eventsOf(tx, 'osr.moraleRolled');
    expect(m!['roll']).toMatchObject({ advantage: -1, natural: 4 });
    expect(d!['roll']).toMatchObject({ advantage: 0, natural: 9 });
  });
  it('GM prompts: the battle begins, the first to fall (killed, for morale), a leader falls; players never see them', () => {
    const t = osrTable();
    const boss = t.add('Boss', { maxHp: 3, leader: true }, 'npc');
    const pc = t.add('PC', { maxHp: 5 });
    t.run({ type: 'encounter.start', combatants: [{ id: 'p', kind: 'pc', characterId: pc, stats: { dex: 12 } }, { id: 'b', kind: 'npc', characterId: boss, stats: { dex: 10 } }] });
    expect(t.osr.prompts.map((p) => p.trigger)).toEqual(['battle-begins']);
    t.dice.queue(20, 8, 1);
    t.run({ type: 'osr.attack', attacker: pc, target: boss, damage: '1d8' });
    // At 0 HP the boss is out of the fight (001 "Death & Injury"): for morale, the first killed.
    expect(t.osr.prompts.map((p) => p.trigger)).toEqual(['battle-begins', 'first-killed', 'leader-killed']);
    t.run({ type: 'osr.stabilize', target: boss, method: 'other' }); // injury 1: dead, already prompted when it fell
    expect(t.osr.dead).toEqual([boss]);
    expect(t.osr.prompts.map((p) => p.trigger)).toEqual(['battle-begins', 'first-killed', 'leader-killed']);
    const seen = t.s.view({ role: 'spectator' }).world;
    expect(JSON.stringify(seen.ext['osr'])).not.toContain('leader');
    expect(seen.log.some((l) => l.kind === 'osr.moralePrompted')).toBe(false);
  });
});

describe('the tide of battle (001 "When To Check Morale")', () => {
  it('once half a side is down the GM is prompted, once per side per fight', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 9, str: 18 });
    const g1 = t.add('G1', { maxHp: 2 }, 'npc');
    const g2 = t.add('G2', { maxHp: 2 }, 'npc');
    const g3 = t.add('G3', { maxHp: 2 }, 'npc');
    const g4 = t.add('G4', { maxHp: 2 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [pc, g1, g2, g3, g4].map((id, i) => ({ id: `c${i}`, kind: i === 0 ? 'pc' : 'npc', characterId: id, stats: { dex: 10 } })) });
    t.run({ type: 'osr.damage', target: g1, amount: 5 });
    expect(t.osr.prompts.map((p) => p.trigger)).toEqual(['battle-begins', 'first-killed']);
    t.run({ type: 'osr.damage', target: g2, amount: 5 });
    expect(t.osr.prompts.map((p) => p.trigger)).toEqual(['battle-begins', 'first-killed', 'tide']);
    // In the GM's words, not the side's key (a GM review finding: 'side "npcs"').
    expect(t.osr.prompts[2]!.text).toBe('2 of 4 of the foes are down: the tide looks obvious. Morale?');
    t.run({ type: 'osr.damage', target: g3, amount: 5 });
    expect(t.osr.prompts.filter((p) => p.trigger === 'tide')).toHaveLength(1);
  });
});

describe('chases (001 "Chases")', () => {
  it('the text: a 40\' scout flees through a thicket; DC 13 DEX at disadvantage; a 4 fails', () => {
    const t = osrTable();
    const pc = t.add('PC', { dex: 10, maxHp: 5 });
    t.dice.queue(4, 16);
    const tx = t.run({ type: 'osr.chase', characters: [pc], speed: 40, ground: 'uneven', disadvantage: 1 });
    expect(eventsOf(tx, 'osr.chased')[0]).toMatchObject({ ability: 'dex', dc: 13, roll: { dice: [4, 16], natural: 4, total: 4 }, success: false });
  });
  it('the group rolls with its worst modifier; STR on open ground; CON for long chases', () => {
    const t = osrTable();
    const a = t.add('A', { str: 16, maxHp: 5 });
    const b = t.add('B', { str: 8, maxHp: 5 });
    t.dice.queue(12);
    const tx = t.run({ type: 'osr.chase', characters: [a, b], together: true });
    expect(eventsOf(tx, 'osr.chased')).toHaveLength(1);
    expect(eventsOf(tx, 'osr.chased')[0]).toMatchObject({ characterId: b, ability: 'str', dc: 11, roll: { modifier: -1, total: 11 }, success: true, forGroup: [a, b] });
    t.dice.queue(12);
    expect(eventsOf(t.run({ type: 'osr.chase', characters: [a], ground: 'long', direction: 'flee' }), 'osr.chased')[0]).toMatchObject({ ability: 'con', direction: 'flee' });
  });
});

describe('resilience and exhaustion (001 "Resilience & Exhaustion")', () => {
  it('CON hours before a check; then DC 10 + hours beyond; failure exhausts: disadvantage and 0\' overland', () => {
    const t = osrTable();
    const pc = t.add('PC', { con: 10, str: 14, maxHp: 8 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 10 * HOUR });
    expect(t.s.fail({ type: 'osr.resilience', character: pc }).code).toBe('NOT_DUE');
    t.run({ type: 'clock.advance', unit: 'time', seconds: 2 * HOUR });
    t.dice.queue(11);
    const tx = t.run({ type: 'osr.resilience', character: pc });
    expect(eventsOf(tx, 'osr.checked')[0]!['roll']).toMatchObject({ dc: 12, total: 11, success: false });
    expect(t.osr.exhausted).toEqual([pc]);
    t.dice.queue(18, 3);
    expect(eventsOf(t.run({ type: 'osr.check', character: pc, dc: 5 }), 'osr.checked')[0]!['reasons']).toContain('exhausted');
    // Unsafe rest does not cure it; a safe rest with food does.
    t.run({ type: 'osr.rest', kind: 'unsafe' });
    expect(t.osr.exhausted).toEqual([pc]);
    t.run({ type: 'osr.rest', kind: 'safe', fed: false });
    expect(t.osr.exhausted).toEqual([pc]);
    t.run({ type: 'osr.rest', kind: 'safe' });
    expect(t.osr.exhausted).toEqual([]);
    expect(t.osr.restedAt[pc]).toBe(t.world.clock.seconds);
  });
});

describe('exhaustion in a fight and strain (001 "Exhaustion", "Resilience & Exhaustion")', () => {
  it('an exhausted character cannot attack (setting exhaustedCannotFight)', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 8 });
    const orc = t.add('Orc', {}, 'npc');
    t.run({ type: 'osr.exhaust', character: pc });
    expect(t.s.fail({ type: 'osr.attack', attacker: pc, target: orc }).code).toBe('EXHAUSTED');
    const t2 = osrTable({ 'osr.exhaustedCannotFight': false });
    const p2 = t2.add('PC', { maxHp: 8 });
    const o2 = t2.add('Orc', {}, 'npc');
    t2.run({ type: 'osr.exhaust', character: p2 });
    t2.dice.queue(12, 5);
    expect(eventsOf(t2.run({ type: 'osr.attack', attacker: p2, target: o2 }), 'osr.attacked')[0]!['roll']).toMatchObject({ advantage: -1 });
  });
  it('the GM wears resilience down for hard going, and the player is told', () => {
    const t = osrTable();
    const pc = t.add('PC', { con: 10, maxHp: 8 });
    t.run({ type: 'clock.advance', unit: 'time', seconds: 8 * HOUR });
    t.run({ type: 'osr.strain', character: pc, hours: 3, reason: 'a forced march' });
    t.dice.queue(15);
    expect(eventsOf(t.run({ type: 'osr.resilience', character: pc }), 'osr.checked')[0]!['roll']).toMatchObject({ dc: 11 });
    expect(t.s.view({ role: 'spectator' }).world.log.some((l) => l.text.includes('forced march'))).toBe(true);
  });
});

describe('corruption (001 "Corruptions")', () => {
  it('the text\'s snake venom: fail DC 11, exhausted; two hours later fail, 1d6 = 4 CON (10 to 6); two hours later fail, 6: CON 0, dead', () => {
    const t = osrTable();
    const pc = t.add('Bitten', { con: 10, maxHp: 8 });
    t.dice.queue(7);
    const stages: Json = [
      { hours: 2, ability: 'con', exhaustion: true, note: 'weakness' },
      { hours: 2, ability: 'con' },
    ];
    t.run({ type: 'osr.expose', character: pc, name: 'snake venom', stages });
    expect(t.osr.exhausted).toEqual([pc]);
    expect(Object.values(t.osr.corruptions)).toHaveLength(1);
    // Exhausted: the stage check is at disadvantage (two d20, keep the lower).
    t.dice.queue(9, 8, 4);
    t.run({ type: 'clock.advance', unit: 'time', seconds: 2 * HOUR });
    expect(t.stats(pc)['con']).toBe(6);
    t.dice.queue(12, 8, 6); // 8 - 2 = 6 < 11
    t.run({ type: 'clock.advance', unit: 'time', seconds: 2 * HOUR });
    expect(t.stats(pc)['con']).toBe(0);
    expect(t.osr.dead).toEqual([pc]);
    expect(Object.keys(t.osr.corruptions)).toEqual([]);
  });
  it('a passed stage check ends it (setting corruptionCureOnSuccess); resisting at first means no infection', () => {
    const t = osrTable();
    const pc = t.add('PC', { con: 14, maxHp: 8 });
    t.dice.queue(15);
    t.run({ type: 'osr.expose', character: pc, name: 'fever', dc: 13, stages: [{ hours: 24 }] });
    expect(Object.values(t.osr.corruptions)).toHaveLength(0);
    t.dice.queue(2);
    t.run({ type: 'osr.expose', character: pc, name: 'fever', dc: 13, stages: [{ hours: 24 }] });
    t.dice.queue(12);
    t.run({ type: 'clock.advance', unit: 'time', seconds: 24 * HOUR });
    expect(Object.values(t.osr.corruptions)).toHaveLength(0);
  });
  it('a long clock jump runs every stage that ended, in order', () => {
    const t = osrTable();
    const pc = t.add('PC', { con: 18, maxHp: 8 });
    t.dice.queue(1);
    t.run({ type: 'osr.expose', character: pc, name: 'rot', dc: 30, stages: [{ hours: 1, ability: 'str' }] });
    // Stage checks of 2 (a natural 1 would double the damage: fidelity.test.ts), 1 STR each.
    t.dice.queue(2, 1, 2, 1, 2, 1);
    const tx = t.run({ type: 'clock.advance', unit: 'time', seconds: 3 * HOUR });
    expect(eventsOf(tx, 'osr.stageEnded')).toHaveLength(3);
    expect(t.stats(pc)['str']).toBe(7);
  });
  it('limits on stages are named', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 8 });
    expect(t.s.fail({ type: 'osr.expose', character: pc, stages: [] }).path).toBe('stages');
    expect(t.s.fail({ type: 'osr.expose', character: pc, stages: [{ hours: 0 }] }).message).toContain('hours');
  });
});

describe('retreat (001 "Retreat")', () => {
  const fight = () => {
    const t = osrTable();
    const pc = t.add('PC', { dex: 14, maxHp: 8, ac: 12 });
    const hireling = t.add('Hireling', { follows: pc }, 'npc');
    const orc = t.add('Orc', { str: 12, maxHp: 8 }, 'npc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'p', kind: 'pc', characterId: pc, stats: { dex: 14 } },
        { id: 'h', kind: 'npc', side: 'pcs', characterId: hireling, stats: { dex: 12 } },
        { id: 'o', kind: 'npc', characterId: orc, stats: { dex: 10 } },
      ],
    });
    return { t, pc, hireling, orc };
  };
  it('the text: a DEX check breaks the ring; an enemy\'s attack misses; the PC flees and leaves initiative', () => {
    const { t, pc, orc } = fight();
    t.dice.queue(15, 3, 18); // DEX check 15 + 2 vs 12; the hireling's morale at disadvantage 3 / 18 -> 3
    const tx = t.run({ type: 'osr.retreat', combatant: 'p', dc: 12 });
    expect(eventsOf(tx, 'economy.spent')).toHaveLength(3);
    expect(eventsOf(tx, 'osr.moraleRolled')[0]).toMatchObject({ held: false, roll: { advantage: -1 } });
    expect(t.osr.retreating['p']).toBeDefined();
    t.dice.queue(2);
    t.run({ type: 'osr.attack', attacker: orc, target: pc, spend: false });
    t.run({ type: 'osr.escape', combatant: 'p' });
    const enc = t.world.ext['encounter'] as { roster: string[]; current: string };
    expect(enc.roster).toEqual(['h', 'o']);
    expect(enc.current).toBe('h');
  });
  it('a hit stops the retreat', () => {
    const { t, pc, orc } = fight();
    t.dice.queue(15, 12, 12);
    t.run({ type: 'osr.retreat', combatant: 'p', dc: 12 });
    t.dice.queue(19, 2);
    t.run({ type: 'osr.attack', attacker: orc, target: pc, spend: false });
    expect(t.osr.retreating['p']).toBeUndefined();
    expect(t.s.fail({ type: 'osr.escape', combatant: 'p' }).code).toBe('NOT_RETREATING');
  });
  it('a failed check stops it; retreat cannot follow another action', () => {
    const { t, orc } = fight();
    t.dice.queue(2, 1, 1);
    t.run({ type: 'osr.retreat', combatant: 'p', dc: 12 });
    expect(t.osr.retreating['p']).toBeUndefined();
    t.run({ type: 'encounter.endTurn' });
    t.dice.queue(2);
    t.run({ type: 'osr.attack', attacker: String(t.world.characters[Object.keys(t.world.characters)[1]!]!.id), target: orc });
    expect(t.s.fail({ type: 'osr.retreat', combatant: 'h' }).code).toBe('TURN_STARTED');
  });
});

describe('mundane care (001 "Healing From Magic & Medicine")', () => {
  it('removes the injury\'s disadvantage but restores no HP', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 9 });
    t.run({ type: 'osr.damage', target: pc, amount: 20 });
    t.dice.queue(17);
    t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
    expect(t.osr.shaken).toEqual([pc]);
    t.run({ type: 'osr.treat', character: pc });
    expect(t.osr.shaken).toEqual([]);
    expect(t.stats(pc)['hp']).toBe(1);
    expect(t.s.fail({ type: 'osr.treat', character: pc }).code).toBe('NO_PENALTY');
  });
});

describe('treasure and XP (001 "Treasure")', () => {
  it('earned gold is XP, shared; inherited gold is not', () => {
    const t = osrTable();
    const a = t.add('A', { maxHp: 5 });
    const b = t.add('B', { maxHp: 5 });
    t.run({ type: 'osr.treasure', characters: [a, b], gp: 301 });
    expect(t.osr.xp).toEqual({ [a]: 150, [b]: 150 });
    t.run({ type: 'osr.treasure', characters: [a], gp: 1000, earned: false });
    expect(t.osr.xp[a]).toBe(150);
  });
  it('a captured magic item gives its fair value once', () => {
    const t = osrTable();
    const a = t.add('A', { maxHp: 5 });
    t.run({ type: 'osr.magicItem', characters: [a], item: 'Ring of Warmth', value: 400 });
    t.run({ type: 'osr.magicItem', characters: [a], item: 'Ring of Warmth', value: 400 });
    expect(t.osr.xp[a]).toBe(400);
  });
  it('carried loot: 1d20 gp per HD', () => {
    const t = osrTable();
    const ogre = t.add('Ogre', { hd: 3 }, 'npc');
    t.dice.queue(4, 17, 9);
    expect(eventsOf(t.run({ type: 'osr.loot', character: ogre }), 'osr.lootRolled')[0]).toMatchObject({ hd: 3, faces: [4, 17, 9], gp: 30 });
  });
});
