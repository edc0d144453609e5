// The Kleptonomicon's Edge Save and Sneaky on the character's sheet, in real
// Chromium (issue 16): the GM sets them in the episode bar, a bad number is
// caught in place, the player's phone shows them, and the server's Edge Saves
// at the next Encounter read them (two dice and the +2 in every roll).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterNamed, startE2e, type E2e } from './harness.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('klepto-sheet');
});

afterAll(async () => {
  await e2e?.close();
});

describe('Kleptonomicon sheet: Edge Save and Sneaky', () => {
  it('the GM sets them, the phone shows them, and the Edge Saves read them', async () => {
    const made = await e2e!.table('kleptonomicon', 'Heist');
    const seat = await e2e!.seat(made, 'Ann');
    const gmSock = await e2e!.socket(made.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Quill', kind: 'pc', seatId: seat.seatId });
    const quill = characterNamed(gmSock, 'Quill');

    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const phone = await e2e!.open(seat.link, { width: 390, height: 844 });
    const sheets = gm.p.getByTestId('edge-save-sheets');
    await sheets.locator('summary').click();
    const form = sheets.getByRole('form', { name: "Quill's Edge Save" });
    const edge = form.getByLabel('Quill: Edge Save');

    // A number out of range is caught before anything is sent.
    await edge.fill('99');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('from -20 to 20');
    expect(gmSock.view().world.characters[quill]!.stats['edgeSave']).toBeUndefined();

    await edge.fill('2');
    await form.getByLabel('Sneaky').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => gmSock.view().world.characters[quill]!.stats).toMatchObject({ edgeSave: 2, sneaky: true });
    await expect.poll(() => phone.p.getByTestId('my-edge-save').textContent()).toBe('Quill: Edge Save +2 · Sneaky');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain("Quill's sheet: Edge Save +2 · Sneaky.");

    // The Encounter: the PC joins linked to Quill with no numbers of its own; its Edge Saves read the sheet.
    await gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await gmSock.command({ type: 'kleptonomicon.freeplay' });
    await gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } },
        { id: 'hound', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound' } },
        { id: 'quill', name: 'Quill', kind: 'pc', characterId: quill },
      ],
    });
    const enc = gmSock.view().world.ext['encounter'] as { combatants: { quill: { placement: { rolls: { detail: { dice: unknown[]; modifier: number } }[] } } } };
    const rolls = enc.combatants.quill.placement.rolls;
    expect(rolls.length).toBeGreaterThan(0);
    for (const r of rolls) expect(r.detail).toMatchObject({ modifier: 2, dice: [expect.anything(), expect.anything()] });

    // The phone has no sheet form: only the GM sets these.
    expect(await phone.p.getByTestId('edge-save-sheets').count()).toBe(0);
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
