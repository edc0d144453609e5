// @tablekeeper/engine/testing: shared test helpers and the conformance suites
// each ruleset runs from its own tests (STYLE.md section 7). Test-only: it
// imports fast-check, which the engine itself never does.
export { scenario, type Scenario, type ScenarioOptions } from './core/testing.js';
export { fixedRng, seededRng } from './dice/rng.js';
export * from './testing/secrecy.js';
