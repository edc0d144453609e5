// Words for the one clock's elapsed units.
import type { ClockUnit } from '@tablekeeper/engine';
import { restUnitNamesOf } from '@tablekeeper/rulesets/browser';

/** Each unit's name, one and many ("1 turn", "3 turns"). */
const UNIT_NAMES: { readonly [u in ClockUnit]: readonly [string, string] } = {
  actionRoll: ['action roll', 'action rolls'],
  beat: ['beat', 'beats'],
  turn: ['turn', 'turns'],
  round: ['round', 'rounds'],
  travelTurn: ['travel turn', 'travel turns'],
  shortRest: ['short rest', 'short rests'],
  longRest: ['long rest', 'long rests'],
  phase: ['phase', 'phases'],
  time: ['time step', 'time steps'],
};

export function elapsedLabel(unit: string, n: number, rulesetId = ''): string {
  const names = restUnitNamesOf(rulesetId)[unit] ?? UNIT_NAMES[unit as ClockUnit];
  return `${n} ${names === undefined ? unit : names[n === 1 ? 0 : 1]}`;
}

/** "Day 1, 08:10"; seconds show when there are any, so a fight's rounds are seen to move the clock (ADR 44). */
export function timeOfDay(seconds: number): string {
  const day = Math.floor(seconds / 86400) + 1;
  const h = Math.floor(seconds / 3600) % 24;
  const m = Math.floor(seconds / 60) % 60;
  const s = Math.floor(seconds) % 60;
  return `Day ${day}, ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}${s === 0 ? '' : `:${String(s).padStart(2, '0')}`}`;
}
