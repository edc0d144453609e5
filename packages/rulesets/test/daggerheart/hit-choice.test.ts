// Marking an Armor Slot is the hit PC's player's choice (issue 20, ADR 50):
// a hit an Armor Slot would lessen waits for an answer; the player (or the GM)
// sees what each answer does first; a command that says useArmor decides at
// once; hits an Armor Slot cannot change land at once.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json } from '@tablekeeper/engine';
import { getDaggerheart } from '../../src/daggerheart/index.js';
import { DhTable, GM, SPECTATOR, ofType, player } from './helpers.js';

/** The review's Kira: thresholds 7 / 14, 6 HP, 2 Armor Slots, Evasion 10, and a Dire Wolf (Attack +2, 2d6+3). */
function setup(stats: { [k: string]: Json } = {}) {
  const t = new DhTable();
  const seat = t.seat('Ana');
  const other = t.seat('Bo');
  const kira = t.pc('Kira', seat, { evasion: 10, major: 7, severe: 14, hpMax: 6, armorMax: 2, ...stats });
  const wolfTx = t.run({ type: 'daggerheart.addAdversaries', name: 'Dire Wolf', count: 1, difficulty: 12, major: 8, severe: 15, hp: 4, attack: 2, damage: '2d6+3', visibility: 'hidden' });
  const wolf = String(ofType(wolfTx, 'character.added')[0]!['id']);
  return { t, seat, other, kira, wolf };
}

const pendingIds = (t: DhTable) => Object.keys(getDaggerheart(t.world).hits ?? {});
const stat = (t: DhTable, id: string, key: string) => t.world.characters[id]!.stats[key];

function choice(t: DhTable, hitId: string, viewer = GM) {
  const r = t.engine.query(t.table, viewer, 'daggerheart.hitChoice', { hitId });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value as unknown as { summary: string; armorLeft: number; options: { markArmor: boolean; severity: string; hp: number; allowed: boolean; text: string }[] };
}

describe("a hit waits for the PC's Armor choice (ADR 50)", () => {
  it('15 damage against 7 / 14 is severe (3 HP); marking an Armor Slot makes it major (2 HP): the player sees both, then marks Armor', () => {
    const { t, seat, kira } = setup();
    const tx = t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 15 });
    expect(ofType(tx, 'daggerheart.damageTaken')).toEqual([]);
    const [hit] = pendingIds(t);
    expect(hit).toBeDefined();
    expect(stat(t, kira, 'hpMarked')).toBeUndefined();
    const c = choice(t, hit!, player(seat));
    expect(c.summary).toBe('15 damage: severe (3 HP); mark an Armor Slot -> major (2 HP)');
    expect(c.options.map((o) => o.text)).toEqual(['Mark an Armor Slot (2 of 2 left): major (2 HP)', 'Take it: severe (3 HP)']);
    expect(t.view(player(seat)).world.log.at(-1)?.text).toBe('Kira is hit for 15 damage: Kira chooses whether to mark an Armor Slot.');
    const answered = t.run({ type: 'daggerheart.answerHit', hitId: hit!, markArmor: true }, player(seat));
    expect(ofType(answered, 'daggerheart.damageTaken')[0]).toMatchObject({ amount: 15, severity: 3, marks: 2, armorUsed: true, armorFrom: 0, armorTo: 1, hpFrom: 0, hpTo: 2 });
    expect([stat(t, kira, 'hpMarked'), stat(t, kira, 'armorMarked')]).toEqual([2, 1]);
    expect(pendingIds(t)).toEqual([]);
  });

  it('taking it as it is: 9 damage is major (2 HP), no Armor marked; the GM may answer for a PC without a phone', () => {
    const { t, kira } = setup();
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 9 });
    const [hit] = pendingIds(t);
    expect(choice(t, hit!).options.map((o) => [o.markArmor, o.severity, o.hp])).toEqual([[true, 'minor', 1], [false, 'major', 2]]);
    t.run({ type: 'daggerheart.answerHit', hitId: hit!, markArmor: false });
    expect([stat(t, kira, 'hpMarked'), stat(t, kira, 'armorMarked')]).toEqual([2, 0]);
  });

  it('no choice when Armor cannot change it: no slot left, no damage, or no Armor at all land at once', () => {
    const full = setup({ armorMarked: 2 });
    expect(ofType(full.t.run({ type: 'daggerheart.takeDamage', characterId: full.kira, amount: 15 }), 'daggerheart.damageTaken')[0]).toMatchObject({ marks: 3, armorUsed: false });
    const none = setup({ armorMax: 0 });
    expect(ofType(none.t.run({ type: 'daggerheart.takeDamage', characterId: none.kira, amount: 5 }), 'daggerheart.damageTaken')[0]).toMatchObject({ marks: 1 });
    const zero = setup();
    expect(ofType(zero.t.run({ type: 'daggerheart.takeDamage', characterId: zero.kira, amount: 0 }), 'daggerheart.damageTaken')[0]).toMatchObject({ marks: 0 });
    for (const s of [full, none, zero]) expect(pendingIds(s.t)).toEqual([]);
  });

  it('a command that says useArmor has decided (the GM for the player); the setting off lands every hit unarmoured', () => {
    const { t, kira } = setup();
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 15, useArmor: true });
    expect([stat(t, kira, 'hpMarked'), stat(t, kira, 'armorMarked'), pendingIds(t).length]).toEqual([2, 1, 0]);
    const off = new DhTable({ 'daggerheart.armorChoice': false });
    const pc = off.pc('Kira', null, { major: 7, severe: 14, armorMax: 2 });
    off.run({ type: 'daggerheart.takeDamage', characterId: pc, amount: 15 });
    expect([stat(off, pc, 'hpMarked'), pendingIds(off).length]).toEqual([3, 0]);
  });

  it("an adversary's hit waits too: d20 12 + 2 = 14 vs Evasion 10, 2d6+3 = 5 + 6 + 3 = 14, severe; an Armor Slot makes it major", () => {
    const { t, seat, kira, wolf } = setup();
    t.dice.queue(12, 5, 6);
    const tx = t.run({ type: 'daggerheart.adversaryAttack', attackerId: wolf, targetId: kira });
    expect(ofType(tx, 'daggerheart.adversaryAttacked')[0]).toMatchObject({ hit: true, damage: 14 });
    expect(ofType(tx, 'daggerheart.damageTaken')).toEqual([]);
    const [hit] = pendingIds(t);
    expect(choice(t, hit!, player(seat)).summary).toBe('14 damage: severe (3 HP); mark an Armor Slot -> major (2 HP)');
    // The pending hit names no attacker: the hidden wolf's id never reaches the phone.
    expect(JSON.stringify(t.view(player(seat)).world.ext['daggerheart'])).not.toContain(wolf);
    t.run({ type: 'daggerheart.answerHit', hitId: hit!, markArmor: true }, player(seat));
    expect(stat(t, kira, 'hpMarked')).toBe(2);
  });

  it("refusals: another player's PC, a spectator, an answered hit, Armor spent meanwhile; undo brings the choice back", () => {
    const { t, seat, other, kira } = setup();
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 15 });
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 8 });
    const [first, second] = pendingIds(t);
    expect(t.fail({ type: 'daggerheart.answerHit', hitId: first!, markArmor: true }, player(other)).code).toBe('FORBIDDEN');
    expect(t.engine.query(t.table, player(other), 'daggerheart.hitChoice', { hitId: first! })).toMatchObject({ ok: false });
    expect(t.engine.query(t.table, SPECTATOR, 'daggerheart.hitChoice', { hitId: first! })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    t.run({ type: 'daggerheart.answerHit', hitId: first!, markArmor: true }, player(seat));
    expect(t.fail({ type: 'daggerheart.answerHit', hitId: first!, markArmor: true }, player(seat))).toMatchObject({ code: 'NOT_FOUND', path: 'hitId' });
    // Both slots gone before the second answer: marking is refused where it was chosen, taking it still works.
    t.run({ type: 'daggerheart.markTrack', characterId: kira, track: 'armor', amount: 1 }, player(seat));
    expect(choice(t, second!, player(seat)).options[0]).toMatchObject({ markArmor: true, allowed: false });
    expect(t.fail({ type: 'daggerheart.answerHit', hitId: second!, markArmor: true }, player(seat))).toMatchObject({ code: 'DH_NO_ARMOR', path: 'markArmor' });
    t.run({ type: 'daggerheart.answerHit', hitId: second!, markArmor: false }, player(seat));
    t.undo();
    expect(pendingIds(t)).toEqual([second]);
  });

  it('property: answering every waiting hit leaves none, and HP marked never passes the slots whatever the answers', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ amount: fc.integer({ min: 0, max: 40 }), mark: fc.boolean(), decided: fc.option(fc.boolean(), { nil: undefined }) }), { maxLength: 12 }), (hits) => {
        const { t, kira } = setup();
        for (const h of hits) {
          const r = t.try({ type: 'daggerheart.takeDamage', characterId: kira, amount: h.amount, ...(h.decided === undefined ? {} : { useArmor: h.decided }) });
          if (!r.ok) expect(r.error.code).toBe('DH_NO_ARMOR');
          for (const id of pendingIds(t)) {
            const a = t.try({ type: 'daggerheart.answerHit', hitId: id, markArmor: h.mark });
            if (!a.ok) t.run({ type: 'daggerheart.answerHit', hitId: id, markArmor: false });
          }
          expect(pendingIds(t)).toEqual([]);
          expect(Number(stat(t, kira, 'hpMarked') ?? 0)).toBeLessThanOrEqual(6);
          expect(Number(stat(t, kira, 'armorMarked') ?? 0)).toBeLessThanOrEqual(2);
        }
      }),
      { numRuns: 60 },
    );
  });
});
