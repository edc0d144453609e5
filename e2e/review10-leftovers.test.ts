// Issue 20, review 10's leftovers, played by clicking in real Chromium: an OSR
// party that joins while foes are lined up from the bestiary comes into the
// fight in DEX order; (more below, one `it` per leftover).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('review10-leftovers');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('review 10 leftovers', () => {
  it('OSR: the party joins a fight started from a bestiary group, in DEX order', async () => {
    const t = await e2e!.table('osr', 'Barrow night');
    const gmSock = await e2e!.socket(t.gmToken);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const enc = gm.p.locator('.area-encounter');
    await enc.getByTestId('encounter-builder').waitFor();
    // The party arrives while the builder is open (the GM's party form, or another screen of the GM's).
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 10, hp: 10, dex: 14 } });
    await gmSock.command({ type: 'character.add', name: 'Dorn', kind: 'pc', stats: { maxHp: 12, hp: 12, dex: 16 } });
    const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
    await expect.poll(() => ready.locator('li strong').allTextContents()).toEqual(['Kira', 'Dorn']);
    // Two starter foes from the bestiary, then one click.
    const best = gm.p.getByTestId('bestiary');
    await best.getByRole('button', { name: 'Add the starter foes (Ordinary foe)' }).click();
    const foe = best.getByTestId('bestiary-entry').filter({ hasText: 'Ordinary foe' });
    await foe.getByLabel('How many').fill('2');
    await foe.getByRole('button', { name: 'Line up Ordinary foe' }).click();
    await expect.poll(() => ready.locator('li strong').allTextContents()).toEqual(['Kira', 'Dorn', 'Ordinary foe 1', 'Ordinary foe 2']);
    await gm.p.getByTestId('roll-initiative').click();
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => order.getByTestId('combatant').count(), { timeout: 15_000 }).toBe(4);
    // 001 "Initiative": DEX 16 (Dorn), 14 (Kira), then the foes.
    const names = await order.getByTestId('combatant').evaluateAll((els) => els.map((e) => e.querySelector('.name')?.firstChild?.textContent?.trim() ?? ''));
    expect(names.slice(0, 2)).toEqual(['Dorn', 'Kira']);
    expect(await text(order)).toContain('Ordinary foe 2');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
