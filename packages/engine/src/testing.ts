// @tablekeeper/engine/testing: shared test helpers and the conformance suites
// each ruleset runs from its own tests (STYLE.md section 7). Test-only: it
// imports fast-check, which the engine itself never does.
export { scenario, type Scenario, type ScenarioOptions } from './core/testing.js';
export { fixedRng, seededRng } from './dice/rng.js';
export * from './testing/secrecy.js';
export * from './testing/renames.js';
export * from './testing/replay.js';

import type { Rng } from './dice/rng.js';

/**
 * The same dice with an id stream that counts 1, 2, 3...: minted ids are then
 * the same at every table a test builds (`ch-baaaaacaaaaa` for the first).
 */
export function countingIds(rng: Rng): Rng {
  let n = 0;
  return { kind: rng.kind, die: (sides) => rng.die(sides), snapshot: () => rng.snapshot(), idBits: () => ++n };
}
