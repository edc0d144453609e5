// GM review finding (issue 20): the tracker's Heal sent encounter.heal, while
// the 36th Way and teams keep HP on the ruleset's sheet, so "Kira is healed by
// 10" changed nothing. In Chromium the GM's Heal now lands on the sheet: a
// dying Kira at -1/30 healed 10 is 10/30 and back from dying (002: healing
// counts up from 0 and ends dying); Boudica at endurance 0, health 7 healed 8
// is health 12, then Heal 3 is endurance 3 (health first, the reverse of
// 003's damage order; main's teams.setTrack path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, screen } from './actions-flow.ts';
import { tswKiraAndOrc } from './fixtures.ts';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('heal-on-sheet');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** The tracker row of the combatant named `name`. */
const row = (p: import('playwright-core').Page, name: string) => p.getByTestId('combatant').filter({ hasText: name });

async function heal(p: import('playwright-core').Page, name: string, amount: string): Promise<void> {
  await p.getByLabel(`Amount for ${name}`).fill(amount);
  await p.getByRole('button', { name: `Heal ${name}` }).click();
}

describe('Heal on the ruleset sheet', () => {
  it('the 36th Way: a dying PC healed 10 from -1/30 reads 10/30 and the log says she is back from dying', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await tswKiraAndOrc(n);
    await n.gmSock.command({ type: '36th-way.damage', targetId: 'kira', amount: 31 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await expect.poll(() => row(gm.p, 'Kira').textContent()).toContain('-1/30');

    await heal(gm.p, 'Kira', '10');
    await expect.poll(() => row(gm.p, 'Kira').textContent()).toContain('10/30');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Kira healed 10 HP (by the GM): now 10 HP, back from dying.');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('teams: Heal 8 gives back health first (7 -> 12, capped there), a second Heal 3 the endurance (0 -> 3); both in the log', async () => {
    const n = await night(e2e!, 'teams', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'boudica', kind: 'pc', side: 'players', characterId: n.idOf('Boudica') },
        { id: 'bandit', name: 'Bandit', kind: 'npc', side: 'raiders' },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Boudica'), sheet: { name: 'Boudica', constitution: 4, maxEndurance: 12, endurance: 5, maxHealth: 12 } });
    await n.gmSock.command({ type: 'teams.damage', targetId: 'boudica', amount: 10 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await expect.poll(() => row(gm.p, 'Boudica').textContent()).toMatch(/Health 7\/12/);

    await heal(gm.p, 'Boudica', '8');
    await expect.poll(() => row(gm.p, 'Boudica').textContent()).toMatch(/Health 12\/12/);
    await heal(gm.p, 'Boudica', '3');
    await expect.poll(() => row(gm.p, 'Boudica').textContent()).toMatch(/Endurance 3\/12/);
    const log = await gm.p.getByTestId('log').textContent();
    expect(log).toContain('Boudica heals 5 health (now 12).');
    expect(log).toContain('Boudica heals 3 endurance (now 3).');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
