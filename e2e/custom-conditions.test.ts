// The table's own conditions in real Chromium (issue 20, ADR 71), OSR: the GM
// saves "Marked by the Duke" (3 rounds) in the table's list; the Goblin's
// picker offers it with its description and 3 rounds ready, and it becomes a
// chip; a condition typed on Kira with "Save for this table" joins the list;
// Ann's phone offers both in "Ask the GM"; an edit renames one everywhere;
// removing one leaves the Goblin's chip; undo brings it back; a reload keeps it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { osrKiraAgainst } from './fixtures.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('custom-conditions');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const panel = (p: Page) => p.getByTestId('table-conditions');
const listed = (p: Page) => panel(p).getByRole('list', { name: "This table's conditions" }).locator('li strong').allTextContents();
const row = (p: Page, name: string) => p.locator('.area-encounter').getByTestId('combatant').filter({ hasText: name });
/** The labels of the phone's condition choices under "This table's conditions". */
const phoneChoices = (p: Page) => p.getByTestId('ask-gm').locator('optgroup[label="This table\'s conditions"] option').allTextContents();

describe("the table's own conditions", () => {
  it('save, pick with its usual duration, save from a typed one, offered on the phone, edit, remove, undo, reload', async () => {
    const { t, annSeat } = await osrKiraAgainst(e2e!, 'Duke night', { name: 'Goblin', stats: { dex: 8, hp: 5, maxHp: 5 } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, annSeat.link, true);

    // --- the GM saves one in the table's list; a blank name is refused in words first
    await panel(gm.p).locator('summary').click();
    const add = panel(gm.p).getByRole('form', { name: 'Save a condition for this table' });
    await add.getByLabel('Name', { exact: true }).fill('   ');
    await add.getByRole('button', { name: 'Save condition' }).click();
    await expect.poll(() => add.getByRole('alert').textContent()).toBe('Type a name for the condition (up to 40 characters).');
    await add.getByLabel('Name', { exact: true }).fill('Marked by the Duke');
    await add.getByLabel('What it means').fill('The Duke’s hounds can find you.');
    await add.getByLabel('Usually lasts').selectOption('rounds');
    await add.getByLabel('Rounds', { exact: true }).fill('3');
    await add.getByRole('button', { name: 'Save condition' }).click();
    await expect.poll(() => listed(gm.p)).toEqual(['Marked by the Duke']);
    expect(await panel(gm.p).textContent()).toContain('3 rounds');

    // --- the Goblin's picker offers it, with what it means and its 3 rounds ready
    await row(gm.p, 'Goblin').getByText('Adjust Goblin').click();
    const goblinForm = gm.p.getByRole('form', { name: 'Apply a condition to Goblin' });
    await goblinForm.getByLabel('Condition for Goblin').selectOption({ label: 'Marked by the Duke' });
    await expect.poll(() => goblinForm.getByTestId('condition-description').textContent()).toBe('The Duke’s hounds can find you.');
    expect(await goblinForm.getByLabel('Duration for Goblin').inputValue()).toBe('rounds');
    expect(await goblinForm.getByLabel('Rounds for Goblin').inputValue()).toBe('3');
    await goblinForm.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => row(gm.p, 'Goblin').getByRole('list', { name: 'Conditions' }).textContent()).toContain('Marked by the Duke');

    // --- a condition typed on Kira, kept with "Save for this table"
    await row(gm.p, 'Kira').getByText('Adjust Kira').click();
    const kiraForm = gm.p.getByRole('form', { name: 'Apply a condition to Kira' });
    await kiraForm.getByLabel('Condition for Kira').selectOption({ label: 'Other (type a name)' });
    await kiraForm.getByLabel('Name of the condition for Kira').fill('Hexed');
    await kiraForm.getByLabel('Duration for Kira').selectOption('indefinite');
    await kiraForm.getByLabel('Save for this table').check();
    await kiraForm.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => listed(gm.p)).toEqual(['Hexed', 'Marked by the Duke']);
    await expect.poll(() => ann.p.getByRole('list', { name: 'Your conditions' }).textContent()).toContain('Hexed');

    // --- Ann's phone offers both in "Ask the GM"
    await ann.p.getByTestId('ask-gm').getByLabel(/^For /).selectOption({ label: 'A condition' });
    await expect.poll(() => phoneChoices(ann.p)).toEqual(['Hexed', 'Marked by the Duke']);

    // --- an edit renames it everywhere (conditions already on Kira keep their name)
    await panel(gm.p).getByRole('button', { name: 'Edit Hexed' }).click();
    const edit = panel(gm.p).getByRole('form', { name: 'Edit Hexed' });
    await edit.getByLabel('Name', { exact: true }).fill('Hexed by the witch');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => listed(gm.p)).toEqual(['Hexed by the witch', 'Marked by the Duke']);
    await expect.poll(() => phoneChoices(ann.p)).toEqual(['Hexed by the witch', 'Marked by the Duke']);
    expect(await ann.p.getByRole('list', { name: 'Your conditions' }).textContent()).toContain('Hexed');

    // --- a second one of the same name is refused in words
    await add.getByLabel('Name', { exact: true }).fill('marked by the duke');
    await add.getByRole('button', { name: 'Save condition' }).click();
    await expect.poll(() => add.getByRole('alert').textContent()).toContain('already has a condition named "Marked by the Duke"');

    // --- removing one leaves the Goblin's chip; undo brings it back to the list
    await panel(gm.p).getByRole('button', { name: 'Remove Marked by the Duke' }).click();
    await expect.poll(() => listed(gm.p)).toEqual(['Hexed by the witch']);
    expect(await row(gm.p, 'Goblin').getByRole('list', { name: 'Conditions' }).textContent()).toContain('Marked by the Duke');
    await expect.poll(() => gm.p.getByTestId('undo').textContent()).toBe('↶ Undo: remove a saved condition');
    await gm.p.getByTestId('undo').click();
    await expect.poll(() => listed(gm.p)).toEqual(['Hexed by the witch', 'Marked by the Duke']);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('"Marked by the Duke" is now one of this table\'s conditions.');

    // --- a reload keeps the list (the server restores it from the table's events)
    await gm.p.reload();
    await gm.p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await panel(gm.p).locator('summary').click();
    await expect.poll(() => listed(gm.p)).toEqual(['Hexed by the witch', 'Marked by the Duke']);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
