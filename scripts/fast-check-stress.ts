// Opt-in stress mode for property tests: vitest.config.ts points 'fast-check' here only when
// FC_RUNS_MULTIPLIER or FC_SEED is set, so CI's random-seed failures can be hunted locally.
// Everything is fast-check's own, except assert, which multiplies numRuns and may pin the seed.
import * as real from '../node_modules/fast-check/lib/fast-check.js';

export * from '../node_modules/fast-check/lib/fast-check.js';

const multiplier = readMultiplier(process.env.FC_RUNS_MULTIPLIER);
const seed = readSeed(process.env.FC_SEED);

function readMultiplier(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1000) throw new Error(`FC_RUNS_MULTIPLIER must be a number in (0, 1000], got '${raw}'`);
  return n;
}

function readSeed(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`FC_SEED must be an integer, got '${raw}'`);
  return n;
}

export const assert: typeof real.assert = ((property: Parameters<typeof real.assert>[0], params?: Parameters<typeof real.assert>[1]) => {
  const base = params?.numRuns ?? real.readConfigureGlobal().numRuns ?? 100;
  const stressed = { ...params, numRuns: Math.max(1, Math.ceil(base * multiplier)) };
  // A pinned seed replays a whole run, so a path from an earlier run would no longer apply.
  if (seed !== undefined) Object.assign(stressed, { seed, path: undefined });
  return real.assert(property, stressed);
}) as typeof real.assert;

export default { ...real.default, assert };
