// Review 11, in real Chromium by clicking (issue 20: a rule the engine knows but the screen cannot reach is not done):
// - The 36th Way: a basic attack is against AC, no other defence offered (002 "Basic Melee Attack"); a skill check
//   and a Dicey Move from the phone with their odds (002 "Dicey Moves"); an unrolled Attack form closes when its PC
//   falls dying (review 11 #5); the GM starts Last Gasp saves, the PC rolls hers from the phone, an ally grants one,
//   and the GM's Flee is a Campaign Loss (002 "Last Gasp Saves", "Flee");
// - The Kleptonomicon: the GM's "Level up" where XP is shown (004 "Experience": the GM decides);
// - Daggerheart: a long-term countdown's story beats typed in the form, reached as it ticks (000 "Long-Term Countdowns").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e, type Night } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { percent } from '../packages/web/src/lib/attack.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('tsw-reach');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** Chance that a plain 3d6 reaches `target`, counting the 216 faces. */
function chance(target: number): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (a + b + c >= target) n++;
  return n / 216;
}

/** Kira (the phone's PC, Fast), Dorn (the GM's PC, Medium) and an Ogre (Slow) engaged with Kira; Kira's turn. */
async function fight(n: Night): Promise<void> {
  await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
  await n.gmSock.command({ type: 'character.add', name: 'Dorn', kind: 'pc' });
  await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, ac: 16, maxHp: 20 } });
  await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'dorn', name: 'Dorn', kind: 'pc', characterId: n.idOf('Dorn'), level: 1, ac: 17, maxHp: 30 } });
  await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 1, ac: 14, pd: 10, md: 10, maxHp: 40 } });
  await n.gmSock.command({
    type: 'encounter.start',
    combatants: [
      { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Kira') },
      { id: 'dorn', name: 'Dorn', kind: 'pc', side: 'party', band: 'medium', characterId: n.idOf('Dorn') },
      { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' },
    ],
  });
  await n.gmSock.command({ type: '36th-way.position', fromId: 'kira', toId: 'ogre', range: 'engaged' });
}

describe('The 36th Way: rules the screen now reaches (review 11 #1, #3, #5)', () => {
  it("Kira's basic attack is against AC only; a skill check and a Dicey Move with their odds; an unrolled Attack closes when she falls dying", async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await fight(n);
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const panel = ann.p.getByTestId('actions-panel');
    const forms = panel.getByTestId('action-form');

    // 002 "Basic Melee Attack": against AC; the form offers no defence to pick (the GM's screen, which sees the
    // Ogre's defences: +1 vs AC 14 needs a natural 13+, 56 of 216), nor on her phone.
    const attack = await openAction(gm.p, 'Attack');
    await oddsOf(attack, `${percent(chance(13))} to hit · ${percent(chance(17))} crit · ${percent(1 / 216)} crit fail`);
    expect(await text(attack.getByTestId('action-odds'))).toContain('+1 vs AC 14: natural 13+ hits');
    expect(await attack.getByLabel('Against').count()).toBe(0);
    const mine = await openAction(ann.p, 'Attack');
    expect(await mine.getByLabel('Against').count()).toBe(0);

    // A skill check: Difficulty 14 with +2 needs a natural 12+ (81 of 216).
    const check = await openAction(ann.p, 'Skill check');
    await check.getByLabel('Difficulty (the GM sets it)').fill('14');
    await check.getByLabel('Bonus').fill('2');
    await oddsOf(check, `${percent(chance(12))} to succeed`);
    expect(percent(chance(12))).toBe('37.5%');
    expect(await text(check.getByTestId('action-odds'))).toContain('3d6 +2 vs Difficulty 14: a natural 12+ succeeds');
    await roll(check, 'Roll: Skill check');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Kira made a check \(\d+ vs 14\): (success|failure)\./);

    // A Dicey Move at the starting Difficulty 11: a natural 11+ (108 of 216), as a move action.
    const dicey = await openAction(ann.p, 'Dicey move');
    await oddsOf(dicey, `${percent(chance(11))} to succeed`);
    await roll(dicey, 'Roll: Dicey move');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Kira tried a dicey move \(\d+ vs 11\): (success|failure)\./);

    // Review 11 #5: she opens Attack and, before rolling, the GM drops her to dying: the form goes, odds and all.
    await openAction(ann.p, 'Attack');
    expect(await forms.count()).toBe(1);
    await n.gmSock.command({ type: '36th-way.damage', targetId: 'kira', amount: 25 });
    await expect.poll(() => forms.count()).toBe(0);
    expect(await text(panel)).not.toContain('Roll: Attack');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('the GM starts Last Gasp saves for Kira; she rolls hers from her phone with its odds; Dorn grants one; the GM has the party flee (a Campaign Loss)', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await fight(n);
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const log = gm.p.getByTestId('log');
    const heading = gm.p.getByTestId('actions-panel').getByRole('heading');

    // Kira's turn: the GM's list for her has the call; players' lists never do.
    await expect.poll(() => text(heading)).toBe('Kira: actions');
    const start = await openAction(gm.p, 'Kira starts Last Gasp saves');
    await start.getByLabel('Against (the effect)').fill("the medusa's gaze");
    await start.getByRole('button', { name: 'Kira starts Last Gasp saves', exact: true }).click();
    await expect.poll(() => text(log)).toContain("Kira starts making Last Gasp saves against the medusa's gaze.");
    expect(await text(ann.p.getByTestId('actions-panel'))).not.toContain('The party flees');

    // Round 2, her turn: her phone offers the Last Gasp save, 13+ on 3d6 (56 of 216).
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(heading)).toBe('Dorn: actions');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(heading)).toBe('Ogre: actions');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(heading)).toBe('Kira: actions');
    const save = await openAction(ann.p, 'Roll a Last Gasp save');
    await expect.poll(() => text(save.getByTestId('action-odds'))).toContain(`${percent(chance(13))} to succeed`);
    expect(percent(chance(13))).toBe('25.9%');
    await save.getByRole('button', { name: 'Roll a Last Gasp save', exact: true }).click();
    await expect.poll(() => text(log)).toMatch(/Kira rolled a Last Gasp save/);

    // Dorn's turn: he grants her a save (a standard action; a failure does not count). A save she made ended them:
    // the GM starts them again first (set-up, not under test here).
    await expect.poll(() => text(heading)).toBe('Dorn: actions');
    type Sheets = { sheets: Record<string, { dying: { lastGasp: unknown } | null }> };
    if ((n.gmSock.view().world.ext['36th-way'] as Sheets).sheets['kira']!.dying?.lastGasp == null) {
      await n.gmSock.command({ type: '36th-way.lastGasp', characterId: 'kira', effect: "the medusa's gaze" });
    }
    const grant = await openAction(gm.p, 'Grant a Last Gasp save');
    expect(await grant.getByLabel('Target').inputValue()).toBe('kira');
    await expect.poll(() => text(grant.getByTestId('action-odds'))).toContain(`${percent(chance(13))} to succeed`);
    expect(await text(grant.getByTestId('action-odds'))).toContain('a failure does not count against the four');
    const before = (await text(log)).split('Kira rolled a Last Gasp save').length;
    await grant.getByRole('button', { name: 'Roll: Grant a Last Gasp save', exact: true }).click();
    await expect.poll(async () => (await text(log)).split('Kira rolled a Last Gasp save').length).toBe(before + 1);

    // Flee: a Campaign Loss, so the tap asks once naming it (review 11); then the fight ends.
    await gm.p.getByTestId('actions-panel').getByRole('button', { name: /^The party flees \(/ }).click();
    const confirm = gm.p.getByTestId('action-confirm');
    await expect.poll(() => text(confirm)).toContain('Campaign Loss');
    expect(await text(log)).not.toContain('Campaign Loss: the party fled');
    // Cancel keeps the fight; asking again and saying yes flees.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    await gm.p.getByTestId('actions-panel').getByRole('button', { name: /^The party flees \(/ }).click();
    await gm.p.getByTestId('action-confirm').getByRole('button', { name: 'The party flees: yes' }).click();
    await expect.poll(() => text(log)).toContain('Campaign Loss: the party fled; something major goes wrong.');
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Campaign Loss: the party fled');
    await expect.poll(() => gm.p.getByTestId('actions-panel').count()).toBe(0);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});

describe("The 36th Way: the GM's Skill checks, out of a fight (review 11 #3)", () => {
  it('the GM picks Dorn, sets Difficulty 12, sees 37.5% before the roll, and the check lands in the log on both screens', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.add', name: 'Dorn', kind: 'pc' });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, maxHp: 20 } });
    await n.gmSock.command({ type: '36th-way.sheet.set', sheet: { id: 'dorn', name: 'Dorn', kind: 'pc', characterId: n.idOf('Dorn'), level: 1, maxHp: 30 } });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const checks = gm.p.getByTestId('skill-checks');
    await checks.getByText('Skill checks').click();
    await checks.getByLabel('Who makes it').selectOption({ label: 'Dorn' });
    const form = checks.getByTestId('action-form');
    await form.getByLabel('Difficulty (the GM sets it)').fill('12');
    // A natural 12+ on 3d6: 81 of 216.
    await oddsOf(form, `${percent(chance(12))} to succeed`);
    expect(await text(form.getByTestId('action-odds'))).toContain('3d6 +0 vs Difficulty 12: a natural 12+ succeeds');
    await roll(form, 'Roll: Skill check');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Dorn made a check \(\d+ vs 12\): (success|failure)\./);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toMatch(/Dorn made a check \(\d+ vs 12\)/);
    // The phone has no GM checks panel.
    expect(await ann.p.getByTestId('skill-checks').count()).toBe(0);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});

describe('The Kleptonomicon: Level up where XP is shown (review 11 #4)', () => {
  it("the GM's episode bar lists Kira's level and XP; Level up raises her to level 2, logged on both screens", async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 2, defense: 12, hp: 12 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.awardXp', characterId: n.idOf('Kira'), amount: 2 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const xp = gm.p.getByTestId('experience');
    await expect.poll(() => text(xp)).toContain('Kira: level 1, 2 XP');
    expect(await ann.p.getByTestId('experience').count()).toBe(0);
    await xp.getByRole('button', { name: 'Level up Kira to level 2' }).click();
    await expect.poll(() => text(xp)).toContain('Kira: level 2, 2 XP');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Kira reaches level 2.');
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Kira reaches level 2.');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});

describe('Daggerheart: a long-term countdown with story beats (review 11 #4)', () => {
  it('the GM types the beats; a bad line is refused in words; ticking reaches the first beat, which the phone sees and not the next', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const cd = gm.p.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    await cd.getByLabel('Name', { exact: true }).fill('Cult rises');
    await cd.getByLabel('Kind').selectOption('longTerm');
    await cd.getByLabel('Start').fill('6');
    const beats = cd.getByLabel('Story beats (one a line, "value: what happens")');
    await beats.fill('the cult recruits the mayor');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    await expect.poll(() => text(cd.getByRole('alert'))).toBe('Story beat line 1 must start with the value it happens at, then a colon: "3: the cult takes the mayor".');
    // Both marked as news (audit 13 #10: "!" per line); the phone still gets only the one reached.
    await beats.fill('!5: the cult recruits the mayor\n!4: the ritual site is chosen');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    const list = cd.getByTestId('countdown-beats');
    await expect.poll(() => list.locator('li').allTextContents()).toEqual(['5: the cult recruits the mayor', '4: the ritual site is chosen']);
    await cd.getByRole('button', { name: 'Tick Cult rises down by one' }).click();
    await expect.poll(() => list.locator('li').allTextContents()).toEqual(['5: the cult recruits the mayor (reached)', '4: the ritual site is chosen']);
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Cult rises, 5: the cult recruits the mayor (the party can learn of this)');
    // The phone: the reached beat only; the GM's plan for 4 stays with the GM.
    await expect.poll(() => ann.p.getByTestId('countdown-beats').locator('li').allTextContents()).toEqual(['5: the cult recruits the mayor (reached)']);
    expect(await ann.p.content()).not.toContain('ritual site');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
