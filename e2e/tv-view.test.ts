// The shared display for a TV (issue 20), in Chromium: the GM's invite panel
// gives a TV link (the spectator link with view=tv); the page shows the round
// and the turn order in large type with the current turn marked, follows the
// GM's turn changes and damage, shows the turn timer as the GM's screen does and
// each visible creature's health and conditions as chips (review 13 #5), lists
// the visible countdowns, and never receives a hidden foe, a hidden countdown
// or the bestiary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { startE2e, type E2e } from './harness.ts';
import { recordFrames, watchErrors } from './web.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | null = null;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tv-view');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('the TV view', () => {
  it('shows turn order, round and visible countdowns in large type, follows the fight, and no secrets', async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Friday fight', rulesetId: 'osr' });
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'countdown.create', name: 'Torches gutter', start: 4, visibility: 'visible' });
    await gmSock.command({ type: 'countdown.create', name: 'CANARY-Qv reinforcements', start: 2, visibility: 'hidden' });
    await gmSock.command({ type: 'bestiary.save', name: 'CANARY-Qv wyrm', block: { hp: 90 } });
    await gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'pc-kira', name: 'Kira', kind: 'pc', side: 'pcs', stats: { dex: 12, hp: 10, maxHp: 10 }, visibility: 'visible' },
        { id: 'npc-g1', name: 'Goblin 1', kind: 'npc', side: 'npcs', stats: { dex: 14, hp: 7, maxHp: 7 }, visibility: 'visible' },
        { id: 'npc-g2', name: 'Goblin 2', kind: 'npc', side: 'npcs', stats: { dex: 8, hp: 7, maxHp: 7 }, visibility: 'visible' },
        { id: 'npc-x', name: 'CANARY-Qv lurker', kind: 'npc', side: 'npcs', stats: { dex: 20, hp: 9 }, visibility: 'hidden' },
      ],
    });

    // The GM makes the spectator link; the invite panel offers its TV variant.
    const gmCtx = await e2e!.browser.newContext({ viewport: { width: 1400, height: 900 } });
    contexts.push(gmCtx);
    const gm = await gmCtx.newPage();
    await gm.goto(made.links.gm);
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await gm.getByRole('button', { name: 'Make a spectator link' }).click();
    const tvUrl = await gm.getByTestId('tv-link').inputValue();
    expect(tvUrl).toMatch(/#spectator=[^&]+&view=tv$/);

    const tvCtx = await e2e!.browser.newContext({ viewport: { width: 1920, height: 1080 } });
    contexts.push(tvCtx);
    const tv = await tvCtx.newPage();
    const frames = recordFrames(tv);
    const errors = watchErrors(tv);
    await tv.goto(tvUrl);
    await tv.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => tv.getByTestId('tv-table').textContent()).toBe('Friday fight');
    await expect.poll(() => tv.getByTestId('tv-round').textContent()).toBe('Round 1');
    const rows = tv.getByTestId('tv-row');
    await expect.poll(() => rows.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Goblin 1')]));
    // 001 "Initiative": highest DEX first; the hidden lurker (DEX 20) is not on the screen.
    expect(await tv.locator('[data-testid=tv-row] .tv-name').allTextContents()).toEqual(['Goblin 1', 'Kira', 'Goblin 2']);
    // The hidden lurker (DEX 20) acts first: the TV marks nobody, and says nothing of it.
    const current = tv.locator('[data-testid=tv-row][aria-current=step]');
    expect((gmSock.view().world.ext['encounter'] as { current: string | null }).current).toBe('npc-x');
    expect(await current.count()).toBe(0);

    // Large type: the rows are at least 20 px, readable across a room.
    // The root typecheck has no DOM library: the page's getComputedStyle is reached through globalThis.
    const size = await rows.first().evaluate((el) => parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(20);

    // The GM moves the turn on: Goblin 1, then Kira; then Goblin 2 drops.
    await gmSock.command({ type: 'encounter.endTurn' });
    await expect.poll(async () => (await current.allTextContents()).join(' ')).toContain('Goblin 1');
    await gmSock.command({ type: 'encounter.endTurn' });
    await expect.poll(async () => (await current.allTextContents()).join(' ')).toContain('Kira');
    await gmSock.command({ type: 'encounter.damage', id: 'npc-g2', amount: 7 });
    await expect.poll(() => tv.locator('[data-testid=tv-row].defeated').textContent()).toContain('Goblin 2');

    // Health and conditions as the phones show them: Kira's 10 - 4 = 6 of 10, Goblin 1's Shaken as a chip; a foe's HP stays the GM's.
    await gmSock.command({ type: 'encounter.damage', id: 'pc-kira', amount: 4 });
    await gmSock.command({ type: 'condition.apply', targetId: 'npc-g1', condition: 'custom:Shaken', duration: { kind: 'indefinite' } });
    await gmSock.command({ type: 'condition.apply', targetId: 'npc-x', condition: 'custom:CANARY-Qv cloak', duration: { kind: 'indefinite' } });
    const kiraRow = rows.filter({ hasText: 'Kira' });
    await expect.poll(() => kiraRow.getByTestId('tv-track').textContent()).toContain('HP 6/10');
    expect(await kiraRow.getByRole('meter', { name: 'Kira HP' }).getAttribute('aria-valuenow')).toBe('6');
    const goblinRow = rows.filter({ hasText: 'Goblin 1' });
    await expect.poll(() => goblinRow.getByRole('list', { name: "Goblin 1's conditions" }).textContent()).toBe('Shaken');
    expect(await goblinRow.getByTestId('tv-track').count()).toBe(0);

    // The turn timer, shown to all (issue 20): the GM sets 30 s and the TV counts it down as the GM's screen does.
    await gmSock.command({ type: 'timer.set', seconds: 30 });
    const tvTimer = tv.getByTestId('turn-timer');
    await expect.poll(() => tvTimer.textContent()).toMatch(/0:[0-3]\d/);
    await expect.poll(() => tvTimer.getAttribute('role')).toBe('timer');
    const timerSize = await tvTimer.evaluate((el) => parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(el).fontSize));
    expect(timerSize).toBeGreaterThanOrEqual(20);

    // Countdowns: the visible one with its value, the hidden one nowhere.
    await expect.poll(() => tv.getByTestId('tv-countdowns').textContent()).toContain('Torches gutter 4 of 4');

    expect(await axeViolations(tv)).toEqual([]);
    await tv.screenshot({ path: 'docs/screenshots/tv-view.png' });

    await gmSock.command({ type: 'encounter.end' });
    await expect.poll(() => tv.getByTestId('tv-idle').textContent()).toBe('The encounter has ended.');

    const seen = frames.join('\n') + (await tv.content());
    expect(seen).not.toContain('CANARY');
    expect(seen).not.toContain('bestiary');
    expect(errors).toEqual([]);
  });
});
