// Which rule systems the server can host. The default catalog is the rulesets
// registry; tests pass a catalog built from engine modules directly.
import { createEngine, type Engine, type Json, type Module, type Result, type Table } from '@tablekeeper/engine';

export interface RulesetCatalog {
  ids(): readonly string[];
  info(id: string): { readonly [key: string]: unknown } | null;
  engineFor(id: string): Engine | null;
  /** A new table with the ruleset's settings resolved; a typed error for unknown or ill-typed settings. */
  createTable(id: string, input: { tableId: string; name: string; settings?: { [key: string]: Json } }): Result<Table>;
  /** The ruleset's character sheet as JSON Schema (issue 17), when it declares one. */
  sheet?(id: string): { readonly [key: string]: unknown } | null;
  /** A module specifier exporting engineFor(id) with the same engines, for the query workers; without it, queries run inline. */
  readonly workerModule?: string;
}

/** One ruleset of a hand-built catalog: its modules and, to serve GET /api/rulesets/:id/sheet, its sheet as that route answers it. */
export interface ModuleCatalogEntry {
  readonly id: string;
  readonly name?: string;
  readonly modules: readonly Module[];
  readonly sheet?: { readonly [key: string]: unknown } | null;
}

/** A catalog from plain module lists (one engine per id, built once). */
export function moduleCatalog(entries: readonly ModuleCatalogEntry[]): RulesetCatalog {
  const engines = new Map(entries.map((e) => [e.id, createEngine(e.modules)] as const));
  return {
    ids: () => entries.map((e) => e.id),
    info(id) {
      const e = entries.find((x) => x.id === id);
      return e ? { id: e.id, name: e.name ?? e.id } : null;
    },
    engineFor: (id) => engines.get(id) ?? null,
    createTable(id, input) {
      const engine = engines.get(id);
      if (!engine) return { ok: false, error: { code: 'UNKNOWN_RULESET', message: `unknown ruleset ${id}`, path: 'rulesetId' } };
      return { ok: true, value: engine.createTable({ ...input, rulesetId: id }) };
    },
    sheet: (id) => entries.find((x) => x.id === id)?.sheet ?? null,
  };
}
