// The OSR's audience walker reads the members of its event union (issue 17, ADR 62): for any
// event naming characters in any role, its audience is the GM's exactly when one of them (or
// the character behind a corruption or a light source) is one players cannot see. The odds
// queries of Daggerheart and the Kleptonomicon parse their args by their declarations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, Viewer, Visibility } from '@tablekeeper/engine';
import { osrModule } from '../../src/osr/module.js';
import { actionRollOddsQuery, rollOddsQuery } from '../../src/daggerheart/queries.js';
import { kleptoQueries } from '../../src/kleptonomicon/queries.js';
import { osrTable } from './helpers.js';

const GM: Viewer = { role: 'gm' };
const VISIBILITIES: readonly Visibility[] = ['visible', 'hidden', 'existence'];
const ALWAYS_GM = new Set(['osr.moralePrompted', 'osr.travelTurnRolled', 'osr.tidePrompted', 'osr.sceneCounted', 'osr.fightSummarized']);

const roll = { dice: [10], advantage: 0, natural: 10, modifier: 0, total: 10, dc: 10, success: true, shortfall: 0 };

/** One OSR event naming the picked characters in its roles (stored shape), and who it names. */
function eventFor(kind: number, a: string, b: string, withHelper: boolean): { event: EngineEvent; names: string[] } {
  switch (kind) {
    case 0:
      return { event: { type: 'osr.hpChanged', characterId: a, from: 5, to: 3, reason: 'hit' }, names: [a] };
    case 1:
      return { event: { type: 'osr.attacked', attackerId: a, targetId: b, kind: 'melee', delivery: 'melee', range: 'close', roll, reasons: [], hit: true, crit: false, ac: 10 }, names: [a, b] };
    case 2:
      return { event: { type: 'osr.stabilized', targetId: a, helperId: withHelper ? b : null, method: 'check' }, names: withHelper ? [a, b] : [a] };
    case 3:
      return { event: { type: 'osr.checked', characterId: null, label: 'listen', kind: 'check', roll, reasons: [], impossible: false }, names: [] };
    case 4:
      return {
        event: { type: 'osr.infected', corruption: { corruptionId: 'k-1', characterId: b, name: 'Rot', dc: 12, stages: [{ hours: 1, ability: 'con', dice: 1, exhaustion: false, note: '' }], stage: 0, stageEndsAt: 3600 } },
        names: [b],
      };
    default:
      return { event: { type: 'osr.moralePrompted', trigger: 'tide', text: 'morale?' }, names: [a] };
  }
}

describe('the OSR audience walker over its typed events', () => {
  it('is the GM\'s exactly when the event is a GM matter or names a character players cannot see', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VISIBILITIES), fc.constantFrom(...VISIBILITIES), fc.integer({ min: 0, max: 5 }), fc.boolean(), (va, vb, kind, withHelper) => {
        const t = osrTable();
        const a = t.add('Ash', {}, 'npc');
        const b = t.add('Bram', {}, 'npc');
        t.run({ type: 'character.update', characterId: a, visibility: va });
        t.run({ type: 'character.update', characterId: b, visibility: vb });
        const { event, names } = eventFor(kind, a, b, withHelper);
        const hook = osrModule.audience?.[event.type];
        expect(hook, event.type).toBeDefined();
        const seen = { [a]: va, [b]: vb };
        const gm = ALWAYS_GM.has(event.type) || names.some((id) => seen[id] !== 'visible');
        expect(hook!(t.world, event)).toEqual(gm ? { kind: 'gm' } : { kind: 'all' });
      }),
      { numRuns: 80 },
    );
  });

  it('every OSR event type has the walker, and no kernel event does', () => {
    const types = Object.keys(osrModule.audience ?? {});
    expect(types.length).toBeGreaterThan(40);
    expect(types.every((x) => x.startsWith('osr.'))).toBe(true);
  });
});

describe('odds queries parse their args by their declarations', () => {
  it('Daggerheart: an unknown trait, a difficulty out of range, a flag that is not true or false, each named', () => {
    const t = osrTable();
    expect(actionRollOddsQuery(t.world, { trait: 'luck', difficulty: 10 }, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'trait' } });
    expect(actionRollOddsQuery(t.world, { difficulty: 0 }, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'difficulty' } });
    expect(actionRollOddsQuery(t.world, {}, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'difficulty', message: 'difficulty: give a difficulty, or an adversary (targetId) to roll against' } });
    expect(rollOddsQuery(t.world, { requestId: 'r-1', useExperience: 'yes' }, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'useExperience', message: 'useExperience: must be true or false' } });
    expect(rollOddsQuery(t.world, { requestId: 'r-1' }, GM)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'requestId' } });
    // A plain roll at +0 against 10: the outcomes sum to 1.
    const r = actionRollOddsQuery(t.world, { difficulty: 10 }, GM);
    if (!r.ok) throw new Error(r.error.message);
    const o = (r.value as { outcomes: { [k: string]: number } }).outcomes;
    expect(Object.values(o).reduce((x, y) => x + y, 0)).toBeCloseTo(1, 9);
  });

  it('Kleptonomicon: a modifier or advantage out of range, a misspelt arg, each named; the old name still reads', () => {
    const t = osrTable();
    const q = kleptoQueries['kleptonomicon.testOdds']!;
    expect(q(t.world, { modifier: 51 }, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'modifier', message: 'modifier: must be an integer from -50 to 50' } });
    expect(q(t.world, { advantage: 11 }, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'advantage' } });
    expect(q(t.world, { modifer: 1 }, GM)).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'modifer' } });
    expect(q(t.world, { defence: 7 }, GM)).toEqual(q(t.world, { defense: 7 }, GM));
    expect(q(t.world, { defense: 7 }, GM)).toMatchObject({ ok: true, value: { failAtOrBelow: 6 } });
    expect(q(t.world, {}, GM)).toEqual(q(t.world, { modifier: 0, advantage: 0 }, GM));
  });
});
