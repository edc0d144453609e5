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
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe('The file holds a character for Teams; this table plays The 36th Way.');
    expect(Object.keys(world().characters)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('asks before importing a name already at the table (replace / add as "Kira 2" / cancel), and lists each character once, grouped', async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Twins', rulesetId: 'osr' });
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { hp: 8, maxHp: 8, dex: 10 } });
    const kira = Object.keys(sock.view().world.characters)[0]!;
    // A past fight's goblins (one fell) and this fight's Goblin 1: the export list must tell them apart.
    await sock.command({ type: 'character.add', name: 'Goblin 1', kind: 'npc', stats: { dex: 10, hp: 0, maxHp: 5 } });
    await sock.command({ type: 'character.add', name: 'Goblin 2', kind: 'npc', stats: { dex: 10, hp: 4, maxHp: 5 } });
    await sock.command({ type: 'character.add', name: 'Goblin 1', kind: 'npc', stats: { dex: 12, hp: 5, maxHp: 5 } });
    const goblin = Object.values(sock.view().world.characters).filter((c) => c.name === 'Goblin 1').at(-1)!.id;
    await sock.command({ type: 'encounter.start', combatants: [{ name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 10 } }, { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: goblin, stats: { dex: 12, hp: 5, maxHp: 5 } }] });
    const ctx = await e2e!.browser.newContext({ viewport: { width: 1400, height: 900 } });
    contexts.push(ctx);
    const gm = await ctx.newPage();
    const errors = watchErrors(gm);
    await gm.goto(made.links.gm);
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    const panel = gm.getByTestId('party-files');
    const picker = panel.getByLabel('Character', { exact: true });
    const groups = async (): Promise<[string, string[]][]> => {
      const out: [string, string[]][] = [];
      for (const g of await picker.locator('optgroup').all()) out.push([(await g.getAttribute('label')) ?? '', await g.locator('option').allTextContents()]);
      return out;
    };
    await expect.poll(groups).toEqual([
      ['Party', ['Kira']],
      ['Foes in this fight', ['Goblin 1']],
      ['Foes of past fights', ['Goblin 2']],
    ]);

    const file = JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'osr', character: { name: 'Kira', kind: 'pc', stats: { hp: 9, maxHp: 9, dex: 16 } } });
    const importIt = () => panel.getByLabel('Import a character file').setInputFiles({ name: 'Kira.character.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    const names = () => Object.values(sock.view().world.characters).filter((c) => c.kind === 'pc').map((c) => c.name);
    const clash = panel.getByRole('group', { name: /Kira is already at the table/ });

    // Cancel: nothing added.
    await importIt();
    await clash.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe('Import cancelled: nothing was added.');
    expect(names()).toEqual(['Kira']);

    // Add as "Kira 2".
    await importIt();
    await clash.getByRole('button', { name: 'Add as "Kira 2"' }).click();
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe('Kira 2 joined the table. Seat them from the invite panel.');
    await expect.poll(names).toEqual(['Kira', 'Kira 2']);

    // Replace: the same Kira (same id) takes the file's numbers; nobody is added.
    await importIt();
    await clash.getByRole('button', { name: 'Replace Kira' }).click();
    await expect.poll(() => sock.view().world.characters[kira]!.stats).toMatchObject({ hp: 9, maxHp: 9, dex: 16 });
    expect(names()).toEqual(['Kira', 'Kira 2']);
    // The note follows the server's answer, which a test socket may see first: polled, not read once.
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe("Kira's sheet now holds the file's numbers; their seat and place stay as they were.");
    await expect.poll(async () => (await groups())[0]).toEqual(['Party', ['Kira', 'Kira 2']]);

    expect(await axeViolations(gm)).toEqual([]);
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
