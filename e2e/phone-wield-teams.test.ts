// A teams player chooses what Kira holds from her phone (issue 20, GM reviews 7
// and 10): the phone's sheet form has one box per item of hers, by name; what
// she ticks reaches the GM, and her Attack offers the weapons in hand first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { openAction, screen, startE2e } from './actions-flow.ts';
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
  it("Kira's phone ticks what she holds among her own items; the GM's sheet and her Attack's weapon list follow it", async () => {
    const t = await e2e!.table('teams', 'Wield');
    const seat = await e2e!.seat(t, 'Ann');
    const gm = await e2e!.socket(t.gmToken);
    await gm.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId });
    const kiraId = Object.values(gm.view().world.characters).find((c) => c.name === 'Kira')!.id;
    const blade = { attributes: ['strength'], proficiencies: ['martial'], damage: 3, criticalDamage: 6, criticalThreshold: 19, damageType: 'slashing' };
    await gm.command({
      type: 'character.sheet.set',
      characterId: kiraId,
      sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, maxHealth: 10, items: { sword: { name: 'Sword', metal: true, weapon: blade }, dagger: { name: 'Dagger', weapon: { ...blade, damage: 2 } } }, wielded: ['sword'] },
    });
    const s = await screen(e2e!.browser, contexts, seat.link, true);
    await s.p.getByTestId('my-character').waitFor();
    await s.p.locator('details.my-sheet > summary').click();
    const form = s.p.getByTestId('phone-sheet');
    // One box per item of hers, the sword ticked (review 10: "wielded 1" and "add wielded" hid what she held).
    const wielded = form.getByRole('group', { name: 'Wielded' });
    await expect.poll(() => wielded.getByRole('checkbox').count()).toBe(2);
    expect(await wielded.getByLabel('Sword (sword)').isChecked()).toBe(true);
    expect(await wielded.getByLabel('Dagger (dagger)').isChecked()).toBe(false);
    await wielded.getByLabel('Sword (sword)').uncheck();
    await wielded.getByLabel('Dagger (dagger)').check();
    await form.getByRole('button', { name: "Save Kira's sheet" }).click();
    await expect.poll(() => form.getByTestId('phone-sheet-saved').textContent()).toBe("Saved Kira's sheet.");
    const held = () => (gm.view().world.ext['teams'] as unknown as { sheets: { [k: string]: { wielded: string[] } } }).sheets[kiraId]!.wielded;
    await expect.poll(held).toEqual(['dagger']);
    expect(await axeViolations(s.p)).toEqual([]);

    // In a fight, her Attack offers the dagger in hand first, the sword as not in hand.
    await gm.command({
      type: 'encounter.start',
      combatants: [
        { id: kiraId, kind: 'pc', side: 'players', characterId: kiraId },
        { id: 'raider', kind: 'npc', side: 'raiders' },
      ],
      params: { teamOrder: ['players', 'raiders'] },
    });
    await gm.command({ type: 'character.sheet.set', characterId: 'raider', sheet: { name: 'Raider', evasion: 6, attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    const attack = await openAction(s.p, 'Attack');
    expect(await attack.getByLabel('Weapon').locator('option').allTextContents()).toEqual(['Dagger (in hand)', 'Sword (not in hand)']);
    expect(s.errors).toEqual([]);
  });
});
