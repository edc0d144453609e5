// Review 9's Kleptonomicon blockers, in real Chromium as the reviewer met them:
// a PC made by the Party form gets Health there (the damage box then takes it
// and the phone shows it), and a phone gets exact odds against a foe once the
// GM's "Foes show players" allows defences (never before). Then the goblin
// falls, and the phone's turn order marks it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { oddsOf, openAction, roll, untilTurnOf } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('klepto-review9');
});
afterAll(async () => {
  await e2e?.close();
});

const row = (p: Page, name: string) => p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: name });

describe('Kleptonomicon review 9: Health by the Party form, odds on phones, fallen foes', () => {
  it("Kira gets Health 10 from the Party form; damage 3 leaves 7/10 on her phone; with defences shown her phone's Basic Attack has 75% odds against Goblin; the fallen goblin is marked", async () => {
    const made = await e2e!.table('kleptonomicon', 'Klepto night');
    const seat = await e2e!.seat(made, 'Ann');
    const sock = await e2e!.socket(made.gmToken);
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });

    // The Party form, as the reviewer filled it, now with Health.
    const add = gm.p.getByTestId('party-files').getByTestId('add-character-form');
    await add.locator('summary').click();
    await add.getByLabel('Name', { exact: true }).fill('Kira');
    await add.getByLabel('Player seat').selectOption({ label: 'Ann' });
    await add.getByLabel(/^Edge Save/).fill('9');
    await add.getByLabel(/^Defense/).fill('12');
    await add.getByLabel(/^Health \(full\)/).fill('10');
    await add.getByLabel(/^Basic Attack modifier/).fill('3');
    await add.getByLabel(/^Basic Attack damage/).fill('1d6');
    await add.getByRole('button', { name: 'Add character' }).click();
    await expect.poll(() => add.getByTestId('add-character-note').textContent()).toBe('Kira joined the table, played by Ann.');
    const kira = Object.values(sock.view().world.characters).find((c) => c.name === 'Kira')!;
    expect(kira.stats).toMatchObject({ hp: 10, maxHp: 10, defense: 12, edgeSave: 9 });
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain("Kira's sheet: Edge Save +9 · Defense 12 · Health 10/10 · Basic Attack +3, 1d6.");
    await expect.poll(() => phone.p.getByTestId('my-character').textContent()).toContain('HP 10/10');

    // An Encounter with one goblin (Defense 6, 8 HP), Kira first (Edge Save +9 passes whatever the die).
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    await sock.command({ type: 'encounter.start', combatants: [{ id: 'kira', name: 'Kira', kind: 'pc', characterId: kira.id }, { id: 'gob', name: 'Goblin', kind: 'npc', stats: { creatureType: 'goblin', edgeSave: 1, defense: 6, hp: 8, maxHp: 8 } }] });
    await untilTurnOf(sock, 'kira');

    // The damage box on Kira: no more "give them HP first".
    await gm.p.getByLabel('Amount for Kira').fill('3');
    await gm.p.getByRole('button', { name: 'Damage Kira' }).click();
    await expect.poll(() => sock.view().world.characters[kira.id]!.stats['hp']).toBe(7);
    await expect.poll(() => phone.p.getByTestId('my-character').textContent()).toContain('HP 7/10');

    // No numbers shown: the phone's attack has no odds, and the page holds no Defense 6.
    await expect.poll(() => phone.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Kira: actions');
    const form = await openAction(phone.p, 'Basic Attack');
    await expect.poll(() => form.getByTestId('action-odds').textContent()).toContain("No odds: The GM keeps Goblin's Defense secret");
    expect(await phone.p.content()).not.toContain('Defense 6');

    // Defences shown: +3 against Defense 6 needs a die of 3-9 (14/20) or a critical 10 (1/20): 15/20, as the GM's form says.
    await gm.p.getByLabel('Foes show players').selectOption({ label: 'defences' });
    await oddsOf(form, '75% to hit');
    // Every number: the same odds.
    await gm.p.getByLabel('Foes show players').selectOption({ label: 'every number' });
    await expect.poll(() => phone.p.getByTestId('my-character').count()).toBe(1);
    await oddsOf(form, '75% to hit');
    // Back to no numbers: the odds go, and so does the Defense.
    await gm.p.getByLabel('Foes show players').selectOption({ label: 'no numbers' });
    await expect.poll(() => form.getByTestId('action-odds').textContent()).toContain("No odds: The GM keeps Goblin's Defense secret");
    await expect.poll(() => phone.p.content()).not.toContain('Defense 6');

    // The goblin falls to the damage box: the phone's turn order marks it.
    expect(await row(phone.p, 'Goblin').getByTestId('defeated').count()).toBe(0);
    await gm.p.getByLabel('Amount for Goblin').fill('8');
    await gm.p.getByRole('button', { name: 'Damage Goblin' }).click();
    await expect.poll(() => row(phone.p, 'Goblin').getByTestId('defeated').count()).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });

  it('the second Dash of a round opens a form with its Athletics Test odds (+2: 55%), then shows the die', async () => {
    const made = await e2e!.table('kleptonomicon', 'Klepto dash');
    const seat = await e2e!.seat(made, 'Ann');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 9, athletics: 2 } });
    const kira = Object.values(sock.view().world.characters).find((c) => c.name === 'Kira')!.id;
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    await sock.command({ type: 'encounter.start', combatants: [{ id: 'kira', name: 'Kira', kind: 'pc', characterId: kira }, { id: 'rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
    await untilTurnOf(sock, 'kira');
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });
    const panel = phone.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Kira: actions');
    // The first Dash doubles movement: one tap, then its confirm says what it spends (issue 20).
    await panel.getByRole('button', { name: /^Dash \(/ }).click();
    await expect.poll(() => panel.getByTestId('action-confirm').textContent()).toContain('Kira Dashes: every movement style doubles for this turn, for 1 Beat');
    expect(sock.view().world.log.map((l) => l.text)).not.toContain('Kira Dashes and doubles their movement.');
    await panel.getByRole('button', { name: 'Dash: yes' }).click();
    await expect.poll(() => sock.view().world.log.map((l) => l.text)).toContain('Kira Dashes and doubles their movement.');
    // The second opens its form: the sheet's Athletics +2 and the odds before anything is rolled (a die of 5-9 or a critical 10: 11/20).
    const form = await openAction(phone.p, 'Dash again \\(Athletics Test\\)');
    expect(await form.getByLabel('Athletics modifier (from the sheet)').textContent()).toBe('+2');
    await oddsOf(form, '55% to succeed');
    expect(sock.view().world.log.map((l) => l.text).join('\n')).not.toContain('Athletics Test');
    const result = await roll(form, 'Roll: Dash again (Athletics Test)');
    expect(result).toMatch(/Kira Dashes and (passes the Athletics Test \(d10 \d+( \(critical (success|failure: a 10, coin lost)\))? \+2 = Score \d+\): triple movement|fails the Athletics Test \(d10 \d+( \(critical (success|failure: a 10, coin lost)\))? \+2 = Score \d+\) and is Slowed)\./);
    expect(phone.errors).toEqual([]);
  });
});
