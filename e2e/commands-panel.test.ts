// The GM's "any command" panel in real Chromium (ADR 13): the catalogue comes
// from GET /api/rulesets/:id/commands, the form is generated from a command's
// JSON Schema, limits are caught in place, the server's rule errors show under
// the form, and a query's answer is shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterNamed, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('commands-panel');
});

afterAll(async () => {
  await e2e?.close();
});

describe('the any-command panel', () => {
  it('gives Hope through a generated form, shows a rule error, and answers a query', async () => {
    const made = await e2e!.table('daggerheart', 'Night');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Quill', kind: 'pc' });
    await gmSock.command({ type: 'countdown.create', name: 'Alarm', start: 4 });
    const quill = characterNamed(gmSock, 'Quill');

    const { p, errors } = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    // A new GM meets no raw command ids (review 7, ADR 57): the panel waits behind a developer toggle in Settings, off by default.
    const settings = p.getByTestId('gm-settings');
    await settings.waitFor();
    expect(await p.getByTestId('commands-panel').count()).toBe(0);
    expect(await p.locator('body').textContent()).not.toContain('daggerheart.gainHope');
    await settings.getByText('Settings').click();
    const toggle = settings.getByLabel(/Developer tools/);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    const panel = p.getByTestId('commands-panel');
    // Each choice reads in words first, from the catalogue's summary.
    await expect.poll(async () => (await panel.getByLabel('Command').locator('option').allTextContents()).includes('Give a PC Hope (daggerheart.gainHope)')).toBe(true);
    await panel.getByLabel('Find').fill('hope');
    await panel.getByLabel('Command').selectOption('daggerheart.gainHope');
    await expect.poll(() => panel.getByTestId('commands-summary').textContent()).toContain('Give a PC Hope. GM only.');

    // The id field is a picker of the table's characters; 13 is past the declared 1-12.
    await panel.locator('#cmd-characterId').selectOption(quill);
    await panel.locator('#cmd-amount').fill('13');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.getByTestId('schema-form-errors').textContent()).toContain('Amount must be from 1 to 12.');
    await panel.locator('#cmd-amount').fill('2');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => gmSock.view().world.characters[quill]!.stats['hope']).toBe(4);

    // A rule error from the server shows under the form: the GM has no Fear to spend yet.
    await panel.getByLabel('Find').fill('fear');
    await panel.getByLabel('Command').selectOption('daggerheart.spendFear');
    await panel.locator('#cmd-amount').fill('3');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.getByTestId('schema-form-server-error').textContent()).toContain('DH_NOT_ENOUGH_FEAR');

    // A query: the countdown's odds, its id picked from the table's countdowns.
    await panel.getByLabel('Find').fill('odds');
    await panel.getByLabel('Command').selectOption('countdown.odds');
    await panel.locator('#cmd-countdownId').selectOption({ label: 'Alarm' });
    await panel.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => panel.getByTestId('commands-answer').textContent()).toContain('"pTrigger"');
    expect(errors).toEqual([]);
  });
});
