// The spotlight sequencer (ADR 14) on the bare kernel: the GM always chooses
// who holds the spotlight next; without action tokens no round ever ends; with
// N tokens a PC holds it at most N times a round, the GM's pool never goes
// below zero, and the round ends (and refills) only when nobody can pay.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scenario } from '../../src/core/testing.js';
import { daggerheartEncounter } from '../../src/encounter/systems.js';
import { encounterModule } from '../../src/encounter/module.js';
import { getEncounter } from '../../src/encounter/state.js';
import { spotlightTokens } from '../../src/encounter/sequencers/spotlight.js';

const rules = { ...daggerheartEncounter({ tokensFrom: (s) => (typeof s['tokens'] === 'number' ? s['tokens'] : 0) }), conditions: [] };
const roster = [
  { id: 'kira', kind: 'pc' },
  { id: 'orin', kind: 'pc' },
  { id: 'ogre', kind: 'npc' },
];

describe('spotlight sequencer', () => {
  it('waits for the GM after every turn; a combatant may hold the spotlight again; rounds do not end without tokens', () => {
    const s = scenario([encounterModule(rules)], { settings: {} });
    s.run({ type: 'encounter.start', combatants: roster });
    for (const id of ['kira', 'kira', 'ogre', 'orin', 'kira']) {
      const enc = getEncounter(s.world);
      expect(enc.pending).toMatchObject({ chooser: { kind: 'gm' }, options: ['kira', 'orin', 'ogre'] });
      s.run({ type: 'encounter.choose', id });
      s.run({ type: 'encounter.endTurn' });
    }
    expect(getEncounter(s.world).round).toBe(1);
    expect(s.fail({ type: 'encounter.start', combatants: roster, surprise: { side: 'pcs' } }).code).toBe('ENCOUNTER_RUNNING');
  });

  it('the default pass (what N sends) goes to whoever has waited longest, never back to the first PC each time, and never to a hidden adversary', () => {
    const s = scenario([encounterModule(rules)], { settings: {} });
    s.run({ type: 'encounter.start', combatants: [...roster, { id: 'lurker', kind: 'npc', visibility: 'hidden' }] });
    const taken: string[] = [];
    for (let i = 0; i < 7; i++) {
      s.run({ type: 'encounter.choose' });
      taken.push(getEncounter(s.world).current!);
      s.run({ type: 'encounter.endTurn' });
    }
    // Nobody has held it at first, so join order; then each time the longest-waiting visible one.
    expect(taken).toEqual(['kira', 'orin', 'ogre', 'kira', 'orin', 'ogre', 'kira']);
    // The GM's own pick moves the rotation too: after Orin is chosen by name, the default skips him.
    s.run({ type: 'encounter.choose', id: 'orin' });
    s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).pending?.default).toBe('ogre');
    // Revealed, the lurker (never in the spotlight) is the default from the next pass on.
    s.run({ type: 'encounter.reveal', id: 'lurker' });
    s.run({ type: 'encounter.choose' });
    s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(s.world).pending?.default).toBe('lurker');
  });

  it('property: the default pass is always an option, visible, and no option has waited longer for the spotlight', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(-1), fc.nat(3)), { maxLength: 30 }), (picks) => {
        const s = scenario([encounterModule(rules)], { settings: {} });
        s.run({ type: 'encounter.start', combatants: [...roster, { id: 'lurker', kind: 'npc', visibility: 'hidden' }] });
        for (const pick of picks) {
          const enc = getEncounter(s.world);
          const p = enc.pending!;
          const d = p.default!;
          expect(p.options).toContain(d);
          expect(enc.combatants[d]!.visibility).not.toBe('hidden');
          const waited = (id: string) => enc.lastTurn[id] ?? -1;
          for (const o of p.options) if (enc.combatants[o]!.visibility !== 'hidden') expect(waited(d)).toBeLessThanOrEqual(waited(o));
          s.run(pick === -1 ? { type: 'encounter.choose' } : { type: 'encounter.choose', id: p.options[pick % p.options.length]! });
          s.run({ type: 'encounter.endTurn' });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('has no surprise round and refuses a token count out of range', () => {
    const s = scenario([encounterModule(rules)], { settings: { tokens: 11 } });
    expect(s.fail({ type: 'encounter.start', combatants: roster }).code).toBe('BAD_SETTING');
    const t = scenario([encounterModule(rules)], { settings: {} });
    expect(t.fail({ type: 'encounter.start', combatants: roster, surprise: { side: 'pcs' } }).code).toBe('NO_SURPRISE');
  });

  it('property: with N tokens each PC holds the spotlight at most N times a round and the GM never spends a token it lacks; replay equals the live table', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(fc.nat(5), { maxLength: 40 }), (tokens, picks) => {
        const s = scenario([encounterModule(rules)], { settings: { tokens } });
        s.run({ type: 'encounter.start', combatants: roster });
        const held: Record<string, number> = {};
        let round = 1;
        for (const pick of picks) {
          const enc = getEncounter(s.world);
          if (enc.round !== round) {
            round = enc.round;
            for (const k of Object.keys(held)) delete held[k];
          }
          if (enc.pending === null) break;
          expect(enc.pending.chooser.kind).toBe('gm');
          const id = enc.pending.options[pick % enc.pending.options.length]!;
          s.run({ type: 'encounter.choose', id });
          held[id] = (held[id] ?? 0) + 1;
          if (id !== 'ogre') expect(held[id]).toBeLessThanOrEqual(tokens);
          expect(spotlightTokens(getEncounter(s.world)).gm).toBeGreaterThanOrEqual(0);
          s.run({ type: 'encounter.endTurn' });
        }
        const replayed = s.engine.replay(s.table.genesis, s.table.transactions);
        expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(s.world));
      }),
      { numRuns: 60 },
    );
  });
});
