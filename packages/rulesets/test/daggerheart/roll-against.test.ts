// A PC's action roll against an adversary (issue 20, ADR 79): the player
// picks the foe, the roll's difficulty is its stat block's Difficulty, the
// odds are exact where the asker may know that Difficulty (the table's foe
// reveal, ADR 33) and dice-only where not, and the log names the foe with
// the result, by a name players know only.
import { describe, expect, it } from 'vitest';
import type { Json, TableView, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { DhTable, GM, ofType, player } from './helpers.js';

/** Kira (Agility +2) played by Ana, and Imp 1 (Difficulty 11) from a stat block, both in a running conflict. */
function setup(block: { [k: string]: Json } = {}) {
  const t = new DhTable();
  const seat = t.seat('Ana');
  const kira = t.pc('Kira', seat, { agility: 2, evasion: 10, major: 5, severe: 10 });
  const tx = t.run({ type: 'daggerheart.addAdversaries', name: 'Imp', count: 1, difficulty: 11, major: 4, severe: 8, hp: 3, attack: 1, damage: '1d6', visibility: 'visible', ...block });
  const imp = String(ofType(tx, 'character.added')[0]!['id']);
  const vis = (block['visibility'] as string | undefined) ?? 'visible';
  t.run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', side: 'pcs', characterId: kira }, { id: imp, name: 'Imp', kind: 'npc', side: 'adversaries', characterId: imp, visibility: vis }] });
  return { t, seat, kira, imp };
}

/** Success of Hope + Fear + modifier against a difficulty, matching dice always succeeding, counted over the 144 pairs. */
function successBy(modifier: number, difficulty: number): number {
  let n = 0;
  for (let h = 1; h <= 12; h++) for (let f = 1; f <= 12; f++) if (h === f || h + f + modifier >= difficulty) n++;
  return n / 144;
}

const actionsOf = (t: DhTable, viewer: Viewer, combatantId: string) => {
  const r = t.engine.query(t.table, viewer, 'daggerheart.actions', { combatantId });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as unknown as ActionsAnswer).actions;
};
const odds = (t: DhTable, viewer: Viewer, args: { [k: string]: Json }) => t.engine.query(t.table, viewer, 'daggerheart.actionRollOdds', args);
const lines = (v: TableView) => v.world.log.filter((e) => e.kind === 'daggerheart.actionRolled').map((e) => e.text);

describe("the player's action roll names a foe", () => {
  it('the phone lists the Imp it sees, with its Difficulty only once the GM shows foes\' defences; no Difficulty box to type', () => {
    const { t, seat, kira, imp } = setup();
    const hidden = actionsOf(t, player(seat), kira).find((a) => a.id === 'rollAgainst')!;
    expect(hidden).toMatchObject({ label: 'Action roll against an adversary', command: 'daggerheart.actionRoll', fixed: { characterId: kira }, allowed: true, numbers: [] });
    expect(hidden.target?.options).toEqual([{ value: imp, label: 'Imp', side: 'foe', standing: 'up' }]);
    expect(hidden.odds).toMatchObject({ query: 'daggerheart.actionRollOdds', pass: ['targetId', 'trait'] });
    t.run({ type: 'foes.reveal', reveal: 'defences' });
    const shown = actionsOf(t, player(seat), kira).find((a) => a.id === 'rollAgainst')!;
    expect(shown.target?.options).toEqual([{ value: imp, label: 'Imp', side: 'foe', standing: 'up', note: 'Difficulty 11' }]);
    // The GM's panel for Kira has the same roll, with a bonus and advantage of the GM's.
    const gm = actionsOf(t, GM, kira).find((a) => a.id === 'rollAgainst')!;
    expect(gm.numbers.map((n) => n.field)).toEqual(['bonus', 'advantage']);
    expect(gm.target?.options[0]).toMatchObject({ value: imp, note: 'Difficulty 11' });
  });
  it('a defeated adversary is marked "defeated" beside its name, standing down (review 12 #8)', () => {
    const { t, seat, kira, imp } = setup();
    // 9 is the Imp's Severe (8) or more: 3 HP, all it has.
    t.run({ type: 'daggerheart.takeDamage', characterId: imp, amount: 9 });
    const gm = actionsOf(t, GM, kira).find((a) => a.id === 'rollAgainst')!;
    expect(gm.target?.options).toEqual([{ value: imp, label: 'Imp', side: 'foe', standing: 'down', note: 'defeated, Difficulty 11' }]);
    const phone = actionsOf(t, player(seat), kira).find((a) => a.id === 'rollAgainst')!;
    expect(phone.target?.options).toEqual([{ value: imp, label: 'Imp', side: 'foe', standing: 'down', note: 'defeated' }]);
  });
  it('a hidden adversary is never listed on a phone, and naming it is refused as an unknown id would be', () => {
    const { t, seat, kira, imp } = setup({ visibility: 'hidden' });
    const a = actionsOf(t, player(seat), kira).find((x) => x.id === 'rollAgainst')!;
    expect(a.target?.options).toEqual([]);
    expect(a).toMatchObject({ allowed: false, reason: 'no adversary in the conflict that you can see' });
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: kira, trait: 'agility', targetId: imp }, player(seat)).code).toBe('NOT_FOUND');
    // The GM sees it.
    expect(actionsOf(t, GM, kira).find((x) => x.id === 'rollAgainst')!.target?.options.map((o) => o.value)).toEqual([imp]);
  });
  it("exact odds against Difficulty 11 with Agility +2 (Hope + Fear >= 9, or matching dice: 120 of 144) where the phone may know it; the dice-only chances where not", () => {
    const { t, seat, kira, imp } = setup();
    expect(successBy(2, 11)).toBeCloseTo(120 / 144, 12);
    const secret = odds(t, player(seat), { characterId: kira, trait: 'agility', targetId: imp });
    const dice = secret.ok ? (secret.value as { critical: number; withHope: number; withFear: number }) : null;
    expect(secret).toMatchObject({ ok: true, value: { hidden: true, advantage: 0, why: "the GM keeps Imp's Difficulty secret" } });
    expect(dice?.critical).toBeCloseTo(12 / 144, 10);
    expect(dice?.withHope).toBeCloseTo(66 / 144, 10);
    expect(dice?.withFear).toBeCloseTo(66 / 144, 10);
    const gm = odds(t, GM, { characterId: kira, trait: 'agility', targetId: imp });
    expect(gm.ok && (gm.value as { success: number; difficulty: number })).toMatchObject({ difficulty: 11 });
    expect(gm.ok && (gm.value as { success: number }).success).toBeCloseTo(successBy(2, 11), 10);
    t.run({ type: 'foes.reveal', reveal: 'defences' });
    const shown = odds(t, player(seat), { characterId: kira, trait: 'agility', targetId: imp });
    expect(shown.ok && (shown.value as { success: number }).success).toBeCloseTo(120 / 144, 10);
    expect(odds(t, player(seat), { characterId: kira, targetId: imp, difficulty: 5 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE' } });
  });
  it('help offered to the PC counts in the odds, as the roll spends it (one helper: advantage, +d6)', () => {
    const { t, seat, kira, imp } = setup();
    const bard = t.pc('Bard', seat, {});
    t.run({ type: 'daggerheart.helpAlly', helperId: bard, targetId: kira }, player(seat));
    const r = odds(t, GM, { characterId: kira, trait: 'agility', targetId: imp });
    // Each d6 face k: success when h + f + 2 + k >= 11 or h = f.
    let n = 0;
    for (let k = 1; k <= 6; k++) n += successBy(2 + k, 11) / 6;
    expect(r.ok && (r.value as { success: number; advantage: number })).toMatchObject({ advantage: 1 });
    expect(r.ok && (r.value as { success: number }).success).toBeCloseTo(n, 10);
  });
  it('the roll reads the Difficulty itself: Hope 7 + Fear 3 + 2 = 12 vs 11 succeeds with Hope; the GM reads the number, the phone the foe and the outcome', () => {
    const { t, seat, kira, imp } = setup();
    t.dice.queue(7, 3);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: kira, trait: 'agility', targetId: imp, label: 'stab it' }, player(seat));
    expect(ofType(tx, 'daggerheart.actionRolled')[0]).toMatchObject({ targetId: imp, hidden: true, label: 'Agility roll against Imp (stab it)', roll: { hope: 7, fear: 3, modifier: 2, total: 12, difficulty: 11, outcome: 'successWithHope' } });
    expect(lines(t.view(GM))).toEqual(["Kira's Agility roll against Imp (stab it): Hope 7 + Fear 3 + 2 (modifier) = 12 vs 11 (hidden): a success with Hope."]);
    const phone = t.view(player(seat));
    expect(lines(phone)).toEqual(["Kira's Agility roll against Imp (stab it): Hope 7 + Fear 3 + 2 (modifier) = 12: a success with Hope."]);
    expect(JSON.stringify(phone.history)).not.toContain('"difficulty":11');
    expect(t.hope(kira)).toBe(3);
  });
  it('with defences shown, players read the Difficulty in the line too; a failure with Fear gives the GM Fear', () => {
    const { t, seat, kira, imp } = setup();
    t.run({ type: 'foes.reveal', reveal: 'defences' });
    t.dice.queue(2, 5);
    t.run({ type: 'daggerheart.actionRoll', characterId: kira, targetId: imp }, player(seat));
    expect(lines(t.view(player(seat)))).toEqual(["Kira's action roll against Imp: Hope 2 + Fear 5 = 7 vs 11: a failure with Fear."]);
    expect(t.fear).toBe(1);
  });
  it("the GM rolling for Kira against a hidden foe: players read neither its name nor its Difficulty", () => {
    const { t, seat, kira, imp } = setup({ visibility: 'hidden' });
    t.dice.queue(9, 4);
    t.run({ type: 'daggerheart.actionRoll', characterId: kira, trait: 'agility', targetId: imp });
    expect(lines(t.view(GM))[0]).toBe("Kira's Agility roll against Imp: Hope 9 + Fear 4 + 2 (modifier) = 15 vs 11 (hidden): a success with Hope.");
    const phone = t.view(player(seat));
    expect(lines(phone)).toEqual(["Kira's Agility roll: Hope 9 + Fear 4 + 2 (modifier) = 15: a success with Hope."]);
    expect(JSON.stringify(phone)).not.toContain(imp);
  });
  it('refusals in words: a difficulty beside a foe, a PC as the foe, neither given', () => {
    const { t, seat, kira, imp } = setup();
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: kira, targetId: imp, difficulty: 5 }, player(seat))).toMatchObject({ code: 'INVALID_VALUE', path: 'difficulty' });
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: kira, targetId: kira })).toMatchObject({ code: 'DH_NOT_AN_ADVERSARY', message: expect.stringContaining('Kira is not an adversary') as unknown as string });
    expect(t.fail({ type: 'daggerheart.actionRoll', characterId: kira })).toMatchObject({ code: 'INVALID_VALUE', path: 'difficulty' });
  });
});
