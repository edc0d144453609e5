// Who fell and who is still standing when a fight ends (review 11 #11: only OSR
// said so). One reading for every ruleset, from what the tracker already shows:
// the ruleset's life flags, a kept sheet's dead or unconscious, a foe at 0 HP or
// with every HP slot marked, a combatant out of turns. OSR writes its own summary.
// Since ADR 90 the End click writes it to the log too, with what stays on whom.
import { isDefeated, type Combatant, type EncounterState, type World } from '@tablekeeper/engine';
import { hasPanel, lifeFlags } from '@tablekeeper/rulesets/browser';
import type { ClientCommand } from '../net/codec.ts';
import { conditionName, durationLabel, namesOf, tracksOf } from './encounter.ts';
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

/** A condition the end of this fight leaves on (ADR 57: until removed, until a rest), as the End button lists it. */
export interface Outlasting {
  readonly conditionId: string;
  readonly name: string;
  readonly condition: string;
  readonly lasts: string;
  /** Until removed: the End button's one click may clear it. Until a rest is the GM's own clock, left alone. */
  readonly clearable: boolean;
  /** On a creature the players cannot see: named in the GM's line only. */
  readonly hidden: boolean;
}

/**
 * The conditions still on when this running fight ends: all but those the kernel ends with it (a fleeting
 * stack, "until the fight ends", rounds, turn anchors, save ends). Sorted by bearer, then condition.
 */
export function outlastingConditions(world: World, enc: EncounterState): Outlasting[] {
  const names = namesOf(world);
  const fleeting = new Set((enc.catalogue?.conditions ?? []).filter((d) => d.fleeting === true).map((d) => d.id));
  return Object.values(enc.conditions ?? {})
    .filter((c) => c.duration.kind === 'rest' || (c.duration.kind === 'indefinite' && !fleeting.has(c.defId)))
    .map((c): Outlasting => {
      const lasts = durationLabel(c.duration, names);
      return { conditionId: c.id, name: names[c.target] ?? 'someone', condition: conditionName(enc, c.defId), lasts: lasts === '' ? 'until removed' : lasts, clearable: c.duration.kind === 'indefinite', hidden: hiddenBearer(enc, c.target) };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.condition.localeCompare(b.condition));
}

/** A bearer the players do not see: a hidden combatant, by its id or its character's. */
function hiddenBearer(enc: EncounterState, target: string): boolean {
  return Object.values(enc.combatants).some((c) => (c.id === target || c.characterId === target) && c.visibility === 'hidden');
}

/** A note's words within the log's limit (a fight of 200 may name many). */
const capped = (text: string): string => (text.length <= 2000 ? text : `${text.slice(0, 1998)}…`);

const stillOn = (list: readonly Outlasting[]): string => (list.length === 0 ? '' : ` Still on after the fight: ${list.map((o) => `${o.name}: ${o.condition} (${o.lasts})`).join(', ')}.`);

/**
 * The summary as log notes, written in the End click's own step (one Undo takes both back): one for everyone
 * naming only the creatures the players can see, and, when a hidden one fought, one for the GM about it. OSR's
 * engine already writes the GM's summary (with the dying's minute), so there only the players' note is added.
 * `cleared`: conditions the same click removes, so they are not said to stay.
 */
export function summaryNotes(world: World, enc: EncounterState, cleared: readonly string[] = []): ClientCommand[] {
  const hidden = new Set(enc.roster.filter((id) => enc.combatants[id]?.visibility === 'hidden'));
  const seen: EncounterState = { ...enc, roster: enc.roster.filter((id) => !hidden.has(id)) };
  const on = outlastingConditions(world, enc).filter((o) => !cleared.includes(o.conditionId));
  const title = `${(enc.number ?? 1) > 1 ? `Encounter ${enc.number}` : 'The fight'} in short:`;
  const out: ClientCommand[] = [{ type: 'log.note', text: capped(`${title} ${fightSummaryLines(world, seen).join(' ')}${stillOn(on.filter((o) => !o.hidden))}`), audience: { kind: 'all' } }];
  if (hidden.size > 0 && !hasPanel(world.rulesetId, 'fightSummary')) {
    const fates = [...hidden].flatMap((id) => {
      const c = enc.combatants[id];
      return c === undefined ? [] : [`${c.name} (${fateOf(world, c) === 'standing' ? 'still standing' : fateOf(world, c)})`];
    });
    out.push({ type: 'log.note', text: capped(`Hidden from the players: ${fates.join(', ')}.${stillOn(on.filter((o) => o.hidden))}`), audience: { kind: 'gm' } });
  }
  return out;
}

/** The End click's commands: end the fight, clear what the GM chose to clear, and write the summary. */
export function endCommands(world: World, enc: EncounterState, clear: readonly string[] = []): ClientCommand[] {
  return [{ type: 'encounter.end' }, ...clear.map((conditionId): ClientCommand => ({ type: 'condition.remove', conditionId })), ...summaryNotes(world, enc, clear)];
}
