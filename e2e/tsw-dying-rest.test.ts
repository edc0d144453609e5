// Review 7's 36th Way dying PC, in real Chromium by clicking (ADR 55): Kira
// is at -3 HP, dying, when the GM presses End encounter. The log on both
// screens says she is dying; the quick rest form starts her on one recovery
// and says why (002 "Dying and Death": any healing brings a dying character
// back, counted from 0 HP; "Quick Rest"); the rest brings her back and her
// phone shows her HP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-dying-rest');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('36th Way: a PC dying at End is named and the quick rest brings her back (ADR 55)', () => {
  it('End says Kira is dying; the quick rest spends one recovery for her by default (average 1d10 = 5, from 0 HP); her phone shows HP 5/20', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, maxHp: 20, recoveries: 8, maxRecoveries: 8, recoveryDice: { count: 1, sides: 10 } } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', level: 2, ac: 14, pd: 13, md: 10, maxHp: 20 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'slow', characterId: n.idOf('Kira') },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'fast' },
      ],
    });
    await n.gmSock.command({ type: '36th-way.damage', target: 'kira', amount: 23 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => text(ann.p.getByTestId('my-character'))).toMatch(/HP -3\/20/);

    // End: the log says who is dying and what saves her, on the GM's screen and on her phone.
    await gm.p.getByTestId('end-encounter').click();
    const line = 'Kira is still dying (-3 HP): any healing brings them back, counted from 0 HP; a recovery at the quick rest will do.';
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain(line);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain(line);

    // The quick rest: her box starts on one recovery, with the reason beside it.
    const clock = gm.p.locator('.area-clock');
    const box = clock.getByLabel('Kira: dying at HP -3/20, 8 of 8 recoveries (each heals 1d10)');
    await expect.poll(() => box.inputValue()).toBe('1');
    expect(await text(clock)).toContain('Kira is dying: a recovery brings them back, counted from 0 HP.');
    // The average of 1d10 is 5 (002: rounded down), counted from 0 HP, not from -3.
    await clock.getByLabel(/Take the average/).check();
    await clock.getByRole('button', { name: 'Quick rest', exact: true }).click();
    await expect.poll(() => text(clock.getByTestId('rest-result'))).toContain('back from dying');
    await expect.poll(() => text(clock)).toContain('Kira: HP 5/20, 7 of 8 recoveries');
    await expect.poll(() => text(ann.p.getByTestId('my-character'))).toMatch(/HP 5\/20/);
    expect(await text(ann.p.getByTestId('my-character'))).not.toContain('dying');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
