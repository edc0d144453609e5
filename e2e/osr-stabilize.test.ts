// Issue 20, review 7's OSR dead end (ADR 55), played in real Chromium by
// clicking: Kira (a PC) and Goblin 1 are at 0 HP when the GM ends a one-round
// fight, so each has the other 54 s of the minute (001 "Death & Injury": a
// minute or the fight's end, whichever is later). The GM's summary offers a
// Stabilize per dying creature from its allies only, with the check's exact
// odds; Bram's phone offers his own Stabilize for Kira (001 "Stabilizing &
// Injuries": an ally's check, then the Injury Table); the summary and the
// phone then say what became of each ("Kira is stable", "Goblin 1 died"),
// and the phone's form turns into a done state once nobody is dying (review 8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-stabilize');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** Rolls the open form until the check passes (or `tries` run out); the result lines of the last roll. */
async function rollUntilPassed(form: Locator, button: string, who: string, tries = 15): Promise<string> {
  let last = '';
  for (let i = 0; i < tries; i++) {
    if (i > 0) await form.getByRole('button', { name: 'Again' }).click();
    await expect.poll(() => form.getByTestId('action-result').count()).toBe(0);
    await form.getByRole('button', { name: button, exact: true }).click();
    await expect.poll(() => text(form.getByTestId('action-result'))).toMatch(new RegExp(`${who} (passed|failed) stabilizing`));
    last = await text(form.getByTestId('action-result'));
    if (last.includes('passed')) return last;
  }
  return last;
}

describe('OSR: stabilizing the dying in the minute after a fight (ADR 55)', () => {
  it("the GM's summary offers each dying creature's allies with odds, Bram's phone stabilizes Kira, and both screens say what became of them", async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 9, hp: 9, dex: 14, ac: 12, str: 12, con: 12, cha: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', seatId: n.seatId, stats: { maxHp: 9, hp: 9, dex: 12, ac: 12, wis: 14 } });
    for (const g of ['Goblin 1', 'Goblin 2']) await n.gmSock.command({ type: 'character.add', name: g, kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 10, wis: 10 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { name: 'Bram', kind: 'pc', side: 'party', characterId: n.idOf('Bram') },
        { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 1') },
        { name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 2') },
      ],
    });
    await n.gmSock.command({ type: 'osr.damage', targetId: n.idOf('Kira'), amount: 9 });
    await n.gmSock.command({ type: 'osr.damage', targetId: n.idOf('Goblin 1'), amount: 5 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // End after one round: 6 s, so both have 54 s left. The summary lists them live, not in its stale sentence.
    await gm.p.getByTestId('end-encounter').click();
    // A row's fate line (a row's form also lists later log lines, which may name the other).
    const kiraFate = gm.p.getByTestId('dying-fate').filter({ hasText: /^Kira / });
    const gobFate = gm.p.getByTestId('dying-fate').filter({ hasText: /^Goblin 1 / });
    const gobRow = gm.p.getByTestId('left-dying').filter({ has: gobFate });
    await expect.poll(() => text(kiraFate)).toBe('Kira is dying: 54 s left to stabilize.');
    expect(await text(gobFate)).toBe('Goblin 1 is dying: 54 s left to stabilize.');
    expect(await text(gm.p.getByTestId('fight-summary'))).toBe('The fight is over after 1 round. Nobody died. Still standing: the party, Bram; the foes, Goblin 2.');

    // Who may help: Kira's ally Bram (never a goblin), Goblin 1's ally Goblin 2 (never Bram), or the GM's spell.
    const kiraHelp = gm.p.getByRole('group', { name: 'Who stabilizes Kira' });
    await expect.poll(() => kiraHelp.getByRole('button').allTextContents()).toEqual(['Bram stabilizes Kira', 'A spell or other means']);
    const gobHelp = gm.p.getByRole('group', { name: 'Who stabilizes Goblin 1' });
    await expect.poll(() => gobHelp.getByRole('button').allTextContents()).toEqual(['Goblin 2 stabilizes Goblin 1', 'A spell or other means']);
    // Goblin 2's check, WIS 10 (+0) vs DC 10: a d20 of 10 or more, 11 faces of 20.
    await gobHelp.getByRole('button', { name: 'Goblin 2 stabilizes Goblin 1' }).click();
    const gobForm = gobRow.getByTestId('action-form');
    await expect.poll(() => text(gobForm.getByTestId('action-odds'))).toBe('55% to succeedd20 +0 vs DC 10');
    await gobForm.getByRole('button', { name: 'Roll: Goblin 2 stabilizes Goblin 1', exact: true }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Goblin 2 (passed|failed) stabilizing Goblin 1/);

    // Bram's phone, outside the fight: his own Stabilize for Kira with his odds (WIS 14, +2: 13 faces of 20).
    const panel = ann.p.getByTestId('stabilize-panel');
    await expect.poll(() => text(panel.getByTestId('ally-fate'))).toMatch(/^Kira is dying: \d+ s left to stabilize\.$/);
    await panel.getByRole('button', { name: 'Bram: Stabilize' }).click();
    const form = panel.getByTestId('action-form');
    await expect.poll(() => form.getByLabel('Target').inputValue()).toBe(n.idOf('Kira'));
    await expect.poll(() => text(form.getByTestId('action-odds'))).toBe('65% to succeedd20 +2 vs DC 10');
    const result = await rollUntilPassed(form, 'Roll: Stabilize', 'Bram');
    expect(result).toContain('Bram passed stabilizing Kira');
    expect(result).toContain('Kira is stabilized (check by Bram).');
    expect(result).toMatch(/Injury roll for Kira: \d+/);

    // Both screens say what became of her: stable at 1 HP or more, or dead on the Injury Table's 1 (001), never stale.
    const died = result.includes('Kira is dead');
    const fate = died ? /^Kira died\.$/ : /^Kira is stable \(\d+ HP\)\.$/;
    await expect.poll(() => text(kiraFate)).toMatch(fate);
    await expect.poll(() => text(panel.getByTestId('ally-fate'))).toMatch(fate);
    expect(await kiraHelp.count()).toBe(0);
    // Its purpose gone, the phone's form turns into a done state (review 8: it stayed a form with the result inside):
    // what became of her and the roll's lines, nothing to roll again, and a Close.
    await expect.poll(() => text(form.getByTestId('action-done'))).toMatch(died ? /^Done\. Kira died\.$/ : /^Done\. Kira is stable \(\d+ HP\)\.$/);
    expect(await text(form.getByTestId('action-result'))).toContain('Bram passed stabilizing Kira');
    expect(await form.getByRole('button', { name: /^Roll/ }).count()).toBe(0);
    expect(await form.getByRole('button', { name: 'Again' }).count()).toBe(0);
    expect(await form.getByLabel('Target').count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Bram: Stabilize' }).count()).toBe(0);
    await form.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => panel.getByTestId('action-form').count()).toBe(0);
    await expect.poll(() => text(panel.getByTestId('ally-fate'))).toMatch(fate);

    // The rest of the minute runs out: a Goblin 1 still dying dies, and its line says so.
    const gobStill = (await text(gobFate)).includes('dying');
    if (gobStill) {
      await gm.p.getByRole('button', { name: /^Let the minute run out \(\d+ s\)$/ }).click();
      await expect.poll(() => text(gobFate)).toBe('Goblin 1 died.');
    } else {
      await expect.poll(() => text(gobFate)).toMatch(/^Goblin 1 (is stable \(\d+ HP\)|died)\.$/);
    }
    await expect.poll(() => text(kiraFate)).toMatch(fate);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
