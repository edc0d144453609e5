// The GM's bestiary in Chromium (issue 20): a stat block made by the form the
// ruleset's schema generates (no JSON typed), edited, the starters added,
// "Goblin" x6 lined up from it, the line-up saved as a template, the fight
// started, two more goblins added mid-fight, the template used for the next
// fight, the bestiary exported and imported (a bad file refused with its
// entry named). A phone never receives the bestiary or a hidden foe, and
// axe-core finds no serious or critical violation on the panel.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startE2e } from './harness.ts';
import { recordFrames, watchErrors } from './web.ts';
import { axeViolations } from './session.ts';

const SECRET_NOTES = 'CANARY-Qz9 ambushes from the well';
const HIDDEN = 'CANARY-Qz9-lurker';
const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('the bestiary, by clicking', () => {
  it('stat blocks by form, groups from them, a template, export and import; phones never see it', async () => {
    const e2e = await startE2e('bestiary');
    const contexts: BrowserContext[] = [];
    try {
      const gmCtx = await e2e.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
      contexts.push(gmCtx);
      const gm = await gmCtx.newPage();
      const gmErrors = watchErrors(gm);
      await gm.goto(e2e.server.url + '/');
      await gm.getByLabel('Table name').fill('Bestiary night');
      await gm.getByLabel('Rules').selectOption('osr');
      await gm.getByRole('button', { name: 'Create table' }).click();
      await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();

      // A player with a character, and her phone.
      const invite = gm.locator('.area-invite');
      await invite.getByLabel('Player name').fill('Alice');
      await invite.getByRole('button', { name: 'Add player seat' }).click();
      await invite.getByLabel('Character name for Alice').fill('Kira');
      await invite.getByLabel('Hit points').last().fill('12');
      await invite.getByRole('button', { name: 'Add character' }).last().click();
      await invite.getByText('Kira', { exact: true }).waitFor();
      const link = await invite.getByTestId('seat-link').last().inputValue();
      const phoneCtx = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      contexts.push(phoneCtx);
      const phone: Page = await phoneCtx.newPage();
      const frames = recordFrames(phone);
      const phoneErrors = watchErrors(phone);
      await phone.goto(link);
      await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();

      // --- a stat block from the form: the OSR block's own fields, with their limits
      const best = gm.getByTestId('bestiary');
      await best.getByText('New stat block').click();
      const form = best.getByTestId('bestiary-new');
      await form.getByLabel('Name', { exact: true }).fill('Goblin');
      await form.getByLabel('notes (optional)').fill(SECRET_NOTES);
      await form.getByLabel(/^HP/).fill('0');
      await form.getByRole('button', { name: 'Save stat block' }).click();
      // Out of range is named in place before anything is sent.
      await expect.poll(() => text(form.getByTestId('schema-form-errors'))).toMatch(/HP of Stat block must be from 1 to 10000\./);
      await form.getByLabel(/^HP/).fill('7');
      await form.getByLabel(/^DEX/).fill('14');
      await form.getByLabel(/^AC/).fill('13');
      await form.getByLabel(/^Damage/).fill('1d6');
      await form.getByRole('button', { name: 'Save stat block' }).click();
      const entries = best.getByTestId('bestiary-entry');
      await expect.poll(() => entries.count()).toBe(1);
      await expect.poll(() => text(entries.first())).toContain('HP 7 · AC 13 · DEX 14 · Damage 1d6');

      // Edit it: the form opens with the saved numbers.
      await best.getByRole('button', { name: 'Edit Goblin' }).click();
      const hp = entries.first().getByLabel(/^HP/);
      expect(await hp.inputValue()).toBe('7');
      await hp.fill('8');
      await entries.first().getByRole('button', { name: 'Save Goblin' }).click();
      await expect.poll(() => text(entries.first())).toContain('HP 8');

      // The starter from text 001, and a hidden lurker.
      await best.getByRole('button', { name: /Add the starter foes/ }).click();
      await expect.poll(() => entries.count()).toBe(2);
      await best.getByText('New stat block').click();
      await best.getByText('New stat block').click();
      await form.getByLabel('Name', { exact: true }).fill(HIDDEN);
      await form.getByLabel(/^HP/).fill('20');
      await form.getByRole('button', { name: 'Save stat block' }).click();
      await expect.poll(() => entries.count()).toBe(3);

      // --- Goblin x6 and the hidden lurker lined up from the bestiary
      const enc = gm.locator('.area-encounter');
      const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
      // A PC who joins the table while the builder is open is lined up on their own (review 10).
      await ready.getByText('Kira', { exact: true }).waitFor();
      const goblin = entries.filter({ hasText: 'Goblin' });
      await goblin.getByLabel('How many').fill('6');
      await goblin.getByRole('button', { name: 'Line up Goblin' }).click();
      await ready.getByText('Goblin 6', { exact: true }).waitFor();
      expect(await text(ready)).toContain('8 HP');
      const lurker = entries.filter({ hasText: HIDDEN });
      await lurker.getByLabel('hidden').check();
      await lurker.getByRole('button', { name: `Line up ${HIDDEN}` }).click();
      await ready.getByText(HIDDEN, { exact: true }).waitFor();

      // Saved as a template: the party, six goblins and the lurker in three lines.
      await best.getByLabel('Template name').fill('Well ambush');
      await best.getByRole('button', { name: 'Save the line-up' }).click();
      await expect.poll(() => text(best.getByTestId('template-list'))).toContain(`Well ambush Kira, Goblin ×6, ${HIDDEN}`);

      await enc.getByRole('button', { name: 'Roll initiative' }).click();
      await expect.poll(() => enc.getByTestId('combatant').count()).toBe(8);
      await expect.poll(() => phone.locator('.area-encounter [data-testid=combatant]').count()).toBe(7);

      // Two more mid-fight go on counting.
      await goblin.getByLabel('How many').fill('2');
      await goblin.getByRole('button', { name: 'Add Goblin to the fight' }).click();
      await expect.poll(() => enc.getByTestId('combatant').count()).toBe(10);
      await enc.getByText('Goblin 8', { exact: true }).waitFor();
      await expect.poll(() => phone.locator('.area-encounter [data-testid=combatant]').count()).toBe(9);

      // --- accessibility of the screen with the bestiary open, mid-fight
      expect(await axeViolations(gm)).toEqual([]);

      // --- the next fight from the template
      await enc.getByRole('button', { name: 'End encounter' }).click();
      await best.getByRole('button', { name: 'Use Well ambush' }).click();
      await ready.getByText('Goblin 6', { exact: true }).waitFor();
      expect(await ready.getByRole('listitem').count()).toBe(8);
      await enc.getByRole('button', { name: 'Roll initiative' }).click();
      await expect.poll(() => enc.getByTestId('combatant').count()).toBe(8);

      // --- export, then import the file back (every stat block again), and a bad file
      const [download] = await Promise.all([gm.waitForEvent('download'), best.getByTestId('bestiary-export').click()]);
      const file = readFileSync((await download.path())!, 'utf8');
      expect(JSON.parse(file)).toMatchObject({ format: 'tablekeeper-bestiary', rulesetId: 'osr' });
      await best.getByLabel('Import a bestiary file').setInputFiles({ name: 'bestiary.json', mimeType: 'application/json', buffer: Buffer.from(file) });
      await expect.poll(() => entries.count()).toBe(6);
      const broken = JSON.parse(file) as { entries: { name: string; block: Record<string, unknown> }[] };
      broken.entries[1]!.block['hp'] = 99999;
      await best.getByLabel('Import a bestiary file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
      await expect.poll(() => text(best.getByTestId('bestiary-note'))).toMatch(new RegExp(`^Stat block 2 \\(${broken.entries[1]!.name}\\), hp: `));
      await best.getByLabel('Import a bestiary file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('goblins everywhere') });
      await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('The file is not a bestiary file: it is not JSON text.');
      expect(await entries.count()).toBe(6);

      // --- the phone: no bestiary, no notes, no template, no hidden foe, ever
      await expect.poll(() => phone.locator('.area-encounter [data-testid=combatant]').count()).toBe(7);
      expect(await phone.locator('[data-testid=bestiary]').count()).toBe(0);
      const seen = frames.join('\n') + (await phone.content());
      for (const secret of ['CANARY', 'Well ambush', 'bestiary', 'Ordinary foe']) expect(seen).not.toContain(secret);
      expect(gmErrors).toEqual([]);
      expect(phoneErrors).toEqual([]);
    } finally {
      await e2e.close(contexts);
    }
  }, 240_000);
});
