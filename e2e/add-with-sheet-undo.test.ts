// One click that adds a character with its sheet is one change (ADR 73), in real Chromium:
// - the invite panel's "Add character" at a 36th Way table (the HP go on the ruleset's own sheet);
// - importing a character file with its sheet.
// Each is undone by one click on Undo, which takes back the character and the sheet together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { characterNamed, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('add-with-sheet-undo');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

type Sheets = { sheets?: { [id: string]: { maxHp?: number; hp?: number; ac?: number; characterId?: string } } };

describe('adding a character with a sheet is one Undo', () => {
  it("the 36th Way: the invite panel's Add character, then a character file", async () => {
    const t = await e2e!.table('36th-way', 'One step');
    const sock = await e2e!.socket(t.gmToken);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const sheets = () => (sock.view().world.ext['36th-way'] as Sheets | undefined)?.sheets ?? {};
    const undo = gm.p.getByTestId('undo');

    // --- The invite panel: a seat for Alice, then Kira with 24 HP.
    const invite = gm.p.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Alice');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel('Character name for Alice').fill('Kira');
    await invite.getByLabel('Hit points').last().fill('24');
    await invite.getByRole('button', { name: 'Add character' }).last().click();
    await invite.getByText('Kira', { exact: true }).waitFor();
    await expect.poll(() => sheets()[characterNamed(sock, 'Kira')]).toMatchObject({ maxHp: 24, hp: 24 });
    await expect.poll(() => undo.textContent()).toBe('↶ Undo: adding Kira');
    await undo.click();
    // One click took back both: no Kira, no sheet, and the next Undo is the seat's.
    await expect.poll(() => Object.keys(sock.view().world.characters).length).toBe(0);
    expect(Object.keys(sheets())).toEqual([]);
    await expect.poll(() => undo.textContent()).not.toBe('↶ Undo: adding Kira');

    // --- A character file with its sheet (made as Export character makes one).
    const file = JSON.stringify({
      format: 'tablekeeper-character',
      version: 1,
      rulesetId: '36th-way',
      character: { name: 'Dorn', kind: 'pc', stats: {} },
      sheet: { name: 'Dorn', kind: 'pc', level: 2, volition: 0, ac: 17, pd: 12, md: 11, maxHp: 30, abilities: [] },
    });
    const panel = gm.p.getByTestId('party-files');
    await panel.getByLabel('Import a character file').setInputFiles({ name: 'Dorn.character.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await expect.poll(() => panel.getByTestId('party-files-note').textContent()).toBe('Dorn joined the table with their sheet. Seat them from the invite panel.');
    const dorn = characterNamed(sock, 'Dorn');
    await expect.poll(() => sheets()[dorn]).toMatchObject({ ac: 17, maxHp: 30, characterId: dorn });
    await expect.poll(() => undo.textContent()).toBe('↶ Undo: adding Dorn');
    await undo.click();
    await expect.poll(() => Object.keys(sock.view().world.characters).length).toBe(0);
    expect(Object.keys(sheets())).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
