// The surprise round the GM may start a fight with (002 "Surprise and
// Ambushes", 003 "Surprise"), where the ruleset's initiative declares one:
// which side ambushes and, where the text says so, which of them act. The
// engine decides who acts; this only words the choice and checks it first.
import type { Json } from '@tablekeeper/engine';
import { sideOf, type Draft, type InitiativeMethod, type Parsed } from './initiative.ts';

/** What the GM chose: no surprise (side ''), or the ambushing side and, for a pick of actors, who acts. */
export interface SurpriseChoice {
  readonly side: string;
  readonly actors: readonly string[];
  /** Rows off the ambushing side that cannot be surprised (003 "Surprise": Clementine's danger sense); they act too. */
  readonly unsurprised?: readonly string[];
  /** The party ambushes and the GM starts the escalation die higher in round 1 (002 "Surprise and Ambushes" allows 1). */
  readonly escalation?: boolean;
}

export const NO_SURPRISE: SurpriseChoice = { side: '', actors: [] };

/** The sides that may ambush, in line-up order, with the words the picker shows ("The party", a team's name). */
export function surpriseSides(method: InitiativeMethod | null, rows: readonly Draft[]): { readonly side: string; readonly label: string }[] {
  if (method?.surprise == null) return [];
  const sides = [...new Set(rows.map((d) => sideOf(method, d)))];
  return sides.map((side) => ({ side, label: side === 'pcs' ? 'The party' : side === 'npcs' ? 'The foes' : side }));
}

/** The rows that may be picked to act in the surprise round: the ambushing side's. */
export function surpriseCandidates(method: InitiativeMethod | null, rows: readonly Draft[], side: string): Draft[] {
  return rows.filter((d) => sideOf(method, d) === side);
}

/** Where the whole ambushing side acts (003), the rows of the other sides, any of which the GM may mark as not surprised. */
export function unsurprisedCandidates(method: InitiativeMethod | null, rows: readonly Draft[], side: string): Draft[] {
  return method?.surprise?.pick !== 'side' || side === '' ? [] : rows.filter((d) => sideOf(method, d) !== side);
}

/** The ids of the rows still lined up off the ambushing side that the GM marked as not surprised. */
function unsurprisedOf(method: InitiativeMethod | null, rows: readonly Draft[], choice: SurpriseChoice): string[] {
  const open = new Set(unsurprisedCandidates(method, rows, choice.side).map((d) => d.id));
  return (choice.unsurprised ?? []).filter((id) => open.has(id));
}

/** encounter.start's combatants with `unsurprisable` on those the GM marked; the rest as they were. */
export function markUnsurprised(method: InitiativeMethod | null, rows: readonly Draft[], choice: SurpriseChoice, combatants: readonly Json[]): Json[] {
  const marked = new Set(unsurprisedOf(method, rows, choice));
  return combatants.map((c) => (c !== null && typeof c === 'object' && !Array.isArray(c) && typeof c['id'] === 'string' && marked.has(c['id']) ? { ...c, unsurprisable: true } : c));
}

/**
 * The encounter.start `surprise` for this choice, null for none, or what to fix in words: a side no longer lined up
 * is dropped (the GM took its rows off), and a pick of actors needs one to `most` of that side.
 */
export function surpriseParam(method: InitiativeMethod | null, rows: readonly Draft[], choice: SurpriseChoice): Parsed<Json | null> {
  const rule = method?.surprise ?? null;
  if (rule === null || choice.side === '' || !surpriseSides(method, rows).some((s) => s.side === choice.side)) return { ok: true, value: null };
  if (rule.pick === 'side') return { ok: true, value: { side: choice.side } };
  const mine = new Set(surpriseCandidates(method, rows, choice.side).map((d) => d.id));
  const actors = [...new Set(choice.actors)].filter((id) => mine.has(id));
  const who = surpriseSides(method, rows).find((s) => s.side === choice.side)!.label.toLowerCase();
  if (actors.length === 0 || actors.length > rule.most) return { ok: false, message: `Choose who acts in the surprise round: one or ${rule.most === 2 ? 'two' : rule.most} of ${who} (${rule.source}).` };
  return { ok: true, value: { side: choice.side, actors } };
}

/** What the log and the button say the fight starts with, for the GM before the click. */
export function surpriseWords(method: InitiativeMethod | null, rows: readonly Draft[], choice: SurpriseChoice): string | null {
  const p = surpriseParam(method, rows, choice);
  if (!p.ok || p.value === null) return null;
  const label = surpriseSides(method, rows).find((s) => s.side === choice.side)!.label;
  if (method?.surprise?.pick === 'side') {
    const awake = rows.filter((d) => unsurprisedOf(method, rows, choice).includes(d.id)).map((d) => d.name);
    const also = awake.length === 0 ? 'and any who cannot be surprised' : `and ${awake.join(' and ')}, who cannot be surprised`;
    return `Surprise round: only ${label} act (${also}), then the teams take turns.`;
  }
  const names = rows.filter((d) => choice.actors.includes(d.id) && sideOf(method, d) === choice.side).map((d) => d.name);
  return `Surprise round: only ${names.join(' and ')} act${names.length === 1 ? 's' : ''}, then the usual order.`;
}

/** The shift of the escalation die the GM may choose when the party ambushes, or null where the text offers none here. */
export function ambushEscalationOf(method: InitiativeMethod | null, side: string): number | null {
  return side === 'pcs' ? (method?.surprise?.pcAmbushEscalation ?? null) : null;
}

/** The command that starts the die at the text's value in round 1, sent with the start; null unless chosen for a party ambush. */
export function ambushEscalationCommand(method: InitiativeMethod | null, rows: readonly Draft[], choice: SurpriseChoice): { type: 'encounter.escalationOffset'; offset: number } | null {
  const shift = ambushEscalationOf(method, choice.side);
  const p = surpriseParam(method, rows, choice);
  return shift === null || choice.escalation !== true || !p.ok || p.value === null ? null : { type: 'encounter.escalationOffset', offset: shift };
}
