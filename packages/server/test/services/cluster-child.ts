// The cluster tests' and bench's child server, bundled once with esbuild so a
// restart costs Node's start-up only (ADR 60), not a tsx compile.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SOURCE = fileURLToPath(new URL('../fixtures/cluster-child.ts', import.meta.url));

/** Where this process's bundle goes (`.gitignore` covers it); callers remove it when done. */
export const CLUSTER_CHILD = fileURLToPath(new URL(`../fixtures/.cluster-child-${process.pid}.mjs`, import.meta.url));

/** Bundles the child server to CLUSTER_CHILD. */
export async function bundleClusterChild(): Promise<void> {
  await build({
    entryPoints: [SOURCE],
    outfile: CLUSTER_CHILD,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'pg-native'],
    // Bundled CommonJS packages call require: give the ES module one.
    banner: { js: "import { createRequire as __tkRequire } from 'node:module'; const require = __tkRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}
