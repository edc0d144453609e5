// Issue 20 in real Chromium: an Episode of The Kleptonomicon played through the
// controls that now reach its rules. The phone introduces its character (004
// "Opening Credits"), tries something improvised and plays a resolution scene
// (004 "Closing Credits"); the GM adds a cold open, sets Freeplay's loose turn
// order and passes the spotlight (004 "Freeplay"), rules on the try with the
// Test's odds shown first (004 "Improvising"), awards main Experience and sets
// a hidden foe's resource, which reaches no phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { night, oddsOf, openFreeplay, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('reach-klep-episode');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** Opens one of the GM's Episode tools (a button "Label (cost)") and returns its form. */
async function openTool(gm: Page, label: string, list = 'party-tools'): Promise<Locator> {
  const tools = gm.getByTestId('episode-tools').getByTestId(list);
  await tools.getByRole('button', { name: `${label} (` }).click();
  const form = tools.getByTestId('action-form');
  await form.waitFor();
  return form;
}

/** Sends the open form by its button and returns the result lines it shows. */
async function sendForm(form: Locator, button: string): Promise<string> {
  await form.getByRole('button', { name: button, exact: true }).click();
  await expect.poll(() => form.getByTestId('action-result').count()).toBe(1);
  return (await form.getByTestId('action-result').textContent()) ?? '';
}

describe('Kleptonomicon: an Episode through the controls issue 20 asked for', () => {
  it('Opening Credits, Freeplay with a loose order and a ruling, Experience, a hidden foe, Closing Credits: GM and phone', async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 1 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { edgeSave: 0 } });
    await n.gmSock.command({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: {} });
    const lurker = n.idOf('Lurker');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const bar = gm.p.getByTestId('episode-bar');
    const gmLog = () => gm.p.getByTestId('log').textContent();
    const annLog = () => ann.p.getByTestId('log').textContent();

    // --- Opening Credits: the phone introduces Alice with a clip; the GM's cold open follows.
    await bar.getByRole('button', { name: 'Start an Episode' }).click();
    const phonePanel = ann.p.getByTestId('freeplay-actions');
    await expect.poll(() => phonePanel.textContent()).toContain('Resolution scene: only in the Closing Credits');
    const intro = await openFreeplay(ann.p, 'Introduce Alice');
    await intro.getByLabel('A five-second clip (may be empty)').fill('cheats at cards');
    expect(await sendForm(intro, 'Introduce Alice')).toBe('Alice is introduced. Clip: cheats at cards');
    await expect.poll(gmLog).toContain('Alice is introduced. Clip: cheats at cards');
    // The entry relabels at once from the pushed state, still in the Opening Credits (review 13: only at the next phase).
    const phoneList = phonePanel.getByRole('group', { name: 'What Alice can do outside a fight' });
    await expect.poll(() => phoneList.getByRole('button', { name: 'Introduce Alice again', exact: true }).count()).toBe(1);
    expect(await phoneList.getByRole('button', { name: 'Introduce Alice', exact: true }).count()).toBe(0);
    // Freeplay's tools wait, and say why.
    const party = bar.getByTestId('episode-tools').getByTestId('party-tools');
    await party.locator('details summary').click();
    await expect.poll(() => party.textContent()).toContain('Set a loose turn order: only in Freeplay, not the Opening Credits');
    const cold = await openTool(gm.p, 'Cold open');
    await cold.getByLabel('The scene').fill('A monarch raises taxes.');
    expect(await sendForm(cold, 'Cold open')).toBe('Cold open: A monarch raises taxes.');
    await expect.poll(annLog).toContain('Cold open: A monarch raises taxes.');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);

    // --- Freeplay: Bram first, then Alice (ticked); the spotlight passes from Bram to Alice.
    await bar.getByRole('button', { name: 'Go to Freeplay' }).click();
    const order = await openTool(gm.p, 'Set a loose turn order');
    await order.getByLabel('First in the spotlight').selectOption({ label: 'Bram' });
    await order.getByRole('checkbox', { name: /Alice/ }).check();
    expect(await sendForm(order, 'Set a loose turn order')).toBe('Loose turn order: Bram, Alice.');
    const pass = await openTool(gm.p, 'Pass the spotlight from Bram to Alice');
    expect(await sendForm(pass, 'Pass the spotlight from Bram to Alice')).toBe('Spotlight: Alice.');
    await expect.poll(annLog).toContain('Spotlight: Alice.');

    // --- The phone tries something; the GM rules it needs a Test, the odds shown before the roll.
    const tryForm = await openFreeplay(ann.p, 'Try something (the GM rules)');
    await tryForm.getByLabel('What they try').fill('climb the bell tower');
    expect(await sendForm(tryForm, 'Try something (the GM rules)')).toBe('Alice tries: climb the bell tower');
    const ruling = await openTool(gm.p, 'Alice\'s try "climb the bell tower": needs a Test');
    // +0: a die of 7, 8 or 9 (2/20 each) or the critical 10 (1/20) beats the fail Score 6: 7/20. +1 adds the 6: 9/20.
    await oddsOf(ruling, '35% to succeed');
    await ruling.getByLabel('Modifier').fill('1');
    await oddsOf(ruling, '45% to succeed');
    // Ruled, the try leaves the GM's list (its form with it): the line is in both logs.
    await ruling.getByRole('button', { name: 'Roll: Alice\'s try "climb the bell tower": needs a Test', exact: true }).click();
    await expect.poll(gmLog).toMatch(/Alice: a Test: Score \d+ \((pass|fail)\)\./);
    await expect.poll(annLog).toMatch(/Alice: a Test: Score \d+ \((pass|fail)\)\./);
    await expect.poll(() => party.getByRole('button', { name: /climb the bell tower/ }).count()).toBe(0);
    await expect.poll(() => party.getByRole('button', { name: /climb the bell tower/ }).count()).toBe(0);

    // --- A character's tools: Alice gets 2 main Experience Points, beside the Experience row.
    await bar.getByTestId('episode-character-tools').locator('summary').click();
    await bar.getByLabel('Character', { exact: true }).selectOption({ label: 'Alice' });
    const award = await openTool(gm.p, 'Award or take Experience', 'character-tools');
    await award.getByLabel('Points (negative takes back)').fill('2');
    await award.getByLabel('Why', { exact: true }).fill('main goal');
    expect(await sendForm(award, 'Award or take Experience')).toBe('Alice gains 2 Experience Points (main goal).');
    await expect.poll(() => bar.getByTestId('experience').textContent()).toContain('Alice: level 1, 2 XP');
    await expect.poll(annLog).toContain('Alice gains 2 Experience Points (main goal).');

    // --- The hidden Lurker's health, set by name: the GM's log has it, no phone frame or page does.
    await bar.getByLabel('Character', { exact: true }).selectOption({ label: 'Lurker (foe or NPC)' });
    const res = await openTool(gm.p, 'Set a resource', 'character-tools');
    await res.getByLabel('Maximum').fill('12');
    await res.getByLabel('Now', { exact: true }).fill('9');
    expect(await sendForm(res, 'Set a resource')).toBe('Lurker: health 9/12.');
    await expect.poll(gmLog).toContain('Lurker: health 9/12.');
    expect(await axeViolations(gm.p)).toEqual([]);

    // --- Closing Credits: Alice's resolution scene from the phone, then the GM's own scene.
    await bar.getByRole('button', { name: 'Roll the Closing Credits' }).click();
    const scene = await openFreeplay(ann.p, 'Resolution scene');
    await scene.getByLabel('The scene').fill('shares a sandwich with the baker');
    expect(await sendForm(scene, 'Resolution scene')).toBe('Resolution scene (Alice): shares a sandwich with the baker');
    const closing = await openTool(gm.p, "The GM's closing scene");
    await closing.getByLabel('The scene').fill('the troll is toasted at dinner');
    expect(await sendForm(closing, "The GM's closing scene")).toBe('Resolution scene: the troll is toasted at dinner');
    await expect.poll(annLog).toContain('Resolution scene: the troll is toasted at dinner');
    expect(await axeViolations(ann.p)).toEqual([]);

    // The hidden foe: neither its name, its id nor its numbers reached the phone.
    expect(await ann.p.content()).not.toContain('Lurker');
    // The frames were watched: the phone's own character's lines are in them.
    expect(ann.frames.some((f) => f.includes('cheats at cards'))).toBe(true);
    expect(ann.frames.some((f) => f.includes('Lurker') || f.includes(lurker))).toBe(false);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  }, 240_000);
});
