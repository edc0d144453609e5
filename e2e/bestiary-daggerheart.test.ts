// Daggerheart's bestiary in Chromium (issue 20): the GM saves a Bandit stat
// block by the form, then adds three of them, hidden, with one click: the
// bestiary sends daggerheart.addAdversaries (adversaries are characters with
// thresholds, not tracker rows), so the Adversaries panel lists Bandit 1 to 3
// with the block's numbers. A block missing its thresholds is named before
// anything is sent; the phone never receives the hidden Bandits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('bestiary-daggerheart');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Daggerheart bestiary to adversaries', () => {
  it('Bandit x3 from a stat block become three hidden adversaries with its thresholds; a block without thresholds says what to fill in', async () => {
    const t = await e2e!.table('daggerheart', 'Hideout night');
    const seat = await e2e!.seat(t, 'Ann');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    const save = async (name: string, numbers: [RegExp, string][]) => {
      await form.getByLabel('Name', { exact: true }).fill(name);
      for (const [label, v] of numbers) await form.getByLabel(label).fill(v);
      await form.getByRole('button', { name: 'Save stat block' }).click();
      await expect.poll(() => text(best.getByTestId('bestiary-list'))).toContain(name);
    };
    await save('Wolf', [[/^HP/, '4'], [/^Difficulty/, '11']]);
    await save('Bandit', [[/^HP/, '5'], [/^Difficulty/, '12'], [/^Major/, '7'], [/^Severe/, '12'], [/^Stress/, '2'], [/^Attack/, '1'], [/^Damage/, '1d8+2']]);

    // The Wolf has no thresholds: the panel names them, and nothing joins.
    await best.getByRole('button', { name: 'Add Wolf as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Wolf needs its major threshold and severe threshold before it can fight: press Edit and fill them in.');

    const bandit = best.getByTestId('bestiary-entry').filter({ hasText: 'Bandit' });
    await bandit.getByLabel('How many').fill('3');
    await bandit.getByRole('checkbox', { name: 'hidden' }).check();
    await bandit.getByRole('button', { name: 'Add Bandit as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Bandit 1 to Bandit 3 joined the adversaries, hidden.');
    const foes = gm.p.getByTestId('adversaries').getByTestId('adversary');
    await expect.poll(() => foes.count()).toBe(3);
    expect((await foes.locator('strong').allTextContents()).sort()).toEqual(['Bandit 1', 'Bandit 2', 'Bandit 3']);
    expect(await text(foes.first())).toContain('Difficulty 12 · Attack 1 · 1d8+2');
    await expect.poll(() => gm.p.getByTestId('undo').textContent()).toBe('↶ Undo: add adversaries');

    expect(await axeViolations(gm.p)).toEqual([]);
    // Hidden: nothing of them reaches the phone.
    expect(ann.frames.some((f) => f.includes('Bandit'))).toBe(false);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
