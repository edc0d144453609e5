// Who must answer something now on a teams table (ADR 42), for the browser
// (issue 17): the web asks this instead of walking world.ext.teams. Read from
// the viewer's own world, so a phone sees only what its view holds. Browser-safe
// (ADR 7): the engine's types, and the at-risk list's one reader (life.ts).
import type { Json, World } from '@tablekeeper/engine';
import { teamsAtRisk } from '../life.js';

export interface TeamsAwaiting {
  /** Creatures hit and waiting to choose their reaction before the damage lands (003 "Block"), sorted, each once. */
  readonly hitTargets: readonly string[];
  /** Creatures choosing to fortify or fall unconscious, sorted. */
  readonly atRisk: readonly string[];
  /** Allies a Command made during the turn under way lets take one action now (003 Actions table), sorted. */
  readonly commanded: readonly string[];
}

const NONE: TeamsAwaiting = { hitTargets: [], atRisk: [], commanded: [] };
type Obj = { readonly [k: string]: Json };
const obj = (v: Json | undefined): Obj | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);

export function teamsAwaiting(world: World): TeamsAwaiting {
  if (world.rulesetId !== 'teams' || !Object.hasOwn(world.ext, 'teams')) return NONE;
  const st = obj(world.ext['teams']);
  if (st === null) return NONE;
  const targets = new Set<string>();
  for (const p of Object.values(obj(st['pending']) ?? {})) {
    const t = obj(p)?.['target'];
    if (typeof t === 'string') targets.add(t);
  }
  // A grant lasts through its commander's turn only: the same current creature and turn number (the viewer's own).
  const enc = obj(world.ext['encounter']);
  const commanded = Object.entries(obj(st['commanded']) ?? {}).flatMap(([ally, g]) => (enc !== null && obj(g)?.['by'] === enc['current'] && obj(g)?.['serial'] === enc['turnSerial'] ? [ally] : []));
  return { hitTargets: [...targets].sort(), atRisk: teamsAtRisk(world), commanded: commanded.sort() };
}
