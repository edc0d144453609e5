// Issue 20 for the 36th Way, in real Chromium by clicking: every command the
// reachability guard listed as unreached now has a control.
// - From Ann's phone (her Kira's actions): a non-attack ability (36th-way.useAbility),
//   Pop free (36th-way.popOff), and on a later turn Sustain with its exact odds
//   before the roll (36th-way.sustain, 002 "Ability Entries": Sustain X);
// - on the GM's screen: the range from a creature on its tracker row (36th-way.position),
//   the escalation die moved by hand and held for one combatant (encounter.escalationOffset,
//   encounter.escalationSuppress), downtime beside the rests (36th-way.restore), and
//   Remove sheet in the sheet editor (36th-way.sheet.remove).
// Each result lands in the log in words; a hidden foe's name reaches no phone frame.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { percent } from '../packages/web/src/lib/attack.ts';
import { axeViolations } from './session.ts';

const CANARY = 'Shade-Rq-canary';
let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('reach36');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();
const log = (p: Page) => p.getByTestId('log');
const heading = (p: Page) => p.getByTestId('actions-panel').getByRole('heading');

/** Chance that a plain 3d6 reaches `target`, counting the 216 faces. */
function chance(target: number): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (a + b + c >= target) n++;
  return n / 216;
}

describe('The 36th Way: the controls issue 20 owed', () => {
  it('phone: Ward, Pop free and Sustain with its odds; GM: range, escalation die, downtime and Remove sheet; the hidden Shade stays off the phone', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    const g = n.gmSock;
    await g.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await g.command({ type: 'character.add', name: 'Dorn', kind: 'pc' });
    const abilities = [
      { id: 'ward', name: 'Ward', frequency: 'at-will', action: 'quick', sustain: 11 },
      { id: 'second-wind', name: 'Second Wind', frequency: 'daily', action: 'quick' },
    ];
    await g.command({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira'), level: 1, ac: 16, maxHp: 20, recoveries: 3, maxRecoveries: 8, abilities } });
    await g.command({ type: '36th-way.sheet.set', sheet: { id: 'dorn', name: 'Dorn', kind: 'pc', characterId: n.idOf('Dorn'), level: 1, ac: 17, maxHp: 30 } });
    await g.command({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 1, ac: 14, pd: 10, md: 10, maxHp: 40 } });
    await g.command({ type: '36th-way.sheet.set', sheet: { id: 'shade', name: CANARY, kind: 'npc', level: 1, ac: 14, pd: 10, md: 10, maxHp: 20 } });
    // Set-up, not under test: Kira spent her daily Second Wind before the fight (no action spent outside one).
    await g.command({ type: '36th-way.useAbility', characterId: 'kira', ability: 'second-wind' });
    await g.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'fast', characterId: n.idOf('Kira') },
        { id: 'dorn', name: 'Dorn', kind: 'pc', side: 'party', band: 'medium', characterId: n.idOf('Dorn') },
        { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' },
        { id: 'shade', name: CANARY, kind: 'npc', side: 'foes', band: 'very-slow', visibility: 'hidden' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => text(heading(gm.p))).toBe('Kira: actions');

    // GM, Kira's row: the range from Kira to the Ogre, engaged (002 "Positioning and Movement").
    await gm.p.getByText('Adjust Kira', { exact: true }).click();
    const kiraTools = gm.p.locator('[data-adjust=kira]');
    await kiraTools.getByLabel('Range from Kira to').selectOption('ogre');
    expect(await kiraTools.getByLabel('Range from Kira to').locator('option:checked').textContent()).toBe('Ogre (now nearby)');
    await kiraTools.getByLabel('Range', { exact: true }).selectOption('engaged');
    await kiraTools.getByRole('button', { name: 'Set range from Kira' }).click();
    await expect.poll(() => text(log(gm.p))).toContain('The GM sets the range: Kira is engaged with Ogre.');
    await expect.poll(() => text(log(ann.p))).toContain('The GM sets the range: Kira is engaged with Ogre.');
    await expect.poll(() => kiraTools.getByLabel('Range from Kira to').locator('option:checked').textContent()).toBe('Ogre (now engaged)');
    // The hidden Shade engaged with Dorn: the GM's line only.
    await gm.p.getByText(`Adjust ${CANARY}`, { exact: true }).click();
    const shadeTools = gm.p.locator('[data-adjust=shade]');
    await shadeTools.getByLabel(`Range from ${CANARY} to`).selectOption('dorn');
    await shadeTools.getByLabel('Range', { exact: true }).selectOption('engaged');
    await shadeTools.getByRole('button', { name: `Set range from ${CANARY}` }).click();
    await expect.poll(() => text(log(gm.p))).toContain(`The GM sets the range: ${CANARY} is engaged with Dorn.`);

    // Ann's phone, Kira's turn: Ward is one tap (1 quick action, at-will), and its Sustain is not now in the turn it started.
    const panel = ann.p.getByTestId('actions-panel');
    await panel.getByRole('button', { name: /^Ward \(1 quick action, at-will\)/ }).click();
    await expect.poll(() => text(log(ann.p))).toContain('Kira used Ward.');
    await expect.poll(() => panel.getByTestId('actions-blocked').textContent()).toContain('Sustain Ward: Ward is already going this turn: sustain it on a later turn');
    expect(await panel.getByTestId('actions-blocked').textContent()).toContain('Second Wind: Second Wind is expended until a full rest');
    // Pop free of the Ogre: no roll, no odds; the Ogre is picked.
    const pop = await openAction(ann.p, 'Pop free');
    expect(await pop.getByTestId('action-odds').count()).toBe(0);
    expect(await pop.getByLabel('From').inputValue()).toBe('ogre');
    await pop.getByRole('button', { name: 'Pop free', exact: true }).click();
    await expect.poll(() => text(log(ann.p))).toContain('Kira popped free of Ogre (no disengage check).');
    await expect.poll(() => text(log(gm.p))).toContain('Kira popped free of Ogre (no disengage check).');

    // Round 2: Kira sustains Ward, 11+ on 3d6 (108 of 216) shown before the roll.
    for (const next of ['Dorn', 'Ogre', CANARY, 'Kira']) {
      await gm.p.getByTestId('next-turn').click();
      await expect.poll(() => text(heading(gm.p))).toBe(`${next}: actions`);
    }
    const sustain = await openAction(ann.p, 'Sustain Ward');
    await oddsOf(sustain, `${percent(chance(11))} to succeed`);
    expect(percent(chance(11))).toBe('50%');
    expect(await text(sustain.getByTestId('action-odds'))).toContain('Sustain 11+ on 3d6 with a quick action');
    await roll(sustain, 'Roll: Sustain Ward');
    await expect.poll(() => text(log(ann.p))).toMatch(/Kira (sustained|failed to sustain) Ward \(3d6 \[\d, \d, \d\] = \d+ vs 11\+\)/);

    // The escalation die (1 in round 2): the GM moves it up by 1; the phone reads +2.
    const esc = gm.p.getByTestId('escalation-controls');
    await esc.locator('summary').click();
    await esc.getByRole('button', { name: 'Escalation die up 1 (now 1)' }).click();
    await expect.poll(() => text(log(ann.p))).toContain('The GM moves the escalation die up by 1: it reads 2.');
    await expect.poll(() => ann.p.getByTestId('escalation').getByRole('img').getAttribute('aria-label')).toBe('Escalation die 2');
    // Held for the hidden Shade: the GM's line only. Held for Kira and let go: both screens read it.
    await esc.getByLabel('Hold it (counts as 0) for').selectOption('shade');
    await esc.getByRole('button', { name: 'Hold', exact: true }).click();
    await expect.poll(() => text(log(gm.p))).toContain(`The GM holds the escalation die for ${CANARY}: it counts as 0 for them.`);
    await esc.getByLabel('Hold it (counts as 0) for').selectOption('kira');
    await esc.getByRole('button', { name: 'Hold', exact: true }).click();
    await expect.poll(() => text(log(ann.p))).toContain('The GM holds the escalation die for Kira: it counts as 0 for them.');
    await esc.getByRole('button', { name: 'Release Kira' }).click();
    await expect.poll(() => text(log(ann.p))).toContain('Kira counts the escalation die again.');

    // Downtime beside the rests: two recoveries and Second Wind back for Kira.
    const downtime = gm.p.getByTestId('downtime');
    await downtime.locator('summary').click();
    await downtime.getByLabel('PC', { exact: true }).selectOption('kira');
    await downtime.getByLabel('Recoveries back').fill('2');
    await downtime.getByLabel('Ability back').selectOption('second-wind');
    await downtime.getByRole('button', { name: 'Give back' }).click();
    await expect.poll(() => text(log(ann.p))).toContain('Kira regains 2 recoveries after some downtime (5 of 8 now).');
    await expect.poll(() => text(log(ann.p))).toContain('Kira gets Second Wind back after some downtime.');
    // Nothing to give: said in the form, nothing sent.
    await downtime.getByLabel('Recoveries back').fill('0');
    await downtime.getByRole('button', { name: 'Give back' }).click();
    expect(await text(downtime.getByRole('alert'))).toBe('Give Kira a recovery, an ability, or both.');

    // The sheet editor: Dorn's sheet removed after a confirm; Dorn stays. The GM's line only.
    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').first().click();
    await editor.getByLabel('Sheet of').selectOption('dorn');
    await editor.getByRole('button', { name: "Remove Dorn's sheet" }).click();
    await editor.getByRole('button', { name: "Yes, remove Dorn's sheet" }).click();
    await expect.poll(() => text(log(gm.p))).toContain("Dorn's 36th Way sheet is removed; the character stays at the table.");
    await expect.poll(() => text(editor.getByTestId('sheet-saved'))).toBe("Removed Dorn's sheet; Dorn stays.");
    expect(await gm.p.getByRole('list', { name: 'Turn order' }).textContent()).toContain('Dorn');

    // The phone never read the GM-only lines, nor the hidden Shade in any frame.
    await ann.p.waitForTimeout(300);
    expect(await text(log(ann.p))).not.toContain('sheet is removed');
    expect(ann.frames.filter((f) => f.includes(CANARY))).toEqual([]);
    expect(await ann.p.content()).not.toContain(CANARY);
    // The new controls open (range form, escalation die, downtime) pass the accessibility check.
    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
