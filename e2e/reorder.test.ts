// Reordering the tracker in real Chromium (issue 20, ADR 29), OSR (001 DEX
// order: Kira 14, Brak 12, Goblin 8): the GM moves the Goblin earlier with the
// keyboard, drags Kira below the Goblin with the pointer, and the phone's
// tracker shows the same order; a teams table offers no move buttons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { osrFight, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('reorder');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const names = async (p: Page) => (await p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').locator('.name').allTextContents()).map((s) => s.replace('you', '').trim());

describe('drag and keyboard reorder', () => {
  it('keyboard moves the Goblin earlier; dragging Kira onto the Goblin puts her below it; the phone follows', async () => {
    const { t, seat } = await osrFight(e2e!, 'Order night', [
      { name: 'Brak', kind: 'pc', side: 'party', dex: 12, hp: 10 },
      { name: 'Goblin', kind: 'npc', side: 'foes', dex: 8, hp: 5 },
    ]);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    await expect.poll(() => names(gm.p)).toEqual(['Kira', 'Brak', 'Goblin']);

    // Keyboard: focus "Move Goblin earlier" and press Enter.
    const earlier = gm.p.getByRole('button', { name: 'Move Goblin earlier' });
    await earlier.focus();
    await gm.p.keyboard.press('Enter');
    await expect.poll(() => names(gm.p)).toEqual(['Kira', 'Goblin', 'Brak']);
    await expect.poll(() => names(ann.p)).toEqual(['Kira', 'Goblin', 'Brak']);
    expect(await gm.p.getByRole('button', { name: 'Move Kira earlier' }).isDisabled()).toBe(true);

    // Pointer: drag Kira's row onto the Goblin's: she takes its place, below it.
    const rows = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant');
    await rows.nth(0).dragTo(rows.nth(1));
    await expect.poll(() => names(gm.p)).toEqual(['Goblin', 'Kira', 'Brak']);
    await expect.poll(() => names(ann.p)).toEqual(['Goblin', 'Kira', 'Brak']);
    // The phone has no move buttons.
    expect(await ann.p.getByRole('button', { name: /^Move .* (earlier|later)$/ }).count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('undo').textContent()).toBe('↶ Undo: reorder the turns');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('a teams table (003: teams take turns) shows no move buttons', async () => {
    const t = await e2e!.table('teams', 'Teams night');
    const gmSock = await e2e!.socket(t.gmToken);
    await gmSock.command({ type: 'encounter.start', combatants: [{ name: 'A', kind: 'pc', side: 'x', team: 'x' }, { name: 'B', kind: 'npc', side: 'y', team: 'y' }], params: { teamOrder: ['x', 'y'] } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    await expect.poll(() => gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').count()).toBe(2);
    await gm.p.waitForTimeout(500);
    expect(await gm.p.getByRole('button', { name: /^Move .* (earlier|later)$/ }).count()).toBe(0);
  });
});
