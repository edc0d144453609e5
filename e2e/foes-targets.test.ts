// Foes are targets everywhere (issue 20), in real Chromium. On an OSR table
// the GM lines up "Goblin x2" typed with AC 13 in the builder, rolls
// initiative, and both goblins are offered as targets on the GM screen and on
// Kira's phone, with the exact odds before the roll; a hidden Lurker added
// mid-fight with its AC is the GM's target only and never reaches the phone.
// On a 36th Way table a typed Ogre with its defences becomes the hero's target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, screen, startE2e } from './actions-flow.ts';
import { builderLine, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

const LURKER = 'Lurker-Qz-canary';
let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('foes-targets');
});
afterAll(async () => {
  await e2e?.close(contexts);
});


describe('foes are targets', () => {
  it('OSR: goblins typed with an AC are targets for the GM and the phone; a hidden Lurker only for the GM', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { str: 12, dex: 16, maxHp: 10, hp: 10, ac: 12 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The builder asks a foe's AC beside its HP; 40 HP each so no roll fells one and skips its turn.
    await builderLine(gm.p, { name: 'Goblin x2', 'quick-ac': '13', hp: '40', 'init-dex': '8' });
    await expect.poll(() => gm.p.getByTestId('builder-rows').textContent()).toContain('Goblin 2');
    await gm.p.getByTestId('roll-initiative').click();
    // DEX 16 acts before DEX 8: Kira's turn first.
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent(), { timeout: 15_000 }).toBe('Kira: actions');
    const gmForm = await openAction(gm.p, 'Attack');
    expect(await gmForm.getByLabel('Target').locator('option').allTextContents()).toEqual(['Goblin 1', 'Goblin 2']);
    // STR 12 is +1 against AC 13: a d20 of 12 or more, 9 faces of 20; a natural 20 crits.
    await oddsOf(gmForm, '45% to hit · 5% crit');

    // Kira's phone offers the same two; its odds wait for the GM to show foes' defences (ADR 33).
    const phoneForm = await openAction(ann.p, 'Attack');
    expect(await phoneForm.getByLabel('Target').locator('option').allTextContents()).toEqual(['Goblin 1', 'Goblin 2']);
    await expect.poll(() => phoneForm.getByTestId('action-odds').textContent()).toContain('No odds');
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    await oddsOf(phoneForm, '45% to hit · 5% crit');

    // Mid-fight, a hidden Lurker with AC 15 joins: the GM may target it, the phone may not.
    await gm.p.getByText('Add a combatant').click();
    await builderLine(gm.p, { name: LURKER, 'quick-ac': '15', hp: '30' }, { prefix: 'add', hidden: true });
    await expect.poll(() => gmForm.getByLabel('Target').locator('option').allTextContents()).toEqual(['Goblin 1', 'Goblin 2', LURKER]);
    await gmForm.getByLabel('Target').selectOption({ label: LURKER });
    // +1 against AC 15: 14 or more, 7 faces of 20.
    await oddsOf(gmForm, '35% to hit · 5% crit');
    await new Promise((r) => setTimeout(r, 500));
    expect(await phoneForm.getByLabel('Target').locator('option').allTextContents()).toEqual(['Goblin 1', 'Goblin 2']);
    expect(await ann.p.content()).not.toContain(LURKER);
    expect(ann.frames.filter((f) => f.includes(LURKER))).toEqual([]);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('36th Way: an Ogre typed with AC, PD and MD gets its sheet and is the hero\'s target', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    const vesk = n.idOf('Vesk');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: vesk, sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await gm.p.locator('#build-init-band').selectOption('slow');
    await builderLine(gm.p, { name: 'Ogre', 'quick-ac': '14', 'quick-pd': '13', 'quick-md': '10', hp: '60' });
    await expect.poll(() => gm.p.getByTestId('builder-rows').textContent()).toContain('Ogre');
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent(), { timeout: 15_000 }).toBe('Vesk: actions');
    await n.gmSock.command({ type: '36th-way.position', a: vesk, b: Object.values((n.gmSock.view().world.ext['encounter'] as { combatants: Record<string, { id: string; name: string }> }).combatants).find((c) => c.name === 'Ogre')!.id, range: 'engaged' });
    const form = await openAction(gm.p, 'Attack');
    await expect.poll(() => form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (engaged)']);
    // +4 (level 1, volition 3) against AC 14: a natural 10+ on 3d6 is 135 of 216 faces.
    await expect.poll(() => form.getByTestId('action-odds').locator('strong').textContent()).toMatch(/^62\.5% to hit/);
    expect(gm.errors).toEqual([]);
  });
});
