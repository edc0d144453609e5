// A request for a declared action in real Chromium (issue 20), Daggerheart:
// Ann's phone asks for an action roll ("climb the wall", +2); the GM's queue
// shows it with a difficulty box and, once one is typed, the exact odds; Roll
// with the box blank says what is missing; at difficulty 12 the approval rolls the Duality Dice in the same
// step, the log shows the roll against 12, and the phone reads "approved".
// axe finds nothing serious on either screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('requests-action');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('a request for a declared action', () => {
  it('the phone declares it, the GM sets the difficulty and the roll happens on approval', async () => {
    const { t, seat } = await daggerheartSeat(e2e!, 'Wall night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    const form = ann.p.getByTestId('ask-gm');
    await form.getByLabel(/^For /).selectOption({ label: 'An action roll' });
    await form.getByLabel('What Kira tries').fill('climb the wall');
    await form.getByLabel('Bonus (trait and modifiers)').fill('2');
    await form.getByRole('button', { name: 'Send to the GM' }).click();
    await expect.poll(() => ann.p.getByTestId('my-requests').textContent()).toContain('an action roll to climb the wall at +2waiting for the GM');

    const queue = gm.p.getByTestId('request-queue');
    await expect.poll(() => queue.textContent()).toContain('Kira (Ann): an action roll to climb the wall at +2');
    const roll = queue.getByRole('button', { name: 'Roll and approve Kira (Ann): an action roll to climb the wall at +2' });
    await roll.click();
    await expect.poll(() => queue.getByRole('alert').textContent()).toBe('Set the difficulty (a whole number from 1 to 60) before approving the roll.');
    await queue.getByLabel('Difficulty for Kira (Ann): an action roll to climb the wall at +2').fill('12');
    // The exact odds before the roll, at the typed difficulty: 2d12 + 2 >= 12 on 108 of 144 pairs, plus the
    // doubles 1-1 to 4-4 (criticals) below it: 112/144 = 77.8%; critical 12/144 = 8.3%; Hope above Fear 66/144 = 45.8%.
    await expect.poll(() => queue.getByTestId('queue-odds').textContent()).toBe('77.8% success · 8.3% critical (success with Hope 34.7% · with Fear 34.7% · failure with Hope 11.1% · with Fear 11.1%) at difficulty 12');
    await roll.click();

    await expect.poll(() => gm.p.getByTestId('request-queue').count()).toBe(0);
    await expect.poll(() => ann.p.getByTestId('my-requests').textContent()).toContain('an action roll to climb the wall at +2approved');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('The GM approved an action roll to climb the wall at +2 for Kira at difficulty 12.');
    // The roll itself is in the same step: both logs show the Duality Dice against 12, and the GM's one undo names the approval.
    const line = /Kira makes climb the wall: Hope \d+ \+ Fear \d+ \+ 2 \(modifier\) = \d+ vs 12/;
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(line);
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toMatch(line);
    await expect.poll(() => gm.p.getByTestId('undo').textContent()).toBe('↶ Undo: approve a request');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
