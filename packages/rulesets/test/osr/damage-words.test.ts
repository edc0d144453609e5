// 001 "Dealing Damage" and "Critical Hits" in words (review 9): the log shows
// the dice and the ability modifier a hit adds, the odds say the formula, and
// the form's damage field names what is added for each kind of attack.
import { describe, expect, it } from 'vitest';
import { damageFormula, damageRollWords } from '../../src/osr/combat.js';
import { attackOddsAt } from '../../src/osr/queries.js';
import { eventsOf, osrTable } from './helpers.js';

const lines = (t: ReturnType<typeof osrTable>, kind: string): string[] => t.world.log.filter((e) => e.kind === kind).map((e) => e.text);

describe('damage in words', () => {
  it('the formula names the ability and its modifier', () => {
    expect(damageFormula('1d6', 'dex', 3)).toBe('1d6 + DEX 3');
    expect(damageFormula('1d8+1', 'str', -1)).toBe('1d8+1 + STR -1');
    expect(damageFormula('2d6', null, 0)).toBe('2d6');
  });

  it('a rolled hit shows each die and what was added; a crit shows the sum before doubling', () => {
    expect(damageRollWords({ dice: '1d6', faces: [2], bonus: 3, doubled: false, total: 5, ability: 'dex', abilityMod: 3 })).toBe('1d6 [2] + DEX 3');
    // 2d6+1 [4, 1] + STR 2: 4 + 1 + 1 + 2 = 8, doubled 16.
    expect(damageRollWords({ dice: '2d6+1', faces: [4, 1], bonus: 3, doubled: true, total: 16, ability: 'str', abilityMod: 2 })).toBe('2d6 [4, 1] + 1 + STR 2 = 8, doubled on a natural 20');
    expect(damageRollWords({ dice: '1d4-1', faces: [3], bonus: -1, doubled: false, total: 2 })).toBe('1d4 [3] - 1');
    expect(damageRollWords({ dice: '1d8', faces: [5], bonus: 2, doubled: true, total: 12, ability: 'str', abilityMod: 2 }, 'dice')).toBe('1d8 [5] + STR 2, the dice doubled on a natural 20');
  });

  it('the GM log of a hit and of a critical hit reads the dice (Kira, DEX 16, ranged 1d6 vs AC 13)', () => {
    const t = osrTable();
    const kira = t.add('Kira', { dex: 16, maxHp: 8 });
    const gob = t.add('Goblin', { ac: 13, maxHp: 30, hp: 30 }, 'npc');
    // d20 12 + DEX 3 = 15 vs 13: hit; d6 2 + DEX 3 = 5.
    t.dice.queue(12, 2);
    t.run({ type: 'osr.attack', attackerId: kira, targetId: gob, kind: 'ranged', damage: '1d6' });
    // Natural 20: d6 4 + 3 = 7, doubled to 14 (001 "Critical Hits": damage is doubled).
    t.dice.queue(20, 4);
    const tx = t.run({ type: 'osr.attack', attackerId: kira, targetId: gob, kind: 'ranged', damage: '1d6' });
    expect(eventsOf(tx, 'osr.attacked')[0]!['damage']).toMatchObject({ faces: [4], bonus: 3, doubled: true, total: 14 });
    const [first, second] = lines(t, 'osr.attacked');
    // One hit, one line: the dice, then what it did to the Goblin's HP (30 - 5 = 25, 25 - 14 = 11).
    expect(first).toMatch(/hit for 5 \(1d6 \[2\] \+ DEX 3\): HP 30 → 25\.$/);
    expect(second).toMatch(/a critical hit for 14 \(1d6 \[4\] \+ DEX 3 = 7, doubled on a natural 20\): HP 25 → 11\.$/);
    expect(t.stats(gob)['hp']).toBe(30 - 5 - 14);
  });

  it('the odds carry the formula; expected damage counts the modifier once, the crit doubling the whole', () => {
    const t = osrTable();
    const kira = t.add('Kira', { dex: 16, maxHp: 8 });
    const gob = t.add('Goblin', { ac: 13, maxHp: 5 }, 'npc');
    const o = attackOddsAt(t.world, { attacker: kira, target: gob, kind: 'ranged', damage: { count: 1, sides: 6, bonus: 0 } });
    expect(o.damageWords).toBe('1d6 + DEX 3');
    // Hit on a natural 10+ (10 + 3 = 13): 11/20; crit 1/20; per hit 3.5 + 3 = 6.5.
    expect(o.hit).toBeCloseTo(11 / 20, 12);
    expect(o.expectedDamage).toBeCloseTo((10 / 20) * 6.5 + (1 / 20) * 13, 12);
  });

  it("the attack form's damage field says what each kind adds", () => {
    const t = osrTable();
    const kira = t.add('Kira', { str: 12, dex: 16, int: 9, wis: 10, maxHp: 8 });
    const gob = t.add('Goblin', { ac: 13, maxHp: 5, dex: 10 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira }, { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob, visibility: 'visible' }] });
    const ans = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.actions', { combatantId: 'k' });
    expect(ans.ok).toBe(true);
    const attack = (ans.ok ? (ans.value as unknown as { actions: { id: string; texts?: { field: string; label: string }[] }[] }) : { actions: [] }).actions.find((a) => a.id === 'attack')!;
    expect(attack.texts!.find((x) => x.field === 'damage')!.label).toBe('Damage dice, before the ability modifier (melee + STR 1; ranged + DEX 3; arcane + INT -1; divine + WIS 0)');
  });
});

describe('rest lines (review 9: "Kira 2, Dorn 12 HP" read as gains)', () => {
  it('say the heal and the new total apart, and the nights in words', async () => {
    const { healedWords, restedWords } = await import('../../src/osr/module.js');
    expect(restedWords(1, 'safe')).toBe('1 night of safe rest');
    expect(restedWords(3, 'unsafe')).toBe('3 nights of unsafe rest');
    expect(healedWords('Kira', { from: 1, to: 2 }, 8)).toBe('Kira heals 1 (now 2/8 HP)');
    expect(healedWords('Dorn', { from: 12, to: 12 }, 12)).toBe('Dorn stays at 12/12 HP');
    // The whole line from a real rest: level 1 Kira at 1/8 heals 1 a night of safe rest (001 "Healing From Rest").
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 8, hp: 1, level: 1 });
    t.add('Dorn', { maxHp: 12, hp: 12, level: 1 });
    t.run({ type: 'osr.rest', kind: 'safe', nights: 1 });
    expect(lines(t, 'osr.rested')).toEqual(['1 night of safe rest: Kira heals 1 (now 2/8 HP), Dorn stays at 12/12 HP.']);
    expect(t.stats(kira)['hp']).toBe(2);
  });
});
