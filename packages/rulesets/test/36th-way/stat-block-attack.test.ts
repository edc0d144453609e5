// A foe's attack from its bestiary stat block (issue 20, ADR 40): "+7 vs AC,
// 2d6" is the whole modifier and the damage (002 "Attacks" gives a monster's
// total, not Level + Volition); the escalation die only where the block says
// (002 "Escalation Die": "and sometimes NPCs"); players read the roll, not the bonus.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Json, TableView, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { BLOCK_ATTACK_ID, diceOfText, tswFoeSheet } from '../../src/foe-sheets.js';
import { statBlockOf } from '../../src/stat-blocks.js';
import { events, expectReplayEqualsLive, fight, type T } from './setup.js';

const GM: Viewer = { role: 'gm' };
const PLAYER: Viewer = { role: 'player', seatId: 'seat-1' };

/** The Orc Raider the review lined up: level 2, AC 16, PD 14, MD 11, 20 HP, Spear +7 vs AC, 2d6; miss 3. */
const RAIDER = { hp: 20, level: 2, ac: 16, pd: 14, md: 11, attackName: 'Spear', attackBonus: 7, attackVs: 'ac', damage: '2d6', missDamage: '3' };

/** Ann's fight with the orc's sheet made from a stat block, as the bestiary panel sends it; the orc's turn. */
function raider(block: object = RAIDER): T {
  const t = fight();
  t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc Raider', kind: 'npc', maxHp: 20, ...tswFoeSheet(block as { [k: string]: unknown }) } as unknown as Json });
  t.s.run({ type: 'encounter.endTurn' });
  return t;
}

const attack = (t: T) => t.s.run({ type: '36th-way.attack', attackerId: 'orc', targetIds: ['ann'], ability: BLOCK_ATTACK_ID });

describe('the stat block schema and the sheet it gives', () => {
  it('takes the attack line (name, bonus, defence, reach, miss damage, escalation) and refuses a bad defence by name', () => {
    const schema = statBlockOf('36th-way')!;
    expect(schema.safeParse({ ...RAIDER, attackReach: 'engaged', escalation: true }).success).toBe(true);
    const bad = schema.safeParse({ attackVs: 'hp' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['attackVs']);
  });
  it("offers the initiative band in words on the form (review 8 saw \"very-fast\"), keeping 002's band keys as values", () => {
    const band = (z.toJSONSchema(statBlockOf('36th-way')!) as unknown as { properties: { band: { enum: string[]; 'x-labels': { [k: string]: string } } } }).properties.band;
    expect(band.enum).toEqual(['very-fast', 'fast', 'medium', 'slow', 'very-slow']);
    expect(band['x-labels']).toEqual({ 'very-fast': 'very fast', fast: 'fast', medium: 'medium', slow: 'slow', 'very-slow': 'very slow' });
  });
  it('takes Resist and Weak to as the PC sheet has them (review 12 #13): the copy\'s sheet resists fire 15+ and is weak to cold', () => {
    const schema = statBlockOf('36th-way')!;
    expect(schema.safeParse({ ...RAIDER, resistType: 'fire', resistAt: 15, weakTo: 'cold' }).success).toBe(true);
    const bad = schema.safeParse({ resistType: 'fire', resistAt: 20 });
    expect(bad.error?.issues[0]?.path).toEqual(['resistAt']);
    expect(schema.safeParse({ weakTo: 'mud' }).error?.issues[0]?.path).toEqual(['weakTo']);
    const t = raider({ ...RAIDER, resistType: 'fire', resistAt: 15, weakTo: 'cold' });
    expect(t.sheet('orc').resist).toEqual({ fire: 15 });
    expect(t.sheet('orc').weak).toEqual(['cold']);
    // No number: 12+, what 002 calls a low resistance.
    expect(tswFoeSheet({ resistType: 'acid' })).toEqual({ resist: { acid: 12 } });
  });
  it('damage text reads as dice: 2d6, d8, 1d10-1, a flat 5; nonsense is no dice', () => {
    expect(diceOfText('2d6')).toEqual({ count: 2, sides: 6, bonus: 0 });
    expect(diceOfText('d8')).toEqual({ count: 1, sides: 8, bonus: 0 });
    expect(diceOfText('1d10 - 1')).toEqual({ count: 1, sides: 10, bonus: -1 });
    expect(diceOfText('5')).toEqual({ count: 0, sides: 6, bonus: 5 });
    expect(diceOfText('lots')).toBeNull();
  });
  it('the attack becomes an at-will basic ability whose bonus is the whole modifier', () => {
    const t = raider();
    expect(t.sheet('orc').abilities[BLOCK_ATTACK_ID]).toMatchObject({
      name: 'Spear',
      basic: true,
      frequency: { kind: 'at-will' },
      attack: { defense: 'ac', bonus: 7, wholeBonus: true, reach: 'engaged', hit: { count: 2, sides: 6, bonus: 0 }, miss: 'dice', missDice: { count: 0, sides: 6, bonus: 3 } },
    });
  });
});

describe("36th-way.attack with a stat block's attack", () => {
  it('+7 vs AC 15: natural 11 (4+4+3) + 7 = 18 hits (not Level 2 + Volition 2); 2d6 = 5+2 = 7 damage, not the stance dice', () => {
    const t = raider();
    t.dice.push(4, 4, 3, 5, 2);
    const tx = attack(t);
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ defense: 'ac', defenseValue: 15, total: 18, hit: true, parts: { level: 0, volition: 0, escalation: 0, bonus: 7 } });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ targetId: 'ann', amount: 7, reason: 'hit' });
    expect(t.sheet('ann').hp).toBe(23);
    expect(t.dice.left).toBe(0);
    expectReplayEqualsLive(t);
  });
  it('a miss deals the block\'s miss damage: natural 5 (3+1+1) + 7 = 12 < AC 15, "miss: 3" deals 3 with no die rolled', () => {
    const t = raider();
    t.dice.push(3, 1, 1);
    const tx = attack(t);
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ total: 12, hit: false });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 3, reason: 'miss' });
    expect(t.dice.left).toBe(0);
  });
  it('vs PD when the block says so: natural 5 + 7 = 12 hits Ann\'s PD 12 though her AC 15 would not', () => {
    const t = raider({ ...RAIDER, attackVs: 'pd' });
    t.dice.push(3, 1, 1, 1, 1);
    const tx = attack(t);
    expect(events(tx, '36th-way.attackRolled')[0]).toMatchObject({ defense: 'pd', defenseValue: 12, hit: true });
    expect(events(tx, '36th-way.damaged')[0]).toMatchObject({ amount: 2 });
  });
  it('the escalation die is added only for a block that says so (round 2: +1), by default not (36th-way.npcEscalation off)', () => {
    for (const [escalation, total] of [[true, 16], [false, 15]] as const) {
      const t = raider({ ...RAIDER, escalation });
      t.s.run({ type: 'encounter.endTurn' }); // round 2, Ann
      t.s.run({ type: 'encounter.endTurn' }); // the orc
      t.dice.push(3, 3, 2, 1, 1);
      const rolled = events(attack(t), '36th-way.attackRolled')[0]!;
      expect(rolled).toMatchObject({ total, parts: { escalation: escalation ? 1 : 0, bonus: 7 } });
    }
  });
});

describe("a stat block foe's opportunity attack (002 \"Opportunity Attacks\": a free basic melee attack)", () => {
  it('Ann leaves the Raider to engage Bob: its opportunity attack is its Spear, +7 and 2d6 (natural 11 + 7 = 18 vs AC 15; 5 + 2 = 7), not Level 2 x the stance die', () => {
    const t = fight();
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc Raider', kind: 'npc', maxHp: 20, ...tswFoeSheet(RAIDER) } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { id: 'bob', name: 'Bob', kind: 'pc' } });
    t.s.run({ type: 'encounter.add', combatant: { id: 'bob', kind: 'pc', side: 'party', band: 'slow' } });
    const [prov] = events(t.s.run({ type: '36th-way.move', who: 'ann', to: 'bob', range: 'engaged' }), '36th-way.provoked');
    expect(prov).toMatchObject({ characterId: 'ann', against: ['orc'] });
    t.dice.push(4, 4, 3, 5, 2);
    const oa = t.s.run({ type: '36th-way.attack', attackerId: 'orc', targetIds: ['ann'], opportunity: prov!['provocationId'] as string });
    expect(events(oa, '36th-way.attackRolled')[0]).toMatchObject({ kind: 'opportunity', defense: 'ac', total: 18, hit: true, parts: { level: 0, volition: 0, bonus: 7 } });
    expect(events(oa, '36th-way.damaged')[0]).toMatchObject({ targetId: 'ann', amount: 7 });
    expect(t.dice.left).toBe(0);
  });
});

describe("the odds and the actions of a stat block's attack", () => {
  it('exact odds before the roll: +7 vs AC 15 needs natural 8+, 181/216 (83.8%); crit on 17+, 4/216', () => {
    const t = raider();
    const r = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attackerId: 'orc', targetIds: ['ann'], ability: BLOCK_ATTACK_ID });
    if (!r.ok) throw new Error(r.error.message);
    const o = r.value as { hit: number; crit: number };
    expect(o.hit).toBeCloseTo(181 / 216, 12);
    expect(o.crit).toBeCloseTo(4 / 216, 12);
  });
  it("the foe's panel offers its Spear with those odds, and no level-derived basic attack", () => {
    const t = raider();
    const r = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: 'orc' });
    if (!r.ok) throw new Error(r.error.message);
    const a = r.value as unknown as ActionsAnswer;
    expect(a.actions.map((x) => x.id)).not.toContain('attack');
    const spear = a.actions.find((x) => x.id === `ability:${BLOCK_ATTACK_ID}`)!;
    expect(spear).toMatchObject({ label: 'Spear', allowed: true, command: '36th-way.attack', odds: { query: '36th-way.attackOdds', args: { attackerId: 'orc', ability: BLOCK_ATTACK_ID } } });
    expect(spear.target?.options.map((o) => o.value)).toEqual(['ann']);
  });
});

describe("players read a foe's attack without its bonus (ADR 33, ADR 40)", () => {
  const lines = (v: TableView): string[] => v.world.log.filter((e) => e.kind === '36th-way.attack').map((e) => e.text);
  const rolled = (v: TableView) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === '36th-way.attackRolled');
  it('the GM reads total and parts; a player reads the natural roll and the outcome; the event shows them once the GM shows every number', () => {
    const t = raider();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    t.dice.push(4, 4, 3, 5, 2);
    attack(t);
    expect(lines(t.s.view(GM))[0]).toBe('Orc Raider attacked Ann (AC 15): natural 11, total 18; hit.');
    expect(lines(t.s.view(PLAYER))[0]).toBe('Orc Raider attacked Ann (AC 15): natural 11; hit.');
    const seen = rolled(t.s.view(PLAYER))[0]!;
    expect(seen).not.toHaveProperty('total');
    expect(seen).not.toHaveProperty('parts');
    expect(seen).toMatchObject({ hit: true, defenseValue: 15 });
    t.s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(rolled(t.s.view(PLAYER))[0]).toMatchObject({ total: 18, parts: { bonus: 7 } });
  });
});
