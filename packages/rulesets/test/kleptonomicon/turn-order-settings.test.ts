// The Edge Save turn order's per-table choices (004 "Turn Order"): how PCs in
// the same place are ordered, who rolls the Edge Saves, and the fail Score.
import { describe, expect, it } from 'vitest';
import { fixedRng, getEncounter, scenario, type Json, type Scenario } from '@tablekeeper/engine';
import { ruleset } from '../../src/kleptonomicon/index.js';
import { createTableFor } from '../../src/registry.js';

const NPCS: Json[] = [
  { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } },
  { id: 'hound1', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound', edgeSave: 0 } },
];
const PCS: Json[] = [
  { id: 'alice', name: 'Alice', kind: 'pc', stats: { edgeSave: 0 } },
  { id: 'bob', name: 'Bob', kind: 'pc', stats: { edgeSave: 0 } },
];

/** Faces in order: Alice's Edge Saves against the guards then the hounds, then Bob's. */
function started(faces: number[], settings: { [k: string]: Json } = {}): Scenario {
  const s = scenario(ruleset.modules, { rng: fixedRng([...faces, ...Array.from({ length: 20 }, () => 5)]), rulesetId: 'kleptonomicon', settings });
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  s.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
  return s;
}

describe('kleptonomicon.edgeSaveTies', () => {
  // Both pass both Edge Saves (Alice 9 and 9, Bob 9 and 8), so both go before the guards.
  const faces = [9, 9, 9, 8];

  it('"choice" (default): the players pick which of the two goes first', () => {
    const s = started(faces);
    const enc = getEncounter(s.world);
    expect(enc.current).toBeNull();
    expect(enc.pending).toMatchObject({ chooser: { kind: 'players', side: 'pcs' } });
    expect([...(enc.pending?.options ?? [])].sort()).toEqual(['alice', 'bob']);
    s.run({ type: 'encounter.choose', id: 'bob' });
    expect(getEncounter(s.world).current).toBe('bob');
  });

  it('"score": the higher last Edge Save Score goes first, with no question asked', () => {
    const s = started(faces, { 'kleptonomicon.edgeSaveTies': 'score' });
    const enc = getEncounter(s.world);
    // Alice's last Score is 9, Bob's 8.
    if (enc.current === null) s.run({ type: 'encounter.advance' });
    expect(getEncounter(s.world).current).toBe('alice');
    expect(getEncounter(s.world).pending).toBeNull();
    s.run({ type: 'encounter.endTurn' });
    if (getEncounter(s.world).current === null) s.run({ type: 'encounter.advance' });
    expect(getEncounter(s.world).current).toBe('bob');
  });

  it('a fail Score outside 0-10 is refused at table creation, so every table can start an encounter', () => {
    const bad = createTableFor('kleptonomicon', { tableId: 't', name: 'n', settings: { 'kleptonomicon.failAtOrBelow': 11 } });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'INVALID_SETTING', path: 'settings.kleptonomicon.failAtOrBelow' });
    expect(createTableFor('kleptonomicon', { tableId: 't', name: 'n', settings: { 'kleptonomicon.failAtOrBelow': 7 } }).ok).toBe(true);
  });

  it('is refused at table creation unless it is "choice" or "score"', () => {
    const bad = createTableFor('kleptonomicon', { tableId: 't', name: 'n', settings: { 'kleptonomicon.edgeSaveTies': 'coin' } });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'INVALID_SETTING', path: 'settings.kleptonomicon.edgeSaveTies' });
    expect(!bad.ok && bad.error.message).toContain('"choice", "score"');
  });
});

describe('kleptonomicon.playersRollEdgeSaves', () => {
  it('the Initiative Phase waits for each player to roll; then the order forms from their Scores', () => {
    // No dice at the start: Alice rolls 3 (fails against the guards), then Bob 9, 9.
    const s = started([3, 9, 9], { 'kleptonomicon.playersRollEdgeSaves': true });
    const enc = getEncounter(s.world);
    expect(enc.pending).toMatchObject({ prompt: 'Roll Edge Saves', act: 'roll' });
    s.run({ type: 'encounter.choose', id: 'alice' });
    expect(getEncounter(s.world).combatants['alice']?.placement).toMatchObject({ slot: 1, score: 3 });
    s.run({ type: 'encounter.choose', id: 'bob' });
    expect(getEncounter(s.world).combatants['bob']?.placement).toMatchObject({ slot: 0, score: 9 });
    if (getEncounter(s.world).current === null) s.run({ type: 'encounter.advance' });
    // Bob passed both: first; then the guards, then Alice.
    expect(getEncounter(s.world).current).toBe('bob');
  });
});

describe('kleptonomicon.failAtOrBelow in the turn order', () => {
  it('a Score of 7 passes by default but fails when the table sets 7', () => {
    const lenient = started([7, 7, 9, 9]);
    expect(getEncounter(lenient.world).combatants['alice']?.placement).toMatchObject({ slot: 0 });
    const strict = started([7, 9, 9], { 'kleptonomicon.failAtOrBelow': 7 });
    expect(getEncounter(strict.world).combatants['alice']?.placement).toMatchObject({ slot: 1, score: 7 });
    // Held for the whole encounter in the sequencer state, so replays never read a later setting.
    expect(getEncounter(strict.world).seq).toMatchObject({ failAtOrBelow: 7, ties: 'choice', playersRoll: false });
  });
});

describe('undo labels', () => {
  it('Episode commands say what they revert', () => {
    const s = started([9, 9, 9, 9]);
    expect(s.view({ role: 'gm' }).undoLabel).toBe('start an encounter');
    s.undo();
    expect(s.view({ role: 'gm' }).undoLabel).toBe('move to Freeplay');
  });
});
