// The Kleptonomicon's fights and the time between Episodes in real Chromium (ADR 81): a table that never
// started an Episode may start a fight at once; once it has played one, Between Episodes the builder says
// why not and offers the next Episode, and "Roll initiative" is only offered where the engine accepts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { builderLine, type E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-between-episodes');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: { textContent(): Promise<string | null> }) => (await l.textContent()) ?? '';

describe('Kleptonomicon: a fight Between Episodes', () => {
  it('starts at once at a table with no Episode yet; after an Episode it waits for the next one, and the button says so', async () => {
    const t = await e2e!.table('kleptonomicon', 'Between night');
    const sock = await e2e!.socket(t.gmToken);
    await sock.command({ type: 'character.add', name: 'Alice', kind: 'pc', stats: { edgeSave: 1 } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const builder = gm.p.getByTestId('encounter-builder');
    const gate = builder.getByTestId('encounter-gate');
    const roll = gm.p.getByTestId('roll-initiative');

    // --- No Episode yet: advice with the way into one, and the fight starts from here.
    await builderLine(gm.p, { name: 'Rat', hp: '4' });
    await expect.poll(() => text(gate)).toContain('No Episode played yet: this fight may start now.');
    expect(await roll.isDisabled()).toBe(false);
    await roll.click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('The encounter begins.');
    await gm.p.getByRole('button', { name: 'End encounter' }).click();
    await expect.poll(() => sock.view().world.ext['encounter'] !== undefined && (sock.view().world.ext['encounter'] as { active: boolean }).active).toBe(false);

    // --- An Episode played to its end: Between Episodes, the start is refused by the engine, and the screen offers no start.
    for (const type of ['kleptonomicon.freeplay', 'kleptonomicon.closingCredits', 'kleptonomicon.endEpisode']) await sock.command({ type });
    await expect.poll(() => (sock.view().world.ext['kleptonomicon'] as { phase: string; episode: number } | undefined)?.phase).toBe('between');
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    for (const type of ['kleptonomicon.freeplay', 'kleptonomicon.closingCredits', 'kleptonomicon.endEpisode']) await sock.command({ type });
    await builderLine(gm.p, { name: 'Wolf', hp: '6' });
    await expect.poll(() => text(gate)).toContain('Between Episodes: the last Episode has ended');
    expect(await roll.isDisabled()).toBe(true);
    await expect(sock.command({ type: 'encounter.start', combatants: [{ id: 'w9', name: 'Wolf', kind: 'npc', stats: { creatureType: 'Wolf', edgeSave: 0 } }] })).rejects.toThrow(/no Encounter starts between Episodes once the table plays them/);

    // --- The gate's own buttons lead to Freeplay, and the fight starts there.
    await gate.getByRole('button', { name: 'Start an Episode' }).click();
    await expect.poll(() => text(gate)).toContain('Opening Credits');
    expect(await roll.isDisabled()).toBe(true);
    await gate.getByRole('button', { name: 'Go to Freeplay' }).click();
    await expect.poll(() => gate.count()).toBe(0);
    expect(await roll.isDisabled()).toBe(false);
    await roll.click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Encounter 2 begins.');
    expect(gm.errors).toEqual([]);
  });
});
