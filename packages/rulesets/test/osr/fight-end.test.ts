// 001 "When To Check Morale" (the first combatant killed), "Death & Injury" at
// a fight's end (the summary) and "Quick Actions" (what was done, who paid),
// through the real engine. ADR 44.
import { describe, expect, it } from 'vitest';
import { eventsOf, osrTable } from './helpers.js';

/** Kira (PC, DEX 14) against three goblins (DEX 10), the party acting first. */
function goblinFight(settings = {}) {
  const t = osrTable(settings);
  const kira = t.add('Kira', { maxHp: 14, dex: 14, str: 16 });
  const gobs = [1, 2, 3].map((i) => t.add(`Goblin ${i}`, { maxHp: 5, dex: 10, ac: 13 }, 'npc'));
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
      ...gobs.map((g, i) => ({ id: `g${i + 1}`, name: `Goblin ${i + 1}`, kind: 'npc' as const, side: 'foes', characterId: g, stats: { dex: 10 } })),
    ],
  });
  return { t, kira, gobs };
}

describe('the first combatant killed (001 "When To Check Morale")', () => {
  it('Goblin 1 at 0 HP is the first to fall: the GM is prompted for the foes\' morale at once, not at the fight\'s end', () => {
    const { t, gobs } = goblinFight();
    expect(t.osr.prompts.map((p) => [p.trigger, p.side])).toEqual([['battle-begins', 'foes']]);
    t.run({ type: 'osr.damage', target: gobs[0]!, amount: 5 });
    expect(t.osr.prompts.at(-1)).toEqual({ trigger: 'first-killed', text: 'Goblin 1 is the first to fall in this fight: morale for the foes?', side: 'foes' });
    // The second fall is not the first; 2 of 3 down then turns the tide (setting 0.5).
    t.run({ type: 'osr.damage', target: gobs[1]!, amount: 5 });
    expect(t.osr.prompts.map((p) => p.trigger)).toEqual(['battle-begins', 'first-killed', 'tide']);
    // Players never read the prompts.
    expect(t.s.view({ role: 'spectator' }).world.log.some((l) => l.kind === 'osr.moralePrompted')).toBe(false);
  });

  it('a new fight counts again: its first fall is prompted too, and its prompts start afresh', () => {
    const { t, gobs } = goblinFight();
    t.run({ type: 'osr.damage', target: gobs[0]!, amount: 5 });
    expect(t.osr.prompts.at(-1)).toMatchObject({ trigger: 'first-killed', side: 'foes' });
    t.run({ type: 'encounter.end' });
    t.run({ type: 'encounter.start', combatants: [{ id: 'x', name: 'Goblin 3', kind: 'npc', side: 'foes', characterId: gobs[2]!, stats: { dex: 10 } }, { id: 'y', name: 'Goblin 2', kind: 'npc', side: 'rivals', characterId: gobs[1]!, stats: { dex: 9 } }] });
    t.run({ type: 'osr.damage', target: gobs[1]!, amount: 5 });
    expect(t.osr.prompts.map((p) => [p.trigger, p.side])).toEqual([
      ['battle-begins', 'foes'],
      ['first-killed', 'rivals'],
    ]);
  });
});

describe('the fight-end summary (001 "Death & Injury": dead if not stabilized by the end of the fight, or within a minute, whichever is later)', () => {
  it('down for over a minute at the end: dead; down for less: dying with the rest of the minute; the others stand', () => {
    const { t, gobs } = goblinFight();
    t.run({ type: 'osr.damage', target: gobs[0]!, amount: 5 }); // down at 0 s
    // Nine rounds of six seconds pass (001 gives a minute; the clock moves at each round's end).
    t.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 54 });
    t.run({ type: 'osr.damage', target: gobs[1]!, amount: 5 }); // down at 54 s
    const tx = t.run({ type: 'encounter.end' });
    // The round in progress ends with the fight: 54 + 6 = 60 s, Goblin 1's minute is up, Goblin 2 has 54 s left.
    expect(t.world.clock.seconds).toBe(60);
    const [sum] = eventsOf(tx, 'osr.fightSummarized');
    expect(sum).toMatchObject({ rounds: 1, dead: ['g1'], dying: [{ id: 'g2', secondsLeft: 54 }], stable: [], standing: [{ id: 'k', side: 'party' }, { id: 'g3', side: 'foes' }] });
    expect(t.osr.dead).toEqual([gobs[0]!]);
    const line = t.world.log.findLast((l) => l.kind === 'osr.fightSummarized')!;
    expect(line.text).toBe(
      'The fight is over after 1 round. Dead (not stabilized by the end of the fight): Goblin 1. Dying, dead unless stabilized in time: Goblin 2 (54 s left). Still standing: the party, Kira; the foes, Goblin 3.',
    );
    // The summary names hidden foes and deadlines: the GM's.
    expect(line.audience?.kind).toBe('gm');
    expect(t.s.view({ role: 'spectator' }).world.log.some((l) => l.kind === 'osr.fightSummarized')).toBe(false);
  });

  it('a stabilized combatant at 0 HP is listed as stable, nobody dead', () => {
    const { t, gobs, kira } = goblinFight();
    t.run({ type: 'osr.damage', target: kira, amount: 14 });
    t.dice.queue(12); // injury roll 12 (8-13): a body part lost, then back on their feet at 1 HP? stable either way
    t.run({ type: 'osr.stabilize', target: kira, method: 'other' });
    const tx = t.run({ type: 'encounter.end' });
    const [sum] = eventsOf(tx, 'osr.fightSummarized');
    expect(sum!['dead']).toEqual([]);
    expect(t.world.log.findLast((l) => l.kind === 'osr.fightSummarized')!.text).toContain('Nobody died.');
    expect(gobs).toHaveLength(3);
  });
});

describe('a PC still at 0 HP when a short fight ends (001 "Death & Injury", ADR 53)', () => {
  it('down in round 1 of a 2-round fight: at End the table reads 60 - 12 = 48 s left; when the minute runs out the PC is dead, and the GM summary lists it dying', () => {
    const { t, kira } = goblinFight();
    t.run({ type: 'osr.damage', targetId: kira, amount: 14 }); // down at 0 s
    expect(t.world.log.some((l) => l.text === 'Kira takes 14 damage: HP 14 → 0.')).toBe(true);
    const round = (): number => (t.world.ext['encounter'] as { round: number }).round;
    for (let i = 0; i < 10 && round() < 2; i++) t.run({ type: 'encounter.endTurn' }); // round 2 begins at 6 s
    expect([round(), t.world.clock.seconds]).toEqual([2, 6]);
    const tx = t.run({ type: 'encounter.end' }); // the round in progress counts: 12 s
    expect(t.world.clock.seconds).toBe(12);
    expect(eventsOf(tx, 'osr.leftDying')).toEqual([{ type: 'osr.leftDying', characterId: kira, secondsLeft: 48 }]);
    const seen = t.s.view({ role: 'spectator' }).world.log.map((l) => l.text);
    expect(seen).toContain('The fight is over and Kira is still at 0 HP: dead unless stabilized within 48 s (the rest of the minute).');
    expect(t.world.log.findLast((l) => l.kind === 'osr.fightSummarized')!.text).toContain('Dying, dead unless stabilized in time: Kira (48 s left).');
    expect(t.osr.dead).toEqual([]);
    // 47 s later Kira still lives; the 48th second kills her.
    t.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 47 });
    expect(t.osr.dead).toEqual([]);
    const last = t.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 1 });
    expect(eventsOf(last, 'osr.died')).toEqual([{ type: 'osr.died', characterId: kira, reason: 'not stabilized in time' }]);
    expect(t.world.log.at(-1)!.text).toBe('Kira is dead (not stabilized in time).');
  });

  it("a foe left dying is the GM's to read: no line for players, the summary only", () => {
    const { t, gobs } = goblinFight();
    t.run({ type: 'osr.damage', targetId: gobs[0]!, amount: 5 });
    const tx = t.run({ type: 'encounter.end' });
    expect(eventsOf(tx, 'osr.leftDying')).toEqual([]);
    expect(eventsOf(tx, 'osr.fightSummarized')[0]).toMatchObject({ dying: [{ id: 'g1', secondsLeft: 54 }] });
  });

  it('damage with dice says its dice and source; a plain amount reads as a sentence (9 damage, not "9 damage (9) from damage")', () => {
    const { t, kira } = goblinFight();
    t.run({ type: 'osr.damage', targetId: kira, amount: 9 });
    expect(t.world.log.some((l) => l.text === 'Kira takes 9 damage: HP 14 → 5.')).toBe(true);
    t.dice.queue(3);
    t.run({ type: 'osr.damage', targetId: kira, amount: '1d6+1', source: 'a falling rock' });
    expect(t.world.log.some((l) => l.text === 'Kira takes 4 damage (1d6+1) from a falling rock: HP 5 → 1.')).toBe(true);
  });
});

describe('quick actions (001 "Quick Actions")', () => {
  it('the log says what was done; paid with the movement action it says so; the active action only with the tick', () => {
    const { t, kira } = goblinFight();
    const first = t.run({ type: 'osr.quick', characterId: 'k', what: 'draws a dagger' });
    expect(t.events(first)).toEqual(['economy.spent', 'osr.quickTaken']);
    expect(t.world.log.at(-1)!.text).toBe('Kira takes a quick action: draws a dagger.');
    t.run({ type: 'osr.quick', characterId: 'k', what: 'drinks a potion' });
    expect(t.world.log.at(-1)!.text).toBe('Kira takes a quick action: drinks a potion (paid with the movement action).');
    expect(t.s.fail({ type: 'osr.quick', characterId: 'k', what: 'kicks sand' })).toMatchObject({ code: 'PAYS_WITH_ACTIVE', path: 'withActive' });
    t.run({ type: 'osr.quick', characterId: 'k', what: 'kicks sand', withActive: true });
    expect(t.world.log.at(-1)!.text).toBe('Kira takes a quick action: kicks sand (paid with the active action).');
    expect(kira).toBeTruthy();
  });

  it('a move after the movement action is spent needs the same tick', () => {
    const { t } = goblinFight();
    t.run({ type: 'osr.quick', characterId: 'k', what: 'draws a dagger' });
    t.run({ type: 'osr.quick', characterId: 'k', what: 'lights a torch' }); // the movement action pays
    expect(t.s.fail({ type: 'osr.move', characterId: 'k', feet: 20 }).code).toBe('PAYS_WITH_ACTIVE');
    t.run({ type: 'osr.move', characterId: 'k', feet: 20, withActive: true });
    expect(t.world.log.at(-1)!.text).toMatch(/^Kira moves 20' \(paid with the active action\): 20' of \d+' used this turn\.$/);
  });
});

describe('review 10: foes added without an AC', () => {
  it("a player's attack lists a foe with its AC as it is, with no note (the foe's AC is not in a player's world)", () => {
    const t = osrTable();
    const seat = t.seat('Ann');
    const kira = t.add('Kira', { maxHp: 14, dex: 14, str: 16, ac: 14 }, 'pc', seat);
    const foe = t.add('Ordinary foe 1', { ac: 10, hitDice: 1, hp: 4, maxHp: 4, dex: 10 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } }, { id: 'f1', name: 'Ordinary foe 1', kind: 'npc', side: 'foes', characterId: foe, stats: { dex: 10 } }] });
    for (const viewer of [{ role: 'gm' as const }, { role: 'player' as const, seatId: seat }]) {
      const r = t.s.engine.query(t.s.table, viewer, 'osr.actions', { combatantId: 'k' });
      if (!r.ok) throw new Error(r.error.message);
      const attack = (r.value as { actions: { id: string; target: { options: unknown[] } }[] }).actions.find((a) => a.id === 'attack')!;
      expect(attack.target.options).toEqual([{ value: foe, label: 'Ordinary foe 1', side: 'foe', standing: 'up' }]);
    }
  });

  it('a goblin made without an AC is a target against the sheet\'s default AC 10, marked so; it falls first and prompts morale', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 14, dex: 14, str: 16, ac: 14 });
    // As the encounter builder makes it with the AC box blank: HP and DEX, no AC.
    const gob = t.add('Goblin 1', { hp: 5, maxHp: 5, dex: 14 }, 'npc');
    t.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } }, { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: gob, stats: { dex: 14 } }, { id: 'g2', name: 'Goblin 2', kind: 'npc', side: 'foes', stats: { dex: 10, hp: 5 } }] });
    const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.actions', { combatantId: 'k' });
    if (!r.ok) throw new Error(r.error.message);
    const attack = (r.value as { actions: { id: string; allowed: boolean; target: { options: unknown[] } }[] }).actions.find((a) => a.id === 'attack')!;
    // The one on the tracker only (no character) is listed too, refused with what it needs.
    expect(attack.target.options).toEqual([
      { value: gob, label: 'Goblin 1', side: 'foe', standing: 'up', note: "no AC given: the sheet's default AC 10 is used" },
      { value: 'g2', label: 'Goblin 2', side: 'foe', refused: 'no AC yet: give it one with Set AC under Adjust on its row' },
    ]);
    expect(attack.allowed).toBe(true);
    // d20 + STR 3 against AC 10: 7..20 is 14 of 20.
    const odds = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.attackOdds', { attacker: kira, target: gob });
    expect(odds.ok ? (odds.value as { hit: number }).hit : odds.error.message).toBeCloseTo(14 / 20, 10);
    const bare = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.attackOdds', { attacker: kira, target: 'g2' });
    expect(bare.ok ? null : bare.error.message).toBe('Goblin 2 has no AC yet: give it one with Set AC under Adjust on its row');
    t.run({ type: 'osr.damage', target: gob, amount: 5 });
    expect(t.osr.prompts.at(-1)).toEqual({ trigger: 'first-killed', text: 'Goblin 1 is the first to fall in this fight: morale for the foes?', side: 'foes' });
  });

  it('a foe on the tracker only, at 0 HP, is down in the summary, not "still standing"', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 14, dex: 14 });
    t.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } }, { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'foes', stats: { dex: 14, hp: 5, maxHp: 5 } }, { id: 'g2', name: 'Goblin 2', kind: 'npc', side: 'foes', stats: { dex: 12, hp: 5, maxHp: 5 } }] });
    t.run({ type: 'encounter.damage', characterId: 'g1', amount: 5 });
    const tx = t.run({ type: 'encounter.end' });
    const [sum] = eventsOf(tx, 'osr.fightSummarized');
    expect(sum).toMatchObject({ down: ['g1'], standing: [{ id: 'k', side: 'party' }, { id: 'g2', side: 'foes' }] });
    expect(t.world.log.findLast((l) => l.kind === 'osr.fightSummarized')?.text).toBe('The fight is over after 1 round. Nobody died. Down at 0 HP: Goblin 1. Still standing: the party, Kira; the foes, Goblin 2.');
  });
});
