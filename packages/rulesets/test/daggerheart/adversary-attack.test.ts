// An adversary's attack from its stat block (issue 20, ADR 40): d20 + its
// attack against the PC's Evasion, a natural 20 a critical (the dice's maximum
// added), damage through the PC's thresholds and Armor; exact odds first; no
// Hope or Fear moves (000 ties them to the PCs' duality rolls); players read
// the d20 and the outcome, not the adversary's modifier or dice.
import { describe, expect, it } from 'vitest';
import type { Json, TableView } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { adversaryHitOdds } from '../../src/daggerheart/adversary-attack.js';
import { getDaggerheart } from '../../src/daggerheart/index.js';
import { DhTable, GM, ofType, player } from './helpers.js';

/** Kira (Evasion 10, thresholds 5/10, 6 HP, 1 Armor Slot) and a Bandit from the review's stat block: Attack +1, 1d8+2. */
function setup(block: { [k: string]: Json } = {}) {
  // These hits land at once; the player's Armor choice when hit is hit-choice.test.ts's (ADR 50).
  const t = new DhTable({ 'daggerheart.armorChoice': false });
  const seat = t.seat('Ana');
  const kira = t.pc('Kira', seat, { evasion: 10, major: 5, severe: 10, hpMax: 6, armorMax: 1 });
  const tx = t.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 1, difficulty: 12, major: 6, severe: 11, hp: 4, attack: 1, damage: '1d8+2', visibility: 'visible', ...block });
  const bandit = String(ofType(tx, 'character.added')[0]!['id']);
  return { t, seat, kira, bandit };
}

const odds = (t: DhTable, args: { [k: string]: Json }) => {
  const r = t.engine.query(t.table, GM, 'daggerheart.adversaryAttackOdds', args);
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { hit: number; crit: number; needed: number };
};

describe('the odds of an adversary attack (exact, before the roll)', () => {
  it('+1 vs Evasion 10 needs a natural 9: 12/20 = 60% to hit, 1/20 critical', () => {
    const { t, kira, bandit } = setup();
    expect(odds(t, { attackerId: bandit, targetId: kira })).toMatchObject({ hit: 0.6, crit: 0.05, needed: 9 });
  });
  it('advantage keeps the higher of two d20: 1 - (8/20)^2 = 84%, critical 39/400; disadvantage the lower: (12/20)^2 = 36%, critical 1/400', () => {
    expect(adversaryHitOdds(1, 10, 1, true)).toEqual({ hit: 0.84, crit: 0.0975 });
    expect(adversaryHitOdds(1, 10, -1, true)).toEqual({ hit: 0.36, crit: 0.0025 });
  });
  it('a natural 20 hits whatever the Evasion (+1 vs 25: 1/20); with daggerheart.adversaryCrits off, never', () => {
    expect(adversaryHitOdds(1, 25, 0, true)).toEqual({ hit: 0.05, crit: 0.05 });
    expect(adversaryHitOdds(1, 25, 0, false)).toEqual({ hit: 0, crit: 0 });
  });
  it('the faces sum to certainty for any modifier and Evasion', () => {
    for (const adv of [-1, 0, 1]) expect(adversaryHitOdds(30, 0, adv, false).hit).toBeCloseTo(1, 12);
  });
});

describe('daggerheart.adversaryAttack', () => {
  it('d20 14 + 1 = 15 vs Evasion 10 hits; 1d8+2 = 5 + 2 = 7, Major (5/10): Kira marks 2 HP; no Fear gained or spent', () => {
    const { t, kira, bandit } = setup();
    const fear = getDaggerheart(t.world).fear;
    t.dice.queue(14, 5);
    const tx = t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira });
    expect(ofType(tx, 'daggerheart.adversaryAttacked')[0]).toMatchObject({ d20: [14], natural: 14, attack: 1, total: 15, evasion: 10, hit: true, crit: false, damageDice: '1d8+2', damageRolls: [5], damage: 7 });
    expect(ofType(tx, 'daggerheart.damageTaken')[0]).toMatchObject({ characterId: kira, amount: 7, severity: 2, marks: 2, hpFrom: 0, hpTo: 2 });
    expect(t.world.characters[kira]!.stats['hpMarked']).toBe(2);
    expect(getDaggerheart(t.world).fear).toBe(fear);
    expect(t.dice.left).toBe(0);
    // One hit, one line: the roll, the damage and what it did (7 is at least Major 5, below Severe 10: 2 HP).
    expect(t.view(GM).world.log.at(-1)?.text).toBe('Bandit attacked Kira: d20 14 + 1 = 15 vs Evasion 10, a hit; 1d8+2: [5] = 7 damage: major (thresholds 5/10), marks 2 HP.');
    expect(t.view(GM).world.log.filter((e) => e.kind === 'daggerheart.damage')).toEqual([]);
  });
  it('d20 3 + 1 = 4 misses Evasion 10: no damage die is rolled, nothing marked', () => {
    const { t, kira, bandit } = setup();
    t.dice.queue(3);
    const tx = t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira });
    expect(ofType(tx, 'daggerheart.adversaryAttacked')[0]).toMatchObject({ hit: false, damageRolls: [], damage: 0 });
    expect(ofType(tx, 'daggerheart.damageTaken')).toEqual([]);
    expect(t.dice.left).toBe(0);
  });
  it('a natural 20 is a critical: 1d8 3 + 2 + the die\'s maximum 8 = 13, Severe: 3 HP', () => {
    const { t, kira, bandit } = setup();
    t.dice.queue(20, 3);
    const tx = t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira });
    expect(ofType(tx, 'daggerheart.adversaryAttacked')[0]).toMatchObject({ crit: true, critBonus: 8, damage: 13 });
    expect(ofType(tx, 'daggerheart.damageTaken')[0]).toMatchObject({ severity: 3, hpTo: 3 });
  });
  it('advantage rolls two d20 and keeps the higher (4 and 12: 12 + 1 = 13, a hit); an Armor Slot takes 7 from Major to Minor: 1 HP', () => {
    const { t, kira, bandit } = setup();
    t.dice.queue(4, 12, 5);
    const tx = t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira, advantage: 1, useArmor: true });
    expect(ofType(tx, 'daggerheart.adversaryAttacked')[0]).toMatchObject({ d20: [4, 12], natural: 12, hit: true });
    expect(ofType(tx, 'daggerheart.damageTaken')[0]).toMatchObject({ severity: 2, marks: 1, armorUsed: true, armorTo: 1, hpTo: 1 });
  });
  it('refusals name what and where: not an adversary, not a PC, no Evasion, no thresholds, no Armor left, a player', () => {
    const { t, seat, kira, bandit } = setup();
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: kira, targetId: kira })).toMatchObject({ code: 'DH_NOT_AN_ADVERSARY', path: 'attackerId' });
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: bandit })).toMatchObject({ code: 'DH_NOT_A_PC', path: 'targetId' });
    const bare = t.pc('Bare', null, {});
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: bare })).toMatchObject({ code: 'DH_NO_EVASION', path: 'targetId' });
    const open = t.pc('Open', null, { evasion: 9 });
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: open })).toMatchObject({ code: 'DH_NO_THRESHOLDS', path: 'targetId' });
    const noArmor = t.pc('Plain', null, { evasion: 9, major: 4, severe: 8 });
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: noArmor, useArmor: true })).toMatchObject({ code: 'DH_NO_ARMOR', path: 'useArmor' });
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira }, player(seat)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira, advantage: 2 }).code).toBe('INVALID_VALUE');
  });
});

describe('the adversary in the spotlight offers Attack; players read no foe numbers', () => {
  it("the GM's actions for the Bandit: Attack at Kira with the odds query; a player may not ask for its odds (a GM-only query)", () => {
    const { t, seat, kira, bandit } = setup();
    t.run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', side: 'party', characterId: kira }, { id: bandit, name: 'Bandit', kind: 'npc', side: 'adversaries', characterId: bandit }] });
    const r = t.engine.query(t.table, GM, 'daggerheart.actions', { combatantId: bandit });
    if (!r.ok) throw new Error(r.error.message);
    const a = (r.value as unknown as ActionsAnswer).actions;
    expect(a.map((x) => x.id)).toEqual(['adversaryAttack']);
    expect(a[0]).toMatchObject({ label: 'Attack', allowed: true, command: 'daggerheart.adversaryAttack', fixed: { attackerId: bandit }, odds: { query: 'daggerheart.adversaryAttackOdds', pass: ['targetId', 'advantage'] } });
    expect(a[0]!.target?.options).toEqual([{ value: kira, label: 'Kira', side: 'foe', note: 'Evasion 10' }]);
    // Advantage in words, sent as the number the command takes (review 12 #14: it was a bare number box), none first.
    expect(a[0]!.numbers).toEqual([]);
    expect(a[0]!.choices).toEqual([{ field: 'advantage', label: 'Advantage', numeric: true, options: [{ value: '0', label: 'none' }, { value: '1', label: 'advantage (two d20, the higher)' }, { value: '-1', label: 'disadvantage (two d20, the lower)' }] }]);
    for (const o of a[0]!.choices[0]!.options) expect(t.engine.query(t.table, GM, 'daggerheart.adversaryAttackOdds', { attackerId: bandit, targetId: kira, advantage: Number(o.value) }).ok).toBe(true);
    expect(t.engine.query(t.table, player(seat), 'daggerheart.adversaryAttackOdds', { attackerId: bandit, targetId: kira })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
  it('the log line and the event without the modifier and dice for players; the same as the GM once every number is shown', () => {
    const { t, seat, kira, bandit } = setup();
    t.dice.queue(14, 5);
    t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira });
    const lines = (v: TableView) => v.world.log.filter((e) => e.kind === 'daggerheart.attack').map((e) => e.text);
    const ev = (v: TableView) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === 'daggerheart.adversaryAttacked');
    // Kira's own thresholds and HP are hers to read; the Bandit's modifier and dice are not.
    expect(lines(t.view(player(seat)))).toEqual(['Bandit attacked Kira: d20 14 vs Evasion 10, a hit for 7 damage: major (thresholds 5/10), marks 2 HP.']);
    const seen = ev(t.view(player(seat)))[0]!;
    for (const k of ['attack', 'total', 'damageDice', 'damageRolls', 'critBonus']) expect(seen).not.toHaveProperty(k);
    expect(seen).toMatchObject({ natural: 14, hit: true, damage: 7 });
    t.run({ type: 'foes.reveal', reveal: 'all' });
    expect(ev(t.view(player(seat)))[0]).toEqual(ev(t.view(GM))[0]);
  });
  it('one only known to exist attacks as "Unknown"; a hidden one\'s attack is the GM\'s alone (Kira still reads her damage)', () => {
    // Known to exist: the one line tells Kira her damage. Hidden: the attack line is the GM's, so her damage keeps its own line.
    for (const [visibility, line, own] of [['existence', ['Unknown attacked Kira: d20 14 vs Evasion 10, a hit for 7 damage: major (thresholds 5/10), marks 2 HP.'], []], ['hidden', [], ['Kira takes 7 damage (major: thresholds 5/10) and marks 2 HP.']]] as const) {
      const { t, seat, kira, bandit } = setup({ visibility });
      t.dice.queue(14, 5);
      t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira });
      const seen = t.view(player(seat));
      expect(seen.world.log.filter((e) => e.kind === 'daggerheart.attack').map((e) => e.text)).toEqual(line);
      expect(seen.world.log.filter((e) => e.kind === 'daggerheart.damage').map((e) => e.text)).toEqual(own);
    }
  });
});
