// The server's Node flags have one source (packages/server/node-flags.json, ADR 126): every place that starts
// the server by hand (`npm start`, the compose file in docs/deploy.md) passes exactly those, and the benches read
// the file, so a change to the young generation reaches them all or fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const flags = JSON.parse(read('packages/server/node-flags.json')) as unknown;

/** The flags between `node` and `--import tsx` of a command line that starts main.ts. */
function flagsOf(commandLine: string): string[] {
  const m = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*?)\s+--import tsx packages\/server\/src\/main\.ts/.exec(commandLine);
  if (m === null) throw new Error(`no server start in: ${commandLine}`);
  return m[1]!.trim().split(/\s+/).filter(Boolean);
}

describe("the server's Node flags", () => {
  it('are a list of flags', () => {
    expect(Array.isArray(flags) && flags.length > 0 && flags.every((f) => typeof f === 'string' && f.startsWith('--'))).toBe(true);
  });

  it('are what npm start passes', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(flagsOf(start)).toEqual(flags);
  });

  it("are what docs/deploy.md's compose file passes", () => {
    const line = read('docs/deploy.md').split('\n').find((l) => l.includes('packages/server/src/main.ts'));
    expect(line).toBeDefined();
    expect(flagsOf(line!)).toEqual(flags);
  });

  it('reach every bench process (bench/run.mjs reads the file)', () => {
    expect(read('bench/run.mjs')).toContain("'../packages/server/node-flags.json'");
  });

  it('are the ones NODE_OPTIONS is told to carry for tablekeeper serve (the usage text)', () => {
    expect(read('packages/server/src/main.ts')).toContain(`NODE_OPTIONS=${(flags as string[]).join(' ')}`);
  });
});
