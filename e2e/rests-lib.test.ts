// Between fights (issue 20): every ruleset either offers rests that are its
// own commands or says, from its rule text, why it has none.
import { describe, expect, it } from 'vitest';
import { rulesetIds } from '@tablekeeper/rulesets';
import { clockRestsOf, restNoteOf, restsOf } from '@tablekeeper/rulesets/browser';

describe('rests between fights', () => {
  it.each(rulesetIds)('%s: rest buttons, or a note on what its rule text says instead', (id) => {
    const rests = restsOf(id);
    const note = restNoteOf(id);
    expect(rests.length > 0 ? note : rests.length).toBe(rests.length > 0 ? null : 0);
    if (rests.length === 0) expect(note).toMatch(/^Text 00\d /);
  });

  it('no clock panel of the five offers a rest its ruleset does not have (ADR 44): the plain rests are for unknown rulesets only', () => {
    expect(rulesetIds.filter((id) => clockRestsOf(id))).toEqual([]);
    expect(clockRestsOf('no-such-rules')).toBe(true);
  });
  it('says the teams text (003) has no rest rule and where the Kleptonomicon (004) resets', () => {
    expect(restNoteOf('teams')).toContain('Text 003 has no rest rule');
    expect(restNoteOf('kleptonomicon')).toContain('Closing Credits');
    expect(restNoteOf('no-such-rules')).toBe('This ruleset has no rest rule: move the clock with the buttons above.');
  });
});
