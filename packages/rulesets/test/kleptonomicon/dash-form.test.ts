// Review 9: the second Dash of a round rolled its Athletics Test with one tap,
// with no odds and no dice. Its action now opens a form with the exact odds
// (004 "The Dash Ability": pass triples movement, fail adds Slowed; a Test
// passes above 6 by default) and the log shows the die.
import { describe, expect, it } from 'vitest';
import { fixedRng, getEncounter, scenario, sheetModule, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { kleptoSheetModel, ruleset } from '../../src/kleptonomicon/index.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const KIRA = 'ch-baaaaacaaaaa';

/** Kira (Athletics +2) first against a Rat; `dice` after her Edge Save 9. */
function fight(dice: readonly number[]): Scenario {
  const s = scenario([...ruleset.modules, sheetModule(kleptoSheetModel)], { rng: countingIds(fixedRng([9, ...dice])), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: 'seat-1', stats: { edgeSave: 5, athletics: 2 } });
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  s.run({ type: 'encounter.start', combatants: [{ id: 'c-kira', name: 'Kira', kind: 'pc', characterId: KIRA }, { id: 'rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
  expect(getEncounter(s.world).current).toBe('c-kira');
  return s;
}
type Action = { id: string; label: string; confirm?: string; allowed: boolean; reason: string | null; texts: { field: string; value: string }[]; odds: { query: string; args: { [k: string]: Json }; pass: string[] } | null };
const dashOf = (s: Scenario): Action => {
  const r = s.engine.query(s.table, ANN, 'kleptonomicon.actions', { combatantId: 'c-kira' });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { actions: Action[] }).actions.find((a) => a.id === 'dash')!;
};

describe('the second Dash of a round (004 "The Dash Ability")', () => {
  it('the first Dash is one tap; the second shows its Athletics Test and exact odds: +2 passes on a die of 5-9 (10/20) or a critical 10 (1/20), 11/20', () => {
    const s = fight([]);
    expect(dashOf(s)).toMatchObject({ label: 'Dash', odds: null, allowed: true });
    // One tap with no form: it asks first, saying what it does (issue 20).
    expect(dashOf(s).confirm).toBe('Kira Dashes: every movement style doubles for this turn, for 1 Beat; a second Dash this round needs an Athletics Test.');
    s.run({ type: 'kleptonomicon.dash', characterId: KIRA }, ANN);
    const second = dashOf(s);
    // The second has its form (the Test and its odds), which is its own confirm.
    expect(second.confirm).toBeUndefined();
    expect(second).toMatchObject({ label: 'Dash again (Athletics Test)', allowed: true, texts: [{ field: 'athletics', value: '+2' }], odds: { query: 'kleptonomicon.testOdds', args: { modifier: 2, advantage: 0 }, pass: [] } });
    const odds = s.engine.query(s.table, ANN, 'kleptonomicon.testOdds', second.odds!.args);
    expect(odds).toMatchObject({ ok: true, value: { pass: expect.closeTo(11 / 20, 12) as unknown as number } });
  });

  it('the Test shows its die in the log: a 3 +2 = Score 5 fails and Slows; a third Dash is refused in words', () => {
    const s = fight([3]);
    s.run({ type: 'kleptonomicon.dash', characterId: KIRA }, ANN);
    s.run({ type: 'kleptonomicon.dash', characterId: KIRA }, ANN);
    expect(s.world.log.map((l) => l.text)).toContain('Kira Dashes and fails the Athletics Test (d10 3 +2 = Score 5) and is Slowed.');
    expect(dashOf(s)).toMatchObject({ allowed: false, reason: 'at most two Dashes per round' });
  });

  it('a 6 +2 = Score 8 passes: triple movement', () => {
    const s = fight([6]);
    s.run({ type: 'kleptonomicon.dash', characterId: KIRA }, ANN);
    s.run({ type: 'kleptonomicon.dash', characterId: KIRA }, ANN);
    expect(s.world.log.map((l) => l.text)).toContain('Kira Dashes and passes the Athletics Test (d10 6 +2 = Score 8): triple movement.');
  });
});
