// Reading world.ext.daggerheart (browser-safe: type imports only, ADR 7), so
// the server's commands and the web's panels share one reading of the state.
import type { World } from '@tablekeeper/engine';
import { fromJson } from '@tablekeeper/engine/events';
import { daggerheartSettings } from './settings.js';

export const DAGGERHEART_ID = 'daggerheart';

/** A roll the GM asked a player for: the player rolls it from their phone. */
export interface RollRequest {
  readonly id: string;
  readonly characterId: string;
  /** The trait named (agility, strength, ...), or '' for none. */
  readonly trait: string;
  /** The whole modifier: the sheet's trait value plus any situational bonus, fixed when asked. */
  readonly modifier: number;
  /** Null in a player's view while the GM keeps it hidden. */
  readonly difficulty: number | null;
  readonly hidden: boolean;
  /** Net situational advantage sources (helpers come on top at the roll). */
  readonly advantage: number;
  /** An Experience the player may add (paying its Hope), or null. */
  readonly experience: { readonly name: string; readonly bonus: number } | null;
  readonly label: string;
  /** The player asked to roll and the GM has not set the difficulty yet (difficulty null until then; ADR 50). */
  readonly awaiting?: boolean;
  /** The player asked for this roll (absent on the GM's requests and on asks stored before this field). */
  readonly asked?: boolean;
}

/** A hit on a PC waiting for its player to choose whether to mark an Armor Slot (ADR 50). */
export interface PendingHit {
  readonly id: string;
  readonly characterId: string;
  readonly amount: number;
}

/** world.ext.daggerheart: the GM's Fear, help offered to the next roll of each PC, open roll requests, hits waiting on a choice. */
export type DaggerheartState = {
  readonly fear: number;
  /** targetId -> helper character ids (each already paid their Hope). */
  readonly help: { readonly [targetId: string]: readonly string[] };
  /** Open roll requests by id (absent on tables stored before requests existed). */
  readonly requests?: { readonly [id: string]: RollRequest };
  /** Hits waiting for their PC's Armor choice by id (absent before ADR 50). */
  readonly hits?: { readonly [id: string]: PendingHit };
};

const EMPTY: DaggerheartState = { fear: 0, help: {} };

export function getDaggerheart(world: World): DaggerheartState {
  const raw = world.ext[DAGGERHEART_ID];
  return raw === undefined || raw === null ? EMPTY : fromJson<DaggerheartState>(raw);
}

export const requestsOf = (world: World): { readonly [id: string]: RollRequest } => getDaggerheart(world).requests ?? {};

/** Hits waiting on a PC's Armor choice, oldest first (ids are minted in order only by nextId, so by insertion). */
export const pendingHitsOf = (world: World): readonly PendingHit[] => Object.values(getDaggerheart(world).hits ?? {});


/** A PC's Hope: stats.hope, or the starting Hope setting when none is recorded. */
export function hopeOf(world: World, characterId: string): number {
  const v = world.characters[characterId]?.stats['hope'];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : daggerheartSettings(world).startingHope;
}
