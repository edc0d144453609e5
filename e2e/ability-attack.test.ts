// The 36th Way's attack abilities in real Chromium (002 "Attacks", "Ability
// Entries"): the GM gives Vesk "Frost Bolt" in the party's sheet form, field by
// field (frequency, sustain, escalation and the attack as fields, no JSON), lines
// up the party and an Ogre in the builder and rolls initiative; Ann's phone
// then offers Frost Bolt with the exact odds against the Ogre's PD and rolls it
// by a click. The tracker shows the Ogre's HP from its sheet after the hit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { percent } from '../packages/web/src/lib/attack.ts';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import { builderLine, count3d6, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('ability-attack');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** A field of the generated form by its label's start, inside `scope`. */
const box = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label} \\(optional[,)]`));


describe('36th Way attack abilities', () => {
  it('an ability made by form is an action with exact odds on the phone, rolled by a click', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    const vesk = n.idOf('Vesk');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: vesk, sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);

    // --- Frost Bolt, field by field in "Edit a sheet".
    const sheet = gm.p.getByTestId('sheet-form');
    await sheet.locator('summary').click();
    await sheet.getByRole('button', { name: 'add Abilities' }).click();
    const ability = sheet.getByRole('group', { name: 'Ability 1', exact: true });
    expect(await sheet.locator('textarea').count()).toBe(0);
    // No id box: the server keys the ability by its name (frost-bolt).
    expect(await ability.getByLabel('Key', { exact: true }).count()).toBe(0);
    await box(ability, 'Name').first().fill('Frost Bolt');
    expect(await box(ability, 'Frequency').locator('option').allTextContents()).toEqual(['(default)', 'at-will', 'encounter', 'daily', 'recharge 9+', 'recharge 11+', 'recharge 13+']);
    await box(ability, 'Frequency').selectOption('recharge 11+');
    await box(ability, 'Sustain').fill('11');
    await box(ability, 'At least').fill('0');
    await box(ability, 'Defense attacked').selectOption('pd');
    await box(ability, 'Reach').selectOption('nearby');
    const hit = ability.getByRole('group', { name: 'Hit damage (optional)', exact: true });
    await box(hit, 'Dice').fill('2');
    await box(hit, 'Sides').fill('6');
    await box(hit, 'Bonus').fill('3');
    await box(ability, 'Miss damage').selectOption('level');
    await sheet.getByRole('button', { name: "Save Vesk's sheet" }).click();
    await expect.poll(() => sheet.getByTestId('sheet-form-saved').textContent()).toBe("Saved Vesk's sheet.");
    const stored = () => (n.gmSock.view().world.ext['36th-way'] as { sheets: Record<string, { abilities: Record<string, unknown> }> }).sheets[vesk]?.abilities['frost-bolt'];
    await expect.poll(stored).toMatchObject({ name: 'Frost Bolt', frequency: { kind: 'recharge', target: 11 }, sustain: 11, attack: { defense: 'pd', reach: 'nearby', hit: { count: 2, sides: 6, bonus: 3 }, miss: 'level' } });
    // The GM page with the ability's fields open.
    expect(await axeViolations(gm.p)).toEqual([]);

    // --- The builder: the party, then an Ogre with its defences; Vesk (fast) acts first.
    await gm.p.locator('#build-init-band').selectOption('slow');
    await builderLine(gm.p, { name: 'Ogre', 'quick-ac': '14', 'quick-pd': '13', 'quick-md': '10', hp: '60' });
    await expect.poll(() => gm.p.getByTestId('builder-rows').textContent()).toContain('Ogre');
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent(), { timeout: 15_000 }).toBe('Vesk: actions');
    // Vesk's own row shows the HP his sheet holds.
    await expect.poll(() => gm.p.getByRole('list', { name: 'Turn order' }).textContent()).toContain('HP 30/30');

    // --- Ann's phone: Frost Bolt against the Ogre (nearby is in its reach), +4 vs PD 13 needs a natural 9.
    // The GM shows players foes' defences first, or the phone would have no odds (ADR 33).
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const form = await openAction(ann.p, 'Frost Bolt');
    expect(await ann.p.getByTestId('actions-panel').getByRole('button', { name: /^Frost Bolt \(/ }).textContent()).toContain('1 standard action, recharge 11+');
    await expect.poll(() => form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (nearby)']);
    const expected = `${percent(count3d6((x) => x >= 9))} to hit · ${percent(count3d6((x) => x >= 17))} crit · ${percent(count3d6((x) => x === 3))} crit fail`;
    expect(expected).toBe('74.1% to hit · 1.9% crit · 0.5% crit fail');
    await oddsOf(form, expected);
    const result = await roll(form, 'Roll: Frost Bolt');
    expect(result).toMatch(/Vesk attacked Ogre \(PD 13\): natural \d+/);
    // A hit deals 2d6 + 3 and a miss Vesk's level (1): either way the Ogre's row drops below 60, from its sheet.
    await expect.poll(async () => /HP (\d+)\/60/.exec((await gm.p.getByRole('list', { name: 'Turn order' }).textContent()) ?? '')?.[1]).not.toBe('60');
    // Recharge 11+: spent until a quick rest, said after the result, never as a refusal above it (review 7).
    await expect.poll(() => form.getByTestId('action-after').textContent()).toBe('Frost Bolt is now expended (recharge 11+ at a quick rest).');
    expect(await form.textContent()).not.toContain('Not now');
    const afterResult = await form.evaluate((f) => {
      const r = f.querySelector('[data-testid=action-result]');
      const a = f.querySelector('[data-testid=action-after]');
      return r !== null && a !== null && (r.compareDocumentPosition(a) & 4) !== 0; // 4: DOCUMENT_POSITION_FOLLOWING
    });
    expect(afterResult).toBe(true);
    // The standard action is spent too (the combatant is the character): Attack waits for the next turn.
    await ann.p.getByTestId('actions-panel').getByText(/^Not now \(/).click();
    await expect.poll(() => ann.p.getByTestId('actions-blocked').textContent()).toContain('Attack');
    expect(await axeViolations(ann.p)).toEqual([]);
    // The GM page mid-fight: tracker, actions panel and log after the hit.
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('an ability with two targets: the panel picks both, shows odds per target and rolls each', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    const vesk = n.idOf('Vesk');
    const fork = { id: 'fork', name: 'Forked Lance', frequency: 'at-will', action: 'standard', attack: { defense: 'pd', reach: 'nearby', targets: 2, hit: { count: 1, sides: 6, bonus: 0 } } };
    await n.gmSock.command({ type: 'character.sheet.set', characterId: vesk, sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30, abilities: [fork] } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await gm.p.locator('#build-init-band').selectOption('slow');
    await builderLine(gm.p, { name: 'Ogre', 'quick-ac': '14', 'quick-pd': '13', 'quick-md': '10', hp: '60' });
    await builderLine(gm.p, { name: 'Goblin', 'quick-ac': '12', 'quick-pd': '11', 'quick-md': '10', hp: '50' });
    await expect.poll(() => gm.p.getByTestId('builder-rows').textContent()).toContain('Goblin');
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent(), { timeout: 15_000 }).toBe('Vesk: actions');

    const form = await openAction(gm.p, 'Forked Lance');
    await expect.poll(() => form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (nearby)', 'Goblin (nearby)']);
    const more = form.getByRole('group', { name: 'More targets (up to 1)' });
    await more.getByLabel('Goblin (nearby)').check();
    // +4 (level 1, volition 3) vs PD 13 needs a natural 9; vs PD 11 a natural 7: one line each.
    const ogre = `Ogre: ${percent(count3d6((x) => x >= 9))} to hit`;
    const goblin = `Goblin: ${percent(count3d6((x) => x >= 7))} to hit`;
    expect([ogre, goblin]).toEqual(['Ogre: 74.1% to hit', 'Goblin: 90.7% to hit']);
    await expect.poll(async () => (await form.getByTestId('action-odds-line').allTextContents()).map((t) => t.split(' · ')[0])).toEqual([ogre, goblin]);
    const result = await roll(form, 'Roll: Forked Lance');
    expect(result).toMatch(/Vesk attacked Ogre \(PD 13\)/);
    expect(result).toMatch(/Vesk attacked Goblin \(PD 11\)/);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
