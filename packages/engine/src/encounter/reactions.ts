// The turn flow as reactions: each step of a turn and a round emits the next
// one's events, so undo reverses every step (see module.ts).
import { reactionOf } from '../core/events.js';
import type { EngineEvent, Env, Reaction, World } from '../core/types.js';
import { clockAdvanced } from '../core/clock.js';
import { own } from '../core/own.js';
import { fleetingLosses } from './conditions.js';
import type { ClockAdvancedEvent, EncounterEvent } from './events.js';
import { getEncounter } from './state.js';
import { withSheets } from './selectors.js';
import type { TurnFlow } from './turn-order.js';
import type { EncounterRules } from './types.js';

/** Seconds the one clock moves at the end of each round, unless the ruleset says otherwise (EncounterRules.secondsPerRound). */
const SECONDS_PER_ROUND = 6;

/** The events the turn flow reacts to: the encounter's own and the core's clock. */
type Read = EncounterEvent | ClockAdvancedEvent;

export function phasesReaction(rules: EncounterRules, flow: TurnFlow, eventTypes: readonly string[]): Reaction {
  const { advance, expire, lateJoiner, refreshPending } = flow;
  const perRound = rules.secondsPerRound ?? SECONDS_PER_ROUND;
  const phases = (world: World, e: Read, env: Env): EngineEvent[] => {
    const enc = getEncounter(world);
    switch (e.type) {
      case 'encounter.started':
      case 'encounter.roundStarted':
      case 'encounter.turnClosed':
      case 'encounter.delayed':
      case 'encounter.joinedLate':
      case 'encounter.decisionWithdrawn':
        return advance(world);
      case 'encounter.combatantRemoved': {
        // A duration timed by someone who left can never run out: it ends with them. The reason names
        // nobody, since the event no longer finds the (possibly hidden) combatant to judge its audience by.
        const gone = e.id;
        // Players must not learn that a hidden combatant left: then the reason says only that time ran out.
        const reason = (enc.hiddenGone ?? []).includes(gone) ? 'its time ran out' : 'the combatant it was timed by left the encounter';
        const orphaned = Object.values(enc.conditions)
          .filter((c) => (c.duration.kind === 'turnStart' || c.duration.kind === 'turnEnd') && c.duration.of === gone)
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map((c): EngineEvent => ({ type: 'condition.expired', id: c.id, target: c.target, condition: c.defId, reason }));
        return [...orphaned, ...advance(world)];
      }
      case 'encounter.turnSkipped': {
        // A lost turn still comes round: "until the start / end of X's next turn" ends at it, or it never would.
        const id = e.id;
        const serial = enc.turnSerial + 1;
        return [...expire(enc, { kind: 'turnStart', id, serial }, `${id}'s lost turn`), ...expire(enc, { kind: 'turnEnd', id, serial }, `${id}'s lost turn`)];
      }
      case 'encounter.combatantAdded': {
        const late = lateJoiner(world, e.combatant.id);
        return late.length > 0 ? late : advance(world);
      }
      case 'condition.applied':
      case 'condition.stacked':
      case 'condition.removed':
      case 'condition.expired':
      case 'condition.saveRolled':
        return refreshPending(world);
      case 'encounter.placed':
      case 'encounter.incapacitatedSet':
        return advance(world);
      case 'encounter.hpChanged':
        // A foe that fell (or got up) changes who may be chosen next.
        return refreshPending(world);
      case 'encounter.turnStarted': {
        const id = e.id;
        const out = expire(enc, { kind: 'turnStart', id, serial: own(enc.lastTurn, id) ?? enc.turnSerial }, `start of ${id}'s turn`);
        return rules.onTurnStart === undefined ? out : [...out, ...rules.onTurnStart(world, id, env.rng)];
      }
      case 'encounter.turnEnded': {
        // Ongoing damage first (002 "Actions": damage, then saves).
        const id = e.id;
        // The one clock: a turn passed (GM-only when the combatant is hidden, via the audience hook).
        const out: EngineEvent[] = [{ ...clockAdvanced(world, 'turn', 1, 0), combatant: id }];
        for (const inst of Object.values(enc.conditions)) {
          if (inst.target !== id) continue;
          const def = rules.conditions.find((d) => d.id === inst.defId);
          if (def?.ongoing === true && rules.onOngoing !== undefined) out.push(...rules.onOngoing(world, inst, env.rng));
        }
        out.push({ type: 'encounter.savesDue', id });
        return out;
      }
      case 'encounter.savesDue': {
        const id = e.id;
        const serial = own(enc.lastTurn, id) ?? enc.turnSerial;
        const out: EngineEvent[] = [];
        const saved = new Set<string>();
        for (const inst of Object.values(enc.conditions).sort((a, b) => (a.id < b.id ? -1 : 1))) {
          if (inst.target !== id || inst.duration.kind !== 'saveEnds' || rules.saveRoll === undefined) continue;
          const s = rules.saveRoll(world, inst, env.rng);
          if (s.success) saved.add(inst.id);
          out.push({ type: 'condition.saveRolled', id: inst.id, target: id, condition: inst.defId, success: s.success, roll: s.roll });
        }
        for (const inst of fleetingLosses(enc, rules.conditions, id, serial)) {
          if (!saved.has(inst.id)) out.push({ type: 'condition.stackLost', id: inst.id, target: id, condition: inst.defId, from: inst.stacks, to: inst.stacks - 1 });
        }
        for (const x of expire(enc, { kind: 'turnEnd', id, serial }, `end of ${id}'s turn`)) if (!saved.has(String(x['id']))) out.push(x);
        if (rules.onTurnEnd !== undefined) out.push(...rules.onTurnEnd(world, id, env.rng));
        out.push({ type: 'encounter.turnClosed', id });
        return out;
      }
      case 'encounter.roundEnded': {
        const r = e.round;
        // A rolled order asked to be rolled each round is rolled before the round starts, so its first turn is the new order's.
        const placements = rules.sequencer.reroll?.(withSheets(world, rules, enc), env.rng) ?? null;
        const rerolled: EngineEvent[] = placements === null ? [] : [{ type: 'encounter.initiativeRerolled', round: r + 1, placements }];
        return [clockAdvanced(world, 'round', 1, perRound), ...expire(enc, { kind: 'roundEnd', round: r }, `end of round ${r}`), ...rerolled, { type: 'encounter.roundStarted', round: r + 1 }];
      }
      case 'encounter.ended': {
        // The round in progress ends with the fight: a fight "over after round 3" took three rounds on the clock (ADR 44).
        const last = perRound > 0 ? [clockAdvanced(world, 'round', 1, perRound)] : [];
        return [...last, ...expire(enc, { kind: 'encounterEnd' }, 'end of the encounter')];
      }
      case 'encounter.rested': {
        const rest = e.rest ?? 'short';
        return expire(enc, { kind: 'rest', rest }, `${rest} rest`);
      }
      case 'clock.advanced': {
        // The one clock: any rest on it (a ruleset's rest command, the GM's clock.advance) ends until-rest conditions.
        if (e.unit !== 'shortRest' && e.unit !== 'longRest') return [];
        const rest = e.unit === 'longRest' ? 'long' : 'short';
        return expire(enc, { kind: 'rest', rest }, `${rest} rest`);
      }
      default:
        return [];
    }
  };
  return reactionOf<Read>([...eventTypes, 'clock.advanced'], phases);
}
