// A looping countdown with a rolled start that rolls again at each reset (our extension of 000's randomized and looping
// countdowns), set up by clicking the GM's form in real Chromium: the box shows only for a loop with a start die, and
// after a loop the GM's log names the new roll; a loop without the box keeps its first value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('countdown-reroll');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();
const BOX = 'Roll the start again at each reset';

describe('countdown form: roll the start again at each reset', () => {
  it('shows the box only for a loop with a start die, and a ticked one rerolls after its loop (the log line)', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const cd = gm.p.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    const box = cd.getByLabel(BOX);

    // Neither a loop with a fixed start nor a rolled start that never loops offers it.
    await cd.getByLabel('After it triggers').selectOption('loop');
    expect(await box.count()).toBe(0);
    await cd.getByLabel('or roll it').fill('1d4');
    await cd.getByLabel('After it triggers').selectOption('once');
    expect(await box.count()).toBe(0);
    await cd.getByLabel('After it triggers').selectOption('loop');
    await expect.poll(() => box.count()).toBe(1);
    // Its help says in words what it does, naming the typed die.
    expect(await text(cd.locator('#cd-reroll-help'))).toContain('fresh roll of 1d4');

    const create = async (name: string, reroll: boolean) => {
      await cd.getByLabel('Name', { exact: true }).fill(name);
      await cd.getByLabel('After it triggers').selectOption('loop');
      await cd.getByLabel('or roll it').fill('1d4');
      if (reroll) await box.check();
      await cd.getByRole('button', { name: 'Create countdown' }).click();
      await expect.poll(() => cd.getByTestId('countdown').filter({ hasText: name }).count()).toBe(1);
    };
    // The value a card shows, read from its meter.
    const valueOf = async (name: string) => Number(await cd.getByTestId('countdown').filter({ hasText: name }).getByRole('meter').getAttribute('aria-valuenow'));
    // Ticks a countdown from its value down to 0 by its own button: it triggers and loops.
    const runOut = async (name: string) => {
      const from = await valueOf(name);
      expect(from).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < from; i++) await cd.getByRole('button', { name: `Tick ${name} down by one` }).click();
    };

    await create('Patrol', true);
    // The form is cleared after it sends: the box goes with the die.
    await expect.poll(() => box.count()).toBe(0);
    await create('Guard Shift', false);

    const log = gm.p.getByTestId('log');
    await runOut('Patrol');
    // A fresh roll of 1d4 after the loop: the line names the formula and the die it rolled, and the card shows it.
    await expect.poll(() => text(log)).toMatch(/Patrol resets to [1-4] \(rerolled 1d4: [1-4]\)\./);
    const line = /Patrol resets to ([1-4]) \(rerolled 1d4: ([1-4])\)\./.exec(await text(log))!;
    expect(line[1]).toBe(line[2]);
    await expect.poll(() => valueOf('Patrol')).toBe(Number(line[1]));

    // Without the box, the loop goes back to its first roll and no reroll is logged.
    const first = await valueOf('Guard Shift');
    await runOut('Guard Shift');
    await expect.poll(() => text(log)).toContain(`Guard Shift resets to ${first}.`);
    expect(await text(log)).not.toMatch(/Guard Shift resets to \d+ \(rerolled/);
    expect(await valueOf('Guard Shift')).toBe(first);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
