// GET /api/rulesets/:id/sheet over real HTTP (issue 17): each ruleset's
// character sheet as JSON Schema, with defaults and playerEditable per field,
// and character.sheet.set in the commands catalogue taking the same fields.
import type { CatalogEntry } from '@tablekeeper/engine';
import { coreModule } from '@tablekeeper/engine';
import { osr, rulesetIds, sheetSchemaFor } from '@tablekeeper/rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCatalog, registryCatalog } from '../src/index.js';
import { http, testServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: registryCatalog() });
});
afterAll(async () => srv.cleanup());

type Sheet = { ruleset: string; schema: { type: string; additionalProperties: boolean; properties: Record<string, { playerEditable: boolean; default?: unknown }> }; playerEditable: string[] };

describe('GET /api/rulesets/:id/sheet', () => {
  it.each(rulesetIds)('serves the %s sheet with a playerEditable flag on every field, the same fields character.sheet.set takes', async (id) => {
    const r = await http<Sheet>(srv.url, 'GET', `/api/rulesets/${id}/sheet`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ruleset: id, schema: { type: 'object', additionalProperties: false } });
    for (const f of Object.values(r.body.schema.properties)) expect(typeof f.playerEditable).toBe('boolean');
    const commands = await http<{ commands: CatalogEntry[] }>(srv.url, 'GET', `/api/rulesets/${id}/commands`);
    const setSheet = commands.body.commands.find((c) => c.type === 'character.sheet.set')!;
    expect(setSheet.who).toBe('own-character');
    const fields = (setSheet.schema as { properties: { sheet: { properties: Record<string, unknown> } } }).properties.sheet.properties;
    expect(Object.keys(fields).sort()).toEqual(Object.keys(r.body.schema.properties).sort());
  });

  it('the OSR sheet carries the text\'s defaults (scores 10, speed 30) and lets a player edit their load and coin purse', async () => {
    const r = await http<Sheet>(srv.url, 'GET', '/api/rulesets/osr/sheet');
    expect(r.body.schema.properties['dex']).toMatchObject({ default: 10, minimum: 0, maximum: 30, playerEditable: false });
    expect(r.body.schema.properties['speed']).toMatchObject({ default: 30 });
    expect(r.body.playerEditable).toEqual(['load', 'cp', 'sp', 'gp']);
  });

  it('answers an unknown ruleset with 404 naming the field', async () => {
    const r = await http<{ error: { kind: string; path: string[] } }>(srv.url, 'GET', '/api/rulesets/chess/sheet');
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ kind: 'INVALID', path: ['id'] });
  });
});

describe('a hand-built catalogue (moduleCatalog) serves a sheet when its entry gives one', () => {
  let built: Awaited<ReturnType<typeof testServer>>;
  beforeAll(async () => {
    built = await testServer({
      catalog: moduleCatalog([
        { id: 'osr', name: 'OSR', modules: [coreModule, ...osr.ruleset.modules], sheet: sheetSchemaFor('osr') },
        { id: 'bare', modules: [coreModule] },
      ]),
    });
  });
  afterAll(async () => built.cleanup());

  it('answers the entry\'s sheet as the registry would, and 404 for an entry without one', async () => {
    const r = await http<Sheet>(built.url, 'GET', '/api/rulesets/osr/sheet');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(sheetSchemaFor('osr'));
    expect(r.body.playerEditable).toEqual(['load', 'cp', 'sp', 'gp']);
    const bare = await http<{ error: { kind: string; path: string[] } }>(built.url, 'GET', '/api/rulesets/bare/sheet');
    expect(bare.status).toBe(404);
    expect(bare.body.error).toMatchObject({ kind: 'INVALID', path: ['id'] });
  });
});
