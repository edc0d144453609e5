// A 36th Way ability entered by name only (issue 20, GM review: the form asked
// for a raw "id" to invent): its key is made from the name, the log names it
// by its name, and two abilities of one name are refused in words.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { abilityKeyOf, parseAbility } from '../../src/36th-way/abilities.js';
import { table } from './setup.js';

describe('ability keys from names (002 "Abilities")', () => {
  it('"Frost Bolt" is keyed frost-bolt; odd characters fold to dashes; a given id is kept', () => {
    expect(abilityKeyOf('Frost Bolt')).toBe('frost-bolt');
    expect(abilityKeyOf("  Kira's  Cleave!! ")).toBe('kira-s-cleave');
    expect(parseAbility({ name: 'Frost Bolt' }, 'a')).toMatchObject({ ok: true, value: { id: 'frost-bolt', name: 'Frost Bolt' } });
    expect(parseAbility({ id: 'cleave', name: 'Mighty Cleave' }, 'a')).toMatchObject({ ok: true, value: { id: 'cleave', name: 'Mighty Cleave' } });
  });

  it('neither id nor a usable name: refused, naming the name field', () => {
    expect(parseAbility({}, 'sheet.abilities[0]')).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'sheet.abilities[0].name', message: 'sheet.abilities[0].name is required: give the ability a name' } });
    expect(parseAbility({ name: '!!!' }, 'a')).toMatchObject({ ok: false, error: { path: 'a.name' } });
  });

  it('a sheet set by names only: abilities keyed by name, usable by that key; the recharge line names "Flare", not its key', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', maxHp: 30, abilities: [{ name: 'Mighty Flare', frequency: { kind: 'recharge', target: 11 }, action: 'standard' }] } as unknown as Json });
    expect(Object.keys(t.sheet('ann').abilities)).toEqual(['mighty-flare']);
    t.s.run({ type: '36th-way.useAbility', who: 'ann', ability: 'mighty-flare' });
    t.dice.push(5, 5, 1); // recharge: natural 5 + 5 + 1 = 11, 11+ recharges
    t.s.run({ type: '36th-way.quickRest' });
    expect(t.world.log.map((e) => e.text)).toContain('Ann rolled 11 to recharge Mighty Flare (11+): recharged.');
  });

  it('two abilities of one name are refused with a sentence saying what to change', () => {
    const t = table();
    const e = t.s.fail({ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', abilities: [{ name: 'Strike' }, { name: 'Strike' }] } as unknown as Json });
    expect(e).toMatchObject({ code: 'INVALID_VALUE', message: 'ability "Strike" is listed twice: give each ability its own name', path: 'sheet.abilities[1].name' });
  });
});
