// Every table's rough edges from the seventh review, in real Chromium (issue
// 20, ADR 57): a join code a phone used reads "used" on the GM's Invite panel
// (and a new one is live again); the tracker's End turn button says whose
// turn it ends, on the GM screen and on the phone whose turn it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('table-edges');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('every table: join codes and End turn', () => {
  it("a phone joins with Bo's code: the Invite panel marks it used, and New code gives a live one", async () => {
    const t = await e2e!.table('teams', 'Code used');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const invite = gm.p.locator('.area-invite');
    await invite.getByPlaceholder('Player name').fill('Bo');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    const shown = invite.getByTestId('join-code');
    await expect.poll(() => text(shown)).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const code = await text(shown);
    expect(await invite.getByTestId('join-code-used').count()).toBe(0);

    const ctx = await e2e!.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    contexts.push(ctx);
    const phone = await ctx.newPage();
    await phone.goto(`${e2e!.server.url}/`);
    await phone.getByLabel('Join code').fill(code);
    await phone.getByRole('button', { name: 'Join', exact: true }).click();
    await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();

    // The GM's panel learns it from the server: the code is shown spent, never as one to read out again.
    const used = invite.getByTestId('join-code-used');
    await expect.poll(() => text(used), { timeout: 20_000 }).toMatch(new RegExp(`^Join code ${code} used by a phone at \\d`));
    expect(await shown.count()).toBe(0);
    // Kept across a reload of the GM screen (the invites live in this browser).
    await gm.p.reload();
    await gm.p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => text(gm.p.locator('.area-invite').getByTestId('join-code-used'))).toContain(`${code} used by a phone`);
    await gm.p.locator('.area-invite').getByRole('button', { name: 'New code for Bo' }).click();
    const fresh = gm.p.locator('.area-invite').getByTestId('join-code');
    await expect.poll(() => text(fresh)).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(await text(fresh)).not.toBe(code);
    expect(await gm.p.locator('.area-invite').getByTestId('join-code-used').count()).toBe(0);
    expect(gm.errors).toEqual([]);
  });

  it("the End turn button names whose turn it ends: the GM's \"End Goblin's turn\", Kira's phone \"End Kira's turn\" on hers", async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { dex: 14, maxHp: 10, hp: 10, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { dex: 10, ac: 11, maxHp: 7, hp: 7 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin'), stats: { dex: 10 } },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    // DEX 14 before DEX 10: Kira first.
    // The accessible name is the words (the N key hint is hidden from screen readers).
    const next = gm.p.getByTestId('next-turn');
    await expect.poll(() => gm.p.getByRole('button', { name: "End Kira's turn", exact: true }).count()).toBe(1);
    await expect.poll(() => ann.p.getByRole('button', { name: "End Kira's turn", exact: true }).count()).toBe(1);
    await next.click();
    await expect.poll(() => gm.p.getByRole('button', { name: "End Goblin's turn", exact: true }).count()).toBe(1);
    expect(await text(next)).toContain("End Goblin's turn");
    // Not Kira's turn: her phone offers no End turn at all.
    await expect.poll(() => ann.p.getByTestId('next-turn').count()).toBe(0);
    expect(await next.getAttribute('aria-keyshortcuts')).toBe('n');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
