// The 36th Way actions in real Chromium (002 "Positioning", "Action Types"):
// Vesk's phone sees the Ogre as nearby, moves to engage it (a move action),
// then attacks it with the odds shown first (a standard action) and sees the
// result; no attack answers OUT_OF_REACH any more, and the GM sees the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-tsw');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('36th Way actions: engage, then attack', () => {
  it('the phone moves Vesk to engage the Ogre, then attacks it with the odds shown first', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'vesk', name: 'Vesk', kind: 'pc', characterId: n.idOf('Vesk'), level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 2, volition: 2, ac: 14, pd: 13, md: 10, maxHp: 20 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'vesk', name: 'Vesk', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Vesk') },
        { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // --- nearby: Move (one move action per step) to be engaged with the Ogre.
    const move = await openAction(ann.p, 'Move');
    expect(await move.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (nearby)']);
    await move.getByLabel('To be').selectOption('engaged');
    expect(await roll(move, 'Move')).toContain('Vesk');

    // --- now engaged: Attack (a standard action). +4 vs AC 14: natural 10+ (135 of 216), 17+ crits, a natural 3 crit-fails.
    // The GM shows players foes' defences, so the phone gets exact odds and the line its AC (ADR 33).
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const form = await openAction(ann.p, 'Attack');
    await expect.poll(() => form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (engaged)']);
    await oddsOf(form, '62.5% to hit · 1.9% crit · 0.5% crit fail');
    const result = await roll(form, 'Roll: Attack');
    expect(result).toMatch(/Vesk attacked Ogre \(AC 14\): natural \d+/);
    expect(result).not.toContain('OUT_OF_REACH');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Vesk attacked Ogre/);
    // Both the move and the standard action are spent: the GM's panel for Vesk says why Attack is not on offer.
    await gm.p.getByTestId('actions-panel').locator('summary', { hasText: /^Not now \(/ }).click();
    // The blocked roll says why in view too (review 9), on Vesk's turn.
    await expect.poll(() => gm.p.getByTestId('actions-why-not').textContent()).toContain('Not now: Attack:');
    await expect.poll(() => gm.p.getByTestId('actions-blocked').textContent()).toContain('Attack');
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
