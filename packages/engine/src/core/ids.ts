// Deterministic ids: minted from world.nextId in decide(), claimed again by the
// reducer that stores the entity, so replay and live play agree exactly.
import type { World } from './types.js';

/** A fresh id `${prefix}-${n}` and the world with the counter advanced (for minting several in one decide). */
export function mintId(world: World, prefix: string): [string, World] {
  return [`${prefix}-${world.nextId}`, { ...world, nextId: world.nextId + 1 }];
}

/** Reducer side: make sure world.nextId is past the numeric suffix of `id` (ids from mintId). */
export function claimId(world: World, id: string): World {
  const dash = id.lastIndexOf('-');
  const n = dash < 0 ? Number.NaN : Number(id.slice(dash + 1));
  if (!Number.isSafeInteger(n) || n < world.nextId) return world;
  return { ...world, nextId: n + 1 };
}
