// A hidden foe's automatic sheet never reaches a phone (issue 20, ADR 30), in
// real Chromium. The GM types a visible foe and a hidden one with their
// defences in the builder and rolls initiative; the web then gives each foe its
// sheet keyed by its combatant (36th Way: AC/PD/MD; teams: evasion). The GM's
// socket holds the hidden foe's sheet; the player's phone never receives its
// name in any WebSocket frame, page or target list, while the visible foe shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, openAction, screen, startE2e } from './actions-flow.ts';
import { whoStarts, type E2e } from './harness.ts';
import { foeLine, rollUntilVeskActs, vesksNight } from './foe-lines.ts';
import { axeViolations } from './session.ts';

const CANARY = 'Lurker-Wq-canary';
let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('hidden-foe-sheets');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** The sheets a ruleset keeps in a socket's view, by name. */
function sheetNames(view: { world: { ext: { [k: string]: unknown } } }, rules: string): string[] {
  const sheets = (view.world.ext[rules] as { sheets?: Record<string, { name?: string }> } | undefined)?.sheets ?? {};
  return Object.values(sheets).map((s) => s.name ?? '');
}

describe("a hidden foe's automatic sheet stays off the phone", () => {
  it('36th Way: the hidden foe typed with AC/PD/MD gets its sheet, which no phone frame carries', async () => {
    const { n, gm, ann } = await vesksNight(e2e!, contexts);
    // Foes go last (very slow), so the hero's turn comes first; the band chosen once stays for the next line.
    await foeLine(gm.p, { name: 'Ogre', 'quick-ac': '14', 'quick-pd': '13', 'quick-md': '10', hp: '60' });
    expect(await gm.p.locator('#build-init-band').inputValue()).toBe('very-slow');
    await foeLine(gm.p, { name: CANARY, 'quick-ac': '17', 'quick-pd': '15', 'quick-md': '12', hp: '40' }, true);
    await rollUntilVeskActs(gm, ann);
    // The GM holds both automatic sheets.
    await expect.poll(() => sheetNames(n.gmSock.view(), '36th-way').sort(), { timeout: 15_000 }).toEqual([CANARY, 'Ogre', 'Vesk'].sort());
    const form = await openAction(ann.p, 'Attack');
    await expect.poll(() => form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Ogre (nearby)']);
    // The phone knows the Ogre, and nothing of the Lurker: not in a frame, the page or a target list.
    expect(ann.frames.some((f) => f.includes('Ogre'))).toBe(true);
    expect(ann.frames.filter((f) => f.includes(CANARY))).toEqual([]);
    expect(await ann.p.content()).not.toContain(CANARY);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('teams: the hidden foe typed with its evasion gets its sheet, which no phone frame carries', async () => {
    const n = await night(e2e!, 'teams', 'Bo');
    await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const bo = await screen(e2e!.browser, contexts, n.links.seat, true);
    await gm.p.getByTestId('builder-rows').getByText('Boudica').waitFor();
    await foeLine(gm.p, { name: 'Raider', 'init-team': 'raiders', 'quick-evasion': '6', hp: '10' });
    await foeLine(gm.p, { name: CANARY, 'init-team': 'raiders', 'quick-evasion': '9', hp: '12' }, true);
    await whoStarts(gm.p, 'Party');
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => sheetNames(n.gmSock.view(), 'teams').sort(), { timeout: 15_000 }).toEqual([CANARY, 'Raider'].sort());
    // The phone sees the Raider on the tracker, and never the Lurker.
    await expect.poll(() => bo.p.getByRole('list', { name: 'Turn order' }).textContent(), { timeout: 15_000 }).toContain('Raider');
    await new Promise((r) => setTimeout(r, 500));
    expect(bo.frames.filter((f) => f.includes(CANARY))).toEqual([]);
    expect(await bo.p.content()).not.toContain(CANARY);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(bo.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(bo.errors).toEqual([]);
  });
});
