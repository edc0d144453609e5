// Review 13's findings on players' phones, in real Chromium:
// - #7 the 36th Way: a dead goblin is marked "dead" in the phone's target list
//   (as Daggerheart and OSR mark theirs), not offered unmarked;
// - #6 the 36th Way: a dying PC's death save shows its exact odds before the
//   roll (3d6 >= 13: 56/216, a crit 17+: 4/216) on the phone and the GM screen,
//   with no tap, and the card says "dying" with the saves so far, not "down"
//   (002 "Dying and Death");
// - #8 teams: an unconscious PC's card says "unconscious" and what may come
//   next (003 "Death"), not only its tracks;
// - #12 the 36th Way: the GM's quick-rest form says when nobody spends a
//   recovery (an untouched form healed nobody, unsaid).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, oddsOf, openAction, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { percent } from '../packages/web/src/lib/attack.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('review13-phones');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** Throws of 3d6 (all 216) whose sum reaches `target`. */
const reach3d6 = (target: number): number => {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (a + b + c >= target) n++;
  return n;
};

describe('review 13 on the phones', () => {
  it('36th Way: the dead Goblin is marked in Kira\'s targets; dying, her death save shows its odds untapped on phone and GM, and her card says dying with the saves so far', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, ac: 16, maxHp: 20 } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'goblin', name: 'Goblin', kind: 'npc', level: 0, ac: 14, maxHp: 10 } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 1, ac: 14, maxHp: 40 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Kira') },
        { id: 'goblin', name: 'Goblin', kind: 'npc', side: 'foes', band: 'slow' },
        { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' },
      ],
    });
    await n.gmSock.command({ type: '36th-way.position', a: 'kira', b: 'goblin', range: 'engaged' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // #7: the Goblin dies; Kira's Attack lists it marked dead, the Ogre standing.
    await n.gmSock.command({ type: '36th-way.damage', targetId: 'goblin', amount: 10 });
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Goblin took 10 damage');
    const attack = await openAction(ann.p, 'Attack');
    await expect.poll(() => text(attack)).toMatch(/Goblin \(dead, engaged/);
    expect(await text(attack)).toMatch(/Ogre \((nearby|far)/);
    expect(await text(attack)).not.toMatch(/Ogre \(dead/);

    // #6: dropped to -1 of 20 HP (not -half: no Disadvantage), her next turn is a death save.
    await n.gmSock.command({ type: '36th-way.damage', targetId: 'kira', amount: 21 });
    const card = ann.p.getByTestId('my-character');
    await expect.poll(() => text(card)).toContain('dying');
    expect(await text(card)).not.toMatch(/\bdown\b/);
    await expect.poll(() => text(ann.p.getByTestId('my-life-note'))).toBe('death saves: 0 rolled, 0 failed (4 failed in this fight kill)');
    for (let i = 0; i < 4 && !(await text(gm.p.getByTestId('log'))).includes('Kira is dying: this turn is their death save'); i++) {
      // Each click is seen through before the log is read again: a second click on a screen that had not yet
      // shown the first could pass Kira's turn (the flake CI saw once: her death-save form was never open).
      const acting = await text(gm.p.getByTestId('now-acting'));
      await gm.p.getByTestId('next-turn').click();
      await expect.poll(() => text(gm.p.getByTestId('now-acting'))).not.toBe(acting);
    }
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Kira is dying: this turn is their death save (13+ on 3d6).');
    // Exact: 56 of 216 throws reach 13, 4 reach 17 (a crit).
    const odds = `${percent(reach3d6(13) / 216)} to succeed · ${percent(reach3d6(17) / 216)} crit`;
    expect(odds).toBe('25.9% to succeed · 1.9% crit');
    // Nothing tapped: the form is open with its odds, on the phone and on the GM's screen.
    await oddsOf(ann.p.getByTestId('actions-panel').getByTestId('action-form'), odds);
    await oddsOf(gm.p.getByTestId('actions-panel').getByTestId('action-form'), odds);
    expect(await text(ann.p.getByTestId('log'))).not.toContain('Kira rolled a death save');
    // The tracker row on the phone says dying too, with the same note.
    await expect.poll(() => text(ann.p.getByTestId('combatant').filter({ hasText: 'Kira' }))).toContain('death saves: 0 rolled, 0 failed');
    await ann.p.getByTestId('actions-panel').getByTestId('action-form').getByRole('button', { name: 'Roll a death save', exact: true }).click();
    await expect.poll(() => text(ann.p.getByTestId('log'))).toMatch(/Kira rolled a death save: 3d6 \[\d, \d, \d\] = \d+ vs 13\+/);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('teams: Kira unconscious reads "unconscious" on her card, with what may come next (003 "Death")', async () => {
    const n = await night(e2e!, 'teams', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const kira = n.idOf('Kira');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { evasion: 6, constitution: 2, maxHealth: 10, maxEndurance: 6, maxStamina: 4 } });
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const card = ann.p.getByTestId('my-character');
    await expect.poll(() => text(card)).toContain('Health 10/10');
    expect(await text(card)).not.toContain('unconscious');
    await n.gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { endurance: 0, health: 5, conscious: false }, patch: true });
    await expect.poll(() => text(card)).toContain('unconscious');
    expect(await text(ann.p.getByTestId('my-life-note'))).toBe('cannot act until conscious again; more damage past their health risks death, and an enemy may try a killing strike');
    expect(ann.errors).toEqual([]);
  });

  it('36th Way: the quick-rest form says nobody spends recoveries while every box is empty; a 1 for Kira silences it and heals her', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, maxHp: 20, recoveries: 8, maxRecoveries: 8, recoveryDice: { count: 1, sides: 10 } } });
    await n.gmSock.command({ type: '36th-way.damage', target: 'kira', amount: 10 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const clock = gm.p.locator('.area-clock');
    const box = clock.getByLabel('Kira: HP 10/20, 8 of 8 recoveries (each heals 1d10)');
    await expect.poll(() => box.inputValue()).toBe('');
    await expect.poll(() => text(clock.getByTestId('quick-rest-none'))).toBe('Nobody spends recoveries: this quick rest heals no one. Type how many each PC spends above.');
    await box.fill('1');
    await expect.poll(() => clock.getByTestId('quick-rest-none').count()).toBe(0);
    // 002: the average of 1d10 is 5 (rounded down): 10 + 5 = 15.
    await clock.getByLabel(/Take the average/).check();
    await clock.getByRole('button', { name: 'Quick rest', exact: true }).click();
    await expect.poll(() => text(clock)).toContain('Kira: HP 15/20, 7 of 8 recoveries');
    expect(gm.errors).toEqual([]);
  });
});
