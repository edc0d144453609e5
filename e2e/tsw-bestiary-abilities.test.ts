// The 36th Way's bestiary stat block takes Abilities as the PC sheet does (review 12 #13):
// entered by the form (frequency, recharge, sustain), saved, shown in the entry's line,
// exported in the bestiary file, and on each foe of a group ("Drake x2") once the fight
// starts, where the foe's own actions offer them with their cost in the entry's words.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-bestiary-abilities');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';
type Ability = { name: string; frequency: { kind: string; target?: number }; action: string; sustain: number | null };
type Sheets = { sheets: Record<string, { name: string; abilities: Record<string, Ability> }> };

describe('The 36th Way: abilities on a bestiary stat block', () => {
  it('Roar (recharge 11+) and Scale Ward (encounter, quick, sustain 11) by the form reach the file and both drakes, and Drake 1 offers them', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Vesk'), sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);

    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Drake');
    for (const [label, v] of [[/^HP/, '30'], [/^Level/, '3'], [/^AC/, '17']] as const) await form.getByLabel(label).fill(v);
    await form.getByLabel(/^Initiative band/).selectOption('fast');
    // Two abilities, as the PC sheet's list takes them.
    await form.getByRole('button', { name: 'add Abilities' }).click();
    await form.getByRole('button', { name: 'add Abilities' }).click();
    const roar = form.getByRole('group', { name: 'Ability 1', exact: true });
    await roar.getByLabel(/^Name/).fill('Roar');
    await roar.getByLabel(/^Frequency/).selectOption('recharge 11+');
    const ward = form.getByRole('group', { name: 'Ability 2', exact: true });
    await ward.getByLabel(/^Name/).fill('Scale Ward');
    await ward.getByLabel(/^Frequency/).selectOption('encounter');
    await ward.getByLabel(/^Action/).selectOption('quick');
    await ward.getByLabel(/^Sustain/).fill('11');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const entry = best.getByTestId('bestiary-entry').filter({ hasText: 'Drake' });
    await expect.poll(() => text(entry)).toContain('Abilities: Roar (recharge 11+), Scale Ward (encounter, sustain 11+)');

    // The bestiary file carries them as entered.
    const [download] = await Promise.all([gm.p.waitForEvent('download'), best.getByTestId('bestiary-export').click()]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { entries: { name: string; block: { abilities?: { name: string; frequency: string; sustain?: number }[] } }[] };
    const saved = file.entries.find((e) => e.name === 'Drake')!.block.abilities!;
    expect(saved.map((a) => [a.name, a.frequency, a.sustain ?? null])).toEqual([
      ['Roar', 'recharge 11+', null],
      ['Scale Ward', 'encounter', 11],
    ]);

    // Editing the entry opens on what was saved.
    await entry.getByRole('button', { name: 'Edit Drake' }).click();
    const edit = entry.getByRole('group', { name: 'Ability 2', exact: true });
    await expect.poll(() => edit.getByLabel(/^Sustain/).inputValue()).toBe('11');
    await entry.getByRole('button', { name: 'Edit Drake' }).click();

    // Two of them, lined up and started by Roll initiative: each drake's sheet has both abilities.
    await entry.getByLabel('How many').fill('2');
    await entry.getByRole('button', { name: 'Line up Drake' }).click();
    await gm.p.getByTestId('builder-rows').getByText('Drake 2', { exact: true }).waitFor();
    await gm.p.getByTestId('roll-initiative').click();
    const tsw = () => n.gmSock.view().world.ext['36th-way'] as unknown as Sheets;
    const drakes = () => Object.values(tsw().sheets).filter((s) => /^Drake \d$/.test(s.name));
    await expect.poll(() => drakes().length, { timeout: 15_000 }).toBe(2);
    for (const d of drakes()) {
      expect(d.abilities['roar']).toMatchObject({ name: 'Roar', frequency: { kind: 'recharge', target: 11 } });
      expect(d.abilities['scale-ward']).toMatchObject({ name: 'Scale Ward', frequency: { kind: 'encounter' }, action: 'quick', sustain: 11 });
    }

    // The fast drakes act before Vesk, the GM choosing which first (002 bands): Drake 1 offers both, each with its cost in the entry's words.
    await gm.p.getByRole('group', { name: /choose who acts next/ }).getByRole('button', { name: 'Drake 1', exact: true }).click();
    await expect.poll(() => nowActing(gm.p), { timeout: 15_000 }).toBe('Now acting: Drake 1');
    const panel = gm.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('button', { name: /^Roar \(/ }).textContent()).toContain('recharge 11+');
    expect(await panel.getByRole('button', { name: /^Scale Ward \(/ }).textContent()).toContain('1 quick action, encounter');
    expect(gm.errors).toEqual([]);
  });
});
