// Review 13 item 1: the GM springs a trap on a PC with no fight running, by clicking. The "Skill checks" panel's
// "Trap or save" shows the odds with the darkness's disadvantage and the chance of taking the damage (and of a
// natural 1 doubling it); the roll hurts Kira, the log says so in words on both screens, and Undo takes it back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-trap');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const logOf = (p: Page) => p.getByTestId('log').textContent();

describe('OSR: a trap sprung from the GM screen', () => {
  it('odds with the damage chance, the roll hurts Kira in words on both screens, and Undo takes it back', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    // DEX 14 (+2).
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { hp: 30, maxHp: 30, dex: 14, ac: 13 } });
    await n.gmSock.command({ type: 'osr.setLight', level: 'darkness' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    const panel = gm.p.getByTestId('skill-checks');
    await panel.locator('summary').click();
    await panel.getByLabel('Who makes it').selectOption({ label: 'Kira' });
    await panel.getByLabel('Which check').selectOption({ label: 'Trap or save' });
    const form = panel.getByTestId('action-form');
    await form.waitFor();
    const odds = () => form.getByTestId('action-odds').locator('strong').textContent();
    // Darkness hinders predicting danger: both d20s must show 11+ against DC 13 (100 of 400 pairs);
    // 39 of the 400 pairs keep a natural 1, which fails and doubles the damage.
    await form.getByLabel('Difficulty (DC)').fill('13');
    await expect.poll(odds).toMatch(/^25% to succeed · 75% to take 1d6 damage \(9\.[78]% doubled by a natural 1\)$/);
    // With no light tag ticked: one die, 10 of 20 pass, a natural 1 is 5%.
    await form.getByRole('group', { name: 'The light bears on' }).getByLabel('predicting danger (avoiding a trap)').uncheck();
    await expect.poll(odds).toBe('50% to succeed · 50% to take 1d6 damage (5% doubled by a natural 1)');
    // DC 40 cannot be met: the trap always bites.
    await form.getByLabel('Difficulty (DC)').fill('40');
    await form.getByLabel('What for').fill('a pit trap');
    await form.getByLabel('Damage on a failure (dice, may be empty)').fill('2d4');
    await expect.poll(odds).toBe('0% to succeed · 100% to take 2d4 damage (5% doubled by a natural 1)');
    await roll(form, 'Roll: Trap or save');
    for (const p of [gm.p, ann.p]) {
      await expect.poll(() => logOf(p)).toMatch(/Kira failed a pit trap: d20 \d+ \+2 = \d+ vs 40\./);
      await expect.poll(() => logOf(p)).toMatch(/Kira takes \d+ damage \(2d4(, doubled by a natural 1)?\) from a pit trap: HP 30 → \d+\./);
    }
    // One undo step takes the check and its damage back.
    const undo = gm.p.getByTestId('undo');
    await expect.poll(() => undo.textContent()).toContain('Kira');
    await undo.click();
    await expect.poll(() => logOf(ann.p)).not.toContain('from a pit trap');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
