// Each module's state in a world, as opaque values in module-id order: what a
// client compares by identity to know that something an answer reads has
// changed (a delta copies only what it changes), without knowing any module's
// layout (issue 17: the web never walks world.ext).
import type { Json, World } from './types.js';

/** Every module's state but those named, sorted by module id. */
export function moduleStatesOf(world: World, except: readonly string[] = []): readonly Json[] {
  return Object.keys(world.ext)
    .filter((k) => !except.includes(k))
    .sort()
    .map((k) => world.ext[k]!);
}
