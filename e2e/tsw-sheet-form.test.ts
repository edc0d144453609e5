// Review 7's 36th Way sheet form, in real Chromium by clicking (ADR 55): Kira's
// Cleave saved with frequency "recharge 11+" reopens on "recharge 11+" (it
// read "(default)" and the next save was refused with a schema path); the GM
// changes only AC and saves: accepted, the ability unchanged; a bad value is
// named by the ability's name in words; the Band picker on a row opens on
// the creature's own band.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import type { TableView } from '@tablekeeper/protocol';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-sheet-form');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const sheetIn = (view: TableView, id: string): Record<string, unknown> | undefined => (view.world.ext['36th-way'] as { sheets?: Record<string, Record<string, unknown>> } | undefined)?.sheets?.[id];
/** A field of the generated form by its label's start ("AC" is "AC (optional, 0 or more)"). */
const box = (form: Locator, label: string) => form.getByLabel(new RegExp(`^${label} \\(optional[,)]`));

describe('36th Way: the sheet form reads back what was saved (ADR 55)', () => {
  it("Cleave's recharge 11+ and power cost come back; saving a new AC keeps them; a bad Sustain is named as Cleave's; the Band picker opens on the Orc's band", async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const kira = n.idOf('Kira');
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: kira },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'slow' },
      ],
    });
    await n.gmSock.command({
      type: '36th-way.sheet.set',
      sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: kira, level: 2, ac: 17, pd: 13, md: 12, maxHp: 30, usesEscalation: false, abilities: [{ name: 'Cleave', frequency: 'recharge 11+', action: 'standard', power: { amount: 2, resource: 'ki' }, attack: { reach: 'engaged', hit: { count: 2, sides: 8 } } }] },
    });
    const before = sheetIn(n.gmSock.view(), 'kira')!;
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);

    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').click();
    await expect.poll(() => editor.getByLabel('Sheet of').inputValue()).toBe('kira');
    const form = editor.getByTestId('schema-form');
    const cleave = form.getByRole('group', { name: 'Ability 1', exact: true });
    // What was saved is what the form shows: the recharge, the power cost, the reach, the flag set to "no".
    await expect.poll(() => box(cleave, 'Frequency').inputValue()).toBe('recharge 11+');
    expect(await box(cleave, 'Frequency').locator('option:checked').textContent()).toBe('recharge 11+');
    expect(await box(cleave, 'Name').inputValue()).toBe('Cleave');
    expect(await box(cleave.getByRole('group', { name: /^Power/ }), 'Resource').inputValue()).toBe('ki');
    expect(await box(form, 'Uses the escalation die').inputValue()).toBe('no');
    expect(await box(form, 'AC').inputValue()).toBe('17');

    // Only AC changes; the save is accepted and Cleave is stored as before.
    await box(form, 'AC').fill('18');
    await form.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => editor.getByTestId('sheet-saved').textContent()).toBe("Saved Kira's sheet.");
    await expect.poll(() => sheetIn(n.gmSock.view(), 'kira')?.['ac']).toBe(18);
    expect({ ...sheetIn(n.gmSock.view(), 'kira'), ac: 17 }).toEqual(before);

    // A Sustain below 3 is refused before sending, by the ability's name, in words.
    await box(cleave, 'Sustain').fill('2');
    await form.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('Sustain in Cleave must be from 3 to 18.');
    // The last save's "Saved" does not stand under the new error (review 9).
    expect(await editor.getByTestId('sheet-saved').textContent()).toBe('');
    // Review 9 read "power › amount is required": a power cost without its amount is one sentence in words.
    await box(cleave, 'Sustain').fill('');
    await cleave.getByRole('group', { name: /^Power/ }).getByLabel(/^Amount/).fill('');
    await form.getByRole('button', { name: 'Save sheet' }).click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toBe('Amount of Power in Cleave is required.');

    // The Orc's row: the Band picker opens on its band (slow), not the list's first.
    const orcRow = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: 'Orc' });
    await orcRow.getByText('Adjust Orc').click();
    const place = orcRow.getByRole('form', { name: 'Move Orc in the turn order' });
    await expect.poll(() => place.getByLabel('Band').inputValue()).toBe('slow');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
