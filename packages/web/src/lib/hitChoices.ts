// Who must answer something now on a teams table (ADR 42): a hit waiting for
// its target's reaction, or a fortify-or-fall choice, as the ruleset's
// selector reads this viewer's view (a player's holds only what they may see);
// the choices themselves and their odds come from the engine's teams.reactions query.
import type { World } from '@tablekeeper/engine';
import { teamsAwaiting } from '@tablekeeper/rulesets/browser';
import { encounterOf } from './encounter.ts';

/** Sheet keys with something to answer, sorted; a player's own only (the GM answers for anyone). */
export function waitingOn(world: World, gm: boolean, mine: readonly string[]): string[] {
  const { hitTargets, atRisk } = teamsAwaiting(world);
  if (hitTargets.length === 0 && atRisk.length === 0) return [];
  const keys = new Set<string>([...hitTargets, ...atRisk]);
  const enc = encounterOf(world);
  const sideOf = (id: string): string | undefined => (enc !== null && Object.hasOwn(enc.combatants, id) ? enc.combatants[id]!.side : undefined);
  // A player's creature on the target's side may Intercept (003): the GM answers for the target only.
  if (!gm) for (const t of hitTargets) for (const m of mine) if (sideOf(m) !== undefined && sideOf(m) === sideOf(t)) keys.add(m);
  return [...keys].filter((k) => gm || mine.includes(k)).sort();
}
