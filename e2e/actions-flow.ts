// Shared steps of the actions browser tests (ADR 23): a table made over the
// HTTP API and a GM socket, a GM page and a phone page, and the clicks that
// open one of the actions panel's forms.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startE2e, type E2e, type ProtocolSocket } from './harness.ts';
import { recordFrames, watchErrors } from './web.ts';

export interface Night {
  readonly e2e: E2e;
  readonly gmSock: ProtocolSocket;
  readonly seatId: string;
  readonly links: { readonly gm: string; readonly seat: string };
  /** The id world.characters gave the character named so. */
  idOf(name: string): string;
}

export async function night(e2e: E2e, rulesetId: string, seatName: string): Promise<Night> {
  const made = await e2e.post<{ tableId: string; gmToken: string; links: { gm: string } }>('/api/tables', { name: `Actions ${rulesetId}`, rulesetId });
  const seat = await e2e.post<{ seatId: string; token: string; link: string }>(`/api/tables/${made.tableId}/seats`, { name: seatName }, made.gmToken);
  const gmSock = await e2e.socket(made.gmToken);
  return {
    e2e,
    gmSock,
    seatId: seat.seatId,
    links: { gm: made.links.gm, seat: seat.link },
    idOf: (name) => Object.values(gmSock.view().world.characters).find((c) => c.name === name)!.id,
  };
}

export interface Screen {
  readonly p: Page;
  readonly frames: string[];
  readonly errors: string[];
}

export async function screen(browser: Browser, contexts: BrowserContext[], link: string, phone: boolean): Promise<Screen> {
  const ctx = await browser.newContext({ viewport: phone ? { width: 390, height: 844 } : { width: 1440, height: 960 } });
  contexts.push(ctx);
  const p = await ctx.newPage();
  const frames = recordFrames(p);
  const errors = watchErrors(p);
  await p.goto(link);
  await p.locator('[data-testid=conn-status][data-status=open]').waitFor();
  return { p, frames, errors };
}

/** Opens an action's form in the actions panel ("Attack", "Move"...) and returns the form. */
export async function openAction(p: Page, label: string): Promise<Locator> {
  const panel = p.getByTestId('actions-panel');
  await panel.getByRole('button', { name: new RegExp(`^${label} \\(`) }).click();
  const form = panel.getByTestId('action-form');
  await form.waitFor();
  return form;
}

/** Opens one of the Kleptonomicon Freeplay panel's actions (the phone's or the GM's) and returns its form. */
export async function openFreeplay(p: Page, label: string): Promise<Locator> {
  const panel = p.getByTestId('freeplay-actions');
  await panel.getByRole('button', { name: label, exact: true }).click();
  const form = panel.getByTestId('action-form');
  await form.waitFor();
  return form;
}

/** The odds headline shown before the roll, once the server has answered. */
export async function oddsOf(form: Locator, expected: string): Promise<void> {
  await expect.poll(() => form.getByTestId('action-odds').locator('strong').textContent()).toBe(expected);
}

/** Rolls (or sends) the open form and returns the result lines it shows. */
export async function roll(form: Locator, button: string): Promise<string> {
  await form.getByRole('button', { name: button, exact: true }).click();
  await expect.poll(() => form.getByTestId('action-result').count()).toBe(1);
  return (await form.getByTestId('action-result').textContent()) ?? '';
}

/** The GM moves the turn order on (choosing `id` when the Edge Saves tie) until it is `id`'s turn, within six steps. */
export async function untilTurnOf(sock: ProtocolSocket, id: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const enc = sock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
    if (enc.current === id) return;
    await sock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes(id) ? id : enc.pending.options[0] } : { type: 'encounter.endTurn' });
  }
}

/** Opens the GM's Settings, then its Table rules panel, and returns the panel. */
export async function openTableRules(p: Page): Promise<Locator> {
  await p.getByTestId('gm-settings').locator('summary', { hasText: /^Settings$/ }).click();
  await p.getByTestId('gm-settings').locator('summary', { hasText: /^Table rules$/ }).click();
  return p.getByTestId('table-rules');
}

export { startE2e };
