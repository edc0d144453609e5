// Typed events stay typed (issue 17, ADR 62): reducers, reactions, audiences and
// history views read members of their module's event union, and a typed record
// becomes JSON through `stored`/`asJson`, which check its shape. This scan fails
// when a raw field read on an event (`e['x']`, `event?.['x']`) or an
// `as unknown as` cast comes back in the engine or the rulesets beyond the
// places listed here, each of which ADR 62 names with the reason it stays.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asJson, stored } from '@tablekeeper/engine';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCES = ['packages/engine/src', 'packages/rulesets/src'];

/** A field read (or write) by name on a variable that holds an event. */
const RAW_EVENT_READ = /\b(e|ev|evt|event)(\?\.)?\[(?![0-9\]])/g;
const CAST = /\bas unknown as\b/g;

/** Files allowed some raw event reads, and how many (ADR 62 says why). */
const RAW_ALLOWED: { readonly [file: string]: number } = {
  // The shared sheet's history view redacts `stats` on events other modules declare (`statsEvents`), by their id field's name.
  'packages/engine/src/core/sheet.ts': 2,
  // The shared foe filter for history (`foeNumbersView`): a module declares which fields of its event are a foe's numbers.
  'packages/engine/src/foes/model.ts': 3,
  // The id of the countdown a just-decided command made, read off that command's own result.
  'packages/rulesets/src/daggerheart/trackers.ts': 1,
  // Builds an ability's stored record field by field on a local named `e`: writes, not event reads.
  'packages/rulesets/src/36th-way/abilities.ts': 4,
  // Audience walkers over every creature field of every event a module audits (kernel events included).
  'packages/rulesets/src/kleptonomicon/context.ts': 2,
  'packages/rulesets/src/teams/module.ts': 2,
};

/** Files allowed `as unknown as`, and how many (ADR 62 says why). */
const CAST_ALLOWED: { readonly [file: string]: number } = {
  // The one place each stored shape becomes its type and back: reducersOf, reactionOf, memberOf, stored,
  // asJson, fromJson, audiencesOf, sameAudience, eventViewsOf.
  'packages/engine/src/core/events.ts': 9,
  // zod's output types: an optional field's `undefined` and `z.json()`'s own Json, against ours.
  'packages/engine/src/bestiary/module.ts': 1,
  'packages/engine/src/core/catalog.ts': 2,
  'packages/rulesets/src/stat-blocks.ts': 1,
  // Generic walkers over a World's parts or any JSON by key: the view cache (and its windowed log, ADR 93), the secrecy suite, the hidden-id probe.
  'packages/engine/src/core/view-cache.ts': 7,
  'packages/engine/src/testing/secrecy.ts': 6,
  'packages/engine/src/testing/renames.ts': 1,
  'packages/engine/src/core/engine.ts': 3,
  // A batch's $made references (ADR 73) walk a command as JSON by path and give it back as the command it was.
  'packages/engine/src/core/batch-refs.ts': 3,
  // Undo words read a named field from the stored command or its events by path, whatever their type (ADR 66).
  'packages/engine/src/core/undo-words.ts': 2,
  // A preallocated slot the compiler fills before reading (hot path, ADR 26).
  'packages/engine/src/dice/compile.ts': 1,
  // Sheets read as records of their keys for the foe-field filter, and rebuilt from them.
  'packages/rulesets/src/36th-way/module.ts': 2,
  'packages/rulesets/src/36th-way/sheet-model.ts': 1,
  'packages/rulesets/src/teams/sheet-model.ts': 1,
  'packages/rulesets/src/teams/module.ts': 1,
  'packages/rulesets/src/teams/status.ts': 1,
};

const files = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.join(dir, d.name);
    return d.isDirectory() ? files(rel) : /\.tsx?$/.test(d.name) ? [rel.split(path.sep).join('/')] : [];
  });

/** Code without its comments, so a comment that quotes a pattern does not count. */
const code = (file: string): string =>
  readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

function counts(pattern: RegExp): { [file: string]: number } {
  const out: { [file: string]: number } = {};
  for (const f of SOURCES.flatMap(files)) {
    const n = (code(f).match(pattern) ?? []).length;
    if (n > 0) out[f] = n;
  }
  return out;
}

describe('typed events in the engine and the rulesets (issue 17, ADR 62)', () => {
  it('scans every source file of both packages', () => {
    const all = SOURCES.flatMap(files);
    expect(all.length).toBeGreaterThan(150);
    expect(all).toContain('packages/engine/src/core/events.ts');
    expect(all).toContain('packages/rulesets/src/osr/module.ts');
  });

  it('reads no event field by name outside the allowed places, and each allowed count is exact', () => {
    expect(counts(RAW_EVENT_READ)).toEqual(RAW_ALLOWED);
  });

  it('casts through unknown nowhere outside the allowed places, and each allowed count is exact', () => {
    expect(counts(CAST)).toEqual(CAST_ALLOWED);
  });

  it('the patterns catch what they are for (so a passing scan means something)', () => {
    const raw = ["const x = e['target'];", 'const y = event?.["id"];', 'ev[`roll`]'];
    for (const line of raw) expect(line.match(RAW_EVENT_READ), line).not.toBeNull();
    for (const line of ["Module['reducers']", "audience['x']", 'le[0]', 'e.target']) expect(line.match(RAW_EVENT_READ), line).toBeNull();
    expect('raw as unknown as State'.match(CAST)).not.toBeNull();
  });
});

describe('stored and asJson check the JSON shape at compile time (ADR 62)', () => {
  it('accept records of JSON values, optional fields and readonly arrays; refuse functions, unknown and dates', () => {
    interface Roll {
      readonly dice: readonly number[];
      readonly label?: string;
      readonly kept: { readonly at: number } | null;
    }
    const roll: Roll = { dice: [3, 5], kept: null };
    expect(asJson(roll)).toEqual({ dice: [3, 5], kept: null });
    expect(stored({ type: 'x.rolled', roll })).toEqual({ type: 'x.rolled', roll: { dice: [3, 5], kept: null } });
    const withFn = { n: 1, f: () => 2 };
    // @ts-expect-error a function is not JSON
    asJson(withFn);
    const opaque: { readonly type: 'x'; readonly v: unknown } = { type: 'x', v: 1 };
    // @ts-expect-error `unknown` may be anything
    stored(opaque);
    // @ts-expect-error a Date is an object with methods, not a JSON record
    asJson({ at: new Date(0) });
  });
});
