import { describe, expect, it } from 'vitest';
import { seededRng } from '@tablekeeper/engine';
import { createTableFor, engineFor, rulesetIds, rulesetInfo, resolveSettings, defineRuleset } from '../src/index.js';

describe('ruleset registry', () => {
  it('knows the five rulesets', () => {
    expect([...rulesetIds].sort()).toEqual(['36th-way', 'daggerheart', 'kleptonomicon', 'osr', 'teams']);
    expect(rulesetInfo('nope')).toBeNull();
    expect(engineFor('nope')).toBeNull();
  });

  it.each([...rulesetIds])('%s: creates a table, renames it and undoes the rename', (id) => {
    const engine = engineFor(id)!;
    expect(engineFor(id)).toBe(engine);
    expect(engine.modules[0]!.id).toBe('core');
    // Every ruleset has the system-agnostic countdowns module exactly once.
    expect(engine.modules.filter((m) => m.id === 'countdowns')).toHaveLength(1);
    const created = createTableFor(id, { tableId: `t-${id}`, name: 'Before' });
    if (!created.ok) throw new Error(created.error.message);
    const t0 = created.value;
    expect(t0.world.rulesetId).toBe(id);
    for (const s of rulesetInfo(id)!.settings) expect(t0.world.settings[s.key]).toEqual(s.default);
    const env = { rng: seededRng(1), actor: { role: 'gm' } as const };
    const r1 = engine.execute(t0, { type: 'table.rename', name: 'After' }, env);
    if (!r1.ok) throw new Error(r1.error.message);
    expect(r1.value.table.world.name).toBe('After');
    const r2 = engine.execute(r1.value.table, { type: 'history.undo' }, env);
    if (!r2.ok) throw new Error(r2.error.message);
    expect(JSON.stringify(r2.value.table.world)).toBe(JSON.stringify(t0.world));
  });

  it('merges overrides and refuses unknown settings or values of the wrong kind', () => {
    const r = resolveSettings('osr', { 'core.logLimit': 50 });
    expect(r.ok && r.value['core.logLimit']).toBe(50);
    expect(createTableFor('osr', { tableId: 't', name: 'n', settings: { 'osr.nope': 1 } })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_SETTING', path: 'settings.osr.nope' } });
    expect(createTableFor('osr', { tableId: 't', name: 'n', settings: { 'core.logLimit': 'lots' } })).toMatchObject({ ok: false, error: { code: 'INVALID_SETTING' } });
    expect(createTableFor('chess', { tableId: 't', name: 'n' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_RULESET' } });
  });

  it('defineRuleset refuses bad ids, duplicate settings and a second core module', () => {
    const s = { key: 'x.a', default: 1, description: 'a', source: 'test' };
    expect(() => defineRuleset({ id: 'Bad Id', name: 'x', modules: [], settings: [] })).toThrow(/id/);
    expect(() => defineRuleset({ id: 'x', name: 'x', modules: [], settings: [s, s] })).toThrow(/twice/);
    expect(() => defineRuleset({ id: 'x', name: 'x', modules: [{ id: 'core' }], settings: [] })).toThrow(/core/);
  });
});
