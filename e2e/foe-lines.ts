// Shared steps of the browser tests about foes typed in the GM's builder (hidden-foe-sheets, foe-stats):
// a 36th Way night where Ann's seat plays Vesk, foes typed line by line, then initiative rolled.
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { night, screen, type Night, type Screen } from './actions-flow.ts';
import { builderLine, type E2e } from './harness.ts';

/** A builder line, once the builder lists it. */
export async function foeLine(p: Page, values: { readonly [id: string]: string }, hidden = false): Promise<void> {
  await builderLine(p, values, { hidden });
  await expect.poll(() => p.getByTestId('builder-rows').textContent()).toContain(values['name']!);
}

/**
 * A 36th Way table where Ann's seat plays Vesk (a sheet with AC 15, PD 12, MD 11, 30 HP), the GM's screen and
 * Ann's phone open, and the builder's band set to very slow, so foes typed next act after the hero.
 */
export async function vesksNight(e2e: E2e, contexts: BrowserContext[]): Promise<{ n: Night; gm: Screen; ann: Screen }> {
  const n = await night(e2e, '36th-way', 'Ann');
  await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
  // The ranged stance: a foe lined up nearby is in reach of her basic attack (a melee one needs it engaged).
  await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Vesk'), sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30, stance: 'ranged' } });
  const gm = await screen(e2e.browser, contexts, n.links.gm, false);
  const ann = await screen(e2e.browser, contexts, n.links.seat, true);
  await gm.p.locator('#build-init-band').selectOption('very slow');
  return { n, gm, ann };
}

/** The GM rolls initiative; resolves once Ann's phone shows Vesk's actions (the fight reached it). */
export async function rollUntilVeskActs(gm: Screen, ann: Screen): Promise<void> {
  await gm.p.getByTestId('roll-initiative').click();
  await expect.poll(() => ann.p.getByTestId('actions-panel').getByRole('heading').textContent(), { timeout: 15_000 }).toBe('Vesk: actions');
}
