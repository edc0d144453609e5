// The countdowns module's event union (STYLE 2, ADR 58): reducers take their own
// member instead of reading untyped fields. Stored events keep these shapes; a
// field older tables never wrote is optional and its reader says what absence means.
import type { DualityOutcome } from '../dice/index.js';
import type { Visibility } from '../core/types.js';
import type { Chase, ChaseResult, Countdown, CountdownRepeat, CountdownStatus, EndReason, StartRoll } from './model.js';

/** What a player must be allowed to read to see the event ('gm': nobody but the GM). */
export type Need = 'values' | 'existence' | 'gm';
/** Why a countdown ticked. */
export type TickCause = 'roll' | 'manual' | 'shortRest' | 'longRest';

export type CountdownTicked = {
  readonly type: 'countdown.ticked';
  readonly id: string;
  readonly from: number;
  readonly to: number;
  readonly by: number;
  readonly cause: TickCause;
  readonly outcome?: DualityOutcome;
  /** Absent before beats existed: no beat reached. */
  readonly beatsAt?: readonly number[];
  readonly need?: Need;
  /** Absent before ticks by hand were logged (and on a roll's ticks): no line of its own. */
  readonly logged?: boolean;
};
export type CountdownUnticked = { readonly type: 'countdown.unticked'; readonly id: string; readonly from: number; readonly to: number; readonly need?: Need; readonly logged?: boolean };

export type CountdownEvent =
  // Entries stored before `need` existed were public.
  | { readonly type: 'countdown.outcomeEntered'; readonly outcome: DualityOutcome; readonly need?: Need }
  | { readonly type: 'countdown.created'; readonly id: string; readonly countdown: Countdown; readonly need?: Need }
  | { readonly type: 'chase.created'; readonly id: string; readonly ids: readonly string[]; readonly chase: Chase; readonly progress: Countdown; readonly consequence: Countdown; readonly need?: Need }
  | { readonly type: 'chase.linked'; readonly id: string; readonly ids: readonly string[]; readonly chase: Chase; readonly need?: Need }
  | CountdownTicked
  | { readonly type: 'countdown.triggered'; readonly id: string; readonly effect: string; readonly count: number; readonly need?: Need }
  | { readonly type: 'countdown.reset'; readonly id: string; readonly repeat: CountdownRepeat; readonly fromStart: number; readonly start: number; readonly startRoll?: StartRoll | null; readonly need?: Need }
  | { readonly type: 'countdown.ended'; readonly id: string; readonly reason: EndReason; readonly finalEffect: string; readonly need?: Need }
  | { readonly type: 'chase.ended'; readonly id: string; readonly ids: readonly string[]; readonly result: ChaseResult; readonly pcs: Chase['pcs']; readonly need?: Need }
  | CountdownUnticked
  | { readonly type: 'countdown.set'; readonly id: string; readonly from: number; readonly to: number; readonly fromStart: number; readonly start: number; readonly wasStatus: CountdownStatus; readonly need?: Need }
  | { readonly type: 'countdown.paused'; readonly id: string; readonly need?: Need }
  | { readonly type: 'countdown.resumed'; readonly id: string; readonly need?: Need }
  | { readonly type: 'countdown.revealed'; readonly id: string; readonly from: Visibility; readonly to: Visibility; readonly need?: Need }
  | { readonly type: 'countdown.hidden'; readonly id: string; readonly from: Visibility; readonly to: Visibility; readonly need?: Need }
  | { readonly type: 'countdown.removed'; readonly id: string; readonly name: string; readonly chaseId: string | null; readonly tier: 'values' | 'existence' | 'none'; readonly need?: Need };

/**
 * The engine-level end of an action roll (a ruleset's, or an outcome the GM entered): linked
 * countdowns tick on it. `need` is absent on a ruleset's own rolls (their audience is the roller's).
 */
export type ActionRollResolved = {
  readonly type: 'actionRoll.resolved';
  readonly outcome: DualityOutcome;
  readonly characterId: string | null;
  readonly need?: Need;
  /** A reaction roll (Daggerheart): absent on rolls that were not. */
  readonly reaction?: boolean;
};
