// The ranges the 36th Way keeps between creatures (002 "Positioning and
// Movement": engaged / next to, nearby, far), read for the GM's range tool on a
// tracker row (issue 17: the web asks this instead of walking the state).
// Browser-safe: type imports only (ADR 7).
import type { Json, World } from '@tablekeeper/engine';

export type TswRange = 'engaged' | 'nearby' | 'far';

const keysIn = (v: Json | undefined): string[] => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []);

/** Each creature's range from `id` where it is not the default (nearby), as this viewer's world holds the pairs. */
export function tswRangesFrom(world: World, id: string): { readonly [otherId: string]: TswRange } {
  const st = Object.hasOwn(world.ext, '36th-way') ? world.ext['36th-way'] : undefined;
  if (st === null || st === undefined || typeof st !== 'object' || Array.isArray(st)) return {};
  const out: { [otherId: string]: TswRange } = {};
  for (const [field, range] of [['engaged', 'engaged'], ['far', 'far']] as const) {
    for (const k of keysIn(st[field])) {
      const [a, b] = k.split('|');
      if (a === id && b !== undefined) out[b] = range;
      else if (b === id && a !== undefined) out[a] = range;
    }
  }
  return out;
}
