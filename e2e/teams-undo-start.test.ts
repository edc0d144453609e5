// Review 9: on a teams table, Undo after "Roll initiative" with foes from the
// bestiary took three clicks, the first two quietly reverting the foes' sheets.
// The start and its foes' sheets are now one change (history.batch, ADR 70):
// one Undo click takes the fight back whole, sheets included, and the builder
// shows the line-up again (review 12 #3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { whoStarts, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('teams-undo-start');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('teams: one click, one undo', () => {
  it('Roll initiative with two wolves from the bestiary is undone by one Undo, their sheets with it', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await gm.p.getByTestId('encounter-builder').getByText('Nobody lined up yet').waitFor();
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Kira'), sheet: { evasion: 5, maxEndurance: 6, maxHealth: 12 } });
    await n.gmSock.command({ type: 'bestiary.save', name: 'Wolf', block: { evasion: 5, maxEndurance: 4, maxHealth: 10 } });

    const enc = gm.p.locator('.area-encounter');
    const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
    const wolf = gm.p.getByTestId('bestiary').getByTestId('bestiary-entry').filter({ hasText: 'Wolf' });
    await wolf.getByLabel('How many').fill('2');
    await wolf.getByRole('button', { name: 'Line up Wolf' }).click();
    await ready.getByText('Wolf 2', { exact: true }).waitFor();
    // A PC who joins the table while the builder is open is lined up on their own (review 10).
    await ready.getByText('Kira', { exact: true }).waitFor();
    const undo = gm.p.getByTestId('undo');
    const before = await text(undo);
    const sheetsBefore = Object.keys((n.gmSock.view().world.ext['teams'] as { sheets: object }).sheets).sort();

    // 003 names no default first team: the GM picks one (ADR 66).
    await whoStarts(enc, 'Party');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => text(enc.getByTestId('now-acting'))).toMatch(/Now acting|choose who acts/);
    // The wolves got their teams sheets in the same change: the tracker reads their Health.
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => text(order.getByTestId('combatant').filter({ hasText: 'Wolf 1' }))).toContain('Health 10/10');
    await expect.poll(() => text(undo)).toBe('↶ Undo: start an encounter');

    await undo.click();
    await expect.poll(() => enc.getByTestId('now-acting').count()).toBe(0);
    await expect.poll(() => text(undo)).toBe(before);
    expect(Object.keys((n.gmSock.view().world.ext['teams'] as { sheets: object }).sheets).sort()).toEqual(sheetsBefore);

    // Review 12 #3: the builder comes back with the line-up the GM had drafted (the wolves, not the party alone)
    // and the team picked to start, so the fight is fixed and started again without rebuilding it.
    await expect.poll(() => ready.getByRole('listitem').locator('strong').allTextContents()).toEqual(['Kira', 'Wolf 1', 'Wolf 2']);
    expect(await enc.getByLabel('Who starts the fight').inputValue()).toBe('Party');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => text(order.getByTestId('combatant').filter({ hasText: 'Wolf 2' }))).toContain('Health 10/10');
    expect(gm.errors).toEqual([]);
  }, 240_000);
});
