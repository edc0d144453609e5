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
  if (method?.surprise?.pick === 'side') return `Surprise round: only ${label} act (and any who cannot be surprised), then the teams take turns.`;
  const names = rows.filter((d) => choice.actors.includes(d.id) && sideOf(method, d) === choice.side).map((d) => d.name);
  return `Surprise round: only ${names.join(' and ')} act${names.length === 1 ? 's' : ''}, then the usual order.`;
}
