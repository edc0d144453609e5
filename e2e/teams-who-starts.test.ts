// "Who starts the fight" on a teams table, asked for every fight (review 7,
// ADR 56; 003 "Initiative and Rounds": the initiating team goes first) and
// required (review 8, ADR 66: the text names no default, the roll waits): the
// first fight built with the foes lined up before the party (the review's
// "Foes went first" without being asked), and the next fight again; the
// Roll initiative button says which team it starts with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('teams-who-starts');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('teams: who starts the fight', () => {
  it('is asked in the first fight (the party joining the line-up on its own) and again in the next; the chosen team acts first', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    // The GM page opens on an empty table: the party is made afterwards, as a GM does.
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    // The builder opens on the empty table first; Kira then joins the line-up as she joins the table.
    await gm.p.getByTestId('encounter-builder').getByText('Nobody lined up yet').waitFor();
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Kira'), sheet: { evasion: 5, maxEndurance: 6, maxHealth: 12 } });
    await n.gmSock.command({ type: 'bestiary.save', name: 'Bandit', block: { evasion: 5, maxEndurance: 4, maxHealth: 8 } });

    const enc = gm.p.locator('.area-encounter');
    const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
    const bandit = gm.p.getByTestId('bestiary').getByTestId('bestiary-entry').filter({ hasText: 'Bandit' });
    await bandit.getByLabel('How many').fill('2');
    await bandit.getByRole('button', { name: 'Line up Bandit' }).click();
    await ready.getByText('Bandit 2', { exact: true }).waitFor();
    // A PC who joins the table while the builder is open is lined up on their own (review 10).
    await ready.getByText('Kira', { exact: true }).waitFor();

    // Two teams lined up: the question is on screen with no answer picked (003 names none), and the roll waits for it.
    const who = enc.getByLabel('Who starts the fight');
    // The party comes before the foes, as it joined the line-up first (review 10).
    await expect.poll(() => who.locator('option').allTextContents()).toEqual(['choose a team…', 'Party', 'Foes']);
    expect(await who.inputValue()).toBe('');
    expect(await text(enc.getByTestId('who-starts-help'))).toBe('Required: the team of whoever began the fight goes first.');
    await expect.poll(() => text(enc.getByTestId('roll-initiative'))).toBe('Roll initiative');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => text(enc.getByTestId('builder-error'))).toBe('Choose who starts the fight: the team of whoever began it (an attack, an ambush) goes first, then the team it set upon.');
    expect(await who.getAttribute('aria-invalid')).toBe('true');
    // Nothing started, and no foe character was made for a start that did not happen.
    expect((n.gmSock.view().world.ext['encounter'] as { active?: boolean } | undefined)?.active ?? false).toBe(false);
    expect(Object.values(n.gmSock.view().world.characters).map((c) => c.name)).toEqual(['Kira']);
    await who.selectOption('Party');
    expect(await text(enc.getByTestId('who-starts-help'))).toBe('Party act first, then the others in turn.');
    await expect.poll(() => text(enc.getByTestId('roll-initiative'))).toBe('Roll initiative (Party first)');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => text(enc.getByTestId('now-acting'))).toContain('Now acting: Kira');

    // The next fight asks again.
    await enc.getByTestId('end-encounter').click();
    await ready.getByText('Kira', { exact: true }).waitFor();
    await bandit.getByRole('button', { name: 'Line up Bandit' }).click();
    await ready.getByText('Bandit 4', { exact: true }).waitFor();
    await expect.poll(() => enc.getByLabel('Who starts the fight').locator('option').allTextContents()).toEqual(['choose a team…', 'Party', 'Foes']);
    await expect.poll(() => text(enc.getByTestId('roll-initiative'))).toBe('Roll initiative');
    await enc.getByLabel('Who starts the fight').selectOption('Foes');
    await expect.poll(() => text(enc.getByTestId('roll-initiative'))).toBe('Roll initiative (Foes first)');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => text(enc.getByTestId('now-acting'))).toMatch(/Team Foes: choose who acts|Now acting: Bandit/);
    expect(gm.errors).toEqual([]);
  }, 240_000);
});
