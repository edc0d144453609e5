// The Kleptonomicon through the real engine: Episode phases, abilities and
// Beats, Pause, Reward and experience, movement and Dash, Slowed, views.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedRng, scenario, seededRng, type Json, type Rng, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { ruleset } from '../../src/kleptonomicon/index.js';
import { getKlepto } from '../../src/kleptonomicon/state.js';
import { getEncounter } from '@tablekeeper/engine';

// Seats are numbered; character ids are random (ADR 10), so each table's dice count
// their id draws from 1 (countingIds): Alice and Bob get the same ids at every table.
const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const BO: Viewer = { role: 'player', seatId: 'seat-2' };
const ALICE = 'ch-baaaaacaaaaa';
const BOB = 'ch-daaaaaeaaaaa';

const abilities: Json = [
  { id: 'strike', name: 'Strike', time: 'beat' },
  { id: 'quip', name: 'Quip', time: 'free' },
  { id: 'parry', name: 'Parry', time: 'beatReaction' },
  { id: 'charm', name: 'Lucky Charm', time: 'episodic' },
  { id: 'ritual', name: 'Ritual', time: 'long', seconds: 600 },
  { id: 'healUp', name: 'Heal Up', time: 'beat', recovery: 'healUp' },
];

/** A table with two PCs (Ann plays Alice, Bo plays Bob) and the GM. */
function table(rng: Rng = seededRng(7), settings: { [k: string]: Json } = {}): Scenario {
  const s = scenario(ruleset.modules, { rng: countingIds(rng), rulesetId: 'kleptonomicon', settings });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'seat.add', name: 'Bo' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: { abilities, athletics: 2 } });
  s.run({ type: 'character.add', name: 'Bob', kind: 'pc', seatId: 'seat-2', stats: { abilities, movementStyles: [{ style: 'walk', variant: 'normal' }, { style: 'jump', variant: 'half' }] } });
  expect(s.world.seats['seat-1']?.characterIds).toEqual([ALICE]);
  return s;
}

const NPCS: Json[] = [
  { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1, abilities } },
  { id: 'hound1', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound', edgeSave: 0, abilities } },
];
const PCS: Json[] = [
  { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: ALICE, stats: { edgeSave: 0 } },
  { id: 'c-bob', name: 'Bob', kind: 'pc', characterId: BOB, stats: { edgeSave: 0 } },
];

/** Into Freeplay of Episode 1. */
function toFreeplay(s: Scenario): void {
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
}

/**
 * Edge Saves with fixed dice: Alice 9, 9 (passes both: first), Bob 3 (fails
 * against the guards: after them). Order: Alice, Guard, Bob, Hound.
 */
function encounter(): Scenario {
  const s = table(fixedRng([9, 9, 3, ...Array.from({ length: 40 }, () => 5)]));
  toFreeplay(s);
  s.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
  return s;
}

describe('004 Episodes: Opening Credits, Freeplay, Closing Credits', () => {
  it('an Episode opens with introductions and clips, an optional cold open, and Episodic abilities only', () => {
    const s = table();
    expect(s.fail({ type: 'kleptonomicon.introduce', characterId: ALICE }).code).toBe('WRONG_PHASE');
    s.run({ type: 'kleptonomicon.startEpisode' });
    expect(getKlepto(s.world)).toMatchObject({ episode: 1, phase: 'opening' });
    s.run({ type: 'kleptonomicon.introduce', characterId: ALICE, clip: 'opens a jar with a knife' }, ANN);
    expect(s.fail({ type: 'kleptonomicon.introduce', characterId: BOB }, ANN).code).toBe('FORBIDDEN');
    s.run({ type: 'kleptonomicon.coldOpen', text: 'A monarch raises taxes.' });
    expect(s.fail({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'strike' }, ANN).code).toBe('OPENING_CREDITS');
    s.run({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'charm' }, ANN);
    const st = getKlepto(s.world);
    expect(st.opening).toEqual({ introduced: [ALICE], clips: { [ALICE]: 'opens a jar with a knife' }, coldOpen: 'A monarch raises taxes.' });
    expect(st.episodic).toEqual({ [ALICE]: ['Lucky Charm'] });
    expect(s.world.log.map((e) => e.kind)).toContain('kleptonomicon.introduced');
  });

  it('Freeplay ignores ability times unless minutes or longer, which move the clock', () => {
    const s = table();
    toFreeplay(s);
    const before = s.world.clock.seconds;
    s.run({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'strike' }, ANN);
    expect(s.world.clock.seconds).toBe(before);
    s.run({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'ritual' }, ANN);
    expect(s.world.clock.seconds).toBe(before + 600);
  });

  it('a loose turn order in Freeplay passes the spotlight around', () => {
    const s = table();
    toFreeplay(s);
    expect(s.fail({ type: 'kleptonomicon.passSpotlight' }).code).toBe('NO_LOOSE_ORDER');
    s.run({ type: 'kleptonomicon.looseOrder', order: [BOB, ALICE] });
    s.run({ type: 'kleptonomicon.passSpotlight' });
    expect(getKlepto(s.world).looseOrder?.[getKlepto(s.world).spotlight]).toBe(ALICE);
    s.run({ type: 'kleptonomicon.passSpotlight' });
    expect(getKlepto(s.world).spotlight).toBe(0);
    expect(s.fail({ type: 'kleptonomicon.looseOrder', order: ['nobody'] }).code).toBe('NOT_FOUND');
  });

  it('improvised actions: the GM rules them simple, a Test, or impossible (no Test)', () => {
    const s = table(fixedRng([7]));
    toFreeplay(s);
    s.run({ type: 'kleptonomicon.improvise', characterId: ALICE, description: 'kick the barred door' }, ANN);
    s.run({ type: 'kleptonomicon.improvise', characterId: BOB, description: 'heart surgery in a swamp with a stick' }, BO);
    const [door, surgery] = Object.keys(getKlepto(s.world).improvised);
    expect(s.fail({ type: 'kleptonomicon.rule', requestId: door, ruling: 'test' }, ANN).code).toBe('FORBIDDEN');
    s.run({ type: 'kleptonomicon.rule', requestId: door, ruling: 'test', modifier: 1 });
    s.run({ type: 'kleptonomicon.rule', requestId: surgery, ruling: 'impossible' });
    expect(s.fail({ type: 'kleptonomicon.rule', requestId: surgery, ruling: 'simple' }).code).toBe('ALREADY_RULED');
    const ruled = s.table.transactions.flatMap((t) => (t.kind === 'command' ? t.events : [])).filter((e) => e.type === 'kleptonomicon.improvisationRuled');
    expect(ruled[0]).toMatchObject({ ruling: 'test', roll: { score: 8 } });
    expect(ruled[1]).toMatchObject({ ruling: 'impossible', roll: null });
  });

  it('Closing Credits: resolution scenes, then resets (full, or halved by the GM); Episodic effects expire', () => {
    const s = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'charm' }, ANN);
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'kleptonomicon.setResource', characterId: ALICE, key: 'health', value: 3, max: 10 });
    s.run({ type: 'kleptonomicon.setResource', characterId: BOB, key: 'shield', value: 0, max: 5 });
    expect(s.fail({ type: 'kleptonomicon.endEpisode' }).code).toBe('WRONG_PHASE');
    s.run({ type: 'kleptonomicon.closingCredits' });
    s.run({ type: 'kleptonomicon.resolutionScene', characterId: ALICE, text: 'Alice talks over the day with a sandwich maker.' }, ANN);
    s.run({ type: 'kleptonomicon.endEpisode', halve: true });
    const st = getKlepto(s.world);
    // Half of what was lost, rounded down: health 3 + floor(7/2) = 6, shield 0 + floor(5/2) = 2.
    expect(st.resources[ALICE]?.['health']).toEqual({ value: 6, max: 10 });
    expect(st.resources[BOB]?.['shield']).toEqual({ value: 2, max: 5 });
    expect(st.episodic).toEqual({});
    expect(st.phase).toBe('between');
    s.undo();
    s.run({ type: 'kleptonomicon.endEpisode' });
    expect(getKlepto(s.world).resources[ALICE]?.['health']).toEqual({ value: 10, max: 10 });
    s.run({ type: 'kleptonomicon.startEpisode' });
    expect(getKlepto(s.world).episode).toBe(2);
  });
});

describe('004 Encounter: Initiative, Main, Beats, Pause, Reward', () => {
  it('starting an Encounter enters its Initiative phase; the first turn starts the Main phase', () => {
    const s = encounter();
    expect(getKlepto(s.world)).toMatchObject({ phase: 'encounter', encounterPhase: 'main' });
    expect(getEncounter(s.world).current).toBe('c-alice');
  });

  it('Beat abilities cost a Beat; two per round; free abilities cost none; only reactions off-turn', () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN);
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'quip' }, ANN);
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN);
    expect(s.fail({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, ANN).code).toBe('NO_BEATS');
    expect(s.fail({ type: 'kleptonomicon.useAbility', combatantId: 'c-bob', abilityId: 'strike' }, BO).code).toBe('NOT_YOUR_TURN');
    expect(s.fail({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' }, BO).code).toBe('FORBIDDEN');
  });

  it('Beats spent on reactions before your turn are gone on your turn; they reset at its end', () => {
    const s = encounter();
    // Bob acts third; he parries twice during Alice's and the Guard's turns.
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-bob', abilityId: 'parry' }, BO);
    s.run({ type: 'encounter.endTurn' });
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-bob', abilityId: 'parry' }, BO);
    s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).current).toBe('c-bob');
    expect(s.fail({ type: 'kleptonomicon.useAbility', combatantId: 'c-bob', abilityId: 'strike' }, BO).code).toBe('NO_BEATS');
    // Movement and free actions still work.
    s.run({ type: 'kleptonomicon.move', combatantId: 'c-bob', style: 'walk', units: 2 }, BO);
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-bob', abilityId: 'quip' }, BO);
    s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).economy['c-bob']?.spent['beats']).toBe(0);
  });

  it('the Pause works like Freeplay; ending it with a Beat costs that Beat on the next turn', () => {
    const s = encounter();
    expect(s.fail({ type: 'kleptonomicon.resume' }).code).toBe('WRONG_PHASE');
    s.run({ type: 'kleptonomicon.pause' });
    s.run({ type: 'kleptonomicon.useAbility', characterId: BOB, abilityId: 'strike' }, BO);
    expect(getEncounter(s.world).economy['c-bob']?.spent['beats'] ?? 0).toBe(0);
    s.run({ type: 'kleptonomicon.resume', endedWithBeatBy: 'c-bob' });
    expect(getKlepto(s.world).encounterPhase).toBe('main');
    expect(getEncounter(s.world).economy['c-bob']?.spent['beats']).toBe(1);
  });

  it('Reward: one Experience Point per Encounter, a second for secondary goals; recovery abilities only', () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.setResource', characterId: ALICE, key: 'health', value: 2, max: 8 });
    s.run({ type: 'kleptonomicon.setResource', characterId: ALICE, key: 'vitality', value: 1, max: 4 });
    expect(s.fail({ type: 'kleptonomicon.awardSecondaryXp', characterIds: [ALICE] }).code).toBe('WRONG_PHASE');
    s.run({ type: 'encounter.end' });
    expect(getKlepto(s.world)).toMatchObject({ encounterPhase: 'reward', xp: { [ALICE]: 1, [BOB]: 1 } });
    s.run({ type: 'kleptonomicon.awardSecondaryXp', characterIds: [ALICE] });
    expect(s.fail({ type: 'kleptonomicon.awardSecondaryXp', characterIds: [ALICE] }).code).toBe('ALREADY_AWARDED');
    expect(getKlepto(s.world).xp).toEqual({ [ALICE]: 2, [BOB]: 1 });
    expect(s.fail({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'strike' }, ANN).code).toBe('REWARD_PHASE');
    s.run({ type: 'kleptonomicon.useAbility', characterId: ALICE, abilityId: 'healUp' }, ANN);
    expect(getKlepto(s.world).resources[ALICE]).toEqual({ health: { value: 8, max: 8 }, vitality: { value: 4, max: 4 } });
    s.run({ type: 'kleptonomicon.freeplay' });
    expect(getKlepto(s.world)).toMatchObject({ phase: 'freeplay', encounterPhase: null });
  });

  it('level up when the table counts enough experience; otherwise the GM approves', () => {
    const counted = table(seededRng(1), { 'kleptonomicon.xpPerLevel': 2 });
    counted.run({ type: 'kleptonomicon.awardXp', characterId: ALICE, amount: 1 });
    expect(counted.fail({ type: 'kleptonomicon.levelUp', characterId: ALICE }, ANN).code).toBe('NOT_ENOUGH_XP');
    counted.run({ type: 'kleptonomicon.awardXp', characterId: ALICE, amount: 1 });
    counted.run({ type: 'kleptonomicon.levelUp', characterId: ALICE }, ANN);
    expect(getKlepto(counted.world)).toMatchObject({ levels: { [ALICE]: 2 }, xp: { [ALICE]: 0 } });
    const gm = table();
    expect(gm.fail({ type: 'kleptonomicon.levelUp', characterId: ALICE }, ANN).code).toBe('GM_DECIDES');
    gm.run({ type: 'kleptonomicon.levelUp', characterId: ALICE, gmApproves: true });
    expect(getKlepto(gm.world).levels[ALICE]).toBe(2);
  });

  it('at least two improvised free actions a turn; more only if the GM allows', () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.freeAction', combatantId: 'c-alice', description: 'talks smack' }, ANN);
    s.run({ type: 'kleptonomicon.freeAction', combatantId: 'c-alice', description: 'opens a door' }, ANN);
    expect(s.fail({ type: 'kleptonomicon.freeAction', combatantId: 'c-alice', description: 'tips a vase', gmAllows: true }, ANN).code).toBe('FREE_ACTIONS_USED');
    s.run({ type: 'kleptonomicon.freeAction', combatantId: 'c-alice', description: 'tips a vase', gmAllows: true });
  });
});

describe('004 Movement in an Encounter', () => {
  it('Bob: Dash doubles his Half Jump, four 1u jumps over the mines', () => {
    const s = encounter();
    s.run({ type: 'encounter.endTurn' });
    s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).current).toBe('c-bob');
    expect(s.fail({ type: 'kleptonomicon.move', combatantId: 'c-bob', style: 'jump', units: 3 }, BO).code).toBe('STYLE_EXHAUSTED');
    s.run({ type: 'kleptonomicon.dash', combatantId: 'c-bob' }, BO);
    for (let i = 0; i < 4; i++) s.run({ type: 'kleptonomicon.move', combatantId: 'c-bob', style: 'jump', units: 1 }, BO);
    expect(getKlepto(s.world).movement['c-bob']).toMatchObject({ multiplier: 2, used: { jump: 4 }, spent: 4 });
    expect(s.fail({ type: 'kleptonomicon.move', combatantId: 'c-bob', style: 'jump', units: 1 }, BO).code).toBe('STYLE_EXHAUSTED');
  });

  it('a second Dash rolls Athletics: pass (Score above 6) triples, fail leaves you Slowed; no third', () => {
    // Alice (athletics +2) goes first. Edge saves use 9, 9, 3; her Athletics die is the next face.
    const pass = table(fixedRng([9, 9, 3, 5]));
    toFreeplay(pass);
    pass.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
    pass.run({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN);
    pass.run({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN); // 5 + 2 = 7: pass
    expect(getKlepto(pass.world).movement['c-alice']?.multiplier).toBe(3);
    expect(pass.fail({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN).code).toBe('DASH_LIMIT');
    // Both Dashes spent a Beat (the default setting).
    expect(getEncounter(pass.world).economy['c-alice']?.spent['beats']).toBe(2);

    const fail = table(fixedRng([9, 9, 3, 4]), { 'kleptonomicon.dashCostsBeat': false });
    toFreeplay(fail);
    fail.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
    fail.run({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN);
    fail.run({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN); // 4 + 2 = 6: fail
    expect(getKlepto(fail.world).movement['c-alice']?.multiplier).toBe(2);
    const slowed = Object.values(getEncounter(fail.world).conditions).find((c) => c.target === 'c-alice');
    expect(slowed).toMatchObject({ defId: 'slowed', stacks: 1 });
    expect(fail.fail({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN).code).toBe('DASH_LIMIT');
  });

  it('Prone: drop for free while walking, walk at half, stand for 1u', () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.dropProne', combatantId: 'c-alice' }, ANN);
    s.run({ type: 'kleptonomicon.move', combatantId: 'c-alice', style: 'walk', units: 1 }, ANN);
    s.run({ type: 'kleptonomicon.stand', combatantId: 'c-alice' }, ANN);
    expect(getKlepto(s.world).movement['c-alice']).toMatchObject({ spent: 3, prone: false });
    expect(s.fail({ type: 'kleptonomicon.move', combatantId: 'c-alice', style: 'walk', units: 2 }, ANN).code).toBe('STYLE_EXHAUSTED');
  });

  it('Prone lasts across turns', () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.dropProne', combatantId: 'c-alice' }, ANN);
    for (let i = 0; i < 4; i++) s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).current).toBe('c-alice');
    expect(getKlepto(s.world).movement['c-alice']?.prone).toBe(true);
  });

  it('leaving Swinging Distance opens Opportunity Attacks for enemies with a Beat left', () => {
    const s = encounter();
    const tx = s.run({ type: 'kleptonomicon.move', combatantId: 'c-alice', style: 'walk', units: 2, leaving: ['guard1'] }, ANN);
    expect(tx.kind === 'command' && tx.events[0]).toMatchObject({ type: 'kleptonomicon.moved', opportunityAttackers: ['guard1'], distance: 'Spearing Distance' });
  });

  it('two stacks of Slowed interrupt the active style (Climb falls); Slowed is fleeting', () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.grantStyle', combatantId: 'c-alice', style: 'climb' });
    s.run({ type: 'kleptonomicon.move', combatantId: 'c-alice', style: 'climb', units: 2 }, ANN);
    s.run({ type: 'condition.apply', target: 'c-alice', condition: 'slowed', duration: { kind: 'indefinite' } });
    const tx = s.run({ type: 'condition.apply', target: 'c-alice', condition: 'slowed', duration: { kind: 'indefinite' } });
    const ev = tx.kind === 'command' ? tx.events.find((e) => e.type === 'kleptonomicon.movementInterrupted') : undefined;
    expect(ev).toMatchObject({ combatant: 'c-alice', style: 'climb', effect: 'fall' });
    expect(getKlepto(s.world).movement['c-alice']?.interrupted).toEqual(['climb']);
    // Gained this turn: no stack lost at its end; one lost at the end of her next turn.
    s.run({ type: 'encounter.endTurn' });
    const stacks = () => Object.values(getEncounter(s.world).conditions).find((c) => c.target === 'c-alice')?.stacks ?? 0;
    expect(stacks()).toBe(2);
    for (let i = 0; i < 3; i++) s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).current).toBe('c-alice');
    s.run({ type: 'encounter.endTurn' });
    expect(stacks()).toBe(1);
  });

  it('an improvised maneuver is a Basic Attack at one more Disadvantage that adds Slowed on a hit', () => {
    // Edge saves 9, 9, 3; then two dice (disadvantage): 8 and 6, the lower (6) counts: 6 + 1 = 7 vs defence 7 hits.
    const s = table(fixedRng([9, 9, 3, 8, 6]));
    toFreeplay(s);
    s.run({ type: 'encounter.start', combatants: [...NPCS, ...PCS] });
    const tx = s.run({ type: 'kleptonomicon.improvisedManeuver', attacker: 'c-alice', target: 'guard1', modifier: 1, defence: 7 }, ANN);
    expect(tx.kind === 'command' && tx.events.find((e) => e.type === 'kleptonomicon.maneuverRolled')).toMatchObject({ hit: true, roll: { score: 7 } });
    expect(Object.values(getEncounter(s.world).conditions)).toMatchObject([{ target: 'guard1', defId: 'slowed' }]);
  });
});

describe('004 "Movement Reactions": the Opportunity Attack reached from the screen', () => {
  type Action = { id: string; command: string; fixed: { [k: string]: Json }; target: { field: string; multiple: boolean; label?: string; picked?: string[]; options: { value: string; label: string }[] } | null; allowed: boolean; reason: string | null; cost: string };
  type Prompts = { prompts: { id: string; kind: string; text: string; actions: Action[] }[] };
  const GM: Viewer = { role: 'gm' };
  const ask = <T>(s: Scenario, viewer: Viewer, name: string, args: { [k: string]: Json }): T => {
    const r = s.engine.query(s.table, viewer, name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.value as unknown as T;
  };
  const move = (s: Scenario): Action => ask<{ actions: Action[] }>(s, ANN, 'kleptonomicon.actions', { combatantId: 'c-alice' }).actions.find((a) => a.id === 'move')!;

  it("Alice's Move asks whose reach she leaves (the foes, nobody by default); leaving the Guard opens its Opportunity Attack, taken with a Beat, once", () => {
    const s = encounter();
    const m = move(s);
    expect(m.target).toMatchObject({ field: 'leaving', multiple: true, label: 'Leaving the reach of', picked: [''] });
    expect(m.target!.options.map((o) => [o.value, o.label])).toEqual([['', 'nobody'], ['guard1', 'Guard'], ['hound1', 'Hound']]);
    s.run({ type: m.command, ...m.fixed, style: 'walk', units: 2, leaving: ['guard1'] } as never, ANN);
    expect(getKlepto(s.world).opportunities).toEqual({ guard1: 'c-alice' });
    // Both are in view: Ann's view holds the opening too.
    expect(getKlepto(s.view(ANN).world).opportunities).toEqual({ guard1: 'c-alice' });
    const prompts = ask<Prompts>(s, GM, 'kleptonomicon.reactions', { characterId: 'guard1' }).prompts;
    expect(prompts.map((p) => [p.kind, p.text])).toEqual([['opportunity', "Alice left Guard's Swinging Distance: Guard may make an Opportunity Attack until Alice's turn ends."]]);
    const take = prompts[0]!.actions[0]!;
    expect(take).toMatchObject({ id: 'opportunity', command: 'kleptonomicon.attack', fixed: { attackerId: 'guard1', opportunity: true }, cost: '1 Beat (a reaction)', allowed: true });
    expect(take.target!.options.map((o) => o.value)).toEqual(['c-alice']);
    // The Hound was not left: nothing to answer. A player may not ask for the Guard's answers.
    expect(ask<Prompts>(s, GM, 'kleptonomicon.reactions', { characterId: 'hound1' }).prompts).toEqual([]);
    expect(s.engine.query(s.table, ANN, 'kleptonomicon.reactions', { characterId: 'guard1' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const tx = s.run({ type: 'kleptonomicon.attack', ...take.fixed, targetId: 'c-alice', modifier: 0, defense: 5 } as never);
    expect(tx.kind === 'command' && tx.events.map((e) => e.type)).toEqual(expect.arrayContaining(['economy.spent', 'kleptonomicon.attackRolled']));
    expect(getEncounter(s.world).economy['guard1']?.spent['beats']).toBe(1);
    expect(getKlepto(s.world).opportunities).toBeUndefined();
    expect(ask<Prompts>(s, GM, 'kleptonomicon.reactions', { characterId: 'guard1' }).prompts).toEqual([]);
    expect(s.fail({ type: 'kleptonomicon.attack', attackerId: 'guard1', targetId: 'c-alice', opportunity: true, defense: 5 } as never).code).toBe('NO_OPPORTUNITY');
  });

  it("an Opportunity Attack not taken lapses when the mover's turn ends; none is opened by a Move that leaves nobody", () => {
    const s = encounter();
    s.run({ type: 'kleptonomicon.move', characterId: 'c-alice', style: 'walk', units: 1 } as never, ANN);
    expect(getKlepto(s.world).opportunities).toBeUndefined();
    s.run({ type: 'kleptonomicon.move', characterId: 'c-alice', style: 'walk', units: 1, leaving: ['guard1', 'hound1'] } as never, ANN);
    expect(getKlepto(s.world).opportunities).toEqual({ guard1: 'c-alice', hound1: 'c-alice' });
    s.run({ type: 'encounter.endTurn' });
    expect(getKlepto(s.world).opportunities).toBeUndefined();
    expect(s.fail({ type: 'kleptonomicon.attack', attackerId: 'hound1', targetId: 'c-alice', opportunity: true, defense: 5 } as never).code).toBe('NO_OPPORTUNITY');
  });
});

describe('Kleptonomicon: history and secrets', () => {
  it('undo of a Dash restores movement and Beats; replay equals the live table', () => {
    const s = encounter();
    const before = JSON.stringify(s.world);
    s.run({ type: 'kleptonomicon.dash', combatantId: 'c-alice' }, ANN);
    s.undo();
    expect(JSON.stringify(s.world)).toBe(before);
    s.redo();
    expect(s.engine.replay(s.table.genesis, s.table.transactions).world).toEqual(s.world);
  });

  it("a hidden NPC's movement, Dashes and name never reach a player's view", () => {
    const s = table(fixedRng([9, 9, 3, 9, 9, 9, 9, 9, 9, 9]));
    toFreeplay(s);
    s.run({ type: 'encounter.start', combatants: [...PCS, { id: 'lurker', name: 'CANARY-LURKER', kind: 'npc', visibility: 'hidden', stats: { creatureType: 'shade', edgeSave: 0 } }, ...NPCS] });
    while (getEncounter(s.world).current !== 'lurker') s.run({ type: 'encounter.endTurn' });
    s.run({ type: 'kleptonomicon.move', combatantId: 'lurker', style: 'walk', units: 3 });
    s.run({ type: 'kleptonomicon.dash', combatantId: 'lurker' });
    for (const v of [ANN, { role: 'spectator' } as const]) {
      const text = JSON.stringify(s.view(v));
      expect(text).not.toContain('CANARY-LURKER');
      expect(text).not.toContain('lurker');
    }
    expect(JSON.stringify(s.view({ role: 'gm' }))).toContain('CANARY-LURKER');
  });

  it('property: random Kleptonomicon commands never crash, and replay always equals the live table', () => {
    const cmd = fc.oneof(
      fc.constant({ type: 'kleptonomicon.startEpisode' }),
      fc.constant({ type: 'kleptonomicon.freeplay' }),
      fc.constant({ type: 'kleptonomicon.pause' }),
      fc.constant({ type: 'kleptonomicon.resume' }),
      fc.constant({ type: 'kleptonomicon.closingCredits' }),
      fc.constant({ type: 'kleptonomicon.endEpisode' }),
      fc.constant({ type: 'encounter.start', combatants: [...NPCS, ...PCS] }),
      fc.constant({ type: 'encounter.endTurn' }),
      fc.constant({ type: 'encounter.end' }),
      fc.record({ type: fc.constant('kleptonomicon.move'), combatantId: fc.constantFrom('c-alice', 'c-bob', 'guard1'), style: fc.constantFrom('walk', 'jump'), units: fc.integer({ min: -1, max: 5 }) }),
      fc.record({ type: fc.constant('kleptonomicon.dash'), combatantId: fc.constantFrom('c-alice', 'c-bob', 'guard1') }),
      fc.record({ type: fc.constant('kleptonomicon.useAbility'), combatantId: fc.constantFrom('c-alice', 'c-bob'), abilityId: fc.constantFrom('strike', 'quip', 'parry', 'charm', 'nope') }),
      fc.record({ type: fc.constant('kleptonomicon.useAbility'), characterId: fc.constantFrom(ALICE, BOB), abilityId: fc.constantFrom('strike', 'ritual', 'charm', 'healUp') }),
      fc.record({ type: fc.constant('condition.apply'), target: fc.constantFrom('c-alice', 'c-bob'), condition: fc.constant('slowed'), duration: fc.constant({ kind: 'indefinite' }) }),
      fc.constant({ type: 'history.undo' }),
      fc.record({ type: fc.constant('kleptonomicon.test'), characterId: fc.constantFrom(ALICE, BOB, 'zed'), modifier: fc.integer({ min: -60, max: 60 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.array(cmd, { maxLength: 25 }), (seed, cmds) => {
        const s = table(seededRng(seed));
        for (const c of cmds) {
          const r = s.engine.execute(s.table, c as never, { rng: s.rng, actor: { role: 'gm' } });
          if (r.ok) s.table = r.value.table;
          else expect(typeof r.error.code).toBe('string');
        }
        expect(s.engine.replay(s.table.genesis, s.table.transactions).world).toEqual(s.world);
        expect(['between', 'opening', 'freeplay', 'encounter', 'closing']).toContain(getKlepto(s.world).phase);
        for (const tm of Object.values(getKlepto(s.world).movement)) expect(tm.spent).toBeLessThanOrEqual(24);
      }),
      { numRuns: 60 },
    );
  });
});
