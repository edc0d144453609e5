// The surprise round by clicking (issue 20, review 12 #2; 002 "Surprise and Ambushes", 003 "Surprise"): the
// builder asks who ambushes where the ruleset declares a surprise round; the tracker and the phone say
// "Surprise round", only the ambushers act in it, and the log says so in words. Rulesets without one show no picker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { builderLine, whoStarts, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('surprise');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const lined = async (p: Page) => (await p.getByTestId('builder-rows').locator('li strong').allTextContents()).map((s) => s.trim());

describe('a surprise round from the builder', () => {
  it('the 36th Way: the foes ambush with two goblins; GM and phone read "Surprise round"; the log says it', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await builderLine(gm.p, { name: 'Goblin x3' });
    await expect.poll(() => lined(gm.p)).toEqual(['Kira', 'Goblin 1', 'Goblin 2', 'Goblin 3']);
    const box = gm.p.getByTestId('surprise');
    await expect.poll(() => box.getByTestId('surprise-help').textContent()).toContain('002 "Surprise and Ambushes"');
    await box.getByLabel('Who ambushes').selectOption({ label: 'The foes' });

    // Nobody picked yet: the start is refused in words, before anything is sent.
    const enc = gm.p.locator('.area-encounter');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('builder-error').textContent()).toBe('Choose who acts in the surprise round: one or two of the foes (002 "Surprise and Ambushes").');
    await box.getByLabel('Goblin 1 acts').check();
    await box.getByLabel('Goblin 3 acts').check();
    // Two are all the text allows: the third box is closed.
    expect(await box.getByLabel('Goblin 2 acts').isDisabled()).toBe(true);
    await expect.poll(() => box.getByTestId('surprise-help').textContent()).toBe('Surprise round: only Goblin 1 and Goblin 3 act, then the usual order.');

    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('round').textContent()).toBe('Surprise round');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('begins with a surprise round.');
    // Only the two ambushers may act in it (the GM picks which goes first within their band).
    const e = () => n.gmSock.view().world.ext['encounter'] as unknown as { round: number; surpriseActors: string[]; combatants: { [id: string]: { name: string } } };
    expect(e().surpriseActors.map((id) => e().combatants[id]!.name).sort()).toEqual(['Goblin 1', 'Goblin 3']);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => ann.p.getByTestId('round').textContent()).toBe('Surprise round');
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain('begins with a surprise round.');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  }, 180_000);

  it('the 36th Way: the party ambushes and the GM starts the escalation die at 1 in round 1 (002)', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await builderLine(gm.p, { name: 'Goblin x2' });
    await expect.poll(() => lined(gm.p)).toEqual(['Kira', 'Goblin 1', 'Goblin 2']);
    const box = gm.p.getByTestId('surprise');
    const die = 'Start the escalation die at 1 in round 1 (an ambush by the party, 002 "Surprise and Ambushes")';
    // The foes ambushing: no such option.
    await box.getByLabel('Who ambushes').selectOption({ label: 'The foes' });
    expect(await box.getByLabel(die).count()).toBe(0);
    await box.getByLabel('Who ambushes').selectOption({ label: 'The party' });
    await box.getByLabel('Kira acts').check();
    await box.getByLabel(die).check();
    await gm.p.locator('.area-encounter').getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('round').textContent()).toBe('Surprise round');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('The GM moves the escalation die up by 1: it reads 0 in the surprise round and 1 in round 1.');
    expect(n.gmSock.view().world.ext['encounter']).toMatchObject({ round: 0, escalation: { offset: 1 } });
    expect(gm.errors).toEqual([]);
  }, 180_000);

  it('teams: the Goblins surprise the Party; OSR shows no surprise picker', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await builderLine(gm.p, { name: 'Goblin x2', 'init-team': 'Goblins' });
    await expect.poll(() => lined(gm.p)).toEqual(['Kira', 'Goblin 1', 'Goblin 2']);
    const box = gm.p.getByTestId('surprise');
    await box.getByLabel('Who ambushes').selectOption({ label: 'Goblins' });
    await expect.poll(() => box.getByTestId('surprise-help').textContent()).toBe('Surprise round: only Goblins act (and any who cannot be surprised), then the teams take turns.');
    // Kira has danger sense (003 "Surprise"): the GM ticks her; the goblins' own rows offer no such box.
    expect(await box.getByLabel('Goblin 1 cannot be surprised').count()).toBe(0);
    await box.getByLabel('Kira cannot be surprised').check();
    await expect.poll(() => box.getByTestId('surprise-help').textContent()).toBe('Surprise round: only Goblins act (and Kira, who cannot be surprised), then the teams take turns.');
    const enc = gm.p.locator('.area-encounter');
    await whoStarts(enc, 'Goblins');
    await enc.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('round').textContent()).toBe('Surprise round');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('begins with a surprise round.');
    expect(n.gmSock.view().world.ext['encounter']).toMatchObject({ round: 0 });
    // She acts in the surprise round with the goblins.
    const e = n.gmSock.view().world.ext['encounter'] as unknown as { surpriseActors: string[]; combatants: { [id: string]: { name: string; unsurprisable: boolean } } };
    expect(e.surpriseActors.map((id) => e.combatants[id]!.name).sort()).toEqual(['Goblin 1', 'Goblin 2', 'Kira']);

    const o = await night(e2e!, 'osr', 'Cy');
    const osr = await screen(e2e!.browser, contexts, o.links.gm, false);
    await builderLine(osr.p, { name: 'Goblin x2' });
    await expect.poll(() => lined(osr.p)).toEqual(['Goblin 1', 'Goblin 2']);
    expect(await osr.p.getByTestId('surprise').count()).toBe(0);
    expect([...gm.errors, ...osr.errors]).toEqual([]);
  }, 180_000);
});
