// The Kleptonomicon's bestiary at the table in Chromium (review 7, ADR 56):
// a stat block with a Basic Attack made by its form, two copies lined up one
// at a time (numbered Rat-thief 1 and 2, never a plain one beside a "1"), the
// tracker's rows in 004's turn order (the PC who failed an Edge Save between
// the foe groups, the acting row where "Now acting" says), and the foe's
// Basic Attack form starting from the block's modifier and damage, its log
// line showing the die.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-bestiary');
});
afterAll(async () => {
  await e2e?.close(contexts);
});
const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('the Kleptonomicon bestiary and turn order, by clicking', () => {
  it('Rat-thief 1 and 2 from a stat block with a Basic Attack; rows in turn order; the foe attack takes the block\'s +1 and 1d4', async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    // Alice's Edge Save +9 passes any die (she acts first); Bram's -9 fails the first (he acts after foe group 1).
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 9, defense: 3, hp: 20 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { edgeSave: -9, defense: 5, hp: 20 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Rat-thief');
    await form.getByLabel(/^HP/).fill('6');
    await form.getByLabel(/^Edge Save/).fill('2');
    await form.getByLabel(/^Defense/).fill('4');
    await form.getByLabel(/^Basic Attack modifier/).fill('1');
    await form.getByLabel(/^Basic Attack damage/).fill('lots');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    await expect.poll(() => text(form)).toContain('Basic Attack damage of Stat block must be dice such as 1d6+1, or a number');
    await form.getByLabel(/^Basic Attack damage/).fill('1d4');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const entry = best.getByTestId('bestiary-entry').filter({ hasText: 'Rat-thief' });
    await expect.poll(() => text(entry)).toContain('1d4');

    // One at a time: the first is plain, the second makes them Rat-thief 1 and Rat-thief 2.
    const enc = gm.p.locator('.area-encounter');
    const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
    // The party is lined up from the start.
    await ready.getByText('Bram', { exact: true }).waitFor();
    await entry.getByLabel('How many').fill('1');
    await entry.getByRole('button', { name: 'Line up Rat-thief' }).click();
    await ready.getByText('Rat-thief', { exact: true }).waitFor();
    await entry.getByRole('button', { name: 'Line up Rat-thief' }).click();
    await ready.getByText('Rat-thief 2', { exact: true }).waitFor();
    await ready.getByText('Rat-thief 1', { exact: true }).waitFor();
    expect(await ready.getByText('Rat-thief', { exact: true }).count()).toBe(0);
    // The line-up says the Defense attacks must reach (review 9 found it left out).
    expect(await text(ready.locator('li').filter({ hasText: 'Rat-thief 1' }))).toContain('6 HP · Defense 4');

    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    const rows = enc.getByTestId('combatant');
    await expect.poll(() => rows.count()).toBe(4);
    const names = async () => (await rows.locator('.name').allTextContents()).map((x) => x.trim());
    // One creature type of two is split into two groups (004 asks for two to four): Bram, failing his first save, acts between them.
    await expect.poll(names).toEqual(['Alice', 'Rat-thief 1', 'Bram', 'Rat-thief 2']);
    await expect.poll(() => text(enc.getByTestId('now-acting'))).toContain('Now acting: Alice');
    expect(await text(enc.locator('li[aria-current=step] .name'))).toBe('Alice');
    // The phone lists the same order.
    await expect.poll(async () => (await ann.p.locator('.area-encounter [data-testid=combatant] .name').allTextContents()).map((x) => x.trim().replace(/you$/, ''))).toEqual(['Alice', 'Rat-thief 1', 'Bram', 'Rat-thief 2']);

    await enc.getByTestId('next-turn').click();
    await expect.poll(() => text(enc.getByTestId('now-acting'))).toContain('Now acting: Rat-thief 1');
    expect(await text(enc.locator('li[aria-current=step] .name'))).toBe('Rat-thief 1');
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Rat-thief 1: actions');
    const attack = await openAction(gm.p, 'Basic Attack');
    expect(await attack.getByLabel('Modifier').inputValue()).toBe('1');
    expect(await attack.getByLabel(/^Damage on a hit/).inputValue()).toBe('1d4');
    await attack.getByLabel('Target').selectOption({ label: 'Alice (Defense 3)' });
    const line = await roll(attack, 'Roll: Basic Attack');
    expect(line).toMatch(/Rat-thief 1's Basic Attack on Alice: d10 \d+( \(critical (success|failure: a 10, coin lost)\))? \+1 = Score \d+ vs Defense 3 \((hit, 1d4 \[[1-4]\] = [1-4] damage|miss)\)/);
    await expect.poll(async () => (await ann.p.getByTestId('log').textContent()) ?? '').toMatch(/Rat-thief 1's Basic Attack on Alice: d10 /);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  }, 240_000);
});
