// Who acts for a character (ADR 27): the one check every module uses, in place of
// the copies the rulesets kept. Type-only imports, so browser code may use it too.
import { own } from './own.js';
import type { Viewer, World } from './types.js';

/** The GM, or a player whose seat holds this character; an id that is not text is nobody's. */
export function controls(world: World, actor: Viewer, characterId: unknown): boolean {
  if (actor.role === 'gm') return true;
  if (actor.role !== 'player' || typeof characterId !== 'string') return false;
  return own(world.seats, actor.seatId)?.characterIds.includes(characterId) === true;
}
