// Lint + the architecture's import boundaries (DESIGN.md): the engine imports
// nothing from the workspace and no I/O; rulesets import only the engine; the
// web app talks to the server only through the protocol.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['fs', 'path', 'os', 'http', 'https', 'net', 'child_process', 'worker_threads', 'crypto', 'process', 'url', 'util', 'stream', 'events', 'zlib', 'dns', 'tls', 'readline'];
const noIo = nodeBuiltins.flatMap((m) => [m, `node:${m}`]);

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'packages/web/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Inject an Rng (engine/dice/rng) instead.' }],
    },
  },
  {
    files: ['packages/engine/src/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: noIo.map((name) => ({ name, message: 'The engine is pure: no I/O, no Node built-ins.' })),
        // zod is the engine's one dependency: the command catalogue's schemas (ADR 13).
        patterns: [{ group: ['@tablekeeper/*'], message: 'The engine imports nothing from the workspace.' }],
      }],
      'no-restricted-globals': ['error', { name: 'Date', message: 'No wall-clock time in the engine.' }, { name: 'setTimeout', message: 'No timers in the engine.' }],
    },
  },
  {
    files: ['packages/rulesets/src/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: noIo.map((name) => ({ name, message: 'Rulesets are pure: no I/O.' })),
        patterns: [{ group: ['@tablekeeper/*', '!@tablekeeper/engine'], message: 'Rulesets import only the engine.' }],
      }],
      'no-restricted-globals': ['error', { name: 'Date', message: 'No wall-clock time in rulesets.' }],
    },
  },
  {
    files: ['packages/protocol/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@tablekeeper/server', '@tablekeeper/web', '@tablekeeper/cli', '@tablekeeper/rulesets'], message: 'The protocol depends only on the engine types.' }] }] },
  },
  {
    files: ['packages/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // ADR 7: pure rule helpers through the rulesets' browser entry only; never commands or modules.
          paths: [{ name: '@tablekeeper/rulesets', message: 'The web app takes rule helpers only from @tablekeeper/rulesets/browser (ADR 7).' }],
          patterns: [
            { group: ['@tablekeeper/server', '@tablekeeper/cli', 'better-sqlite3', 'fastify'], message: 'The web app talks to the server only through the protocol.' },
            { group: ['zod', 'zod/*'], message: 'Forms read the JSON Schema the server serves (ADR 13); no zod in the browser.' },
            { group: ['@tablekeeper/rulesets/*', '!@tablekeeper/rulesets/browser', '**/rulesets/src/**'], message: 'The web app takes rule helpers only from @tablekeeper/rulesets/browser (ADR 7).' },
          ],
        },
      ],
    },
  },
);
