// Player requests (issue 20): a player asks the GM for damage, healing or a
// condition on their own character, or to make an action they declare (the
// GM sets its difficulty on approval, where the ruleset rolls against one); the GM approves (the ruleset's own command
// runs in the same transaction) or declines. This file is the state and its
// selectors only: no zod, no engine imports at run time, so the web's phone
// bundle may import it (`@tablekeeper/engine/requests`).
import { own } from '../core/own.js';
import { fromJson } from '../core/events.js';
import type { Json, Viewer, World } from '../core/types.js';

export const REQUESTS_ID = 'request';

/** What a player may ask for; the ruleset's hook turns each into its own command (or refuses a kind it has no command for). */
export const REQUEST_KINDS = ['damage', 'heal', 'condition', 'action', 'recoveries'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** How long a requested condition lasts: the kernel's durations a player can name without naming anyone else. */
export const REQUEST_DURATIONS = ['rounds', 'turnEnd', 'saveEnds', 'encounterEnd', 'indefinite'] as const;
export type RequestDuration = (typeof REQUEST_DURATIONS)[number];

export type RequestStatus = 'pending' | 'approved' | 'declined' | 'expired' | 'withdrawn';

export interface PlayerRequest {
  readonly id: string;
  readonly seatId: string;
  readonly characterId: string;
  readonly kind: RequestKind;
  /** Damage or healing asked for; recoveries to spend at a quick rest (ADR 110). */
  readonly amount?: number;
  /** A condition id from the ruleset's catalogue, or `custom:<name>`. */
  readonly condition?: string;
  readonly duration?: RequestDuration;
  readonly rounds?: number;
  /** An action request: what the character tries, in the player's words ("climb the wall"). */
  readonly action?: string;
  /** An action request: the player's trait and other modifiers. */
  readonly bonus?: number;
  /** An action request: net advantage sources the player claims (negative: disadvantage). */
  readonly advantage?: number;
  /** The player's words to the GM ("the trap's spikes"). */
  readonly note?: string;
  readonly status: RequestStatus;
  /** The GM's reason when declining, or why it expired. */
  readonly reason?: string;
}

export interface RequestsState {
  /** Oldest first; resolved ones are kept (bounded) so the phone can say what became of them. */
  readonly items: readonly PlayerRequest[];
}

/** Pending requests one seat may have at once. */
export const MAX_PENDING_PER_SEAT = 5;
/** Requests kept in all; past this the oldest resolved ones are dropped. */
export const MAX_KEPT = 60;
export const MAX_NOTE = 120;
export const MAX_REASON = 120;
export const MAX_AMOUNT = 10000;
export const MAX_ACTION = 80;
/** Generic bounds; the ruleset's own command checks its tighter ones when the request is made. */
export const MAX_BONUS = 30;
export const MAX_ADVANTAGE = 10;
export const MAX_DIFFICULTY = 100;

export const EMPTY_REQUESTS: RequestsState = { items: [] };

/** The table's requests as this world holds them (a player's view holds only their seat's). */
export function requestsOf(world: Pick<World, 'ext'> | undefined): RequestsState {
  const raw = world?.ext?.[REQUESTS_ID];
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return EMPTY_REQUESTS;
  const items = (raw as { items?: Json }).items;
  return Array.isArray(items) ? fromJson<RequestsState>(raw) : EMPTY_REQUESTS;
}

export const pendingRequests = (s: RequestsState): PlayerRequest[] => s.items.filter((r) => r.status === 'pending');

export function requestById(s: RequestsState, id: string): PlayerRequest | undefined {
  return s.items.find((r) => r.id === id);
}

/** May `viewer` read this request? The GM and the seat that made it; nobody else (requests are private). */
export function mayReadRequest(r: PlayerRequest, viewer: Viewer): boolean {
  return viewer.role === 'gm' || (viewer.role === 'player' && viewer.seatId === r.seatId);
}

/** The request in a few words, for the log, the GM's queue and the phone ("5 damage", "Poisoned for 2 rounds"). */
export function describeRequest(r: Pick<PlayerRequest, 'kind' | 'amount' | 'condition' | 'duration' | 'rounds' | 'action' | 'bonus' | 'advantage'>, conditionName: (id: string) => string = plainCondition): string {
  if (r.kind === 'damage') return `${r.amount ?? 0} damage`;
  if (r.kind === 'heal') return `${r.amount ?? 0} healing`;
  if (r.kind === 'recoveries') return `${r.amount ?? 0} recover${r.amount === 1 ? 'y' : 'ies'} at a quick rest`;
  if (r.kind === 'action') {
    const bonus = r.bonus === undefined || r.bonus === 0 ? '' : ` at ${r.bonus > 0 ? '+' : ''}${r.bonus}`;
    const adv = r.advantage === undefined || r.advantage === 0 ? '' : ` with ${r.advantage > 0 ? 'advantage' : 'disadvantage'}${Math.abs(r.advantage) > 1 ? ` ${Math.abs(r.advantage)}` : ''}`;
    return `an action roll to ${r.action ?? 'act'}${bonus}${adv}`;
  }
  const name = conditionName(r.condition ?? '');
  switch (r.duration) {
    case 'rounds':
      return `${name} for ${r.rounds ?? 1} round${r.rounds === 1 ? '' : 's'}`;
    case 'turnEnd':
      return `${name} until the end of their next turn`;
    case 'saveEnds':
      return `${name} (save ends)`;
    case 'encounterEnd':
      return `${name} until the fight ends`;
    default:
      return `${name} until removed`;
  }
}

/**
 * `custom:Soaked` reads "Soaked"; a catalogue id with no name at hand reads as
 * words ("slowed" is "Slowed", "hard-to-see" "Hard to see"): the log never
 * speaks in ids (review 9).
 */
export function plainCondition(id: string): string {
  if (id.startsWith('custom:')) return id.slice('custom:'.length);
  const words = id.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]+/g, ' ').trim().toLowerCase();
  return words === '' ? id : words[0]!.toUpperCase() + words.slice(1);
}

/** Whose character it is, by id, without throwing on a view that lacks it. */
export const requestCharacterName = (world: Pick<World, 'characters'>, r: PlayerRequest): string => own(world.characters, r.characterId)?.name ?? 'a character';

/** Why a condition cannot be asked for outside a fight (ADR 104): the engine's refusal, which the phone says before the player fills the form. */
export const NO_CONDITION_OUTSIDE_FIGHT = (name: string): string =>
  `${name} is in no running fight: conditions are kept on a fight's combatants and wear off by their turns, so a condition can be asked for during an encounter`;

/** Why recoveries cannot be asked for while a fight runs (ADR 110): the engine's refusal, which the phone says first. */
export const RECOVERIES_AFTER_FIGHT = 'recoveries are spent at a quick rest, once the fight has ended (in a fight, Rally heals with one)';
