// The Kleptonomicon's attacks (ADR 51) through the real engine: the Basic
// Attack, the improvised maneuver (004 "Interrupting Movement": one more
// Disadvantage, adds Slowed) and a sheet ability that attacks. Odds are
// recomputed by hand on the d10ish die of the rules README: 0 and 10 each
// 1/20, every face 1-9 2/20.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedRng, foesModule, getEncounter, kleptoTestDistribution, scenario, seededRng, sheetModule, type EngineEvent, type Json, type Rng, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { kleptoSheetModel, ruleset } from '../../src/kleptonomicon/index.js';
import { averageDamage, parseDamage } from '../../src/kleptonomicon/attack.js';
import { getKlepto } from '../../src/kleptonomicon/state.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const GM: Viewer = { role: 'gm' };
const ALICE = 'ch-baaaaacaaaaa';
const BOB = 'ch-daaaaaeaaaaa';

/** Alice (Ann's) and Bob (the GM's PC, Defense 5 on his sheet), and a Guard with Defense 7 and 12 HP on its stat block. */
function fight(dice: readonly number[], guard: { [k: string]: Json } = { defense: 7, hp: 12 }): Scenario {
  // One foe group, one Edge Save each: Alice 9 passes (first), Bob 3 fails (after the Guard); then the dice the test gives.
  const rng: Rng = fixedRng([9, 3, ...(dice.length === 0 ? Array.from({ length: 40 }, () => 5) : dice)]);
  const s = scenario([...ruleset.modules, sheetModule(kleptoSheetModel), foesModule], { rng: countingIds(rng), rulesetId: 'kleptonomicon' });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: { edgeSave: 0, attackModifier: 1, attackDamage: '1d6+1', hp: 20 } });
  s.run({ type: 'character.add', name: 'Bob', kind: 'pc', stats: { edgeSave: 0, defense: 5, hp: 20 } });
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, ...guard } },
      { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: ALICE },
      { id: 'c-bob', name: 'Bob', kind: 'pc', characterId: BOB },
    ],
  });
  expect(getEncounter(s.world).current).toBe('c-alice');
  return s;
}

const eventsOf = (tx: ReturnType<Scenario['run']>): EngineEvent[] => (tx.kind === 'command' ? [...tx.events] : []);
const odds = (s: Scenario, viewer: Viewer, args: { [k: string]: Json }) => s.engine.query(s.table, viewer, 'kleptonomicon.attackOdds', { attackerId: 'c-alice', ...args });
const beatsSpent = (s: Scenario, id: string) => getEncounter(s.world).economy[id]?.spent['beats'] ?? 0;

describe('Kleptonomicon Basic Attack (ADR 51)', () => {
  it("hits when the Score reaches the target's Defense and rolls the sheet's damage: die 6 + 1 = 7 vs Defense 7, 1d6+1 [4] = 5, the Guard 12 -> 7 HP, one Beat", () => {
    const s = fight([6, 4]);
    const ev = eventsOf(s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN));
    expect(ev.find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ name: 'Basic Attack', hit: true, defense: 7, roll: { score: 7 }, damageDice: '1d6+1', damageRolls: [4], damage: 5, maneuver: false });
    expect(ev.find((e) => e.type === 'encounter.hpChanged')).toMatchObject({ id: 'guard', from: 12, to: 7, amount: 5 });
    expect(getEncounter(s.world).combatants['guard']?.stats['hp']).toBe(7);
    expect(beatsSpent(s, 'c-alice')).toBe(1);
    expect(s.world.log.map((l) => l.text)).toContain("Alice's Basic Attack on Guard: d10 6 +1 = Score 7 vs Defense 7 (hit, 1d6+1 [4] = 5 damage): HP 12 → 7.");
  });

  it('misses one below the Defense (die 5 + 1 = 6 vs 7): no damage die is rolled, the Beat is spent', () => {
    const s = fight([5]);
    const ev = eventsOf(s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN));
    expect(ev.find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ hit: false, damageRolls: [], damage: 0 });
    expect(ev.some((e) => e.type === 'encounter.hpChanged')).toBe(false);
    expect(beatsSpent(s, 'c-alice')).toBe(1);
  });

  it("a player's typed Defense never replaces a foe's: the record counts, and a foe without one leaves the hit to the GM; the GM's typed one wins", () => {
    const s = fight([6, 4, 6, 6]);
    expect(eventsOf(s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', defense: 0 }, ANN)).find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ defense: 7, hit: true });
    // The GM types 9: 6 + 1 = 7 misses.
    expect(eventsOf(s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', defense: 9 }, GM)).find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ defense: 9, hit: false });
    const bare = fight([6], { hp: 12 });
    const ev = eventsOf(bare.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', defense: 1 }, ANN));
    expect(ev.find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ defense: null, hit: null, damage: 0 });
    expect(bare.world.log.at(-1)?.text).toBe("Alice's Basic Attack on Guard: d10 6 +1 = Score 7 (no Defense on record: the GM judges the hit).");
  });

  it('is refused off turn, past two Beats and outside the Main phase, in words', () => {
    const s = fight([]);
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-bob', targetId: 'guard' }, { rng: seededRng(1), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN', message: 'Bob makes a Basic Attack on their own turn' } });
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN);
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN);
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, { rng: seededRng(1), actor: ANN })).toMatchObject({ ok: false, error: { code: 'NO_BEATS', message: 'Alice has no Beat left this round' } });
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'c-alice' }, { rng: seededRng(1), actor: ANN })).toMatchObject({ ok: false, error: { path: 'targetId' } });
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', damage: '100d6' }, { rng: seededRng(1), actor: ANN })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', message: 'damage: 1 to 20 dice' } });
    s.run({ type: 'kleptonomicon.pause' });
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, { rng: seededRng(1), actor: GM })).toMatchObject({ ok: false, error: { code: 'WRONG_PHASE' } });
  });

  it('the improvised maneuver rolls two dice and keeps the lower (8, 6: 6 + 1 = 7 vs 7), deals the damage and adds one fleeting Slowed', () => {
    const s = fight([8, 6, 2]);
    const ev = eventsOf(s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', maneuver: true }, ANN));
    expect(ev.find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ name: 'improvised maneuver', maneuver: true, hit: true, roll: { score: 7, advantage: -1 }, damage: 3 });
    expect(Object.values(getEncounter(s.world).conditions)).toMatchObject([{ target: 'guard', defId: 'slowed', stacks: 1 }]);
    expect(s.world.log.map((l) => l.text)).toContain("Alice's improvised maneuver on Guard: d10 6 (of 8, 6: the lowest counts) +1 = Score 7 vs Defense 7 (hit, 1d6+1 [2] = 3 damage, Slowed): HP 12 → 9.");
  });
});

describe('kleptonomicon.attackOdds', () => {
  it('+1 against Defense 7 needs a die of 6-9 (8/20) or a critical 10 (1/20): 9/20; the maneuver keeps the lower of two: (9/20)^2; 1d6+1 averages 4.5', () => {
    const s = fight([]);
    expect(odds(s, GM, { targetId: 'guard' })).toMatchObject({ ok: true, value: { pass: expect.closeTo(9 / 20, 12) as unknown as number, defense: 7, failAtOrBelow: 6, damage: '1d6+1', averageDamage: 4.5 } });
    expect(odds(s, GM, { targetId: 'guard', maneuver: true })).toMatchObject({ ok: true, value: { pass: expect.closeTo(81 / 400, 12) as unknown as number } });
    // The GM's typed Defense 9 with one Advantage: a die of 8, 9 (4/20) or 10 (1/20) with +1, so 1 - P(both dice miss) = 1 - (15/20)^2.
    expect(odds(s, GM, { targetId: 'guard', defense: 9, advantage: 1 })).toMatchObject({ ok: true, value: { pass: expect.closeTo(1 - (15 / 20) ** 2, 12) as unknown as number } });
  });

  it("a phone gets no odds against a foe (its Defense is the GM's) but gets them against Bob's sheet Defense 5: a die of 4-9 or 10, 13/20", () => {
    const s = fight([]);
    expect(odds(s, ANN, { targetId: 'guard' })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', message: expect.stringContaining("the GM keeps Guard's Defense secret") as unknown as string } });
    expect(odds(s, ANN, { targetId: 'c-bob' })).toMatchObject({ ok: true, value: { pass: expect.closeTo(13 / 20, 12) as unknown as number, defense: 5, damage: '1d6+1', averageDamage: 4.5 } });
    // The damage is the sheet's on a phone (ADR 56): the sheet's own dice pass, other dice are refused in words.
    expect(odds(s, ANN, { targetId: 'c-bob', damage: '1D6 + 1' })).toMatchObject({ ok: true });
    expect(odds(s, ANN, { targetId: 'c-bob', damage: '2' })).toMatchObject({ ok: false, error: { path: 'damage', message: "the damage on a hit comes from Alice's sheet (1d6+1): only the GM may roll other dice" } });
  });

  it("a phone gets the exact odds against a stat-block foe once the GM shows defences or every number (review 9): +1 vs Defense 7 is 9/20, as the GM's", () => {
    const s = fight([]);
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(odds(s, ANN, { targetId: 'guard' })).toMatchObject({ ok: true, value: { pass: expect.closeTo(9 / 20, 12) as unknown as number, defense: 7 } });
    // Defences show the Defense, not the Guard's hit points or Edge Save.
    expect(s.engine.view(s.table, ANN).world.ext['encounter']).toMatchObject({ combatants: { guard: { stats: { defense: 7 } } } });
    expect(getEncounter(s.engine.view(s.table, ANN).world).combatants['guard']?.stats).toEqual({ defense: 7 });
    s.run({ type: 'foes.reveal', reveal: 'all' });
    // A phone's attack takes no Advantage of its own (ADR 65: the GM grants it), so the odds are the plain 9/20.
    expect(odds(s, ANN, { targetId: 'guard' })).toMatchObject({ ok: true, value: { pass: expect.closeTo(9 / 20, 12) as unknown as number } });
    expect(getEncounter(s.engine.view(s.table, ANN).world).combatants['guard']?.stats).toMatchObject({ defense: 7, hp: 12, edgeSave: 0 });
    // Back to no numbers: the phone loses the Defense again.
    s.run({ type: 'foes.reveal', reveal: 'none' });
    expect(odds(s, ANN, { targetId: 'guard' })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
  });

  it('an Advantage of 4 or 5 counts as 3 (the rules README caps the net), not a refusal: +1 vs Defense 7 is 1 - (11/20)^4 each, and the form takes it', () => {
    const s = fight([]);
    const three = 1 - (11 / 20) ** 4;
    for (const advantage of [3, 4, 5]) expect(odds(s, GM, { targetId: 'guard', advantage })).toMatchObject({ ok: true, value: { pass: expect.closeTo(three, 12) as unknown as number } });
    expect(odds(s, GM, { targetId: 'guard', advantage: -5 })).toMatchObject({ ok: true, value: { pass: expect.closeTo((9 / 20) ** 4, 12) as unknown as number } });
    const actions = s.engine.query(s.table, GM, 'kleptonomicon.actions', { combatantId: 'c-alice' });
    const basic = (actions.ok ? (actions.value as { actions: { label: string; numbers: { field: string; min: number; max: number }[] }[] }).actions : []).find((a) => a.label === 'Basic Attack');
    expect(basic?.numbers.find((n) => n.field === 'advantage')).toMatchObject({ min: -10, max: 10 });
  });

  it('property (secrecy): with the setting at no numbers, no odds a player asks for, and nothing in their view, carries a foe\'s Defense', () => {
    fc.assert(
      // The phone's own modifier and Advantage are refused before the Defense is looked at (ADR 65): only a typed Defense varies here.
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 15 }), (defense, typed) => {
        const s = fight([], { defense, hp: 12 });
        const q = odds(s, ANN, { targetId: 'guard', defense: typed });
        expect(q).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
        expect(JSON.stringify(q)).not.toMatch(/"defense"|failAtOrBelow|"pass"/);
        expect(getEncounter(s.engine.view(s.table, ANN).world).combatants['guard']?.stats).toEqual({});
      }),
      { numRuns: 40 },
    );
  });

  it('a hidden foe stays out of a phone whatever the reveal: no odds, no Defense', () => {
    const s = fight([]);
    s.run({ type: 'foes.reveal', reveal: 'all' });
    s.run({ type: 'encounter.hide', characterId: 'guard' });
    expect(odds(s, ANN, { targetId: 'guard' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(JSON.stringify(s.engine.view(s.table, ANN).world.ext['encounter'])).not.toContain('"defense"');
  });

  it('property: the odds are the d10ish distribution at the Defense, and every roll hits exactly when its Score reaches it, its damage the dice shown', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (modifier, advantage, defense, seed) => {
        const s = fight([]);
        const q = odds(s, GM, { targetId: 'guard', modifier, advantage, defense });
        expect(q).toMatchObject({ ok: true, value: { pass: expect.closeTo(kleptoTestDistribution({ modifier, advantage }).atLeast(defense), 12) as unknown as number } });
        const r = s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', modifier, advantage, defense, damage: '2d4-1' }, { rng: seededRng(seed), actor: GM });
        if (!r.ok) throw new Error(r.error.message);
        const tx = r.value.transaction;
        const ev: readonly EngineEvent[] = tx.kind === 'command' ? tx.events : [];
        const a = ev.find((e) => e.type === 'kleptonomicon.attackRolled')!;
        const score = (a['roll'] as { score: number }).score;
        expect(a['hit']).toBe(score >= defense);
        const rolls = a['damageRolls'] as number[];
        expect(a['damage']).toBe(a['hit'] === true ? Math.max(0, rolls[0]! + rolls[1]! - 1) : 0);
        const hp = ev.find((e) => e.type === 'encounter.hpChanged');
        expect(hp === undefined ? 12 : hp['to']).toBe(Math.max(0, 12 - Number(a['damage'])));
      }),
      { numRuns: 60 },
    );
  });
});

describe('Kleptonomicon sheet abilities that attack (ADR 51)', () => {
  const quick: Json = { name: 'Quick Strike', time: 'beat', attack: true, modifier: 2, damage: '1d4', slowed: 2 };

  it('a sheet keys each ability by its name, refuses two of one name and bad dice in words', () => {
    const s = fight([]);
    s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [quick, { name: 'Dodge Roll', time: 'beatReaction' }] }, patch: true });
    const list = s.world.characters[ALICE]?.stats['abilities'] as { id: string }[];
    expect(list.map((a) => a.id)).toEqual(['quick-strike', 'dodge-roll']);
    const twice = s.engine.execute(s.table, { type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [quick, quick] }, patch: true }, { rng: seededRng(1), actor: GM });
    expect(twice).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', message: 'Abilities 2: two abilities are called "Quick Strike"; give each its own name' } });
    const dice = s.engine.execute(s.table, { type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [{ ...(quick as object), damage: 'lots' }] }, patch: true }, { rng: seededRng(1), actor: GM });
    expect(dice).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', message: 'Abilities 1 › damage must be dice such as 1d6+1, or a number' } });
  });

  it("Quick Strike (+2, 1d4, 2 Slowed): die 5 + 2 = 7 vs 7 hits, 1d4 [3] = 3 damage, two Slowed stacks interrupt the Guard's walk; one Beat", () => {
    const s = fight([5, 3]);
    s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [quick] }, patch: true });
    const ev = eventsOf(s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', abilityId: 'quick-strike' }, ANN));
    expect(ev.find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ name: 'Quick Strike', abilityId: 'quick-strike', hit: true, roll: { score: 7, modifier: 2 }, damageRolls: [3], damage: 3 });
    expect(Object.values(getEncounter(s.world).conditions)).toMatchObject([{ target: 'guard', defId: 'slowed', stacks: 2 }]);
    expect(ev.some((e) => e.type === 'kleptonomicon.movementInterrupted')).toBe(true);
    // 004 "Interrupted Movement": walking names no effect; the line says so as the rule's outcome (review 13 #15).
    const line = s.world.log.find((l) => l.kind === 'kleptonomicon.interrupted')?.text ?? '';
    expect(line).toMatch(/^Guard's walk is interrupted \(.+\); an interrupted walk brings no fall or drift, so Guard is unaffected\.$/);
    expect(line).not.toContain('nothing happens');
    expect(getEncounter(s.world).combatants['guard']?.stats['hp']).toBe(9);
    expect(beatsSpent(s, 'c-alice')).toBe(1);
    // An ability that makes no attack is used from its own button; the maneuver is a Basic Attack's.
    s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [quick, { name: 'Quip', time: 'free' }] }, patch: true });
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', abilityId: 'quip' }, { rng: seededRng(1), actor: ANN })).toMatchObject({ ok: false, error: { message: 'Quip makes no attack: use it from its own button' } });
    expect(s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', abilityId: 'quick-strike', maneuver: true }, { rng: seededRng(1), actor: ANN })).toMatchObject({ ok: false, error: { path: 'maneuver' } });
  });

  it("the actions answer opens Quick Strike as an attack form (target, its modifier and damage, the attack odds); its time reads in words; the Basic Attack takes the sheet's numbers", () => {
    const s = fight([]);
    s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { attackModifier: 1, attackDamage: '1d6+1', abilities: [quick, { name: 'Dodge Roll', time: 'beatReaction' }] }, patch: true });
    const r = s.engine.query(s.table, GM, 'kleptonomicon.actions', { combatantId: 'c-alice' });
    if (!r.ok) throw new Error(r.error.message);
    const acts = (r.value as { actions: { id: string; [k: string]: Json }[] }).actions;
    const find = (id: string) => acts.find((a) => a.id === id)!;
    expect(find('attack')).toMatchObject({ label: 'Basic Attack', cost: '1 Beat', command: 'kleptonomicon.attack', numbers: [{ field: 'modifier', value: 1 }, { field: 'advantage' }, { field: 'defense' }], texts: [{ field: 'damage', value: '1d6+1' }], odds: { query: 'kleptonomicon.attackOdds' }, allowed: true });
    expect(find('ability:quick-strike')).toMatchObject({ cost: '1 Beat; a hit: 2 Slowed', command: 'kleptonomicon.attack', fixed: { attackerId: 'c-alice', abilityId: 'quick-strike' }, numbers: [{ field: 'modifier', value: 2 }, {}, {}], texts: [{ value: '1d4' }, { field: 'reach', value: 'Swinging Distance (1u)' }] });
    expect((find('ability:quick-strike')['target'] as { options: { label: string }[] }).options.map((o) => o.label)).toEqual(['Guard', 'Bob']);
    expect(find('ability:dodge-roll')).toMatchObject({ cost: '1 Beat (a reaction)', command: 'kleptonomicon.useAbility' });
  });
});

describe('Kleptonomicon attack forms and log lines (ADR 56, review 7)', () => {
  const actionsOf = (s: Scenario, viewer: Viewer, combatantId: string) => {
    const r = s.engine.query(s.table, viewer, 'kleptonomicon.actions', { combatantId });
    if (!r.ok) throw new Error(r.error.message);
    return (r.value as { actions: { id: string; [k: string]: Json }[] }).actions;
  };

  it("a player's attack form has no box at all: the sheet's Test modifier, no Advantage and the sheet's damage, read-only (review 9); the GM's keeps every box", () => {
    const s = fight([]);
    s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [{ name: 'Shield Bash', time: 'beat', attack: true, modifier: 3, damage: '4' }] }, patch: true });
    const phone = actionsOf(s, ANN, 'c-alice');
    for (const id of ['attack', 'maneuver', 'ability:shield-bash']) {
      const a = phone.find((x) => x.id === id)!;
      expect(a['numbers']).toEqual([]);
      // ADR 124: the Basic Attack's kind and the target's distance are the player's to say; an ability shows its reach.
      expect((a['odds'] as { pass: string[] }).pass).toEqual(['targetId', 'basic', 'distance']);
      expect((a['texts'] as { field: string; readOnly?: boolean }[]).map((t) => [t.field, t.readOnly])).toEqual([['modifier', true], ['advantage', true], ['damage', true], ...(id === 'ability:shield-bash' ? [['reach', true]] : [])]);
    }
    // Alice's sheet: attackModifier +1, 1d6+1; the ability its own +3 and a flat 4.
    expect(phone.find((x) => x.id === 'attack')).toMatchObject({ texts: [{ label: 'Test modifier (from the sheet)', value: '+1' }, { label: 'Advantage', value: 'none (the GM grants Advantage or Disadvantage)' }, { field: 'damage', label: 'Damage on a hit (from the sheet)', value: '1d6+1', readOnly: true }] });
    expect(phone.find((x) => x.id === 'maneuver')).toMatchObject({ texts: [{ value: '+1' }, { value: '1 Disadvantage (the improvised maneuver)' }, { value: '1d6+1' }] });
    expect(phone.find((x) => x.id === 'ability:shield-bash')).toMatchObject({ texts: [{ value: '+3' }, { value: 'none (the GM grants Advantage or Disadvantage)' }, { value: '4', readOnly: true }, { value: 'Swinging Distance (1u)' }] });
    const gm = actionsOf(s, GM, 'c-alice').find((x) => x.id === 'ability:shield-bash')!;
    expect((gm['numbers'] as { field: string }[]).map((n) => n.field)).toEqual(['modifier', 'advantage', 'defense']);
    expect(gm['texts']).toEqual([
      { field: 'damage', label: 'Damage on a hit (dice, such as 1d6+1)', value: '4', max: 20 },
      { field: 'reach', label: 'Reach', value: 'Swinging Distance (1u)', max: 60, readOnly: true },
    ]);
  });

  it("a player cannot rewrite the damage (refused in words, nothing rolled); the GM may: a flat 4 reads '4 damage'", () => {
    const s = fight([6, 6]);
    const refused = s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', damage: '20' }, { rng: seededRng(1), actor: ANN });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'damage', message: "the damage on a hit comes from Alice's sheet (1d6+1): only the GM may roll other dice" } });
    expect(beatsSpent(s, 'c-alice')).toBe(0);
    // The GM's 4: die 6 + 1 = 7 reaches Defense 7, a flat 4 damage.
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', damage: '4' }, GM);
    expect(s.world.log.map((l) => l.text).slice(-2)).toEqual(['Alice: turn starts.', "Alice's Basic Attack on Guard: d10 6 +1 = Score 7 vs Defense 7 (hit, 4 damage): HP 12 → 8."]);
  });

  it('a 10 flips a coin (rules README): called right it counts 10, a critical success (10 + 1 = 11 hits Defense 7); wrong it counts 0, a critical failure (0 + 1 = 1 misses)', () => {
    const s = fight([10, 1, 3, 10, 2]);
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN);
    expect(s.world.log.some((l) => l.text === "Alice's Basic Attack on Guard: d10 10 (critical success) +1 = Score 11 vs Defense 7 (hit, 1d6+1 [3] = 4 damage): HP 12 → 8.")).toBe(true);
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN);
    expect(s.world.log.at(-1)?.text).toBe("Alice's Basic Attack on Guard: d10 0 (critical failure: a 10, coin lost) +1 = Score 1 vs Defense 7 (miss).");
    // Players read the same dice, never the foe's Defense.
    const phone = s.engine.view(s.table, ANN).world.log.map((l) => l.text);
    expect(phone).toContain("Alice's Basic Attack on Guard: d10 0 (critical failure: a 10, coin lost) +1 = Score 1 (miss).");
    expect(phone.join('\n')).not.toContain('Defense 7');
  });

  it("a foe's stat block Basic Attack (+2, 1d4) is its attack form's default and what a GM's plain attack rolls: die 3 + 2 = 5 vs Bob's Defense 5, 1d4 [2]", () => {
    const s = fight([3, 2], { defense: 7, hp: 12, attackModifier: 2, attackDamage: '1d4' });
    s.run({ type: 'encounter.endTurn', id: 'c-alice' });
    expect(getEncounter(s.world).current).toBe('guard');
    expect(actionsOf(s, GM, 'guard').find((a) => a.id === 'attack')).toMatchObject({ numbers: [{ field: 'modifier', value: 2 }, {}, {}], texts: [{ field: 'damage', value: '1d4' }] });
    s.run({ type: 'kleptonomicon.attack', attackerId: 'guard', targetId: 'c-bob' }, GM);
    expect(s.world.log.map((l) => l.text).slice(-2)).toEqual(['Guard: turn starts.', "Guard's Basic Attack on Bob: d10 3 +2 = Score 5 vs Defense 5 (hit, 1d4 [2] = 2 damage): HP 20 → 18."]);
    expect(s.world.characters[BOB]?.stats['hp']).toBe(18);
  });

  it("a player's Test modifier and Advantage are the rules': another is refused in words with nothing spent; the same passes; the GM may grant", () => {
    const s = fight([6, 4]);
    const as = (payload: { [k: string]: Json }) => s.engine.execute(s.table, { type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', ...payload }, { rng: seededRng(1), actor: ANN });
    expect(as({ modifier: 5 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'modifier', message: "the Test modifier of a Basic Attack comes from Alice's sheet (+1): only the GM may roll with another" } });
    expect(as({ advantage: 2 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'advantage', message: "an attack's Advantage or Disadvantage is the GM's to grant: Alice's player rolls without (ask the GM)" } });
    expect(as({ maneuver: true, advantage: -1 })).toMatchObject({ ok: false, error: { path: 'advantage' } });
    expect(beatsSpent(s, 'c-alice')).toBe(0);
    // The sheet's own +1 and no Advantage, sent as an older phone sends them: accepted, 6 + 1 = 7 reaches Defense 7.
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', modifier: 1, advantage: 0 }, ANN);
    expect(s.world.log.map((l) => l.text)).toContain("Alice's Basic Attack on Guard: d10 6 +1 = Score 7 vs Defense 7 (hit, 1d6+1 [4] = 5 damage): HP 12 → 7.");
    expect(beatsSpent(s, 'c-alice')).toBe(1);
  });

  it('with Advantage the highest die counts and the log names it: 2 and 7 with +1 is Score 8 (the GM grants it)', () => {
    const s = fight([2, 7, 1]);
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', advantage: 1 }, GM);
    expect(s.world.log.some((l) => l.text === "Alice's Basic Attack on Guard: d10 7 (of 2, 7: the highest counts) +1 = Score 8 vs Defense 7 (hit, 1d6+1 [1] = 2 damage): HP 12 → 10.")).toBe(true);
  });
});

describe('Kleptonomicon attacks in history', () => {
  it("players read the attack without a foe's Defense (log and history) until the GM shows defences", () => {
    const s = fight([6, 4]);
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN);
    const phone = s.engine.view(s.table, ANN).world.log.map((l) => l.text);
    expect(phone).toContain("Alice's Basic Attack on Guard: d10 6 +1 = Score 7 (hit, 1d6+1 [4] = 5 damage).");
    expect(phone.join('\n')).not.toContain('Defense 7');
    const seen = s.engine.history(s.table, ANN).flatMap((t) => t.events).find((e) => e.type === 'kleptonomicon.attackRolled');
    expect(seen).toBeDefined();
    expect(seen).not.toHaveProperty('defense');
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(s.engine.history(s.table, ANN).flatMap((t) => t.events).find((e) => e.type === 'kleptonomicon.attackRolled')).toMatchObject({ defense: 7 });
  });

  it('undo takes back the attack, its Beat and its damage; replay equals the live table', () => {
    const s = fight([6, 4]);
    const before = JSON.stringify(s.world);
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' }, ANN);
    expect(getKlepto(s.world).phase).toBe('encounter');
    s.undo();
    expect(JSON.stringify(s.world)).toBe(before);
    s.redo();
    expect(s.engine.replay(s.table.genesis, s.table.transactions).world).toEqual(s.world);
  });
});

describe('Kleptonomicon damage dice', () => {
  it('reads 1d6+1, d8, 2d4-1 and a plain 3; refuses what it cannot roll with limits', () => {
    expect(parseDamage('1d6+1')).toEqual({ ok: true, value: { count: 1, sides: 6, bonus: 1 } });
    expect(parseDamage(' d8 ')).toEqual({ ok: true, value: { count: 1, sides: 8, bonus: 0 } });
    expect(parseDamage('2d4-1')).toEqual({ ok: true, value: { count: 2, sides: 4, bonus: -1 } });
    expect(parseDamage('3')).toEqual({ ok: true, value: { count: 0, sides: 1, bonus: 3 } });
    expect(parseDamage('')).toEqual({ ok: true, value: null });
    expect(parseDamage('21d6')).toMatchObject({ ok: false });
    expect(parseDamage('1d1')).toMatchObject({ ok: false });
    expect(parseDamage('1d6+101')).toMatchObject({ ok: false });
  });

  it('averages exactly, never below 0 per hit: 1d6+1 = 4.5; 1d4-3 = (0+0+0+1)/4 = 0.25', () => {
    expect(averageDamage({ count: 1, sides: 6, bonus: 1 })).toBeCloseTo(4.5, 12);
    expect(averageDamage({ count: 1, sides: 4, bonus: -3 })).toBeCloseTo(0.25, 12);
    expect(averageDamage({ count: 0, sides: 1, bonus: 3 })).toBe(3);
  });
});
