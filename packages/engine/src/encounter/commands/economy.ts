// The action economy and the escalation die: spending, cancelling and granting
// actions, shifting or holding the die.
import { handlerOf } from '../../core/catalog.js';
import { own } from '../../core/own.js';
import { ErrorCode } from '../../core/result.js';
import type { CommandHandler, EngineEvent, Json, Result, World } from '../../core/types.js';
import type { EncounterDeclarations } from '../declarations.js';
import { planSpend, type SpendRequest } from '../economies.js';
import { asJson, needActive, needActor, ownsCreature } from '../input.js';
import { EMPTY_ECONOMY, errR, getEncounter, okR } from '../state.js';
import type { EncounterRules } from '../types.js';

export function economyCommands(rules: EncounterRules, d: EncounterDeclarations): Record<string, CommandHandler> {
  return {
    'encounter.spend': handlerOf(d.spend, {
      authorize: ownsCreature,
      decide(world, p) {
        const a = needActor(world, p.characterId);
        if (!a.ok) return a;
        const e = spendEvent(world, rules, a.value.combatant.id, p);
        return e.ok ? okR([e.value]) : e;
      },
    }),
    'encounter.cancelExtended': handlerOf(d.cancelExtended, {
      authorize: ownsCreature,
      decide(world, p) {
        const a = needActor(world, p.characterId);
        if (!a.ok) return a;
        const { enc, combatant } = a.value;
        const ext = own(enc.economy, combatant.id)?.extended ?? null;
        if (ext === null) return errR('NO_EXTENDED', `"${combatant.id}" has no extended action under way`);
        return okR([{ type: 'economy.extendedCancelled', combatant: combatant.id, label: ext.label }]);
      },
    }),
    'encounter.grant': handlerOf(d.grant, {
      decide(world, { characterId, pool, n = 1 }) {
        const a = needActor(world, characterId);
        if (!a.ok) return a;
        if (own(rules.economy.pools, pool) === undefined) return errR(ErrorCode.INVALID_VALUE, `pool must be one of ${Object.keys(rules.economy.pools).join(', ')}`, 'pool');
        return okR([{ type: 'economy.granted', combatant: a.value.combatant.id, pool, n }]);
      },
    }),
    'encounter.escalationOffset': handlerOf(d.escalationOffset, {
      decide(world, { offset }) {
        const a = needActive(world);
        if (!a.ok) return a;
        return okR([{ type: 'encounter.escalationOffsetSet', offset }]);
      },
    }),
    'encounter.escalationSuppress': handlerOf(d.escalationSuppress, {
      decide(world, { characterId, suppressed }) {
        const a = needActor(world, characterId);
        if (!a.ok) return a;
        return okR([{ type: 'encounter.escalationSuppressed', id: a.value.combatant.id, suppressed }]);
      },
    }),
  };
}

/**
 * For rulesets' own commands (an attack spends a standard action): the
 * validated `economy.spent` event for `combatantId`, given { kind, cost?, tag?, limit?, label? }.
 */
export function spendEvent(world: World, rules: EncounterRules, combatantId: string, command: { readonly [k: string]: Json | undefined }): Result<EngineEvent> {
  const enc = getEncounter(world);
  if (!enc.active) return errR('NO_ENCOUNTER', 'no encounter is running');
  if (own(enc.combatants, combatantId) === undefined) return errR(ErrorCode.NOT_FOUND, `no combatant "${combatantId}" in this encounter`, 'characterId');
  const kind = command['kind'];
  if (typeof kind !== 'string') return errR(ErrorCode.INVALID_VALUE, 'kind must name an action kind', 'kind');
  const cost = command['cost'] ?? 1;
  const tag = command['tag'];
  const limit = command['limit'];
  const label = command['label'];
  if (tag !== undefined && typeof tag !== 'string') return errR(ErrorCode.INVALID_VALUE, 'tag must be a string', 'tag');
  if (limit !== undefined && limit !== 'turn' && limit !== 'round') return errR(ErrorCode.INVALID_VALUE, 'limit must be "turn" or "round"', 'limit');
  if (label !== undefined && typeof label !== 'string') return errR(ErrorCode.INVALID_VALUE, 'label must be a string', 'label');
  const requires = command['requires'];
  if (requires !== undefined && typeof requires !== 'string') return errR(ErrorCode.INVALID_VALUE, 'requires must be a string', 'requires');
  const forNextTurn = command['forNextTurn'] === true;
  if (typeof cost !== 'number') return errR('BAD_COST', 'cost must be a number', 'cost');
  const req: SpendRequest = {
    kind,
    cost,
    onTurn: enc.current === combatantId,
    ...(tag !== undefined ? { tag } : {}),
    ...(limit === 'turn' || limit === 'round' ? { limit } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(requires !== undefined ? { requires } : {}),
    ...(forNextTurn ? { forNextTurn } : {}),
    blocked: Object.values(enc.conditions)
      .filter((i) => i.target === combatantId)
      .flatMap((i) => rules.conditions.find((d) => d.id === i.defId)?.blocksPools ?? []),
  };
  const pay = planSpend(rules.economy, own(enc.economy, combatantId) ?? EMPTY_ECONOMY, req);
  if (!pay.ok) return pay;
  return okR({
    type: 'economy.spent',
    combatant: combatantId,
    kind,
    cost,
    paid: asJson(pay.value.paid),
    extended: asJson(pay.value.extended),
    completed: pay.value.completed,
    tag: tag ?? null,
    limit: limit ?? null,
    // Paid out of the next turn's pool (004: a Beat that ends the Pause on your own turn); absent on ordinary spends.
    ...(forNextTurn ? { forNextTurn } : {}),
  });
}
