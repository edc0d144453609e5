import { defineConfig } from 'vitest/config';

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
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page waits on a server round trip; on a loaded CI machine that can take longer than the 1 s default.
          expect: { poll: { timeout: 10_000, interval: 50 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
