// Issue 16 for the Kleptonomicon (004): Edge Save and Sneaky live on the
// character's sheet (set by the GM, read by the turn order), and ending the
// Pause with a Beat on one's own turn really costs that Beat.
import { describe, expect, it } from 'vitest';
import { fixedRng, getEncounter, scenario, type Json, type Rng, type Scenario, type Transaction, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { ruleset } from '../../src/kleptonomicon/index.js';
import { getKlepto } from '../../src/kleptonomicon/state.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
// Character ids are random (ADR 10); each table's id draws count from 1
// (countingIds), so Alice and Bob have these ids at every table (checked in table()).
const ALICE = 'ch-baaaaacaaaaa';
const BOB = 'ch-daaaaaeaaaaa';
const idOf = (tx: Transaction): string => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
const abilities: Json = [{ id: 'strike', name: 'Strike', time: 'beat' }];

function table(rng: Rng): Scenario {
  const s = scenario(ruleset.modules, { rng: countingIds(rng), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'seat.add', name: 'Bo' });
  expect(idOf(s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: { abilities } }))).toBe(ALICE);
  expect(idOf(s.run({ type: 'character.add', name: 'Bob', kind: 'pc', seatId: 'seat-2', stats: { abilities } }))).toBe(BOB);
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  return s;
}

const NPCS: Json[] = [
  { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1, abilities } },
  { id: 'hound1', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound', edgeSave: 0, abilities } },
];
// PCs linked to their characters with no numbers of their own, as the GM screen adds them.
const PCS: Json[] = [
  { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: ALICE },
  { id: 'c-bob', name: 'Bob', kind: 'pc', characterId: BOB },
];

type Rolls = { group: number; score: number; failed: boolean; detail: { dice: unknown[]; modifier: number; advantage: number } }[];
const rollsOf = (s: Scenario, id: string): Rolls => (getEncounter(s.world).combatants[id]?.placement as { rolls: Rolls }).rolls;

describe('004 "Turn Order": the Edge Save modifier and Sneaky are read from the character\'s sheet', () => {
  it('the GM sets them; the player sees them on the sheet but cannot set them; bad values name the field', () => {
    const s = table(fixedRng([]));
    s.run({ type: 'kleptonomicon.setSheet', characterId: BOB, edgeSave: 2, sneaky: true });
    expect(s.world.characters[BOB]?.stats).toMatchObject({ edgeSave: 2, sneaky: true });
    expect(s.view({ role: 'player', seatId: 'seat-2' }).world.characters[BOB]?.stats).toMatchObject({ edgeSave: 2, sneaky: true });
    expect(s.world.log.map((l) => l.text)).toContain("Bob's sheet: Edge Save +2 · Sneaky.");
    expect(s.fail({ type: 'kleptonomicon.setSheet', characterId: ALICE, edgeSave: 3 }, ANN).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'kleptonomicon.setSheet', characterId: ALICE, edgeSave: 99 })).toMatchObject({ code: 'INVALID_VALUE', path: 'edgeSave' });
    expect(s.fail({ type: 'kleptonomicon.setSheet', characterId: ALICE, sneaky: 'yes' })).toMatchObject({ code: 'INVALID_VALUE', path: 'sneaky' });
    expect(s.fail({ type: 'kleptonomicon.setSheet', characterId: 'nobody', sneaky: true })).toMatchObject({ code: 'NOT_FOUND', path: 'characterId' });
    expect(s.fail({ type: 'kleptonomicon.setSheet', characterId: ALICE })).toMatchObject({ code: 'INVALID_VALUE' });
  });

  it('a Sneaky PC with Edge Save +2 rolls two dice, the highest counting: 3/5 + 2 = 7 and 2/6 + 2 = 8 pass both groups, so Bob goes first (004 Sneaky: advantage on the Edge Saves)', () => {
    // Alice (sheet: nothing, so +0 on one die) rolls 3 against the Guards: 3 <= 6 fails, after the Guards.
    const s = table(fixedRng([3, 3, 5, 2, 6]));
    s.run({ type: 'kleptonomicon.setSheet', characterId: BOB, edgeSave: 2, sneaky: true });
    s.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
    expect(rollsOf(s, 'c-alice')).toEqual([expect.objectContaining({ group: 0, score: 3, failed: true })]);
    const bob = rollsOf(s, 'c-bob');
    expect(bob.map((r) => [r.score, r.failed, r.detail.dice.length, r.detail.modifier, r.detail.advantage])).toEqual([
      [7, false, 2, 2, 1],
      [8, false, 2, 2, 1],
    ]);
    expect(getEncounter(s.world).current).toBe('c-bob');
    // The stored combatant keeps only its own numbers: the sheet stays the one place they live.
    expect(getEncounter(s.world).combatants['c-bob']?.stats).toEqual({});
  });

  it('without the sheet\'s numbers the same first die (3) fails: the sheet made the difference', () => {
    const s = table(fixedRng([3, 3, 5, 2, 6]));
    s.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
    expect(rollsOf(s, 'c-bob')).toEqual([expect.objectContaining({ score: 3, failed: true })]);
  });

  it('a mid-Encounter PC and a re-rolled Edge Save read the sheet too', () => {
    const s = table(fixedRng([9, 9, 4]));
    s.run({ type: 'encounter.start', combatants: [...NPCS, PCS[0]!] });
    s.run({ type: 'kleptonomicon.setSheet', characterId: BOB, edgeSave: -3 });
    // Bob joins: 4 - 3 = 1 fails against the Guards.
    s.run({ type: 'encounter.add', combatant: PCS[1]! });
    expect(rollsOf(s, 'c-bob')).toEqual([expect.objectContaining({ score: 1, failed: true, detail: expect.objectContaining({ modifier: -3 }) })]);
  });
});

describe('004 "Pause Phase": ending the Pause with a Beat makes that Beat unavailable on your next Turn', () => {
  function alicesTurn(): Scenario {
    // Alice passes both (9, 9), Bob fails against the Guards (3): Alice, Guard, Bob, Hound.
    const s = table(fixedRng([9, 9, 3, ...Array.from({ length: 40 }, () => 5)]));
    s.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
    expect(getEncounter(s.world).current).toBe('c-alice');
    return s;
  }

  it('on her own turn Alice\'s Beat comes out of her next turn: two Beats now, one next round (004 Pause: the Beat is unavailable on your next Turn)', () => {
    const s = alicesTurn();
    s.run({ type: 'kleptonomicon.pause' });
    s.run({ type: 'kleptonomicon.resume', endedWithBeatBy: 'c-alice' });
    const econ = () => getEncounter(s.world).economy['c-alice']!;
    expect(econ().owed['beats']).toBe(1);
    // This turn's two Beats are still hers.
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN);
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN);
    for (let i = 0; i < 4; i++) s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).current).toBe('c-alice');
    expect(econ().spent['beats']).toBe(1);
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN);
    expect(s.fail({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN).code).toBe('NO_BEATS');
    expect(s.world.log.map((l) => l.text)).toContain('Alice ends the Pause with a Beat (one Beat fewer on their next turn).');
  });

  it('a third own-turn Pause Beat is refused with the reason: both of the next turn\'s Beats are already owed', () => {
    const s = alicesTurn();
    for (let i = 0; i < 2; i++) {
      s.run({ type: 'kleptonomicon.pause' });
      s.run({ type: 'kleptonomicon.resume', endedWithBeatBy: 'c-alice' });
    }
    s.run({ type: 'kleptonomicon.pause' });
    const e = s.fail({ type: 'kleptonomicon.resume', endedWithBeatBy: 'c-alice' });
    expect(e).toMatchObject({ code: 'NO_BEATS', path: 'endedWithBeatBy' });
    expect(e.message).toContain('already owes every Beat of their next turn');
    expect(getKlepto(s.world).encounterPhase).toBe('pause');
  });

  it('off-turn, the Beat is spent from the Beats that carry into the next turn (as before)', () => {
    const s = alicesTurn();
    s.run({ type: 'kleptonomicon.pause' });
    s.run({ type: 'kleptonomicon.resume', endedWithBeatBy: 'c-bob' });
    expect(getEncounter(s.world).economy['c-bob']).toMatchObject({ spent: { beats: 1 } });
  });
});
