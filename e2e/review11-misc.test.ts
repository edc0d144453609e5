// Review 11's remaining confusing items in real Chromium (teams): the invite's
// quick PC gets endurance and stamina (#14); a foe's Attack marks its own side
// (#12); a PC without a combat skill is told before any form that Attack needs
// one, and can attack once the sheet gives it (#7); at End the GM reads who
// fell and who stands (#11); the top bar stays on one line at 1280 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { openAction, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('review11-misc');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

type Teams = { sheets: { [k: string]: { endurance: number; maxEndurance: number; stamina: number; maxStamina: number; maxHealth: number } } };

describe('teams, review 11', () => {
  it('invite asks for endurance and stamina; the goblin sees its ally marked; Kira learns Attack needs a combat skill, then attacks', async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Review 11', rulesetId: 'teams' });
    const gmSock = await e2e!.socket(made.gmToken);
    const n = { gmSock, idOf: (name: string) => Object.values(gmSock.view().world.characters).find((c) => c.name === name)!.id };
    const gm = await screen(e2e!.browser, contexts, made.links.gm, false);
    const teams = () => n.gmSock.view().world.ext['teams'] as unknown as Teams | undefined;

    // #14: the quick form asks for what hits and reactions spend, and the character keeps it.
    const invite = gm.p.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Ann');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    const link = await invite.getByTestId('seat-link').inputValue();
    await invite.getByLabel('Character name for Ann').fill('Kira');
    await invite.getByLabel('Hit points').fill('10');
    await invite.getByRole('button', { name: 'Add character' }).click();
    await expect.poll(() => invite.getByRole('alert').textContent()).toBe('Kira needs an Endurance, a whole number from 0 to 10000: hits wear endurance down before health.');
    await invite.getByLabel('Character name for Ann').fill('Kira');
    await invite.getByLabel('Hit points').fill('10');
    await invite.getByLabel("Endurance for Ann's character").fill('8');
    await invite.getByLabel("Stamina for Ann's character").fill('2');
    await invite.getByRole('button', { name: 'Add character' }).click();
    // Review 12 #10: a blank Constitution is asked for, with what it does, not read as 0.
    await expect.poll(() => invite.getByRole('alert').textContent()).toBe(
      'Kira needs a Constitution, a whole number from 0 to 10000: once more health is missing than this, each loss of health means fortifying or falling unconscious.',
    );
    await invite.getByLabel("Constitution for Ann's character").fill('3');
    await invite.getByRole('button', { name: 'Add character' }).click();
    // Review 13 #2: Evasion too, in the range the sheet takes, so a PC never starts at 0 by omission.
    await expect.poll(() => invite.getByRole('alert').textContent()).toBe("Kira needs an Evasion, a whole number from 0 to 10000: an attack's test must reach it to hit (size moves it).");
    await invite.getByLabel("Evasion for Ann's character").fill('7');
    await invite.getByRole('button', { name: 'Add character' }).click();
    await expect.poll(() => n.gmSock.view().world.characters[n.idOf('Kira')]?.stats).toMatchObject({ hp: 10, maxEndurance: 8, maxStamina: 2 });
    const kira = n.idOf('Kira');
    // Review 12 #1: the invite made her teams sheet at once, with what was typed (not on the first sheet written later).
    await expect.poll(() => teams()?.sheets[kira]).toMatchObject({ maxHealth: 10, health: 10, maxEndurance: 8, endurance: 8, maxStamina: 2, stamina: 2, constitution: 3, evasion: 7 });

    // Her sheet then gets a weapon and an athletics skill, no combat skill; the invite's tracks stay full.
    const spear = { attributes: ['strength'], damage: 4, damageType: 'piercing' };
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'g1', kind: 'npc', side: 'foes', name: 'Goblin 1' },
        { id: kira, name: 'Kira', kind: 'pc', side: 'players', characterId: kira },
        { id: 'g2', kind: 'npc', side: 'foes', name: 'Goblin 2' },
      ],
      params: { teamOrder: ['foes', 'players'] },
    });
    // Her combatant takes her id (as the builder's does, ADR 37), so the fight finds the sheet the invite made.
    await n.gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { attributes: { strength: 6 }, skills: { athletics: 4 }, evasion: 5, items: { spear: { name: 'spear', weapon: spear } } }, patch: true });
    const goblin = { attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 4, maxHealth: 6, items: { club: { name: 'club', weapon: { ...spear, damageType: 'bludgeoning' } } } };
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'g1', sheet: { name: 'Goblin 1', ...goblin } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'g2', sheet: { name: 'Goblin 2', ...goblin } });
    expect(teams()!.sheets[kira]).toMatchObject({ maxEndurance: 8, endurance: 8, maxStamina: 2, stamina: 2 });

    // #12: Goblin 1's Attack lists Kira first, then its own Goblin 2 marked as an ally.
    await gm.p.getByRole('button', { name: 'Goblin 1', exact: true }).click();
    await expect.poll(() => gm.p.getByTestId('now-acting').textContent()).toContain('Goblin 1');
    const attack = await openAction(gm.p, 'Attack');
    await expect.poll(() => attack.getByLabel('Target').locator('option').allTextContents()).toEqual(['Kira', 'Goblin 2 (ally)']);
    expect(await attack.getByLabel('Target').inputValue()).toBe(kira);

    // #7: on the players' turn, Kira's phone says in view, before any form, why Attack is not there.
    await gm.p.getByTestId('next-turn').click();
    // The players' side is Kira alone, so she is up at once.
    await expect.poll(() => gm.p.getByTestId('now-acting').textContent()).toContain('Kira');
    const ann = await screen(e2e!.browser, contexts, link, true);
    const panel = ann.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByTestId('actions-why-not').textContent()).toContain('Not now: Attack: Kira has no combat skill, and an attack rolls it: give Kira a combat skill die with the Sheet');
    expect(await panel.getByRole('button', { name: /^Attack \(/ }).count()).toBe(0);

    // The GM gives her the skill: the reason goes, Attack opens with its odds before the roll.
    await n.gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { skills: { athletics: 4, combat: 6 } }, patch: true });
    await expect.poll(() => panel.getByTestId('actions-why-not').textContent()).not.toContain('combat skill');
    // Foes' defences shown to players, so the phone can give exact odds (ADR 33).
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const mine = await openAction(ann.p, 'Attack');
    await expect.poll(() => mine.getByTestId('action-odds').locator('strong').textContent()).toMatch(/% to hit/);
    expect(await mine.getByRole('alert').count()).toBe(0);

    // #11: Goblin 2 is knocked out; at End the GM reads who fell and who is still standing, as OSR's GM does.
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'g2', sheet: { health: 0, conscious: false }, patch: true });
    await gm.p.getByTestId('end-encounter').click();
    await expect.poll(() => gm.p.getByTestId('fight-summary').textContent()).toBe('Fell: Goblin 2 (down). Still standing: the party, Kira; the others, Goblin 1.');
    // The GM's alone: the phone shows no summary.
    expect(await ann.p.getByTestId('fight-summary').count()).toBe(0);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});

describe('the top bar at 1280 px (review 11)', () => {
  it('stays on one line with a long table name, an undo label and the foe setting', async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'The long night of the drowned lantern', rulesetId: 'daggerheart' });
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc' });
    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Goblin', count: 3, difficulty: 11, major: 4, severe: 8, hp: 3, visibility: 'visible' });
    const gm = await screen(e2e!.browser, contexts, made.links.gm, false);
    await gm.p.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => gm.p.getByTestId('undo').getAttribute('title')).toMatch(/^Undo: /);
    // Every part of the bar sits on the first line: their tops are within a few pixels of each other.
    const tops = await gm.p.evaluate<number[]>(`[...document.querySelector('header.topbar').children].map((el) => el.getBoundingClientRect().top)`);
    expect(tops.length).toBeGreaterThan(4);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(20);
    await gm.p.getByRole('button', { name: /^Shortcuts/ }).waitFor();
    expect(gm.errors).toEqual([]);
  });

  it('stays on one line with Undo and Redo both labelled on a Kleptonomicon table (review 12)', async () => {
    const made = await e2e!.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: 'Klepto night of the long heist', rulesetId: 'kleptonomicon' });
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc' });
    await gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await gmSock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await screen(e2e!.browser, contexts, made.links.gm, false);
    await gm.p.setViewportSize({ width: 1280, height: 800 });
    await gm.p.getByTestId('undo').click();
    await expect.poll(() => gm.p.getByTestId('redo').getAttribute('title')).toMatch(/^Redo: /);
    await expect.poll(() => gm.p.getByTestId('undo').getAttribute('title')).toMatch(/^Undo: /);
    const tops = await gm.p.evaluate<number[]>(`[...document.querySelector('header.topbar').children].map((el) => el.getBoundingClientRect().top)`);
    expect(tops.length).toBeGreaterThan(5);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(20);
    expect(gm.errors).toEqual([]);
  });
});
