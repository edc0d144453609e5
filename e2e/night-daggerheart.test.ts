// A Daggerheart night past the first fight, by clicking (issue 20): two Imps
// from the bestiary, a conflict in which the damage box defeats Imp 1 (6
// against Major 3 / Severe 6 marks its one HP), the conflict ends, and the
// next one starts with Kira and Imp 2 only (the defeated Imp is named as left
// out); then a short rest with Tend to Wounds, seen in both logs, and the
// phone asks for an action roll the GM rolls from the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('night-daggerheart');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('a Daggerheart night: a second conflict, a rest, the phone acting', () => {
  it('the defeated Imp stays out of the second conflict; a short rest and an action request follow', async () => {
    const { t, seat, gmSock, kira } = await daggerheartSeat(e2e!, 'Bridge night');
    await gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { major: 7, severe: 14 }, patch: true });
    await gmSock.command({ type: 'bestiary.save', name: 'Imp', block: { hp: 1, difficulty: 10, major: 3, severe: 6 } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    const best = gm.p.getByTestId('bestiary');
    const imp = best.getByTestId('bestiary-entry').filter({ hasText: 'Imp' });
    await imp.getByLabel('How many').fill('2');
    await imp.getByRole('button', { name: 'Add Imp as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Imp 1 to Imp 2 joined the adversaries.');

    // The first conflict: Kira and both Imps; 6 damage is Severe against the Imp's 3 / 6: its one HP is marked.
    const spot = gm.p.getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (3)' }).click();
    await spot.getByRole('button', { name: 'Spotlight Kira' }).click();
    await expect.poll(() => text(spot.getByTestId('spotlight-holder'))).toBe('Kira');
    const adv = gm.p.getByTestId('adversaries');
    const imp1 = adv.getByTestId('adversary').filter({ hasText: 'Imp 1' });
    await imp1.getByLabel('Damage to Imp 1').fill('6');
    await imp1.getByRole('button', { name: 'Damage' }).click();
    await expect.poll(() => imp1.getByTestId('slots-Imp 1 HP').getAttribute('aria-valuenow')).toBe('1');
    await spot.getByRole('button', { name: 'End the conflict' }).click();

    // The second conflict: Kira and Imp 2, ticked; Imp 1 is named as left out.
    await expect.poll(() => text(spot.getByTestId('conflict-left-out'))).toBe('Defeated, left out: Imp 1');
    // Imp 2 survived the first: it comes back only ticked.
    await spot.getByTestId('conflict-adversaries').getByLabel('Bring Imp 2').check();
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await expect.poll(() => spot.getByRole('button', { name: /^Spotlight / }).allTextContents()).toEqual(['Spotlight Kira', 'Spotlight Imp 2']);
    await expect.poll(() => text(gm.p.getByTestId('round').locator('..'))).toContain('Encounter 2');
    await spot.getByRole('button', { name: 'End the conflict' }).click();

    // A short rest: Kira tends to her wounds; both logs say so.
    const rest = gm.p.getByTestId('rest');
    await rest.getByLabel('Kira downtime move 1').selectOption('tendWounds');
    await rest.getByRole('button', { name: 'Short rest' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('The party takes a short rest.');
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('The party takes a short rest.');

    // The phone declares an action; the GM sees its odds at difficulty 10 and rolls it.
    const form = ann.p.getByTestId('ask-gm');
    await form.getByLabel(/^For /).selectOption({ label: 'An action roll' });
    await form.getByLabel('What Kira tries').fill('leap the gap');
    await form.getByRole('button', { name: 'Send to the GM' }).click();
    const queue = gm.p.getByTestId('request-queue');
    await queue.getByLabel('Difficulty for Kira (Ann): an action roll to leap the gap').fill('10');
    // 2d12 >= 10 on 108 of 144 pairs, plus the doubles 1-1 to 4-4: 112/144 = 77.8%.
    await expect.poll(() => text(queue.getByTestId('queue-odds'))).toContain('77.8% success');
    await queue.getByRole('button', { name: 'Roll and approve Kira (Ann): an action roll to leap the gap' }).click();
    await expect.poll(() => text(ann.p.getByTestId('log'))).toMatch(/Kira makes leap the gap: Hope \d+ \+ Fear \d+ = \d+ vs 10/);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
