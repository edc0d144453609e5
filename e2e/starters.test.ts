// The bestiary's starter foes in real Chromium (issue 20, GM review): they
// carry the numbers the rule texts' examples give, so they are targets out of
// the box; "Add the starter foes" pressed twice adds nothing twice; and an OSR
// foe that joined without an AC gets one from its row ("Set AC"), after which
// Kira can attack it on both screens. axe finds nothing serious.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen } from './actions-flow.ts';
import { openAttack, osrFight, startE2e, whoStarts, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('starters');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('starter foes', () => {
  it('teams: the Goblin comes with size 3, evasion 6, deflection 8, endurance and health 12; a second press adds nothing; two Goblins fight with their sheets', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const best = gm.p.getByTestId('bestiary');
    const add = best.getByRole('button', { name: 'Add the starter foes (Goblin)' });
    await add.click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Starters: 1 stat block added.');
    const goblin = best.getByTestId('bestiary-entry').filter({ hasText: 'Goblin' });
    expect(await text(goblin)).toContain('Team Foes · Size 3 · Evasion 6 · Deflection 8 · Endurance 12 · Health 12 · Constitution 4');
    await add.click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('The starter foes are already in the bestiary (Goblin).');
    expect(await best.getByTestId('bestiary-entry').count()).toBe(1);

    // Two Goblins and Boudica: each Goblin gets its sheet (endurance before health, 003 "Damage").
    await goblin.getByLabel('How many').fill('2');
    await goblin.getByRole('button', { name: 'Line up Goblin' }).click();
    await expect.poll(() => text(gm.p.getByTestId('builder-rows'))).toContain('Goblin 2');
    await whoStarts(gm.p, 'Party');
    await gm.p.getByTestId('roll-initiative').click();
    const rows = gm.p.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => rows.getByTestId('combatant').count(), { timeout: 15_000 }).toBe(3);
    const sheets = () => Object.values(((n.gmSock.view().world.ext['teams'] as { sheets?: { [id: string]: { name: string; evasion: number; maxHealth: number } } }).sheets ?? {})).filter((s) => s.name.startsWith('Goblin'));
    await expect.poll(() => sheets().map((s) => [s.name, s.evasion, s.maxHealth]).sort(), { timeout: 15_000 }).toEqual([['Goblin 1', 6, 12], ['Goblin 2', 6, 12]]);
    await expect.poll(() => text(rows.getByTestId('combatant').filter({ hasText: 'Goblin 1' }))).toMatch(/12\/12/);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('OSR: the ordinary foe is HP 4, AC 10, 1 HD; a Goblin that joined with no AC gets AC 12 from its row, and Kira attacks it on both screens', async () => {
    const { t, seat } = await osrFight(e2e!, 'Set AC night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const best = gm.p.getByTestId('bestiary');
    const add = best.getByRole('button', { name: 'Add the starter foes (Ordinary foe)' });
    await add.click();
    await expect.poll(() => text(best.getByTestId('bestiary-list'))).toContain('HP 4 · AC 10 · DEX 10 · Hit Dice (HD) 1 · Speed (feet) 30');
    await add.click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('The starter foes are already in the bestiary (Ordinary foe).');

    // The Goblin has no AC: the panel says so, and its row takes one.
    await gm.p.getByTestId('actions-blocked').waitFor({ state: 'attached', timeout: 10_000 });
    const row = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: 'Goblin' });
    await row.getByText('Adjust Goblin').click();
    const setAc = row.getByRole('form', { name: 'Give Goblin an AC' });
    await setAc.getByLabel('AC (so it can be attacked)').fill('31');
    await setAc.getByRole('button', { name: 'Set AC for Goblin' }).click();
    await expect.poll(() => text(setAc.getByRole('alert'))).toBe('AC must be a whole number from 0 to 30.');
    await setAc.getByLabel('AC (so it can be attacked)').fill('12');
    await setAc.getByRole('button', { name: 'Set AC for Goblin' }).click();
    await expect.poll(() => row.getByRole('form', { name: 'Give Goblin an AC' }).count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('undo').textContent()).toBe('↶ Undo: link a combatant to a character');

    // Kira (STR 10, +0) against AC 12: a d20 of 12 or more, 9 faces of 20 = 45%.
    for (const s of [gm, ann]) {
      const form = await openAttack(s.p);
      await expect.poll(() => text(form), { timeout: 10_000 }).toContain('Goblin');
    }
    // The GM sees the odds; the phone is told the foe's AC stays with the GM (issue 15, secrets).
    await expect.poll(() => text(gm.p.getByTestId('action-odds')), { timeout: 10_000 }).toContain('45%');
    await expect.poll(() => text(ann.p.getByTestId('action-odds')), { timeout: 10_000 }).toContain('No odds');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
