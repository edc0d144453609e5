// Daggerheart actions in real Chromium: with the spotlight on the Rogue, her
// phone picks a trait from her sheet for her own action roll, the GM sets its
// difficulty (shown, then hidden), and the exact duality odds show before the
// roll only when she may know the difficulty (ADR 50); Help an Ally offers
// the Bard as the only ally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, openAction, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-dh');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Daggerheart actions with duality odds', () => {
  it("the Rogue's phone picks Agility +2 from her sheet, the GM sets the difficulty (12, then a hidden one), and the odds show only when she may know it", async () => {
    const n = await night(e2e!, 'daggerheart', 'Ana');
    await n.gmSock.command({ type: 'character.add', name: 'Rogue', kind: 'pc', seatId: n.seatId, stats: { agility: 2 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bard', kind: 'pc' });
    const rogue = n.idOf('Rogue');
    const bard = n.idOf('Bard');
    await n.gmSock.command({ type: 'encounter.start', combatants: [{ id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue }, { id: bard, name: 'Bard', kind: 'pc', characterId: bard }, { id: 'ogre', name: 'Ogre', kind: 'npc' }] });
    await n.gmSock.command({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ana = await screen(e2e!.browser, contexts, n.links.seat, true);

    const help = await openAction(ana.p, 'Help an ally');
    expect(await help.getByLabel('Target').locator('option').allTextContents()).toEqual(['Bard']);
    // The phone's own roll: a trait from the sheet by name and value, and no Difficulty box to guess at.
    const form = await openAction(ana.p, 'Action roll');
    expect(await form.getByLabel('Trait').locator('option').allTextContents()).toEqual(['Agility +2', 'Strength +0', 'Finesse +0', 'Instinct +0', 'Presence +0', 'Knowledge +0']);
    expect(await form.getByLabel('Difficulty').count()).toBe(0);
    await form.getByRole('button', { name: 'Action roll', exact: true }).click();
    const card = ana.p.getByTestId('roll-request');
    await expect.poll(() => card.textContent()).toContain('Waiting for the GM to set the difficulty.');
    expect(await card.getByRole('button', { name: 'Roll Hope and Fear' }).isDisabled()).toBe(true);
    await expect.poll(() => card.getByTestId('roll-odds').textContent()).toContain('Success: once the GM sets the difficulty');

    // The GM sets 12: Agility +2 against 12 succeeds when Hope + Fear >= 10 or the dice match, 112 of 144 (77.8%).
    const setForm = gm.p.getByTestId('set-difficulty');
    await setForm.getByLabel('Difficulty').fill('12');
    await setForm.getByRole('button', { name: 'Set the difficulty' }).click();
    await expect.poll(() => card.getByTestId('roll-odds').textContent()).toContain('Success 77.8%');
    expect(await card.getByTestId('request-words').textContent()).toBe('Agility roll +2 vs 12');
    await card.getByRole('button', { name: 'Roll Hope and Fear' }).click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Rogue's Agility roll: Hope \d+ \+ Fear \d+ \+ 2 \(modifier\) = \d+ vs 12/);
    await expect.poll(() => card.count()).toBe(0);
    // A roll with Fear swings the spotlight to the GM (ADR 50): the GM gives it back to the Rogue for her next ask.
    const current = () => (n.gmSock.view().world.ext['encounter'] as { current?: string | null } | undefined)?.current ?? null;
    if (current() !== rogue) {
      await n.gmSock.command({ type: 'daggerheart.passSpotlight', combatantId: rogue });
      await expect.poll(current).toBe(rogue);
    }

    // A second ask, the GM hiding its difficulty: the phone reads the dice-only odds and never the number.
    // The form stays open after it is sent (its button would toggle it shut): ask again from it.
    const again = (await form.isVisible()) ? form : await openAction(ana.p, 'Action roll');
    await again.getByLabel('Trait').selectOption({ label: 'Strength +0' });
    await again.getByRole('button', { name: 'Action roll', exact: true }).click();
    await expect.poll(() => gm.p.getByTestId('set-difficulty').count()).toBe(1);
    await gm.p.getByTestId('set-difficulty').getByLabel('Difficulty').fill('23');
    await gm.p.getByTestId('set-difficulty').getByLabel('Hide it').check();
    await gm.p.getByTestId('set-difficulty').getByRole('button', { name: 'Set the difficulty' }).click();
    await expect.poll(() => card.getByTestId('roll-odds').textContent()).toContain('Success: the GM keeps the difficulty secret');
    expect(await card.getByTestId('request-words').textContent()).toBe('Strength roll · difficulty hidden');
    expect(ana.frames.filter((f) => f.includes('"difficulty":23') || f.includes('23 (hidden)'))).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ana.errors).toEqual([]);
  });
});
