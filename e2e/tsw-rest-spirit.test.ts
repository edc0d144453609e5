// The 36th Way between and in fights in real Chromium (issue 20, GM review):
// a PC added from the invite panel gets a 36th Way sheet with the HP typed
// there; the quick rest spends the recoveries the GM picks per PC (002 "Quick
// Rest", "Recoveries": with none left the healing is halved); a PC out of the
// fight for good fights in spirit from the phone (002 "Fight in Spirit").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-rest-spirit');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

type Sheets = { sheets: Record<string, { name: string; hp: number; maxHp: number; recoveries: number; characterId?: string | null }> };

describe('36th Way: invited sheets, recoveries at a quick rest, Fight in Spirit', () => {
  it('Kira from the invite panel has a sheet with 24 HP; the quick rest spends two recoveries, the second halved', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    // A seat made on this page (the panel shows the links it made), then her character with 24 HP.
    const invite = gm.p.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Bo');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel('Character name for Bo').fill('Kira');
    await invite.getByLabel('Hit points').fill('24');
    await invite.getByRole('button', { name: 'Add character' }).click();
    const kiraSheet = () => Object.values((n.gmSock.view().world.ext['36th-way'] as unknown as Sheets).sheets).find((s) => s.name === 'Kira');
    await expect.poll(kiraSheet).toMatchObject({ maxHp: 24, hp: 24, recoveries: 8 });

    // Wounded, with one recovery left (the GM's socket; the page has finished its own sends above).
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Kira'), sheet: { hp: 10, recoveries: 1 }, patch: true });
    const clock = gm.p.locator('.area-clock');
    const box = clock.getByLabel('Kira: HP 10/24, 1 of 8 recoveries (each heals 1d8)');
    await box.fill('2');
    await expect.poll(() => clock.textContent()).toContain('Kira has 1 left: the last 1 heals half and costs -1 to Volition and defences until a full rest each.');
    // The average of 1d8 is 4 (002: each die rounded down); the second recovery, with none left, heals half: 2. 10 + 4 + 2 = 16.
    await clock.getByLabel(/Take the average/).check();
    expect(await axeViolations(gm.p)).toEqual([]);
    await clock.getByRole('button', { name: 'Quick rest', exact: true }).click();
    await expect.poll(() => clock.getByTestId('rest-result').count()).toBe(1);
    await expect.poll(kiraSheet).toMatchObject({ hp: 16, recoveries: 0 });
    await expect.poll(() => clock.textContent()).toContain('Kira: HP 16/24, 0 of 8 recoveries');
    expect(await clock.textContent()).toContain('1 quick rest');
    expect(gm.errors).toEqual([]);
  });

  it('the GM marks Kira out of the fight for good; on her turn her phone gives Bram Advantage on attacks, with a reason', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, maxHp: 24 } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'bram', name: 'Bram', kind: 'pc', level: 1, maxHp: 20 } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 2, ac: 14, pd: 13, md: 10, maxHp: 20 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Kira') },
        { id: 'bram', name: 'Bram', kind: 'pc', side: 'party', band: 'slow' },
        { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Kira: actions');

    // Still in the fight: the phone lists Fight in Spirit among what Kira cannot do now, and why.
    await ann.p.getByTestId('actions-panel').locator('summary', { hasText: /^Not now \(/ }).click();
    await expect.poll(() => ann.p.getByTestId('actions-blocked').textContent()).toContain('Fight in Spirit: only for a PC out of the fight for good (petrified, separated): the GM marks Kira so');
    // Healthy, Kira is not offered "out for good" (GM review, issue 20); petrified (the GM's own condition), she is.
    const outForGood = gm.p.getByTestId('actions-panel').getByRole('button', { name: /^Kira is out of the fight for good/ });
    expect(await outForGood.count()).toBe(0);
    const kiraRow = gm.p.locator('.area-encounter').getByTestId('combatant').filter({ hasText: 'Kira' });
    await kiraRow.getByText('Adjust Kira').click();
    const kiraForm = gm.p.getByRole('form', { name: 'Apply a condition to Kira' });
    await kiraForm.getByLabel('Condition for Kira').selectOption({ label: 'Other (type a name)' });
    await kiraForm.getByLabel('Name of the condition for Kira').fill('Petrified');
    await kiraForm.getByLabel('Duration for Kira').selectOption('indefinite');
    await kiraForm.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => outForGood.count()).toBe(1);
    // The GM marks her with one tap.
    await outForGood.click();
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('button', { name: /^Kira is back in the fight/ }).count()).toBe(1);

    const form = await openAction(ann.p, 'Fight in Spirit');
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Bram']);
    await form.getByLabel('Boon').selectOption({ label: 'Advantage on their attacks' });
    await form.getByLabel('How (a reason, every round)').fill('her voice rings from the stone');
    expect(await axeViolations(ann.p)).toEqual([]);
    const result = await roll(form, 'Fight in Spirit');
    expect(result).toContain('Kira');
    // Bram carries the boon until Kira's next turn starts.
    // Bram's own row, by its name (Kira's open row tools name Bram too, in their range picker).
    const bram = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ has: gm.p.locator('.name', { hasText: 'Bram' }) });
    await expect.poll(() => bram.locator('.badge.warn').count()).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
