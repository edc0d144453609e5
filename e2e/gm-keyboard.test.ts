// The GM screen by keyboard: the help overlay (a real dialog that takes and
// returns focus), N for next turn (twice quickly: one turn, the second press
// refused in words, ADR 46 and 53), U / Ctrl+Z for undo (twice quickly: two),
// Shift+U for redo, R to the dice box; single keys do nothing while typing
// in a field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2e } from './harness.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('kb');
});

afterAll(async () => {
  await e2e?.close();
});

describe('GM screen keyboard', () => {
  it('drives turns, undo and redo from the keyboard, with a help dialog', async () => {
    const { links } = await e2e!.table('osr', 'Keys');
    const { p: page, errors } = await e2e!.open(links.gm, { width: 1280, height: 900 });

    // Three fighters with scores, started from the form.
    const enc = page.locator('.area-encounter');
    for (const [name, score] of [['Ada', '18'], ['Bram', '12'], ['Cole', '6']] as const) {
      await enc.getByLabel('Name').fill(name);
      await enc.getByLabel('DEX').fill(score);
      await enc.getByRole('button', { name: 'Add to encounter' }).click();
    }
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    // Who acts, without the on-deck name: a wait for the next name must not pass before the turn changed.
    const acting = () => nowActing(enc);
    await expect.poll(acting).toBe('Now acting: Ada');

    // Typing an "n" in a field is just a letter.
    await enc.getByText('Add a combatant').click();
    await enc.getByLabel('Name').fill('n');
    await enc.getByLabel('Name').press('n');
    expect(await acting()).toBe('Now acting: Ada');
    await enc.getByLabel('Name').blur();

    // N ends the turn; the order follows the scores.
    await page.keyboard.press('n');
    await expect.poll(acting).toBe('Now acting: Bram');
    await page.keyboard.press('n');
    await expect.poll(acting).toBe('Now acting: Cole');

    // U undoes (the undo button named it first), Shift+U redoes, Ctrl+Z undoes again.
    expect(await page.getByTestId('undo').getAttribute('title')).toMatch(/^Undo: /);
    await page.keyboard.press('u');
    await expect.poll(acting).toBe('Now acting: Bram');
    await page.keyboard.press('Shift+U');
    await expect.poll(acting).toBe('Now acting: Cole');
    await page.keyboard.press('Control+z');
    await expect.poll(acting).toBe('Now acting: Bram');

    // Two presses faster than the server answers (both in one task, as a loaded machine or a quick GM makes
    // them). N, N: both name Bram's turn; the first ends it, the second waits for it and is then refused in
    // words (the turn is over, ADR 53), never as "someone changed the table first".
    const twice = (key: string) => page.evaluate(`for (const _ of [1, 2]) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '${key}', bubbles: true }))`);
    const toast = page.getByTestId('rejection');
    await twice('n');
    await expect.poll(() => toast.textContent()).toContain('That turn is already over');
    expect(await acting()).toBe('Now acting: Cole');
    expect(await enc.getByTestId('round').textContent()).toBe('Round 1');
    // U, U: two steps back, Bram's turn end and then Ada's.
    await twice('u');
    await expect.poll(acting).toBe('Now acting: Ada');
    expect(await toast.textContent()).not.toContain('Someone changed the table first');

    // ? opens the help dialog with focus inside; Escape closes it and focus comes back.
    const opener = page.getByRole('button', { name: /Shortcuts/ });
    await opener.focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Close');
    expect(await dialog.textContent()).toContain('Next turn');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toContain('Shortcuts');

    // R jumps to the dice box; the focused box shows a visible focus ring.
    await page.keyboard.press('r');
    // (Strings, so this Node-side file needs no DOM types.)
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('dice-expr');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');

    // Esc leaves a box being typed in (review 9): then D goes to the acting creature's damage box, Esc leaves it
    // with its 3 untouched, and C opens the acting creature's condition picker (GM-FLOW) instead of typing a "c".
    await page.keyboard.press('Escape');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).not.toBe('dice-expr');
    await page.keyboard.press('d');
    expect(await page.evaluate("document.activeElement && document.activeElement.getAttribute('data-damage-box') !== null")).toBe(true);
    await page.keyboard.type('3');
    await page.keyboard.press('Escape');
    expect(await page.evaluate("document.activeElement && document.activeElement.getAttribute('data-damage-box')")).toBeNull();
    await page.keyboard.press('c');
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).toMatch(/^cond-.+-cond$/);
    expect(await page.evaluate("document.querySelector('input[data-damage-box]').value")).toBe('3');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);

    expect(errors).toEqual([]);
  });
});
