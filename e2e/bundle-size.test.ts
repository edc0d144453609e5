// The phone's first download stays under issue 20's 30 KB gz goal, and the GM
// screen under 80, measured from a production build as `npm start` serves it
// (scripts/bundle-size.mjs). GM-only code (the sheet editor, the GM screen and
// its forms) must not reach the player view's first download.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';

interface Sizes {
  readonly playerKbGz: number;
  readonly gmKbGz: number;
  readonly targets: { readonly playerKbGz: number; readonly gmKbGz: number };
  readonly playerFiles: readonly string[];
}

function measure(): Sizes {
  // NODE_ENV=production: vitest's "test" would leave the build unminified.
  const r = spawnSync(process.execPath, ['scripts/bundle-size.mjs', '--json'], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) throw new Error(`scripts/bundle-size.mjs failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Sizes;
}

describe('bundle size (scripts/bundle-size.mjs)', () => {
  it('the player view loads under 30 KB gz and the GM screen under 80, with no GM-only chunk on the phone', () => {
    const s = measure();
    expect(s.targets).toEqual({ playerKbGz: 30, gmKbGz: 80 });
    // A build that measured nothing would pass any limit.
    expect(s.playerKbGz).toBeGreaterThan(10);
    expect(s.gmKbGz).toBeGreaterThan(s.playerKbGz);
    expect(s.playerKbGz, `player view ${s.playerKbGz} KB gz: ${s.playerFiles.join(', ')}`).toBeLessThan(s.targets.playerKbGz);
    expect(s.gmKbGz).toBeLessThan(s.targets.gmKbGz);
    expect(s.playerFiles).toContain('PlayerView');
    for (const gmOnly of ['GmScreen', 'sheetEditor', 'SheetEditor', 'GmRow', 'RowTools', 'EncounterBuilder', 'Commands', 'Bestiary']) expect(s.playerFiles).not.toContain(gmOnly);
  });
});
