// The clock moves with fights and rests in every ruleset (ADR 44): each
// round's end and the fight's end (the round in progress) take the ruleset's
// round on the clock (teams 6 s by 003; the Kleptonomicon 6 s, one turn of
// 004; OSR and the 36th Way 6 s, their texts silent; Daggerheart 0, 000 has
// no rounds of time), and rests take their length (settings).
import { describe, expect, it } from 'vitest';
import { getEncounter, scenario, seededRng, type Json, type Scenario } from '@tablekeeper/engine';
import { rulesetDefinition } from '../src/registry.js';

function table(rulesetId: string, settings: { [k: string]: Json } = {}): Scenario {
  const def = rulesetDefinition(rulesetId)!;
  return scenario(def.modules, { rng: seededRng(20261126), rulesetId, settings });
}

/** The GM's "Next" (web lib/turns.ts): end the turn, take a waiting choice's default, or start the next turn. */
function next(s: Scenario): void {
  const enc = getEncounter(s.world);
  if (enc.current !== null) s.run({ type: 'encounter.endTurn' });
  else if (enc.pending !== null) s.run({ type: 'encounter.choose', id: enc.pending.default ?? enc.pending.options[0]! });
  else s.run({ type: 'encounter.advance' });
}

/** Plays turns until round `round` is under way, then ends the fight. */
function fightTo(s: Scenario, round: number): void {
  for (let i = 0; i < 200 && getEncounter(s.world).round < round; i++) next(s);
  expect(getEncounter(s.world).round).toBe(round);
  s.run({ type: 'encounter.end' });
}

const two = [
  { id: 'a', name: 'Ann', kind: 'pc', side: 'party' },
  { id: 'b', name: 'Bandit', kind: 'npc', side: 'foes' },
];

describe('a fight over after round 3 took three rounds on the clock', () => {
  it('OSR: 3 x 6 s = 18 s (001 gives no length; the minute of "Death & Injury" is ten rounds)', () => {
    const s = table('osr');
    s.run({ type: 'encounter.start', combatants: two.map((c, i) => ({ ...c, stats: { dex: 12 - i } })) });
    fightTo(s, 3);
    expect(s.world.clock).toMatchObject({ seconds: 18, counts: { round: 3 } });
    expect(s.world.log.findLast((l) => l.kind === 'encounter.ended')!.text).toContain('ends after round 3');
  });

  it('teams: 3 x 6 s = 18 s (003: each round is about six seconds)', () => {
    const s = table('teams');
    s.run({ type: 'encounter.start', combatants: two, params: { teamOrder: ['party', 'foes'] } });
    fightTo(s, 3);
    expect(s.world.clock).toMatchObject({ seconds: 18, counts: { round: 3 } });
  });

  it('the 36th Way: 3 x 6 s = 18 s', () => {
    const s = table('36th-way');
    s.run({ type: 'encounter.start', combatants: two.map((c, i) => ({ ...c, band: i === 0 ? 'fast' : 'slow' })) });
    fightTo(s, 3);
    expect(s.world.clock).toMatchObject({ seconds: 18, counts: { round: 3 } });
  });

  it('the Kleptonomicon: 3 x 6 s = 18 s (004: a turn is six seconds, overlapping the others\')', () => {
    const s = table('kleptonomicon');
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'encounter.start', combatants: [{ id: 'g', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } }, { id: 'a', name: 'Ann', kind: 'pc' }] });
    fightTo(s, 3);
    expect(s.world.clock).toMatchObject({ seconds: 18, counts: { round: 3 } });
  });

  it('a fight ended in its first round still took that round; one ended at once on a Daggerheart table took no time (000 has no rounds of time)', () => {
    const osr = table('osr');
    osr.run({ type: 'encounter.start', combatants: two.map((c) => ({ ...c, stats: { dex: 10 } })) });
    osr.run({ type: 'encounter.end' });
    expect(osr.world.clock.seconds).toBe(6);
    const dh = table('daggerheart');
    dh.run({ type: 'encounter.start', combatants: two });
    dh.run({ type: 'encounter.end' });
    expect(dh.world.clock.seconds).toBe(0);
  });
});

describe('rests take their length on the clock', () => {
  it('the 36th Way: a Quick Rest 10 minutes, a Full Rest 8 hours (settings 36th-way.quickRestMinutes, fullRestHours)', () => {
    const s = table('36th-way');
    s.run({ type: '36th-way.quickRest', recoveries: {} });
    expect(s.world.clock.seconds).toBe(600);
    s.run({ type: '36th-way.fullRest' });
    expect(s.world.clock.seconds).toBe(600 + 8 * 3600);
    const quick = table('36th-way', { '36th-way.quickRestMinutes': 5 });
    quick.run({ type: '36th-way.quickRest', recoveries: {} });
    expect(quick.world.clock.seconds).toBe(300);
  });

  it('Daggerheart: a short rest an hour, a long rest 8 hours (settings daggerheart.shortRestMinutes, longRestHours)', () => {
    const s = table('daggerheart');
    s.run({ type: 'daggerheart.rest', rest: 'short' });
    expect(s.world.clock).toMatchObject({ seconds: 3600, counts: { shortRest: 1 } });
    s.run({ type: 'daggerheart.rest', rest: 'long' });
    expect(s.world.clock).toMatchObject({ seconds: 9 * 3600, counts: { longRest: 1 } });
  });

  it('OSR: a safe night is a night on the clock (001 "Healing From Rest")', () => {
    const s = table('osr');
    s.run({ type: 'osr.rest', kind: 'safe', nights: 1 });
    expect(s.world.clock.seconds).toBeGreaterThanOrEqual(8 * 3600);
  });
});

describe('the clock summary counts every fight\'s rounds (review 6: "1 round" after fights of 2 and 1)', () => {
  const starts: { readonly [id: string]: (s: Scenario) => void } = {
    osr: (s) => s.run({ type: 'encounter.start', combatants: two.map((c, i) => ({ ...c, stats: { dex: 12 - i } })) }),
    teams: (s) => s.run({ type: 'encounter.start', combatants: two, params: { teamOrder: ['party', 'foes'] } }),
    '36th-way': (s) => s.run({ type: 'encounter.start', combatants: two.map((c, i) => ({ ...c, band: i === 0 ? 'fast' : 'slow' })) }),
    kleptonomicon: (s) => {
      if (s.world.ext['kleptonomicon'] !== undefined && (s.world.ext['kleptonomicon'] as { phase?: string }).phase !== 'freeplay') {
        s.run({ type: 'kleptonomicon.startEpisode' });
        s.run({ type: 'kleptonomicon.freeplay' });
      }
      s.run({ type: 'encounter.start', combatants: [{ id: 'g', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } }, { id: 'a', name: 'Ann', kind: 'pc' }] });
    },
  };
  for (const [id, start] of Object.entries(starts)) {
    it(`${id}: a fight over in round 2, then one over in round 1: 3 rounds and 18 s on the clock`, () => {
      const s = table(id);
      start(s);
      fightTo(s, 2);
      if (id === 'kleptonomicon' && (s.world.ext['kleptonomicon'] as { phase?: string }).phase !== 'freeplay') s.run({ type: 'kleptonomicon.freeplay' });
      start(s);
      fightTo(s, 1);
      expect(s.world.clock).toMatchObject({ seconds: 18, counts: { round: 3 } });
    });
  }
});
