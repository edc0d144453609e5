// 001 "Death & Injury" (a combatant at 0 HP is dead unless stabilized within a
// minute or by the fight's end, whichever is later) and "Stabilizing &
// Injuries" (an ally stabilizes with a check; the Injury Table follows): the
// minute after a short fight, when only a Stabilize can still save them.
// ADR 55 (review 7: nothing on screen could stabilize Kira after End).
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

const GM: Viewer = { role: 'gm' };

/** Kira and Bram (PCs, each on a seat) against two goblins; Kira falls in round 1 and the GM ends the fight in round 2. */
function leftDying() {
  const t = osrTable();
  const kiraSeat = t.seat('Ana');
  const bramSeat = t.seat('Ben');
  const kira = t.add('Kira', { maxHp: 9, hp: 9, dex: 14, str: 12, cha: 10 }, 'pc', kiraSeat);
  const bram = t.add('Bram', { maxHp: 8, hp: 8, dex: 12, wis: 14 }, 'pc', bramSeat);
  const gobs = [1, 2].map((i) => t.add(`Goblin ${i}`, { maxHp: 5, hp: 5, dex: 10, ac: 13, wis: 8 }, 'npc'));
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
      { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 12 } },
      ...gobs.map((g, i) => ({ id: `g${i + 1}`, name: `Goblin ${i + 1}`, kind: 'npc' as const, side: 'foes', characterId: g, stats: { dex: 10 } })),
    ],
  });
  t.run({ type: 'osr.damage', targetId: kira, amount: 9 }); // down at 0 s
  const round = (): number => (t.world.ext['encounter'] as { round: number }).round;
  for (let i = 0; i < 10 && round() < 2; i++) t.run({ type: 'encounter.endTurn' });
  t.run({ type: 'encounter.end' }); // 12 s: Kira has 48 s left
  return { t, kira, bram, gobs, bramSeat, kiraSeat };
}

type Answer = { combatantId: string; name: string; actions: { id: string; label: string; allowed: boolean; reason: string | null; fixed: { [k: string]: Json }; target: { options: { value: string; label: string; refused?: string; side?: string }[]; picked?: string[] } | null; odds: { query: string; args: { [k: string]: Json } } | null }[] };

function ask(t: ReturnType<typeof leftDying>['t'], viewer: Viewer, args: { [k: string]: Json }): Answer {
  const r = t.s.engine.query(t.s.table, viewer, 'osr.stabilizeActions', args);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as unknown as Answer;
}

describe('stabilizing in the minute after a fight (001 "Death & Injury", "Stabilizing & Injuries")', () => {
  it('Bram (WIS 14, +2) stabilizes Kira after End: d20 9 + 2 = 11 vs DC 10 passes, Injury Table 15 (14-19: disadvantage until rest) puts her at 1 HP, and the rest of the minute no longer kills her', () => {
    const { t, kira, bram } = leftDying();
    expect(t.world.clock.seconds).toBe(12);
    expect(t.osr.dying[kira]).toBeDefined();
    t.dice.queue(9, 15);
    const tx = t.run({ type: 'osr.stabilize', targetId: kira, helperId: bram, method: 'check', ability: 'wis', difficulty: 10 });
    expect(t.events(tx)).toEqual(expect.arrayContaining(['osr.checked', 'osr.stabilized', 'osr.injuryRolled']));
    expect(eventsOf(tx, 'osr.injuryRolled')[0]).toMatchObject({ d20: 15, hp: 1 });
    expect(t.stats(kira)['hp']).toBe(1);
    t.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 48 });
    expect(t.osr.dead).toEqual([]);
  });

  it('a failed check (d20 7 + 2 = 9 vs DC 10) leaves her dying; when the 48 s left run out she is dead', () => {
    const { t, kira, bram } = leftDying();
    t.dice.queue(7);
    t.run({ type: 'osr.stabilize', targetId: kira, helperId: bram, method: 'check', ability: 'wis', difficulty: 10 });
    expect(t.osr.dying[kira]).toBeDefined();
    t.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 48 });
    expect(t.osr.dead).toEqual([kira]);
  });

  it('only an ally who can act stabilizes: a goblin is no ally of Kira, a dying or dead helper cannot act, nobody stabilizes themself', () => {
    const { t, kira, bram, gobs } = leftDying();
    expect(t.s.fail({ type: 'osr.stabilize', targetId: kira, helperId: gobs[0]!, method: 'check' })).toMatchObject({ code: 'NOT_AN_ALLY', path: 'helperId', message: "Goblin 1 is not Kira's ally (001: an ally stabilizes the dying)" });
    expect(t.s.fail({ type: 'osr.stabilize', targetId: kira, helperId: kira, method: 'check' })).toMatchObject({ code: 'INVALID_VALUE', path: 'helperId' });
    t.run({ type: 'osr.damage', targetId: bram, amount: 8 });
    expect(t.s.fail({ type: 'osr.stabilize', targetId: kira, helperId: bram, method: 'check' })).toMatchObject({ code: 'HELPER_DOWN', message: 'Bram is at 0 HP and unable to act: someone else must stabilize Kira' });
    // The GM's own means (a spell) needs no helper.
    t.dice.queue(16);
    t.run({ type: 'osr.stabilize', targetId: kira, method: 'spell' });
    expect(t.osr.dying[kira]).toBeUndefined();
  });

  it("Bram's phone gets his Stabilize form over the dying (Kira picked), with his check's odds: d20 + 2 >= 10 is 13/20 = 65%", () => {
    const { t, kira, bram, bramSeat } = leftDying();
    const player: Viewer = { role: 'player', seatId: bramSeat };
    const a = ask(t, player, { characterId: bram });
    expect(a.name).toBe('Bram');
    const [stab] = a.actions;
    expect(stab).toMatchObject({ id: 'stabilize', allowed: true, fixed: { helperId: bram, method: 'check' }, odds: { query: 'osr.checkOdds', args: { characterId: bram } } });
    expect(stab!.target!.options.map((o) => o.label)).toEqual(['Kira']);
    expect(stab!.target!.picked).toEqual([kira]);
    const odds = t.s.engine.query(t.s.table, player, 'osr.checkOdds', { characterId: bram, ability: 'wis', difficulty: 10 });
    expect(odds).toMatchObject({ ok: true, value: { pass: 0.65, modifier: 2 } });
    // A player acts for their own character only.
    expect(t.s.engine.query(t.s.table, player, 'osr.stabilizeActions', { characterId: kira })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(t.s.engine.query(t.s.table, { role: 'spectator' }, 'osr.stabilizeActions', { characterId: bram })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it("the GM's forms for one dying creature: each ally able to act (Bram for Kira, Goblin 2 for Goblin 1), never a foe, and a spell or other means", () => {
    const { t, kira, bram, gobs } = leftDying();
    const forKira = ask(t, GM, { targetId: kira });
    expect(forKira.actions.map((a) => a.label)).toEqual(['Bram stabilizes Kira', 'A spell or other means']);
    expect(forKira.actions[0]).toMatchObject({ fixed: { helperId: bram, method: 'check' }, target: { picked: [kira] } });
    t.run({ type: 'osr.damage', targetId: gobs[0]!, amount: 5 });
    const forGoblin = ask(t, GM, { targetId: gobs[0]! });
    expect(forGoblin.actions.map((a) => a.label)).toEqual(['Goblin 2 stabilizes Goblin 1', 'A spell or other means']);
    // Someone not dying is refused in words.
    expect(t.s.engine.query(t.s.table, GM, 'osr.stabilizeActions', { targetId: bram })).toMatchObject({ ok: false, error: { code: 'NOT_DYING', message: 'Bram is not dying (at 0 HP and not yet stabilized)' } });
    // Once stabilized, Kira is no longer offered.
    t.dice.queue(15, 15);
    t.run({ type: 'osr.stabilize', targetId: kira, helperId: bram, method: 'check', ability: 'wis' });
    // Goblin 1 still dies on the floor, but it is no ally of Bram's: his form offers nobody.
    expect(ask(t, GM, { characterId: bram }).actions[0]).toMatchObject({ allowed: false, reason: "none of Bram's allies in view is dying (at 0 HP and not yet stabilized)", target: { options: [] } });
  });

  it('in the fight, a dying foe is listed for a PC but refused: only an ally stabilizes', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 9, hp: 9, dex: 14, wis: 12 });
    const gob = t.add('Goblin', { maxHp: 5, hp: 5, dex: 10 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } }, { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob, stats: { dex: 10 } }] });
    t.run({ type: 'osr.damage', targetId: gob, amount: 5 });
    const r = t.s.engine.query(t.s.table, GM, 'osr.actions', { combatantId: 'k' });
    const stab = (r.ok ? (r.value as unknown as Answer) : null)!.actions.find((a) => a.id === 'stabilize')!;
    expect(stab.target!.options).toEqual([expect.objectContaining({ label: 'Goblin', refused: "Kira is not Goblin's ally (001: an ally stabilizes the dying)" })]);
  });
});

describe('the fight-end summary follows the dying (review 7: "Kira (54 s left)" stayed after she died)', () => {
  it('its log line carries the summary without the dying sentence and who was left dying, by character', () => {
    const { t, kira } = leftDying();
    const line = t.world.log.findLast((l) => l.kind === 'osr.fightSummarized')!;
    expect(line.text).toContain('Dying, dead unless stabilized in time: Kira (48 s left).');
    expect(line.data).toEqual({ without: 'The fight is over after 2 rounds. Nobody died. Still standing: the party, Bram; the foes, Goblin 1, Goblin 2.', dying: [{ characterId: kira, name: 'Kira' }] });
  });
});
