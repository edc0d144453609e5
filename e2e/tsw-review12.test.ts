// Review 12's 36th Way findings in real Chromium: the bestiary form takes Resists and
// Weak to (#13); a hidden foe's hit shows on the PC's phone as her own HP loss, never
// naming the foe (#6); "The party flees" is in a PC's list, not in a foe's (#11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-review12');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';
type Sheets = { sheets: Record<string, { name: string; hp: number; resist: Record<string, number>; weak: string[] }> };

describe('The 36th Way, review 12', () => {
  it("the Lurker's stat block resists fire and is weak to cold; hidden, its hit reads on Ann's phone as Vesk's loss only; Flee is Vesk's, not the Lurker's", async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Vesk'), sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The stat block by the form, Resists and Weak to included (#13).
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Lurker');
    for (const [label, v] of [[/^HP/, '20'], [/^Level/, '2'], [/^AC/, '16'], [/^Resist number/, '15']] as const) await form.getByLabel(label).fill(v);
    await form.getByLabel(/^Initiative band/).selectOption('fast');
    await form.getByLabel(/^Resists/).selectOption('fire');
    await form.getByLabel(/^Weak to/).selectOption('cold');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const entry = best.getByTestId('bestiary-entry').filter({ hasText: 'Lurker' });
    await expect.poll(() => text(entry)).toContain('Resists fire · Resist number 15 · Weak to cold');

    // Lined up hidden, with Vesk; initiative rolled by the button: the fast Lurker first.
    await entry.getByLabel(/hidden/i).check();
    await entry.getByRole('button', { name: 'Line up Lurker' }).click();
    await gm.p.getByTestId('builder-rows').getByText('Lurker', { exact: true }).waitFor();
    // Kept hidden while it acts (the builder may reveal a hidden foe when it first acts).
    await gm.p.getByTestId('builder-rows').getByLabel('reveal Lurker when it acts').uncheck();
    await gm.p.getByTestId('roll-initiative').click();
    const tsw = () => n.gmSock.view().world.ext['36th-way'] as unknown as Sheets;
    const lurkerId = async () => {
      await expect.poll(() => Object.values(tsw().sheets).find((s) => s.name === 'Lurker')?.resist, { timeout: 15_000 }).toEqual({ fire: 15 });
      return Object.entries(tsw().sheets).find(([, s]) => s.name === 'Lurker')![0];
    };
    const lurker = await lurkerId();
    expect(tsw().sheets[lurker]!.weak).toEqual(['cold']);
    await expect.poll(() => nowActing(gm.p), { timeout: 15_000 }).toBe('Now acting: Lurker');

    // The foe's own list: no Flee (#11).
    const panel = gm.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Lurker: actions');
    await panel.getByRole('button', { name: /^Move \(/ }).waitFor();
    expect(await panel.getByRole('button', { name: /^The party flees/ }).count()).toBe(0);

    // Its hit on Vesk (engaged, a basic attack; a crit fail deals nothing, so that one roll is undone and rolled again).
    const vesk = Object.entries(tsw().sheets).find(([, s]) => s.name === 'Vesk')![0];
    await n.gmSock.command({ type: '36th-way.position', a: lurker, b: vesk, range: 'engaged' });
    for (let i = 0; i < 20 && tsw().sheets[vesk]!.hp === 30; i++) {
      await n.gmSock.command({ type: '36th-way.attack', attacker: lurker, targets: [vesk], basic: 'melee' });
      if (tsw().sheets[vesk]!.hp === 30) await n.gmSock.command({ type: 'history.undo' });
    }
    const hp = tsw().sheets[vesk]!.hp;
    expect(hp).toBeLessThan(30);
    const line = new RegExp(`Vesk took ${30 - hp} damage( \\(crit\\))?: 30 -> ${hp} HP`);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(line);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toMatch(line);
    expect(await text(ann.p.getByTestId('log'))).not.toMatch(/Lurker|attacked Vesk/);
    expect(await ann.p.content()).not.toContain('Lurker');
    expect(ann.frames.filter((f) => f.includes('Lurker'))).toEqual([]);

    // Vesk's turn: the GM's list for him has Flee.
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Vesk');
    await expect.poll(() => panel.getByRole('button', { name: /^The party flees/ }).count()).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
