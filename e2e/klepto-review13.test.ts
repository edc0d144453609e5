// Review 13's Kleptonomicon findings, in real Chromium as the reviewer met
// them: a foe typed in the encounter builder carries its Basic Attack (#3: it
// opened at "0% to hit … no damage dice" every time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { oddsOf, openAction } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('klepto-review13');
});
afterAll(async () => {
  await e2e?.close();
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Kleptonomicon review 13', () => {
  it("#3: Goblin typed in the builder with a Basic Attack +3 and 1d6+1 attacks Kira (Defense 12) at 15%, its form starting from those numbers; bad dice are refused in words", async () => {
    const made = await e2e!.table('kleptonomicon', 'Klepto13');
    const seat = await e2e!.seat(made, 'Alice');
    const sock = await e2e!.socket(made.gmToken);
    // Kira's Edge Save +9 passes whatever the die: she acts first, the goblin next.
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 9, defense: 12, hp: 10, maxHp: 10 } });
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });

    const form = gm.p.getByRole('form', { name: 'Add to the next encounter' });
    await form.getByLabel('Name', { exact: true }).fill('Goblin');
    await form.getByLabel('Defense', { exact: true }).fill('11');
    await form.getByLabel('HP', { exact: true }).fill('6');
    await form.getByLabel('Basic Attack modifier').fill('3');
    await form.getByLabel('Basic Attack damage').fill('lots');
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    await expect.poll(() => text(gm.p.getByTestId('builder-error'))).toBe('Basic Attack damage must be dice such as 1d6+1 (at most 20 dice of 2 to 100 sides, a bonus up to 100), or a number up to 100.');
    await form.getByLabel('Basic Attack damage').fill('1d6+1');
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    const lined = gm.p.getByTestId('builder-rows').locator('li').filter({ hasText: 'Goblin' });
    await expect.poll(() => text(lined)).toContain('6 HP · Defense 11 · Basic Attack +3, 1d6+1');

    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Now acting: Kira');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('now-acting'))).toContain('Now acting: Goblin');
    const attack = await openAction(gm.p, 'Basic Attack');
    expect(await attack.getByLabel('Modifier').inputValue()).toBe('3');
    expect(await attack.getByLabel(/^Damage on a hit/).inputValue()).toBe('1d6+1');
    await attack.getByLabel('Target').selectOption({ label: 'Kira (Defense 12)' });
    // d10 + 3 reaches 12 on a 9 (2 in 20) or a won 10 (1 in 20): 3/20.
    await oddsOf(attack, '15% to hit');
    expect(await text(attack.getByTestId('action-odds'))).toContain('1d6+1 damage');
    expect(gm.errors).toEqual([]);
  }, 240_000);
});
