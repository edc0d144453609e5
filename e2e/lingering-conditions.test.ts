// Conditions that last "until removed" between fights (review 8, ADR 66), by
// clicking in Chromium: a Daggerheart Ogre made Vulnerable keeps it after the
// conflict ends; where the GM starts the next conflict the board says who
// carries what, and for the Ogre left out "stays on them until cleared"; one
// click clears it, so the Ogre brought back later is not Vulnerable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('lingering-conditions');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('conditions left by the last fight', () => {
  it('Daggerheart: the Vulnerable Ogre benched from the next conflict is offered a clear; cleared, it comes back without it', async () => {
    const { t, gmSock } = await daggerheartSeat(e2e!, 'Lingering');
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Ogre', count: 1, difficulty: 12, major: 7, severe: 12, hp: 5, visibility: 'visible' });
    const ogre = Object.values(gmSock.view().world.characters).find((c) => c.name === 'Ogre')!.id;
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const spot = gm.p.getByTestId('spotlight');
    const conditions = () => Object.values((gmSock.view().world.ext['encounter'] as { conditions?: { [id: string]: { target: string } } } | undefined)?.conditions ?? {}).map((c) => c.target);

    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await gmSock.command({ type: 'condition.apply', targetId: ogre, condition: 'vulnerable', duration: { kind: 'indefinite' } });
    await spot.getByRole('button', { name: 'End the conflict' }).click();
    // Ended, it is still Vulnerable (ADR 57): the board says so where the next conflict starts.
    // The Ogre fought the last conflict, so it is unticked until the GM brings it (review 10).
    const row = spot.getByTestId('lingering-row');
    await expect.poll(() => text(row)).toBe('Ogre: Vulnerable (until removed) · not in this fight: stays on them until cleared Clear Vulnerable from Ogre');
    expect(conditions()).toEqual([ogre]);
    await spot.getByTestId('conflict-adversaries').getByLabel('Bring Ogre').check();
    await expect.poll(() => text(row)).toBe('Ogre: Vulnerable (until removed) · goes on in this fight Clear Vulnerable from Ogre');

    // Benched, the line changes before any click on Start; cleared, it is gone from the Ogre for good.
    await spot.getByTestId('conflict-adversaries').getByLabel('Bring Ogre').uncheck();
    await expect.poll(() => text(row)).toBe('Ogre: Vulnerable (until removed) · not in this fight: stays on them until cleared Clear Vulnerable from Ogre');
    await spot.getByRole('button', { name: 'Clear Vulnerable from Ogre' }).click();
    await expect.poll(() => spot.getByTestId('lingering').count()).toBe(0);
    expect(conditions()).toEqual([]);
    await spot.getByRole('button', { name: 'Start a conflict (1)' }).click();
    await spot.getByRole('button', { name: 'End the conflict' }).click();
    await spot.getByTestId('conflict-adversaries').getByLabel('Bring Ogre').check();
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await expect.poll(() => gm.p.getByTestId('combatant').filter({ hasText: 'Ogre' }).count()).toBeGreaterThan(0);
    expect(await text(gm.p.getByTestId('combatant').filter({ hasText: 'Ogre' }).first())).not.toContain('Vulnerable');
    expect(gm.errors).toEqual([]);
  }, 180_000);
});
