// Issue 20: the generic encounter commands a GM's or player's control now sends
// (grant, setIncapacitated, triggerReady, cancelExtended, obscure) each leave a
// line in the log in words, and a line about a veiled or hidden combatant keeps
// to what players may know of it.
import { describe, expect, it } from 'vitest';
import type { LogEntry, Viewer } from '../../src/core/types.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { teamsSequencer } from '../../src/encounter/sequencers/teams.js';
import { BANDS_ECONOMY, TEAMS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, economyOf } from '../../src/encounter/module.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table, playRoundUntil } from './harness.js';

const bands: EncounterRules = { sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: [] };
const teams: EncounterRules = { sequencer: teamsSequencer(), economy: TEAMS_ECONOMY, conditions: [] };
const player: Viewer = { role: 'player', seatId: 's1' };

/** The log lines a viewer reads: their own text (a veiled combatant's line reads "Unknown" to players). */
function linesFor(t: Table, viewer: Viewer): string[] {
  return t.engine.view(t.table, viewer).world.log.map((e: LogEntry) => e.text);
}
const last = (t: Table, viewer: Viewer = { role: 'gm' }): string | undefined => linesFor(t, viewer).at(-1);

function bandsFight(): Table {
  const t = new Table([encounterModule(bands)]);
  t.ok({
    type: 'encounter.start',
    combatants: [
      { id: 'kira', name: 'Kira', kind: 'pc', side: 'pcs', band: 'fast' },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
      { id: 'bram', name: 'Bram', kind: 'pc', side: 'pcs', band: 'slow' },
    ],
  });
  return t;
}

describe('grant and setIncapacitated say what changed', () => {
  it('a grant adds to the pool and says how many of which', () => {
    const t = bandsFight();
    t.ok({ type: 'encounter.grant', characterId: 'kira', pool: 'quick' });
    expect(economyOf(t.world, 'kira').granted).toEqual({ quick: 1 });
    expect(last(t, player)).toBe('Kira gets +1 quick (an extra action granted).');
    t.ok({ type: 'encounter.grant', characterId: 'kira', pool: 'move', n: 2 });
    expect(last(t, player)).toBe('Kira gets +2 move (extra actions granted).');
    // A pool the economy does not have is refused by name.
    expect(t.run({ type: 'encounter.grant', characterId: 'kira', pool: 'reaction' })?.message).toContain('standard, move, quick, interrupt');
  });

  it('marking unable to act logs once per change, and the way back', () => {
    const t = bandsFight();
    const before = linesFor(t, player).length;
    t.ok({ type: 'encounter.setIncapacitated', characterId: 'orc', value: true });
    expect(t.enc.combatants['orc']?.incapacitated).toBe(true);
    expect(last(t, player)).toBe('Orc cannot act.');
    // The same value again changes nothing and says nothing.
    t.ok({ type: 'encounter.setIncapacitated', characterId: 'orc', value: true });
    expect(linesFor(t, player)).toHaveLength(before + 1);
    t.ok({ type: 'encounter.setIncapacitated', characterId: 'orc', value: false });
    expect(last(t, player)).toBe('Orc can act again.');
  });

  it('a veiled combatant is "Unknown" in players\' lines and named in the GM\'s; a hidden one\'s line is the GM\'s only', () => {
    const t = bandsFight();
    t.ok({ type: 'encounter.obscure', characterId: 'orc' });
    expect(last(t)).toBe('Orc is now only known to the players.');
    t.ok({ type: 'encounter.grant', characterId: 'orc', pool: 'standard' });
    expect(last(t)).toBe('Orc gets +1 standard (an extra action granted).');
    expect(last(t, player)).toBe('Unknown gets +1 standard (an extra action granted).');
    // The world players hold now names it nowhere (its start, while it was shown, stays in their history).
    expect(JSON.stringify(t.engine.view(t.table, player).world)).not.toContain('Orc');
    t.ok({ type: 'encounter.hide', characterId: 'orc' });
    const seen = linesFor(t, player).length;
    t.ok({ type: 'encounter.setIncapacitated', characterId: 'orc', value: true });
    expect(last(t)).toBe('Orc cannot act.');
    expect(linesFor(t, player)).toHaveLength(seen);
  });
});

describe('a readied action taken before another\'s turn (002 "Readying an Action")', () => {
  it('names the one who readied, the action and whose turn it comes before', () => {
    const t = bandsFight();
    t.ok({ type: 'encounter.ready', action: 'standard', trigger: 'the orc moves' });
    expect(t.enc.combatants['kira']?.readied).toMatchObject({ action: 'standard', trigger: 'the orc moves' });
    playRoundUntil(t, 'orc');
    t.ok({ type: 'encounter.triggerReady', characterId: 'kira', beforeId: 'orc' });
    expect(t.enc.combatants['kira']?.readied).toBeNull();
    expect(last(t, player)).toBe("Kira takes the readied standard before Orc's turn.");
    // Nothing readied any more: refused in words.
    expect(t.run({ type: 'encounter.triggerReady', characterId: 'kira', beforeId: 'orc' })?.code).toBe('NOT_READIED');
  });

  it('before a veiled combatant, players read "Unknown" for it', () => {
    const t = bandsFight();
    t.ok({ type: 'encounter.ready', action: 'standard', trigger: 'something moves' });
    t.ok({ type: 'encounter.obscure', characterId: 'orc' });
    t.ok({ type: 'encounter.triggerReady', characterId: 'kira', beforeId: 'orc' });
    expect(last(t)).toBe("Kira takes the readied standard before Orc's turn.");
    expect(last(t, player)).toBe("Kira takes the readied standard before Unknown's turn.");
  });
});

describe('cancelling an extended action (003 "Extended Actions")', () => {
  it('clears it, keeps what was spent, and says so; nothing under way is refused', () => {
    const t = new Table([encounterModule(teams)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'petra', name: 'Petra', kind: 'pc', side: 'players' }, { id: 'captain', name: 'Captain', kind: 'npc', side: 'guards' }], params: { teamOrder: ['players', 'guards'] } });
    // The players' only member acts first without a choice.
    expect(t.enc.current).toBe('petra');
    t.ok({ type: 'encounter.spend', characterId: 'petra', kind: 'action', cost: 4, label: 'reload' });
    expect(economyOf(t.world, 'petra').extended).toEqual({ label: 'reload', pool: 'actions', remaining: 1 });
    t.ok({ type: 'encounter.cancelExtended', characterId: 'petra' });
    expect(economyOf(t.world, 'petra').extended).toBeNull();
    expect(economyOf(t.world, 'petra').spent['actions']).toBe(3);
    expect(last(t, player)).toBe('Petra stops reload: the actions spent on it are gone.');
    expect(t.run({ type: 'encounter.cancelExtended', characterId: 'petra' })?.code).toBe('NO_EXTENDED');
  });
});
