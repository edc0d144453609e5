// Rules the screen could not reach (GM review, issue 20) in real Chromium:
// with Bram at 0 HP, Kira's phone opens Stabilize, sees the odds of its
// check first, rolls, and the log names Bram (never his id); the GM's
// panel offers a Morale check for the foes, which the phone never gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-rules');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('OSR: Stabilize and Morale from the actions panel', () => {
  it('the phone stabilizes Bram with odds shown first and the log names him; the GM checks the Goblin\'s morale; no serious axe findings', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { wis: 16, dex: 14, maxHp: 10, hp: 10, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { dex: 8, maxHp: 6, hp: 6, ac: 10 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { dex: 10, ac: 11, maxHp: 5, hp: 5 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: n.idOf('Bram'), stats: { dex: 8 } },
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin'), stats: { dex: 10 } },
      ],
    });
    await n.gmSock.command({ type: 'osr.damage', targetId: n.idOf('Bram'), amount: 9 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // --- Kira's phone: Stabilize offers only the dying Bram; WIS 16 (+3) vs DC 10 passes on 7..20, 14 of 20.
    const form = await openAction(ann.p, 'Stabilize');
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Bram (dying)']);
    await oddsOf(form, '70% to succeed');
    expect(await axeViolations(ann.p)).toEqual([]);
    const result = await roll(form, 'Roll: Stabilize');
    expect(result).toMatch(/Kira (passed|failed) stabilizing Bram/);
    expect(result).not.toContain(n.idOf('Bram'));
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Kira (passed|failed) stabilizing Bram/);

    // --- the GM's panel on Kira's turn: Morale check for the Goblin (DC 11), absent from the phone.
    expect(await ann.p.getByTestId('actions-panel').getByRole('button', { name: /^Morale check \(/ }).count()).toBe(0);
    const morale = await openAction(gm.p, 'Morale check');
    // Every creature that could check is offered, the acting monster's side first (ADR 53); a PC rolls alone,
    // and Bram only once stabilized (the dying cannot check).
    const stabilized = /Kira passed stabilizing Bram/.test(result);
    expect(await morale.getByLabel('Target').locator('option').allTextContents()).toEqual(['Goblin', 'Kira (PC: rolls alone)', ...(stabilized ? ['Bram (PC: rolls alone)'] : [])]);
    await morale.getByLabel('Why now').fill('the first foe fell');
    expect(await axeViolations(gm.p)).toEqual([]);
    // With odds shown (ADR 53's osr.moraleOdds) the button says it rolls; the goblins check as their side.
    const rolled = await roll(morale, 'Roll: Morale check');
    expect(rolled).toMatch(/Morale for (the foes, )?Goblin[^(]*\(the first foe fell\): .*: they (stand and fight|surrender or flee)\./);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
