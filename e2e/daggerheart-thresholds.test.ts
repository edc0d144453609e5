// GM review finding (issue 20), Daggerheart in Chromium: a PC added from the
// invite panel has no damage thresholds, so its Damage button sat greyed with
// no word why. The party card now asks for Major and Severe in place; once
// set (Major 7, Severe 14), 8 damage marks 2 HP (000: at least Major, below
// Severe). A Severe below Major is refused in words before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('daggerheart-thresholds');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Daggerheart thresholds on the party card', () => {
  it('a PC without thresholds is asked for them in place; then 8 damage against Major 7 / Severe 14 marks 2 HP', async () => {
    const { t } = await daggerheartSeat(e2e!, 'Threshold night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const party = gm.p.getByTestId('party-trackers');
    const set = party.getByTestId('set-thresholds');
    await set.waitFor();
    expect(await party.getByRole('button', { name: 'Damage' }).isDisabled()).toBe(true);

    await set.getByLabel('Major').fill('9');
    await set.getByLabel('Severe').fill('4');
    await set.getByRole('button', { name: 'Set thresholds for Kira' }).click();
    await expect.poll(() => set.getByRole('alert').textContent()).toBe('Major is a whole number from 1 to 200; Severe at least Major, at most 400.');

    await set.getByLabel('Major').fill('7');
    await set.getByLabel('Severe').fill('14');
    await set.getByRole('button', { name: 'Set thresholds for Kira' }).click();
    await expect.poll(() => party.getByTestId('set-thresholds').count()).toBe(0);
    await expect.poll(() => party.textContent()).toContain('Thresholds: Major 7 · Severe 14');

    await party.getByLabel('Damage to Kira').fill('8');
    await party.getByRole('button', { name: 'Damage' }).click();
    await expect.poll(() => party.getByRole('meter', { name: 'Kira HP' }).getAttribute('aria-valuenow')).toBe('2');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
