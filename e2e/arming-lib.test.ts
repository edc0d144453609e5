// Review 12 #7 and #10: what a teams PC still lacks to attack and parry, in words, and the weapon row's patch,
// through the real engine: after the patch the teams actions offer Attack, and a wielded weapon lets Parry through.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { armingOf } from '@tablekeeper/rulesets/browser';
import { boudica, enemy, fight, sheet, sheetFor, table } from '../packages/rulesets/test/teams/helpers.ts';

const arming = armingOf('teams')!;
const row = { name: 'Sword', attribute: 'strength', damage: 5, damageType: 'slashing', wielded: true, attributeDie: 8, combatDie: 6 };

describe('arming a teams PC from one row', () => {
  it('only the teams sheet editor has the row', () => {
    for (const id of ['osr', '36th-way', 'daggerheart', 'kleptonomicon']) expect(armingOf(id), id).toBeNull();
  });

  it('an invited PC (tracks only) is told each thing it lacks, in words', () => {
    expect(arming.lacks('Kira', null)).toEqual(['Kira has no sheet yet: save one, or arm Kira with the weapon row below.']);
    expect(arming.lacks('Kira', { maxHealth: 10, constitution: 0, items: {}, wielded: [] })).toEqual([
      'To attack: a combat skill die (an attack rolls attribute + combat skill).',
      'To attack: a weapon (an item with a weapon, such as a sword).',
      'To parry or block: an item in hand (Wielded); only wielded items parry.',
      'Constitution 0: the first health lost means fortifying or falling unconscious.',
    ]);
    expect(arming.lacks('Boudica', boudica as unknown as { [k: string]: unknown })).not.toContain('To attack: a combat skill die (an attack rolls attribute + combat skill).');
  });

  it('the patch adds the weapon in hand and the dice the sheet lacks, keeping the items and dice it has', () => {
    const had = { attributes: { dexterity: 10 }, skills: { athletics: 4 }, items: { cloak: { name: 'cloak' } }, wielded: [] };
    const p = arming.patch(had, row);
    expect(p).toEqual({
      ok: true,
      patch: {
        items: { cloak: { name: 'cloak' }, sword: { name: 'Sword', weapon: { attributes: ['strength'], damage: 5, damageType: 'slashing' } } },
        wielded: ['sword'],
        attributes: { dexterity: 10, strength: 8 },
        skills: { athletics: 4, combat: 6 },
      },
    });
    // A sheet with the dice keeps them: nothing of theirs is overwritten.
    const armed = arming.patch({ attributes: { strength: 12 }, skills: { combat: 10 }, items: {}, wielded: ['shield'] }, row);
    expect(armed.ok && armed.patch).toEqual({ items: { sword: { name: 'Sword', weapon: { attributes: ['strength'], damage: 5, damageType: 'slashing' } } }, wielded: ['shield', 'sword'] });
    expect(arming.patch(null, { ...row, name: ' ' })).toEqual({ ok: false, message: 'Name the weapon (1 to 40 characters), such as sword.' });
    expect(arming.patch(null, { ...row, damageType: 'sonic' })).toEqual({ ok: false, message: 'Damage type "sonic" is not one of 003\'s.' });
    expect(arming.choices({ attributes: { might: 6 } }).attributes).toEqual(['might', 'strength', 'dexterity']);
  });

  it('another attribute ticked joins the weapon\'s list (003: a spear takes strength or dexterity); the weapons read in words, the one in hand marked', () => {
    const p = arming.patch(null, { ...row, also: ['dexterity', 'strength'] });
    expect(p.ok && (p.patch['items'] as { sword: { weapon: { attributes: string[] } } }).sword.weapon.attributes).toEqual(['strength', 'dexterity']);
    const sheet = { items: { sword: { name: 'Sword', weapon: { attributes: ['strength', 'dexterity'] } }, bow: { name: 'Bow', weapon: { attributes: ['dexterity'] } }, rope: { name: 'Rope' } }, wielded: ['sword'] };
    expect(arming.weapons(sheet)).toBe('Sword (rolls strength or dexterity, in hand), Bow (rolls dexterity)');
    expect(arming.weapons({ items: {} })).toBe('');
    expect(arming.weapons(null)).toBe('');
  });

  it('through the engine: after the patch Attack is allowed and the sword is wielded, so Parry has it', () => {
    const { s } = table();
    sheetFor(s, 'k', { name: 'Kira', evasion: 5, maxHealth: 10, constitution: 3 });
    sheetFor(s, 'w', enemy({ name: 'Wolf', evasion: 4 }));
    fight(s, ['k'], ['w'], 'k');
    const p = arming.patch(sheet(s, 'k') as unknown as { [k: string]: unknown }, row);
    if (!p.ok) throw new Error(p.message);
    s.run({ type: 'character.sheet.set', characterId: 'k', sheet: p.patch as { [k: string]: Json }, patch: true } as unknown as { type: string; [k: string]: Json });
    expect(sheet(s, 'k')).toMatchObject({ wielded: ['sword'], skills: { combat: 6 }, attributes: { strength: 8 }, maxHealth: 10, constitution: 3 });
    expect(arming.lacks('Kira', sheet(s, 'k') as unknown as { [k: string]: unknown })).toEqual([]);
    const r = s.engine.query(s.table, { role: 'gm' }, 'teams.actions', { combatantId: 'k' });
    if (!r.ok) throw new Error(r.error.message);
    const attack = (r.value as unknown as { actions: { id: string; allowed: boolean }[] }).actions.find((a) => a.id === 'attack')!;
    expect(attack.allowed).toBe(true);
  });
});
