// Turn controls and the damage box, without a DOM: whether "Previous turn"
// can take back the last turn change, and the command a number typed in the
// damage box sends (the ruleset's own damage when the creature has a ruleset
// sheet: 36th Way resistances, the teams' endurance before health).
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import { hasSheet, sheetTrackOf } from './sheetEditor.ts';

/** Undo labels of the steps that move the turn (the kernel's ENCOUNTER_LABELS). */
export const TURN_LABELS: readonly string[] = ['end the turn', 'start the next turn', 'choose who acts'];

/** "Previous turn" is the undo of the last turn change, offered only when that is what undo would take back. */
export function canGoBack(undoLabel: string | null | undefined): boolean {
  return undoLabel !== null && undoLabel !== undefined && TURN_LABELS.includes(undoLabel);
}

export const MAX_DAMAGE = 100000;

export type DamageCommand = { readonly type: string; readonly [k: string]: Json };

/** What the damage box sends for `text` (a whole number), or a sentence saying what to type. */
export function damageCommand(world: World, combatantId: string, kind: 'damage' | 'heal', text: string): { ok: true; value: DamageCommand } | { ok: false; message: string } {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isInteger(n) || n < 1 || n > MAX_DAMAGE) return { ok: false, message: `Type a whole number from 1 to ${MAX_DAMAGE}, then press ${kind === 'damage' ? 'Damage' : 'Heal'}.` };
  const sheet = hasSheet(world, combatantId);
  if (kind === 'damage' && sheet === '36th-way') return { ok: true, value: { type: '36th-way.damage', targetId: combatantId, amount: n } };
  if (kind === 'damage' && sheet === 'teams') return { ok: true, value: { type: 'teams.damage', targetId: combatantId, amount: n } };
  if (kind === 'heal' && sheet === 'teams') return teamsHeal(world, combatantId, n);
  // OSR: a character's damage goes through the ruleset, so 0 HP makes them dying (001 "Death & Injury"; the kernel's
  // plain HP change did not, and Stabilize never came up); healing a dying character is refused there, in words.
  const enc = world.ext['encounter'] as { combatants?: { [id: string]: { characterId?: string | null } } } | undefined;
  const ch = world.rulesetId === 'osr' && enc?.combatants !== undefined && Object.hasOwn(enc.combatants, combatantId) ? enc.combatants[combatantId]!.characterId : null;
  if (typeof ch === 'string') return { ok: true, value: { type: kind === 'damage' ? 'osr.damage' : 'osr.heal', targetId: ch, amount: n } };
  return { ok: true, value: { type: kind === 'damage' ? 'encounter.damage' : 'encounter.heal', characterId: combatantId, amount: n } };
}

/**
 * Healing on a teams sheet (003 gives no healing rule of its own): the reverse
 * of damage's order, health first (damage reaches it last), then endurance,
 * each up to its maximum; one teams.setTrack, so the heal is one undo step.
 * Healing that would spill past health is capped there; press Heal again for endurance.
 */
function teamsHeal(world: World, id: string, n: number): { ok: true; value: DamageCommand } | { ok: false; message: string } {
  const t = sheetTrackOf(world, { id, characterId: null });
  const num = (k: string): number => (typeof t[k] === 'number' ? (t[k] as number) : 0);
  for (const field of ['health', 'endurance'] as const) {
    const max = num(`max${field[0]!.toUpperCase()}${field.slice(1)}`);
    if (num(field) < max) return { ok: true, value: { type: 'teams.setTrack', characterId: id, field, value: Math.min(max, num(field) + n) } };
  }
  return { ok: false, message: 'Nothing to heal: endurance and health are full.' };
}

/**
 * What "Next turn" (N) sends: end the current turn; with a choice waiting,
 * take its default (the GM's order) or the first who may go, so the GM is
 * never stuck on a prompt; otherwise start the next turn.
 */
export function nextCommand(enc: Pick<EncounterState, 'current' | 'pending'>): { type: string; id?: string } {
  if (enc.current !== null) return { type: 'encounter.endTurn' };
  const p = enc.pending;
  if (p !== null) {
    const id = p.default ?? p.options[0];
    if (id !== undefined) return { type: 'encounter.choose', id };
  }
  return { type: 'encounter.advance' };
}

/** The picker's "Other" choice: a condition of the GM's own (the kernel's custom: prefix). */
export const CUSTOM = '__custom';

/** Durations the picker offers; "save ends" only where the ruleset rolls saves (002). */
export function durationChoices(saveEnds: boolean): [string, string][] {
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
  else if (['saveEnds', 'encounterEnd', 'indefinite'].includes(f.duration)) duration = { kind: f.duration };
  else return { ok: false, message: 'Choose how long the condition lasts.' };
  return { ok: true, value: { type: 'condition.apply', targetId: target, condition, duration, ...(stacks > 1 ? { stacks } : {}) } };
}

/** The name of the player's own combatant whose turn it is, for the phone's banner (null when it is not theirs). */
export function yourTurn(enc: Pick<EncounterState, 'active' | 'current' | 'combatants'> | null, mine: readonly string[]): string | null {
  if (enc === null || !enc.active || enc.current === null || !mine.includes(enc.current)) return null;
  return enc.combatants[enc.current]?.name ?? null;
}
