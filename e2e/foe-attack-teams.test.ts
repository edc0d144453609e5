// A teams foe attacks from its stat block, by clicking (issue 20, ADR 40):
// the GM makes a Raider in the bestiary form (strength d6, combat d6, martial
// +1, a spear of 4 that crits on 19+, stamina 4), lines it up, rolls
// initiative and, on the Raider's turn, attacks Boudica (evasion 5) with it:
// the odds (2d6 + 1 >= 5 on 33 of 36, or a luck 19+: 92.5%) come before the
// roll. Bo's phone reads the verdict, never the Raider's result or dice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen } from './actions-flow.ts';
import { startE2e, whoStarts, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { nowActing } from './web.ts';
import { spear } from '../packages/rulesets/test/teams/helpers.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('foe-attack-teams');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe("a teams foe's attack from its stat block", () => {
  it('the Raider attacks Boudica with its spear, odds first; the phone reads the verdict only', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    const boudica = n.idOf('Boudica');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: boudica, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { spear: { name: 'spear', weapon: spear } } } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The stat block, by the bestiary's form: dice are picked, numbers typed.
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Raider');
    const typed = [[/^Team/, 'Foes'], [/^Evasion/, '6'], [/^Endurance/, '10'], [/^Health/, '10'], [/^Constitution/, '3'], [/^Stamina/, '4'], [/^Martial/, '1'], ['Weapon (optional)', 'Spear'], [/^Weapon damage/, '4'], [/^Critical damage/, '8'], [/^Critical threshold/, '19']] as const;
    for (const [label, v] of typed) await form.getByLabel(label, typeof label === 'string' ? { exact: true } : {}).fill(v);
    await form.getByLabel(/^Strength/).selectOption('d6');
    await form.getByLabel(/^Combat/).selectOption('d6');
    await form.getByLabel(/^Damage type/).selectOption('piercing');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const raider = best.getByTestId('bestiary-entry').filter({ hasText: 'Raider' });
    await expect.poll(() => text(raider)).toContain('Weapon Spear');

    await raider.getByRole('button', { name: 'Line up Raider' }).click();
    await gm.p.getByTestId('builder-rows').getByText('Raider').waitFor();
    await whoStarts(gm.p, 'Party');
    await gm.p.getByTestId('roll-initiative').click();
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => order.getByTestId('combatant').count(), { timeout: 15_000 }).toBe(2);
    // The players' team goes first (Boudica), then the Raider.
    await expect.poll(() => nowActing(gm.p), { timeout: 15_000 }).toBe('Now acting: Boudica');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Raider');

    // Attack with the block's spear: d6 + d6 + martial 1 against evasion 5 (both medium): 33/36 + 3/36 x 2/20 = 92.5%; a luck 19+ crits (10%).
    const attack = await openAction(gm.p, 'Attack');
    await attack.getByLabel('Target').selectOption({ label: 'Boudica' });
    expect(await attack.getByLabel('Weapon').locator('option').allTextContents()).toEqual(['Spear (in hand)']);
    await expect.poll(() => text(attack.getByTestId('action-odds').locator('strong')), { timeout: 10_000 }).toMatch(/^92\.5% to hit · 10(\.0)?% critical$/);
    const result = await roll(attack, 'Roll: Attack');
    // The GM reads the dice as 003's examples tell them: attribute die, combat die, martial +1, the luck die.
    const m = /Raider attacked Boudica: strength \d+ \+ combat \d+ \+1 = (\d+) with luck \d+ against evasion 5, (a hit|a miss|a critical hit)/.exec(result);
    expect(m, result).not.toBeNull();

    // Bo's phone: the verdict, no dice or result; no frame carries the Raider's block or test.
    await expect.poll(() => text(bo.p.getByTestId('log'))).toContain(`Raider attacked Boudica: ${m![2]}`);
    expect(await text(bo.p.getByTestId('log'))).not.toContain(`${m![1]} with luck`);
    expect(await text(bo.p.getByTestId('log'))).not.toContain('strength');
    expect(bo.frames.filter((f) => ['"weaponDamage"', '"maxStamina":4', '"stamina":4'].some((k) => f.includes(k)))).toEqual([]);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(bo.p)).toEqual([]);
    expect([...gm.errors, ...bo.errors]).toEqual([]);
  });
});
