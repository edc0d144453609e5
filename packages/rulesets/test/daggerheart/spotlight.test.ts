// The spotlight (issue 21, ADR 14): a Daggerheart conflict runs through the
// shared encounter kernel; the GM passes the spotlight or takes it with Fear;
// the optional action tracker limits who may take it until the round refills.
import { describe, expect, it } from 'vitest';
import { getEncounter, spotlightTokens } from '@tablekeeper/engine';
import { DhTable, events, ofType, player } from './helpers.js';

function fight(settings = {}) {
  const t = new DhTable(settings);
  const seats = { a: t.seat('Ana'), b: t.seat('Bo') };
  const rogue = t.pc('Rogue', seats.a, { major: 6, severe: 12, hpMax: 6 });
  const bard = t.pc('Bard', seats.b);
  const tx = t.run({ type: 'daggerheart.addAdversaries', name: 'Ogre', difficulty: 13, major: 8, severe: 15, hp: 6, moves: [{ name: 'Smash', countdown: { start: 3, repeat: 'loop' } }], visibility: 'visible' });
  const ogre = String(ofType(tx, 'character.added')[0]!['id']);
  const combatants = [
    { id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue },
    { id: bard, name: 'Bard', kind: 'pc', characterId: bard },
    { id: ogre, name: 'Ogre', kind: 'npc', characterId: ogre },
  ];
  return { t, seats, rogue, bard, ogre, combatants };
}

const enc = (t: DhTable) => getEncounter(t.world);

describe('encounter.start on a Daggerheart table', () => {
  it('starts (no UNKNOWN_COMMAND) and waits for the GM to pass the spotlight; a player cannot pass it', () => {
    const { t, seats, rogue, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    expect(enc(t).pending).toMatchObject({ prompt: 'Pass the spotlight', chooser: { kind: 'gm' }, default: rogue });
    expect(enc(t).pending!.options).toHaveLength(3);
    expect(t.fail({ type: 'encounter.choose', id: rogue }, player(seats.a)).code).toBe('FORBIDDEN');
    expect(t.fail({ type: 'daggerheart.passSpotlight', combatantId: rogue }, player(seats.a)).code).toBe('FORBIDDEN');
    t.run({ type: 'encounter.choose', id: rogue });
    expect(enc(t).current).toBe(rogue);
  });

  it('the GM passes the spotlight from the Rogue to the Bard in one step; the same PC may take it again later (no initiative round)', () => {
    const { t, rogue, bard, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    const tx = t.run({ type: 'daggerheart.passSpotlight', combatantId: bard });
    expect(events(tx).map((e) => e.type)).toContain('encounter.turnEnded');
    expect(enc(t).current).toBe(bard);
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    expect(enc(t).current).toBe(rogue);
    expect(enc(t).round).toBe(1);
  });

  it('the GM takes the spotlight out of turn with the Ogre for 1 Fear (spotlightFearCost); without Fear it is refused; undo gives back the Fear and the Rogue\'s spotlight', () => {
    const { t, rogue, bard, ogre, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    expect(t.fail({ type: 'daggerheart.takeSpotlight', combatantId: ogre })).toMatchObject({ code: 'DH_NOT_ENOUGH_FEAR' });
    t.run({ type: 'daggerheart.gainFear', amount: 2 });
    const before = JSON.stringify(t.world);
    t.run({ type: 'daggerheart.takeSpotlight', combatantId: ogre, reason: 'the Ogre lunges' });
    expect([enc(t).current, t.fear]).toEqual([ogre, 1]);
    expect(t.fail({ type: 'daggerheart.takeSpotlight', combatantId: bard })).toMatchObject({ code: 'DH_NOT_AN_ADVERSARY' });
    t.undo();
    expect(JSON.stringify(t.world)).toBe(before);
    expect(enc(t).current).toBe(rogue);
  });

  it('a PC with every HP slot marked cannot take the spotlight', () => {
    const { t, rogue, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    t.run({ type: 'daggerheart.takeDamage', characterId: rogue, amount: 12 });
    t.run({ type: 'daggerheart.takeDamage', characterId: rogue, amount: 12 });
    expect(t.fail({ type: 'daggerheart.passSpotlight', combatantId: rogue })).toMatchObject({ code: 'DH_CANNOT_ACT' });
  });

  it('an adversary felled while the GM is choosing who is next leaves the choice; a cleared HP slot brings it back (the session test saw a fallen Imp still offered)', () => {
    const { t, rogue, bard, ogre, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    expect(enc(t).pending!.options).toEqual([rogue, bard, ogre]);
    // 15 against the Ogre's 8 / 15 is severe: 3 HP each time, so its six slots are all marked after two hits.
    t.run({ type: 'daggerheart.takeDamage', characterId: ogre, amount: 15 });
    expect(enc(t).pending!.options).toEqual([rogue, bard, ogre]);
    const felled = t.run({ type: 'daggerheart.takeDamage', characterId: ogre, amount: 15 });
    expect(events(felled).map((e) => e.type)).toEqual(expect.arrayContaining(['encounter.decisionWithdrawn', 'encounter.decisionPending']));
    expect(enc(t).pending!.options).toEqual([rogue, bard]);
    expect(t.fail({ type: 'encounter.choose', id: ogre }).code).not.toBe('OK');
    t.run({ type: 'daggerheart.markTrack', characterId: ogre, track: 'hp', amount: -1 });
    expect(enc(t).pending!.options).toEqual([rogue, bard, ogre]);
    t.undo();
    expect(enc(t).pending!.options).toEqual([rogue, bard]);
    // Stress is no HP: marking it leaves the choice as it is (no withdrawal).
    const stress = t.run({ type: 'daggerheart.markTrack', characterId: rogue, track: 'stress', amount: 1 });
    expect(events(stress).map((e) => e.type)).not.toContain('encounter.decisionWithdrawn');
  });
});

describe('the optional action tracker (daggerheart.actionTokens)', () => {
  it('one token each: a PC who spent theirs is not offered; their tokens pay the GM, who spends one on the Ogre; when nobody can pay the round ends and the tokens refill', () => {
    const { t, rogue, bard, ogre, combatants } = fight({ 'daggerheart.actionTokens': 1 });
    t.run({ type: 'encounter.start', combatants });
    // The GM holds no token yet: only the PCs are offered.
    expect(enc(t).pending!.options).toEqual([rogue, bard]);
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    expect(t.fail({ type: 'daggerheart.passSpotlight', combatantId: rogue })).toMatchObject({ code: 'DH_NO_TOKEN' });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: bard });
    expect(spotlightTokens(enc(t))).toMatchObject({ perPc: 1, gm: 2 });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: ogre });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: ogre });
    expect(spotlightTokens(enc(t)).gm).toBe(0);
    t.run({ type: 'encounter.endTurn' });
    expect(enc(t).round).toBe(2);
    expect(enc(t).pending!.options).toEqual([rogue, bard]);
  });
});

describe('a roll with Fear swings the spotlight to the GM (GM-FLOW "the spotlight passes", ADR 50)', () => {
  it('the Rogue holds it and rolls Hope 3, Fear 9 (with Fear): her turn ends, the GM passes it on; Hope 9, Fear 3 keeps it; undo gives it back', () => {
    const { t, seats, rogue, bard, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    t.dice.queue(9, 3);
    t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10 }, player(seats.a));
    expect(enc(t).current).toBe(rogue);
    t.dice.queue(3, 9);
    const tx = t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10 }, player(seats.a));
    expect(events(tx).map((e) => e.type)).toEqual(expect.arrayContaining(['daggerheart.fearGained', 'daggerheart.spotlightToGm', 'encounter.turnEnded']));
    expect(enc(t).current).toBeNull();
    expect(t.view(player(seats.b)).world.log.map((l) => l.text)).toContain('Rogue rolled with Fear: the spotlight swings to the GM.');
    t.run({ type: 'daggerheart.passSpotlight', combatantId: bard });
    expect(enc(t).current).toBe(bard);
    t.undo();
    t.undo();
    expect(enc(t).current).toBe(rogue);
  });

  it("a roll with Fear by someone not holding the spotlight, a reaction roll, or the setting off leave it where it is", () => {
    const { t, seats, rogue, bard, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    t.dice.queue(3, 9);
    t.run({ type: 'daggerheart.actionRoll', characterId: bard, difficulty: 10 }, player(seats.b));
    t.dice.queue(3, 9);
    t.run({ type: 'daggerheart.actionRoll', characterId: rogue, difficulty: 10, reaction: true }, player(seats.a));
    expect(enc(t).current).toBe(rogue);
    const off = fight({ 'daggerheart.fearPassesSpotlight': false });
    off.t.run({ type: 'encounter.start', combatants: off.combatants });
    off.t.run({ type: 'daggerheart.passSpotlight', combatantId: off.rogue });
    off.t.dice.queue(3, 9);
    off.t.run({ type: 'daggerheart.actionRoll', characterId: off.rogue, difficulty: 10 }, player(off.seats.a));
    expect(enc(off.t).current).toBe(off.rogue);
  });
});

describe('conditions in a conflict without rounds (review 7, ADR 57)', () => {
  it('Vulnerable "until removed" outlasts the end of the conflict and is still on the Ogre in the next one; "until the conflict ends" goes; no "after round 1"', () => {
    // 000 keeps no rounds (the spotlight passes), and the published game's conditions last until cleared.
    const { t, rogue, ogre, combatants } = fight();
    t.run({ type: 'encounter.start', combatants });
    expect(getEncounter(t.view(player(t.seat('Cy'))).world).catalogue).toMatchObject({ roundless: true, saveEnds: false });
    t.run({ type: 'condition.apply', targetId: ogre, condition: 'vulnerable', duration: { kind: 'indefinite' } });
    t.run({ type: 'condition.apply', targetId: rogue, condition: 'hidden', duration: { kind: 'encounterEnd' } });
    const end = t.run({ type: 'encounter.end' });
    expect(ofType(end, 'condition.expired').map((e) => e['condition'])).toEqual(['hidden']);
    expect(Object.values(enc(t).conditions).map((c) => [c.defId, c.target])).toEqual([['vulnerable', ogre]]);
    const logs = t.world.log.map((l) => l.text);
    expect(logs.slice(-2)).toEqual(['The encounter ends.', 'Rogue: Hidden ends.']);
    expect(logs.join('\n')).not.toMatch(/after round|Vulnerable ends/);
    // The same creatures start the next conflict: the Ogre is still Vulnerable until the GM clears it.
    t.run({ type: 'encounter.start', combatants });
    expect(Object.values(enc(t).conditions).map((c) => [c.defId, c.target])).toEqual([['vulnerable', ogre]]);
    t.run({ type: 'condition.remove', conditionId: Object.keys(enc(t).conditions)[0]! });
    expect(enc(t).conditions).toEqual({});
  });
});
