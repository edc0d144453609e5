// Foes hidden until they act, in real Chromium (issue 20, ADR 71), OSR: a
// hidden Lurker (DEX 6) acts after Kira (DEX 14). The GM ticks "Reveal Lurker
// when its turn starts" on its row; until Kira's turn ends no byte of the
// Lurker reaches Ann's phone; then the Lurker's turn starts, the engine
// reveals it, and the phone shows it acting, with the reveal in its log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { osrKiraAgainst } from './fixtures.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('reveal-when-acts');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const nowActing = async (p: Page): Promise<string> => ((await p.getByTestId('now-acting').first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('a hidden foe revealed when it acts', () => {
  it('stays off the phone until its turn starts, then is revealed for everyone', async () => {
    const { t, annSeat } = await osrKiraAgainst(e2e!, 'Crypt night', { name: 'Lurker', visibility: 'hidden', stats: { dex: 6, hp: 5, maxHp: 5 } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, annSeat.link, true);
    await expect.poll(() => nowActing(ann.p)).toBe('Now acting: Kira');

    // --- the GM marks the Lurker from its row
    const row = gm.p.locator('.area-encounter').getByTestId('combatant').filter({ hasText: 'Lurker' });
    await row.getByText('Adjust Lurker').click();
    await row.getByLabel('Reveal Lurker when its turn starts').check();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Lurker will be revealed when its turn starts.');
    expect(await row.getByLabel('Reveal Lurker when its turn starts').isChecked()).toBe(true);
    expect(ann.frames.filter((f) => f.includes('Lurker'))).toEqual([]);
    expect(await ann.p.content()).not.toContain('Lurker');

    // --- Kira's turn ends; the Lurker's starts and the engine reveals it
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(ann.p)).toBe('Now acting: Lurker');
    await expect.poll(() => ann.p.getByRole('list', { name: 'Turn order' }).textContent()).toContain('Lurker');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Lurker is revealed.');
    // Now visible, its row offers Hide and no longer the mark.
    await expect.poll(() => row.getByLabel('Reveal Lurker when its turn starts').count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Hide Lurker from players' }).count()).toBe(1);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
