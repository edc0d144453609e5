// Foes hidden until they act (ADR 71): the GM's marks, readable without zod
// (the GM screen's row tools read them).
import type { World } from '../core/types.js';

export const REVEAL_WHEN_ACTS_ID = 'revealWhenActs';

/** Combatant ids the GM marked; a reveal or a removal takes its id off. */
export function revealMarks(world: Pick<World, 'ext'>): readonly string[] {
  const raw = Object.hasOwn(world.ext, REVEAL_WHEN_ACTS_ID) ? world.ext[REVEAL_WHEN_ACTS_ID] : undefined;
  const ids = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw['ids'] : undefined;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
}

