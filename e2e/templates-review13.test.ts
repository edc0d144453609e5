// Encounter templates, review 13 #9 and #10, in real Chromium. Daggerheart:
// "Save the line-up" before a conflict keeps the Spotlight panel's ticked
// adversaries (it answered "there is nobody to save"), and Use ticks them
// again. OSR: a template brings Kira back with her sheet's DEX as it is now,
// never an old number marked "typed here".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('templates-review13');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('encounter templates, review 13', () => {
  it('Daggerheart: saves the ticked line-up before a conflict, and Use ticks it again', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { evasion: 10 } });
    await n.gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Imp', count: 3, difficulty: 11, major: 4, severe: 8, hp: 3, attack: 1, damage: '1d6', visibility: 'visible' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const spot = gm.p.getByTestId('daggerheart-gm').getByTestId('spotlight');
    await spot.getByLabel('Bring Imp 3').uncheck();
    await expect.poll(() => text(spot.getByRole('button', { name: /^Start a conflict/ }))).toBe('Start a conflict (3)');

    const best = gm.p.getByTestId('bestiary');
    const note = best.getByTestId('bestiary-note');
    await best.getByLabel('Template name').fill('Imp pair');
    await best.getByRole('button', { name: 'Save the line-up' }).click();
    await expect.poll(() => text(note)).toBe('Template "Imp pair" saved.');
    await expect.poll(() => text(best.getByTestId('template-list'))).toContain('Imp pair Kira, Imp 1, Imp 2');

    // Tick Imp 3 back and untick Imp 1; Use puts the template's line-up back: Kira, Imp 1, Imp 2.
    await spot.getByLabel('Bring Imp 3').check();
    await spot.getByLabel('Bring Imp 1').uncheck();
    await best.getByRole('button', { name: 'Use Imp pair' }).click();
    await expect.poll(() => text(note)).toBe('Imp pair is lined up: press Start a conflict to start.');
    await expect.poll(() => spot.getByLabel('Bring Imp 1').isChecked()).toBe(true);
    expect(await spot.getByLabel('Bring Imp 2').isChecked()).toBe(true);
    expect(await spot.getByLabel('Bring Imp 3').isChecked()).toBe(false);
    await spot.getByRole('button', { name: 'Start a conflict (3)' }).click();
    await expect.poll(() => Object.values((n.gmSock.view().world.ext['encounter'] as { combatants: { [k: string]: { name: string } } }).combatants).map((c) => c.name).sort()).toEqual(['Imp 1', 'Imp 2', 'Kira']);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it("OSR: a template brings Kira back at her sheet's DEX (16), not the 10 the builder first drafted, and says nothing was typed", async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { dex: 10, hp: 8, maxHp: 8 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const rows = gm.p.getByTestId('builder-rows');
    await expect.poll(() => text(rows)).toContain('KiraPC · DEX 10');
    // The sheet moves to 16 while the builder is open (the GM's "Edit a sheet"): the builder follows it.
    await n.gmSock.command({ type: 'character.update', characterId: n.idOf('Kira'), stats: { dex: 16 } });
    await expect.poll(() => text(rows)).toContain('KiraPC · DEX 16');

    const best = gm.p.getByTestId('bestiary');
    await best.getByLabel('Template name').fill('Just Kira');
    await best.getByRole('button', { name: 'Save the line-up' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Template "Just Kira" saved.');
    const saved = (n.gmSock.view().world.ext['bestiary'] as { templates: { [k: string]: { lines: { init?: unknown }[] } } }).templates;
    expect(Object.values(saved)[0]!.lines[0]!.init).toBeUndefined();

    // Later the sheet says 17; Use reads it.
    await n.gmSock.command({ type: 'character.update', characterId: n.idOf('Kira'), stats: { dex: 17 } });
    await best.getByRole('button', { name: 'Use Just Kira' }).click();
    await expect.poll(() => text(rows)).toContain('KiraPC · DEX 17');
    expect(await text(rows)).not.toContain('typed here');
    expect(gm.errors).toEqual([]);
  });
});
