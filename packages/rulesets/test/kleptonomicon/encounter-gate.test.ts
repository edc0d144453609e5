// The Episode's phases gate a new Encounter in the engine (issue 20, ADR 74):
// none starts in the Opening or Closing Credits, one starts from Freeplay or
// an ended fight's Reward phase, and a stored log whose fight began in the
// Opening Credits (before the gate) still replays. Between Episodes is open only
// to a table that never started an Episode (ADR 81).
import { describe, expect, it } from 'vitest';
import { getEncounter, scenario, seededRng, type Json, type Scenario, type Transaction } from '@tablekeeper/engine';
import { ruleset } from '../../src/kleptonomicon/index.js';
import { getKlepto } from '../../src/kleptonomicon/state.js';

const FOES: Json[] = [
  { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } },
  { id: 'hound1', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound', edgeSave: 0 } },
];
const start = { type: 'encounter.start', combatants: FOES };

function table(): Scenario {
  return scenario(ruleset.modules, { rng: seededRng(11), rulesetId: 'kleptonomicon' });
}

describe('Kleptonomicon: encounter.start follows the Episode phase', () => {
  it('is refused in words during the Opening Credits, and starts once in Freeplay', () => {
    const s = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    expect(getKlepto(s.world).phase).toBe('opening');
    const e = s.fail(start);
    expect(e.code).toBe('OPENING_CREDITS');
    expect(e.message).toBe('no Encounter starts during the Opening Credits: go to Freeplay first, then start it');
    expect(getEncounter(s.world).active).toBe(false);
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run(start);
    expect(getEncounter(s.world).active).toBe(true);
    expect(getKlepto(s.world).phase).toBe('encounter');
  });

  it('starts the next fight from the Reward phase, and is refused in the Closing Credits', () => {
    const s = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run(start);
    s.run({ type: 'encounter.end' });
    expect(getKlepto(s.world).encounterPhase).toBe('reward');
    s.run(start);
    expect(getEncounter(s.world).number).toBe(2);
    s.run({ type: 'encounter.end' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'kleptonomicon.closingCredits' });
    expect(getKlepto(s.world).phase).toBe('closing');
    const e = s.fail(start);
    expect(e.code).toBe('CLOSING_CREDITS');
    expect(e.message).toContain('end this Episode');
  });

  it('still starts one Between Episodes at a table that never started an Episode (it does not play the phases)', () => {
    const s = table();
    expect(getKlepto(s.world).phase).toBe('between');
    expect(getKlepto(s.world).episode).toBe(0);
    s.run(start);
    expect(getEncounter(s.world).active).toBe(true);
  });

  it('is refused Between Episodes once the table has played one (ADR 81): the sentence says what to do, and the next Episode opens the way', () => {
    const s = table();
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'kleptonomicon.closingCredits' });
    s.run({ type: 'kleptonomicon.endEpisode' });
    expect(getKlepto(s.world)).toMatchObject({ phase: 'between', episode: 1 });
    const e = s.fail(start);
    expect(e.code).toBe('BETWEEN_EPISODES');
    expect(e.message).toBe('no Encounter starts between Episodes once the table plays them: start the next Episode, go to Freeplay, then start it');
    expect(getEncounter(s.world).active).toBe(false);
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run(start);
    expect(getEncounter(s.world).active).toBe(true);
  });

  it('replays a stored log whose fight began in the Opening Credits', () => {
    // The fight's transaction as a table from before the gate stored it: decided in Freeplay
    // elsewhere, then recorded right after the Opening Credits began here.
    const other = table();
    other.run({ type: 'kleptonomicon.startEpisode' });
    other.run({ type: 'kleptonomicon.freeplay' });
    const fight = other.run(start);
    const s = table();
    const opened = s.run({ type: 'kleptonomicon.startEpisode' });
    const old: Transaction[] = [opened, { ...fight, seq: opened.seq + 1 }];
    const replayed = s.engine.replay(s.table.genesis, old);
    expect(getEncounter(replayed.world).active).toBe(true);
    expect(getEncounter(replayed.world).roster).toEqual(['guard1', 'hound1']);
    expect(getKlepto(replayed.world).phase).toBe('encounter');
  });
});
