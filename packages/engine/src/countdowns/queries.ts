// Countdown odds as a module query: "what are the chances the thief gets away?"
// answered on the asker's own view (a countdown whose values they may not see
// has no odds for them), for an action roll of the given modifier and difficulty.
import { own } from '../core/own.js';
import { defineQuery, err, ErrorCode, ok } from '../core/index.js';
import { fromJson } from '../core/events.js';
import type { Query, World } from '../core/types.js';
import { chaseOdds, countdownOdds, triggerWithin, type OutcomeSource } from '../odds/countdown-odds.js';
import type { Chase, Countdown } from './model.js';
import { oddsDeclaration } from './declarations.js';

type State = { readonly countdowns: { readonly [id: string]: Countdown | { readonly redacted: true } }; readonly chases: { readonly [id: string]: Chase } };

const stateOf = (world: World): State => fromJson<State>(world.ext['countdowns'] ?? { countdowns: {}, chases: {} });
const round = (p: number): number => Math.round(p * 1e12) / 1e12;


/**
 * `countdown.odds {id, modifier?, difficulty?, advantage?}`: for one side of a
 * chase, who gets there first; for a lone countdown, the chance it triggers
 * within 1..10 rolls and the expected rolls.
 */
export const countdownOddsQuery: Query = defineQuery(oddsDeclaration, (world, args) => {
  const id = args.countdownId;
  const s = stateOf(world);
  const cd = own(s.countdowns, id);
  if (cd === undefined) return err(ErrorCode.NOT_FOUND, `no countdown ${id}`, 'countdownId');
  if ('redacted' in cd) return err('VALUES_HIDDEN', 'the GM keeps this countdown\'s values secret', 'countdownId');
  // An action roll at modifier 0 against difficulty 12 with no advantage unless the asker names another.
  const source: OutcomeSource = { modifier: args.modifier ?? 0, difficulty: args.difficulty ?? 12, advantage: args.advantage ?? 0 };
  if (cd.status !== 'active') return err('NOT_ACTIVE', `${cd.name} is ${cd.status}`, 'countdownId');
  const chase = cd.chaseId === null ? undefined : own(s.chases, cd.chaseId);
  if (chase !== undefined) {
    const p = own(s.countdowns, chase.progressId);
    const c = own(s.countdowns, chase.consequenceId);
    if (p === undefined || c === undefined || 'redacted' in p || 'redacted' in c) return err('VALUES_HIDDEN', 'the GM keeps one side of this chase secret', 'countdownId');
    const r = chaseOdds({ progress: p.value, consequence: c.value }, source);
    if (!r.ok) return r;
    const o = r.value;
    return ok({ kind: 'chase', chaseId: chase.id, progress: p.value, consequence: c.value, progressFirst: round(o.progressFirst), consequenceFirst: round(o.consequenceFirst), sameRoll: round(o.sameRoll), expectedRolls: Number.isFinite(o.expectedRolls) ? o.expectedRolls : null });
  }
  if (cd.kind !== 'standard' && cd.kind !== 'progress' && cd.kind !== 'consequence') return err('NO_ODDS', `${cd.name} moves with rests or by hand, not with rolls`, 'countdownId');
  const r = countdownOdds({ value: cd.value, advance: cd.kind }, source);
  if (!r.ok) return r;
  const within = Array.from({ length: 10 }, (_, k) => round(triggerWithin(r.value, k + 1)));
  return ok({ kind: 'countdown', id: cd.id, value: cd.value, pTrigger: round(r.value.pTrigger), expectedRolls: Number.isFinite(r.value.expectedRolls) ? r.value.expectedRolls : null, within });
});
