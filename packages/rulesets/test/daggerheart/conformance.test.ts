// Secrecy conformance (issue 15, ADR 10) on Daggerheart: hidden countdowns and
// characters with canary names, help offered to hidden characters; none may
// reach a player or a spectator.
import { describe, expect, it } from 'vitest';
import { checkSecrecy, SECRECY_ANN, type StepMaker } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '../../src/registry.js';

const engine = engineFor('daggerheart')!;
const settings = resolveSettings('daggerheart');
if (!settings.ok) throw new Error(settings.error.message);

const steps: StepMaker[] = [
  (ctx, d) => ({ actor: SECRECY_ANN, command: { type: 'daggerheart.actionRoll', characterId: ctx.pick(ctx.characterIds(), d.a, 'nobody'), difficulty: 10 + (d.b % 8) } }),
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'daggerheart.actionRoll', characterId: ctx.pick(ctx.hiddenIds(), d.a, 'nobody'), difficulty: 12 } }),
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'countdown.tick', id: ctx.pick(Object.keys((ctx.world.ext['countdowns'] as { countdowns?: object } | undefined)?.countdowns ?? {}), d.a, 'nobody'), by: 1 } }),
];

/** Roll requests in public words (for any PC, hidden ones too; a visible PC first when there is none), so planted keys (ADR 25) land in requests players read. */
const requests: StepMaker = (ctx, d) => {
  const pcs = ctx.characterIds().filter((id) => ctx.world.characters[id]!.kind === 'pc');
  if (pcs.length === 0) return { actor: { role: 'gm' }, command: { type: 'character.add', name: ctx.word(), kind: 'pc', visibility: 'visible', seatId: 'seat-1' } };
  return {
    actor: { role: 'gm' },
    command: { type: 'daggerheart.requestRoll', characterId: ctx.pick(pcs, d.a, 'nobody'), difficulty: 10 + (d.b % 8), hidden: d.c % 2 === 0, label: ctx.word(), experience: ctx.word(), experienceBonus: 2 },
  };
};

describe('secrecy conformance (ADR 10)', () => {
  it('a GM-only key planted in any record of the Daggerheart, encounter, countdowns, bestiary or timer state or in a character (free-form stats, params, save and detail too) reaches no player or spectator (default deny, ADR 25 and 33; 400 sequences)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ engine, rulesetId: 'daggerheart', settings: settings.value, steps: [...steps, requests, requests, requests], sequences: 400, seed: 20261126, compareWithWalk: false, plant: ['daggerheart', 'encounter', 'countdowns', 'characters', 'bestiary', 'request', 'timer'] });
    expect(report.planted).toBeGreaterThan(100);
    for (const m of ['daggerheart', 'encounter', 'countdowns']) expect(report.plantedIn[m]).toBeGreaterThan(10);
    expect(report.plantedIn['characters']).toBeGreaterThan(10);
    expect(report.plantedIn['bestiary']).toBeGreaterThan(0);
    expect(report.plantedIn['timer']).toBeGreaterThan(10);
    expect(Object.keys(report.accepted)).toContain('daggerheart.requestRoll');
  });

  it('no canary from hidden countdowns or characters reaches a player or spectator (1,000 random sequences, seed 20261125)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ engine, rulesetId: 'daggerheart', settings: settings.value, steps, sequences: 1000 });
    expect(report.sequences).toBe(1000);
    expect(report.compared).toBeGreaterThan(0);
    expect(Object.keys(report.accepted)).toContain('daggerheart.actionRoll');
    expect(Object.keys(report.accepted)).toContain('countdown.create');
  });
});
