// Two quick changes to a stored sheet under an open sheet form, on a slow page (CDP CPU throttling, as on a
// loaded CI machine): the form takes both in and the page keeps answering. The draft used to come back into
// the form as its start, and the form and the draft then undid each other forever (CI froze teams-forms).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('sheet-form-deltas');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('sheet forms under quick deltas', () => {
  it("a slow GM page takes in two hits in a row under the party's sheet form and the tracker's, with no made-up draft", async () => {
    const n = await night(e2e!, 'teams', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'encounter.start', combatants: [{ id: 'boudica', kind: 'pc', side: 'players', characterId: n.idOf('Boudica') }, { id: 'guard', kind: 'npc', side: 'guards' }], params: { teamOrder: ['players', 'guards'] } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Boudica'), sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 4, maxEndurance: 12, maxHealth: 12 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const cdp = await gm.p.context().newCDPSession(gm.p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
    await expect.poll(() => gm.p.locator('#sheet-form-endurance').inputValue(), { timeout: 60_000 }).toBe('12');

    // 7 then 10 (003 "Damage"): endurance 12 -> 5 -> 0, health 12 -> 7; the second lands while the page takes in the first.
    await n.gmSock.command({ type: 'teams.damage', targetId: 'boudica', amount: 7, reduce: false });
    await n.gmSock.command({ type: 'teams.damage', targetId: 'boudica', amount: 10, reduce: false });
    await expect.poll(() => gm.p.locator('#sheet-form-health').inputValue(), { timeout: 60_000 }).toBe('7');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // A page stuck in a render loop never answers this; a settled one does at once.
    expect(await gm.p.evaluate('1 + 1', undefined)).toBe(2);
    expect(await gm.p.locator('#sheet-form-endurance').inputValue()).toBe('0');
    expect(await gm.p.locator('#sheet-edit-health').inputValue()).toBe('7');
    // Nobody typed: neither form may claim unsaved changes (the loop's made-up draft showed here).
    expect(await gm.p.getByTestId('sheet-drafts').count()).toBe(0);
    expect(await gm.p.getByTestId('sheet-editor-drafts').count()).toBe(0);
    expect(gm.errors).toEqual([]);
  });
});
