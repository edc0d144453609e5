// The Kleptonomicon's own table state (world.ext.kleptonomicon): where the
// Episode is, movement this turn, Dashes this round, experience, resources.
import { asJson, fromJson } from '@tablekeeper/engine/events';
import type { World } from '@tablekeeper/engine';
import type { EncounterPhase, EpisodePhase } from './phases.js';
import type { TurnMovement } from './movement.js';

export const KLEPTO_ID = 'kleptonomicon';

export interface Resource {
  readonly value: number;
  readonly max: number;
}

export interface ImprovisedRequest {
  readonly id: string;
  readonly characterId: string;
  readonly description: string;
  /** 'pending' until the GM rules; then 'simple' (it just happens), 'test' (rolled) or 'impossible'. */
  readonly status: 'pending' | 'simple' | 'test' | 'impossible';
}

export interface KleptoState {
  readonly episode: number;
  readonly phase: EpisodePhase;
  readonly encounterPhase: EncounterPhase | null;
  readonly opening: { readonly introduced: readonly string[]; readonly clips: { readonly [characterId: string]: string }; readonly coldOpen: string | null };
  /** Freeplay's optional loose turn order (character ids) and whose spotlight it is. */
  readonly looseOrder: readonly string[] | null;
  readonly spotlight: number;
  /** What Episodic abilities granted this Episode (expires at its end). */
  readonly episodic: { readonly [characterId: string]: readonly string[] };
  readonly movement: { readonly [combatantId: string]: TurnMovement };
  /** Prone persists between turns. */
  readonly prone: readonly string[];
  readonly dashes: { readonly [combatantId: string]: { readonly round: number; readonly count: number } };
  readonly freeActions: { readonly [combatantId: string]: number };
  readonly xp: { readonly [characterId: string]: number };
  readonly levels: { readonly [characterId: string]: number };
  /** Characters already given the second, secondary-goal point this Reward phase. */
  readonly secondaryAwarded: readonly string[];
  readonly resources: { readonly [characterId: string]: { readonly [key: string]: Resource } };
  readonly improvised: { readonly [id: string]: ImprovisedRequest };
  /**
   * Opportunity Attacks open now (004 "Movement Reactions"): who may attack, and the mover who left their Swinging
   * Distance; until the mover's turn ends. Absent in states stored before it existed.
   */
  readonly opportunities?: { readonly [attacker: string]: string };
}

export const EMPTY_KLEPTO: KleptoState = {
  episode: 0,
  phase: 'between',
  encounterPhase: null,
  opening: { introduced: [], clips: {}, coldOpen: null },
  looseOrder: null,
  spotlight: 0,
  episodic: {},
  movement: {},
  prone: [],
  dashes: {},
  freeActions: {},
  xp: {},
  levels: {},
  secondaryAwarded: [],
  resources: {},
  improvised: {},
};

/** The state with no Opportunity Attack open: the key goes, so a table that never had one replays as it was stored. */
export function withoutOpenings(st: KleptoState): KleptoState {
  if (st.opportunities === undefined) return st;
  const { opportunities, ...rest } = st;
  void opportunities;
  return rest;
}

export function getKlepto(world: World): KleptoState {
  const raw = world.ext[KLEPTO_ID];
  return raw === undefined || raw === null ? EMPTY_KLEPTO : fromJson<KleptoState>(raw);
}

export function setKlepto(world: World, st: KleptoState): World {
  return { ...world, ext: { ...world.ext, [KLEPTO_ID]: asJson(st) } };
}

export function updateKlepto(world: World, fn: (s: KleptoState) => KleptoState): World {
  return setKlepto(world, fn(getKlepto(world)));
}
