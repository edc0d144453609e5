// Daggerheart actions in real Chromium: with the spotlight on the Rogue, her
// phone makes an action roll with the exact duality odds shown first and sees
// the result, and offers Help an Ally with the Bard as the only ally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-dh');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Daggerheart actions with duality odds', () => {
  it('the Rogue\'s phone rolls an action roll against 10 with its odds shown first', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ana');
    await n.gmSock.command({ type: 'character.add', name: 'Rogue', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.add', name: 'Bard', kind: 'pc' });
    const rogue = n.idOf('Rogue');
    const bard = n.idOf('Bard');
    await n.gmSock.command({ type: 'encounter.start', combatants: [{ id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue }, { id: bard, name: 'Bard', kind: 'pc', characterId: bard }, { id: 'ogre', name: 'Ogre', kind: 'npc' }] });
    await n.gmSock.command({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ana = await screen(e2e!.browser, contexts, n.links.seat, true);

    const help = await openAction(ana.p, 'Help an ally');
    expect(await help.getByLabel('Target').locator('option').allTextContents()).toEqual(['Bard']);
    const form = await openAction(ana.p, 'Action roll');
    // 2d12 against 10: 112 of the 144 pairs sum to 10 or more or match; 12 match (critical).
    await oddsOf(form, '77.8% success · 8.3% critical');
    await form.getByLabel('Bonus').fill('2');
    // +2: pairs summing to 8 or more (123), or matching below that (3): 126 of 144.
    await oddsOf(form, '87.5% success · 8.3% critical');
    const result = await roll(form, 'Roll: Action roll');
    expect(result).toMatch(/Rogue/);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain(result.split('.')[0]!);
    expect(gm.errors).toEqual([]);
    expect(ana.errors).toEqual([]);
  });
});
