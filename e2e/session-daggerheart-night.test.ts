// A whole Daggerheart night from the browser, by clicking and typing only
// (issue 20, the fifth session-* play-through). Daggerheart rolls no
// initiative: a conflict starts from the Spotlight panel and the GM passes
// the spotlight (000 has no turn order; ADR 14, ADR 57).
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { dualityOutcomeDistribution } from '@tablekeeper/engine';
import { startE2e, type E2e } from './harness.ts';
import { pct } from '../packages/web/src/lib/daggerheart.ts';
import { watchErrors, horizontalOverflow } from './web.ts';
import { axeViolations } from './session.ts';

const HIDDEN = 'CANARY-Zr4-shade';
const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('a Daggerheart night, by clicking', () => {
  it('two phones, two conflicts, an Imp falls and is skipped; the hidden adversary never reaches a phone', async () => {
    const e2e: E2e = await startE2e('session-daggerheart');
    const contexts: BrowserContext[] = [];
    let gm: Page | undefined;
    try {
      const gmCtx = await e2e.browser.newContext({ viewport: { width: 1400, height: 900 } });
      contexts.push(gmCtx);
      gm = await gmCtx.newPage();
      const gmErrors = watchErrors(gm);

      // --- the landing page: a new Daggerheart table
      await gm.goto(e2e.server.url + '/');
      await gm.getByLabel('Table name').fill('Night of daggerheart');
      await gm.getByLabel('Rules').selectOption('daggerheart');
      await gm.getByRole('button', { name: 'Create table' }).click();
      await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();

      // --- two players, each with a PC and its HP slots
      const invite = gm.locator('.area-invite');
      const links: string[] = [];
      for (const [player, hero, hp] of [['Alice', 'Kira', '6'], ['Bob', 'Dorn', '7']] as const) {
        await invite.getByLabel('Player name').fill(player);
        await invite.getByRole('button', { name: 'Add player seat' }).click();
        await invite.getByLabel(`Character name for ${player}`).fill(hero);
        await invite.getByLabel('Hit points').last().fill(hp);
        await invite.getByRole('button', { name: 'Add character' }).last().click();
        await invite.getByText(hero, { exact: true }).waitFor();
        links.push(await invite.getByTestId('seat-link').last().inputValue());
      }
      const board = gm.getByTestId('daggerheart-gm');
      const party = board.getByTestId('party-trackers');
      for (const [hero, major, severe] of [['Kira', '5', '10'], ['Dorn', '6', '12']] as const) {
        const f = party.getByRole('form', { name: `Damage thresholds for ${hero}` });
        await f.getByLabel('Major').fill(major);
        await f.getByLabel('Severe').fill(severe);
        await f.getByRole('button', { name: `Set thresholds for ${hero}` }).click();
        await expect.poll(() => party.getByRole('form', { name: `Damage thresholds for ${hero}` }).count()).toBe(0);
      }
      const phones: { page: Page; frames: string[]; errors: string[] }[] = [];
      for (const link of links) {
        const { p: page, frames, errors } = await e2e.open(link, { width: 390, height: 844 }, { phone: true });
        phones.push({ page, frames, errors });
      }

      // --- the bestiary: an Imp stat block, "x3", and a hidden shade
      const best = gm.getByTestId('bestiary');
      for (const [name, hp, difficulty, major, severe, attack] of [['Imp', '2', '11', '4', '8', '1'], [HIDDEN, '3', '13', '6', '11', '2']] as const) {
        const block = best.getByTestId('bestiary-new');
        // The form stays open after a save, ready for the next block.
        if ((await block.getAttribute('open')) === null) await best.getByText('New stat block').click();
        await block.getByLabel('name', { exact: true }).fill(name);
        for (const [label, v] of [[/^hp/, hp], [/^difficulty/, difficulty], [/^major/, major], [/^severe/, severe], [/^attack/, attack]] as const) await block.getByLabel(label).fill(v);
        await block.getByRole('button', { name: 'Save stat block' }).click();
        await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe(`${name} is in the bestiary.`);
      }
      const impEntry = best.getByTestId('bestiary-entry').filter({ hasText: 'Imp' });
      await impEntry.getByLabel('How many').fill('3');
      await impEntry.getByRole('button', { name: 'Add Imp as adversaries' }).click();
      await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Imp 1 to Imp 3 joined the adversaries.');
      const shadeEntry = best.getByTestId('bestiary-entry').filter({ hasText: HIDDEN });
      await shadeEntry.getByLabel('hidden').check();
      await shadeEntry.getByRole('button', { name: `Add ${HIDDEN} as adversaries` }).click();
      await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe(`${HIDDEN} joined the adversaries, hidden.`);

      // --- the conflict starts from the Spotlight panel (no initiative in Daggerheart)
      const spot = board.getByTestId('spotlight');
      await spot.getByRole('button', { name: 'Start a conflict (6)' }).click();
      const enc = gm.locator('.area-encounter');
      await expect.poll(() => enc.getByTestId('combatant').count()).toBe(6);
      for (const p of phones) {
        await expect.poll(() => p.page.locator('.area-encounter [data-testid=combatant]').count()).toBe(5);
        expect(await p.page.content()).not.toContain(HIDDEN);
      }
      const gmLog = gm.getByTestId('log');
      const row = (name: string) => enc.getByTestId('combatant').filter({ has: gm.getByText(name, { exact: true }) });

      // --- spotlight 1: the GM passes it to Kira and asks for an Agility roll against Imp 2
      await spot.getByRole('button', { name: 'Spotlight Kira' }).click();
      await expect.poll(() => text(phones[0]!.page.getByTestId('your-turn'))).toBe('Your turn: Kira');
      expect(await phones[1]!.page.getByTestId('your-turn').count()).toBe(0);
      const ask = board.getByTestId('request-roll');
      await ask.getByLabel('PC', { exact: true }).selectOption({ label: 'Kira' });
      await ask.getByLabel('Trait', { exact: true }).selectOption('agility');
      // Picking the foe fills in its Difficulty, hidden from the players while foes show them no numbers.
      await ask.getByLabel('Against', { exact: true }).selectOption({ label: 'Imp 2 (Difficulty 11)' });
      expect(await ask.getByLabel('Difficulty', { exact: true }).inputValue()).toBe('11');
      expect(await ask.getByLabel('Hide the difficulty').isChecked()).toBe(true);
      await ask.getByRole('button', { name: 'Ask Kira' }).click();
      // The GM's exact chance: Kira's Agility is 0 (not on her sheet), so 2d12 against 11, a match always a success.
      const d = dualityOutcomeDistribution({ modifier: 0, difficulty: 11 });
      await expect.poll(() => text(ask.getByTestId('request-odds'))).toBe(`Success ${pct(d.critical + d.successWithHope + d.successWithFear)}`);
      // Alice's phone: the roll and its dice-only odds before she rolls; never the hidden 11.
      const card = phones[0]!.page.getByTestId('roll-request');
      await expect.poll(() => text(card.getByTestId('request-words'))).toBe('Agility roll (against Imp 2) · difficulty hidden');
      await expect.poll(() => text(card.getByTestId('roll-odds'))).toContain(`With Hope ${pct(d.successWithHope + d.failureWithHope)}`);
      await card.getByRole('button', { name: 'Roll Hope and Fear' }).click();
      await expect.poll(() => text(gmLog)).toMatch(/Kira's Agility roll \(against Imp 2\): Hope \d+, Fear \d+/);
      await expect.poll(() => phones[0]!.page.getByTestId('roll-request').count()).toBe(0);

      // --- the damage box on the tracker: 3 to Imp 2 is minor (one HP), healed by 1; 9 to Imp 1 is severe and fells it
      await row('Imp 2').getByLabel('Amount for Imp 2').fill('3');
      await row('Imp 2').getByRole('button', { name: 'Damage Imp 2' }).click();
      await expect.poll(() => text(gmLog)).toContain('Imp 2 takes 3 damage (minor: thresholds 4/8) and marks 1 HP.');
      await expect.poll(() => text(row('Imp 2'))).toContain('HP marked 1/2');
      await row('Imp 2').getByLabel('Amount for Imp 2').fill('1');
      await row('Imp 2').getByRole('button', { name: 'Heal Imp 2' }).click();
      await expect.poll(() => text(row('Imp 2'))).toContain('HP marked 0/2');
      await expect.poll(() => text(gmLog)).toContain('Imp 2 clears 1 HP');
      await row('Imp 1').getByLabel('Amount for Imp 1').fill('9');
      await row('Imp 1').getByLabel('Amount for Imp 1').press('Enter');
      await row('Imp 1').getByTestId('defeated').waitFor();
      // Phones read the hit and the fall, not the Imp's thresholds (no numbers shown).
      await expect.poll(() => text(phones[0]!.page.getByTestId('log'))).toContain('Imp 1 takes 9 damage and marks HP. Imp 1 is down.');
      // A fallen Imp is skipped: the spotlight can no longer go to it.
      await expect.poll(() => spot.getByRole('button', { name: 'Spotlight Imp 1' }).count()).toBe(0);

      // --- a condition until removed: Vulnerable on Imp 3, then removed by clicking
      await row('Imp 3').getByText('Adjust Imp 3').click();
      await row('Imp 3').getByLabel('Condition for Imp 3').selectOption('vulnerable');
      await row('Imp 3').getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => row('Imp 3').getByRole('list', { name: 'Conditions' }).count()).toBe(1);
      await expect.poll(() => phones[1]!.page.locator('.area-encounter').getByRole('list', { name: 'Conditions' }).count()).toBe(1);

      // --- spotlight 2: the GM gains a Fear, takes the spotlight with it for Imp 3, and attacks Kira (odds first)
      const fearNow = async () => Number((await text(board.getByTestId('fear-value'))).split('/')[0]);
      const fear0 = await fearNow();
      await board.getByTestId('fear-tracker').getByLabel('Reason').fill('the imps cackle');
      await board.getByTestId('fear-tracker').getByRole('button', { name: 'Gain Fear' }).click();
      await expect.poll(fearNow).toBe(fear0 + 1);
      await spot.getByRole('button', { name: 'Take with Fear: Imp 3' }).click();
      await expect.poll(() => text(spot.getByTestId('spotlight-holder'))).toBe('Imp 3');
      await expect.poll(fearNow).toBe(fear0);
      await gm.screenshot({ path: '/tmp/dh-2.png', fullPage: true });
      await phones[0]!.page.screenshot({ path: '/tmp/dh-2p.png', fullPage: true });
    } catch (e) {
      await gm?.screenshot({ path: '/tmp/dh-fail.png', fullPage: true });
      throw e;
    } finally {
      await e2e.close(contexts);
    }
  }, 600_000);
});
