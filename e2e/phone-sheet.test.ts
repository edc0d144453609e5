// A player edits their own sheet from the phone (issue 20), in real Chromium:
// "My sheet" opens a form with only the fields the ruleset lets a player
// change (OSR: load; Daggerheart: none, its slots are marked by buttons), starting from
// the stored values; an out-of-range value is named in place, a good one is
// saved for the GM to see. The Kleptonomicon phone says the GM keeps it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import type { E2e, ProtocolSocket } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('phone-sheet');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** A table with Ann's seat playing Kira, the GM's socket and Ann's phone. */
async function phone(rulesetId: string, stats: object): Promise<{ gm: ProtocolSocket; p: Page; errors: string[]; kira: () => Record<string, unknown> }> {
  const t = await e2e!.table(rulesetId, `Sheets ${rulesetId}`);
  const seat = await e2e!.seat(t, 'Ann');
  const gm = await e2e!.socket(t.gmToken);
  await gm.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats });
  const s = await screen(e2e!.browser, contexts, seat.link, true);
  await s.p.getByTestId('my-character').waitFor();
  await s.p.locator('details.my-sheet > summary').click();
  const kira = () => Object.values(gm.view().world.characters).find((c) => c.name === 'Kira')!.stats as Record<string, unknown>;
  return { gm, p: s.p, errors: s.errors, kira };
}

describe('players edit their own sheet from the phone', () => {
  it('OSR (001 "Encumbrance", "Treasure"): only Load and the coin purse are offered, from the stored 1, the rest shown as the GM keeps it; 201 is refused in place; 3 is saved and the GM sees it', async () => {
    const { p, errors, kira } = await phone('osr', { maxHp: 8, hp: 8, dex: 12, load: 1 });
    const form = p.getByTestId('phone-sheet');
    await expect.poll(() => form.getByTestId('schema-form').locator('input, select, textarea').count()).toBe(4);
    expect(await form.textContent()).toContain('You may change: Loads carried, Copper pieces (cp), Silver pieces (sp), Gold pieces (gp).');
    const load = form.getByLabel(/^Loads carried/);
    expect(await load.inputValue()).toBe('1');
    // The rest is shown, read-only: 001 moves HP by damage, healing and rest and scores by injuries, through the GM (ADR 53).
    const kept = await form.getByTestId('phone-sheet-kept').textContent();
    expect(kept).toMatch(/^Kept by the GM and the rules \(damage, healing, rest, injuries\): /);
    expect(kept).toContain('Dexterity (DEX): 12');
    expect(kept).toContain('Max HP: 8');
    expect(kept).not.toContain('Loads carried');
    await load.fill('201');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => form.getByTestId('schema-form-errors').textContent()).toMatch(/^Loads carried must be from/);
    expect(kira()['load']).toBe(1);
    await load.fill('3');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => form.getByTestId('phone-sheet-saved').textContent()).toBe("Saved Kira's sheet.");
    await expect.poll(() => kira()['load']).toBe(3);
    expect(await axeViolations(p)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('OSR coins weigh (001 "Treasure": 500 to a load): 500 gp in the purse take Kira (STR 10, 10 loads) to 25\' and disadvantage', async () => {
    const { p, errors, kira } = await phone('osr', { maxHp: 8, hp: 8, str: 10, load: 10 });
    const form = p.getByTestId('phone-sheet');
    const carried = form.getByTestId('phone-sheet-carried');
    await expect.poll(() => carried.textContent()).toBe("Carrying 10 loads (10 on the sheet + 0 for 0 coins; purse 0 gp, 0 sp, 0 cp) on STR 10: speed 30'.");
    await form.getByLabel(/^Gold pieces \(gp\)/).fill('500');
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => kira()['gp']).toBe(500);
    await expect.poll(() => carried.textContent()).toBe("Carrying 11 loads (10 on the sheet + 1 for 500 coins; purse 500 gp, 0 sp, 0 cp) on STR 10: speed 25', disadvantage on every check.");
    // Changing 10 gp into 100 sp (10 sp = 1 gp) adds 90 coins: 590 coins start a second load, so 20'.
    const coins = form.getByTestId('phone-coins');
    await coins.getByLabel('How many coins').fill('10');
    await coins.getByLabel('From').selectOption('gp');
    await coins.getByLabel('Into').selectOption('sp');
    await coins.getByRole('button', { name: 'Change coins' }).click();
    await expect.poll(() => carried.textContent()).toBe("Carrying 12 loads (10 on the sheet + 2 for 590 coins; purse 490 gp, 100 sp, 0 cp) on STR 10: speed 20', disadvantage on every check.");
    await expect.poll(() => kira()['sp']).toBe(100);
    // Coins she does not hold are refused in words.
    await coins.getByLabel('How many coins').fill('5');
    await coins.getByLabel('From').selectOption('cp');
    await coins.getByRole('button', { name: 'Change coins' }).click();
    await expect.poll(() => coins.getByRole('status').textContent()).toContain("Kira's purse holds 0 cp, not 5");
    expect(await axeViolations(p)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('Daggerheart (review 13 #1): no number to type, so marked HP, Stress and Armor cannot be cleared nor Hope raised around the GM; Stress is marked by its button, never cleared; the log names what the GM changed', async () => {
    const { gm, p, errors, kira } = await phone('daggerheart', { major: 7, severe: 14, hpMax: 6, stressMax: 6, armorMax: 2 });
    await expect.poll(() => p.getByTestId('phone-sheet-none').textContent()).toBe('Your GM keeps every number on this sheet; ask them for changes.');
    expect(await p.locator('details.my-sheet input').count()).toBe(0);
    // The trackers: a + to mark Stress and Armor, no − to clear them (a rest, a move or the GM clears).
    await p.getByRole('button', { name: 'Mark Stress for Kira' }).click();
    await expect.poll(() => kira()['stressMarked']).toBe(1);
    expect(await p.getByRole('button', { name: /^Clear (Stress|Armor|HP) for Kira$/ }).count()).toBe(0);
    const id = Object.values(gm.view().world.characters).find((c) => c.name === 'Kira')!.id;
    await gm.command({ type: 'character.sheet.set', characterId: id, sheet: { hpMarked: 1 }, patch: true });
    await expect.poll(() => p.getByTestId('log').textContent()).toContain("Kira's sheet was updated: HP marked 0 → 1.");
    expect(errors).toEqual([]);
  });

  it('the Kleptonomicon: the phone says the GM keeps every number', async () => {
    const { p, errors } = await phone('kleptonomicon', {});
    await expect.poll(() => p.getByTestId('phone-sheet-none').textContent()).toBe('Your GM keeps every number on this sheet; ask them for changes.');
    expect(errors).toEqual([]);
  });
});
