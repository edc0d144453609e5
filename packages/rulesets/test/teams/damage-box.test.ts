// The GM's damage box on a teams table (review 7, ADR 56): a damage type
// picker with 003 "Damage"'s types, each saying whether deflection lessens
// it (physical and elemental damage are reduced by the matching deflection,
// never below 1; typeless is not), and a log line that names the type and,
// for the GM, the number typed before deflection.
import { describe, expect, it } from 'vitest';
import type { TableView, Viewer } from '@tablekeeper/engine';
import { damageBoxCommand, damageBoxOffersNonlethal, damageTypesFor } from '../../src/damage-box.js';
import { DAMAGE_TYPES } from '../../src/teams/damage.js';
import { boudica, enemy, fight, sheet, table } from './helpers.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };
const lines = (v: TableView): string[] => v.world.log.filter((e) => e.kind === 'teams.damaged').map((e) => e.text);

/** Boudica against a foe with deflection 3 physical, 1 elemental, 10 endurance and 10 health; sheets set the current way. */
function boxFight() {
  const t = table();
  t.s.run({ type: 'seat.add', name: 'Ann' });
  fight(t.s, ['boudica'], ['foe']);
  // Without the old command's name and link fields (character.sheet.set names none).
  const { name: _n, ...pc } = boudica;
  const foe = enemy({ deflection: { physical: 3, elemental: 1 } });
  t.s.run({ type: 'character.sheet.set', characterId: 'boudica', sheet: pc });
  t.s.run({ type: 'character.sheet.set', characterId: 'foe', sheet: foe });
  return t;
}

describe('the teams damage box: a type picker (003 "Damage")', () => {
  it("offers typeless first (the rule's default for a source naming none), then the physical types, then the elemental; psychic is typeless", () => {
    const { s } = boxFight();
    const types = damageTypesFor(s.world, 'foe')!;
    expect(types.map((t) => t.value)).toEqual(['typeless', 'bludgeoning', 'piercing', 'slashing', 'arcane', 'cold', 'fire', 'radiant', 'shock', 'void', 'psychic']);
    expect(new Set(types.map((t) => t.value))).toEqual(new Set(Object.keys(DAMAGE_TYPES)));
    expect(types.find((t) => t.value === 'slashing')?.label).toBe('slashing (physical: less deflection)');
    expect(types.find((t) => t.value === 'fire')?.label).toBe('fire (elemental: less deflection)');
    expect(types.find((t) => t.value === 'psychic')?.label).toBe('psychic (typeless: no deflection)');
    // A creature without a teams sheet (and any other ruleset's table) has no picker.
    expect(damageTypesFor(s.world, 'nobody')).toBeNull();
    expect(damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', 5, 'slashing')).toEqual({ ok: true, value: { type: 'teams.damage', targetId: 'foe', amount: 5, damageType: 'slashing' } });
  });

  it('5 slashing on deflection 3 physical lands as 2 (endurance 10 -> 8); the GM reads the 5 typed, players only the 2 and the type', () => {
    const { s } = boxFight();
    const cmd = damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', 5, 'slashing');
    if (!cmd.ok) throw new Error(cmd.message);
    s.run(cmd.value);
    expect(sheet(s, 'foe')).toMatchObject({ endurance: 8, health: 10 });
    expect(lines(s.view(GM))).toEqual(['Enemy took 2 slashing damage (5 before deflection): endurance 8, health 10 (unhurt).']);
    expect(lines(s.view(PLAYER))).toEqual(['Enemy took 2 slashing damage.']);
    const seen = s.view(PLAYER).history.flatMap((tx) => tx.events).find((e) => e.type === 'teams.damaged');
    expect(seen).toMatchObject({ amount: 2, damageType: 'slashing' });
    // The number typed with the number dealt would tell a foe's deflection.
    expect(seen).not.toHaveProperty('raw');
  });

  it('1 piercing on deflection 3 still deals 1 (the minimum); 5 fire on deflection 1 elemental deals 4; 5 typeless and 5 psychic land in full', () => {
    const { s } = boxFight();
    for (const type of ['piercing', 'fire', 'typeless', 'psychic']) {
      const cmd = damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', type === 'piercing' ? 1 : 5, type);
      if (!cmd.ok) throw new Error(cmd.message);
      s.run(cmd.value);
    }
    expect(lines(s.view(GM)).map((l) => l.replace(/:.*$/, ''))).toEqual(['Enemy took 1 piercing damage', 'Enemy took 4 fire damage (5 before deflection)', 'Enemy took 5 typeless damage', 'Enemy took 5 psychic damage']);
    // 10 endurance: 1 + 4 + 5 = 10, then 5 psychic reaches health (10 -> 5).
    expect(sheet(s, 'foe')).toMatchObject({ endurance: 0, health: 5 });
  });
});

describe('the teams damage box: a nonlethal mark (003 "Death")', () => {
  it('sends nonlethal only when marked, and only on a teams sheet', () => {
    const { s } = boxFight();
    expect(damageBoxOffersNonlethal(s.world, 'foe')).toBe(true);
    expect(damageBoxOffersNonlethal(s.world, 'nobody')).toBe(false);
    expect(damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', 5, 'typeless', true)).toEqual({ ok: true, value: { type: 'teams.damage', targetId: 'foe', amount: 5, damageType: 'typeless', nonlethal: true } });
    expect(damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', 5, 'typeless')).toEqual({ ok: true, value: { type: 'teams.damage', targetId: 'foe', amount: 5, damageType: 'typeless' } });
  });

  it('25 nonlethal on 10 endurance and 10 health: unconscious without risking death, and the log says nonlethal; 1 more (even nonlethal) risks death', () => {
    const { s, dice } = boxFight();
    const first = damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', 25, 'typeless', true);
    if (!first.ok) throw new Error(first.message);
    const tx = s.run(first.value);
    const types = (tx as unknown as { events: { type: string }[] }).events.map((e) => e.type);
    expect(types).toContain('teams.fellUnconscious');
    expect(types).not.toContain('teams.deathRisked');
    expect(sheet(s, 'foe')).toMatchObject({ endurance: 0, health: 0, dead: false });
    expect(lines(s.view(GM))[0]).toMatch(/^Enemy took 25 nonlethal typeless damage: endurance 0, health 0/);
    const again = damageBoxCommand(s.world, { combatantId: 'foe', characterId: null }, 'damage', 1, 'typeless', true);
    if (!again.ok) throw new Error(again.message);
    dice.push(20); // the luck test to cheat death: 20 against 10 survives
    const tx2 = s.run(again.value);
    expect((tx2 as unknown as { events: { type: string }[] }).events.map((e) => e.type)).toContain('teams.deathRisked');
  });
});
