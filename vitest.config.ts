import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Opt-in property-test stress (README, Development): FC_RUNS_MULTIPLIER=10 multiplies every
// fc.assert's numRuns, FC_SEED=n pins the seed. Unset (as in CI), fast-check is used as is.
const stress = process.env.FC_RUNS_MULTIPLIER || process.env.FC_SEED
  ? [{ find: /^fast-check$/, replacement: fileURLToPath(new URL('./scripts/fast-check-stress.ts', import.meta.url)) }]
  : [];

// One runner for everything: unit/property/server tests in Node, browser tests
// (e2e/) drive Debian's chromium through playwright-core.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
          exclude: ['packages/web/**', '**/node_modules/**'],
          // CI runs this project beside the browser tests: at load 42 on 2 cores the teams fuzz (400 runs) took 44 s.
          testTimeout: 120_000,
          hookTimeout: 60_000,
          alias: stress,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // At load 35 on 2 cores one browser test took 83 s and a server's query worker 50 s to boot (in beforeAll).
          testTimeout: 240_000,
          alias: stress,
          hookTimeout: 240_000,
          // A page waits on a server round trip; on a loaded CI machine that can take longer than the 1 s default.
          expect: { poll: { timeout: 10_000, interval: 50 } },
          fileParallelism: false,
          // One retry for a browser test that fails on a loaded CI machine. The GM-page freezes it was added for were a
          // render loop between the sheet form and its kept draft (fixed; e2e/sheet-form-deltas reproduces it throttled).
          retry: 1,
          // A failing test prints its open pages' toast, errors and socket frames (flakes on CI explain themselves).
          setupFiles: ['./e2e/report-on-failure.ts'],
        },
      },
    ],
  },
});
