import { describe, expect, it } from 'vitest';
import { abilityUse, ENCOUNTER_TRANSITIONS, EPISODE_TRANSITIONS, type Ability, type EncounterPhase, type EpisodePhase } from '../../src/kleptonomicon/phases.js';
import { planDash, startTurnMovement } from '../../src/kleptonomicon/movement.js';

const strike: Ability = { id: 'strike', name: 'Strike', time: 'beat' };
const quip: Ability = { id: 'quip', name: 'Quip', time: 'free' };
const parry: Ability = { id: 'parry', name: 'Parry', time: 'beatReaction' };
const shrug: Ability = { id: 'shrug', name: 'Shrug', time: 'freeReaction' };
const ritual: Ability = { id: 'ritual', name: 'Ritual', time: 'long', seconds: 600 };
const luckyCharm: Ability = { id: 'charm', name: 'Lucky Charm', time: 'episodic' };
const healUp: Ability = { id: 'healUp', name: 'Heal Up', time: 'beat', recovery: 'healUp' };

const at = (phase: EpisodePhase, encounterPhase: EncounterPhase | null = null, ownTurn = false) => ({ phase, encounterPhase, ownTurn });

describe('004 Phases of Play: which abilities may be used when', () => {
  it('Opening Credits: Episodic abilities only', () => {
    expect(abilityUse(luckyCharm, at('opening'))).toEqual({ ok: true, cost: 'free' });
    for (const a of [strike, quip, parry, ritual, healUp]) expect(abilityUse(a, at('opening'))).toMatchObject({ ok: false, error: { code: 'OPENING_CREDITS' } });
  });
  it('Freeplay ignores ability times unless they take minutes or longer', () => {
    expect(abilityUse(strike, at('freeplay'))).toEqual({ ok: true, cost: 'free' });
    expect(abilityUse(ritual, at('freeplay'))).toEqual({ ok: true, cost: 'clock' });
  });
  it('no Episode: nothing', () => {
    expect(abilityUse(quip, at('between'))).toMatchObject({ ok: false, error: { code: 'NO_EPISODE' } });
  });
  it('Initiative: no abilities while the order is set', () => {
    expect(abilityUse(quip, at('encounter', 'initiative', true))).toMatchObject({ ok: false, error: { code: 'INITIATIVE_PHASE' } });
  });
  it('Main: Beat abilities cost a Beat, free ones nothing; only reactions outside your own turn', () => {
    expect(abilityUse(strike, at('encounter', 'main', true))).toEqual({ ok: true, cost: 'beat' });
    expect(abilityUse(quip, at('encounter', 'main', true))).toEqual({ ok: true, cost: 'free' });
    expect(abilityUse(strike, at('encounter', 'main', false))).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } });
    expect(abilityUse(parry, at('encounter', 'main', false))).toEqual({ ok: true, cost: 'beat' });
    expect(abilityUse(shrug, at('encounter', 'main', false))).toEqual({ ok: true, cost: 'free' });
    expect(abilityUse(ritual, at('encounter', 'main', true))).toMatchObject({ ok: false, error: { code: 'TOO_LONG' } });
    expect(abilityUse(luckyCharm, at('encounter', 'main', true))).toMatchObject({ ok: false, error: { code: 'EPISODIC' } });
  });
  it('Pause works like Freeplay', () => {
    expect(abilityUse(strike, at('encounter', 'pause'))).toEqual({ ok: true, cost: 'free' });
  });
  it('Reward: the recovery abilities (Dodges Up, Shields Up, Heal Up) only', () => {
    expect(abilityUse(healUp, at('encounter', 'reward'))).toEqual({ ok: true, cost: 'free' });
    expect(abilityUse(strike, at('encounter', 'reward'))).toMatchObject({ ok: false, error: { code: 'REWARD_PHASE' } });
  });
  it('the transition tables allow the Episode loop and the Encounter phases the text describes', () => {
    expect(EPISODE_TRANSITIONS.opening).toEqual(['between']);
    expect(EPISODE_TRANSITIONS.encounter).toEqual(['freeplay']);
    expect(EPISODE_TRANSITIONS.freeplay).toContain('encounter');
    expect(EPISODE_TRANSITIONS.closing).toEqual(['freeplay']);
    expect(ENCOUNTER_TRANSITIONS.pause).toEqual(['main']);
    expect(ENCOUNTER_TRANSITIONS.reward).toEqual(['main', 'pause']);
    expect(ENCOUNTER_TRANSITIONS.main).toContain('pause');
  });
});

describe('004 The Dash Ability', () => {
  const tm = startTurnMovement([{ style: 'walk', variant: 'normal' }], false);
  it('the first Dash of a round doubles', () => {
    expect(planDash(tm, 0, null)).toMatchObject({ ok: true, value: { outcome: { kind: 'doubled' }, movement: { multiplier: 2 } } });
  });
  it('a second Dash needs an Athletics Test: pass triples, fail leaves you Slowed', () => {
    const doubled = { ...tm, multiplier: 2 };
    expect(planDash(doubled, 1, null)).toMatchObject({ ok: false, error: { code: 'TEST_REQUIRED' } });
    expect(planDash(doubled, 1, { passed: true })).toMatchObject({ ok: true, value: { outcome: { kind: 'tripled' }, movement: { multiplier: 3 } } });
    expect(planDash(doubled, 1, { passed: false })).toMatchObject({ ok: true, value: { outcome: { kind: 'slowed' }, movement: { multiplier: 2 } } });
  });
  it('a third is refused', () => {
    expect(planDash(tm, 2, { passed: true })).toMatchObject({ ok: false, error: { code: 'DASH_LIMIT' } });
  });
});

describe('004 Tests and Edge Saves: exact odds', () => {
  it('an Edge Save with +0 passes on 7, 8, 9 or a critical 10: (2+2+2+1)/20', async () => {
    const { passChance } = await import('../../src/kleptonomicon/roll.js');
    expect(passChance({ modifier: 0, advantage: 0 })).toBeCloseTo(7 / 20, 12);
    // Sneaky: two dice, the higher counts; fails only if both read 6 or lower (13/20 each).
    expect(passChance({ modifier: 0, advantage: 1 })).toBeCloseTo(1 - (13 / 20) ** 2, 12);
    // Advantage is capped at 3 (four dice).
    expect(passChance({ modifier: 0, advantage: 5 })).toBeCloseTo(1 - (13 / 20) ** 4, 12);
    // +7: even a critical failure reads 0 + 7 = 7, above 6: always passes.
    expect(passChance({ modifier: 7, advantage: 0 })).toBeCloseTo(1, 12);
  });
});
