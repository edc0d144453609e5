// Issue 20, review 6's teams items (ADR 53), played in real Chromium by
// clicking: the damage box empties Boudica's endurance and her row and phone
// read "harmed", never "down" (003 "Damage"); her attack's log line shows the
// dice as 003's examples do (attribute die, combat die, martial +1, the luck
// die), and her phone's line keeps the Raider's Evasion secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { spear } from '../packages/rulesets/test/teams/helpers.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('teams-chips-dice');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('teams: harmed not down, dice in the attack line (003 "Damage", "Attacks")', () => {
  it('Boudica at Endurance 0/12 with full health is harmed; her spear attack reads "strength a + combat b +1 = r with luck l"; the phone never reads the evasion', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.add', name: 'Raider', kind: 'npc' });
    const boudica = n.idOf('Boudica');
    const raider = n.idOf('Raider');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: boudica, sheet: { name: 'Boudica', attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear } }, wielded: ['spear'] } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: raider, sheet: { name: 'Raider', evasion: 6, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Boudica', kind: 'pc', side: 'players', characterId: boudica },
        { name: 'Raider', kind: 'npc', side: 'raiders', characterId: raider },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Boudica');

    // The damage box: 12 typeless empties her endurance; health is untouched. Harmed, not down.
    const row = gm.p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: 'Boudica' });
    await row.getByText('Adjust Boudica').click();
    await row.getByLabel('Amount for Boudica').fill('12');
    await row.getByRole('button', { name: 'Damage Boudica' }).click();
    await expect.poll(() => text(row)).toMatch(/Endurance 0\/12 ?harmed/);
    expect(await text(row)).toMatch(/Health 12\/12/);
    expect(await row.locator('.badge', { hasText: /^down$/ }).count()).toBe(0);
    await expect.poll(() => text(bo.p.getByTestId('my-character'))).toMatch(/Endurance 0\/12 ?harmed/);
    expect(await text(bo.p.getByTestId('my-character'))).not.toContain('down');

    // Her attack from the phone: the dice in the line, on both screens; the phone's without the Raider's Evasion.
    const form = await openAction(bo.p, 'Attack');
    await form.getByLabel('Target').selectOption({ label: 'Raider' });
    const result = await roll(form, 'Roll: Attack');
    const m = /Boudica attacked Raider: strength (\d) \+ combat (\d) \+1 = (\d+) with luck (\d+), (a hit|a miss|a critical hit)/.exec(result);
    expect(m, result).not.toBeNull();
    expect(Number(m![3])).toBe(Number(m![1]) + Number(m![2]) + 1);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain(`Boudica attacked Raider: strength ${m![1]} + combat ${m![2]} +1 = ${m![3]} with luck ${m![4]} against evasion 6,`);
    expect(await text(bo.p.getByTestId('log'))).not.toContain('evasion 6');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(bo.p)).toEqual([]);
    expect([...gm.errors, ...bo.errors]).toEqual([]);
  });
});
