// Review 9 in Chromium, as the reviewer played it: the OSR condition picker
// offers 001's states (not only Concentrating), with no stacks box for a
// condition that has none; Flanked gives Kira's attack advantage; the phone's
// damage field says what is added, the odds say "1d6 + DEX 3", the result and
// both logs show the dice; an OSR character at 1/8 HP shows no "bloodied" chip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-conditions-damage');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('OSR conditions and damage in words', () => {
  it('the picker lists 001 states, Flanked gives advantage, the damage says DEX 3 and shows its dice; no bloodied', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { str: 10, dex: 16, int: 10, wis: 10, maxHp: 8, hp: 1, ac: 14 } });
    // AC 1: d20 + 3 always reaches it, so the attack hits and its damage line is there to read.
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { dex: 10, ac: 1, maxHp: 40, hp: 40 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin') },
      ],
    });
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // Kira at 1/8 HP: no "bloodied" (003's word) on the GM's row or her phone.
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    const kiraRow = order.getByTestId('combatant').filter({ hasText: 'Kira' });
    await expect.poll(() => text(kiraRow)).toContain('1/8');
    expect(await text(kiraRow)).not.toMatch(/bloodied/i);
    await expect.poll(() => text(ann.p.getByTestId('my-character'))).toContain('1/8');
    expect(await text(ann.p.getByTestId('my-character'))).not.toMatch(/bloodied/i);

    // The picker: 001's states; Concentrating and Flanked have no stacks box.
    const gobRow = order.getByTestId('combatant').filter({ hasText: 'Goblin' });
    await gobRow.getByText('Adjust Goblin').click();
    const pick = gm.p.getByRole('form', { name: 'Apply a condition to Goblin' });
    await pick.getByLabel('Condition for Goblin').waitFor();
    expect(await pick.getByLabel('Condition for Goblin').locator('option').allTextContents()).toEqual([
      'Concentrating',
      'In stealth (cannot be targeted)',
      'Exhausted',
      'Injured (disadvantage on all checks)',
      'Incapacitated',
      'Flanked (attacks against it have advantage)',
      'Other (type a name)',
    ]);
    expect(await pick.getByLabel('Stacks for Goblin').count()).toBe(0);
    await pick.getByLabel('Condition for Goblin').selectOption('flanked');
    await pick.getByLabel('Duration for Goblin').selectOption('encounterEnd');
    expect(await pick.getByLabel('Stacks for Goblin').count()).toBe(0);
    await pick.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => text(gobRow)).toContain('Flanked');

    // The phone's attack: the damage field names what is added per kind; the odds say the formula and the advantage.
    const form = await openAction(ann.p, 'Attack');
    await form.getByLabel('Kind').selectOption('ranged');
    expect(await form.getByLabel('Damage dice, before the ability modifier (melee + STR 0; ranged + DEX 3; arcane + INT 0; divine + WIS 0)').inputValue()).toBe('1d6');
    await expect.poll(() => text(form.getByTestId('action-odds'))).toContain('damage 1d6 + DEX 3');
    expect(await text(form.getByTestId('action-odds'))).toContain('advantage');
    const result = await roll(form, 'Roll: Attack');
    expect(result).toMatch(/(hit|a critical hit) for \d+ \(1d6 \[[1-6]\] \+ DEX 3/);
    const line = result.match(/Kira attacked Goblin[^.]*\)/)![0];
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain(line.replace(/ \(ranged\)/, ' (ranged, AC 1)'));
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  }, 240_000);
});
