// Issue 20, review 6's OSR items (ADR 53), played in real Chromium by clicking:
// - a PC at 0 HP cannot act: the phone offers no Attack or Quick action, and
//   the damage line reads as a sentence (001 "Death & Injury");
// - the morale form on a goblin's turn ticks every goblin, shows the exact
//   odds with the morale bonus before the roll, and logs the side's roll
//   (001 "Morale Checks", "Side, Group, or Individual");
// - at End the table reads how long the PC has left (001: a minute, or the
//   fight's end, whichever is later); the GM lets the minute run out, the
//   phone shows the PC dead, and the next line-up leaves the dead out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-death-morale');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('OSR: death after a short fight, morale for a side, a PC who cannot act (ADR 53)', () => {
  it('Bram falls; the goblins check morale as a side with odds first; at End Bram has 54 s; the minute runs out, his phone shows him dead and the next line-up leaves him out', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 10, hp: 10, dex: 14, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', seatId: n.seatId, stats: { maxHp: 9, hp: 9, dex: 12, ac: 12 } });
    for (const g of ['Goblin 1', 'Goblin 2', 'Goblin 3']) await n.gmSock.command({ type: 'character.add', name: g, kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 10, wis: 12, moraleBonus: 2 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { name: 'Bram', kind: 'pc', side: 'party', characterId: n.idOf('Bram') },
        ...['Goblin 1', 'Goblin 2', 'Goblin 3'].map((g) => ({ name: g, kind: 'npc' as const, side: 'foes', characterId: n.idOf(g) })),
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Kira');

    // The damage box drops Bram to 0 HP: a sentence, not "9 damage (9) from damage".
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    const bramRow = order.getByTestId('combatant').filter({ hasText: 'Bram' });
    await bramRow.getByText('Adjust Bram').click();
    await bramRow.getByLabel('Amount for Bram').fill('9');
    await bramRow.getByRole('button', { name: 'Damage Bram' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Bram takes 9 damage: HP 9 → 0.');
    expect(await text(gm.p.getByTestId('log'))).not.toContain('Bram: HP 9 → 0');
    expect(await text(gm.p.getByTestId('log'))).not.toContain('(9) from damage');
    // Bram's phone: he cannot act, so no Attack or Quick action is offered.
    await expect.poll(() => text(ann.p.getByTestId('actions-unable'))).toBe('Bram is at 0 HP and cannot act.');
    expect(await ann.p.getByRole('group', { name: 'Actions Bram can take now' }).getByRole('button').count()).toBe(0);
    await expect.poll(() => text(ann.p.getByTestId('my-character'))).toMatch(/HP 0\/9 ?down ?dying/);

    // Kira's turn ends; Bram cannot act and is passed over: Goblin 1 acts.
    await gm.p.getByTestId('next-turn').click();
    // Exactly (the line names who is on deck too, so a looser wait could pass before the turn moved).
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Goblin 1');

    // The morale form: every goblin ticked (not only the acting one), Kira offered after; the odds before the roll.
    const morale = await openAction(gm.p, 'Morale check');
    await expect.poll(() => morale.getByLabel('Target').inputValue()).toBe(n.idOf('Goblin 1'));
    const more = morale.getByTestId('action-more-targets');
    await expect.poll(() => more.getByLabel('Goblin 2').isChecked()).toBe(true);
    expect(await more.getByLabel('Goblin 3').isChecked()).toBe(true);
    expect(await text(more)).toContain('Kira (PC: rolls alone)');
    expect(await more.getByRole('checkbox', { name: /Kira/ }).isChecked()).toBe(false);
    // d20 + WIS 12 (+1) + morale bonus 2 >= DC 11: a d20 of 8 or more, 13 faces of 20.
    await expect.poll(() => text(morale.getByTestId('action-odds')), { timeout: 10_000 }).toMatch(/Goblin 1: 65% to stand and fight ?d20 \+1 WIS \+2 morale bonus vs DC 11/);
    const rolled = await roll(morale, 'Roll: Morale check');
    expect(rolled).toMatch(/Morale for the foes, Goblin 1 rolling for 3 \(the GM called for it\): d20 \d+ \+3 = \d+ vs 11: they (stand and fight|surrender or flee)\./);

    // End after one round: 6 s on the clock, so Bram has the other 54 s of his minute, and the table reads it.
    await gm.p.getByTestId('end-encounter').click();
    const left = 'The fight is over and Bram is still at 0 HP: dead unless stabilized within 54 s (the rest of the minute).';
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain(left);
    await expect.poll(() => text(gm.p.getByTestId('left-dying').getByRole('status'))).toBe('Bram is dying: 54 s left to stabilize.');
    expect(await text(ann.p.getByTestId('log'))).not.toContain('The fight is over after');

    // Nobody stabilizes him: the GM lets the minute run out and the engine says he died.
    await gm.p.getByRole('button', { name: 'Let the minute run out (54 s)' }).click();
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Bram is dead (not stabilized in time).');
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 00:01');
    await expect.poll(() => text(ann.p.getByTestId('my-character'))).toMatch(/HP 0\/9 ?dead/);
    // The summary says so, not the stale "54 s left" (review 7).
    await expect.poll(() => text(gm.p.getByTestId('left-dying').getByRole('status'))).toBe('Bram died.');
    expect(await text(ann.p.getByTestId('my-character'))).not.toContain('down');

    // The next line-up: Kira, not the dead Bram, who can still be picked by hand and is marked dead.
    const rows = gm.p.getByTestId('builder-rows');
    await expect.poll(() => text(rows)).toContain('Kira');
    expect(await text(rows)).not.toContain('Bram');
    expect(await gm.p.locator('#build-char option').allTextContents()).toContain('Bram (dead)');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
