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
        { at: 5, text: 'the cult recruits the mayor' },
        { at: 2, text: 'the ritual site is chosen' },
        { at: 0, text: 'the ritual' },
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
    const read = parseBeats('5: the cult recruits the mayor\n4: the ritual site is chosen', 6);
    if (!read.ok) throw new Error(read.message);
    const beats = read.beats.map((b) => ({ ...b, partyCanLearn: true }));
    s.run({ type: 'countdown.create', name: 'Cult rises', kind: 'longTerm', repeat: 'once', visibility: 'visible', effect: '', start: 6, beats } as unknown as { type: string; [k: string]: Json });
    const cd = Object.values(getCountdowns(s.world).countdowns)[0]!;
    expect(cd.beats).toEqual(beats);
    s.run({ type: 'countdown.tick', countdownId: cd.id, by: 1 });
    expect(s.world.log.map((l) => l.text)).toContain('Cult rises, 5: the cult recruits the mayor (the party can learn of this)');
    expect(s.world.log.map((l) => l.text)).not.toContain('Cult rises, 4: the ritual site is chosen (the party can learn of this)');
  });
});
