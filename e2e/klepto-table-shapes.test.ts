// The Kleptonomicon's structured table rules at creation (ADR 118), played as a GM would in real Chromium: the
// landing page's "Advanced: table rules" sets a sixth distance (Far Sight, 40u) and the default movement styles
// (Double Fly and Walk) with their own editors, a wrong value said beside its field before anything is sent, and the
// open form fits a 390 px phone; the GM's Table rules panel then says both in words, and the GM screen plays by
// them: Kira, who lists no styles, moves by Fly from an 8u pool, and a 20u move is logged under "Far Sight".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { openAction, openTableRules, roll, startE2e, untilTurnOf } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { horizontalOverflow, watchErrors } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-table-shapes');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Kleptonomicon: the sixth distance and the default movement styles chosen at creation', () => {
  it('are set on the create form with errors beside the field, read in words on the Table rules panel, and used on the GM screen', async () => {
    const ctx = await e2e!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(ctx);
    const p = await ctx.newPage();
    const errors = watchErrors(p);
    await p.goto(`${e2e!.server.url}/`);
    await p.getByLabel('Table name').fill('Heist night');
    await p.getByLabel('Rules').selectOption('kleptonomicon');
    const advanced = p.getByTestId('create-rules');
    await advanced.locator('summary').click();

    // The sixth distance: its own fields, not "(set when the table is created)".
    const sixth = advanced.getByTestId('rule-kleptonomicon-sixthDistance');
    await sixth.waitFor();
    expect(await text(sixth)).toContain('(the default)');
    const distance = sixth.getByTestId('rule-kleptonomicon-sixthDistance-editor');
    expect(await distance.getByLabel('No limit').isChecked()).toBe(true);
    await distance.getByLabel('Name', { exact: true }).fill('Far Sight');
    await distance.getByLabel(/^Key/).fill('far-sight');
    await distance.getByLabel('No limit').uncheck();
    // 12u is not past the Shooting Distance's 16u: said beside the units, in words.
    await distance.getByLabel(/^Units/).fill('12');
    await expect.poll(() => text(distance.getByRole('alert'))).toBe("Its units must be a whole number from 17 to 1000 (past the Shooting Distance's 16u), or no limit; 12 is not.");
    // The draft holds what is on screen: Create now is refused by the server in the same words, and no table is made.
    await p.getByRole('button', { name: 'Create table' }).click();
    await expect.poll(() => text(p.locator('.landing p.error[role=alert]').last())).toContain("its units must be a whole number from 17 to 1000 (past the Shooting Distance's 16u), or no limit; 12 is not");
    expect(new URL(p.url()).hash).toBe('');
    await distance.getByLabel(/^Units/).fill('40');
    await expect.poll(() => distance.getByRole('alert').count()).toBe(0);
    expect(await sixth.getByRole('button', { name: 'Back to the default (Seeing Distance (no limit))' }).count()).toBe(1);

    // The movement styles: rows of a style and how far, added and removed.
    const styles = advanced.getByTestId('rule-kleptonomicon-defaultMovementStyles');
    const list = styles.getByTestId('rule-kleptonomicon-defaultMovementStyles-editor');
    expect(await list.getByTestId('rule-kleptonomicon-defaultMovementStyles-row').count()).toBe(2);
    expect(await list.getByLabel('Movement style 1', { exact: true }).inputValue()).toBe('walk');
    expect(await list.getByLabel('Movement style 2: how far').inputValue()).toBe('half');
    expect(await list.getByLabel('Movement style 1', { exact: true }).locator('option').allTextContents()).toEqual(['Walk', 'Jump', 'Climb', 'Swim', 'Fly', 'Levitate']);
    await list.getByLabel('Movement style 1', { exact: true }).selectOption('fly');
    await list.getByLabel('Movement style 1: how far').selectOption({ label: 'Double (8u)' });
    await list.getByRole('button', { name: 'Remove movement style 2' }).click();
    expect(await list.getByRole('button', { name: 'Remove movement style 1' }).isDisabled()).toBe(true);
    // Added: the first style not yet listed (Walk), at its base 4u.
    await list.getByRole('button', { name: 'Add a movement style' }).click();
    expect(await list.getByLabel('Movement style 2', { exact: true }).inputValue()).toBe('walk');
    expect(await list.getByLabel('Movement style 2: how far').inputValue()).toBe('normal');
    // The same style twice is refused beside that row.
    await list.getByLabel('Movement style 2', { exact: true }).selectOption('fly');
    await expect.poll(() => text(list.getByRole('alert'))).toBe('Movement style 2 repeats "fly" (each style once).');
    await list.getByLabel('Movement style 2', { exact: true }).selectOption('walk');
    await expect.poll(() => list.getByRole('alert').count()).toBe(0);
    expect(await text(advanced.locator('summary'))).toBe('Advanced: table rules (2 changed from the defaults)');

    // A phone's width: the open form does not widen the page; and every control has its name.
    await p.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => horizontalOverflow(p)).toBe(0);
    await p.setViewportSize({ width: 1280, height: 900 });
    expect(await axeViolations(p)).toEqual([]);

    await p.getByRole('button', { name: 'Create table' }).click();
    await p.locator('[data-testid=conn-status][data-status=open]').waitFor();

    // The GM's Table rules panel: both read-only, in words.
    const panel = await openTableRules(p);
    const keptSixth = panel.getByTestId('rule-kleptonomicon-sixthDistance');
    await keptSixth.waitFor();
    expect(await text(keptSixth.locator('#rule-kleptonomicon-sixthDistance'))).toBe('chosen when the table was created: Far Sight (40u)');
    expect(await text(panel.locator('#rule-kleptonomicon-defaultMovementStyles'))).toBe('chosen when the table was created: Double Fly (8u), Walk (4u)');
    expect(await text(panel)).not.toContain('{"');
    expect(await keptSixth.getByRole('button').count()).toBe(0);

    // The fight (set up over the GM's own link): Kira lists no styles, so her turn starts with the table's.
    const token = decodeURIComponent(new URL(p.url()).hash.replace(/^#gm=/, ''));
    const sock = await e2e!.socket(token);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { edgeSave: 5, athletics: 30 } });
    const kira = Object.values(sock.view().world.characters).find((c) => c.name === 'Kira')!.id;
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    await sock.command({ type: 'encounter.start', combatants: [{ id: 'kira', name: 'Kira', kind: 'pc', characterId: kira }, { id: 'rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', edgeSave: 0 } }] });
    await untilTurnOf(sock, 'kira');
    await expect.poll(() => p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Kira: actions');
    const move = await openAction(p, 'Move');
    expect(await text(p.getByTestId('actions-panel'))).toContain('movement: 8u left this turn');
    expect((await move.getByLabel('Style').locator('option').allTextContents()).map((o) => o.replace(/\s+/g, ' '))).toEqual([expect.stringMatching(/^Fly.*8u left/), expect.stringMatching(/^Walk.*4u left/)]);
    // Two Dashes (the second's Athletics Test passes at +30): triple the 8u pool, 24u, and a 20u flight is past 16u.
    await sock.command({ type: 'kleptonomicon.dash', characterId: kira });
    await sock.command({ type: 'kleptonomicon.dash', characterId: kira });
    await expect.poll(() => text(p.getByTestId('actions-panel'))).toContain('movement: 24u left this turn');
    // The open form follows: its Units now go up to 24.
    const far = move;
    await expect.poll(() => far.getByLabel('Units').getAttribute('max')).toBe('24');
    await far.getByLabel('Style').selectOption('fly');
    await far.getByLabel('Units').fill('20');
    expect(await roll(far, 'Move')).toContain('Kira moves 20u by fly (Far Sight).');
    await expect.poll(() => text(p.getByTestId('log'))).toContain('Kira moves 20u by fly (Far Sight).');
    // The one refused create request is the browser's only complaint.
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  }, 240_000);
});
