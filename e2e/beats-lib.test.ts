// A long-term countdown's story beats typed in the "New countdown" form (review 11 #4; 000 "Long-Term
// Countdowns": a beat written for each tick): the lines read into countdown.create's beats, bad lines are
// refused in words naming the line, and the engine takes what the form sends and logs each beat reached.
import { describe, expect, it } from 'vitest';
import { getCountdowns, scenario, seededRng, type Json } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor } from '@tablekeeper/rulesets';
import { parseBeats } from '../packages/web/src/lib/beats.ts';

describe('parseBeats', () => {
  it('reads "value: what happens" lines, blank lines skipped', () => {
    expect(parseBeats('5: the cult recruits the mayor\n\n 2 : the ritual site is chosen \n0: the ritual', 6)).toEqual({
      ok: true,
      beats: [
        { at: 5, text: 'the cult recruits the mayor', partyCanLearn: false },
        { at: 2, text: 'the ritual site is chosen', partyCanLearn: false },
        { at: 0, text: 'the ritual', partyCanLearn: false },
      ],
    });
    expect(parseBeats('', 6)).toEqual({ ok: true, beats: [] });
  });

  it('refuses a line without a value, past the start, a second beat at one value, or with nothing said, naming the line', () => {
    expect(parseBeats('the cult rises', 6)).toEqual({ ok: false, message: 'Story beat line 1 must start with the value it happens at, then a colon: "3: the cult takes the mayor".' });
    expect(parseBeats('3: a\n7: b', 6)).toEqual({ ok: false, message: 'Story beat line 2: 7 is past the start (6); a beat happens at a value from 0 to 6.' });
    expect(parseBeats('3: a\n3: b', 6)).toEqual({ ok: false, message: 'Story beat line 2: there is already a beat at 3; one beat per value.' });
    expect(parseBeats('4:', 6)).toEqual({ ok: false, message: 'Story beat line 1: say what happens at 4.' });
  });

  it('what the form sends is a countdown.create the engine takes; ticking past a beat logs it', () => {
    const s = scenario(engineFor('daggerheart')!.modules, { rng: countingIds(seededRng(1)), rulesetId: 'daggerheart' });
    const read = parseBeats('!5: the cult recruits the mayor\n4: the ritual site is chosen', 6);
    if (!read.ok) throw new Error(read.message);
    const beats = read.beats;
    s.run({ type: 'countdown.create', name: 'Cult rises', kind: 'longTerm', repeat: 'once', visibility: 'visible', effect: '', start: 6, beats } as unknown as { type: string; [k: string]: Json });
    const cd = Object.values(getCountdowns(s.world).countdowns)[0]!;
    expect(cd.beats).toEqual(beats);
    s.run({ type: 'countdown.tick', countdownId: cd.id, by: 1 });
    expect(s.world.log.map((l) => l.text)).toContain('Cult rises, 5: the cult recruits the mayor (the party can learn of this)');
    expect(s.world.log.map((l) => l.text)).not.toContain('Cult rises, 4: the ritual site is chosen (the party can learn of this)');
  });

  it('a leading "!" marks one beat as news the party may learn of, line by line (spaces allowed); unmarked beats are the GM\'s', () => {
    expect(parseBeats('! 6 : troops gather\n5: a town falls\n!3: refugees bring the news', 8)).toEqual({
      ok: true,
      beats: [
        { at: 6, text: 'troops gather', partyCanLearn: true },
        { at: 5, text: 'a town falls', partyCanLearn: false },
        { at: 3, text: 'refugees bring the news', partyCanLearn: true },
      ],
    });
    // The marker goes before the value; after it, the line reads as no value at all.
    expect(parseBeats('6!: troops gather', 8)).toEqual({ ok: false, message: 'Story beat line 1 must start with the value it happens at, then a colon: "3: the cult takes the mayor".' });
    expect(parseBeats('!', 8)).toEqual({ ok: false, message: 'Story beat line 1 must start with the value it happens at, then a colon: "3: the cult takes the mayor".' });
  });

  it('000 "Example Long-Term Countdown": nine beats from 8, steps 6 and 3 marked; ticked to 0, only those two reach a player, in the view and in the log', () => {
    const s = scenario(engineFor('daggerheart')!.modules, { rng: countingIds(seededRng(1)), rulesetId: 'daggerheart' });
    const seat = s.run({ type: 'seat.add', name: 'Ann' });
    const player = { role: 'player' as const, seatId: String(seat.kind === 'command' ? seat.events[0]!['id'] : '') };
    // The invasion's steps in our words; the GM marks the two where news would reach the party.
    const typed = ['8: a deal is struck, the company mobilizes', '7: a border town is raided', '!6: troops gather at the border', '5: a second town is taken', '4: the army marches in', '!3: refugees flee with news of the invasion', '2: the captain harries the defenders', '1: a temple is rededicated', '0: open war'].join('\n');
    const read = parseBeats(typed, 8);
    if (!read.ok) throw new Error(read.message);
    expect(read.beats.filter((b) => b.partyCanLearn).map((b) => b.at)).toEqual([6, 3]);
    s.run({ type: 'countdown.create', name: 'Invasion', kind: 'longTerm', repeat: 'once', visibility: 'visible', start: 8, beats: read.beats } as unknown as { type: string; [k: string]: Json });
    const cd = Object.values(getCountdowns(s.world).countdowns)[0]!;
    const seen = () => (getCountdowns(s.view(player).world).countdowns[cd.id]!.beats ?? []).map((b) => b.at);
    const reached: number[][] = [];
    for (let v = 8; v > 0; v--) {
      s.run({ type: 'countdown.tick', countdownId: cd.id, by: 1 });
      reached.push(seen());
    }
    // Values 7 down to 0: 6 shows from the tick that reaches it, 3 joins it; 8, 7, 5, 4, 2, 1 and 0 never reach the player.
    expect(reached).toEqual([[], [6], [6], [6], [6, 3], [6, 3], [6, 3], [6, 3]]);
    const playerLog = s.view(player).world.log.map((l) => l.text).filter((t) => t.startsWith('Invasion, '));
    expect(playerLog).toEqual(['Invasion, 6: troops gather at the border (the party can learn of this)', 'Invasion, 3: refugees flee with news of the invasion (the party can learn of this)']);
    // The GM's log has all nine (8 is reached at the start).
    expect(s.world.log.map((l) => l.text).filter((t) => t.startsWith('Invasion, '))).toHaveLength(9);
  });
});
