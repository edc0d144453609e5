// Moving the turn on: who acts next, whose turn is lost, which conditions run
// out at a moment. Commands and reactions both ask these.
import type { EngineEvent, World } from '../core/types.js';
import { expiringAt, type Moment } from './conditions.js';
import { asJson } from './input.js';
import { canAct, sequencerView } from './selectors.js';
import { getEncounter } from './state.js';
import type { EncounterRules, EncounterState } from './types.js';

export interface TurnFlow {
  skipsBefore(world: World, id: string): EngineEvent[];
  refreshPending(world: World): EngineEvent[];
  lateJoiner(world: World, id: string): EngineEvent[];
  advance(world: World): EngineEvent[];
  expire(enc: EncounterState, moment: Moment, reason: string): EngineEvent[];
}

export function turnFlow(rules: EncounterRules): TurnFlow {
  const seqr = rules.sequencer;

  /** Unable combatants ranked before `id` who have not acted: their turn this round is lost. */
  function skipsBefore(world: World, id: string): EngineEvent[] {
    const enc = getEncounter(world);
    if (seqr.rank === undefined) return [];
    const r = seqr.rank(enc, id);
    return enc.roster
      .filter((x) => x !== id && !enc.acted.includes(x) && (enc.surpriseActors === null || enc.surpriseActors.includes(x)))
      .filter((x) => seqr.rank!(enc, x) < r && !canAct(world, rules, x))
      .map((x) => ({ type: 'encounter.turnSkipped', id: x, round: enc.round }));
  }

  /** A pending decision whose options changed (someone fell, left or was placed) is withdrawn and recomputed. */
  function refreshPending(world: World): EngineEvent[] {
    const enc = getEncounter(world);
    if (!enc.active || enc.current !== null || enc.pending === null) return [];
    const next = seqr.next(sequencerView(world, rules));
    if (next.kind === 'decision' && JSON.stringify(next.decision) === JSON.stringify(enc.pending)) return [];
    return [{ type: 'encounter.decisionWithdrawn' }];
  }

  /** A newcomer whose place in a ranked order has already passed this round waits for the next round. */
  function lateJoiner(world: World, id: string): EngineEvent[] {
    const enc = getEncounter(world);
    if (seqr.rank === undefined || enc.acted.includes(id)) return [];
    const ref = enc.current ?? enc.acted[enc.acted.length - 1];
    if (ref === undefined || ref === id) return [];
    return seqr.rank(enc, id) < seqr.rank(enc, ref) ? [{ type: 'encounter.joinedLate', id, round: enc.round }] : [];
  }

  /** Events for "what happens now": only when nobody is acting and nothing is pending. */
  function advance(world: World): EngineEvent[] {
    const enc = getEncounter(world);
    if (!enc.active || enc.current !== null || enc.pending !== null) return [];
    const next = seqr.next(sequencerView(world, rules));
    switch (next.kind) {
      case 'actor':
        return [...skipsBefore(world, next.id), { type: 'encounter.turnStarted', id: next.id, round: enc.round }];
      case 'decision':
        return [{ type: 'encounter.decisionPending', decision: asJson(next.decision) }];
      case 'roundOver': {
        // Nobody could act at all this round: stop rather than spin (the GM revives someone or ends it).
        if (enc.acted.length === 0) return [];
        // In a ranked order the unable who come last lose their turn too, as they would earlier in the round.
        const lost =
          seqr.rank === undefined
            ? []
            : enc.roster
                .filter((x) => !enc.acted.includes(x) && (enc.surpriseActors === null || enc.surpriseActors.includes(x)) && !canAct(world, rules, x))
                .map((x): EngineEvent => ({ type: 'encounter.turnSkipped', id: x, round: enc.round }));
        return [...lost, { type: 'encounter.roundEnded', round: enc.round }];
      }
    }
  }

  function expire(enc: EncounterState, moment: Moment, reason: string): EngineEvent[] {
    const of = moment.kind === 'turnStart' || moment.kind === 'turnEnd' ? { of: moment.id } : {};
    return expiringAt(enc, moment, rules.conditions).map((c) => ({ type: 'condition.expired', id: c.id, target: c.target, condition: c.defId, reason, ...of }));
  }

  return { skipsBefore, refreshPending, lateJoiner, advance, expire };
}
