// The phone's "Your character" reads HP where the rules keep it (issue 20):
// a 36th Way hero's HP lives on the ruleset's sheet, so after the GM deals
// damage the phone's header and the tracker agree (they said 30/30 and
// 12/30 side by side before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterNamed, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('phone-own-hp');
});
afterAll(async () => {
  await e2e?.close();
});

describe("the phone's own HP", () => {
  it("36th Way: the hero's header follows the sheet's HP, in and out of a fight", async () => {
    const t = await e2e!.table('36th-way', 'Own HP');
    const seat = await e2e!.seat(t, 'Ann');
    const gm = await e2e!.socket(t.gmToken);
    await gm.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: seat.seatId });
    const vesk = characterNamed(gm, 'Vesk');
    await gm.command({ type: 'character.sheet.set', characterId: vesk, sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const ann = await e2e!.open(seat.link, { width: 390, height: 844 }, { phone: true });
    const me = ann.p.getByTestId('my-character');
    await expect.poll(() => me.textContent()).toContain('HP 30/30');
    // 18 damage on the sheet: 30 - 18 = 12, staggered in 002's terms (at or below half).
    await gm.command({ type: '36th-way.damage', targetId: vesk, amount: 18 });
    await expect.poll(() => me.textContent()).toContain('HP 12/30');
    await gm.command({ type: 'encounter.start', combatants: [{ id: vesk, name: 'Vesk', kind: 'pc', side: 'party', characterId: vesk, band: 'fast' }, { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' }] });
    await expect.poll(() => ann.p.getByRole('list', { name: 'Turn order' }).textContent()).toContain('HP 12/30');
    expect(await me.textContent()).toContain('HP 12/30');
    expect(await me.textContent()).not.toContain('30/30');
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
