// A teams foe from its bestiary stat block (issue 20, ADR 40): the block's
// attribute and skill dice, proficiencies, stamina and weapon become a sheet
// that attacks as 003 "Attacks" says and fortifies as 003 "Damage" says. The
// worked examples are the text's Boudica, here as a foe's stat block.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { BLOCK_WEAPON_ID, teamsFoeSheet } from '../../src/foe-sheets.js';
import { statBlockOf } from '../../src/stat-blocks.js';
import { attackOdds } from '../../src/teams/odds.js';
import { enemy, fight, lastOf, sheet, sheetFor, start, table } from './helpers.js';

/** Boudica's numbers as a stat block: strength d6, combat d6, athletics d4, martial +1, fortitude +1, constitution 4, 12/12, stamina 4, a spear 4 (8 on 19+). */
const BLOCK = {
  evasion: 5,
  size: 4,
  maxEndurance: 12,
  maxHealth: 12,
  constitution: 4,
  maxStamina: 4,
  strength: 'd6',
  combat: 'd6',
  athletics: 'd4',
  martial: 1,
  fortitude: 1,
  weapon: 'Spear',
  weaponDamage: 4,
  criticalDamage: 8,
  criticalThreshold: 19,
  damageType: 'piercing',
};

/** The raider (from its stat block) and Pat in a fight, on the raider's turn: a foe without a character is a creature once the fight adds it. */
function withFoe(block: object = BLOCK) {
  const t = table();
  sheetFor(t.s, 'raider', { name: 'Raider', ...teamsFoeSheet(block as { [k: string]: unknown }) });
  sheetFor(t.s, 'pc', enemy({ name: 'Pat' }));
  fight(t.s, ['pc'], ['raider'], 'raider');
  return t;
}

describe('the teams stat block', () => {
  it('takes dice, proficiencies, stamina and a weapon; a die size not on the sheet is refused by name', () => {
    const schema = statBlockOf('teams')!;
    expect(schema.safeParse({ ...BLOCK, delivery: 'melee' }).success).toBe(true);
    const bad = schema.safeParse({ strength: 'd5' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['strength']);
    expect(schema.safeParse({ damageType: 'banana' }).success).toBe(false);
  });
  it('becomes a sheet with the weapon wielded and the stamina full', () => {
    const { s } = withFoe();
    const sh = sheet(s, 'raider');
    expect(sh).toMatchObject({ attributes: { strength: 6 }, skills: { combat: 6, athletics: 4 }, proficiencies: { martial: 1, fortitude: 1 }, constitution: 4, stamina: 4, wielded: [BLOCK_WEAPON_ID] });
    expect(sh['items']).toMatchObject({ [BLOCK_WEAPON_ID]: { name: 'Spear', weapon: { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' } } });
  });
});

describe("a foe's attack from its stat block (003 \"Attacks\")", () => {
  it('odds first: d6 + d6 + 1 against evasion 6 hits on 2d6 >= 5 (30/36) or a luck 19+ critical: 30/36 + 6/36 x 2/20 = 0.85', () => {
    const { s } = withFoe();
    const o = attackOdds(s.world, { attacker: 'raider', target: 'pc', weapon: BLOCK_WEAPON_ID, sneak: false, flank: false, nearby: [], bonus: 0, await: false });
    expect('hit' in o && o.hit).toBeCloseTo(0.85, 12);
  });
  it('strength 2 + combat 3 + martial 1 = 6 just hits evasion 6; 6 + spear 4 - deflection 8 = 2 damage', () => {
    const { s, dice } = withFoe();
    dice.push(2, 3, 10);
    s.run({ type: 'teams.attack', attackerId: 'raider', targetId: 'pc', weapon: BLOCK_WEAPON_ID });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ result: 6, hit: true, proficiency: 'martial' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ raw: 10, damage: 2 });
    expect(sheet(s, 'pc')['endurance']).toBe(8);
    expect(dice.left).toBe(0);
  });
  it("the foe's turn offers Attack with its Spear, allowed, with the odds query", () => {
    const { s } = withFoe();
    const r = s.engine.query(s.table, { role: 'gm' }, 'teams.actions', { combatantId: 'raider' });
    if (!r.ok) throw new Error(r.error.message);
    const atk = (r.value as unknown as ActionsAnswer).actions.find((x) => x.id === 'attack')!;
    expect(atk).toMatchObject({ allowed: true, odds: { query: 'teams.attackOdds' } });
    expect(atk.choices[0]!.options).toEqual([{ value: BLOCK_WEAPON_ID, label: 'Spear', note: 'in hand' }]);
  });
});

describe("players read a foe's attack without its numbers (ADR 33, ADR 40)", () => {
  it('the GM reads the result against evasion; a player the verdict; the event without its roll and result until every number is shown', () => {
    const { s, dice } = withFoe();
    s.run({ type: 'seat.add', name: 'Pat' });
    dice.push(2, 3, 10);
    s.run({ type: 'teams.attack', attackerId: 'raider', targetId: 'pc', weapon: BLOCK_WEAPON_ID });
    const gm = s.view({ role: 'gm' });
    const player = s.view({ role: 'player', seatId: 'seat-1' });
    const lines = (v: typeof gm) => v.world.log.filter((e) => e.kind === 'teams.attacked').map((e) => e.text);
    const attacked = (v: typeof gm) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === 'teams.attacked');
    // 003 "Attacks": the dice as its examples tell them, d6 2 + d6 3 + martial 1 = 6, with the luck die (10).
    expect(lines(gm)).toEqual(['Raider attacked Pat: strength 2 + combat 3 +1 = 6 with luck 10 against evasion 6, a hit.']);
    expect(lines(player)).toEqual(['Raider attacked Pat: a hit.']);
    expect(attacked(player)[0]).not.toHaveProperty('result');
    expect(attacked(player)[0]).not.toHaveProperty('roll');
    s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(attacked(s.view({ role: 'player', seatId: 'seat-1' }))[0]).toMatchObject({ result: 6 });
  });
  it("the foe's sheet in history carries only its declared keys (name and status; evasion, size, deflection once defences are revealed)", () => {
    // As the bestiary panel does it: the foe is on the tracker first, then its sheet is sent.
    const { s } = table();
    s.run({ type: 'seat.add', name: 'Pat' });
    fight(s, ['pc'], ['raider']);
    sheetFor(s, 'raider', { name: 'Raider', ...teamsFoeSheet(BLOCK) });
    const set = () => s.view({ role: 'player', seatId: 'seat-1' }).history.flatMap((tx) => tx.events).find((e) => e.type === 'teams.sheetSet' && e['id'] === 'raider')!['sheet'] as { [k: string]: Json };
    expect(set()).toMatchObject({ name: 'Raider', attributes: {}, skills: {}, items: {}, wielded: [] });
    for (const k of ['evasion', 'maxStamina', 'stamina', 'constitution', 'maxHealth']) expect(set()).not.toHaveProperty(k);
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(set()).toMatchObject({ evasion: 5, size: 4 });
    expect(set()).not.toHaveProperty('maxStamina');
  });
});

describe('a foe with constitution and stamina fortifies (003 "Damage")', () => {
  it('7 then 10 damage: endurance 12 -> 5 -> 0, health 12 -> 7; missing 5 > constitution 4; 1 stamina, d6 4 + d4 2 + fortitude 1 = 7 >= 5: conscious', () => {
    const { s, dice } = withFoe();
    s.run({ type: 'teams.damage', targetId: 'raider', amount: 7 });
    s.run({ type: 'teams.damage', targetId: 'raider', amount: 10 });
    expect(sheet(s, 'raider')).toMatchObject({ endurance: 0, health: 7, conscious: true });
    dice.push(4, 2, 5);
    s.run({ type: 'teams.stayConscious', characterId: 'raider', fortify: true, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } });
    expect(lastOf(s, 'teams.fortified')).toMatchObject({ difficulty: 5, success: true });
    expect(sheet(s, 'raider')).toMatchObject({ stamina: 3, conscious: true });
  });
  it('without stamina in the block the same blow knocks it out (it cannot pay to fortify)', () => {
    const { s } = withFoe({ ...BLOCK, maxStamina: undefined });
    s.run({ type: 'teams.damage', targetId: 'raider', amount: 17 });
    expect(sheet(s, 'raider')).toMatchObject({ conscious: false });
  });
});

describe('a foe added without an Evasion (review 10: the builder\'s "Wolf x2")', () => {
  function wolves() {
    const t = table();
    sheetFor(t.s, 'kira', { ...enemy({ name: 'Kira' }), items: { spear: { name: 'spear', weapon: { attributes: ['strength'], damage: 4 } } }, wielded: ['spear'] });
    sheetFor(t.s, 'dorn', { ...enemy({ name: 'Dorn' }), conscious: false });
    start(t.s, {
      type: 'encounter.start',
      combatants: [
        { id: 'kira', kind: 'pc', side: 'players' },
        { id: 'dorn', kind: 'pc', side: 'players' },
        { id: 'wolf-1', kind: 'npc', side: 'wolves', name: 'Wolf 1' },
        { id: 'wolf-2', kind: 'npc', side: 'wolves', name: 'Wolf 2' },
      ],
      params: { teamOrder: ['players', 'wolves'] },
    });
    return t;
  }
  const attackOf = (s: ReturnType<typeof table>['s'], id: string) => {
    const r = s.engine.query(s.table, { role: 'gm' }, 'teams.actions', { combatantId: id });
    if (!r.ok) throw new Error(r.error.message);
    return (r.value as unknown as ActionsAnswer).actions.find((x) => x.id === 'attack');
  };
  it("Kira's Attack lists both wolves, marked as needing an Evasion, beside the unconscious Dorn; the odds say what is missing", () => {
    const { s } = wolves();
    const atk = attackOf(s, 'kira')!;
    expect([...atk.target!.options].sort((x, y) => (x.value < y.value ? -1 : 1))).toEqual([
      { value: 'dorn', label: 'Dorn', side: 'ally', standing: 'down', note: 'unconscious' },
      { value: 'wolf-1', label: 'Wolf 1', side: 'foe', refused: 'no Evasion yet: set it with its Sheet' },
      { value: 'wolf-2', label: 'Wolf 2', side: 'foe', refused: 'no Evasion yet: set it with its Sheet' },
    ]);
    const odds = s.engine.query(s.table, { role: 'gm' }, 'teams.attackOdds', { attackerId: 'kira', targetId: 'wolf-1', weapon: 'spear' });
    expect(odds.ok).toBe(false);
    if (!odds.ok) expect(odds.error.message).toBe('Wolf 1 has no sheet yet, so no Evasion to roll against or weapon to attack with: give it them with its Sheet on the encounter');
  });
  it("a wolf's own turn shows Attack under Not now with what to do; once its sheet has an Evasion and a bite, it attacks", () => {
    const { s } = wolves();
    expect(attackOf(s, 'wolf-1')).toMatchObject({ allowed: false, reason: 'Wolf 1 has no sheet yet: give it a weapon and an Evasion with its Sheet on the encounter' });
    sheetFor(s, 'wolf-1', { ...enemy({ name: 'Wolf 1' }), evasion: 5, items: { bite: { name: 'bite', weapon: { attributes: ['strength'], damage: 3 } } }, wielded: ['bite'] });
    expect(attackOf(s, 'wolf-1')).toMatchObject({ allowed: expect.any(Boolean), choices: [{ field: 'weapon', options: [{ value: 'bite', label: 'bite' }] }] });
    expect(attackOf(s, 'kira')!.target!.options.find((o) => o.value === 'wolf-1')).toEqual({ value: 'wolf-1', label: 'Wolf 1', side: 'foe', standing: 'up' });
  });
});
