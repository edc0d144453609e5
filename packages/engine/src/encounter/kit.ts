// The kernel bound to one ruleset's rules, so a ruleset writes
// kit.netAdvantage(world, id, 'attack') instead of passing its rules each time.
import type { EngineEvent, Json, Module, Result, World } from '../core/types.js';
import type { Rng } from '../dice/rng.js';
import { applyConditionEvent, canAct, economyOf, encounterModule, escalationFor, netAdvantage, netEffect, onDeck, peekNext, spendEvent } from './module.js';
import type { EconomyState, EncounterRules, Next } from './types.js';
import { turnFlow } from './turn-order.js';

export interface EncounterKit {
  readonly rules: EncounterRules;
  readonly module: Module;
  netAdvantage(world: World, actor: string, action: string, target?: string | null): number;
  netEffect(world: World, id: string, code: string): number;
  canAct(world: World, id: string): boolean;
  escalation(world: World, id?: string | null): number;
  economy(world: World, id: string): EconomyState;
  onDeck(world: World): string | null;
  peekNext(world: World): Next;
  /** The condition event with a random instance id from decide's `rng` (ADR 18); `index` as applyConditionEvent's. */
  applyCondition(world: World, command: { readonly [k: string]: Json | undefined }, rng: Rng, index?: number): Result<EngineEvent>;
  spend(world: World, combatantId: string, command: { readonly [k: string]: Json | undefined }): Result<EngineEvent>;
  /**
   * Withdraws a pending choice whose options no longer hold (the kernel then offers a fresh one). For a
   * ruleset whose canAct reads state the kernel does not watch (Daggerheart's marked HP): react with it.
   */
  refreshPending(world: World): EngineEvent[];
}

export function encounterKit(rules: EncounterRules): EncounterKit {
  const flow = turnFlow(rules);
  return {
    rules,
    module: encounterModule(rules),
    netAdvantage: (w, actor, action, target = null) => netAdvantage(w, rules, actor, action, target),
    netEffect: (w, id, code) => netEffect(w, rules, id, code),
    canAct: (w, id) => canAct(w, rules, id),
    escalation: (w, id = null) => escalationFor(w, rules, id),
    economy: (w, id) => economyOf(w, id),
    onDeck: (w) => onDeck(w, rules),
    peekNext: (w) => peekNext(w, rules),
    applyCondition: (w, command, rng, index = 0) => applyConditionEvent(w, rules, command, index, rng),
    spend: (w, id, command) => spendEvent(w, rules, id, command),
    refreshPending: (w) => flow.refreshPending(w),
  };
}
