// The countdowns panel in each ruleset's words (ADR 52) and the TV's clock,
// without a browser: which kinds the "New countdown" form offers, what the
// outcome buttons say, whether the duality odds apply, the visibility chips'
// words; and the clock the TV shows from a spectator's projection.
import { describe, expect, it } from 'vitest';
import { DUALITY_OUTCOMES, scenario, seededRng, ticksFor, VISIBILITIES } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { countdownWordsOf, visibilityChip, VISIBILITY_WORDS } from '@tablekeeper/rulesets/browser';
import { tvModel } from '../packages/web/src/lib/tv.ts';
import { timeOfDay } from '../packages/web/src/lib/clock.ts';

const RULESETS = ['daggerheart', 'osr', '36th-way', 'teams', 'kleptonomicon'] as const;

describe('countdown words per ruleset', () => {
  it('Daggerheart offers every kind, its action roll\'s five outcomes with Hope and Fear, and the duality odds (000 "Countdowns")', () => {
    const w = countdownWordsOf('daggerheart');
    expect(w.kinds.map((k) => k.value)).toEqual(['standard', 'progress', 'consequence', 'longTerm', 'manual']);
    expect(w.outcomes.map((o) => o.label)).toEqual(['Critical', 'Success with Hope', 'Success with Fear', 'Failure with Hope', 'Failure with Fear']);
    expect([w.rollLabel, w.dualityOdds]).toEqual(['Action roll', true]);
  });

  it('no other ruleset offers the kinds that tick on action rolls, names Hope or Fear, or shows odds of an action roll', () => {
    for (const id of RULESETS.filter((r) => r !== 'daggerheart')) {
      const w = countdownWordsOf(id);
      expect(w.kinds.map((k) => k.value), id).not.toContain('standard');
      expect(w.kinds.map((k) => k.value), id).not.toContain('progress');
      expect(w.kinds.map((k) => k.value), id).not.toContain('consequence');
      expect(w.kinds[0]!.value, id).toBe('manual');
      expect(JSON.stringify([w.rollLabel, ...w.kinds.map((k) => k.label), ...w.outcomes.map((o) => o.label)]), id).not.toMatch(/Hope|Fear|action roll/i);
      expect(w.dualityOdds, id).toBe(false);
    }
  });

  it('long-term countdowns only where rests tick them: OSR nights and the 36th Way\'s rests, not teams (003 has no rest) or the Kleptonomicon (004 resets by Episode)', () => {
    const longTerm = (id: string) => countdownWordsOf(id).kinds.some((k) => k.value === 'longTerm');
    expect(RULESETS.map(longTerm)).toEqual([true, true, true, false, false]);
  });

  it('every table keeps all five outcome buttons (a chase is judged by them), in the engine\'s outcomes, neutral words keeping the table\'s order', () => {
    for (const id of RULESETS) expect(new Set(countdownWordsOf(id).outcomes.map((o) => o.value))).toEqual(new Set(DUALITY_OUTCOMES));
    // The neutral words follow the advancement table: progress 3/2/1/0/0, consequence 0/0/1/1/2.
    const osr = countdownWordsOf('osr').outcomes;
    expect(osr.map((o) => [o.label, ticksFor('progress', o.value), ticksFor('consequence', o.value)])).toEqual([
      ['Critical success', 3, 0],
      ['Clean success', 2, 0],
      ['Success at a cost', 1, 1],
      ['Failure', 0, 1],
      ['Failure with a complication', 0, 2],
    ]);
  });

  it('an unknown ruleset gets every kind in neutral words', () => {
    const w = countdownWordsOf('chess');
    expect(w.kinds).toHaveLength(5);
    expect(JSON.stringify(w.outcomes.map((o) => o.label))).not.toMatch(/Hope|Fear/);
    expect(countdownWordsOf('__proto__').dualityOdds).toBe(false);
  });

  it('visibility chips are words, never keys: "Name only", "Reveal when it triggers"; an unknown key reads Hidden', () => {
    expect(['existence', 'reveal-on-trigger', 'hidden', 'visible', 'nonsense'].map(visibilityChip)).toEqual(['Name only', 'Reveal when it triggers', 'Hidden', 'Visible', 'Hidden']);
    // One word for every visibility the engine knows.
    expect(new Set(VISIBILITY_WORDS.map((v) => v.value))).toEqual(new Set(VISIBILITIES));
  });
});

describe('the TV shows the clock', () => {
  it('a fight over in round 3 on an OSR table: the TV reads Day 1, 00:00:18 (3 rounds of 6 s), and the round while it runs', () => {
    const settings = resolveSettings('osr');
    if (!settings.ok) throw new Error(settings.error.message);
    const s = scenario(engineFor('osr')!.modules, { rng: countingIds(seededRng(5)), rulesetId: 'osr', settings: settings.value });
    expect(tvModel(s.view({ role: 'spectator' }).world).clock).toBe('Day 1, 00:00');
    s.run({ type: 'encounter.start', combatants: [{ id: 'a', name: 'Kira', kind: 'pc', side: 'pcs', stats: { dex: 12 } }, { id: 'g', name: 'Goblin', kind: 'npc', side: 'npcs', stats: { dex: 8, hp: 4 } }] });
    for (let i = 0; i < 50 && (s.world.ext['encounter'] as { round: number }).round < 3; i++) {
      const enc = s.world.ext['encounter'] as { current: string | null; pending: { default: string | null; options: string[] } | null };
      if (enc.current !== null) s.run({ type: 'encounter.endTurn' });
      else if (enc.pending !== null) s.run({ type: 'encounter.choose', id: enc.pending.default ?? enc.pending.options[0]! });
      else s.run({ type: 'encounter.advance' });
    }
    const during = tvModel(s.view({ role: 'spectator' }).world);
    expect([during.round, during.clock]).toEqual(['Round 3', 'Day 1, 00:00:12']);
    s.run({ type: 'encounter.end' });
    expect(tvModel(s.view({ role: 'spectator' }).world).clock).toBe('Day 1, 00:00:18');
    expect(timeOfDay(86400 + 8 * 3600 + 600)).toBe('Day 2, 08:10');
  });
});
