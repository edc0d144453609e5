// kleptonomicon.freeplayActions (004 "Freeplay", "Improvising"): outside an
// Encounter a character may make a Test of a Skill, with exact odds before the
// roll, or try something for the GM to rule on. Answered on the asker's view:
// a player's own characters only.
import { describe, expect, it } from 'vitest';
import { fixedRng, scenario, type Json, type Rng, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { ruleset } from '../../src/kleptonomicon/index.js';

const GM: Viewer = { role: 'gm' };
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };

function table(rng: Rng): { s: Scenario; alice: string; bob: string } {
  const s = scenario(ruleset.modules, { rng: countingIds(rng), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'seat.add', name: 'Bo' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: {} });
  s.run({ type: 'character.add', name: 'Bob', kind: 'pc', seatId: 'seat-2', stats: {} });
  const alice = s.world.seats['seat-1']!.characterIds[0]!;
  const bob = s.world.seats['seat-2']!.characterIds[0]!;
  return { s, alice, bob };
}

function freeplay(s: Scenario, viewer: Viewer, characterId: string): ActionsAnswer {
  const r = s.engine.query(s.table, viewer, 'kleptonomicon.freeplayActions', { characterId });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value as unknown as ActionsAnswer;
}
const find = (a: ActionsAnswer, id: string): TurnAction => a.actions.find((x) => x.id === id)!;

describe('kleptonomicon.freeplayActions (004 Freeplay)', () => {
  it('in Freeplay a Test of a Skill is offered with its odds: Athletics +2 passes on a die of 5 or more, 11/20, and a 5 rolls Score 7 (pass)', () => {
    const { s, alice } = table(fixedRng([5]));
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    const test = find(freeplay(s, ANN, alice), 'test');
    expect(test).toMatchObject({ allowed: true, command: 'kleptonomicon.test', fixed: { characterId: alice }, odds: { query: 'kleptonomicon.testOdds', pass: ['modifier', 'advantage'] } });
    expect(test.texts[0]).toMatchObject({ field: 'skill', suggestions: ['Athletics'] });
    // The d10-ish die: 5, 6, 7, 8, 9 at 2/20 each, the critical 10 at 1/20; +2 takes any of them above the fail Score 6.
    const odds = s.engine.query(s.table, ANN, test.odds!.query, { ...test.odds!.args, modifier: 2, advantage: 0 });
    expect(odds).toMatchObject({ ok: true, value: { failAtOrBelow: 6 } });
    expect((odds as unknown as { value: { pass: number } }).value.pass).toBeCloseTo(11 / 20, 12);
    s.run({ type: test.command, ...test.fixed, skill: 'Athletics', modifier: 2 } as { type: string; [k: string]: Json }, ANN);
    expect(s.world.log.at(-1)?.text).toBe('Alice tests Athletics: Score 7 (pass).');
  });

  it("a player's phone offers their own character's Test only; the GM may test any PC", () => {
    const { s, alice, bob } = table(fixedRng([5]));
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    expect(find(freeplay(s, ANN, bob), 'test')).toMatchObject({ allowed: false, reason: 'Bob is not yours to play' });
    expect(find(freeplay(s, GM, bob), 'test').allowed).toBe(true);
    expect(find(freeplay(s, GM, alice), 'improvise').allowed).toBe(true);
    expect(s.engine.query(s.table, ANN, 'kleptonomicon.freeplayActions', { characterId: 'ch-nobody' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'characterId' } });
  });

  it('between Episodes an improvised try waits for an Episode; in a running Encounter the Test moves to the turn\'s actions', () => {
    const { s, alice } = table(fixedRng(Array.from({ length: 40 }, () => 5)));
    const between = freeplay(s, GM, alice);
    expect(find(between, 'test').allowed).toBe(true);
    expect(find(between, 'improvise')).toMatchObject({ allowed: false, reason: 'no Episode is running: the GM starts one' });
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'encounter.start', combatants: [{ id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice, stats: { edgeSave: 0 } }] });
    expect(find(freeplay(s, GM, alice), 'test')).toMatchObject({ allowed: false, reason: "in an Encounter, the Test is among the turn's actions" });
    s.run({ type: 'encounter.end' });
    // The Reward phase is outside the fight's turns: Tests are open again.
    expect(find(freeplay(s, GM, alice), 'test').allowed).toBe(true);
  });
});
