// GET /api/rulesets/:id/commands over real HTTP: the catalogue clients build forms from (ADR 13).
import { BATCH, REDO, UNDO, type CatalogEntry } from '@tablekeeper/engine';
import { engineFor, rulesetIds } from '@tablekeeper/rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryCatalog } from '../src/index.js';
import { http, testServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: registryCatalog() });
});
afterAll(async () => srv.cleanup());

describe('GET /api/rulesets/:id/commands', () => {
  it.each(rulesetIds)('lists every command and query of %s with a summary, who and a JSON Schema', async (id) => {
    const r = await http<{ ruleset: string; commands: CatalogEntry[] }>(srv.url, 'GET', `/api/rulesets/${id}/commands`);
    expect(r.status).toBe(200);
    expect(r.body.ruleset).toBe(id);
    const engine = engineFor(id)!;
    const handled = [UNDO, REDO, BATCH, ...engine.modules.flatMap((m) => [...Object.keys(m.commands ?? {}), ...Object.keys(m.queries ?? {})])];
    expect(r.body.commands.map((c) => c.type).sort()).toEqual([...handled].sort());
    for (const c of r.body.commands) {
      expect(c.ruleset).toBe(id);
      expect(['command', 'query']).toContain(c.kind);
      expect(c.summary.length).toBeGreaterThan(5);
      expect(['gm', 'own-character', 'anyone', 'everyone']).toContain(c.who);
      expect(c.schema).toMatchObject({ type: 'object', additionalProperties: false });
      if (c.kind === 'query') expect(c.result).toBeTypeOf('object');
    }
  });

  it('serves the engine commands under each ruleset, with their limits (clock.advance seconds up to a year)', async () => {
    const r = await http<{ commands: CatalogEntry[] }>(srv.url, 'GET', '/api/rulesets/osr/commands');
    const clock = r.body.commands.find((c) => c.type === 'clock.advance')!;
    expect(clock).toMatchObject({ kind: 'command', who: 'gm', schema: { required: ['unit'], properties: { seconds: { type: 'integer', minimum: 0, maximum: 366 * 24 * 3600 } } } });
    expect(r.body.commands.find((c) => c.type === 'osr.check')?.schema).toMatchObject({ properties: { characterId: { 'x-ref': 'character' } } });
  });

  it('marks the teams sheet aliases deprecated with their replacement and retirement date, and nothing else (ADR 62)', async () => {
    const r = await http<{ commands: CatalogEntry[] }>(srv.url, 'GET', '/api/rulesets/teams/commands');
    expect(r.body.commands.filter((c) => c.deprecated !== undefined).map((c) => [c.type, c.deprecated])).toEqual([
      ['teams.setSheet', { replacement: 'character.sheet.set', removedAfter: '2027-06-30' }],
      ['teams.removeSheet', { replacement: 'character.sheet.remove', removedAfter: '2027-06-30' }],
    ]);
    const osr = await http<{ commands: CatalogEntry[] }>(srv.url, 'GET', '/api/rulesets/osr/commands');
    expect(osr.body.commands.filter((c) => Object.hasOwn(c, 'deprecated'))).toEqual([]);
  });

  it('marks the commands that act on whatever is current as relative, and only those (ADR 47)', async () => {
    const r = await http<{ commands: CatalogEntry[] }>(srv.url, 'GET', '/api/rulesets/kleptonomicon/commands');
    expect(r.body.commands.filter((c) => c.relative === true).map((c) => c.type).sort()).toEqual(['encounter.advance', 'encounter.endTurn', 'history.redo', 'history.undo', 'kleptonomicon.passSpotlight']);
    expect(r.body.commands.find((c) => c.type === 'history.undo')).toMatchObject({ kind: 'command', who: 'anyone', relative: true, schema: { type: 'object', additionalProperties: false } });
    expect(Object.hasOwn(r.body.commands.find((c) => c.type === 'encounter.start')!, 'relative')).toBe(false);
  });

  it('answers an unknown ruleset with 404 naming the field', async () => {
    const r = await http<{ error: { kind: string; path: string[] } }>(srv.url, 'GET', '/api/rulesets/chess/commands');
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ kind: 'INVALID', path: ['id'] });
  });
});
