// The bestiary's starters (issue 20): each is a foe an attack can target
// out of the box (hit points and the defence its ruleset rolls against), and
// the numbers come from the rule texts' examples, recomputed here.
import { describe, expect, it } from 'vitest';
import { bestiaryOf, scenario, seededRng } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings, statBlockOf } from '../src/index.js';
import { startersOf } from '../src/starters.js';
import { sizeShift } from '../src/teams/index.js';
import { readSheet } from '../src/osr/sheet.js';
import { BLOCK_WEAPON_ID, teamsFoeSheet } from '../src/foe-sheets.js';

function table(id: string) {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(5)), rulesetId: id, settings: settings.value });
}

/** Chance that 2d6 + `bonus` reaches `target`, by counting the 36 faces. */
const twoD6 = (bonus: number, target: number): number => {
  let k = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b + bonus >= target) k++;
  return k / 36;
};

describe('starter foes', () => {
  it('the teams Goblin: size 3, evasion 6, deflection 8, endurance 12, health 12, constitution 4; the bestiary takes it', () => {
    const [goblin] = startersOf('teams').entries;
    expect(goblin!.block).toMatchObject({ size: 3, evasion: 6, deflection: 8, maxEndurance: 12, maxHealth: 12, constitution: 4 });
    const s = table('teams');
    s.run({ type: 'bestiary.import', entries: startersOf('teams').entries as never });
    expect(Object.values(bestiaryOf(s.world.ext).entries)[0]!.block).toEqual(goblin!.block);
  });

  it('003 "Attacks" recomputed against the Goblin: 2d6+1 hits evasion 6 in 30/36, but a medium attacker sees evasion 7 (26/36); the spear 6 + 4 = 10 loses 8 - 1 = 7 to deflection: 3 damage', () => {
    const [goblin] = startersOf('teams').entries;
    const evasion = goblin!.block['evasion'] as number;
    const deflection = goblin!.block['deflection'] as number;
    expect(twoD6(1, evasion)).toBeCloseTo(30 / 36, 12);
    const shift = sizeShift(4, goblin!.block['size'] as number);
    expect(shift).toEqual({ evasion: 1, deflection: -1 });
    expect(twoD6(1, evasion + shift.evasion)).toBeCloseTo(26 / 36, 12);
    // The example's "enemy" took 10 - 8 = 2; the small Goblin takes one more.
    expect(Math.max(1, 6 + 4 - deflection)).toBe(2);
    expect(Math.max(1, 6 + 4 - (deflection + shift.deflection))).toBe(3);
  });

  it("the teams Goblin carries 003's example spear (strength d6 + combat d6 + martial 1, damage 4 piercing, critical 8 at 19+) and wields it, so it can attack", () => {
    const [goblin] = startersOf('teams').entries;
    expect(statBlockOf('teams')!.safeParse(goblin!.block).success).toBe(true);
    const sheet = teamsFoeSheet(goblin!.block as { [k: string]: unknown });
    expect(sheet).toMatchObject({ attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, wielded: [BLOCK_WEAPON_ID] });
    expect(sheet['items']).toMatchObject({ [BLOCK_WEAPON_ID]: { name: 'Spear', weapon: { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' } } });
    // 003 "Attacks": 2d6+1 reaches evasion 6 on 30 of 36 faces (the Goblin attacking the example's enemy).
    expect(twoD6(1, 6)).toBeCloseTo(30 / 36, 12);
  });

  it('the OSR ordinary foe has HP 4, AC 10 and 1 HD; as a character it reads HP 4/4 and AC 10', () => {
    const [foe] = startersOf('osr').entries;
    expect(foe!.block).toMatchObject({ hp: 4, ac: 10, hitDice: 1, speed: 30 });
    const s = table('osr');
    s.run({ type: 'bestiary.import', entries: startersOf('osr').entries as never });
    const sheet = readSheet({ hp: foe!.block['hp'] as number, maxHp: foe!.block['hp'] as number, ac: foe!.block['ac'] as number });
    expect([sheet.hp, sheet.maxHp, sheet.ac]).toEqual([4, 4, 10]);
    // A +2 attack check against AC 10 hits on 8 or more on the d20: 13 faces of 20.
    expect(Array.from({ length: 20 }, (_, i) => i + 1 + 2).filter((t) => t >= sheet.ac).length).toBe(13);
  });
});
