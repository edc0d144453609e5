// Words for the one clock's elapsed units.
import type { ClockUnit } from '@tablekeeper/engine';

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

export function elapsedLabel(unit: string, n: number): string {
  const names = UNIT_NAMES[unit as ClockUnit];
  return `${n} ${names === undefined ? unit : names[n === 1 ? 0 : 1]}`;
}
