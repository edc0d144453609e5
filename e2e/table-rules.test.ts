// The GM's Table rules panel in real Chromium (audit 13 item 2, ADR 99): on a
// 36th Way table in a fight, the GM opens Settings -> Table rules, switches
// "Dying mode" to the unconscious reading by clicking, the player's phone logs
// the change in words, and Kira at 0 HP is then knocked out instead of dying.
// A number out of its range is refused in words; "Back to the default" undoes
// the reading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { tswKiraAndOrc } from './fixtures.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('table-rules');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Table rules panel', () => {
  it('the GM switches The 36th Way\'s dying mode by clicking; the phone hears of it and Kira at 0 HP is knocked out', async () => {
    const n = await night(e2e!, '36th-way', 'Kira');
    await tswKiraAndOrc(n);
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const phone = await screen(e2e!.browser, contexts, n.links.seat, true);

    await gm.p.getByTestId('gm-settings').locator('summary', { hasText: /^Settings$/ }).click();
    await gm.p.getByTestId('gm-settings').locator('summary', { hasText: /^Table rules$/ }).click();
    const rules = gm.p.getByTestId('table-rules');
    await rules.waitFor();
    // Filed under the rule text's heading, with its words and where it comes from (no stored file names).
    const dying = rules.getByTestId('rule-36th-way-dyingMode');
    expect(await dying.locator('xpath=ancestor::fieldset[1]/legend').textContent()).toBe('Dying and Death');
    expect(await dying.textContent()).toContain('Source: the rule text, "Dying and Death".');
    expect(await dying.textContent()).toContain('(the default)');

    await dying.getByLabel('Dying mode').selectOption({ label: 'PCs at 0 HP fall unconscious instead of dying' });
    await expect.poll(() => phone.p.getByTestId('log').textContent()).toContain('Table rule changed: PCs at 0 HP fall unconscious instead of dying.');
    await expect.poll(() => dying.getByRole('button', { name: /^Back to the default/ }).count()).toBe(1);

    await n.gmSock.command({ type: '36th-way.damage', target: 'kira', amount: 40 });
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Kira took 40 damage: 30 -> -10 HP (unconscious).');
    await expect.poll(() => phone.p.getByTestId('log').textContent()).toContain('(unconscious)');

    // A number outside its range is refused in words before anything is sent.
    const target = rules.getByTestId('rule-36th-way-deathSaveTarget');
    await target.getByLabel('Death save target').fill('40');
    await target.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => target.getByRole('alert').textContent()).toBe('The table rule "Death save target" (36th-way.deathSaveTarget) must be a whole number from 3 to 18; 40 is not.');
    await target.getByLabel('Death save target').fill('15');
    await target.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => phone.p.getByTestId('log').textContent()).toContain('Table rule changed: Death save target is now 15 (was 13).');
    expect(await target.getByRole('alert').count()).toBe(0);

    await dying.getByRole('button', { name: 'Back to the default (PCs at 0 HP make death saves and can die)' }).click();
    await expect.poll(() => phone.p.getByTestId('log').textContent()).toContain('Table rule changed: PCs at 0 HP make death saves and can die.');
    await expect.poll(() => dying.textContent()).toContain('(the default)');
    await expect.poll(() => n.gmSock.view().world.settings['36th-way.dyingMode']).toBe('dying');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
