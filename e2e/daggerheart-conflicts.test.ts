// Daggerheart between conflicts, by clicking (issue 20, review 6): the GM
// picks which standing adversaries join a second conflict, instead of the
// last one's living ones coming back unasked; a PC invited with HP keeps one
// HP, its slots, with no second "HP 7/7" on the phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('dh-conflicts');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('a second Daggerheart conflict', () => {
  it('Bandit 2 is left out by unticking it; the conflict starts with Kira and Bandit 1', async () => {
    const { t, seat, gmSock } = await daggerheartSeat(e2e!, 'Two fights');
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 2, difficulty: 12, major: 7, severe: 12, hp: 5, visibility: 'visible' });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const spot = gm.p.getByTestId('spotlight');
    const names = () => {
      const enc = gmSock.view().world.ext['encounter'] as { active?: boolean; roster?: string[]; combatants?: { [id: string]: { name: string } } } | undefined;
      return enc?.active === true ? (enc.roster ?? []).map((id) => enc.combatants?.[id]?.name ?? '?').sort() : [];
    };

    // The first conflict brings everyone standing; it ends.
    await spot.getByRole('button', { name: 'Start a conflict (3)' }).click();
    await expect.poll(names).toEqual(['Bandit 1', 'Bandit 2', 'Kira']);
    await spot.getByRole('button', { name: 'End the conflict' }).click();
    await expect.poll(names).toEqual([]);

    // The second: the GM unticks Bandit 2, and the count says so before the click.
    const join = spot.getByTestId('conflict-adversaries');
    await join.getByLabel('Bring Bandit 2').uncheck();
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await expect.poll(names).toEqual(['Bandit 1', 'Kira']);
    await expect.poll(async () => (await ann.p.getByTestId('combatant').allTextContents()).some((r) => r.includes('Bandit 1'))).toBe(true);
    expect((await ann.p.getByTestId('combatant').allTextContents()).some((r) => r.includes('Bandit 2'))).toBe(false);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it("one HP for a Daggerheart PC: the invite's 7 becomes 7 HP slots, and the phone's header and turn order show no second \"HP 7/7\"", async () => {
    const t = await e2e!.table('daggerheart', 'One HP');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const invite = gm.p.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Bo');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel('Character name for Bo').fill('Bram');
    await invite.getByLabel('Hit points').last().fill('7');
    await invite.getByRole('button', { name: 'Add character' }).last().click();
    await invite.getByText('Bram', { exact: true }).waitFor();
    const bo = await screen(e2e!.browser, contexts, await invite.getByTestId('seat-link').last().inputValue(), true);
    await expect.poll(() => bo.p.getByTestId('slots-Bram HP').getAttribute('aria-valuemax')).toBe('7');
    expect(await bo.p.getByTestId('slots-Bram HP').getAttribute('aria-valuenow')).toBe('0');
    await gm.p.getByTestId('spotlight').getByRole('button', { name: 'Start a conflict (1)' }).click();
    await expect.poll(async () => (await bo.p.getByTestId('combatant').allTextContents()).join(' ')).toContain('Bram');
    const header = (await bo.p.getByTestId('my-character').textContent()) ?? '';
    const rows = (await bo.p.getByTestId('combatant').allTextContents()).join(' ');
    for (const seen of [header, rows]) expect(seen).not.toContain('HP 7/7');
    expect([...gm.errors, ...bo.errors]).toEqual([]);
  });
});
