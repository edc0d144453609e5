// The order of a target picker, one rule for every ruleset, GM and phone
// (issue 20, ADR 52): living foes first, then allies, the downed after them
// and the dead last, so the form's default is never a target the roll would
// be refused against. A helping action (stabilize, help an ally) puts allies
// first instead. Ruleset-specific preferences (The 36th Way's "engaged
// first") come in as `prefer`, not as a switch on the ruleset's id.
import type { ActionOption } from '@tablekeeper/rulesets/browser';

/** Whom an action is meant for: a hostile one aims at foes, a helping one at allies. */
export type TargetAim = 'foes' | 'allies';

export interface TargetOrder<T extends ActionOption = ActionOption> {
  /** Whom the action is for (default: foes). */
  readonly aim?: TargetAim;
  /** Targets to put first within their group (the ones the attacker is engaged with). */
  readonly prefer?: (o: T) => boolean;
}

/** 'up', 'down' or 'dead': the option's own standing, else what its note says (older answers carry only a note). */
export function standingOf(o: ActionOption): 'up' | 'down' | 'dead' {
  if (o.standing !== undefined) return o.standing;
  const note = (o.note ?? '').toLowerCase();
  if (note === 'dead' || note.startsWith('dead ')) return 'dead';
  if (note === 'down' || note === 'dying' || note === 'unconscious' || note.startsWith('down ') || note.startsWith('dying ')) return 'down';
  return 'up';
}

/** Whether the engine would refuse this target now (out of reach, dead): never the form's silent default. */
export const refusedTarget = (o: ActionOption): boolean => o.refused !== undefined || standingOf(o) === 'dead';

/**
 * A sort key: for a hostile action, living foes (preferred first), living
 * allies, the downed, then the dead and the refused; for a helping action the
 * same with allies before foes. An option without a side counts as a foe.
 */
function rank<T extends ActionOption>(o: T, order: TargetOrder<T>): number {
  const aim = order.aim ?? 'foes';
  const side = o.side ?? 'foe';
  const wanted = aim === 'foes' ? side === 'foe' : side === 'ally';
  const standing = standingOf(o);
  // A helping action is for the downed as much as for the living (stabilize, resuscitate): standing only breaks ties there.
  const group = aim === 'allies' ? (wanted ? 0 : 2) + (standing === 'dead' ? 4 : 0) : standing === 'dead' ? 6 : standing === 'down' ? 4 : wanted ? 0 : 2;
  const refused = o.refused !== undefined ? 8 : 0;
  const preferred = order.prefer?.(o) === true ? 0 : 1;
  return (refused + group) * 2 + preferred;
}

/** The options in picker order; equal ranks keep the answer's own order (turn order, as the engine lists them). */
export function orderTargets<T extends ActionOption>(options: readonly T[], order: TargetOrder<T> = {}): T[] {
  return options
    .map((o, i) => ({ o, i, r: rank(o, order) }))
    .sort((x, y) => x.r - y.r || x.i - y.i)
    .map((x) => x.o);
}

/**
 * The form's starting target: the first in picker order the engine would accept; a hostile action never starts on an
 * ally (review 10: with the wolves unlisted, Kira's attack started on the unconscious Dorn and hit him). '' when
 * nothing fits: the GM or player picks.
 */
export function defaultTarget<T extends ActionOption>(options: readonly T[], order: TargetOrder<T> = {}): string {
  const ordered = orderTargets(options, order).filter((o) => (order.aim ?? 'foes') === 'allies' || o.side !== 'ally');
  return (ordered.find((o) => !refusedTarget(o)) ?? ordered[0])?.value ?? '';
}

/**
 * The words shown beside a target's name: "ally" in a hostile action's list (review 11 #12: a foe's Attack listed its
 * own goblins beside the PCs, unmarked), its note, and why it cannot be picked now. A helping list (morale, stabilize)
 * mixes sides by design and stays unmarked.
 */
export function targetNote(o: ActionOption, aim: TargetAim = 'foes'): string {
  const side = aim === 'foes' && o.side === 'ally' ? 'ally' : undefined;
  const parts = [side, o.note, o.refused].filter((x): x is string => x !== undefined && x !== '');
  return parts.length === 0 ? '' : ` (${[...new Set(parts)].join(', ')})`;
}
