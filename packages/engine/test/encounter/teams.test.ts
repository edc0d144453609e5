// 003 "Initiative and Rounds", "Surprise", "Actions in Combat".
import { describe, expect, it } from 'vitest';
import { teamsSequencer } from '../../src/encounter/sequencers/teams.js';
import { TEAMS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, economyOf } from '../../src/encounter/module.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table, playRound } from './harness.js';

const rules: EncounterRules = { sequencer: teamsSequencer(), economy: TEAMS_ECONOMY, conditions: [] };
const player = (id: string, extra: object = {}) => ({ id, kind: 'pc', side: 'players', ...extra });
const guard = (id: string) => ({ id, kind: 'npc', side: 'guards' });

function guardsFight(players = ['roland', 'clementine', 'petra', 'agnessa'], guards = ['captain', 'guard1', 'guard2']): Table {
  const t = new Table([encounterModule(rules)]);
  // A player attacked first, so the players hold the highest initiative and the guards the next.
  t.ok({ type: 'encounter.start', combatants: [...players.map((p) => player(p)), ...guards.map(guard)], params: { teamOrder: ['players', 'guards'] } });
  return t;
}

describe('team alternation (003 "Initiative and Rounds")', () => {
  it('needs the team order, with every team present', () => {
    const t = new Table([encounterModule(rules)]);
    expect(t.run({ type: 'encounter.start', combatants: [player('a'), guard('g')] })?.code).toBe('TEAM_ORDER');
    expect(t.run({ type: 'encounter.start', combatants: [player('a'), guard('g')], params: { teamOrder: ['players'] } })?.code).toBe('TEAM_ORDER');
  });

  it('the guards example: players pick Roland, guards the captain, players Clementine, guards a guard, and so on', () => {
    const t = guardsFight();
    expect(t.enc.pending?.prompt).toBe('Team players: choose who acts');
    expect(t.enc.pending?.chooser).toEqual({ kind: 'players', side: 'players' });
    t.ok({ type: 'encounter.choose', id: 'roland' });
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.pending?.chooser).toEqual({ kind: 'gm' });
    expect(t.enc.pending?.options).toEqual(['captain', 'guard1', 'guard2']);
    t.ok({ type: 'encounter.choose', id: 'captain' });
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.pending?.options).toEqual(['clementine', 'petra', 'agnessa']); // Roland already acted
    t.ok({ type: 'encounter.choose', id: 'clementine' });
    t.ok({ type: 'encounter.endTurn' });
    t.ok({ type: 'encounter.choose', id: 'guard2' });
    t.ok({ type: 'encounter.endTurn' });
    const rest = playRound(t);
    expect(rest).toEqual(['petra', 'guard1', 'agnessa']);
    expect(t.enc.round).toBe(2);
    // A new round: the players may choose a different order.
    t.ok({ type: 'encounter.choose', id: 'agnessa' });
    expect(t.enc.current).toBe('agnessa');
  });

  it('players answer their own team\'s decision only with their own character; the GM answers the guards\'', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({
      type: 'encounter.start',
      combatants: [player('roland', { characterId: 'ch-roland' }), player('clementine', { characterId: 'ch-clem' }), guard('captain'), guard('guard1')],
      params: { teamOrder: ['players', 'guards'] },
    });
    const ann = { role: 'player', seatId: 's1' } as const;
    expect(t.run({ type: 'encounter.choose', id: 'clementine' }, ann)?.code).toBe('FORBIDDEN');
    t.ok({ type: 'encounter.choose', id: 'roland' }, ann);
    expect(t.run({ type: 'encounter.endTurn' }, { role: 'spectator' })?.code).toBe('FORBIDDEN');
    t.ok({ type: 'encounter.endTurn' }, ann);
    expect(t.run({ type: 'encounter.choose', id: 'captain' }, ann)?.code).toBe('FORBIDDEN');
    t.ok({ type: 'encounter.choose' }); // the GM takes the default
    expect(t.enc.current).toBe('captain');
  });

  it('a team that runs out of members is skipped: four players against two guards', () => {
    const t = guardsFight(['roland', 'clementine', 'petra', 'agnessa'], ['captain', 'guard1']);
    expect(playRound(t)).toEqual(['roland', 'captain', 'clementine', 'guard1', 'petra', 'agnessa']);
  });

  it('the knocked-out-and-revived character: Roland loses his turn while unconscious and takes it after the guards once revived', () => {
    const t = guardsFight(['roland', 'clementine'], ['captain', 'guard1', 'guard2']);
    t.ok({ type: 'encounter.choose', id: 'clementine' });
    t.ok({ type: 'encounter.endTurn' });
    t.ok({ type: 'encounter.choose', id: 'guard1' });
    // The guard knocks Roland unconscious before he has taken his turn.
    t.ok({ type: 'encounter.setIncapacitated', id: 'roland', value: true });
    t.ok({ type: 'encounter.endTurn' });
    // The players have nobody able left: the guards keep going.
    expect(t.enc.pending?.options).toEqual(['captain', 'guard2']);
    t.ok({ type: 'encounter.choose', id: 'captain' });
    // Revived (say by an ally's interrupt) during the captain's turn.
    t.ok({ type: 'encounter.setIncapacitated', id: 'roland', value: false });
    t.ok({ type: 'encounter.endTurn' });
    // A guard just acted, so it passes to the players, who give Roland his turn.
    expect(t.enc.current).toBe('roland');
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('guard2');
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.round).toBe(2);
  });

  it('the text\'s order: Roland down before his turn, Clementine revives him, the guards go, then Roland', () => {
    const t = guardsFight(['roland', 'clementine', 'petra'], ['captain', 'guard1', 'guard2']);
    t.ok({ type: 'encounter.choose', id: 'petra' });
    t.ok({ type: 'encounter.endTurn' });
    t.ok({ type: 'encounter.choose', id: 'guard1' });
    t.ok({ type: 'encounter.setIncapacitated', id: 'roland', value: true });
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('clementine'); // Roland cannot act: Clementine is the only choice
    t.ok({ type: 'encounter.setIncapacitated', id: 'roland', value: false }); // Resuscitate
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.pending?.options).toEqual(['captain', 'guard2']); // a player just went: the guards' pick
    t.ok({ type: 'encounter.choose', id: 'captain' });
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('roland');
  });

  it('surprise: only the surprising team acts, plus anyone who cannot be surprised, alternating as usual (003 "Surprise")', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({
      type: 'encounter.start',
      combatants: [player('roland'), player('clementine', { unsurprisable: true }), { id: 'gob1', kind: 'npc', side: 'goblins' }, { id: 'gob2', kind: 'npc', side: 'goblins' }],
      params: { teamOrder: ['goblins', 'players'] },
      surprise: { side: 'goblins' },
    });
    expect(t.enc.round).toBe(0);
    expect(playRound(t)).toEqual(['gob1', 'clementine', 'gob2']);
    expect(t.enc.round).toBe(1);
    expect(playRound(t, (o) => o[0]!)).toEqual(['gob1', 'roland', 'gob2', 'clementine']);
  });

  it('three actions and one reaction; the reaction comes back at the start of your turn; Wait grants another (003 "Actions in Combat")', () => {
    const t = guardsFight(['roland', 'clementine'], ['captain']);
    t.ok({ type: 'encounter.choose', id: 'roland' });
    t.ok({ type: 'encounter.spend', combatant: 'roland', kind: 'action', tag: 'move', limit: 'turn' });
    expect(t.run({ type: 'encounter.spend', combatant: 'roland', kind: 'action', tag: 'move', limit: 'turn' })?.code).toBe('LIMIT_REACHED');
    t.ok({ type: 'encounter.spend', combatant: 'roland', kind: 'action', cost: 2, label: 'resuscitate' });
    expect(t.run({ type: 'encounter.spend', combatant: 'roland', kind: 'action' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.endTurn' });
    // Reactions on another character's turn.
    t.ok({ type: 'encounter.spend', combatant: 'roland', kind: 'reaction' });
    expect(t.run({ type: 'encounter.spend', combatant: 'roland', kind: 'reaction' })?.code).toBe('NO_ACTIONS_LEFT');
    t.ok({ type: 'encounter.grant', combatant: 'roland', pool: 'reaction', n: 1 });
    t.ok({ type: 'encounter.spend', combatant: 'roland', kind: 'reaction' });
    playRound(t);
    t.ok({ type: 'encounter.choose', id: 'roland' });
    expect(economyOf(t.world, 'roland').spent['reaction']).toBe(0);
    expect(economyOf(t.world, 'roland').turnTags).toEqual([]);
  });

  it('Ready an Action ends the turn; the readied reaction lasts until the next turn and costs no action when triggered (003 Actions table)', () => {
    const t = guardsFight(['roland', 'clementine'], ['captain']);
    t.ok({ type: 'encounter.choose', id: 'roland' });
    t.ok({ type: 'encounter.ready', action: 'action', trigger: 'a guard steps through the door' });
    expect(t.enc.acted).toEqual(['roland']);
    expect(t.enc.current).toBe('captain');
    t.ok({ type: 'encounter.triggerReady', id: 'roland', before: 'captain' });
    expect(t.enc.combatants['roland']?.readied).toBeNull();
    playRound(t);
    t.ok({ type: 'encounter.choose', id: 'roland' });
    expect(economyOf(t.world, 'roland').spent['actions']).toBe(0);
  });

  it('extended actions span turns and can be cancelled at no cost (003, Petra reloading)', () => {
    const t = guardsFight(['petra', 'clementine'], ['captain']);
    t.ok({ type: 'encounter.choose', id: 'petra' });
    t.ok({ type: 'encounter.spend', combatant: 'petra', kind: 'action', label: 'fire crossbow' });
    t.ok({ type: 'encounter.spend', combatant: 'petra', kind: 'action', label: 'seek cover' });
    t.ok({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 2, label: 'reload' });
    expect(economyOf(t.world, 'petra').extended).toEqual({ label: 'reload', pool: 'actions', remaining: 1 });
    playRound(t);
    t.ok({ type: 'encounter.choose', id: 'petra' });
    // Her first action must finish the reload (or she cancels it).
    expect(t.run({ type: 'encounter.spend', combatant: 'petra', kind: 'action', label: 'fire crossbow' })?.code).toBe('EXTENDED_PENDING');
    const ev = t.ok({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 2, label: 'reload' });
    expect(ev[0]?.['completed']).toBe('reload');
    expect(economyOf(t.world, 'petra').spent['actions']).toBe(1);
    expect(economyOf(t.world, 'petra').extended).toBeNull();
    // Cancelling costs nothing.
    t.ok({ type: 'encounter.spend', combatant: 'petra', kind: 'action', cost: 3, label: 'short task' });
    expect(economyOf(t.world, 'petra').extended?.remaining).toBe(1);
    t.ok({ type: 'encounter.cancelExtended', combatant: 'petra' });
    expect(economyOf(t.world, 'petra').spent['actions']).toBe(3);
    expect(economyOf(t.world, 'petra').extended).toBeNull();
  });
});
