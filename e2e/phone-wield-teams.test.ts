// A teams player chooses what Kira holds from her phone (issue 20, GM review:
// "wielded 1" was free text that had to equal an item's key): the phone's
// sheet form offers her own items by name, and what she picks reaches the GM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('phone-wield-teams');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('teams: the phone picks what is wielded from the sheet', () => {
  it("Kira's phone offers her sword and dagger by name; adding the dagger reaches the GM's sheet", async () => {
    const t = await e2e!.table('teams', 'Wield');
    const seat = await e2e!.seat(t, 'Ann');
    const gm = await e2e!.socket(t.gmToken);
    await gm.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId });
    const kiraId = Object.values(gm.view().world.characters).find((c) => c.name === 'Kira')!.id;
    await gm.command({ type: 'character.sheet.set', characterId: kiraId, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, maxHealth: 10, items: { sword: { name: 'Sword', metal: true }, dagger: { name: 'Dagger' } }, wielded: ['sword'] } });
    const s = await screen(e2e!.browser, contexts, seat.link, true);
    await s.p.getByTestId('my-character').waitFor();
    await s.p.locator('details.my-sheet > summary').click();
    const form = s.p.getByTestId('phone-sheet');
    const first = form.getByLabel('wielded 1', { exact: true });
    await expect.poll(() => first.locator('option').allTextContents()).toEqual(['choose…', 'Sword (sword)', 'Dagger (dagger)']);
    expect(await first.inputValue()).toBe('sword');
    await form.getByRole('button', { name: 'add wielded' }).click();
    await form.getByLabel('wielded 2', { exact: true }).selectOption('dagger');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => form.getByTestId('phone-sheet-saved').textContent()).toBe("Saved Kira's sheet.");
    const wielded = () => (gm.view().world.ext['teams'] as unknown as { sheets: { [k: string]: { wielded: string[] } } }).sheets[kiraId]!.wielded;
    await expect.poll(wielded).toEqual(['sword', 'dagger']);
    expect(await axeViolations(s.p)).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
