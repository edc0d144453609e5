// Review 12 #3 on an OSR table by clicking: "Undo: start an encounter" brings the builder back with the foes and
// the option the GM had drafted (they were set aside on this device at the start), so the fight is fixed and
// started again; once a fight has ended, the next builder starts from the party alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { builderLine, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('undo-start-lineup');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const lined = async (p: Page) => (await p.getByTestId('builder-rows').locator('li strong').allTextContents()).map((s) => s.trim());

describe('OSR: an undone start keeps its line-up', () => {
  it('Undo after Roll initiative shows the goblins and "one per foe type" again; after End the next builder has the party only', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { hp: 8, maxHp: 8 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await builderLine(gm.p, { name: 'Goblin x2', 'init-dex': '14', hp: '5' });
    await expect.poll(() => lined(gm.p)).toEqual(['Kira', 'Goblin 1', 'Goblin 2']);
    const enc = gm.p.locator('.area-encounter');
    await enc.getByLabel("Foes' initiative").selectOption('type');
    await enc.getByTestId('roll-initiative').click();
    const undo = gm.p.getByTestId('undo');
    await expect.poll(() => undo.textContent()).toBe('↶ Undo: start an encounter');

    await undo.click();
    await expect.poll(() => lined(gm.p)).toEqual(['Kira', 'Goblin 1', 'Goblin 2']);
    expect(await enc.getByLabel("Foes' initiative").inputValue()).toBe('type');
    // Started again from the same line-up, then ended: the next fight starts from the party, not these goblins.
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('round').textContent()).toBe('Round 1');
    await gm.p.getByTestId('end-encounter').click();
    await expect.poll(() => gm.p.getByTestId('no-encounter').textContent()).toBe('The encounter has ended.');
    await expect.poll(() => lined(gm.p)).toEqual(['Kira']);
    expect(gm.errors).toEqual([]);
  }, 180_000);
});
