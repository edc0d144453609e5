// Condition instances: application with stacking rules, durations anchored to
// events (rounds, a named combatant's next turn start/end, save ends, end of
// encounter, rests), fleeting stack loss, and effect queries by resolution code.
import { own } from '../core/own.js';
import type { EngineEvent, Json, Result } from '../core/types.js';
import { errR, okR } from './state.js';
import { stored, type EventOf } from '../core/events.js';
import type { ConditionEvent } from './events.js';
import type { ConditionDef, ConditionInstance, Duration, EncounterState } from './types.js';

export interface ApplyInput {
  readonly target: string;
  readonly condition: string;
  readonly source?: string | null;
  readonly stacks?: number;
  readonly duration: Duration;
  readonly params?: Json;
}

const MAX_STACKS = 99;

export function parseDuration(j: Json | undefined): Result<Duration> {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return errR('BAD_DURATION', 'duration must be an object with a kind', 'duration');
  const kind = j['kind'];
  switch (kind) {
    case 'rounds': {
      const r = j['rounds'];
      if (typeof r !== 'number' || !Number.isInteger(r) || r < 1 || r > 1000) return errR('BAD_DURATION', 'rounds must be an integer in [1, 1000]', 'duration.rounds');
      return okR({ kind, rounds: r });
    }
    case 'turnStart':
    case 'turnEnd': {
      const of = j['of'];
      if (typeof of !== 'string') return errR('BAD_DURATION', `${kind} needs "of": a combatant id`, 'duration.of');
      return okR({ kind, of });
    }
    case 'saveEnds':
      return okR(j['save'] === undefined ? { kind } : { kind, save: j['save'] });
    case 'encounterEnd':
    case 'indefinite':
      return okR({ kind });
    case 'rest': {
      const rest = j['rest'];
      if (rest !== 'short' && rest !== 'long') return errR('BAD_DURATION', 'rest must be "short" or "long"', 'duration.rest');
      return okR({ kind, rest });
    }
    default:
      return errR('BAD_DURATION', `unknown duration kind ${JSON.stringify(kind)}`, 'duration.kind');
  }
}

/** Decide the event for applying a condition (a new instance, or stacks added to an existing one). */
/** A GM's own condition ("custom:Paralyzed"): a name on the tracker with a duration, and no rules effect. */
export const CUSTOM_CONDITION_PREFIX = 'custom:';
export const MAX_CUSTOM_CONDITION = 40;

/** The definition of a condition id: the ruleset's, or a custom one's (no effects, one instance refreshed). */
export function conditionDef(defs: readonly ConditionDef[], id: string): ConditionDef | undefined {
  const own = defs.find((d) => d.id === id);
  if (own !== undefined || !id.startsWith(CUSTOM_CONDITION_PREFIX)) return own;
  const name = id.slice(CUSTOM_CONDITION_PREFIX.length).trim();
  return name.length === 0 || name.length > MAX_CUSTOM_CONDITION ? undefined : { id, name, stacking: 'refresh', effects: {} };
}

export function planApply(enc: EncounterState, defs: readonly ConditionDef[], input: ApplyInput, newId: string): Result<EngineEvent> {
  const def = conditionDef(defs, input.condition);
  if (def === undefined) {
    if (input.condition.startsWith(CUSTOM_CONDITION_PREFIX)) return errR('INVALID_VALUE', `a custom condition needs a name of 1-${MAX_CUSTOM_CONDITION} characters`, 'condition');
    return errR('UNKNOWN_CONDITION', `no condition "${input.condition}" in this ruleset (${defs.map((d) => d.id).join(', ')}); a condition of your own is "${CUSTOM_CONDITION_PREFIX}<name>"`, 'condition');
  }
  if (own(enc.combatants, input.target) === undefined) return errR('NOT_FOUND', `no combatant "${input.target}"`, 'target');
  // A source is a combatant (its visibility decides who may see it); free text would bypass the secrecy checks.
  if (input.source != null && own(enc.combatants, input.source) === undefined) return errR('NOT_FOUND', `no combatant "${input.source}" to be the source`, 'source');
  if (input.duration.kind === 'turnStart' || input.duration.kind === 'turnEnd') {
    if (own(enc.combatants, input.duration.of) === undefined) return errR('NOT_FOUND', `duration anchored to unknown combatant "${input.duration.of}"`, 'duration.of');
  }
  const stacks = input.stacks ?? 1;
  if (!Number.isInteger(stacks) || stacks < 1 || stacks > MAX_STACKS) return errR('BAD_STACKS', `stacks must be an integer in [1, ${MAX_STACKS}]`, 'stacks');
  const existing = Object.values(enc.conditions).find((c) => c.defId === def.id && c.target === input.target);
  if (existing !== undefined && def.stacking !== 'separate') {
    const to = def.stacking === 'stack' ? Math.min(def.maxStacks ?? MAX_STACKS, existing.stacks + stacks) : Math.max(existing.stacks, stacks);
    // No global turn serial in the event (it would count hidden turns in players' history): the reducer reads it from the state.
    return okR(stored<ConditionEvent>({ type: 'condition.stacked', id: existing.id, target: input.target, from: existing.stacks, to, duration: input.duration }));
  }
  return okR(
    stored<ConditionEvent>({
      type: 'condition.applied',
      id: newId,
      condition: def.id,
      target: input.target,
      source: input.source ?? null,
      stacks: Math.min(def.maxStacks ?? MAX_STACKS, stacks),
      duration: input.duration,
      params: input.params ?? null,
      round: enc.round,
    }),
  );
}

export function reduceApplied(enc: EncounterState, e: EventOf<ConditionEvent, 'condition.applied'>): EncounterState {
  const inst: ConditionInstance = {
    id: e.id,
    defId: e.condition,
    target: e.target,
    source: e.source ?? null,
    stacks: e.stacks,
    duration: e.duration,
    params: e.params ?? null,
    appliedTurn: enc.turnSerial,
    appliedRound: e.round,
    freshTurn: enc.turnSerial,
    freshStacks: e.stacks,
  };
  return { ...enc, conditions: { ...enc.conditions, [inst.id]: inst } };
}

export function reduceStacked(enc: EncounterState, e: EventOf<ConditionEvent, 'condition.stacked'>): EncounterState {
  const id = e.id;
  const c = enc.conditions[id];
  if (c === undefined) return enc;
  const to = e.to;
  const turn = enc.turnSerial;
  const gained = Math.max(0, to - c.stacks);
  const fresh = c.freshTurn === turn ? c.freshStacks + gained : gained;
  const next: ConditionInstance = {
    ...c,
    stacks: to,
    duration: e.duration,
    appliedTurn: turn,
    appliedRound: enc.round,
    freshTurn: turn,
    freshStacks: fresh,
  };
  return { ...enc, conditions: { ...enc.conditions, [id]: next } };
}

export function reduceRemoved(enc: EncounterState, id: string): EncounterState {
  if (enc.conditions[id] === undefined) return enc;
  const rest = { ...enc.conditions };
  delete rest[id];
  return { ...enc, conditions: rest };
}

export function reduceStackLost(enc: EncounterState, id: string): EncounterState {
  const c = enc.conditions[id];
  if (c === undefined) return enc;
  if (c.stacks <= 1) return reduceRemoved(enc, id);
  return { ...enc, conditions: { ...enc.conditions, [id]: { ...c, stacks: c.stacks - 1 } } };
}

export type Moment =
  | { readonly kind: 'turnStart' | 'turnEnd'; readonly id: string; readonly serial: number }
  | { readonly kind: 'roundEnd'; readonly round: number }
  | { readonly kind: 'encounterEnd' }
  | { readonly kind: 'rest'; readonly rest: 'short' | 'long' };

/**
 * Instances whose duration runs out at `moment`, in a stable order. `defs` tells fleeting conditions
 * (their clock is the bearer's turns, which stop with the fight) from the GM's "until removed".
 */
export function expiringAt(enc: EncounterState, moment: Moment, defs: readonly ConditionDef[] = []): ConditionInstance[] {
  const out: ConditionInstance[] = [];
  for (const c of Object.values(enc.conditions)) {
    const d = c.duration;
    let hit = false;
    switch (moment.kind) {
      case 'turnStart':
      case 'turnEnd':
        hit = d.kind === moment.kind && d.of === moment.id && moment.serial > c.appliedTurn;
        break;
      case 'roundEnd':
        hit = d.kind === 'rounds' && moment.round >= c.appliedRound + d.rounds - 1;
        break;
      case 'encounterEnd':
        // Everything but until-rest effects and "until removed" ends with the encounter (ADR 57: Daggerheart's
        // conditions last until cleared); a fleeting one still goes, since no turn is left to take its stacks off.
        hit = d.kind !== 'rest' && (d.kind !== 'indefinite' || defs.find((x) => x.id === c.defId)?.fleeting === true);
        break;
      case 'rest':
        hit = d.kind === 'rest' && (d.rest === 'short' || moment.rest === 'long');
        break;
    }
    if (hit) out.push(c);
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Fleeting instances on `bearer` that lose a stack at the end of turn `serial` (not if every stack is fresh from that turn). */
export function fleetingLosses(enc: EncounterState, defs: readonly ConditionDef[], bearer: string, serial: number): ConditionInstance[] {
  return Object.values(enc.conditions).filter((c) => {
    if (c.target !== bearer) return false;
    if (defs.find((d) => d.id === c.defId)?.fleeting !== true) return false;
    const fresh = c.freshTurn === serial ? c.freshStacks : 0;
    return c.stacks - fresh > 0;
  });
}

/**
 * Net effect on `id` for one resolution code. Different conditions add up;
 * the same condition twice counts once (the strongest instance), unless its
 * effects scale with stacks.
 */
export function netEffectOf(enc: EncounterState, defs: readonly ConditionDef[], id: string, code: string): number {
  const best = new Map<string, number>();
  for (const c of Object.values(enc.conditions)) {
    if (c.target !== id) continue;
    const def = defs.find((d) => d.id === c.defId);
    const v = def?.effects[code];
    if (def === undefined || v === undefined) continue;
    const value = def.effectsScaleWithStacks === true ? v * c.stacks : v;
    const prev = best.get(def.id);
    best.set(def.id, prev === undefined || Math.abs(value) > Math.abs(prev) ? value : prev);
  }
  let sum = 0;
  for (const v of best.values()) sum += v;
  return sum;
}
