// Daggerheart's rough edges from the seventh review, played by clicking (issue
// 20, ADR 57): the phone's own roll reads as the player's ("Roll Finesse: cut
// the rope bridge", "Kira's Finesse roll (...)"); the chase form names its
// progress and consequence countdowns and its odds assume the table's last
// roll, never typed boxes; a condition lasts until removed, past the end of
// the conflict; a foe's hit reaches phones without a severity under "no
// numbers"; End turn names whose turn it ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { chaseOdds } from '@tablekeeper/engine';
import { pct } from '../packages/web/src/lib/countdowns.ts';
import { openAction, screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('dh-edges');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Daggerheart: the review 7 edges, by clicking', () => {
  it('Kira asks for a Finesse roll "cut the rope bridge": her button, request line and log read as hers; the chase form speaks of progress and consequence, its odds from that roll', async () => {
    const { t, seat, gmSock, kira } = await daggerheartSeat(e2e!, 'Rope bridge');
    await gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { finesse: 1 }, patch: true });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    await gm.p.getByTestId('spotlight').getByRole('button', { name: 'Start a conflict (1)' }).click();
    await gm.p.getByTestId('spotlight').getByRole('button', { name: 'Spotlight Kira' }).click();
    await expect.poll(() => text(gm.p.getByTestId('spotlight-holder'))).toBe('Kira');
    // The shared tracker's button says whose turn it ends.
    await expect.poll(() => text(gm.p.getByTestId('next-turn'))).toBe("End Kira's turnN");

    // The phone asks: a trait from the sheet and the player's own words.
    const form = await openAction(ann.p, 'Action roll');
    await form.getByLabel('Trait').selectOption({ label: 'Finesse +1' });
    await form.getByLabel('What for (optional)').fill('cut the rope bridge');
    await form.getByRole('button', { name: 'Action roll', exact: true }).click();
    const card = ann.p.getByTestId('roll-request');
    await expect.poll(() => text(card.getByTestId('request-words'))).toBe('Finesse roll (cut the rope bridge) +1 · the GM sets the difficulty');
    // The GM sets 10; the phone's button is the player's own roll, free, not "the GM asked for it".
    const setForm = gm.p.getByTestId('set-difficulty');
    await setForm.getByLabel('Difficulty').fill('10');
    await setForm.getByRole('button', { name: 'Set the difficulty' }).click();
    await expect.poll(() => text(card.getByTestId('request-words'))).toBe('Finesse roll (cut the rope bridge) +1 vs 10');
    const panel = ann.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('button', { name: 'Roll Finesse: cut the rope bridge (free)', exact: true }).count()).toBe(1);
    expect(await text(panel)).not.toContain('the GM asked for it');
    // Its form's button says "Roll" once (review 8 read "Roll: Roll Finesse: ...").
    await panel.getByRole('button', { name: 'Roll Finesse: cut the rope bridge (free)', exact: true }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Roll Finesse: cut the rope bridge', exact: true }).count()).toBe(1);
    expect(await text(panel)).not.toContain('Roll: Roll');
    await card.getByRole('button', { name: 'Roll Hope and Fear' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Kira's Finesse roll \(cut the rope bridge\): Hope \d+ \+ Fear \d+ \+ 1 \(modifier\) = \d+ vs 10/);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toMatch(/Kira's Finesse roll \(cut the rope bridge\): Hope \d+ \+ Fear \d+ \+ 1 \(modifier\) = \d+ vs 10/);

    // A chase by the form: 000's words for its two countdowns; no boxes for the odds' roll, which is Kira's +1 vs 10.
    const cd = gm.p.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    await cd.getByLabel('Chase (a progress and a consequence countdown)').check();
    await cd.getByLabel('Chase name').fill('The thief');
    await cd.getByLabel("Progress countdown (the PCs')").fill('Catch the thief');
    await cd.getByLabel("Consequence countdown (the other side's)").fill('The thief escapes');
    await cd.getByLabel('Die size').fill('6');
    await cd.getByLabel('Lead').fill('4');
    await cd.getByRole('button', { name: 'Create chase' }).click();
    await expect.poll(() => text(cd.getByTestId('odds-assume'))).toBe('Odds assume the last action roll: +1 vs difficulty 10.');
    expect(await cd.getByRole('spinbutton', { name: /Modifier|Difficulty/ }).count()).toBe(0);
    // The exact odds of who gets there first stay: the PCs' 6 against the thief's 4, at +1 vs 10.
    const odds = chaseOdds({ progress: 6, consequence: 4 }, { modifier: 1, difficulty: 10 });
    if (!odds.ok) throw new Error(odds.error.message);
    await expect.poll(() => text(cd.getByTestId('chase-odds'))).toContain(`${pct(odds.value.progressFirst)} Catch the thief first · ${pct(odds.value.consequenceFirst)} The thief escapes first`);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('Vulnerable "until removed" outlasts the end of the conflict with no "after round 1"; the Bandit\'s hit reaches the phone without its severity', async () => {
    const { t, seat, gmSock } = await daggerheartSeat(e2e!, 'Bandit camp');
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 1, difficulty: 12, major: 7, severe: 12, hp: 4, stress: 2, attack: 1, damage: '1d8+1', visibility: 'visible' });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const spot = gm.p.getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await spot.getByRole('button', { name: 'Spotlight Bandit' }).click();
    await expect.poll(() => text(gm.p.getByTestId('next-turn'))).toBe("End Bandit's turnN");

    // The condition picker: no rounds in a spotlight, "until removed" first and chosen.
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    const row = order.getByTestId('combatant').filter({ hasText: 'Bandit' });
    await row.getByText('Adjust Bandit').click();
    const pick = gm.p.getByRole('form', { name: 'Apply a condition to Bandit' });
    await pick.getByLabel('Condition for Bandit').selectOption('vulnerable');
    await expect.poll(() => pick.getByLabel('Duration for Bandit').locator('option').allTextContents()).toEqual(['until removed', 'until the conflict ends']);
    expect(await pick.getByLabel('Duration for Bandit').inputValue()).toBe('indefinite');
    expect(await pick.getByLabel('Rounds for Bandit').count()).toBe(0);
    await pick.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => text(row)).toContain('Vulnerable');

    // Kira's blow: 9 against 7 / 12 is major for the GM; the phone reads that it hit, not how hard against the thresholds.
    const adv = gm.p.getByTestId('adversaries');
    await adv.getByLabel('Damage to Bandit').fill('9');
    await adv.getByRole('button', { name: 'Damage' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Bandit takes 9 damage (major: thresholds 7/12) and marks 2 HP.');
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Bandit takes 9 damage and marks HP.');
    expect(await text(ann.p.getByTestId('log'))).not.toMatch(/major|severe|minor|7\/12|2 HP/);
    expect(ann.frames.filter((f) => /Bandit takes 9 damage \(|"severity"|"marks":|"major":7|"hpTo"/.test(f))).toEqual([]);

    // End the conflict: Vulnerable stays, the log says no round; the next conflict still shows it until the GM clears it.
    await spot.getByRole('button', { name: 'End the conflict' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('The encounter ends.');
    const log = await text(gm.p.getByTestId('log'));
    expect(log).not.toMatch(/after round|Vulnerable ends/);
    await spot.getByTestId('conflict-adversaries').getByLabel('Bring Bandit').check();
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await expect.poll(() => text(order.getByTestId('combatant').filter({ hasText: 'Bandit' }))).toContain('Vulnerable');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
