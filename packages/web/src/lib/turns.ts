// Turn controls without a DOM: whether "Previous turn" can take back the last
// turn change, what N sends, and the condition form's command. The damage
// box's command is in damage.ts (GM-only, outside the phone's bundle).
import type { EncounterState, Json } from '@tablekeeper/engine';

/** Undo labels of the steps that move the turn (the kernel's ENCOUNTER_LABELS). */
export const TURN_LABELS: readonly string[] = ['end the turn', 'start the next turn', 'choose who acts'];

/** "Previous turn" is the undo of the last turn change, offered only when that is what undo would take back. */
export function canGoBack(undoLabel: string | null | undefined): boolean {
  return undoLabel !== null && undoLabel !== undefined && TURN_LABELS.includes(undoLabel);
}

export type DamageCommand = { readonly type: string; readonly [k: string]: Json };

/**
 * What "Next turn" (N) sends: end the current turn; with a choice waiting,
 * take its default (the GM's order) or the first who may go, so the GM is
 * never stuck on a prompt; otherwise start the next turn.
 */
export function nextCommand(enc: Pick<EncounterState, 'current' | 'pending'>): { type: string; id?: string } {
  // Naming whose turn it ends: a second click after the turn moved on (a Guard ends its own) is refused, not the next turn's end (ADR 53).
  if (enc.current !== null) return { type: 'encounter.endTurn', id: enc.current };
  const p = enc.pending;
  if (p !== null) {
    const id = p.default ?? p.options[0];
    if (id !== undefined) return { type: 'encounter.choose', id };
  }
  return { type: 'encounter.advance' };
}

/** The picker's "Other" choice: a condition of the GM's own (the kernel's custom: prefix). */
export const CUSTOM = '__custom';

/** The picker's one duration for a fleeting condition: it has no clock of its own (004 "Fleeting Conditions"). */
export const FLEETING = 'fleeting';

/**
 * Durations the picker offers; "save ends" only where the ruleset rolls saves (002).
 * A fleeting condition offers only its own rule: a stack off at the end of each of the bearer's turns,
 * never the one gained that turn (a "1 round" box took both stacks at the round's end: GM review).
 */
export function durationChoices(saveEnds: boolean, fleeting = false, roundless = false): [string, string][] {
  if (fleeting) return [[FLEETING, 'fleeting: a stack off at the end of each of their turns']];
  // No rounds to count (Daggerheart's spotlight): a condition lasts until it is cleared, or the GM ends it with the conflict (ADR 57).
  if (roundless) return [['indefinite', 'until removed'], ['encounterEnd', 'until the conflict ends']];
  return [
    ['rounds', 'rounds'],
    ['turnEnd', 'until the end of their next turn'],
    ...(saveEnds ? [['saveEnds', 'save ends'] as [string, string]] : []),
    ['encounterEnd', 'until the fight ends'],
    ['indefinite', 'until removed'],
  ];
}

export interface ConditionForm {
  readonly choice: string;
  readonly custom: string;
  readonly duration: string;
  readonly rounds: string;
  readonly stacks: string;
}

/** The condition.apply command for the picker's choices, or a sentence saying what to fix. */
export function conditionCommand(target: string, f: ConditionForm): { ok: true; value: DamageCommand } | { ok: false; message: string } {
  const custom = f.custom.trim();
  if (f.choice === CUSTOM && (custom === '' || custom.length > 40)) return { ok: false, message: 'Type a name for the condition (up to 40 characters).' };
  const condition = f.choice === CUSTOM ? `custom:${custom}` : f.choice;
  const stacks = f.stacks.trim() === '' ? 1 : Number(f.stacks);
  if (!Number.isInteger(stacks) || stacks < 1 || stacks > 99) return { ok: false, message: 'Stacks must be a whole number from 1 to 99.' };
  let duration: Json;
  if (f.duration === 'rounds') {
    const n = Number(f.rounds);
    if (!Number.isInteger(n) || n < 1 || n > 1000) return { ok: false, message: 'Rounds must be a whole number from 1 to 1000.' };
    duration = { kind: 'rounds', rounds: n };
  } else if (f.duration === 'turnEnd') duration = { kind: 'turnEnd', of: target };
  // Fleeting stacks end only by the kernel's stack loss, so the instance itself lasts until removed.
  else if (f.duration === FLEETING) duration = { kind: 'indefinite' };
  else if (['saveEnds', 'encounterEnd', 'indefinite'].includes(f.duration)) duration = { kind: f.duration };
  else return { ok: false, message: 'Choose how long the condition lasts.' };
  return { ok: true, value: { type: 'condition.apply', targetId: target, condition, duration, ...(stacks > 1 ? { stacks } : {}) } };
}

/** The name of the player's own combatant whose turn it is, for the phone's banner (null when it is not theirs). */
export function yourTurn(enc: Pick<EncounterState, 'active' | 'current' | 'combatants'> | null, mine: readonly string[]): string | null {
  if (enc === null || !enc.active || enc.current === null || !mine.includes(enc.current)) return null;
  return enc.combatants[enc.current]?.name ?? null;
}

/** What the turn announcer says: whose turn it is ("Your turn: Kira" on the player's own), or a choice a phone must make; nothing else. */
export function turnAnnouncement(enc: Pick<EncounterState, 'current' | 'pending' | 'combatants'>, gm: boolean, mine: readonly string[]): string {
  const current = enc.current ? enc.combatants[enc.current] : undefined;
  if (current) return mine.includes(current.id) ? `Your turn: ${current.name}` : `${current.name}'s turn`;
  if (!gm && enc.pending?.chooser.kind === 'players') return `Waiting: ${enc.pending.prompt}`;
  return '';
}
