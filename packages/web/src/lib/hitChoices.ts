// Who must answer something now on a teams table (ADR 42) or a 36th Way one (an opportunity attack, ADR 69): a hit waiting for
// its target's reaction, or a fortify-or-fall choice, as the ruleset's
// selector reads this viewer's view (a player's holds only what they may see);
// the choices themselves and their odds come from the engine's teams.reactions query.
import type { World } from '@tablekeeper/engine';
import { keptSheetIdOf, kleptoAwaiting, pendingHitsOf, teamsAwaiting, tswAwaiting } from '@tablekeeper/rulesets/browser';
import { encounterOf } from './encounter.ts';

/**
 * Sheet keys with something to answer, sorted; a player's own only (the GM answers for anyone): `mine` are the
 * combatants they play in the running fight, `characters` their characters, each answering by its kept sheet's key.
 */
export function waitingOn(world: World, gm: boolean, mine: readonly string[], characters: readonly string[] = []): string[] {
  // The 36th Way: creatures an open provocation lets make an opportunity attack (002), a player's own only.
  const tsw = tswAwaiting(world);
  if (tsw.length > 0) {
    const enc = encounterOf(world);
    const mineChars = new Set(mine.map((m) => (enc !== null && Object.hasOwn(enc.combatants, m) ? enc.combatants[m]!.characterId : null)).filter((c) => c !== null));
    return tsw.filter((t) => gm || mine.includes(t.sheetId) || (t.characterId !== null && mineChars.has(t.characterId))).map((t) => t.sheetId);
  }
  // The Kleptonomicon: combatants someone's Move left, with an Opportunity Attack open (004 "Movement Reactions").
  const klepto = kleptoAwaiting(world);
  if (klepto.length > 0) return klepto.filter((id) => gm || mine.includes(id));
  const { hitTargets, atRisk } = teamsAwaiting(world);
  if (hitTargets.length === 0 && atRisk.length === 0) return [];
  const keys = new Set<string>([...hitTargets, ...atRisk]);
  const enc = encounterOf(world);
  // A choice raised outside the running fight (between fights, ADR 112, or while a fight she is not in runs, ADR 117)
  // waits on the character's kept sheet: a phone's characters answer by it, whether a fight runs or not.
  const ours = [...mine, ...characters.flatMap((c) => keptSheetIdOf(world, c) ?? [])];
  const sideOf = (id: string): string | undefined => (enc !== null && Object.hasOwn(enc.combatants, id) ? enc.combatants[id]!.side : undefined);
  // A player's creature on the target's side may Intercept (003): the GM answers for the target only.
  if (!gm) for (const t of hitTargets) for (const m of ours) if (sideOf(m) !== undefined && sideOf(m) === sideOf(t)) keys.add(m);
  return [...keys].filter((k) => gm || ours.includes(k)).sort();
}

/**
 * What ending the fight now would settle unasked, in words naming who (review 10: a hit waiting for Dorn's reaction
 * outlived "End encounter" without a word); null when nothing waits. The engine lands such hits bare at the end.
 */
export function endWarning(world: World): string | null {
  const enc = encounterOf(world);
  const name = (id: string): string => (enc !== null && Object.hasOwn(enc.combatants, id) ? enc.combatants[id]!.name : 'someone');
  const list = (ids: readonly string[]): string => {
    const n = [...new Set(ids.map(name))];
    return n.length === 1 ? n[0]! : `${n.slice(0, -1).join(', ')} and ${n.at(-1)!}`;
  };
  const { hitTargets } = teamsAwaiting(world);
  // Only a fighter's choice falls at the end; one raised between fights for someone outside it waits on (ADR 112).
  const atRisk = teamsAwaiting(world).atRisk.filter((id) => enc !== null && Object.hasOwn(enc.combatants, id));
  const out: string[] = [];
  if (hitTargets.length > 0) out.push(`${list(hitTargets)} ${hitTargets.length === 1 ? 'has a hit' : 'have hits'} waiting for a reaction: ending the fight now lands ${hitTargets.length === 1 ? 'it' : 'them'} with no reaction.`);
  if (atRisk.length > 0) out.push(`${list(atRisk)} must still choose to fortify or fall: ending the fight now knocks ${atRisk.length === 1 ? 'them' : 'them all'} out.`);
  const tsw = tswAwaiting(world);
  if (tsw.length > 0) out.push(`${list(tsw.map((t) => t.sheetId))} may still make an opportunity attack: ending the fight now drops it.`);
  // Daggerheart: a hit waiting on its PC's Armor choice (ADR 50) lands bare at the end (ADR 79).
  const armor = pendingHitsOf(world);
  if (armor.length > 0) {
    const names = [...new Set(armor.map((h) => world.characters[h.characterId]?.name ?? 'someone'))];
    const who = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
    out.push(`${who} ${armor.length === 1 ? 'has a hit' : 'have hits'} waiting for an Armor choice: ending the conflict now lands ${armor.length === 1 ? 'it' : 'them'} with no Armor Slot marked.`);
  }
  return out.length === 0 ? null : out.join(' ');
}
