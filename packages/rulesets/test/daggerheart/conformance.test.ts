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

describe('secrecy conformance (ADR 10)', () => {
  it('no canary from hidden countdowns or characters reaches a player or spectator (1,000 random sequences, seed 20261125)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ engine, rulesetId: 'daggerheart', settings: settings.value, steps, sequences: 1000 });
    expect(report.sequences).toBe(1000);
    expect(report.compared).toBeGreaterThan(0);
    expect(Object.keys(report.accepted)).toContain('daggerheart.actionRoll');
    expect(Object.keys(report.accepted)).toContain('countdown.create');
  });
});
