// Issue 20, review 10's leftovers, played by clicking in real Chromium: an OSR
// party that joins while foes are lined up from the bestiary comes into the
// fight in DEX order; a Kleptonomicon GM rolls initiative from Freeplay and
// each PC's Edge Saves reach the log (the phone's without the hidden foe).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('review10-leftovers');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('review 10 leftovers', () => {
  it('OSR: the party joins a fight started from a bestiary group, in DEX order', async () => {
    const t = await e2e!.table('osr', 'Barrow night');
    const gmSock = await e2e!.socket(t.gmToken);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const enc = gm.p.locator('.area-encounter');
    await enc.getByTestId('encounter-builder').waitFor();
    // The party arrives while the builder is open (the GM's party form, or another screen of the GM's).
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 10, hp: 10, dex: 14 } });
    await gmSock.command({ type: 'character.add', name: 'Dorn', kind: 'pc', stats: { maxHp: 12, hp: 12, dex: 16 } });
    const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
    await expect.poll(() => ready.locator('li strong').allTextContents()).toEqual(['Kira', 'Dorn']);
    // Two starter foes from the bestiary, then one click.
    const best = gm.p.getByTestId('bestiary');
    await best.getByRole('button', { name: 'Add the starter foes (Ordinary foe)' }).click();
    const foe = best.getByTestId('bestiary-entry').filter({ hasText: 'Ordinary foe' });
    await foe.getByLabel('How many').fill('2');
    await foe.getByRole('button', { name: 'Line up Ordinary foe' }).click();
    await expect.poll(() => ready.locator('li strong').allTextContents()).toEqual(['Kira', 'Dorn', 'Ordinary foe 1', 'Ordinary foe 2']);
    await gm.p.getByTestId('roll-initiative').click();
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    await expect.poll(() => order.getByTestId('combatant').count(), { timeout: 15_000 }).toBe(4);
    // 001 "Initiative": DEX 16 (Dorn), 14 (Kira), then the foes.
    const names = await order.getByTestId('combatant').evaluateAll((els) => els.map((e) => e.querySelector('.name')?.firstChild?.textContent?.trim() ?? ''));
    expect(names.slice(0, 2)).toEqual(['Dorn', 'Kira']);
    expect(await text(order)).toContain('Ordinary foe 2');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it("Kleptonomicon: Kira's Edge Saves are in both logs, the phone's never naming the hidden Lurker", async () => {
    const t = await e2e!.table('kleptonomicon', 'Heist night');
    const seat = await e2e!.seat(t, 'Ann');
    const gmSock = await e2e!.socket(t.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { edgeSave: 1 } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const enc = gm.p.locator('.area-encounter');
    const ready = enc.getByRole('list', { name: 'Combatants ready to start' });
    await ready.getByText('Kira', { exact: true }).waitFor();
    for (const [name, hidden] of [['Guard', false], ['Lurker', true]] as const) {
      await enc.getByLabel('Name').fill(name);
      await enc.getByLabel('Kind').selectOption('npc');
      await enc.getByLabel('Creature type').fill(name);
      if (hidden) await enc.getByLabel('hidden', { exact: true }).check();
      await enc.getByRole('button', { name: 'Add to encounter' }).click();
      await ready.getByText(name, { exact: true }).waitFor();
    }
    // Through the Episode's phases: the Opening Credits, then Freeplay, from which the Encounter starts.
    const gate = enc.getByTestId('encounter-gate');
    await gate.getByRole('button', { name: 'Start an Episode' }).click();
    await expect.poll(() => text(gate)).toContain('Opening Credits');
    expect(await enc.getByRole('button', { name: 'Roll initiative' }).isDisabled()).toBe(true);
    await gate.getByRole('button', { name: 'Go to Freeplay' }).click();
    await expect.poll(() => gate.count()).toBe(0);
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    await expect.poll(() => enc.getByTestId('combatant').count(), { timeout: 15_000 }).toBe(3);
    // The GM's line: the die, the Score needed (004: 6 or lower fails) and the verdict against the Guard's group first.
    const gmLine = gm.p.getByTestId('log').locator('li', { hasText: 'Edge Saves for Kira' });
    await expect.poll(() => gmLine.count()).toBe(1);
    expect(await text(gmLine)).toMatch(/Edge Saves for Kira \(a Score of 7 or more passes\): against foe group 1 \(Guard\) rolled d10 \d+.*= Score \d+, (passed|failed)/);
    // The phone's: Kira's saves against what Ann can see, and never the Lurker.
    const annLine = ann.p.getByTestId('log').locator('li', { hasText: 'Edge Saves for Kira' });
    await expect.poll(() => annLine.count()).toBe(1);
    expect(await text(annLine)).toContain('against foe group 1 (Guard) rolled d10');
    expect(await ann.p.content()).not.toContain('Lurker');
    expect(ann.frames.join('\n')).not.toContain('Lurker');
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
