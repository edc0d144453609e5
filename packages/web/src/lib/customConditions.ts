// The table's own conditions in the pickers (issue 20, ADR 71): what a saved
// condition's picker choice is, the duration the picker starts on for it, the
// words for that duration, and the customCondition.save command from the
// form's boxes. Small and DOM-free: the phone's "Ask the GM" form uses it too.
import type { Json } from '@tablekeeper/engine';
import type { SavedCondition, SavedDuration } from '@tablekeeper/engine/custom-conditions';

/** The picker value of a saved condition: the kernel's custom condition of that name. */
export const savedChoice = (c: Pick<SavedCondition, 'name'>): string => `custom:${c.name}`;

/** The saved condition a picker choice stands for, if any. */
export function savedFor(saved: readonly SavedCondition[], choice: string): SavedCondition | undefined {
  return saved.find((c) => savedChoice(c) === choice);
}

/** The picker's duration value and rounds box for a saved condition's usual duration. */
export function pickerDuration(d: SavedDuration): { readonly duration: string; readonly rounds: string } {
  return { duration: d.kind, rounds: d.kind === 'rounds' ? String(d.rounds) : '1' };
}

/** "3 rounds", "until the end of their next turn"... for the list of the table's conditions. */
export function durationWords(d: SavedDuration): string {
  switch (d.kind) {
    case 'rounds':
      return d.rounds === 1 ? '1 round' : `${d.rounds} rounds`;
    case 'turnEnd':
      return 'until the end of their next turn';
    case 'saveEnds':
      return 'save ends';
    case 'encounterEnd':
      return 'until the fight ends';
    case 'indefinite':
      return 'until removed';
  }
}

export interface SaveConditionForm {
  readonly id?: string;
  readonly name: string;
  readonly description: string;
  /** The picker's duration value (rounds, turnEnd, saveEnds, encounterEnd, indefinite; fleeting reads as until removed). */
  readonly duration: string;
  readonly rounds: string;
}

/** The customCondition.save command for the form's boxes, or a sentence saying what to fix. */
export function saveConditionCommand(f: SaveConditionForm): { ok: true; value: { readonly type: string; readonly [k: string]: Json } } | { ok: false; message: string } {
  const name = f.name.trim().replace(/\s+/g, ' ');
  if (name === '' || name.length > 40) return { ok: false, message: 'Type a name for the condition (up to 40 characters).' };
  const description = f.description.trim();
  if (description.length > 300) return { ok: false, message: 'Keep the description to 300 characters.' };
  let duration: Json;
  if (f.duration === 'rounds') {
    const n = Number(f.rounds);
    if (f.rounds.trim() === '' || !Number.isInteger(n) || n < 1 || n > 1000) return { ok: false, message: 'Rounds must be a whole number from 1 to 1000.' };
    duration = { kind: 'rounds', rounds: n };
  } else if (f.duration === 'fleeting') duration = { kind: 'indefinite' };
  else if (['turnEnd', 'saveEnds', 'encounterEnd', 'indefinite'].includes(f.duration)) duration = { kind: f.duration };
  else return { ok: false, message: 'Choose how long the condition usually lasts.' };
  return { ok: true, value: { type: 'customCondition.save', ...(f.id === undefined ? {} : { id: f.id }), name, ...(description === '' ? {} : { description }), duration } };
}
