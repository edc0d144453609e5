// OSR attack range, delivery and long range in real Chromium (audit 13 #8; 001 "Range & Attacks", "Light":
// brilliant). Kira's phone shoots the Goblin from close range and sees the disadvantage odds before rolling; in
// brilliant light, ticking "Long range" moves the odds the same way, and the shot rolls with two dice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-attack-range');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const detail = (form: import('playwright-core').Locator) => form.getByTestId('action-odds').locator('.muted').textContent();

describe('OSR: range, spell delivery and long range on the Attack form', () => {
  it('a shot in melee shows its disadvantage; in brilliant light a long-range shot shows its penalty; a melee spell has none', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    // DEX 14 and INT 14: +2; the Goblin's AC 11 needs a natural 9, 12 faces of 20.
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { str: 10, dex: 14, int: 14, maxHp: 10, hp: 10, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { dex: 8, ac: 11, maxHp: 400, hp: 400 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin'), stats: { dex: 8 } },
      ],
    });
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const form = await openAction(ann.p, 'Attack');
    expect(await form.getByLabel('Range', { exact: true }).locator('option').allTextContents()).toEqual(['Usual: close for melee, ranged for shots and spells', 'Close: in melee (5-10 ft)', 'Ranged: beyond melee reach']);

    // A bow at its usual range: one die, 12 of 20.
    await form.getByLabel('Kind').selectOption('ranged');
    await oddsOf(form, '60% to hit · 5% crit');
    // Engaged in melee (close): two dice, the lower kept: 12 x 12 of 400 pairs hit, 1 of 400 crits.
    await form.getByLabel('Range', { exact: true }).selectOption('close');
    await oddsOf(form, '36% to hit · 0.3% crit');
    await expect.poll(() => detail(form)).toContain('disadvantage');
    // Long range at close is refused before the roll, in words.
    await form.getByLabel('Long range (the light may hinder it)').check();
    await expect.poll(() => form.getByTestId('action-odds').textContent()).toContain('No odds: A long-range attack is made from beyond melee reach, not at close range');
    await form.getByLabel('Range', { exact: true }).selectOption('ranged');
    // Well lit: long range changes nothing.
    await oddsOf(form, '60% to hit · 5% crit');

    // Brilliant light (the GM's): the long-range shot is at disadvantage; without long range it is not.
    await n.gmSock.command({ type: 'osr.setLight', level: 'brilliant' });
    await oddsOf(form, '36% to hit · 0.3% crit');
    await expect.poll(() => detail(form)).toContain('disadvantage');
    await form.getByLabel('Long range (the light may hinder it)').uncheck();
    await oddsOf(form, '60% to hit · 5% crit');
    expect(await detail(form)).not.toContain('disadvantage');

    // A touch spell in melee: INT, close, no disadvantage; the same spell cast at range from close has it.
    await form.getByLabel('Kind').selectOption('arcane');
    await form.getByLabel('Range', { exact: true }).selectOption('close');
    await oddsOf(form, '36% to hit · 0.3% crit');
    await form.getByLabel('Spell delivery').selectOption('melee');
    await oddsOf(form, '60% to hit · 5% crit');

    // The long-range shot in brilliant light rolls as its odds said: two dice, and the log says why.
    await form.getByLabel('Kind').selectOption('ranged');
    await form.getByLabel('Spell delivery').selectOption('');
    await form.getByLabel('Range', { exact: true }).selectOption('ranged');
    await form.getByLabel('Long range (the light may hinder it)').check();
    await oddsOf(form, '36% to hit · 0.3% crit');
    const result = await roll(form, 'Roll: Attack');
    expect(result).toMatch(/Kira attacked Goblin \(ranged/);
    const attacked = n.gmSock.view().world.log.filter((l) => l.text.startsWith('Kira attacked Goblin'));
    expect(attacked).toHaveLength(1);
    expect(attacked[0]!.text).toMatch(/: d20 \d+ \/ \d+ \+2 = \d+ vs 11 \(brilliant light hinders it\), /);
    expect(ann.errors).toEqual([]);
  });
});
