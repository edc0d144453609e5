// A whole Daggerheart night from the browser, by clicking and typing only
// (issue 20, the fifth session-* play-through; session.ts plays the other
// four, whose encounter builder and initiative Daggerheart has not). The GM
// creates the table on the landing page, invites two players with their PCs,
// sets thresholds and Evasion by form, makes stat blocks in the bestiary and
// adds "Imp" x3 and a hidden shade, starts a conflict from the Spotlight
// panel (000 has no initiative: ADR 14), and plays three spotlights: Kira
// rolls against Imp 2's hidden Difficulty from her phone, Imp 3 attacks Kira
// from its stat block, Dorn asks for a roll of his own; each with its exact
// odds before the dice. The damage box marks and clears HP slots by the
// thresholds, Imp 1 falls and leaves the spotlight choice, Vulnerable lasts
// until the GM removes it (ADR 57), the conflict ends, a short rest moves the
// clock and Tend to Wounds clears HP, a second conflict starts without the
// fallen Imp, undo and redo, and the GM comes back from the recent tables
// after a reload. The phones never receive the hidden adversary (page or
// frames); axe-core scans both screens.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { dualityOutcomeDistribution } from '@tablekeeper/engine';
import { startE2e, type E2e } from './harness.ts';
import { createTableByHand, invitePlayers } from './fixtures.ts';
import { artifactsDir } from './browser.ts';
import { pct } from '../packages/web/src/lib/daggerheart.ts';
import { percent } from '../packages/web/src/lib/attack.ts';
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
      await createTableByHand(gm, e2e.server.url, 'Night of daggerheart', 'daggerheart');

      // --- two players, each with a PC and its HP slots
      // The quick character's Evasion, which the invite asks for (ADR 79); the sheet form changes it below.
      // The damage thresholds too (review 12 #14): an invited PC can take damage at once, with no thresholds form left to fill.
      const links = await invitePlayers(gm, [
        ['Alice', 'Kira', '6', { Evasion: '10', 'Major threshold': '5', 'Severe threshold': '10' }],
        ['Bob', 'Dorn', '7', { Evasion: '8', 'Major threshold': '6', 'Severe threshold': '12' }],
      ]);
      const board = gm.getByTestId('daggerheart-gm');
      const party = board.getByTestId('party-trackers');
      await party.getByText('Dorn', { exact: true }).first().waitFor();
      for (const hero of ['Kira', 'Dorn']) expect(await party.getByRole('form', { name: `Damage thresholds for ${hero}` }).count()).toBe(0);
      // Evasion on each sheet (what an adversary's attack rolls against), through the sheet form.
      const sheet = gm.getByTestId('sheet-form');
      await sheet.locator('summary').click();
      for (const [hero, evasion] of [['Kira', '12'], ['Dorn', '9']] as const) {
        await sheet.getByLabel('Sheet of').selectOption({ label: hero });
        await sheet.getByLabel(/^Evasion/).fill(evasion);
        await sheet.getByRole('button', { name: `Save ${hero}'s sheet` }).click();
        await expect.poll(() => text(sheet.getByTestId('sheet-form-saved'))).toBe(`Saved ${hero}'s sheet.`);
      }
      const phones: { page: Page; frames: string[]; errors: string[] }[] = [];
      for (const link of links) {
        const { p: page, frames, errors } = await e2e.open(link, { width: 390, height: 844 }, { phone: true });
        phones.push({ page, frames, errors });
      }

      // --- the bestiary: an Imp stat block, "x3", and a hidden shade
      const best = gm.getByTestId('bestiary');
      for (const [name, hp, difficulty, major, severe, attack, damage] of [['Imp', '2', '11', '4', '8', '1', '1d4'], [HIDDEN, '3', '13', '6', '11', '2', '1d6']] as const) {
        const block = best.getByTestId('bestiary-new');
        // The form stays open after a save, ready for the next block.
        if ((await block.getAttribute('open')) === null) await best.getByText('New stat block').click();
        await block.getByLabel('Name', { exact: true }).fill(name);
        for (const [label, v] of [[/^HP/, hp], [/^Difficulty/, difficulty], [/^Major/, major], [/^Severe/, severe], [/^Attack/, attack], [/^Damage/, damage]] as const) await block.getByLabel(label).fill(v);
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
      // No rounds in a spotlight without action tokens: the badge says it is a conflict, not "Round 1" all night.
      await expect.poll(() => text(enc.getByTestId('round'))).toBe('Conflict');
      for (const p of phones) {
        await expect.poll(() => p.page.locator('.area-encounter [data-testid=combatant]').count()).toBe(5);
        // The phones wait on the GM, and are told so.
        await expect.poll(() => text(p.page.getByTestId('now-acting'))).toBe('Waiting for the GM: Pass the spotlight');
        expect(await p.page.content()).not.toContain(HIDDEN);
      }
      const gmLog = gm.getByTestId('log');
      const row = (name: string) => enc.getByTestId('combatant').filter({ has: gm!.getByText(name, { exact: true }) });

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
      // Sent from the keyboard (Enter in the Difficulty box), as session-daggerheart does: the board above re-renders as the phones join.
      expect(await ask.getByRole('button', { name: 'Ask Kira' }).isEnabled()).toBe(true);
      await ask.getByLabel('Difficulty', { exact: true }).press('Enter');
      // The GM's exact chance: Kira's Agility is 0 (not on her sheet), so 2d12 against 11, a match always a success.
      const d = dualityOutcomeDistribution({ modifier: 0, difficulty: 11 });
      await expect.poll(() => text(ask.getByTestId('request-odds'))).toBe(`Success ${pct(d.critical + d.successWithHope + d.successWithFear)}`);
      // Alice's phone: the roll and its dice-only odds before she rolls; never the hidden 11.
      const card = phones[0]!.page.getByTestId('roll-request');
      await expect.poll(() => text(card.getByTestId('request-words'))).toBe('Agility roll (against Imp 2) · difficulty hidden');
      await expect.poll(() => text(card.getByTestId('roll-odds'))).toContain(`With Hope ${pct(d.successWithHope + d.failureWithHope)}`);
      await card.getByRole('button', { name: 'Roll Hope and Fear' }).click();
      // The GM's log names the hidden difficulty the roll was against; Alice's never does.
      await expect.poll(() => text(gmLog)).toMatch(/Kira's Agility roll \(against Imp 2\): Hope \d+ \+ Fear \d+ = \d+ vs 11 \(hidden\): /);
      await expect.poll(() => text(phones[0]!.page.getByTestId('log'))).toMatch(/Kira's Agility roll \(against Imp 2\): Hope \d+ \+ Fear \d+ = \d+: /);
      expect(await text(phones[0]!.page.getByTestId('log'))).not.toContain('vs 11');
      await expect.poll(() => phones[0]!.page.getByTestId('roll-request').count()).toBe(0);

      // A roll with Fear swung the spotlight to the GM; with Hope Kira keeps it and the GM ends her turn by the tracker's button.
      // Either way the GM is choosing who is next while the damage below lands.
      if ((await text(enc.getByTestId('now-acting'))).startsWith('Now acting')) await enc.getByRole('button', { name: "End Kira's turn" }).click();
      await expect.poll(() => text(enc.getByTestId('now-acting'))).toBe('Waiting: Pass the spotlight');

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
      await expect.poll(() => text(phones[0]!.page.getByTestId('log'))).toContain('Imp 1 takes 9 damage and marks HP. Imp 1 is defeated.');
      // A fallen Imp is skipped: the spotlight can no longer go to it.
      await expect.poll(() => spot.getByRole('button', { name: 'Spotlight Imp 1' }).count()).toBe(0);
      expect(await text(spot.getByTestId('spotlight-down'))).toBe('Imp 1 down');
      // The hidden adversary is marked so on the GM's spotlight list.
      expect(await text(spot.getByRole('listitem').filter({ hasText: HIDDEN }).locator('.badge'))).toBe('hidden');
      // The tracker's choice of who is next, pending while it fell, is offered afresh without it.
      const choose = enc.getByRole('group', { name: 'Pass the spotlight' });
      await expect.poll(() => choose.getByRole('button').allTextContents()).toEqual(['Kira', 'Dorn', 'Imp 2', 'Imp 3', HIDDEN]);

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
      // The Imp attacks Kira from its stat block, with the exact odds first: d20 + 1 against Evasion 12, a natural 20 always hits.
      const actions = enc.getByTestId('actions-panel');
      await actions.getByRole('button', { name: /^Attack \(/ }).click();
      const attack = actions.getByTestId('action-form');
      await attack.getByLabel('Target').selectOption({ label: 'Kira (Evasion 12)' });
      const faces = Array.from({ length: 20 }, (_, i) => i + 1);
      const hits = faces.filter((f) => f + 1 >= 12 || f === 20).length;
      await expect.poll(() => text(attack.getByTestId('action-odds').locator('strong'))).toBe(`${percent(hits / 20)} to hit · ${percent(1 / 20)} critical`);
      await attack.getByRole('button', { name: 'Roll: Attack' }).click();
      await expect.poll(() => attack.getByTestId('action-result').count()).toBe(1);
      await expect.poll(() => text(phones[0]!.page.getByTestId('log'))).toMatch(/Imp 3 attacked Kira: d20 \d+ vs Evasion 12, a (critical hit|hit|miss)/);

      // --- spotlight 3: Dorn asks for a roll of his own from the phone; the GM sets a shown difficulty; Bob sees the exact odds
      await spot.getByRole('button', { name: 'Spotlight Dorn' }).click();
      const bob = phones[1]!.page;
      await expect.poll(() => text(bob.getByTestId('your-turn'))).toBe('Your turn: Dorn');
      const bobActions = bob.getByTestId('actions-panel');
      await bobActions.getByRole('button', { name: /^Action roll \(/ }).click();
      const own = bobActions.getByTestId('action-form');
      await own.getByLabel('Trait').selectOption({ label: 'Strength +0' });
      await own.getByLabel('What for (optional)').fill('shove Imp 2 off the ledge');
      await own.getByRole('button', { name: 'Action roll' }).click();
      const setter = ask.getByTestId('set-difficulty');
      await setter.getByLabel('Difficulty').fill('12');
      await setter.getByLabel('Difficulty').press('Enter');
      const cardB = bob.getByTestId('roll-request');
      const d12 = dualityOutcomeDistribution({ modifier: 0, difficulty: 12 });
      await expect.poll(() => text(cardB.getByTestId('request-words'))).toBe('Strength roll (shove Imp 2 off the ledge) vs 12');
      await expect.poll(() => text(cardB.getByTestId('roll-odds'))).toContain(`Success ${pct(d12.critical + d12.successWithHope + d12.successWithFear)}`);
      await cardB.getByRole('button', { name: 'Roll Hope and Fear' }).click();
      await expect.poll(() => text(gmLog)).toMatch(/Dorn's Strength roll \(shove Imp 2 off the ledge\): Hope \d+ \+ Fear \d+ = \d+ vs 12/);

      // --- the condition ends when the GM removes it (Daggerheart's last until removed, ADR 57)
      await row('Imp 3').getByRole('button', { name: 'Remove Vulnerable from Imp 3' }).click();
      await expect.poll(() => row('Imp 3').getByRole('list', { name: 'Conditions' }).count()).toBe(0);
      await expect.poll(() => bob.locator('.area-encounter').getByRole('list', { name: 'Conditions' }).count()).toBe(0);

      // --- mid-fight: Kira in the spotlight again; screenshots and accessibility
      const scrollY = () => gm!.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
      await gm.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await spot.getByRole('button', { name: 'Spotlight Kira' }).click();
      await expect.poll(() => text(phones[0]!.page.getByTestId('your-turn'))).toBe('Your turn: Kira');
      await expect.poll(() => text(enc.getByTestId('now-acting'))).toContain('Now acting: Kira');
      // The GM's spotlight pass leaves the page where it was (the tracker below does not pull it down).
      expect(await scrollY()).toBe(0);
      await gm.screenshot({ path: 'docs/screenshots/session-daggerheart-gm.png' });
      await phones[0]!.page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await phones[0]!.page.screenshot({ path: 'docs/screenshots/session-daggerheart-phone.png', fullPage: true });
      expect(await axeViolations(gm)).toEqual([]);
      expect(await axeViolations(phones[0]!.page)).toEqual([]);
      expect(await horizontalOverflow(phones[0]!.page)).toBe(0);

      // --- the conflict ends
      await spot.getByRole('button', { name: 'End the conflict' }).click();
      await expect.poll(() => text(enc.getByTestId('no-encounter'))).toBe('The encounter has ended.');
      await expect.poll(() => text(phones[0]!.page.getByTestId('no-encounter'))).toBe('The encounter has ended.');

      // --- a short rest: Kira, hurt by the GM's damage box (6 against her 5 / 10 is major: two HP), tends to her wounds; the clock moves
      const kiraHp = () => party.getByTestId('slots-Kira HP').getAttribute('aria-valuenow').then(Number);
      const hurt = await kiraHp();
      await party.getByLabel('Damage to Kira').fill('6');
      await party.getByRole('form', { name: 'Damage box for Kira' }).getByRole('button', { name: 'Damage' }).click();
      await expect.poll(kiraHp).toBe(Math.min(6, hurt + 2));
      const clock = gm.locator('.area-clock');
      const timeBefore = await text(clock.getByTestId('clock-time'));
      const rest = board.getByTestId('rest');
      await rest.getByLabel('Kira downtime move 1').selectOption('tendWounds');
      await rest.getByRole('button', { name: 'Short rest' }).click();
      await expect.poll(() => text(gmLog)).toContain('The party takes a short rest.');
      await expect.poll(() => text(clock.getByTestId('clock-time'))).not.toBe(timeBefore);
      // Tend to Wounds clears 1d4 + tier HP, at least two: Kira has fewer marked than before.
      await expect.poll(kiraHp).toBeLessThan(Math.min(6, hurt + 2));
      await expect.poll(() => text(phones[0]!.page.getByTestId('log'))).toContain('The party takes a short rest.');
      // Alice's phone shows Kira's HP as the GM's board does.
      const healed = String(await kiraHp());
      await expect.poll(() => phones[0]!.page.getByTestId('slots-Kira HP').getAttribute('aria-valuenow')).toBe(healed);

      // --- the second conflict: the last one's survivors come back only when ticked (review 10: the hidden shade came back unasked); Imp 1 is named as left out
      await expect.poll(() => text(spot.getByTestId('conflict-left-out'))).toBe('Defeated, left out: Imp 1');
      const join = spot.getByTestId('conflict-adversaries');
      await expect.poll(() => join.getByRole('checkbox', { checked: true }).count()).toBe(0);
      expect(await text(join)).toContain(`Bring ${HIDDEN} (hidden) · from the last conflict`);
      await spot.getByRole('button', { name: 'Start a conflict (2)' }).waitFor();
      for (const imp of ['Imp 2', 'Imp 3']) await join.getByLabel(`Bring ${imp}`).check();
      await spot.getByRole('button', { name: 'Start a conflict (4)' }).click();
      await expect.poll(() => text(enc.locator('h2'))).toContain('Encounter 2');
      await expect.poll(() => enc.getByTestId('combatant').count()).toBe(4);
      expect(await text(enc)).not.toContain(HIDDEN);
      await expect.poll(() => text(gmLog)).toContain('Encounter 2 begins.');
      await expect.poll(() => text(bob.getByTestId('log'))).toContain('Encounter 2 begins.');

      // --- undo takes the second start back (the first conflict's end shows), redo brings it again
      await gm.getByTestId('undo').click();
      await expect.poll(() => text(enc.getByTestId('no-encounter'))).toBe('The encounter has ended.');
      await gm.getByTestId('redo').click();
      await expect.poll(() => enc.getByTestId('combatant').count()).toBe(4);

      // --- reload, then back in from the recent-tables list on this device
      await gm.goto(e2e.server.url + '/');
      // The entry names its ruleset as players know it, not by its id (review 10: "daggerheart · GM").
      expect(await text(gm.getByTestId('recent-tables').getByRole('listitem').filter({ hasText: 'Night of daggerheart' }))).toContain('Daggerheart · GM');
      await gm.getByTestId('recent-tables').getByRole('link', { name: 'Night of daggerheart' }).click();
      await gm.locator('[data-testid=conn-status][data-status=open]').waitFor();
      await expect.poll(() => text(gm!.locator('.area-encounter h2'))).toContain('Encounter 2');

      // --- the phones never received the hidden adversary, in the page or on the wire
      for (const p of phones) {
        expect(await p.page.content()).not.toContain(HIDDEN);
        expect(p.frames.some((x) => x.includes(HIDDEN))).toBe(false);
        expect(p.errors).toEqual([]);
      }
      // The GM's screen had it all along.
      expect(await gm.content()).toContain(HIDDEN);
      expect(gmErrors).toEqual([]);
    } catch (e) {
      // What the GM saw when it failed, for the CI artifacts.
      await gm?.screenshot({ path: path.join(artifactsDir, 'session-daggerheart-failed.png'), fullPage: true }).catch(() => undefined);
      throw e;
    } finally {
      await e2e.close(contexts);
    }
  }, 600_000);
});
