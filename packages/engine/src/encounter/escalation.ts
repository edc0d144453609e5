// 002 "Escalation Die": 0 in round 1, 1 at the start of round 2, +1 per round
// up to 6. The GM may offset it; some actors (or Shaken bearers) count it as 0.
import type { EncounterState, EscalationSettings } from './types.js';

export function escalationBase(round: number, settings: EscalationSettings = {}): number {
  const start = settings.start ?? 0;
  const max = settings.max ?? 6;
  if (round < 1) return 0; // the surprise round has no die
  return Math.min(max, start + (round - 1));
}

/** The die on the table: base for the round plus the GM's offset, kept in [0, max]. */
export function escalationValue(enc: EncounterState, settings: EscalationSettings = {}): number {
  if (!enc.active || enc.round < 1) return 0; // no die in the surprise round
  const max = settings.max ?? 6;
  return Math.max(0, Math.min(max, escalationBase(enc.round, settings) + enc.escalation.offset));
}

export type Parity = 'even' | 'odd' | 'neither';
/** 0 is neither even nor odd (002). */
export function escalationParity(value: number): Parity {
  if (value === 0) return 'neither';
  return value % 2 === 0 ? 'even' : 'odd';
}
