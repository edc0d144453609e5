// Review 9's 36th Way night, in real Chromium by clicking (ADR 69):
// - Kira in the ranged stance is offered only her basic ranged attack (002
//   "Basic Attacks"); Disengage shows its exact odds before the roll, from both
//   goblins (12+) or one (11+) (002 "Disengaging and Popping Off");
// - her shot while engaged provokes both goblins: the GM gets a prompt per
//   goblin, takes one opportunity attack with its odds and lets the other go
//   (002 "Opportunity Attacks"); her phone never sees the foes' prompts;
// - dropped to -half max HP, her next turn is her death save, rolled from her
//   phone with its odds (2 Disadvantage on the first save), nothing else offered
//   (002 "Dying and Death"); the log shows all five dice; an Attack form she
//   rolled closes when her turn ends and does not come back on her dying turn
//   (review 10);
// - "Orc x2" from the builder acts at once, and a save against Dazed is logged
//   with its dice and target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e, type Night } from './actions-flow.ts';
import { builderLine, type E2e } from './harness.ts';
import { percent } from '../packages/web/src/lib/attack.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-review9');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** Chance that the kept three of (3 + |net|) d6 reach `target` (lowest three for net < 0), counting every face. */
function chance(net: number, target: number): number {
  const n = 3 + Math.abs(net);
  let hits = 0;
  for (let i = 0; i < 6 ** n; i++) {
    const faces: number[] = [];
    for (let k = 0, x = i; k < n; k++, x = Math.floor(x / 6)) faces.push((x % 6) + 1);
    faces.sort((a, b) => a - b);
    const kept = net >= 0 ? faces.slice(n - 3) : faces.slice(0, 3);
    if (kept[0]! + kept[1]! + kept[2]! >= target) hits++;
  }
  return hits / 6 ** n;
}

/** Kira (the phone's PC, Fast) against the foes named (Slow); Kira's turn. */
async function kiraAgainst(n: Night, sheet: object, foes: readonly string[]): Promise<void> {
  await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
  await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, ac: 16, maxHp: 20, ...sheet } });
  for (const f of foes) await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: f.toLowerCase().replace(' ', '-'), name: f, kind: 'npc', level: 1, ac: 14, maxHp: 40 } });
  await n.gmSock.command({
    type: 'encounter.start',
    combatants: [
      { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Kira') },
      ...foes.map((f) => ({ id: f.toLowerCase().replace(' ', '-'), name: f, kind: 'npc', side: 'foes', band: 'slow' })),
    ],
  });
}

describe('36th Way, review 9: stance, opportunity attacks, disengage odds, death saves on the phone, builder foes', () => {
  it('ranged stance: only the basic ranged attack; Disengage odds 37.5% from both goblins, 50% from one; the shot provokes both, the GM takes one with odds and lets the other go', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await kiraAgainst(n, { stance: 'ranged' }, ['Goblin 1', 'Goblin 2']);
    for (const g of ['goblin-1', 'goblin-2']) await n.gmSock.command({ type: '36th-way.position', fromId: 'kira', toId: g, range: 'engaged' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // Disengage: both goblins picked, one roll against 12 (11, +1 for the second); the odds before the roll.
    const dis = await openAction(ann.p, 'Disengage');
    await oddsOf(dis, `${percent(chance(0, 12))} to succeed`);
    expect(percent(chance(0, 12))).toBe('37.5%');
    expect(await text(dis.getByTestId('action-odds'))).toContain('12+ on 3d6 (11, +1 for each of 1 more enemy)');
    await dis.getByTestId('action-more-targets').getByRole('checkbox').uncheck();
    await oddsOf(dis, `${percent(chance(0, 11))} to succeed`);

    // The basic attack is the stance's own: ranged only (the melee one needs the quick-action switch first).
    const attack = await openAction(ann.p, 'Attack');
    expect(await attack.getByLabel('Attack', { exact: true }).locator('option').allTextContents()).toEqual(['Basic ranged attack (up to far)']);
    await attack.getByLabel('Target').selectOption({ label: 'Goblin 1 (engaged)' });
    await roll(attack, 'Roll: Attack');
    const provoked = 'Kira made a ranged attack while engaged, provoking opportunity attacks from Goblin 1, Goblin 2.';
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain(provoked);

    // The GM is asked once per goblin; the phone is asked nothing (the goblins are not hers).
    const prompts = gm.p.getByTestId('reaction-prompt');
    await expect.poll(() => prompts.count()).toBe(2);
    const first = prompts.filter({ hasText: 'Goblin 1 may make an opportunity attack' });
    expect(await text(first)).toContain('Kira made a ranged attack while engaged: Goblin 1 may make an opportunity attack.');
    await first.getByRole('radio', { name: /^Opportunity attack on Kira/ }).check();
    // Level 1 + Volition 0 against AC 16 needs a natural 15: counted over the 216 faces, with 17+ crits and a natural 3 crit fail.
    await oddsOf(first, `${percent(chance(0, 15))} to hit · ${percent(chance(0, 17))} crit · ${percent(1 / 216)} crit fail`);
    await first.getByRole('button', { name: 'Roll: Opportunity attack on Kira' }).click();
    await expect.poll(() => prompts.count()).toBe(1);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Goblin 1 attacked Kira \(AC 16\): natural \d+, total \d+; (hit|missed|crit|crit-failed)/);
    const second = prompts.filter({ hasText: 'Goblin 2 may make an opportunity attack' });
    await second.getByRole('radio', { name: /^Let Kira go/ }).check();
    await second.getByRole('button', { name: 'Let Kira go', exact: true }).click();
    await expect.poll(() => prompts.count()).toBe(0);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Goblin 2 lets Kira go (no opportunity attack).');
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Goblin 2 lets Kira go (no opportunity attack).');
    expect(await ann.p.getByTestId('reaction-prompt').count()).toBe(0);
    // Her turn over, the phone does not say "Nothing left to do this turn." (review 9): answers may still come.
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(ann.p.getByTestId('actions-none'))).toBe("Not Kira's turn: an answer they may give (an opportunity attack, an interrupt) shows up when something calls for it.");
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('dropped to -half max HP, Kira rolls her death save from her phone with its odds (2 Disadvantage), and is offered nothing else', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await kiraAgainst(n, {}, ['Ogre']);
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    // 20 max HP, 30 damage: -10 = -half, so her first death save has 2 Disadvantage (002 "Dying and Death").
    await n.gmSock.command({ type: '36th-way.damage', targetId: 'kira', amount: 30 });
    // Her turn passes, then the Ogre's: the GM's Next rolls nothing for her.
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('actions-panel').getByRole('heading'))).toBe('Ogre: actions');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Kira is dying: this turn is their death save (13+ on 3d6).');
    expect(await text(gm.p.getByTestId('log'))).not.toContain('Kira rolled a death save');

    // Her phone: the death save is the one thing offered, with its odds; Rally, stance and delays are not.
    const panel = ann.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('group').getByRole('button').allTextContents()).toEqual(['Roll a death save (the whole turn (a crit: heal and act at once))']);
    const save = await openAction(ann.p, 'Roll a death save');
    await oddsOf(save, `${percent(chance(-2, 13))} to succeed · ${percent(chance(-2, 17))} crit`);
    expect(await text(save.getByTestId('action-odds'))).toContain('first death save: 2 Disadvantage (dropped by a crit or to -half HP)');
    await save.getByRole('button', { name: 'Roll a death save', exact: true }).click();
    // The log shows all five dice and why there were five.
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Kira rolled a death save: 5d6 keep lowest 3 \(2 Disadvantage\) \[\d, \d, \d, \d, \d\] = \d+ vs 13\+, first save with 2 Disadvantage/);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toMatch(/Kira rolled a death save: 5d6 keep lowest 3/);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it("review 10: Kira's rolled Attack form closes once her turn is over, and on her dying turn nothing but the death save opens", async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await kiraAgainst(n, {}, ['Ogre']);
    await n.gmSock.command({ type: '36th-way.position', fromId: 'kira', toId: 'ogre', range: 'engaged' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const forms = ann.p.getByTestId('actions-panel').getByTestId('action-form');

    // Her turn: she attacks; the rolled form stays with its result while the turn lasts.
    const attack = await openAction(ann.p, 'Attack');
    await roll(attack, 'Roll: Attack');
    expect(await forms.count()).toBe(1);
    // The Ogre's turn: her Attack is no longer hers to take, so its form (odds, targets) is gone.
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('actions-panel').getByRole('heading'))).toBe('Ogre: actions');
    await expect.poll(() => forms.count()).toBe(0);

    // Dropped to dying, her next turn offers only the death save, and no old form comes back.
    await n.gmSock.command({ type: '36th-way.damage', targetId: 'kira', amount: 30 });
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Kira is dying: this turn is their death save');
    const panel = ann.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('group').getByRole('button').allTextContents()).toEqual(['Roll a death save (the whole turn (a crit: heal and act at once))']);
    // The one form open is the death save's, opened by itself so its odds show before the roll (review 13 #6).
    await expect.poll(() => forms.count()).toBe(1);
    expect(await forms.getByRole('button', { name: 'Roll a death save', exact: true }).count()).toBe(1);
    expect(await text(panel)).not.toContain('Roll: Attack');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('"Orc x2" typed in the builder with HP only acts at once; a save against Dazed is logged with its dice and target', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Vesk', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Vesk'), sheet: { level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    await gm.p.locator('#build-init-band').selectOption('fast');
    await builderLine(gm.p, { name: 'Orc x2', hp: '20' });
    await expect.poll(() => gm.p.getByTestId('builder-rows').textContent()).toContain('Orc 2');
    await gm.p.getByTestId('roll-initiative').click();
    // Fast orcs act before the Medium PC, in the GM's order (002 "Initiative Bands"): Orc 1 first.
    type Enc = { active: boolean; pending: unknown; combatants: Record<string, { id: string; name: string }> };
    const enc = () => n.gmSock.view().world.ext['encounter'] as Enc | undefined;
    await expect.poll(() => enc()?.active === true && Object.keys(enc()!.combatants).length === 3, { timeout: 15_000 }).toBe(true);
    const orc1 = Object.values(enc()!.combatants).find((c) => c.name === 'Orc 1')!.id;
    if (enc()!.pending !== null) await n.gmSock.command({ type: 'encounter.choose', id: orc1 });
    // Orc 1's list has its moves and attack, not a sheet to fill in.
    const panel = gm.p.getByTestId('actions-panel');
    await expect.poll(() => text(panel.getByRole('heading')), { timeout: 15_000 }).toBe('Orc 1: actions');
    await expect.poll(() => text(panel)).toContain('Move (');
    expect(await text(panel)).not.toContain('needs a 36th Way sheet');
    await n.gmSock.command({ type: 'condition.apply', target: orc1, condition: 'dazed', duration: { kind: 'saveEnds' } });
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Orc 1 (saves against Dazed: 3d6 \[\d, \d, \d\] = \d+ vs 11\+, saved: Dazed ends|fails a save against Dazed: 3d6 \[\d, \d, \d\] = \d+ vs 11\+, failed: Dazed stays)\./);
    expect(gm.errors).toEqual([]);
  });
});
