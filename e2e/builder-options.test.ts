// The encounter builder's initiative options and line-up in real Chromium (issue 20, ADR 73), as a GM clicks:
// - OSR: a PC added by the party form with its sheet is one Undo; the builder's line-up (with a hidden foe
//   marked "reveal when it acts") survives a reload; "one per foe type" makes the goblins share their slowest
//   DEX and act together; the hidden foe reaches the phone only when its turn starts.
// - The Kleptonomicon: "Re-roll initiative each round" survives a reload with the line-up (ADR 81), rolls the Edge
//   Saves again at round 2, and the log says it.
// - The 36th Way and teams offer neither option (their order is already by side).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { builderLine, characterNamed, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('builder-options');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const order = async (p: Page) => (await p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').locator('.name').allTextContents()).map((s) => s.replace('you', '').trim());
const lined = async (p: Page) => (await p.getByTestId('builder-rows').locator('li strong').allTextContents()).map((s) => s.trim());

/**
 * Starts watching the page for the initiative options to say `words`; what it returns resolves with the options this
 * device keeps with the line-up, read at the very DOM change that shows them (a mutation observer runs before the next
 * frame or timer), or null when none are kept or the words never come within 10 s.
 */
async function keptWhenShown(p: Page, tableId: string, words: string): Promise<() => Promise<{ [k: string]: unknown } | null>> {
  // The page's own globals, typed here: this Node-side file has no DOM types.
  type Observer = { observe(target: unknown, o: { subtree: boolean; childList: boolean; characterData: boolean }): void; disconnect(): void };
  type InPage = {
    document: { querySelector(s: string): { textContent: string | null } | null; body: unknown };
    localStorage: { getItem(k: string): string | null };
    MutationObserver: new (seen: () => void) => Observer;
    tkKeptWhenShown?: Promise<{ [k: string]: unknown } | null>;
  };
  await p.evaluate(
    ([id, want]) => {
      const g = globalThis as unknown as InPage;
      const shown = () => (g.document.querySelector('[data-testid=initiative-options]')?.textContent ?? '').includes(want!);
      const kept = () => (JSON.parse(g.localStorage.getItem(`tk.lineup.${id!}`) ?? 'null') as { options?: { [k: string]: unknown } } | null)?.options ?? null;
      g.tkKeptWhenShown = new Promise((resolve) => {
        const seen = new g.MutationObserver(() => {
          if (!shown()) return;
          seen.disconnect();
          resolve(kept());
        });
        seen.observe(g.document.body, { subtree: true, childList: true, characterData: true });
        setTimeout(() => {
          seen.disconnect();
          resolve(null);
        }, 10_000);
      });
    },
    [tableId, words] as const,
  );
  return () => p.evaluate(() => (globalThis as unknown as InPage).tkKeptWhenShown ?? null);
}

describe('encounter builder options', () => {
  it('OSR: party form in one undo step; a reloaded line-up; group initiative per foe type; a foe revealed when it acts', async () => {
    const t = await e2e!.table('osr', 'Builder night');
    const seat = await e2e!.seat(t, 'Ann');
    const sock = await e2e!.socket(t.gmToken);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);

    // --- Brak by the party form, his DEX on the sheet: one change, so one Undo takes both back.
    const add = gm.p.getByTestId('add-character-form');
    await add.locator('summary').click();
    await add.getByLabel('Name', { exact: true }).fill('Brak');
    await add.getByLabel('Player seat').selectOption({ label: 'Ann' });
    await add.getByLabel(/^Dexterity \(DEX\)/).fill('13');
    await add.getByRole('button', { name: 'Add character' }).click();
    await expect.poll(() => add.getByTestId('add-character-note').textContent()).toBe('Brak joined the table, played by Ann.');
    const undo = gm.p.getByTestId('undo');
    await expect.poll(() => undo.textContent()).toBe('↶ Undo: adding Brak');
    expect(sock.view().world.characters[characterNamed(sock, 'Brak')]!.stats).toMatchObject({ dex: 13 });
    await undo.click();
    await expect.poll(() => Object.keys(sock.view().world.characters).length).toBe(0);
    // Added again for the fight (the form is fresh).
    await add.getByLabel('Name', { exact: true }).fill('Brak');
    await add.getByLabel('Player seat').selectOption({ label: 'Ann' });
    await add.getByLabel(/^Dexterity \(DEX\)/).fill('13');
    await add.getByRole('button', { name: 'Add character' }).click();
    await expect.poll(() => add.getByTestId('add-character-note').textContent()).toBe('Brak joined the table, played by Ann.');

    // --- The line-up: the party, two fast goblins, a slow one, and a hidden Lurker that reveals itself when it acts.
    const builder = gm.p.getByTestId('encounter-builder');
    // A PC added while the builder is open joins the line-up by itself (ADR 74).
    await expect.poll(() => builder.getByTestId('builder-rows').textContent()).toContain('Brak');
    await builderLine(gm.p, { name: 'Goblin x2', 'init-dex': '15', hp: '5' });
    await builderLine(gm.p, { name: 'Goblin', 'init-dex': '8', hp: '5' });
    const form = gm.p.locator('form:has(#build-name)');
    await form.locator('#build-name').fill('Lurker');
    await form.locator('#build-init-dex').fill('9');
    await form.locator('#build-hp').fill('9');
    await form.getByLabel('hidden', { exact: true }).check();
    await form.getByLabel('reveal when it acts').check();
    await form.locator('button[type=submit]').click();
    await expect.poll(() => lined(gm.p)).toEqual(['Brak', 'Goblin 1', 'Goblin 2', 'Goblin', 'Lurker']);
    await expect.poll(() => builder.getByTestId('builder-rows').textContent()).toContain('hidden until it acts');
    expect(await builder.getByLabel('reveal Lurker when it acts').isChecked()).toBe(true);

    // --- One initiative per foe type, chosen before the reload: it is kept with the line-up (ADR 81).
    const options = gm.p.getByTestId('initiative-options');
    expect(await options.getByLabel('Re-roll initiative each round').count()).toBe(0);
    // Once the screen shows the pick, this device keeps it, so a reload at once keeps it too (CI lost it once: the
    // builder kept its draft a frame after showing it, and the reload came first).
    const keptThen = await keptWhenShown(gm.p, t.tableId, 'slowest member');
    await options.getByLabel("Foes' initiative").selectOption('type');
    expect(await keptThen()).toMatchObject({ grouping: 'type' });
    await expect.poll(() => options.textContent()).toContain('slowest member');

    // --- A reload keeps the draft and its options (this device, this table).
    await gm.p.reload();
    await gm.p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => lined(gm.p)).toEqual(['Brak', 'Goblin 1', 'Goblin 2', 'Goblin', 'Lurker']);
    expect(await gm.p.getByTestId('encounter-builder').getByLabel('reveal Lurker when it acts').isChecked()).toBe(true);
    expect(await options.getByLabel("Foes' initiative").inputValue()).toBe('type');
    await expect.poll(() => options.textContent()).toContain('slowest member');

    // --- The goblins at their slowest DEX (8), together; the Lurker keeps its 9.
    expect(await axeViolations(gm.p)).toEqual([]);
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => order(gm.p)).toEqual(['Brak', 'Lurker', 'Goblin 1', 'Goblin 2', 'Goblin']);

    // The draft is gone once the fight starts: a reload shows the running fight, and no kept line-up.
    expect(await gm.p.evaluate((id) => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(`tk.lineup.${id}`), t.tableId)).toBeNull();

    // --- The phone sees no Lurker until its turn starts, then sees it without a click.
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    await expect.poll(() => order(ann.p)).toEqual(['Brak', 'Goblin 1', 'Goblin 2', 'Goblin']);
    expect(ann.frames.join('\n')).not.toContain('Lurker');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => order(ann.p)).toEqual(['Brak', 'Lurker', 'Goblin 1', 'Goblin 2', 'Goblin']);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Lurker is revealed.');
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('Kleptonomicon: "Re-roll initiative each round" rolls the Edge Saves again when round 2 starts, and the log says so', async () => {
    const t = await e2e!.table('kleptonomicon', 'Reroll night');
    const sock = await e2e!.socket(t.gmToken);
    await sock.command({ type: 'character.add', name: 'Alice', kind: 'pc', stats: { edgeSave: 1 } });
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    // The party is lined up already (the table's PCs).
    await expect.poll(() => lined(gm.p)).toEqual(['Alice']);
    await builderLine(gm.p, { name: 'Rat x2', hp: '4' });
    await builderLine(gm.p, { name: 'Wolf', hp: '6' });
    await expect.poll(() => lined(gm.p)).toEqual(['Alice', 'Rat 1', 'Rat 2', 'Wolf']);
    const options = gm.p.getByTestId('initiative-options');
    // Group initiative is not offered: 004 already groups the foes by type.
    expect(await options.getByLabel("Foes' initiative").count()).toBe(0);
    const box = options.getByLabel('Re-roll initiative each round');
    expect(await box.isChecked()).toBe(false);
    await box.check();
    // Kept with the line-up: a reload still has the box ticked (the table setting is off).
    await gm.p.reload();
    await gm.p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => lined(gm.p)).toEqual(['Alice', 'Rat 1', 'Rat 2', 'Wolf']);
    expect(await options.getByLabel('Re-roll initiative each round').isChecked()).toBe(true);
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => order(gm.p).then((o) => o.length)).toBe(4);
    // Alice's Edge Save rolls as the GM's view holds them (recorded dice).
    const rolls = () => JSON.stringify(Object.values((sock.view().world.ext['encounter'] as { combatants: Record<string, { kind: string; placement: unknown }> }).combatants).find((c) => c.kind === 'pc')?.placement ?? null);
    const first = rolls();
    expect(first).toContain('rolls');
    // Play round 1 through with the tracker's own button until round 2 begins (four turns).
    for (let i = 0; i < 4; i++) {
      const before = await gm.p.getByTestId('log').textContent();
      if (before!.includes('Round 2 begins.')) break;
      await gm.p.getByTestId('next-turn').click();
      await expect.poll(() => gm.p.getByTestId('log').textContent()).not.toBe(before);
    }
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Initiative is rolled again for round 2: see the new order.');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Round 2 begins.');
    // Exactly one re-roll so far (round 2's), told to everyone; Alice's placement still holds recorded rolls.
    expect(sock.view().world.log.filter((l) => l.kind === 'encounter.initiativeRerolled')).toHaveLength(1);
    expect(rolls()).toContain('rolls');
    await expect.poll(() => order(gm.p).then((o) => o.length)).toBe(4);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('the 36th Way and teams offer neither option: their turn orders are already by side', async () => {
    for (const rules of ['36th-way', 'teams']) {
      const t = await e2e!.table(rules, `No options ${rules}`);
      const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
      await gm.p.getByTestId('encounter-builder').waitFor();
      await builderLine(gm.p, { name: 'Goblin x2' });
      await expect.poll(() => lined(gm.p), { message: rules }).toEqual(['Goblin 1', 'Goblin 2']);
      expect(await gm.p.getByTestId('initiative-options').count(), rules).toBe(0);
      expect(gm.errors, rules).toEqual([]);
    }
  });
});
