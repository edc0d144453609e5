// Review 10's OSR findings in real Chromium: foes on the tracker with no AC
// (so no sheet) were missing from Kira's targets (#2), the morale prompt said
// nobody on the foes was standing with them up (#3), and the fight's summary
// called a goblin at 0 HP "still standing" (#4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { osrFight, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('review10-osr');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('OSR, review 10', () => {
  it('AC-less goblins are listed with what they need, the morale prompt names them, and a fallen one is down in the summary', async () => {
    const { t, gmSock } = await osrFight(e2e!, 'Review 10 OSR', [
      { name: 'Goblin 1', kind: 'npc', side: 'foes', dex: 8, hp: 5 },
      { name: 'Goblin 2', kind: 'npc', side: 'foes', dex: 8, hp: 5 },
    ]);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    await expect.poll(() => gm.p.getByTestId('morale-prompt').textContent()).toContain('Goblin 1 and Goblin 2 have no sheet to check morale with: give each an AC with Set AC under Adjust on its row');
    // Every target needs an AC: Attack waits under "Not now", naming both goblins and what to do.
    await expect.poll(() => gm.p.getByTestId('actions-blocked').textContent()).toContain('Goblin 1 and Goblin 2 have no AC to roll against (give it one with Set AC under Adjust on its row');
    const g1 = Object.values((gmSock.view().world.ext['encounter'] as unknown as { combatants: { [k: string]: { id: string; name: string } } }).combatants).find((c) => c.name === 'Goblin 1')!.id;
    await gmSock.command({ type: 'encounter.damage', characterId: g1, amount: 5 });
    await gm.p.getByTestId('end-encounter').click();
    await expect.poll(() => gm.p.getByTestId('fight-summary').textContent()).toContain('Down at 0 HP: Goblin 1. Still standing: the party, Kira; the foes, Goblin 2.');
    expect(gm.errors).toEqual([]);
  });
});
