// Daggerheart between conflicts, by clicking (issue 20, reviews 6 and 10): N at
// "Waiting" passes the spotlight to whoever has waited longest; a
// second conflict starts from the adversaries lined up since, and the GM
// ticks which of the last one's survivors come back; a PC invited with HP keeps one
// HP, its slots, with no second "HP 7/7" on the phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('dh-conflicts');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('a second Daggerheart conflict', () => {
  it("the second conflict starts with Kira and the Wolf added since; the first one's Bandits come back only ticked (Bandit 1 is)", async () => {
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

    // The second starts from the new line-up: a Wolf added since; both Bandits are offered unticked, marked as from the last conflict.
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Wolf', count: 1, difficulty: 11, major: 5, severe: 9, hp: 3, visibility: 'visible' });
    const join = spot.getByTestId('conflict-adversaries');
    await expect.poll(async () => (await join.textContent())?.replace(/\s+/g, ' ').trim()).toBe('Adversaries who join Bring Bandit 1 · from the last conflict Bring Bandit 2 · from the last conflict Bring Wolf');
    expect(await join.getByLabel('Bring Wolf').isChecked()).toBe(true);
    for (const b of ['Bandit 1', 'Bandit 2']) expect(await join.getByLabel(`Bring ${b}`).isChecked()).toBe(false);
    // Carrying one over is the GM's tick, and the count says so before the click.
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).waitFor();
    await join.getByLabel('Bring Bandit 1').check();
    await spot.getByRole('button', { name: 'Start a conflict (3)' }).click();
    await expect.poll(names).toEqual(['Bandit 1', 'Kira', 'Wolf']);
    await expect.poll(async () => (await ann.p.getByTestId('combatant').allTextContents()).some((r) => r.includes('Bandit 1'))).toBe(true);
    expect((await ann.p.getByTestId('combatant').allTextContents()).some((r) => r.includes('Bandit 2'))).toBe(false);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('N at "Waiting" moves the spotlight round the table (Kira, Bandit 1, Bandit 2, Kira), never to the hidden Lurker', async () => {
    const { t, gmSock } = await daggerheartSeat(e2e!, 'N passes');
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 2, difficulty: 12, major: 7, severe: 12, hp: 5, visibility: 'visible' });
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Lurker', count: 1, difficulty: 12, major: 7, severe: 12, hp: 5, visibility: 'hidden' });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const spot = gm.p.getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (4)' }).click();
    const holders: string[] = [];
    for (let i = 0; i < 4; i++) {
      // Waiting: N passes the spotlight; the button names whose turn it now ends.
      await expect.poll(() => text(spot.locator('p').first())).toBe('The GM passes the spotlight.');
      await gm.p.keyboard.press('n');
      await expect.poll(() => spot.getByTestId('spotlight-holder').count()).toBe(1);
      const who = text(spot.getByTestId('spotlight-holder'));
      holders.push(await who);
      await expect.poll(() => text(gm.p.getByTestId('next-turn'))).toBe(`End ${holders.at(-1)}'s turnN`);
      await gm.p.keyboard.press('n');
    }
    expect(holders).toEqual(['Kira', 'Bandit 1', 'Bandit 2', 'Kira']);
    expect(gm.errors).toEqual([]);
  });

  it("one HP for a Daggerheart PC: the invite's 7 becomes 7 HP slots, and the phone's header and turn order show no second \"HP 7/7\"", async () => {
    const t = await e2e!.table('daggerheart', 'One HP');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const invite = gm.p.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Bo');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel('Character name for Bo').fill('Bram');
    await invite.getByLabel('Hit points').last().fill('7');
    // The invite asks for the Evasion an adversary's attack rolls against (ADR 79).
    await invite.getByLabel("Evasion for Bo's character").fill('10');
    await invite.getByLabel("Major threshold for Bo's character").fill('4');
    await invite.getByLabel("Severe threshold for Bo's character").fill('8');
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
