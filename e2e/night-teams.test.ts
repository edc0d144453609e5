// A teams night by clicking (issue 20): the starter Goblins (size 3, evasion 6,
// deflection 8, endurance and health 12) from the bestiary; Bo's phone attacks
// Goblin 1 with Boudica's spear, odds first; the GM's damage box deals 14
// typeless damage to Goblin 2 (003 "Damage": endurance 12 takes 12, health the
// other 2) and heals it; the fight ends and a second one starts from the same
// stat block. axe finds nothing serious on either screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, screen } from './actions-flow.ts';
import { startE2e, whoStarts, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { nowActing } from './web.ts';
import { spear } from '../packages/rulesets/test/teams/helpers.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('night-teams');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('a teams night: starter Goblins, the phone attacking, the damage box, a second fight', () => {
  it('plays past the first fight by clicking', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    const boudica = n.idOf('Boudica');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: boudica, sheet: { name: 'Boudica', attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear } } } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);

    const best = gm.p.getByTestId('bestiary');
    await best.getByRole('button', { name: 'Add the starter foes (Goblin)' }).click();
    const goblin = best.getByTestId('bestiary-entry').filter({ hasText: 'Goblin' });
    await goblin.getByLabel('How many').fill('2');
    await goblin.getByRole('button', { name: 'Line up Goblin' }).click();
    await gm.p.getByTestId('builder-rows').getByText('Goblin 2').waitFor();
    await whoStarts(gm.p, 'Party');
    await gm.p.getByTestId('roll-initiative').click();
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => order.getByTestId('combatant').count(), { timeout: 15_000 }).toBe(3);

    // Bo attacks Goblin 1 with the spear: the odds come before the roll (the GM shows players foes' defences, ADR 33),
    // and the log has the result on both screens.
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    await expect.poll(() => nowActing(bo.p)).toBe('Now acting: Boudica');
    const form = await openAction(bo.p, 'Attack');
    await form.getByLabel('Target').selectOption({ label: 'Goblin 1' });
    await expect.poll(() => text(bo.p.getByTestId('action-odds')), { timeout: 10_000 }).toMatch(/\d+(\.\d)?%/);
    await form.getByRole('button', { name: /^Roll/ }).click();
    await expect.poll(() => text(bo.p.getByTestId('action-result')), { timeout: 10_000 }).toContain('Goblin 1');

    // The damage box: 14 typeless to Goblin 2 empties its endurance (12) and takes 2 health; Heal gives the health back first.
    const g2 = order.getByTestId('combatant').filter({ hasText: 'Goblin 2' });
    await g2.getByLabel('Amount for Goblin 2').fill('14');
    await g2.getByRole('button', { name: 'Damage Goblin 2' }).click();
    await expect.poll(() => text(g2)).toContain('Endurance 0/12');
    await expect.poll(() => text(g2)).toContain('Health 10/12');
    await g2.getByLabel('Amount for Goblin 2').fill('2');
    await g2.getByRole('button', { name: 'Heal Goblin 2' }).click();
    await expect.poll(() => text(g2)).toContain('Health 12/12');

    // End, and a second fight from the same stat block.
    await gm.p.getByTestId('end-encounter').click();
    await goblin.getByLabel('How many').fill('1');
    await goblin.getByRole('button', { name: 'Line up Goblin' }).click();
    await whoStarts(gm.p, 'Party');
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => text(gm.p.locator('.area-encounter h2')), { timeout: 15_000 }).toContain('Encounter 2');
    await expect.poll(() => order.getByTestId('combatant').count()).toBe(2);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(bo.p)).toEqual([]);
    expect([...gm.errors, ...bo.errors]).toEqual([]);
  });
});
