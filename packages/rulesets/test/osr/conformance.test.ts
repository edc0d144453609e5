// Secrecy conformance (issue 15, ADR 10) on the OSR ruleset: random GM and
// player sequences with canaries in hidden characters' names, their
// corruptions (name and stage notes), lost body parts and light sources;
// none may reach a player or a spectator.
import { describe, expect, it } from 'vitest';
import { checkSecrecy, SECRECY_ANN, type StepMaker } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '../../src/registry.js';

const engine = engineFor('osr')!;
const settings = resolveSettings('osr');
if (!settings.ok) throw new Error(settings.error.message);

/** A character players may not read fully (hidden, or known to exist only). */
const secretCharacter = (ctx: Parameters<StepMaker>[0], n: number): string =>
  ctx.pick(
    ctx.characterIds().filter((id) => ctx.world.characters[id]!.visibility !== 'visible'),
    n,
    'nobody',
  );

const steps: StepMaker[] = [
  (ctx, d) => ({
    actor: { role: 'gm' },
    command: { type: 'osr.expose', character: secretCharacter(ctx, d.a), name: ctx.canary(), dc: 30, stages: [{ hours: 1 + (d.b % 3), note: ctx.canary(), exhaustion: false }, { hours: 2, note: ctx.canary(), exhaustion: true }] },
  }),
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'osr.noteBodyPart', character: secretCharacter(ctx, d.a), part: ctx.canary() } }),
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'osr.lightSource', owner: secretCharacter(ctx, d.a), label: ctx.canary(), kind: d.b % 2 === 0 ? 'torch' : 'lantern' } }),
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'clock.advance', unit: 'time', seconds: 600 * (1 + (d.a % 12)) } }),
  // A player's attack on anyone (a hidden character must be refused as if missing).
  (ctx, d) => ({
    actor: SECRECY_ANN,
    command: { type: 'osr.attack', attacker: ctx.pick(ctx.world.seats['seat-1']?.characterIds ?? [], d.a, 'nobody'), target: ctx.pick(ctx.characterIds(), d.b, 'nobody'), bonus: 2 },
  }),
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'osr.damage', target: secretCharacter(ctx, d.a), amount: 1 + (d.b % 12) } }),
];

describe('secrecy conformance (ADR 10)', () => {
  it('no canary from hidden characters, corruptions, body parts or light sources reaches a player or spectator (1,000 random sequences, seed 20261125)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ engine, rulesetId: 'osr', settings: settings.value, steps, combatantExtra: (_ctx, _v, d) => ({ stats: { dex: 8 + (d.a % 10) } }), sequences: 1000 });
    expect(report.sequences).toBe(1000);
    expect(report.compared).toBeGreaterThan(0);
    expect(Object.keys(report.accepted)).toContain('osr.expose');
    expect(Object.keys(report.accepted)).toContain('osr.noteBodyPart');
    expect(Object.keys(report.accepted)).toContain('osr.lightSource');
    expect(Object.keys(report.accepted)).toContain('encounter.start');
    expect(Object.keys(report.accepted)).toContain('encounter.remove');
    // The bestiary and its templates (issue 20) carried canaries too.
    expect(Object.keys(report.accepted)).toContain('bestiary.save');
    expect(Object.keys(report.accepted)).toContain('bestiary.saveTemplate');
    expect(report.playerCommands).toBeGreaterThan(500);
  });

  it('a GM-only key planted in any record of the osr, encounter, countdowns, bestiary or timer state or in a character (free-form stats, params, save and detail too) reaches no player or spectator (default deny, ADR 25 and 33; 400 sequences)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ engine, rulesetId: 'osr', settings: settings.value, steps, combatantExtra: (_ctx, _v, d) => ({ stats: { dex: 8 + (d.a % 10) } }), sequences: 400, seed: 20261126, compareWithWalk: false, plant: ['osr', 'encounter', 'countdowns', 'characters', 'bestiary', 'request', 'timer'] });
    expect(report.planted).toBeGreaterThan(100);
    for (const m of ['encounter', 'countdowns']) expect(report.plantedIn[m]).toBeGreaterThan(10);
    expect(report.plantedIn['characters']).toBeGreaterThan(10);
    expect(report.plantedIn['bestiary']).toBeGreaterThan(0);
    expect(report.plantedIn['timer']).toBeGreaterThan(10);
  });
});
