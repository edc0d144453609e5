// The turn timer in real Chromium (issue 20, ADR 29): off by default; the GM
// picks 1 minute per turn; the tracker and Ann's phone count down the acting
// combatant's time; pausing freezes it on both, and a reloaded phone shows the
// same frozen time (it comes from the server's recorded start, not a local
// timer); the next turn starts a fresh minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { osrFight, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('turn-timer');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const seconds = (text: string | null): number => {
  const m = /(\d+):(\d\d)/.exec(text ?? '');
  return m === null ? -1 : Number(m[1]) * 60 + Number(m[2]);
};
const timer = (p: Page) => p.getByTestId('turn-timer').textContent();

describe('turn timer', () => {
  it('set, count down on both screens, pause survives a reload, the next turn restarts it', async () => {
    const { t, seat } = await osrFight(e2e!, 'Timer night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    // Off by default: nothing counts.
    await expect.poll(() => gm.p.getByLabel('Time per turn').inputValue()).toBe('0');
    expect(await ann.p.getByTestId('turn-timer').count()).toBe(0);

    await gm.p.getByLabel('Time per turn').selectOption({ label: '1 min' });
    await expect.poll(async () => seconds(await timer(ann.p))).toBeGreaterThan(50);
    await expect.poll(async () => seconds(await timer(gm.p))).toBeGreaterThan(50);
    // It counts down on the phone by itself.
    const first = seconds(await timer(ann.p));
    await expect.poll(async () => seconds(await timer(ann.p)), { timeout: 10_000 }).toBeLessThan(first);

    // Pause: both freeze on the same text; a reloaded phone shows it again.
    await gm.p.getByRole('button', { name: 'Pause timer' }).click();
    await expect.poll(() => ann.p.getByTestId('turn-timer').textContent()).toContain('(paused)');
    const frozen = await timer(ann.p);
    expect(await timer(gm.p)).toBe(frozen);
    await ann.p.reload();
    await ann.p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => timer(ann.p)).toBe(frozen);

    await gm.p.getByRole('button', { name: 'Resume timer' }).click();
    await expect.poll(() => ann.p.getByTestId('turn-timer').textContent()).not.toContain('(paused)');

    // The next turn (the Goblin's) starts a fresh minute.
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Goblin');
    await expect.poll(async () => seconds(await timer(gm.p))).toBeGreaterThanOrEqual(58);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
