// The exact odds shown next to chase and dynamic countdowns, computed in the
// browser by the pure engine. Its own module so a phone loads the odds code
// only after the screen is up (the player view's size budget).
import { chaseOdds, countdownOdds, triggerWithin, type Countdown, type Chase, type OutcomeSource, type TransactionView } from '@tablekeeper/engine';
import { isRedacted, pct, type CountdownShown } from './countdowns.ts';

// The ruleset's countdown words (ADR 52) come with this chunk: the GM's controls read them, and a phone needs them
// only to know whether odds apply, so they stay out of the phone's first download (its 30 KB goal).
export { countdownWordsOf, visibilityChip, VISIBILITY_WORDS } from '@tablekeeper/rulesets/browser';

/** "42% <name> first": the chase's odds from the current values, or null if it cannot be computed. */
export function chaseLine(chase: Chase, byId: Map<string, CountdownShown>, source: OutcomeSource): { pcs: string; other: string; both: string; expected: string } | null {
  const p = byId.get(chase.progressId);
  const c = byId.get(chase.consequenceId);
  if (!p || !c || isRedacted(p) || isRedacted(c) || chase.result !== null) return null;
  if (p.value < 1 || c.value < 1) return null;
  const r = chaseOdds({ progress: p.value, consequence: c.value }, source);
  if (!r.ok) return null;
  return {
    pcs: `${pct(r.value.progressFirst)} ${p.name}`,
    other: `${pct(r.value.consequenceFirst)} ${c.name}`,
    both: r.value.sameRoll > 0 ? `${pct(r.value.sameRoll)} both on one roll` : '',
    expected: Number.isFinite(r.value.expectedRolls) ? `${r.value.expectedRolls.toFixed(1)} rolls expected` : '',
  };
}

/** For a lone dynamic countdown: its chance to trigger within 3 rolls and the expected number of rolls. */
export function dynamicLine(cd: Countdown, source: OutcomeSource): string | null {
  // A standard countdown ticks once per roll whatever happens: nothing to estimate.
  if (cd.kind !== 'progress' && cd.kind !== 'consequence') return null;
  if (cd.status !== 'active' || cd.value < 1) return null;
  const r = countdownOdds({ value: cd.value, advance: cd.kind }, source);
  if (!r.ok) return null;
  const within = triggerWithin(r.value, 3);
  const exp = Number.isFinite(r.value.expectedRolls) ? `, ${r.value.expectedRolls.toFixed(1)} rolls expected` : '';
  return `${pct(within)} it triggers within 3 rolls${exp}`;
}

/** A typical action roll (a +2 trait against a standard difficulty of 12), until the table has made one. */
export const TYPICAL_ROLL = { modifier: 2, difficulty: 12 } as const;

/**
 * The roll the odds assume, read from the table, never typed (review 7, ADR 57): the last action roll this
 * viewer saw with its difficulty (a duality roll record: Hope, Fear, modifier, difficulty), or a typical
 * roll before any. An undone roll does not count; a roll against a hidden difficulty is skipped.
 */
export function assumedRoll(history: readonly TransactionView[]): { readonly source: { readonly modifier: number; readonly difficulty: number }; readonly words: string } {
  const undone = new Set<number>();
  for (const tx of history) {
    if (tx.kind === 'undo' && tx.target !== undefined) undone.add(tx.target);
    if (tx.kind === 'redo' && tx.target !== undefined) undone.delete(tx.target);
  }
  for (let i = history.length - 1; i >= 0; i--) {
    const tx = history[i]!;
    if (tx.kind !== 'command' || undone.has(tx.seq)) continue;
    for (let j = tx.events.length - 1; j >= 0; j--) {
      const r = tx.events[j]!['roll'];
      if (r === null || typeof r !== 'object' || Array.isArray(r)) continue;
      const { hope, fear, modifier, difficulty } = r;
      if (typeof hope !== 'number' || typeof fear !== 'number' || typeof modifier !== 'number' || typeof difficulty !== 'number') continue;
      return { source: { modifier, difficulty }, words: `the last action roll: ${modifier < 0 ? '−' : '+'}${Math.abs(modifier)} vs difficulty ${difficulty}` };
    }
  }
  return { source: TYPICAL_ROLL, words: `a typical action roll, +${TYPICAL_ROLL.modifier} vs difficulty ${TYPICAL_ROLL.difficulty}, until one is made` };
}
