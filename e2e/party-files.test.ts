// Characters as files in Chromium (issue 20): the GM exports a 36th Way hero
// with her sheet from one table and imports her at another; a file for other
// rules is refused in words. The file input and the export have names.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { startE2e, type E2e } from './harness.ts';
import { watchErrors } from './web.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | null = null;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('party-files');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('characters as files', () => {
  it('exports a hero with her sheet and imports her at another table', async () => {
    const first = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'First', rulesetId: '36th-way' });
    const sock = await e2e!.socket(first.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc' });
    const kira = Object.values(sock.view().world.characters).find((c) => c.name === 'Kira')!.id;
    await sock.command({ type: '36th-way.sheet.set', sheet: { id: kira, name: 'Kira', kind: 'pc', characterId: kira, level: 3, volition: 1, ac: 16, pd: 14, md: 12, maxHp: 34, abilities: [] } });
    const second = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Second', rulesetId: '36th-way' });
    const sock2 = await e2e!.socket(second.gmToken);

    const ctx = await e2e!.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    contexts.push(ctx);
    const gm = await ctx.newPage();
    const errors = watchErrors(gm);
    await gm.goto(first.links.gm);
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    const panel = gm.getByTestId('party-files');
    await panel.getByLabel('Character', { exact: true }).selectOption({ label: 'Kira' });
    const [download] = await Promise.all([gm.waitForEvent('download'), panel.getByRole('button', { name: 'Export character' }).click()]);
    expect(download.suggestedFilename()).toBe('Kira.character.json');
    const file = readFileSync((await download.path())!, 'utf8');
    expect(JSON.parse(file)).toMatchObject({ format: 'tablekeeper-character', rulesetId: '36th-way', character: { name: 'Kira' }, sheet: { level: 3, ac: 16 } });

    await gm.goto(second.links.gm);
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => gm.getByTestId('table-name').textContent()).toBe('Second');
    await panel.getByLabel('Import a character file').setInputFiles({ name: 'Kira.character.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe('Kira joined the table with their sheet. Seat them from the invite panel.');
    const world = () => sock2.view().world;
    await expect.poll(() => Object.values(world().characters).map((c) => c.name)).toEqual(['Kira']);
    const id = Object.keys(world().characters)[0]!;
    await expect.poll(() => (world().ext['36th-way'] as { sheets: { [k: string]: { ac?: number; characterId?: string } } }).sheets[id]).toMatchObject({ ac: 16, characterId: id });

    // A teams file at a 36th Way table is refused in words; nothing is added.
    const other = JSON.stringify({ ...JSON.parse(file), rulesetId: 'teams' });
    await panel.getByLabel('Import a character file').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from(other) });
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe('The file holds a teams character; this table plays 36th-way.');
    expect(Object.keys(world().characters)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("edits an OSR character's sheet by the form the ruleset's sheet command generates", async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Sheets', rulesetId: 'osr' });
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { str: 12, dex: 15, hp: 9, maxHp: 9 } });
    const kira = Object.keys(sock.view().world.characters)[0]!;
    const ctx = await e2e!.browser.newContext({ viewport: { width: 1400, height: 900 } });
    contexts.push(ctx);
    const gm = await ctx.newPage();
    const errors = watchErrors(gm);
    await gm.goto(made.links.gm);
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    const form = gm.getByTestId('sheet-form');
    await form.getByText('Edit a sheet').click();
    const str = form.getByLabel(/^Strength \(STR\)/);
    expect(await str.inputValue()).toBe('12');
    await str.fill('31');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('Strength (STR) must be from 0 to 30.');
    await str.fill('16');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => sock.view().world.characters[kira]!.stats['str']).toBe(16);
    expect(sock.view().world.characters[kira]!.stats).toMatchObject({ dex: 15, hp: 9 });
    expect(await axeViolations(gm)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
