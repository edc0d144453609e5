// Who must answer something now on a teams table (ADR 42) or a 36th Way one (an opportunity attack, ADR 69): a hit waiting for
// its target's reaction, or a fortify-or-fall choice, as the ruleset's
// selector reads this viewer's view (a player's holds only what they may see);
// the choices themselves and their odds come from the engine's teams.reactions query.
import type { World } from '@tablekeeper/engine';
import { teamsAwaiting, tswAwaiting } from '@tablekeeper/rulesets/browser';
import { encounterOf } from './encounter.ts';

/** Sheet keys with something to answer, sorted; a player's own only (the GM answers for anyone). */
export function waitingOn(world: World, gm: boolean, mine: readonly string[]): string[] {
  // The 36th Way: creatures an open provocation lets make an opportunity attack (002), a player's own only.
  const tsw = tswAwaiting(world);
  if (tsw.length > 0) {
    const enc = encounterOf(world);
    const mineChars = new Set(mine.map((m) => (enc !== null && Object.hasOwn(enc.combatants, m) ? enc.combatants[m]!.characterId : null)).filter((c) => c !== null));
    return tsw.filter((t) => gm || mine.includes(t.sheetId) || (t.characterId !== null && mineChars.has(t.characterId))).map((t) => t.sheetId);
  }
  const { hitTargets, atRisk } = teamsAwaiting(world);
  if (hitTargets.length === 0 && atRisk.length === 0) return [];
  const keys = new Set<string>([...hitTargets, ...atRisk]);
  const enc = encounterOf(world);
  const sideOf = (id: string): string | undefined => (enc !== null && Object.hasOwn(enc.combatants, id) ? enc.combatants[id]!.side : undefined);
  // A player's creature on the target's side may Intercept (003): the GM answers for the target only.
  if (!gm) for (const t of hitTargets) for (const m of mine) if (sideOf(m) !== undefined && sideOf(m) === sideOf(t)) keys.add(m);
  return [...keys].filter((k) => gm || mine.includes(k)).sort();
}
