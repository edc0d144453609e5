// Conditions and rests: apply or remove a condition instance; a rest is time on
// the one clock, and until-rest conditions end by reacting to it.
import { handlerOf } from '../../core/catalog.js';
import { clockAdvanced } from '../../core/clock.js';
import { mintId } from '../../core/ids.js';
import { own } from '../../core/own.js';
import { ErrorCode } from '../../core/result.js';
import type { CommandHandler, EngineEvent, Json, Result, World } from '../../core/types.js';
import type { Rng } from '../../dice/rng.js';
import { parseDuration, planApply } from '../conditions.js';
import type { EncounterDeclarations } from '../declarations.js';
import { combatantNamed, errR, getEncounter, okR } from '../state.js';
import type { EncounterRules } from '../types.js';

export function conditionCommands(rules: EncounterRules, d: EncounterDeclarations): Record<string, CommandHandler> {
  return {
    'condition.apply': handlerOf(d.conditionApply, {
      decide(world, { targetId, sourceId, ...rest }, env) {
        // The kernel's applier (shared with the rulesets' own commands) reads target and source.
        // A character id names its combatant (docs/vocabulary.md: one id for a creature).
        const enc = getEncounter(world);
        const idOf = <T extends string | null | undefined>(id: T): T | string => (typeof id === 'string' ? (combatantNamed(enc, id)?.id ?? id) : id);
        const e = applyConditionEvent(world, rules, { ...(rest as { [k: string]: Json }), target: idOf(targetId), source: idOf(sourceId) }, 0, env.rng);
        if (e.ok) return okR([e.value]);
        const path = e.error.path === 'target' ? 'targetId' : e.error.path === 'source' ? 'sourceId' : e.error.path;
        return path === e.error.path ? e : { ok: false, error: { ...e.error, path } };
      },
    }),
    'condition.remove': handlerOf(d.conditionRemove, {
      decide(world, { conditionId }) {
        const inst = own(getEncounter(world).conditions, conditionId);
        if (inst === undefined) return errR(ErrorCode.NOT_FOUND, `no condition instance ${JSON.stringify(conditionId)}`, 'conditionId');
        return okR([{ type: 'condition.removed', id: inst.id, target: inst.target }]);
      },
    }),
    'encounter.rest': handlerOf(d.rest, {
      // A rest is time on the one clock; until-rest conditions end by reacting to it (see the phases reaction).
      decide(world, { rest }) {
        return okR([clockAdvanced(world, rest === 'long' ? 'longRest' : 'shortRest', 1, 0)]);
      },
    }),
  };
}

/**
 * For rulesets' own commands: the event that applies a condition (validated),
 * ready to return from decide. Returning several from one decide? Pass
 * index 0, 1, 2... so each new instance gets its own id. With `rng` (decide's
 * env.rng) the id is random (ADR 18); without, the old sequential `cond<n>`.
 */
export function applyConditionEvent(world: World, rules: EncounterRules, command: { readonly [k: string]: Json | undefined }, index = 0, rng?: Rng): Result<EngineEvent> {
  const enc = getEncounter(world);
  if (!enc.active) return errR('NO_ENCOUNTER', 'no encounter is running');
  const target = command['target'];
  const condition = command['condition'];
  if (typeof target !== 'string') return errR(ErrorCode.INVALID_VALUE, 'target must be a combatant id', 'target');
  if (typeof condition !== 'string') return errR(ErrorCode.INVALID_VALUE, 'condition must be a condition id', 'condition');
  const d = parseDuration(command['duration']);
  if (!d.ok) return d;
  const source = command['source'];
  if (source !== undefined && source !== null && typeof source !== 'string') return errR(ErrorCode.INVALID_VALUE, 'source must be a combatant id or null', 'source');
  const stacks = command['stacks'];
  if (stacks !== undefined && typeof stacks !== 'number') return errR('BAD_STACKS', 'stacks must be a number', 'stacks');
  return planApply(
    enc,
    rules.conditions,
    {
      target,
      condition,
      duration: d.value,
      source: source ?? null,
      ...(stacks !== undefined ? { stacks } : {}),
      ...(command['params'] !== undefined ? { params: command['params'] } : {}),
    },
    rng === undefined ? `cond${world.nextId + Math.max(0, Math.floor(index))}` : mintId({ ...world, nextId: world.nextId + Math.max(0, Math.floor(index)) }, 'cond', rng)[0],
  );
}
