// "You are hit" on a teams table in real Chromium (003 "Defensive Actions",
// ADR 42): the GM's Bandit hits Kira; her phone (and the GM) get Take it /
// Parry / Block / Dodge with what each leaves; the phone parries with her
// sword and the log says so. Then Brandish on her turn, and an unconscious
// Kira's phone offers nothing live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('hit-choice-teams');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

type Pending = { id: string; result: number; weaponDamage: number; critical: boolean };

describe('teams: the phone answers a hit', () => {
  it('Bandit hits Kira; the phone sees the choices with their odds, parries with the sword, and the log says what happened', async () => {
    const n = await night(e2e!, 'teams', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const club = { attributes: ['strength'], damage: 4, criticalDamage: 6, damageType: 'bludgeoning' };
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'bandit', kind: 'npc', side: 'bandits' },
        { id: 'kira', kind: 'pc', side: 'players', characterId: n.idOf('Kira') },
      ],
      params: { teamOrder: ['bandits', 'players'] },
    });
    // Sheets address creatures: the bandit is one once the fight adds it; Kira's sheet is kept under the combatant playing her.
    // Evasion 0: every attack hits, so the test never waits on a lucky miss.
    await n.gmSock.command({
      type: 'character.sheet.set',
      characterId: n.idOf('Kira'),
      sheet: { attributes: { strength: 6, dexterity: 8 }, skills: { combat: 6, athletics: 4 }, evasion: 0, deflection: { physical: 1 }, constitution: 4, maxEndurance: 30, maxHealth: 12, maxStamina: 2, items: { sword: { name: 'sword', metal: true, parry: 2 }, dagger: { name: 'dagger' } }, wielded: ['sword'] },
    });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'bandit', sheet: { name: 'Bandit', attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 3, maxEndurance: 10, maxHealth: 10, items: { club: { name: 'club', weapon: club } }, wielded: ['club'] } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The GM plays the Bandit's turn by clicking: Attack, Kira, the club.
    const attack = await openAction(gm.p, 'Attack');
    expect(await attack.getByLabel('Target').locator('option').allTextContents()).toEqual(['Kira']);
    await roll(attack, 'Roll: Attack');

    // Kira's phone is asked before the damage lands; so is the GM (for an absent player).
    const prompt = ann.p.getByTestId('reaction-prompt');
    await expect.poll(() => prompt.textContent()).toContain('Bandit hit Kira');
    await expect.poll(() => gm.p.getByTestId('reaction-prompt').textContent()).toContain('Bandit hit Kira');
    const pending = Object.values((n.gmSock.view().world.ext['teams'] as unknown as { pending: { [k: string]: Pending } }).pending)[0]!;
    const raw = pending.result + pending.weaponDamage;
    // Both of Kira's size 4: taking it, her deflection 1 stands; a parry with the sword adds its parry value 2 (003 "Parry"); at least 1 lands.
    const taken = Math.max(1, raw - 1);
    const parried = Math.max(1, raw - 3);
    await expect.poll(async () => (await prompt.getByRole('radiogroup').locator('label').allTextContents()).map((t) => t.trim())).toEqual(['Take it (nothing)', 'Parry (the reaction, 1 stamina)', 'Block (the reaction, 1 stamina)', 'Dodge (the reaction, 1 stamina)']);
    // No button until an answer is picked, then one, the answer's own (review 10: a "Take it" toggle above a "Take it" submit).
    expect(await prompt.getByRole('button').count()).toBe(0);
    // Nothing she holds can block: the button says why.
    expect(await prompt.getByRole('radio', { name: /^Block/ }).isDisabled()).toBe(true);
    await expect.poll(() => prompt.textContent()).toContain('Block: not now, Kira wields nothing with the block property');

    await prompt.getByRole('radio', { name: /^Take it/ }).check();
    const takeForm = prompt.getByTestId('action-form');
    await oddsOf(takeForm, `Takes ${taken} damage`);
    expect(await prompt.getByRole('button').allTextContents()).toEqual(['Take it']);
    await prompt.getByRole('radio', { name: /^Parry \(/ }).check();
    const form = prompt.getByTestId('action-form');
    expect(await form.getByLabel('With').locator('option').allTextContents()).toEqual(['sword (parry 2, durability 10)']);
    await oddsOf(form, `Takes ${parried} damage`);
    await expect.poll(() => form.getByTestId('action-odds').textContent()).toContain('sword durability 10 to 9');
    // A dodge is a test against the attack's result, with its chance; a critical (a luck 20, 1 in 20) cannot be dodged, and the button says so.
    if (pending.critical) {
      expect(await prompt.getByRole('radio', { name: /^Dodge \(/ }).isDisabled()).toBe(true);
      await expect.poll(() => prompt.textContent()).toContain('Dodge: not now, a critical hit cannot miss, so it cannot be dodged');
      // Parry's form is the open one: switch away so the pick below opens it afresh.
      await prompt.getByRole('radio', { name: /^Take it/ }).check();
      await oddsOf(prompt.getByTestId('action-form'), `Takes ${taken} damage`);
    } else {
      await prompt.getByRole('radio', { name: /^Dodge \(/ }).check();
      await expect.poll(() => prompt.getByTestId('action-odds').locator('strong').textContent()).toMatch(/% to avoid it$/);
    }
    expect(await axeViolations(ann.p)).toEqual([]);

    await prompt.getByRole('radio', { name: /^Parry \(/ }).check();
    await prompt.getByTestId('action-form').getByRole('button', { name: 'Parry', exact: true }).click();
    // One hit, one line (ADR 81): the parry names the damage and its result.
    const line = `Kira parried with the sword (+2) and takes ${parried} of ${raw} bludgeoning damage: ${parried} off endurance; endurance ${30 - parried}`;
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain(line);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain(line);
    await expect.poll(() => ann.p.getByTestId('reaction-prompt').count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('reaction-prompt').count()).toBe(0);
    const kira = () => (n.gmSock.view().world.ext['teams'] as unknown as { sheets: { [k: string]: { endurance: number; stamina: number; wielded: string[]; items: { [k: string]: { durability: number } } } } }).sheets['kira']!;
    await expect.poll(() => kira().endurance).toBe(30 - parried);
    expect(kira().stamina).toBe(1);
    expect(kira().items['sword']!.durability).toBe(9);

    // Kira's turn: Brandish picks from her own items by clicking.
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => ann.p.getByTestId('actions-panel').textContent()).not.toContain('(off turn)');
    const brandish = await openAction(ann.p, 'Brandish');
    expect(await brandish.getByLabel('Hold').locator('option').allTextContents()).toEqual(['sword (held now)', 'dagger']);
    await brandish.getByLabel('dagger').check();
    await roll(brandish, 'Brandish');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Kira now holds sword and dagger.');
    expect(kira().wielded).toEqual(['sword', 'dagger']);

    // Knocked out: her phone lists nothing she may do now, and says why.
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Kira'), sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, maxHealth: 12, health: 0, conscious: false } });
    await expect.poll(() => ann.p.getByTestId('actions-panel').textContent()).toContain('Nothing left to do this turn.');
    await ann.p.getByTestId('actions-panel').locator('summary', { hasText: /^Not now \(/ }).click();
    await expect.poll(() => ann.p.getByTestId('actions-blocked').textContent()).toContain('Fortify: Kira is unconscious');
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
