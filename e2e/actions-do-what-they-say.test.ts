// GM review findings (issue 20), in Chromium: buttons that spent an action
// and did nothing. Teams: the phone's Resuscitate now asks whom (only the
// unconscious Roland) and which test, and the log says how it went (003:
// Clementine resuscitates Roland); reactions are no longer spend buttons.
// OSR: Move opens a form with the feet and the way, and the log says how far.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-do');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('action buttons that do what they say', () => {
  it('teams: Clementine\'s phone resuscitates the unconscious Roland with a test of her choosing; the log has the roll', async () => {
    const n = await night(e2e!, 'teams', 'Cle');
    await n.gmSock.command({ type: 'character.add', name: 'Clementine', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'clem', kind: 'pc', side: 'players', characterId: n.idOf('Clementine') },
        { id: 'roland', kind: 'pc', side: 'players' },
        { id: 'guard', kind: 'npc', side: 'guards' },
      ],
      params: { teamOrder: ['players', 'guards'] },
    });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Clementine'), sheet: { attributes: { wits: 8 }, skills: { medicine: 6 }, maxEndurance: 8, maxHealth: 8 } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'roland', sheet: { name: 'Roland', maxHealth: 8, health: 0, conscious: false } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'guard', sheet: { name: 'Guard', maxHealth: 8 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const cle = await screen(e2e!.browser, contexts, n.links.seat, true);

    const panel = cle.p.getByTestId('actions-panel');
    await panel.getByRole('button', { name: /^Resuscitate \(/ }).waitFor();
    expect(await panel.getByRole('button', { name: /^Block \(/ }).count()).toBe(0);
    const form = await openAction(cle.p, 'Resuscitate');
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Roland']);
    // The sheet's own attribute and skill, with their dice; the test's odds come before the roll (ADR 42).
    expect(await form.getByLabel('Attribute').locator('option').allTextContents()).toEqual(['wits (d8)']);
    expect(await form.getByLabel('Skill').locator('option').allTextContents()).toEqual(['medicine (d6)']);
    await expect.poll(() => form.getByTestId('action-odds').locator('strong').textContent()).toMatch(/% to succeed$/);
    const result = await roll(form, 'Roll: Resuscitate');
    expect(result).toMatch(/Clementine tried to resuscitate Roland: \d+ against 10, (conscious again|no luck)\./);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Clementine tried to resuscitate Roland/);
    // Two of three actions spent on it.
    await expect.poll(() => cle.p.getByRole('img', { name: 'actions: 1 of 3 left' }).count()).toBe(1);
    expect(await axeViolations(cle.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(cle.errors).toEqual([]);
  });

  it('OSR: the GM moves the Goblin 20 feet through a form; the log says so, and Quick action names what pays for it', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 16, ac: 13 } });
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 10, hp: 10, dex: 8, ac: 12 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin'), stats: { dex: 16 } },
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 8 } },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const form = await openAction(gm.p, 'Move');
    await form.getByLabel('Feet').fill('20');
    const result = await roll(form, 'Move');
    expect(result).toMatch(/Goblin moves 20': 20' of \d+' used this turn\./);
    const panel = gm.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('button', { name: /^Move \(free \(\d+' left this turn\)\)/ }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: /^Quick action \(1 quick action\)/ }).count()).toBe(1);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
