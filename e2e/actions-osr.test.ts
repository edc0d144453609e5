// OSR actions in real Chromium (001 "Types of Actions"): Kira's phone opens
// Attack, picks the Goblin (the hidden Lurker is not offered, and never
// reaches the phone), sees the exact odds, rolls, and sees the result; then
// the GM does the same for the Goblin against Kira.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

const CANARY = 'CANARY-osr-lurker-Qx';
let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-osr');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('OSR actions with targets and odds', () => {
  it('the phone attacks the Goblin with odds shown first; the GM attacks Kira on the Goblin\'s turn; the Lurker never reaches the phone', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { str: 12, dex: 14, maxHp: 10, hp: 10, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { str: 10, dex: 10, ac: 11, maxHp: 40, hp: 40 } });
    await n.gmSock.command({ type: 'character.add', name: CANARY, kind: 'npc', visibility: 'hidden', stats: { dex: 9, ac: 13, maxHp: 5, hp: 5 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin'), stats: { dex: 10 } },
        { id: 'l', name: CANARY, kind: 'npc', side: 'foes', characterId: n.idOf(CANARY), stats: { dex: 9 }, visibility: 'hidden' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // (The Goblin has 40 hit points so Kira's roll, whatever it is, cannot fell it and skip its turn.)
    // --- Kira's phone: Attack costs the active action; the only target is the Goblin. The GM has shown
    // players foes' defences, so the phone gets exact odds (ADR 33).
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const form = await openAction(ann.p, 'Attack');
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Goblin']);
    // STR 12 is +1 against AC 11: a d20 of 10 or more, 11 faces of 20; a natural 20 crits.
    await oddsOf(form, '55% to hit · 5% crit');
    const result = await roll(form, 'Roll: Attack');
    expect(result).toMatch(/Kira/);
    expect(result).toMatch(/Goblin/);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain(result.split('.')[0]!);
    // The active action is spent: the form says so after the result (not as a refusal above it) instead of rolling again.
    await expect.poll(() => form.getByTestId('action-after').count()).toBe(1);
    // Spent, the form keeps its result and says why, with no odds and no Roll button that cannot be pressed.
    expect(await form.getByRole('button', { name: 'Roll: Attack', exact: true }).count()).toBe(0);
    expect(await form.getByTestId('action-odds').count()).toBe(0);

    // --- the GM ends Kira's turn; on the Goblin's, the GM attacks Kira (+0 vs AC 12: 9 faces of 20).
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Goblin: actions');
    const gmForm = await openAction(gm.p, 'Attack');
    expect(await gmForm.getByLabel('Target').locator('option').allTextContents()).toEqual(['Kira', `${CANARY} (ally)`]);
    await oddsOf(gmForm, '45% to hit · 5% crit');
    expect(await roll(gmForm, 'Roll: Attack')).toMatch(/Goblin/);

    // --- nothing of the Lurker reached the phone: page or frames.
    expect(await ann.p.content()).not.toContain(CANARY);
    expect(ann.frames.filter((f) => f.includes(CANARY))).toEqual([]);
    expect(gm.frames.some((f) => f.includes(CANARY))).toBe(true);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
