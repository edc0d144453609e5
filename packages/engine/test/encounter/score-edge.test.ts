// 001 "Initiative" (DEX score order) and 004 "Turn Order" (Edge Save groups).
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/types.js';
import type { Rng } from '../../src/dice/rng.js';
import { fixedRng } from '../../src/dice/rng.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import { edgeSaveSequencer, groupByCreatureType, type EdgeSaveRoller } from '../../src/encounter/sequencers/edge-save.js';
import { BEATS_ECONOMY, OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, economyOf } from '../../src/encounter/module.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table, playRound, playRoundUntil } from './harness.js';

describe('score order (001 "Initiative")', () => {
  const rules: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [] };
  const roster = [
    { id: 'ada', kind: 'pc', stats: { dex: 14 } },
    { id: 'bo', kind: 'pc', stats: { dex: 9 } },
    { id: 'orc', kind: 'npc', stats: { dex: 14 } },
    { id: 'rat', kind: 'npc', stats: { dex: 16 } },
    { id: 'cy', kind: 'pc', stats: { dex: 12 } },
  ];

  it('higher DEX score first; ties: PCs before NPCs; the same every round', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    expect(playRound(t)).toEqual(['rat', 'ada', 'orc', 'cy', 'bo']);
    expect(playRound(t)).toEqual(['rat', 'ada', 'orc', 'cy', 'bo']);
  });

  it('the tie-break is a setting: NPCs first, or join order', () => {
    const npcsFirst = new Table([encounterModule({ ...rules, sequencer: scoreSequencer({ ties: 'npcs-first' }) })]);
    npcsFirst.ok({ type: 'encounter.start', combatants: roster });
    expect(playRound(npcsFirst)).toEqual(['rat', 'orc', 'ada', 'cy', 'bo']);
    const joined = new Table([encounterModule({ ...rules, sequencer: scoreSequencer({ ties: 'join-order' }) })]);
    joined.ok({ type: 'encounter.start', combatants: [roster[2]!, ...roster.filter((_, i) => i !== 2)] });
    expect(playRound(joined)).toEqual(['rat', 'orc', 'ada', 'cy', 'bo']);
  });

  it('missed turns: lost by default, or taken later in the round once able (a setting)', () => {
    for (const [missedTurns, expected] of [['lost', ['rat', 'orc', 'cy', 'bo']], ['later', ['rat', 'orc', 'ada', 'cy', 'bo']]] as const) {
      const t = new Table([encounterModule({ ...rules, sequencer: scoreSequencer({ missedTurns }) })]);
      t.ok({ type: 'encounter.start', combatants: roster });
      t.ok({ type: 'encounter.setIncapacitated', id: 'ada', value: true });
      t.ok({ type: 'encounter.endTurn' }); // rat
      t.ok({ type: 'encounter.setIncapacitated', id: 'ada', value: false }); // during orc's turn
      expect(['rat', ...playRound(t)]).toEqual([...expected]);
    }
  });

  it('rejects a combatant with no DEX', () => {
    const t = new Table([encounterModule(rules)]);
    expect(t.run({ type: 'encounter.start', combatants: [{ id: 'x', kind: 'pc' }] })?.code).toBe('NO_SCORE');
  });

  it('delay to a slower place: after those already at that score, for the rest of the encounter', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    expect(t.run({ type: 'encounter.delay', to: { score: 16 } })?.code).toBe('DELAY_NOT_SLOWER');
    t.ok({ type: 'encounter.delay', to: { score: 12 } });
    expect(t.enc.current).toBe('ada');
    expect(playRound(t)).toEqual(['ada', 'orc', 'cy', 'rat', 'bo']);
    expect(playRound(t)).toEqual(['ada', 'orc', 'cy', 'rat', 'bo']);
  });

  it('ambush: only the ambushers act in the surprise round, then the usual order', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster, surprise: { side: 'npcs' } });
    expect(playRound(t)).toEqual(['rat', 'orc']);
    expect(playRound(t)).toEqual(['rat', 'ada', 'orc', 'cy', 'bo']);
  });

  it('one active, one movement, one quick; active trades down to movement or quick (001 "Types of Actions")', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'encounter.spend', combatant: 'rat', kind: 'movement' });
    t.ok({ type: 'encounter.spend', combatant: 'rat', kind: 'movement' }); // the active action traded down
    expect(t.run({ type: 'encounter.spend', combatant: 'rat', kind: 'active' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.spend', combatant: 'rat', kind: 'quick' });
    expect(t.run({ type: 'encounter.spend', combatant: 'rat', kind: 'quick' })?.code).toBe('NO_ACTIONS_LEFT');
    expect(t.run({ type: 'encounter.spend', combatant: 'ada', kind: 'active' })?.code).toBe('NO_ACTIONS_LEFT'); // not her turn
    t.ok({ type: 'encounter.spend', combatant: 'ada', kind: 'quick' }); // a quick action off-turn (readied)
  });

  it('one quick action per round: one used off-turn before your turn is not refunded when your turn starts (001 "PC Actions")', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    expect(t.enc.current).toBe('rat');
    t.ok({ type: 'encounter.spend', combatant: 'ada', kind: 'quick' }); // Ada's readied quick action fires on the rat's turn
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('ada');
    // Her quick is gone for round 1; a quick need on her turn trades down from movement, then active.
    const paid = () => economyOf(t.world, 'ada').spent;
    t.ok({ type: 'encounter.spend', combatant: 'ada', kind: 'quick' });
    expect(paid()).toMatchObject({ quick: 1, movement: 1 });
    t.ok({ type: 'encounter.spend', combatant: 'ada', kind: 'quick' });
    expect(paid()).toMatchObject({ quick: 1, movement: 1, active: 1 });
    expect(t.run({ type: 'encounter.spend', combatant: 'ada', kind: 'quick' })?.code).toBe('NO_ACTIONS_LEFT');
    playRoundUntil(t, 'rat'); // round 2: the quick action is back at once, the rest at her turn
    expect(t.enc.round).toBe(2);
    expect(economyOf(t.world, 'ada').spent['quick']).toBe(0);
    t.ok({ type: 'encounter.spend', combatant: 'ada', kind: 'quick' });
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('ada');
    expect(economyOf(t.world, 'ada').spent).toMatchObject({ active: 0, movement: 0, quick: 1 });
  });
});

/** A scripted Edge Save for these tests: the Score is the d10 face plus the modifier, best of 1+advantage dice. */
const testEdgeSave: EdgeSaveRoller = (rng: Rng, { modifier, advantage }) => {
  const faces = Array.from({ length: 1 + advantage }, () => rng.die(10));
  return { score: Math.max(...faces) + modifier, faces, modifier };
};

describe('edge-save groups (004 "Turn Order")', () => {
  const rules: EncounterRules = { sequencer: edgeSaveSequencer({ roll: testEdgeSave, ties: 'score' }), economy: BEATS_ECONOMY, conditions: [] };
  const npcs: Json[] = [
    { id: 'wolf1', kind: 'npc', stats: { creatureType: 'wolf', edgeSave: 1 } },
    { id: 'bandit1', kind: 'npc', stats: { creatureType: 'bandit', edgeSave: 3 } },
    { id: 'wolf2', kind: 'npc', stats: { creatureType: 'wolf', edgeSave: 2 } },
    { id: 'bandit2', kind: 'npc', stats: { creatureType: 'bandit', edgeSave: 0 } },
  ];
  const pcs: Json[] = [
    { id: 'alice', kind: 'pc', stats: { edgeSave: 1 } },
    { id: 'bram', kind: 'pc', stats: { edgeSave: 0, sneaky: true } },
    { id: 'cass', kind: 'pc', stats: { edgeSave: 2 } },
    { id: 'dov', kind: 'pc', stats: { edgeSave: 0 } },
  ];

  it('groups NPCs by creature type, members and groups by Edge Save modifier, highest first', () => {
    const t = new Table([encounterModule(rules)], fixedRng(Array.from({ length: 10 }, () => 10)));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    expect(groupByCreatureType(t.enc)).toEqual([['bandit1', 'bandit2'], ['wolf2', 'wolf1']]);
  });

  it('slots each PC after the first group it fails against (Score 6 or lower), first if it passes all; Sneaky rolls with advantage', () => {
    // Rolls in PC order, one per group until a failure:
    // alice: 9+1=10 pass, 4+1=5 fail  -> after group 2 (wolves)
    // bram (sneaky, 2 dice each): [3,5]->5 fail -> after group 1 (bandits)
    // cass: 2+2=4 fail -> after group 1, Score 4
    // dov: 8 pass, 7 pass -> first
    const t = new Table([encounterModule(rules)], fixedRng([9, 4, 3, 5, 2, 8, 7]));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    expect(t.enc.combatants['bram']?.placement).toMatchObject({ slot: 1, score: 5 });
    const rolls = (t.enc.combatants['bram']?.placement as { rolls: { detail: { faces: number[] } }[] }).rolls;
    expect(rolls[0]?.detail.faces).toEqual([3, 5]);
    // Ties in slot 1 by Edge Save Score: bram (5) before cass (4).
    expect(playRound(t)).toEqual(['dov', 'bandit1', 'bandit2', 'bram', 'cass', 'wolf2', 'wolf1', 'alice']);
    expect(playRound(t)).toEqual(['dov', 'bandit1', 'bandit2', 'bram', 'cass', 'wolf2', 'wolf1', 'alice']);
  });

  it('ties by choice: the PCs in one slot decide their order', () => {
    const choice: EncounterRules = { ...rules, sequencer: edgeSaveSequencer({ roll: testEdgeSave, ties: 'choice' }) };
    const t = new Table([encounterModule(choice)], fixedRng([9, 4, 3, 5, 2, 8, 7]));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    playRoundUntil(t, 'bandit2');
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.pending?.options).toEqual(['bram', 'cass']);
    t.ok({ type: 'encounter.choose', id: 'cass' });
    expect(t.enc.current).toBe('cass');
  });

  it('the GM merges or splits groups; 2-4 groups are required', () => {
    const t = new Table([encounterModule(rules)], fixedRng([1, 1, 1, 1, 1, 1, 1, 1]));
    expect(t.run({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { groups: [['wolf1', 'wolf2', 'bandit1', 'bandit2']] } })?.code).toBe('GROUP_COUNT');
    expect(t.run({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { groups: [['wolf1'], ['bandit1']] } })?.code).toBe('BAD_GROUPS');
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs], params: { groups: [['wolf1'], ['wolf2'], ['bandit1'], ['bandit2']] } });
    // Everyone fails the first save: all PCs after group 1, by Score then join order.
    expect(playRound(t)).toEqual(['wolf1', 'cass', 'alice', 'bram', 'dov', 'wolf2', 'bandit1', 'bandit2']);
  });

  it('players may roll their own Edge Saves: "Roll Edge Saves" is their decision before the first turn', () => {
    const own: EncounterRules = { ...rules, sequencer: edgeSaveSequencer({ roll: testEdgeSave, ties: 'score', playersRoll: true }) };
    const t = new Table([encounterModule(own)], fixedRng([8, 7, 2]));
    t.ok({ type: 'encounter.start', combatants: [...npcs, { id: 'roland', kind: 'pc', characterId: 'ch-roland', stats: { edgeSave: 0 } }, { id: 'ida', kind: 'pc', stats: { edgeSave: 0 } }] });
    expect(t.enc.current).toBeNull();
    expect(t.enc.pending).toMatchObject({ prompt: 'Roll Edge Saves', act: 'roll', options: ['roland', 'ida'] });
    const ann = { role: 'player', seatId: 's1' } as const;
    expect(t.run({ type: 'encounter.choose', id: 'ida' }, ann)?.code).toBe('FORBIDDEN');
    t.ok({ type: 'encounter.choose', id: 'roland' }, ann); // 8, 7: passes both
    expect(t.enc.combatants['roland']?.placement).toMatchObject({ slot: 0 });
    t.ok({ type: 'encounter.choose', id: 'ida' }); // the GM rolls for an absent player: 2 fails
    expect(t.enc.combatants['ida']?.placement).toMatchObject({ slot: 1 });
    expect(t.enc.current).toBe('roland');
  });

  it('a PC joining mid-encounter rolls its Edge Saves then', () => {
    const t = new Table([encounterModule(rules)], fixedRng([9, 4, 3, 5, 2, 8, 7, 9, 1]));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    t.ok({ type: 'encounter.add', combatant: { id: 'eve', kind: 'pc', stats: { edgeSave: 0 } } });
    expect(t.enc.combatants['eve']?.placement).toMatchObject({ slot: 2, score: 1 });
  });

  it('two Beats per round, spendable on reactions before your turn, reset at the end of your turn (004 "Using Abilities")', () => {
    const t = new Table([encounterModule(rules)], fixedRng([9, 4, 3, 5, 2, 8, 7]));
    t.ok({ type: 'encounter.start', combatants: [...npcs, ...pcs] });
    // Before alice's turn (she is last) she reacts twice.
    t.ok({ type: 'encounter.spend', combatant: 'alice', kind: 'reaction' });
    t.ok({ type: 'encounter.spend', combatant: 'alice', kind: 'reaction' });
    expect(t.run({ type: 'encounter.spend', combatant: 'alice', kind: 'reaction' })?.code).toBe('NO_ACTIONS_LEFT');
    playRoundUntil(t, 'alice');
    // Her turn arrives with no Beats; free actions still work.
    expect(t.run({ type: 'encounter.spend', combatant: 'alice', kind: 'ability' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.spend', combatant: 'alice', kind: 'free' });
    t.ok({ type: 'encounter.endTurn' });
    expect(economyOf(t.world, 'alice').spent['beats']).toBe(0);
    // dov keeps unspent Beats only until the end of his turn.
    expect(t.enc.current).toBe('dov');
    t.ok({ type: 'encounter.spend', combatant: 'dov', kind: 'ability' });
    t.ok({ type: 'encounter.endTurn' });
    expect(economyOf(t.world, 'dov').spent['beats']).toBe(0);
  });
});
