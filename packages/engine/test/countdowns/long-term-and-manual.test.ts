// Long-term countdowns ticked by rests, and the GM's manual commands.
import { describe, expect, it } from 'vitest';
import { GM, PLAYER, SPECTATOR, createdId, evs, table } from './fixtures.js';

const MARIUS = [
  [8, 'The deal is struck; the company mobilizes.'],
  [7, 'The company raids a border town.'],
  [6, 'Troops gather at the border.'],
  [5, 'A second border town falls.'],
  [4, 'The army marches in and holds the captured town.'],
  [3, 'Refugees carry news of the invasion.'],
  [2, "Marius harries the kingdom's army."],
  [1, 'A temple is rededicated to the invaders\u2019 god.'],
  [0, 'All-out war.'],
] as const;

function mariusTable() {
  const s = table();
  const id = createdId(
    s.run({
      type: 'countdown.create',
      name: 'The invasion',
      kind: 'longTerm',
      start: 8,
      effect: 'The invasion becomes an all-out war.',
      // 000 "Example Long-Term Countdown": steps 6 and 3 are where news reaches the party.
      beats: MARIUS.map(([at, text]) => ({ at, text, partyCanLearn: at === 6 || at === 3 })),
    }),
  );
  return { s, id };
}

describe('long-term countdowns (000 "Long-Term Countdowns")', () => {
  it('the Marius example: a short rest ticks once, a long rest twice; 8 ticks reach the war', () => {
    const { s, id } = mariusTable();
    expect(s.cd(id).value).toBe(8);
    s.run({ type: 'clock.advance', unit: 'shortRest' });
    expect(s.cd(id).value).toBe(7);
    s.run({ type: 'clock.advance', unit: 'longRest' });
    expect(s.cd(id).value).toBe(5);
    s.run({ type: 'clock.advance', unit: 'longRest' });
    expect(s.cd(id).value).toBe(3);
    s.run({ type: 'clock.advance', unit: 'shortRest' });
    expect(s.cd(id).value).toBe(2);
    const tx = s.run({ type: 'clock.advance', unit: 'longRest' });
    expect(evs(tx).find((e) => e.type === 'countdown.triggered')?.['effect']).toBe('The invasion becomes an all-out war.');
    expect(s.cd(id)).toMatchObject({ value: 0, status: 'ended' });
  });
  it('action rolls do not tick it', () => {
    const { s, id } = mariusTable();
    s.roll('failureWithFear');
    expect(s.cd(id).value).toBe(8);
  });
  it('two short rests in one advance tick twice', () => {
    const { s, id } = mariusTable();
    s.run({ type: 'clock.advance', unit: 'shortRest', count: 2 });
    expect(s.cd(id).value).toBe(6);
  });
  it('beats the party can learn of reach the players when passed; the others stay with the GM', () => {
    const { s } = mariusTable();
    s.run({ type: 'clock.advance', unit: 'longRest' }); // 8 -> 6: beats 7 and 6
    const gmBeats = s.view(GM).world.log.filter((l) => l.kind === 'countdown.beat').map((l) => l.text);
    expect(gmBeats).toHaveLength(3); // 8 at activation, 7, 6
    const playerBeats = s.view(PLAYER).world.log.filter((l) => l.kind === 'countdown.beat').map((l) => l.text);
    expect(playerBeats).toEqual(['The invasion, 6: Troops gather at the border. (the party can learn of this)']);
    const seen = s.view(PLAYER).world.ext['countdowns'] as { countdowns: Record<string, { beats: { at: number }[] }> };
    expect(Object.values(seen.countdowns)[0]!.beats.map((b) => b.at)).toEqual([6]);
    const text = JSON.stringify(s.view(SPECTATOR));
    expect(text).not.toContain('raids a border town');
    expect(text).not.toContain('All-out war');
  });
  it('undo of a rest puts the countdown back', () => {
    const { s, id } = mariusTable();
    s.run({ type: 'clock.advance', unit: 'longRest' });
    s.undo();
    expect(s.cd(id).value).toBe(8);
    s.redo();
    expect(s.cd(id).value).toBe(6);
  });
  it('rejects a long-term countdown outside 4-12 ticks, and beats on other kinds', () => {
    const s = table();
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', start: 3 }).code).toBe('COUNTDOWN_LONG_TERM_RANGE');
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', start: 13 }).code).toBe('COUNTDOWN_LONG_TERM_RANGE');
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', startDie: '1d12' }).code).toBe('COUNTDOWN_LONG_TERM_RANGE');
    s.run({ type: 'countdown.create', name: 'ok', kind: 'longTerm', startDie: '1d6+3' }); // 4 to 9
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', startDie: '1d6+3', beats: [{ at: 4, text: 'a' }] }).code).toBe('COUNTDOWN_BEATS_FIXED_START');
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 4, beats: [{ at: 1, text: 'a' }] }).code).toBe('COUNTDOWN_BEATS_LONG_TERM_ONLY');
  });
});

describe('log lines for ticks by hand and on rests (review 6)', () => {
  // The GM reads each line's text; a player reads the players' wording where one was written.
  const lines = (s: ReturnType<typeof table>, v = GM) => s.view(v).world.log.filter((l) => l.kind === 'countdown.ticked' || l.kind === 'countdown.unticked').map((l) => (v.role === 'gm' ? l.text : (l.shown ?? l.text)));
  it('the Marius example: a long rest ticks 8 -> 6 and says so, with values for players of a visible countdown', () => {
    const { s } = mariusTable();
    s.run({ type: 'clock.advance', unit: 'longRest' });
    s.run({ type: 'clock.advance', unit: 'shortRest' });
    const said = ['The invasion: 8 -> 6 (a long rest).', 'The invasion: 6 -> 5 (a short rest).'];
    expect(lines(s)).toEqual(said);
    expect(lines(s, PLAYER)).toEqual(said);
  });
  it('a tick and an untick by hand write a line, and so does an action roll\'s tick, naming its outcome (review 12 #14, ADR 92)', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Bridge', start: 5 }));
    s.run({ type: 'countdown.tick', id, by: 2 });
    s.run({ type: 'countdown.untick', id });
    s.roll('successWithFear');
    expect(lines(s)).toEqual(['Bridge: 5 -> 3 (by hand).', 'Bridge: 3 -> 4 (ticks taken back by hand).', 'Bridge: 4 -> 3 (an action roll: a success with Fear).']);
    expect(lines(s, PLAYER)).toEqual(lines(s));
  });
  it('visibility as the countdown\'s: name only reads without numbers, hidden is the GM\'s alone; undo takes the line back', () => {
    const s = table();
    const named = createdId(s.run({ type: 'countdown.create', name: 'The Duke returns', kind: 'longTerm', start: 4, visibility: 'existence' }));
    const secret = createdId(s.run({ type: 'countdown.create', name: 'The cult', kind: 'longTerm', start: 6, visibility: 'hidden' }));
    s.run({ type: 'clock.advance', unit: 'longRest' });
    expect([s.cd(named).value, s.cd(secret).value]).toEqual([2, 4]);
    expect(lines(s)).toEqual(['The Duke returns: 4 -> 2 (a long rest).', 'The cult: 6 -> 4 (a long rest).']);
    expect(lines(s, PLAYER)).toEqual(['The Duke returns ticks (a long rest).']);
    expect(JSON.stringify(s.view(PLAYER).world.log)).not.toContain('4 -> 2');
    s.undo();
    expect(lines(s)).toEqual([]);
  });
});

describe('manual commands', () => {
  it('tick, untick, set, pause and resume', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Bridge', start: 5 }));
    s.run({ type: 'countdown.tick', id, by: 2 });
    expect(s.cd(id).value).toBe(3);
    s.run({ type: 'countdown.untick', id });
    expect(s.cd(id).value).toBe(4);
    s.run({ type: 'countdown.set', id, value: 2 });
    expect(s.cd(id).value).toBe(2);
    s.run({ type: 'countdown.pause', id });
    s.roll('successWithHope');
    expect(s.cd(id).value).toBe(2); // paused: rolls do not tick it
    s.run({ type: 'countdown.tick', id }); // the GM still may
    expect(s.cd(id).value).toBe(1);
    s.run({ type: 'countdown.resume', id });
    s.roll('successWithHope');
    expect(s.cd(id)).toMatchObject({ value: 0, status: 'ended' });
    expect(s.fail({ type: 'countdown.tick', id }).code).toBe('COUNTDOWN_ENDED');
    s.run({ type: 'countdown.set', id, value: 3 }); // set restarts an ended countdown
    expect(s.cd(id)).toMatchObject({ value: 3, status: 'active' });
  });
  it('errors are typed, name the limit, and players may not run GM commands', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'Bridge', start: 5 }));
    expect(s.fail({ type: 'countdown.tick', id }, PLAYER).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'countdown.tick', id: 'nope' }).code).toBe('NOT_FOUND');
    expect(s.fail({ type: 'countdown.tick', id, by: 101 }).message).toContain('100');
    expect(s.fail({ type: 'countdown.untick', id, by: 96 }).message).toContain('100');
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 0 }).code).toBe('INVALID_VALUE');
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 101 }).message).toContain('100');
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 3, startDie: '1d6' }).path).toBe('startDie');
    expect(s.fail({ type: 'countdown.create', name: 'x', startDie: '1d600' }).code).toBe('COUNTDOWN_BAD_DIE');
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 3, kind: 'sideways' }).path).toBe('kind');
    expect(s.fail({ type: 'countdown.create', name: 'x', start: 3, effect: 'y'.repeat(501) }).message).toContain('500');
    expect(s.fail({ type: 'countdown.pause', id: id }, SPECTATOR).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'chase.create', name: 'c', die: 6, lead: 6 }).path).toBe('lead');
  });
  it('remove takes a countdown (or a whole chase) away; undo brings it back', () => {
    const s = table();
    const id = createdId(s.run({ type: 'chase.create', name: 'Run', die: 6, lead: 3 }));
    const before = JSON.stringify(s.world.ext);
    const ch = (s.world.ext['countdowns'] as { chases: Record<string, { progressId: string }> }).chases[id]!;
    s.run({ type: 'countdown.remove', id: ch.progressId });
    expect((s.world.ext['countdowns'] as { order: string[] }).order).toEqual([]);
    s.undo();
    expect(JSON.stringify(s.world.ext)).toBe(before);
  });
});

describe('what the GM sets up is what the table gets', () => {
  it('a GM tick runs the same trigger and reset rules as a roll: Loop 2, Increasing 2, Decreasing 2', () => {
    const s = table();
    const loop = createdId(s.run({ type: 'countdown.create', name: 'Recharge', start: 2, repeat: 'loop', effect: 'Breath' }));
    const inc = createdId(s.run({ type: 'countdown.create', name: 'Tremors', start: 2, repeat: 'increasing' }));
    const dec = createdId(s.run({ type: 'countdown.create', name: 'Rubble', start: 2, repeat: 'decreasing', finalEffect: 'Collapse' }));
    // A tick of 3 from 2 triggers once and resets; the extra tick does not carry over.
    const tx = s.run({ type: 'countdown.tick', id: loop, by: 3 });
    expect(evs(tx).map((e) => e.type)).toEqual(['countdown.ticked', 'countdown.triggered', 'countdown.reset']);
    expect(evs(tx).find((e) => e.type === 'countdown.triggered')).toMatchObject({ effect: 'Breath', count: 1 });
    expect(s.cd(loop)).toMatchObject({ value: 2, start: 2, triggers: 1, status: 'active' });
    s.run({ type: 'countdown.tick', id: inc, by: 2 });
    expect(s.cd(inc)).toMatchObject({ value: 3, start: 3, triggers: 1 });
    s.run({ type: 'countdown.tick', id: dec, by: 2 }); // 2 -> 0: triggers, resets to 1
    expect(s.cd(dec)).toMatchObject({ value: 1, start: 1, triggers: 1, status: 'active' });
    const last = s.run({ type: 'countdown.tick', id: dec }); // 1 -> 0: the reset would be 0
    expect(evs(last).find((e) => e.type === 'countdown.ended')).toMatchObject({ reason: 'finalEvent', finalEffect: 'Collapse' });
    expect(s.cd(dec)).toMatchObject({ value: 0, status: 'ended', endReason: 'finalEvent', triggers: 2 });
    expect(s.world.log.filter((l) => l.kind === 'countdown.reset').map((l) => l.text)).toEqual([
      'Recharge resets to 2.',
      'Tremors resets to 3 (was 2, increasing).',
      'Rubble resets to 1 (was 2, decreasing).',
    ]);
  });
  it('activation and advancement texts are kept as written and shown to players with a visible countdown', () => {
    const s = table();
    const id = createdId(
      s.run({ type: 'countdown.create', name: 'The camp wakes', start: 4, activation: 'The PCs slip into the enemy camp.', advancement: 'Every action roll in the camp.', effect: 'The alarm sounds.' }),
    );
    expect(s.cd(id)).toMatchObject({ activation: 'The PCs slip into the enemy camp.', advancement: 'Every action roll in the camp.', effect: 'The alarm sounds.' });
    const seen = (s.view(PLAYER).world.ext['countdowns'] as { countdowns: Record<string, { activation?: string; advancement?: string }> }).countdowns[id];
    expect(seen).toMatchObject({ activation: 'The PCs slip into the enemy camp.', advancement: 'Every action roll in the camp.' });
  });
  it('restTicks: a long-term countdown may tick 0 on a short rest and 3 on a long one; paused, it ignores rests', () => {
    const s = table();
    const id = createdId(s.run({ type: 'countdown.create', name: 'The plague spreads', kind: 'longTerm', start: 10, restTicks: { shortRest: 0, longRest: 3 } }));
    s.run({ type: 'clock.advance', unit: 'shortRest' });
    expect(s.cd(id).value).toBe(10);
    s.run({ type: 'clock.advance', unit: 'longRest' });
    expect(s.cd(id).value).toBe(7);
    s.run({ type: 'clock.advance', unit: 'longRest', count: 2 });
    expect(s.cd(id).value).toBe(1);
    s.run({ type: 'countdown.pause', id });
    s.run({ type: 'clock.advance', unit: 'longRest' });
    expect(s.cd(id)).toMatchObject({ value: 1, status: 'paused' });
    expect(s.fail({ type: 'countdown.create', name: 'x', kind: 'longTerm', start: 8, restTicks: { longRest: 13 } }).path).toBe('restTicks.longRest');
  });
});
