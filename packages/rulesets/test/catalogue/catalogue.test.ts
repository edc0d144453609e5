// The command catalogue (ADR 13) for every ruleset: every handler declared and
// every declaration handled; generated valid payloads never crash the engine;
// malformed ones are INVALID_VALUE naming the field, and change nothing.
import { BATCH, payloadJsonSchema, REDO, seededRng, UNDO, WHO, type Command, type Declaration, type Engine, type Json, type Table } from '@tablekeeper/engine';
import { engineFor, rulesetIds } from '@tablekeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsAnything, arbitraryFor, GM, populated, type Refs, type Schema } from './fixtures.js';

const SEED = 20_261_125;

function run(engine: Engine, table: Table, d: Declaration, payload: { [k: string]: Json }) {
  if (d.kind === 'query') return engine.query(table, GM, d.type, payload);
  return engine.execute(table, { ...payload, type: d.type } as Command, { rng: seededRng(1), actor: GM });
}

/** Every way we break a valid payload, each with the field its error must name. */
function malformed(schema: Schema, valid: { [k: string]: Json }): { label: string; payload: { [k: string]: Json }; path: string }[] {
  const props = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = (schema['required'] ?? []) as string[];
  const out: { label: string; payload: { [k: string]: Json }; path: string }[] = [
    { label: 'an unknown key', payload: { ...valid, bogusField: 1 }, path: 'bogusField' },
    { label: 'a misspelt key', payload: { ...valid, Type_: 'x' }, path: 'Type_' },
    { label: 'a __proto__ key', payload: { ...valid, ...(JSON.parse('{"__proto__": {"polluted": true}}') as { [k: string]: Json }) }, path: '__proto__' },
    { label: 'a constructor key', payload: { ...valid, constructor: 1 }, path: 'constructor' },
  ];
  for (const k of required) {
    const p = { ...valid };
    delete p[k];
    out.push({ label: `without ${k}`, payload: p, path: k });
  }
  for (const [k, s] of Object.entries(props)) {
    if (acceptsAnything(s, schema)) continue;
    const wrong: Json = s['type'] === 'string' ? 12345 : s['type'] === 'integer' || s['type'] === 'number' ? '12' : s['type'] === 'boolean' ? 'yes' : Array.isArray(s['enum']) ? 12345 : 'text';
    const anyOf = (s['anyOf'] ?? []) as Schema[];
    const acceptsString = s['type'] === 'string' || anyOf.some((x) => x['type'] === 'string');
    if (!(anyOf.length > 0 && acceptsString && typeof wrong === 'string')) out.push({ label: `${k} of the wrong type`, payload: { ...valid, [k]: wrong }, path: k });
    const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : null;
    if (max !== null) out.push({ label: `${k} as a huge string`, payload: { ...valid, [k]: 'x'.repeat(Math.max(max + 1, 5000)) }, path: k });
    let deep: Json = 1;
    for (let i = 0; i < 10; i++) deep = [deep];
    out.push({ label: `${k} nested ten deep`, payload: { ...valid, [k]: deep }, path: k });
  }
  return out;
}

describe.each(rulesetIds)('the %s catalogue', (rulesetId) => {
  const engine = engineFor(rulesetId)!;
  const decl = new Map(engine.catalog.map((d) => [d.type, d] as const));

  it('declares every command and query its modules handle, and handles every declaration', () => {
    // Undo and redo are the engine's own commands (no module handles them), declared by the engine.
    const commands = [UNDO, REDO, BATCH, ...engine.modules.flatMap((m) => Object.keys(m.commands ?? {}))];
    const queries = engine.modules.flatMap((m) => Object.keys(m.queries ?? {}));
    expect(commands.filter((t) => decl.get(t)?.kind !== 'command')).toEqual([]);
    expect(queries.filter((t) => decl.get(t)?.kind !== 'query')).toEqual([]);
    expect(engine.catalog.filter((d) => !(d.kind === 'command' ? commands : queries).includes(d.type)).map((d) => d.type)).toEqual([]);
  });

  it('gives each declaration a one-line summary, a known who and a strict object payload', () => {
    for (const d of engine.catalog) {
      expect(d.summary.length, d.type).toBeGreaterThan(5);
      expect(d.summary.length, d.type).toBeLessThanOrEqual(120);
      expect(WHO, d.type).toContain(d.who);
      const s = payloadJsonSchema(d);
      expect([s['type'], s['additionalProperties']], d.type).toEqual(['object', false]);
    }
  });

  it("says 'gm' exactly for the commands that keep the engine's GM-only default", () => {
    for (const m of engine.modules) {
      for (const [type, h] of Object.entries(m.commands ?? {})) expect(decl.get(type)?.who === 'gm', type).toBe(h.authorize === undefined);
    }
  });

  const { table, refs } = populated(rulesetId);
  const before = JSON.stringify(table.world);

  it.each(engine.catalog.map((d) => [d.type, d] as const))('%s: generated valid payloads succeed or fail with a rule error, never INTERNAL', (_type, d) => {
    const schema = payloadJsonSchema(d) as Schema;
    fc.assert(
      fc.property(arbitraryFor(schema, schema, refs as Refs) as fc.Arbitrary<{ [k: string]: Json }>, (payload) => {
        const r = run(engine, table, d, payload);
        if (!r.ok) expect(r.error.code, `${d.type} ${JSON.stringify(payload)}: ${r.error.message}`).not.toBe('INTERNAL');
        else if (d.kind === 'query') expect(d.result.safeParse(r.value).success, `${d.type} answer ${JSON.stringify(r.value)}`).toBe(true);
      }),
      { numRuns: 12, seed: SEED },
    );
    expect(JSON.stringify(table.world)).toBe(before);
  });

  it.each(engine.catalog.map((d) => [d.type, d] as const))('%s: malformed payloads are INVALID_VALUE naming the field, and change nothing', (_type, d) => {
    const schema = payloadJsonSchema(d) as Schema;
    const [valid] = fc.sample(arbitraryFor(schema, schema, refs as Refs), { numRuns: 1, seed: SEED }) as [{ [k: string]: Json }];
    for (const bad of malformed(schema, valid)) {
      const r = run(engine, table, d, bad.payload);
      expect(r.ok, `${d.type} ${bad.label}`).toBe(false);
      if (r.ok) continue;
      expect([r.error.code, r.error.path?.split('.')[0]], `${d.type} ${bad.label}: ${r.error.message}`).toEqual(['INVALID_VALUE', bad.path]);
      expect(r.error.message.startsWith(`${r.error.path}: `), r.error.message).toBe(true);
    }
    expect(JSON.stringify(table.world)).toBe(before);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('error messages name the field and the limit', () => {
  const { engine, table } = populated('osr');
  const fail = (c: Command) => {
    const r = engine.execute(table, c, { rng: seededRng(1), actor: GM });
    return r.ok ? null : r.error;
  };
  it('an out-of-range sheet score: "stats.str: must be an integer from 0 to 30" (001 "Character Sheet")', () => {
    const pc = Object.keys(table.world.characters)[0]!;
    expect(fail({ type: 'osr.setSheet', character: pc, stats: { str: 40 } })).toEqual({ code: 'INVALID_VALUE', path: 'stats.str', message: 'stats.str: must be an integer from 0 to 30' });
  });
  it('a misspelt field is named by its own path', () => {
    const pc = Object.keys(table.world.characters)[0]!;
    expect(fail({ type: 'osr.check', character: pc, dc: 10, bonsu: 2 })).toMatchObject({ code: 'INVALID_VALUE', path: 'bonsu' });
  });
  it('a missing field is required; a wrong enum lists the choices', () => {
    expect(fail({ type: 'osr.check', dc: 10 })).toMatchObject({ path: 'characterId', message: 'characterId: is required' });
    expect(fail({ type: 'clock.advance', unit: 'fortnight' })?.message).toBe('unit: must be one of "actionRoll", "beat", "turn", "round", "travelTurn", "shortRest", "longRest", "phase", "time"');
  });
});
