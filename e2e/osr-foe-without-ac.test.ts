// GM review finding (issue 20), OSR in Chromium: foes added without an AC
// (the starter foe has none) are no attack targets; the actions panel said
// only "nobody this view can see to attack" with the Goblin on the tracker.
// Now it names the Goblin and what it lacks, on the GM's screen and Ann's phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { osrFight, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-foe-without-ac');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const blocked = async (p: Page) => {
  await p.getByTestId('actions-blocked').waitFor({ state: 'attached', timeout: 10_000 });
  return (await p.getByTestId('actions-blocked').textContent()) ?? '';
};

describe('an OSR foe without an AC', () => {
  it("Kira's Attack says the Goblin has no AC to roll against, on both screens", async () => {
    const { t, seat } = await osrFight(e2e!, 'No AC night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const why = 'Attack: nobody this view can see to attack: Goblin has no AC to roll against (give it one with Set AC under Adjust on its row, or in its stat block or quick stats when it is added)';
    await expect.poll(() => blocked(gm.p)).toContain(why);
    await expect.poll(() => blocked(ann.p)).toContain(why);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
