// Catalogue test helpers: fast-check payloads generated from a declaration's
// JSON Schema (the same schema clients get), a table with something of every
// kind to point ids at, and the ways a payload can be malformed.
import { createTableFor, engineFor } from '@tablekeeper/rulesets';
import { seededRng, type Command, type Engine, type Json, type Table, type Viewer } from '@tablekeeper/engine';
import fc from 'fast-check';

export type Schema = { readonly [k: string]: unknown };
export const GM: Viewer = { role: 'gm' };

/** Ids that exist at the table, by the `x-ref` kind a schema marks an id field with. */
export type Refs = { readonly [ref: string]: readonly string[] };

const resolve = (s: Schema, root: Schema): Schema => {
  const ref = s['$ref'];
  if (typeof ref !== 'string') return s;
  const name = ref.replace('#/$defs/', '');
  return ((root['$defs'] as Record<string, Schema> | undefined)?.[name] ?? {}) as Schema;
};

const anyJson = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;

/** Payloads the schema accepts (bounded so runs stay fast); ids come from `refs` most of the time. */
export function arbitraryFor(schema: Schema, root: Schema, refs: Refs, depth = 0): fc.Arbitrary<Json> {
  const s = resolve(schema, root);
  if (s['$ref'] !== undefined || depth > 10) return fc.constant(null);
  if (Array.isArray(s['anyOf'])) return fc.oneof(...(s['anyOf'] as Schema[]).map((x) => arbitraryFor(x, root, refs, depth)));
  if (Array.isArray(s['oneOf'])) return fc.oneof(...(s['oneOf'] as Schema[]).map((x) => arbitraryFor(x, root, refs, depth)));
  if (s['const'] !== undefined) return fc.constant(s['const'] as Json);
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as Json[]));
  if (Array.isArray(s['type'])) return fc.oneof(...(s['type'] as string[]).map((type) => arbitraryFor({ ...s, type }, root, refs, depth)));
  switch (s['type']) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] : -1000;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] : 1000;
      return fc.integer({ min: Math.max(min, -1_000_000), max: Math.min(max, 1_000_000) });
    }
    case 'number': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] : -1000;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] : 1000;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
    }
    case 'string': {
      const ref = s['x-ref'];
      const pool = typeof ref === 'string' ? (refs[ref] ?? []) : [];
      const minLength = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
      const maxLength = Math.min(typeof s['maxLength'] === 'number' ? s['maxLength'] : 40, 40);
      const plain = typeof s['pattern'] === 'string' ? fc.stringMatching(new RegExp(s['pattern'])).filter((x) => x.length <= (s['maxLength'] as number | undefined ?? 1000)) : fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
      return pool.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 4 }, { arbitrary: plain, weight: 1 }) : plain;
    }
    case 'array': {
      const items = (s['items'] ?? {}) as Schema;
      const minLength = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
      const maxLength = Math.min(typeof s['maxItems'] === 'number' ? s['maxItems'] : 4, Math.max(minLength, 4));
      return fc.array(arbitraryFor(items, root, refs, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const props = (s['properties'] ?? {}) as Record<string, Schema>;
      const required = new Set((s['required'] ?? []) as string[]);
      const extra = s['additionalProperties'];
      if (Object.keys(props).length === 0 && typeof extra === 'object' && extra !== null) {
        // A record: a few keys from the id pool or short names.
        const names = (s['propertyNames'] as Schema | undefined)?.['enum'];
        const keys = Array.isArray(names) ? fc.constantFrom(...(names as string[])) : fc.oneof(fc.constantFrom(...Object.values(refs).flat(), 'a', 'b'), fc.string({ minLength: 1, maxLength: 8 }));
        return fc.dictionary(keys, arbitraryFor(extra as Schema, root, refs, depth + 1), { maxKeys: 3 }) as fc.Arbitrary<Json>;
      }
      const shape: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, v] of Object.entries(props)) shape[k] = arbitraryFor(v, root, refs, depth + 1);
      return fc.record(shape, { requiredKeys: [...required] }) as fc.Arbitrary<Json>;
    }
    default:
      return anyJson;
  }
}

/** Does the schema accept any JSON (an unconstrained `{}` or z.json())? Then a wrong type is not wrong. */
export function acceptsAnything(schema: Schema, root: Schema): boolean {
  const s = resolve(schema, root);
  if (s['$ref'] !== undefined) return true;
  if (Array.isArray(s['anyOf'])) return (s['anyOf'] as Schema[]).some((x) => acceptsAnything(x, root)) || (s['anyOf'] as Schema[]).length >= 5;
  return s['type'] === undefined && s['enum'] === undefined && s['const'] === undefined && s['oneOf'] === undefined;
}

/** A table of `rulesetId` with two seats, a PC and an NPC, an encounter with both and a countdown. */
export function populated(rulesetId: string): { engine: Engine; table: Table; refs: Refs } {
  const engine = engineFor(rulesetId)!;
  const created = createTableFor(rulesetId, { tableId: 't1', name: 'Catalogue' });
  if (!created.ok) throw new Error(created.error.message);
  let table = created.value;
  // One generator for the whole setup: ids may be minted from it, so a fresh seed per command would repeat them.
  const rng = seededRng(7);
  const run = (c: Command): void => {
    const r = engine.execute(table, c, { rng, actor: GM });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    table = r.value.table;
  };
  run({ type: 'seat.add', name: 'Ann' });
  const seat = Object.keys(table.world.seats)[0]!;
  run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: seat, visibility: 'visible' });
  run({ type: 'character.add', name: 'Orc', kind: 'npc', visibility: 'visible' });
  const [pc, npc] = Object.keys(table.world.characters) as [string, string];
  run({ type: 'countdown.create', name: 'Alarm', start: 4 });
  const countdown = Object.keys((table.world.ext['countdowns'] as { countdowns: object }).countdowns)[0]!;
  const combatants: string[] = [];
  if (engine.catalog.some((d) => d.type === 'encounter.start')) {
    const place = { band: 'fast', score: 10 };
    const start: Command = {
      type: 'encounter.start',
      combatants: [
        { id: pc, name: 'Ann', kind: 'pc', characterId: pc, ...place },
        { id: npc, name: 'Orc', kind: 'npc', characterId: npc, ...place, stats: { creatureType: 'orc' } },
      ],
      ...(rulesetId === 'teams' ? { params: { teamOrder: ['pcs', 'npcs'] } } : {}),
    };
    run(start);
    combatants.push(pc, npc);
  }
  return { engine, table, refs: { character: [pc, npc], seat: [seat], combatant: combatants, countdown: [countdown] } };
}
