// The GM screen's panels never overlap, from a tablet to a narrow laptop
// (review 8: at 780 px the OSR Clock panel covered "Roll initiative"), and
// the phone at 360 px neither overflows nor stacks one panel on another.
// Checked by the boxes Chromium lays out, at each width, on a real OSR table
// with the party and foes lined up (the builder at its tallest).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { horizontalOverflow } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('gm-layout-widths');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

interface Box {
  readonly name: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** The laid-out boxes of the page's panels and of the builder's Roll initiative button (a string: this file has no DOM types). */
async function boxes(p: Page, selector: string): Promise<Box[]> {
  return p.evaluate<Box[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => {
    const r = el.getBoundingClientRect();
    const name = (el.getAttribute('data-testid') || el.className || el.tagName) + ': ' + (el.querySelector('h2')?.textContent ?? el.textContent ?? '').trim().slice(0, 30);
    return { name, x: r.x, y: r.y + scrollY, w: r.width, h: r.height };
  }).filter((b) => b.w > 0 && b.h > 0)`);
}

/** Panels whose content is wider than the panel itself (it spills over a neighbour), by name and how far. */
async function spills(p: Page, selector: string): Promise<string[]> {
  return p.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].flatMap((el) => {
    const over = el.scrollWidth - el.clientWidth;
    return over > 1 ? [(el.getAttribute('data-testid') || el.className) + ' by ' + over + ' px'] : [];
  })`);
}

/** How many columns the GM grid lays out. */
async function columns(p: Page): Promise<number> {
  return p.evaluate<number>(`getComputedStyle(document.querySelector('main.gm-grid')).gridTemplateColumns.split(' ').length`);
}

const meet = (a: Box, b: Box): boolean => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;

/** Every pair of boxes that intersect, as "a / b". */
function overlaps(list: readonly Box[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (meet(list[i]!, list[j]!)) out.push(`${list[i]!.name} / ${list[j]!.name}`);
  return out;
}

describe('the GM screen at 700-1100 px and the phone at 360 px', () => {
  it('OSR: the Clock panel and Roll initiative never meet, and no two panels overlap', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', seatId: n.seatId, stats: { maxHp: 9, hp: 9, dex: 12, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 9, hp: 9, dex: 14, ac: 12 } });
    const ctx = await e2e!.browser.newContext({ viewport: { width: 780, height: 900 } });
    contexts.push(ctx);
    const p = await ctx.newPage();
    await p.goto(n.links.gm);
    await p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    const ready = p.getByRole('list', { name: 'Combatants ready to start' });
    await ready.getByText('Kira', { exact: true }).waitFor();
    const best = p.getByTestId('bestiary');
    await best.getByRole('button', { name: /^Add the starter foes/ }).click();
    const first = best.getByTestId('bestiary-entry').first();
    await first.getByRole('button', { name: /^Line up / }).click();
    await expect.poll(() => ready.getByRole('listitem').count()).toBe(3);

    for (const width of [700, 740, 780, 820, 900, 1024, 1100]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: `/tmp/n2/gm-${width}.png`, fullPage: true });
      const roll = (await boxes(p, '[data-testid=roll-initiative]'))[0]!;
      const clock = (await boxes(p, '.gm-grid > .area-clock'))[0]!;
      expect(roll, `Roll initiative at ${width} px`).toBeDefined();
      expect(clock, `the Clock panel at ${width} px`).toBeDefined();
      expect(meet(roll, clock), `Roll initiative meets the Clock panel at ${width} px`).toBe(false);
      expect(overlaps(await boxes(p, '.gm-grid > *')), `panels at ${width} px`).toEqual([]);
      expect(await horizontalOverflow(p), `overflow at ${width} px`).toBe(0);
      // Nothing spills out of its panel into the next (a select wider than a 160 px column did, under the Clock).
      expect(await spills(p, '.gm-grid > *'), `spills at ${width} px`).toEqual([]);
      // Up to 1100 px the screen folds to two columns, the encounter across both (styles.css).
      if (width <= 1100 && width > 700) expect(await columns(p), `columns at ${width} px`).toBe(2);
    }

    // The fight running: the tracker and the acting creature's forms fit their panel too.
    await p.getByTestId('roll-initiative').click();
    await p.getByTestId('now-acting').waitFor();
    for (const width of [700, 780, 1024]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: `/tmp/n2/gm-fight-${width}.png`, fullPage: true });
      expect(overlaps(await boxes(p, '.gm-grid > *')), `panels in the fight at ${width} px`).toEqual([]);
      expect(await spills(p, '.gm-grid > *'), `spills in the fight at ${width} px`).toEqual([]);
    }

    // The phone at 360 px: Bram's screen, one column, nothing on top of anything, no sideways scroll.
    const phone = await e2e!.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    contexts.push(phone);
    const ph = await phone.newPage();
    await ph.goto(n.links.seat);
    await ph.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await ph.getByText('Bram').first().waitFor();
    await ph.screenshot({ path: '/tmp/n2/phone-360.png', fullPage: true });
    expect(overlaps(await boxes(ph, 'main.player > *'))).toEqual([]);
    expect(await horizontalOverflow(ph)).toBe(0);
  }, 240_000);
});
