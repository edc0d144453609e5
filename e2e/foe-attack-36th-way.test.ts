// A 36th Way foe attacks from its stat block, by clicking (issue 20, ADR 40):
// the GM makes an Orc Raider in the bestiary form ("Spear +7 vs AC, 2d6;
// miss 3"), lines it up, rolls initiative, moves it to engage Vesk and opens
// its Spear: the odds (+7 vs AC 15: natural 8+, 181 of 216) come before the
// roll, the log has the roll with a total 7 above the natural, and Vesk's HP
// drop by 2d6 or 3. Ann's phone reads the natural roll and the outcome, never
// the total, the bonus or the block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('foe-attack-tsw');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe("a 36th Way foe's attack from its stat block", () => {
  it('the Orc Raider attacks Vesk with its Spear at +7, odds first; the phone never reads the bonus', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Vesk'), sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The stat block, by the bestiary's form.
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Orc Raider');
    for (const [label, v] of [[/^HP/, '20'], [/^Level/, '2'], [/^AC/, '16'], [/^PD/, '14'], [/^MD/, '11'], [/^Attack name/, 'Spear'], [/^Attack bonus/, '7'], [/^Hit damage/, '2d6'], [/^Miss damage/, '3']] as const) await form.getByLabel(label).fill(v);
    await form.getByLabel(/^Initiative band/).selectOption('slow');
    await form.getByLabel(/^Attack against/).selectOption('ac');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const orc = best.getByTestId('bestiary-entry').filter({ hasText: 'Orc Raider' });
    await expect.poll(() => text(orc)).toContain('Attack bonus 7');

    // Lined up and started: Vesk acts first (PCs before the slow band), then the Raider.
    await orc.getByRole('button', { name: 'Line up Orc Raider' }).click();
    await gm.p.getByTestId('builder-rows').getByText('Orc Raider').waitFor();
    await gm.p.getByTestId('roll-initiative').click();
    const sheetOf = () => Object.values((n.gmSock.view().world.ext['36th-way'] as { sheets: Record<string, { name: string; abilities: Record<string, { name: string }> }> }).sheets).find((s) => s.name === 'Orc Raider');
    await expect.poll(() => Object.values(sheetOf()?.abilities ?? {}).map((x) => x.name), { timeout: 15_000 }).toEqual(['Spear']);
    await expect.poll(() => nowActing(gm.p), { timeout: 15_000 }).toBe('Now acting: Vesk');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Orc Raider');

    // It moves to engage Vesk; then its panel offers the Spear, not the PCs' level-derived basic attack.
    const panel = gm.p.getByTestId('actions-panel');
    const move = await openAction(gm.p, 'Move');
    await move.getByLabel('To be').selectOption('engaged');
    expect(await roll(move, 'Move')).toContain('Orc Raider');
    await expect.poll(() => panel.getByRole('button', { name: /^Spear \(/ }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: /^Attack \(/ }).count()).toBe(0);

    // +7 vs AC 15 needs a natural 8: 181 of 216 (83.8%); 17+ crits (4 of 216), a natural 3 crit-fails (1 of 216).
    const spear = await openAction(gm.p, 'Spear');
    await expect.poll(() => spear.getByLabel('Target').locator('option').allTextContents()).toEqual(['Vesk (engaged)']);
    await oddsOf(spear, '83.8% to hit · 1.9% crit · 0.5% crit fail');
    const result = await roll(spear, 'Roll: Spear');
    const m = /Orc Raider attacked Vesk \(AC 15\): natural (\d+), total (\d+); (hit|crit|missed|crit-failed)/.exec(result);
    expect(m, result).not.toBeNull();
    expect(Number(m![2]) - Number(m![1])).toBe(7);
    // 2d6 on a hit (a crit doubles it), 3 on a miss, nothing on a crit fail: never Level x the stance dice' d8.
    const lost = { hit: [2, 12], crit: [4, 24], missed: [3, 3], 'crit-failed': [0, 0] }[m![3] as 'hit' | 'crit' | 'missed' | 'crit-failed'];
    if (lost[1]! > 0) {
      await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Vesk took \d+ damage/);
      const dealt = Number(/Vesk took (\d+) damage/.exec(await text(gm.p.getByTestId('log')))![1]);
      expect(dealt).toBeGreaterThanOrEqual(lost[0]!);
      expect(dealt).toBeLessThanOrEqual(lost[1]!);
    }

    // Ann's phone: the natural roll and the outcome, no total; no frame carries the block or the attack's bonus.
    const natural = `natural ${m![1]}`;
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain(`Orc Raider attacked Vesk (AC 15): ${natural};`);
    expect(await text(ann.p.getByTestId('log'))).not.toContain(`total ${m![2]}`);
    expect(ann.frames.filter((f) => ['"attackBonus"', 'wholeBonus', '"parts"', '"missDamage"'].some((k) => f.includes(k)))).toEqual([]);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
