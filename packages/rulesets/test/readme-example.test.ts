// The engine example in README.md, run as written (keep the two in step).
import { describe, expect, it } from 'vitest';
import { chaseOdds, countdownList, seededRng, type Command } from '@tablekeeper/engine';
import { createTableFor, engineFor } from '../src/index.js';

describe('README: the engine API example', () => {
  it('runs: a chase, a secret countdown, an action roll, a spectator view, undo, replay, odds', () => {
    // --- README example begins
    const engine = engineFor('daggerheart')!;
    const created = createTableFor('daggerheart', { tableId: 't1', name: 'Market chase' });
    if (!created.ok) throw new Error(created.error.message);
    let table = created.value;
    const gm = { rng: seededRng(42), actor: { role: 'gm' } as const };
    const run = (command: Command) => {
      const r = engine.execute(table, command, gm);
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      table = r.value.table;
    };

    run({ type: 'chase.create', name: 'The thief', die: 6, lead: 4 }); // PCs 6, thief 4
    run({ type: 'countdown.create', name: 'Guards arrive', start: 3, visibility: 'hidden', effect: 'The watch blocks the square' });
    run({ type: 'daggerheart.actionRoll', modifier: 2, difficulty: 15 }); // ticks every countdown it should

    const spectator = engine.view(table, { role: 'spectator' }); // no hidden countdown in here
    run({ type: 'history.undo' }); // the roll and every tick it caused are gone
    const replayed = engine.replay(table.genesis, table.transactions); // same state, byte for byte
    const odds = chaseOdds({ progress: 6, consequence: 4 }, { modifier: 2, difficulty: 15 });
    // --- README example ends

    expect(JSON.stringify(spectator)).not.toContain('Guards arrive');
    expect(JSON.stringify(engine.view(table, { role: 'gm' }))).toContain('Guards arrive');
    expect(countdownList(table.world).find((c) => c.name === 'Guards arrive')?.value).toBe(3);
    expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(table.world));
    expect(odds.ok && odds.value.progressFirst + odds.value.consequenceFirst + odds.value.sameRoll).toBeCloseTo(1, 12);
    // Redo brings the recorded roll back (same dice, no reroll): the standard countdown ticked once.
    run({ type: 'history.redo' });
    expect(countdownList(table.world).find((c) => c.name === 'Guards arrive')?.value).toBe(2);
  });
});
