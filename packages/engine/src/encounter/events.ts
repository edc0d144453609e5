// The encounter's events (STYLE 2): each type names its fields, so the reducers,
// the turn-flow reaction and the log lines read typed members. Events are stored:
// a field an older table never wrote is optional here, and its reader says what
// its absence means.
import type { ClockUnit, Json } from '../core/types.js';
import type { Payment } from './economies.js';
import type { Combatant, Decision, Duration } from './types.js';

type Id = { readonly id: string };
type InRound = Id & { readonly round: number };

export type EncounterEvent =
  | { readonly type: 'encounter.started'; readonly combatants: readonly Combatant[]; readonly seq?: Json; readonly surpriseActors?: readonly string[] | null; readonly round: number }
  | { readonly type: 'encounter.ended'; readonly round: number }
  | { readonly type: 'encounter.combatantAdded'; readonly combatant: Combatant }
  | ({ readonly type: 'encounter.combatantRemoved' } & Id)
  | ({ readonly type: 'encounter.placed'; readonly placement?: Json } & Id)
  | ({ readonly type: 'encounter.hpChanged'; readonly on: 'combatant' | 'character'; readonly kind: 'damage' | 'heal'; readonly amount: number; readonly from: number; readonly to: number } & Id)
  | ({ readonly type: 'encounter.statsSet'; readonly stats: { readonly [k: string]: Json }; readonly from: { readonly [k: string]: Json } } & Id)
  | ({ readonly type: 'encounter.visibilitySet'; readonly visibility: Combatant['visibility'] } & Id)
  | ({ readonly type: 'encounter.incapacitatedSet'; readonly value: boolean } & Id)
  | ({ readonly type: 'encounter.linked'; readonly characterId: string } & Id)
  | { readonly type: 'encounter.decisionWithdrawn' }
  | { readonly type: 'encounter.decisionPending'; readonly decision: Decision }
  | ({ readonly type: 'encounter.turnStarted' } & InRound)
  | ({ readonly type: 'encounter.turnEnded' } & InRound)
  | ({ readonly type: 'encounter.joinedLate' } & InRound)
  | ({ readonly type: 'encounter.turnSkipped' } & InRound)
  | ({ readonly type: 'encounter.savesDue' } & Id)
  | ({ readonly type: 'encounter.turnClosed' } & Id)
  | { readonly type: 'encounter.roundEnded'; readonly round: number }
  | { readonly type: 'encounter.roundStarted'; readonly round: number }
  /** The turn order rolled again for `round` (ADR 73): each re-placed combatant's new placement, its dice inside. */
  | { readonly type: 'encounter.initiativeRerolled'; readonly round: number; readonly placements: { readonly [id: string]: Json } }
  | ({ readonly type: 'encounter.delayed'; readonly placement?: Json } & Id)
  | ({ readonly type: 'encounter.readied'; readonly action: string; readonly trigger: string; readonly round: number } & Id)
  /** `placement` null keeps the reader's place; `forNextTurn` (absent before 002's owed actions) spends from the coming turn. */
  | ({ readonly type: 'encounter.readyTaken'; readonly before: string; readonly action: string; readonly placement?: Json; readonly forNextTurn?: boolean } & Id)
  | {
      readonly type: 'economy.spent';
      readonly combatant: string;
      readonly kind: string;
      readonly cost: number;
      readonly paid: Payment['paid'];
      readonly extended?: Payment['extended'];
      readonly completed?: string | null;
      readonly tag?: string | null;
      readonly limit?: 'turn' | 'round' | null;
      readonly forNextTurn?: boolean;
    }
  | { readonly type: 'economy.extendedCancelled'; readonly combatant: string; readonly label: string }
  | { readonly type: 'economy.granted'; readonly combatant: string; readonly pool: string; readonly n: number }
  | { readonly type: 'encounter.escalationOffsetSet'; readonly offset: number }
  | ({ readonly type: 'encounter.escalationSuppressed'; readonly suppressed: boolean } & Id)
  | ConditionEvent
  /** Written by tables before rests moved onto the one clock: replayed as nothing, its reaction still ends until-rest conditions. */
  | { readonly type: 'encounter.rested'; readonly rest?: 'short' | 'long' };

/** Events about one condition instance `id` on combatant `target`. */
export type ConditionEvent =
  | ({
      readonly type: 'condition.applied';
      readonly condition: string;
      readonly target: string;
      readonly source?: string | null;
      readonly stacks: number;
      readonly duration: Duration;
      readonly params?: Json;
      readonly round: number;
    } & Id)
  | ({ readonly type: 'condition.stacked'; readonly target: string; readonly from: number; readonly to: number; readonly duration: Duration } & Id)
  | ({ readonly type: 'condition.removed'; readonly target: string } & Id)
  | ({ readonly type: 'condition.expired'; readonly target: string; readonly condition: string; readonly reason: string; readonly of?: string } & Id)
  | ({ readonly type: 'condition.stackLost'; readonly target: string; readonly condition: string; readonly from: number; readonly to: number } & Id)
  | ({ readonly type: 'condition.saveRolled'; readonly target: string; readonly condition: string; readonly success: boolean; readonly roll: Json } & Id);

/** The core's clock event, which the turn flow also reacts to (a rest on the clock ends until-rest conditions). */
export interface ClockAdvancedEvent {
  readonly type: 'clock.advanced';
  readonly unit: ClockUnit;
  readonly count: number;
  readonly seconds: number;
}
