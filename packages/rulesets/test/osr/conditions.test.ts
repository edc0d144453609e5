// The OSR condition catalogue (ADR 70, review 9): the states 001 names with an
// effect, applied from the tracker's picker, and the effects the rules apply:
// disadvantage on every check (exhausted, injured), no direct target (stealth,
// ended by the bearer's own attack), no turn (incapacitated), advantage against
// the flanked.
import { describe, expect, it } from 'vitest';
import { getEncounter } from '@tablekeeper/engine';
import { OSR_CONDITIONS } from '../../src/osr/index.js';
import { attackOddsAt, checkOddsAt } from '../../src/osr/queries.js';
import { eventsOf, osrTable } from './helpers.js';

function fight() {
  const t = osrTable();
  const kira = t.add('Kira', { dex: 16, str: 10, maxHp: 8, ac: 14 });
  const dorn = t.add('Dorn', { dex: 9, str: 16, maxHp: 12, ac: 16 });
  const gob = t.add('Goblin', { dex: 14, ac: 13, maxHp: 20, hp: 20 }, 'npc');
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira },
      { id: 'd', name: 'Dorn', kind: 'pc', side: 'party', characterId: dorn },
      { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob, visibility: 'visible' },
    ],
  });
  const apply = (targetId: string, condition: string) => t.run({ type: 'condition.apply', targetId, condition, duration: { kind: 'indefinite' } });
  return { t, kira, dorn, gob, apply };
}

describe('OSR conditions (001)', () => {
  it('the catalogue names the states 001 gives an effect, and no teams word', () => {
    expect(OSR_CONDITIONS.map((c) => c.id)).toEqual(['concentrating', 'stealth', 'exhausted', 'injured', 'incapacitated', 'flanked']);
    expect(OSR_CONDITIONS.map((c) => c.name.toLowerCase()).join(' ')).not.toContain('bloodied');
    const { t } = fight();
    expect(getEncounter(t.world).conditions).toEqual({});
  });

  it('Exhausted and Injured each put every check at disadvantage; together still one disadvantage (001 keeps 2d20)', () => {
    const { t, kira, apply } = fight();
    // DC 11, DEX mod +3: plain 13/20; at disadvantage (13/20)^2.
    expect(checkOddsAt(t.world, kira, { modifier: 3, dc: 11 })).toBeCloseTo(13 / 20, 12);
    apply('k', 'exhausted');
    expect(checkOddsAt(t.world, kira, { modifier: 3, dc: 11 })).toBeCloseTo((13 / 20) ** 2, 12);
    apply('k', 'injured');
    expect(checkOddsAt(t.world, kira, { modifier: 3, dc: 11 })).toBeCloseTo((13 / 20) ** 2, 12);
    t.dice.queue(15, 4);
    const tx = t.run({ type: 'osr.check', characterId: kira, difficulty: 11, ability: 'dex' });
    expect(eventsOf(tx, 'osr.checked')[0]).toMatchObject({ reasons: ['exhausted', 'injured: disadvantage until rest'], roll: { natural: 4, success: false } });
  });

  it('an exhausted character has 0 speed and, by default, cannot fight', () => {
    const { t, kira, gob, apply } = fight();
    apply('k', 'exhausted');
    expect(t.s.fail({ type: 'osr.attack', attackerId: kira, targetId: gob }).code).toBe('EXHAUSTED');
    expect(t.s.fail({ type: 'osr.move', characterId: 'k', feet: 10 }).code).toBe('CANNOT_MOVE');
  });

  it('in stealth: no one may target them; their own attack ends it', () => {
    const { t, kira, dorn, gob, apply } = fight();
    apply('k', 'stealth');
    expect(t.s.fail({ type: 'osr.attack', attackerId: gob, targetId: kira }).code).toBe('TARGET_HIDDEN');
    // Kira attacks from stealth: d20 5 + DEX 3 = 8 vs 13, a miss, and the stealth is gone.
    t.dice.queue(5);
    const tx = t.run({ type: 'osr.attack', attackerId: kira, targetId: gob, kind: 'ranged', spend: false });
    expect(eventsOf(tx, 'condition.removed')).toHaveLength(1);
    expect(Object.values(getEncounter(t.world).conditions)).toEqual([]);
    t.dice.queue(2);
    expect(t.run({ type: 'osr.attack', attackerId: gob, targetId: kira, spend: false }).kind).toBe('command');
    expect(dorn).toBeTruthy();
  });

  it('flanked: attacks against it roll with advantage, in the odds and the roll', () => {
    const { t, dorn, gob, apply } = fight();
    // Dorn melee: STR +3 vs AC 13 needs a natural 10: 11/20; with advantage 1 - (9/20)^2.
    expect(attackOddsAt(t.world, { attacker: dorn, target: gob }).hit).toBeCloseTo(11 / 20, 12);
    apply('g', 'flanked');
    expect(attackOddsAt(t.world, { attacker: dorn, target: gob }).hit).toBeCloseTo(1 - (9 / 20) ** 2, 12);
    t.dice.queue(3, 12, 4);
    const tx = t.run({ type: 'osr.attack', attackerId: dorn, targetId: gob, spend: false });
    expect(eventsOf(tx, 'osr.attacked')[0]).toMatchObject({ roll: { advantage: 1, natural: 12 }, hit: true, reasons: ['the target is flanked'] });
  });

  it('incapacitated: the turn passes them by', () => {
    const { t, apply } = fight();
    // Order by DEX: Kira 16, Goblin 14, Dorn 9.
    expect(getEncounter(t.world).current).toBe('k');
    apply('g', 'incapacitated');
    t.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('d');
  });
});
