// 002 (The 36th Way) "Combat Sequence": initiative bands, delay, ready, surprise, escalation die.
import { describe, expect, it } from 'vitest';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { BANDS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, escalationFor, onDeck, economyOf } from '../../src/encounter/module.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table, playRound, playRoundUntil } from './harness.js';

const rules: EncounterRules = { sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: [] };
const pc = (id: string, band: string) => ({ id, kind: 'pc', side: 'pcs', band });
const foe = (id: string, band: string) => ({ id, kind: 'npc', side: 'foes', band });

/** The "Initiative Bands" example: five PCs (one Fast, two Medium, two Slow), five enemies (two Medium, three Slow). */
function bandExample(): Table {
  const t = new Table([encounterModule(rules)]);
  t.ok({
    type: 'encounter.start',
    combatants: [pc('p-fast', 'fast'), pc('p-med1', 'medium'), pc('p-med2', 'medium'), pc('p-slow1', 'slow'), pc('p-slow2', 'slow'),
      foe('e-med1', 'medium'), foe('e-med2', 'medium'), foe('e-slow1', 'slow'), foe('e-slow2', 'slow'), foe('e-slow3', 'slow')],
  });
  return t;
}

describe('initiative bands (002 "Initiative Bands")', () => {
  it('plays the five-PC, five-enemy example: Fast PC, Medium PCs (their choice), Medium enemies, Slow PCs, Slow enemies', () => {
    const t = bandExample();
    expect(t.enc.current).toBe('p-fast');
    t.ok({ type: 'encounter.endTurn' });
    // Two Medium PCs: the players decide who goes first; no default.
    expect(t.enc.current).toBeNull();
    expect(t.enc.pending?.chooser).toEqual({ kind: 'players', side: 'pcs' });
    expect(t.enc.pending?.options).toEqual(['p-med1', 'p-med2']);
    expect(t.enc.pending?.default).toBeNull();
    expect(t.run({ type: 'encounter.choose' })?.code).toBe('CHOICE_REQUIRED');
    expect(t.run({ type: 'encounter.choose', id: 'e-med1' })?.code).toBe('INVALID_CHOICE');
    t.ok({ type: 'encounter.choose', id: 'p-med2' });
    expect(t.enc.current).toBe('p-med2');
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('p-med1'); // only one Medium PC left: no decision
    t.ok({ type: 'encounter.endTurn' });
    // Medium enemies: GM's order, defaulting to join order.
    expect(t.enc.pending?.chooser).toEqual({ kind: 'gm' });
    expect(t.enc.pending?.options).toEqual(['e-med1', 'e-med2']);
    const rest = playRound(t);
    expect(rest).toEqual(['e-med1', 'e-med2', 'p-slow1', 'p-slow2', 'e-slow1', 'e-slow2', 'e-slow3']);
    expect(t.enc.round).toBe(2);
    expect(t.enc.current).toBe('p-fast');
  });

  it('advances the table clock: one turn per turn ended, one round and 6 seconds per round ended', () => {
    const t = bandExample();
    playRound(t);
    expect(t.world.clock.counts.turn).toBe(10);
    expect(t.world.clock.counts.round).toBe(1);
    expect(t.world.clock.seconds).toBe(6);
  });

  it('shows who is on deck when the next actor is fixed, and null when it is a choice', () => {
    const t = bandExample();
    expect(onDeck(t.world, rules)).toBeNull(); // after the Fast PC come two Medium PCs who choose
    playRound(t, (o) => o[0]!);
    t.ok({ type: 'encounter.endTurn' });
    expect(onDeck(t.world, rules)).toBeNull();
  });

  it('delay moves the actor to a slower band for the rest of the encounter (002 "Delaying your Turn")', () => {
    const t = bandExample();
    expect(t.run({ type: 'encounter.delay', to: { band: 'very-fast' } })?.code).toBe('DELAY_NOT_SLOWER');
    t.ok({ type: 'encounter.delay', to: { band: 'slow' } });
    expect(t.enc.acted).not.toContain('p-fast');
    // The Medium PCs come next; p-fast is now one of the Slow PCs who choose their order.
    t.ok({ type: 'encounter.choose', id: 'p-med1' });
    const order = playRound(t, (o) => o[o.length - 1]!);
    expect(order).toEqual(['p-med1', 'p-med2', 'e-med1', 'e-med2', 'p-slow2', 'p-slow1', 'p-fast', 'e-slow1', 'e-slow2', 'e-slow3']);
    // Next round the Slow band still holds the delayed PC.
    expect(t.enc.pending?.options).toEqual(['p-med1', 'p-med2']);
  });

  it('a readied action triggered the same round moves the actor to the trigger band (002 "Readying an Action")', () => {
    const t = bandExample();
    expect(t.run({ type: 'encounter.ready', action: 'interrupt', trigger: 'x' })?.code).toBe('UNKNOWN_ACTION');
    expect(t.run({ type: 'encounter.ready', action: 'free', trigger: 'x' })?.code).toBe('UNKNOWN_ACTION');
    t.ok({ type: 'encounter.ready', action: 'standard', trigger: 'an enemy charges' });
    expect(t.enc.acted).toEqual(['p-fast']);
    t.ok({ type: 'encounter.choose', id: 'p-med1' });
    t.ok({ type: 'encounter.endTurn' });
    t.ok({ type: 'encounter.endTurn' });
    t.ok({ type: 'encounter.choose', id: 'e-med1' });
    t.ok({ type: 'encounter.triggerReady', id: 'p-fast', before: 'e-med1' });
    expect(t.enc.combatants['p-fast']?.placement).toEqual({ band: 'medium' });
    playRound(t);
    // Round 2: p-fast now acts in Medium with the other PCs.
    expect(t.enc.pending?.options).toEqual(['p-fast', 'p-med1', 'p-med2']);
  });

  it('a readied action taken next round before your turn spends that action type from your turn and keeps the band', () => {
    const t = bandExample();
    // Round 1: play up to p-slow1, who readies a standard action.
    playRoundUntil(t, 'p-slow1');
    t.ok({ type: 'encounter.ready', action: 'standard', trigger: 'an enemy casts' });
    playRound(t);
    expect(t.enc.round).toBe(2);
    // Round 2: a Medium enemy triggers it before p-slow1's turn.
    playRoundUntil(t, 'e-med1');
    t.ok({ type: 'encounter.triggerReady', id: 'p-slow1', before: 'e-med1' });
    expect(t.enc.combatants['p-slow1']?.placement).toEqual({ band: 'slow' });
    playRoundUntil(t, 'p-slow1');
    expect(t.run({ type: 'encounter.spend', combatant: 'p-slow1', kind: 'standard' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.spend', combatant: 'p-slow1', kind: 'move' });
    t.ok({ type: 'encounter.spend', combatant: 'p-slow1', kind: 'quick' });
    // The debt was for one turn only.
    playRound(t);
    playRoundUntil(t, 'p-slow1');
    t.ok({ type: 'encounter.spend', combatant: 'p-slow1', kind: 'standard' });
  });

  it('surprise round: two characters of the ambushing side act, then round 1 begins (002 "Surprise and Ambushes")', () => {
    const t = new Table([encounterModule(rules)]);
    const roster = [pc('a', 'fast'), pc('b', 'slow'), foe('x', 'medium'), foe('y', 'very-fast'), foe('z', 'slow')];
    expect(t.run({ type: 'encounter.start', combatants: roster, surprise: { side: 'foes', actors: ['x', 'y', 'z'] } })?.code).toBe('SURPRISE_ACTORS');
    expect(t.run({ type: 'encounter.start', combatants: roster, surprise: { side: 'foes', actors: ['x', 'a'] } })?.code).toBe('SURPRISE_ACTORS');
    t.ok({ type: 'encounter.start', combatants: roster, surprise: { side: 'foes', actors: ['x', 'z'] } });
    expect(t.enc.round).toBe(0);
    expect(playRound(t)).toEqual(['x', 'z']);
    expect(t.enc.round).toBe(1);
    expect(escalationFor(t.world, rules)).toBe(0);
    expect(playRound(t)).toEqual(['y', 'a', 'x', 'b', 'z']);
  });

  it('the escalation die: 0 in round 1, 1 in round 2, +1 a round to 6; GM offset; suppression (002 "Escalation Die")', () => {
    const t = bandExample();
    const seen: number[] = [];
    for (let r = 1; r <= 9; r++) {
      expect(t.enc.round).toBe(r);
      seen.push(escalationFor(t.world, rules));
      playRound(t);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 6, 6]);
    t.ok({ type: 'encounter.escalationOffset', offset: -2 });
    expect(escalationFor(t.world, rules)).toBe(4);
    t.ok({ type: 'encounter.escalationSuppress', id: 'e-med1', suppressed: true });
    expect(escalationFor(t.world, rules, 'e-med1')).toBe(0);
    expect(escalationFor(t.world, rules, 'p-fast')).toBe(4);
  });

  it('economy: standard, move, quick on your turn with substitution, one interrupt outside it (002 "Actions")', () => {
    const t = bandExample();
    t.ok({ type: 'encounter.spend', combatant: 'p-fast', kind: 'standard' });
    t.ok({ type: 'encounter.spend', combatant: 'p-fast', kind: 'quick' });
    t.ok({ type: 'encounter.spend', combatant: 'p-fast', kind: 'quick' }); // paid with the move action
    expect(t.run({ type: 'encounter.spend', combatant: 'p-fast', kind: 'move' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.spend', combatant: 'p-fast', kind: 'free' });
    expect(t.run({ type: 'encounter.spend', combatant: 'p-fast', kind: 'interrupt' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.spend', combatant: 'e-slow1', kind: 'interrupt' });
    expect(t.run({ type: 'encounter.spend', combatant: 'e-slow1', kind: 'interrupt' })?.code).toBe('NO_ACTIONS_LEFT');
    expect(t.run({ type: 'encounter.spend', combatant: 'e-slow1', kind: 'standard' })?.code).toBe('NO_ACTIONS_LEFT');
    expect(economyOf(t.world, 'p-fast').spent).toMatchObject({ standard: 1, quick: 1, move: 1 });
  });
});
