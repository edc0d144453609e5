// Who fell and who is still standing when a fight ends (review 11 #11: only OSR
// said so). One reading for every ruleset, from what the tracker already shows:
// the ruleset's life flags, a kept sheet's dead or unconscious, a foe at 0 HP or
// with every HP slot marked, a combatant out of turns. OSR writes its own summary.
import { isDefeated, type Combatant, type EncounterState, type World } from '@tablekeeper/engine';
import { lifeFlags } from '@tablekeeper/rulesets/browser';
import { tracksOf } from './encounter.ts';
import { sheetTrackOf } from './sheetTrack.ts';

export type Fate = 'dead' | 'dying' | 'down' | 'standing';

/** How one combatant left the fight, by the same signs the tracker greys a row for. */
export function fateOf(world: World, c: Combatant): Fate {
  const stats = { ...(c.characterId ? world.characters[c.characterId]?.stats : undefined), ...c.stats, ...sheetTrackOf(world, c) };
  const life = lifeFlags(world, c.characterId);
  if (life['dead'] === true || stats['dead'] === true) return 'dead';
  if (life['dying'] === true || stats['dying'] === true) return 'dying';
  const slotsGone = tracksOf(stats, world.rulesetId).some((t) => t.key === 'hpMarked' && t.states.includes('down'));
  const hp = stats['hp'];
  if (c.incapacitated || isDefeated(c) || stats['conscious'] === false || slotsGone || (typeof hp === 'number' && hp <= 0)) return 'down';
  return 'standing';
}

/** The summary's sentences: who fell (and how), then who stands, the PCs apart from the rest. */
export function fightSummaryLines(world: World, enc: EncounterState): string[] {
  const fell: string[] = [];
  const pcs: string[] = [];
  const others: string[] = [];
  for (const id of enc.roster) {
    const c = enc.combatants[id];
    if (c === undefined) continue;
    const fate = fateOf(world, c);
    if (fate !== 'standing') fell.push(`${c.name} (${fate})`);
    else (c.kind === 'pc' ? pcs : others).push(c.name);
  }
  const standing = [pcs.length > 0 ? `the party, ${pcs.join(', ')}` : '', others.length > 0 ? `the others, ${others.join(', ')}` : ''].filter((x) => x !== '');
  return [fell.length > 0 ? `Fell: ${fell.join(', ')}.` : 'Nobody fell.', standing.length > 0 ? `Still standing: ${standing.join('; ')}.` : 'Nobody is left standing.'];
}
