// The dice tray needs no table server: the engine runs in the page. Served
// from a plain static server of dist, on a phone and on a desktop viewport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshotsDir } from './browser.ts';
import { ensureWebBuilt, horizontalOverflow, serveDist, watchErrors } from './web.ts';

let browser: Browser;
let site: { url: string; close: () => Promise<void> };
const shots = screenshotsDir;

beforeAll(async () => {
  ensureWebBuilt();
  mkdirSync(shots, { recursive: true });
  site = await serveDist();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The landing page probes /api/rulesets; the static server answers 404, which is expected here. */
const realErrors = (errors: string[]) => errors.filter((e) => !/Failed to load resource/.test(e));

async function open(width: number, height: number): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport: { width, height } });
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(site.url + '/');
  await page.getByLabel('Dice notation').waitFor();
  return { page, errors };
}

describe('dice tray without a server', () => {
  it('shows a parse error in place, at its column', async () => {
    const { page, errors } = await open(1280, 800);
    const box = page.getByLabel('Dice notation');
    await box.fill('2d6 + * 3');
    const err = page.getByTestId('dice-error');
    await err.waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    // The caret sits under the offending '*' (0-based column 6, shown 1-based).
    const caretLine = (await err.locator('pre').textContent())!.split('\n')[1]!;
    expect(caretLine.indexOf('^')).toBe('2d6 + * 3'.indexOf('*'));
    expect(await err.textContent()).toContain('Column 7');
    await box.fill('2d6 + 3');
    await expect.poll(() => err.count()).toBe(0);
    expect(await box.getAttribute('aria-invalid')).toBe('false');
    expect(realErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('draws the exact distribution as an SVG chart with the comparison probability', async () => {
    const { page, errors } = await open(1280, 800);
    await page.getByLabel('Dice notation').fill('4d6kh3 vs 15');
    // P(4d6 keep highest 3 >= 15) = 300/1296, mean 15869/1296 = 12.24: recomputed by enumeration below.
    const expected = await exactKeepHighest();
    await expect.poll(() => page.getByTestId('probability').textContent()).toContain(`${(expected.p * 100).toFixed(1)}%`);
    const chart = page.getByTestId('odds-chart');
    expect(await chart.evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.locator('rect').count()).toBe(16); // totals 3..18
    expect(await chart.locator('rect.hit').count()).toBe(4); // 15..18
    expect(await page.getByTestId('odds').textContent()).toContain(`mean ${expected.mean.toFixed(2)}`);
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    const total = Number(await page.getByTestId('roll-total').first().textContent());
    expect(total).toBeGreaterThanOrEqual(3);
    expect(total).toBeLessThanOrEqual(18);
    // Four dice shown, one of them dropped.
    const first = page.getByTestId('roll-log').locator('li').first();
    expect(await first.locator('.die').count()).toBe(4);
    expect(await first.locator('.die.dropped').count()).toBe(1);
    await page.getByLabel('Dice notation').press('Enter');
    await expect.poll(() => page.getByTestId('roll-log').locator('li').count()).toBe(2);
    await page.locator('main').screenshot({ path: path.join(shots, 'dice-odds.png') });
    expect(realErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('fits a 390 px phone without horizontal scrolling', async () => {
    const { page, errors } = await open(390, 844);
    await page.getByLabel('Dice notation').fill('3d6 vs 13');
    await page.getByTestId('odds-chart').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(realErrors(errors)).toEqual([]);
    await page.context().close();
  });
});

/** 4d6 keep highest 3: enumerate all 1296 rolls for P(>= 15) and the mean. */
async function exactKeepHighest(): Promise<{ p: number; mean: number }> {
  let hits = 0;
  let sum = 0;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++)
      for (let c = 1; c <= 6; c++)
        for (let d = 1; d <= 6; d++) {
          const t = a + b + c + d - Math.min(a, b, c, d);
          sum += t;
          if (t >= 15) hits++;
        }
  return { p: hits / 1296, mean: sum / 1296 };
}
