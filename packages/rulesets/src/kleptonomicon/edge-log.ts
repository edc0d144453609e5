// The Edge Saves in the log (004 "Turn Order"; issue 20, review 10: they were
// only in the Episode panel): one line per PC with each die, the Score needed
// and where the saves put them. Players read a version without the foe groups
// they cannot see (renumbered, as their view of the turn order is), so a
// hidden foe's group never reaches a phone.
import { AUDIENCE_ALL, AUDIENCE_GM, appendLog, getEncounter, own, type Combatant, type Json, type World } from '@tablekeeper/engine';
import { testDiceText } from './roll.js';

const obj = (v: Json | undefined): { readonly [k: string]: Json } | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null);
const whole = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** A foe group as one viewer sees it: its number and its members' names (null: the viewer sees none of it). */
type Group = { readonly number: number; readonly names: readonly string[] } | null;

function groupsFor(combatants: readonly Combatant[], players: boolean): Map<number, Group> {
  const members = new Map<number, Combatant[]>();
  for (const c of combatants) {
    const g = whole(obj(c.placement)?.['group']);
    if (c.kind === 'npc' && g !== null) members.set(g, [...(members.get(g) ?? []), c]);
  }
  const out = new Map<number, Group>();
  let n = 0;
  for (const g of [...members.keys()].sort((a, b) => a - b)) {
    const seen = (members.get(g) ?? []).filter((c) => !players || c.visibility !== 'hidden');
    // A group of hidden foes is no group at all to players; one known only to exist is "Unknown" (ADR 33).
    out.set(g, seen.length === 0 ? null : { number: ++n, names: seen.map((c) => (players && c.visibility === 'existence' ? 'Unknown' : c.name)) });
  }
  return out;
}

/**
 * "Edge Saves for Kira (a Score of 7 or more passes): ..." as the GM (players: false) or a phone reads it; null when nothing
 * was rolled. `round`: the round a re-roll placed them for ("Edge Saves for Kira for round 2 ..."), none at the start.
 */
export function edgeSaveLine(pc: Combatant, combatants: readonly Combatant[], failAtOrBelow: number, players: boolean, round?: number): string | null {
  const p = obj(pc.placement);
  const rolls = Array.isArray(p?.['rolls']) ? p['rolls'].map((r) => obj(r)).filter((r) => r !== null) : [];
  if (rolls.length === 0) return null;
  const groups = groupsFor(combatants, players);
  const saves: string[] = [];
  let after: number | null = null;
  for (const r of rolls) {
    const g = groups.get(whole(r['group']) ?? -1);
    const failed = r['failed'] === true;
    if (g === undefined || g === null) continue;
    saves.push(`against foe group ${g.number} (${g.names.join(', ')}) rolled ${testDiceText(r['detail'] ?? null)}, ${failed ? 'failed' : 'passed'}`);
    if (failed) after = g.number;
  }
  const slot = whole(p?.['slot']) ?? 0;
  // Players whose PC failed against a group they cannot see read where the turn order shows them, not why.
  const where = slot === 0 ? `${pc.name} acts before the foes.` : after !== null ? `${pc.name} acts after foe group ${after}.` : players ? '' : `${pc.name} acts after foe group ${slot}.`;
  const head = `Edge Saves for ${pc.name}${round === undefined ? '' : ` for round ${round}`} (a Score of ${failAtOrBelow + 1} or more passes)`;
  // Players with no save in view read nothing: even "none in view" would tell them a hidden group exists (review 12 #5).
  if (saves.length === 0) return players ? null : `${head}: none against a foe group. ${where}`.trim();
  return `${head}: ${saves.join('; ')}. ${where}`.trim();
}

/** Logs the Edge Saves of `ids` (PCs just placed; `round` when a re-roll placed them), each line with its players' version where they differ. */
export function logEdgeSaves(world: World, ids: readonly string[], round?: number): World {
  const enc = getEncounter(world);
  const combatants = enc.roster.flatMap((id) => {
    const c = own(enc.combatants, id);
    return c === undefined ? [] : [c];
  });
  const failAt = whole(obj(enc.seq)?.['failAtOrBelow']) ?? 6;
  let w = world;
  for (const id of ids) {
    const pc = own(enc.combatants, id);
    if (pc === undefined || pc.kind !== 'pc') continue;
    const text = edgeSaveLine(pc, combatants, failAt, false, round);
    if (text === null) continue;
    const shown = edgeSaveLine(pc, combatants, failAt, true, round);
    // A PC the GM keeps hidden keeps its saves with the GM too; so does a line with no save in players' view.
    const gmOnly = pc.visibility === 'hidden' || shown === null;
    w = appendLog(w, { audience: gmOnly ? AUDIENCE_GM : AUDIENCE_ALL, kind: 'kleptonomicon.edgeSaves', text, ...(!gmOnly && shown !== text ? { shown } : {}) });
  }
  return w;
}
