// Scratch: a short OSR and teams night played by hand in Chromium (not committed).
import { describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2e } from './harness.ts';
import { watchErrors } from './web.ts';

const shot = (p: Page, name: string) => p.screenshot({ path: `/tmp/n2play/${name}.png`, fullPage: true });
const log: string[] = [];
const note = (s: string) => { log.push(s); console.log('NOTE', s); };

async function night(rulesetId: string, foeTeam: string | null) {
  const e2e = await startE2e(`play-${rulesetId}`);
  try {
    const gmCtx = await e2e.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const gm = await gmCtx.newPage();
    const errs = watchErrors(gm);
    await gm.goto(e2e.server.url + '/');
    await shot(gm, `${rulesetId}-00-landing`);
    await gm.getByLabel('Table name').fill(`Play ${rulesetId}`);
    await gm.getByLabel('Rules').selectOption(rulesetId);
    await gm.getByRole('button', { name: 'Create table' }).click();
    await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
    const invite = gm.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Alice');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel('Character name for Alice').fill('Kira');
    await invite.getByLabel('Hit points').last().fill('12');
    await invite.getByRole('button', { name: 'Add character' }).last().click();
    await invite.getByText('Kira', { exact: true }).waitFor();
    const link = await invite.getByTestId('seat-link').last().inputValue();
    const phoneCtx = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await phoneCtx.newPage();
    const perrs = watchErrors(phone);
    await phone.goto(link);
    await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await shot(gm, `${rulesetId}-01-gm-party`);
    await shot(phone, `${rulesetId}-01-phone`);
    const best = gm.getByTestId('bestiary');
    const starters = best.getByRole('button', { name: /^Add the starter foes/ });
    if (await starters.count() > 0) await starters.click();
    const entry = best.getByTestId('bestiary-entry').first();
    await entry.waitFor({ timeout: 5000 }).catch(() => note(`${rulesetId}: no starter stat block`));
    if (await entry.count() > 0) {
      await entry.getByLabel('How many').fill('2');
      await entry.getByRole('button', { name: /^Line up / }).click();
    }
    const enc = gm.locator('.area-encounter');
    const addParty = enc.getByRole('button', { name: 'Add the party' });
    if (await addParty.count() > 0) await addParty.click();
    await shot(gm, `${rulesetId}-02-builder`);
    if (foeTeam !== null) {
      await enc.getByTestId('roll-initiative').click();
      await gm.waitForTimeout(500);
      await shot(gm, `${rulesetId}-03-no-team`);
      await enc.getByLabel('Who starts the fight').selectOption(foeTeam);
    }
    await enc.getByTestId('roll-initiative').click();
    await enc.getByTestId('now-acting').waitFor({ timeout: 15000 });
    await gm.waitForTimeout(800);
    await shot(gm, `${rulesetId}-04-fight`);
    await shot(phone, `${rulesetId}-04-phone`);
    // an action by whoever acts
    const panel = gm.getByTestId('actions-panel');
    const attack = panel.getByRole('button', { name: /^Attack \(/ });
    if (await attack.count() > 0) {
      await attack.first().click();
      const form = panel.getByTestId('action-form');
      await form.waitFor();
      await gm.waitForTimeout(800);
      await shot(gm, `${rulesetId}-05-attack-form`);
      const roll = form.getByRole('button', { name: /^Roll/ });
      if (await roll.count() > 0 && await roll.isEnabled()) await roll.click();
      await gm.waitForTimeout(800);
      await shot(gm, `${rulesetId}-06-attack-result`);
    } else note(`${rulesetId}: no Attack for ${await enc.getByTestId('now-acting').textContent()}`);
    note(`${rulesetId} undo after attack: ${await gm.getByTestId('undo').textContent()}`);
    // damage box on the first foe row
    const box = gm.locator('input[data-damage-box]').last();
    await box.fill('3');
    await box.press('Enter');
    await gm.waitForTimeout(500);
    note(`${rulesetId} undo after damage: ${await gm.getByTestId('undo').textContent()}`);
    await gm.keyboard.press('Escape');
    await gm.locator('body').click({ position: { x: 5, y: 5 } });
    await gm.keyboard.press('n');
    await gm.waitForTimeout(600);
    note(`${rulesetId} undo after N: ${await gm.getByTestId('undo').textContent()} / prev title ${await gm.getByTestId('prev-turn').getAttribute('title')}`);
    await shot(gm, `${rulesetId}-07-after-n`);
    await shot(phone, `${rulesetId}-07-phone`);
    await gm.getByTestId('undo').click();
    await gm.waitForTimeout(500);
    note(`${rulesetId} redo: ${await gm.getByTestId('redo').textContent()}`);
    await enc.getByTestId('end-encounter').click();
    await gm.waitForTimeout(800);
    await shot(gm, `${rulesetId}-08-ended`);
    await shot(phone, `${rulesetId}-08-phone`);
    note(`${rulesetId} errors gm=${JSON.stringify(errs)} phone=${JSON.stringify(perrs)}`);
  } finally {
    await e2e.close([]);
  }
}

describe('play', () => {
  it('osr', async () => { await night('osr', null); }, 300_000);
  it('teams', async () => { await night('teams', 'Party'); }, 300_000);
});
