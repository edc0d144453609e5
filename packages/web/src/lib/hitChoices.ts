// Who must answer something now on a teams table (ADR 42): a hit waiting for
// its target's reaction, or a fortify-or-fall choice. Read from this viewer's
// view (a player's holds only what they may see); the choices themselves and
// their odds come from the engine's teams.reactions query.
import type { Json, World } from '@tablekeeper/engine';

type Obj = { readonly [k: string]: Json };
const obj = (v: Json | undefined): Obj | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);

/** Sheet keys with something to answer, sorted; a player's own only (the GM answers for anyone). */
export function waitingOn(world: World, gm: boolean, mine: readonly string[]): string[] {
  const st = obj(world.ext['teams']);
  if (world.rulesetId !== 'teams' || st === null) return [];
  const keys = new Set<string>();
  const sideOf = (id: string): Json | undefined => obj(obj(obj(world.ext['encounter'])?.['combatants'])?.[id])?.['side'];
  for (const p of Object.values(obj(st['pending']) ?? {})) {
    const t = obj(p)?.['target'];
    if (typeof t !== 'string') continue;
    keys.add(t);
    // A player's creature on the target's side may Intercept (003): the GM answers for the target only.
    if (!gm) for (const m of mine) if (sideOf(m) !== undefined && sideOf(m) === sideOf(t)) keys.add(m);
  }
  for (const k of Object.keys(obj(st['atRisk']) ?? {})) keys.add(k);
  return [...keys].filter((k) => gm || mine.includes(k)).sort();
}
