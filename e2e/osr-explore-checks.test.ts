// Issue 20 (review 13): OSR's exploring checks with no fight running, by clicking. Ann's phone hides Kira from
// "Skill checks" with the hide's own odds (the dim light's advantage), the log says so on both screens; the GM
// listens for Kira with its odds and rules her spotted from the same panel. In a fight, the GM's tracker row
// shows "in stealth" with how it ends, and Spotted sits on the row itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-explore-checks');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const logOf = (p: Page) => p.getByTestId('log').textContent();
/** Opens the Skill checks panel and picks who and which check; returns the panel. */
async function checkForm(p: Page, who: string | null, which: string): Promise<Locator> {
  const panel = p.getByTestId('skill-checks');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  if (who !== null) await panel.getByLabel('Who makes it').selectOption({ label: who });
  await panel.getByLabel('Which check').selectOption({ label: which });
  await panel.getByTestId('action-form').waitFor();
  return panel.getByTestId('action-form');
}

describe('OSR: Hide, Listen and Spotted with no fight running; "in stealth" on the tracker row', () => {
  it('the phone hides Kira with the odds of the dim light, the GM listens and rules her spotted, then the fight row shows the badge', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    // DEX 14 (+2), WIS 12 (+1).
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { hp: 8, maxHp: 8, dex: 14, wis: 12, ac: 13 } });
    await n.gmSock.command({ type: 'character.add', name: 'Dorn', kind: 'pc', stats: { hp: 10, maxHp: 10, dex: 10, ac: 15 } });
    await n.gmSock.command({ type: 'osr.setLight', level: 'dim' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    expect(await gm.p.getByTestId('combatant').count()).toBe(0);

    // Dim light favours stealth: DEX +2 against DC 11 on the better of two d20s, 336 of 400 pairs.
    const hide = await checkForm(ann.p, null, 'Hide');
    await oddsOf(hide, '84% to succeed');
    // The phone lists only Kira, the one Ann plays.
    expect(await ann.p.getByTestId('skill-checks').getByLabel('Who makes it').locator('option').allTextContents()).toEqual(['Kira']);
    await hide.getByLabel('Difficulty (DC)').fill('1');
    await oddsOf(hide, '100% to succeed');
    expect(await roll(hide, 'Roll: Hide')).toContain('Kira');
    await expect.poll(() => logOf(ann.p)).toContain('Kira is in stealth.');
    await expect.poll(() => logOf(gm.p)).toContain('Kira is in stealth.');
    expect(await axeViolations(ann.p)).toEqual([]);

    // The GM: Kira's Hide is now refused in words; Listen (WIS +1 vs DC 10, advantage: 1 - (8/20)² = 84%); Spotted.
    const again = await checkForm(gm.p, 'Kira', 'Hide (not now)');
    await expect.poll(() => again.textContent()).toContain('Not now: Kira is already in stealth');
    const listen = await checkForm(gm.p, 'Kira', 'Listen');
    await oddsOf(listen, '84% to succeed');
    await roll(listen, 'Roll: Listen');
    await expect.poll(() => logOf(ann.p)).toMatch(/Kira (passed|failed) a listening check/);
    const spotted = await checkForm(gm.p, 'Kira', "Spotted: end Kira's stealth");
    await spotted.getByRole('button', { name: "Spotted: end Kira's stealth" }).click();
    await expect.poll(() => logOf(ann.p)).toContain('Kira is no longer hidden (spotted).');

    // A fight: Kira hides on her own turn (the turn's action) and the GM's row says so, with Spotted on it.
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { id: 'dorn', name: 'Dorn', kind: 'pc', side: 'party', characterId: n.idOf('Dorn'), stats: { dex: 10 } },
      ],
    });
    const turn = await openAction(ann.p, 'Hide');
    await turn.getByLabel('Difficulty (DC)').fill('1');
    await oddsOf(turn, '100% to succeed');
    await roll(turn, 'Roll: Hide');
    const kiraRow = gm.p.getByTestId('combatant').filter({ has: gm.p.locator('.name', { hasText: 'Kira' }) });
    await expect.poll(() => kiraRow.getByTestId('in-stealth').count()).toBe(1);
    expect(await kiraRow.textContent()).toContain('until Kira attacks or is spotted');
    // The panel's Hide is refused while she is in stealth: on the phone (its form keeps its last roll, with no Roll button) and the GM's.
    const phoneHide = await checkForm(ann.p, null, 'Hide (not now)');
    await expect.poll(() => phoneHide.getByRole('button', { name: 'Roll: Hide' }).count()).toBe(0);
    const gmHide = await checkForm(gm.p, 'Kira', 'Hide (not now)');
    await expect.poll(() => gmHide.textContent()).toContain('Not now: Kira is already in stealth');
    await kiraRow.getByRole('button', { name: 'Kira is spotted: end the stealth' }).click();
    await expect.poll(() => kiraRow.getByTestId('in-stealth').count()).toBe(0);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
